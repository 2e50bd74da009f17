//! The model of a fault-injection world: the testkit's [`Model`] driven call by call as the
//! world's calls run, observers and their commands included, with the fault the operation
//! carries, and each call ending as the crate promises (see the table in [`super`]).
//!
//! Every method is one `World` call (or one command, one stage) and says how it ends: it
//! returns, or it panics with one of a set of messages (a set when two `Drop`s of one loop
//! panic, in an order the model does not fix). The model's state after a method is what the
//! world must hold after the call, returning or panicking.

use std::collections::{BTreeMap, BTreeSet};

use ecs_core::prelude::*;

use super::values::{Ash, Fuse, Glow, Link, Watcher, charged, drop_message, map_message};
use super::values::{Wick, observer_message};
use crate::component::{Key, Value};
use crate::model::{Model, Status};

/// The messages one of which a call that panics must panic with.
pub type Panic = BTreeSet<String>;

/// How a call ends.
#[derive(Debug, PartialEq)]
pub enum Ends<T> {
    /// It returns.
    Returns(Result<T, Error>),
    /// It panics.
    Panics(Panic),
}

/// The first panic of a call that goes on past panics (keeps the first, as the crate's
/// `DeferredPanic` does).
#[derive(Default)]
struct First(Option<Panic>);

impl First {
    fn keep(&mut self, panic: Option<Panic>) {
        if self.0.is_none() {
            self.0 = panic.filter(|p| !p.is_empty());
        }
    }

    fn ends<T>(self, value: T) -> Ends<T> {
        match self.0 {
            Some(panic) => Ends::Panics(panic),
            None => Ends::Returns(Ok(value)),
        }
    }
}

/// A command an observer recorded.
#[derive(Debug)]
enum Deferred {
    /// `insert(entity, Glow(wick))`
    Glow(Entity, u64),
    /// `spawn(Ash(fuse))`, under the reserved id.
    Ash(Entity, u64),
}

/// The commands a call's observers recorded, one queue per observer run, in run order.
type Queues = Vec<Vec<Deferred>>;

/// The kind of an event an observer may follow.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Event {
    Add,
    Insert,
    Remove,
}

/// One command as the model sees it: entities resolved, values as the model stores them.
#[derive(Clone, Debug)]
pub enum Planned {
    /// A spawn under the reserved id.
    Spawn(Entity, Vec<(Key, Value)>),
    /// `insert`; the value it replaces is dropped inside the command.
    Insert(Entity, Key, Value),
    /// `insert_bundle`
    InsertBundle(Entity, Vec<(Key, Value)>),
    /// `remove`; the value removed is dropped inside the command.
    Remove(Entity, Key),
    /// `despawn`
    Despawn(Entity),
    /// A command that panics.
    Panic,
}

impl Planned {
    /// The charged values the command holds until it applies.
    pub(super) fn values(&self) -> Vec<(Key, Value)> {
        match self {
            Planned::Spawn(_, writes) | Planned::InsertBundle(_, writes) => writes.clone(),
            Planned::Insert(_, key, value) => vec![(*key, value.clone())],
            _ => Vec::new(),
        }
    }
}

/// The panic message of a command that panics by itself.
pub const COMMAND_MESSAGE: &str = "fault: command";
/// The panic message of the system that records a frame's commands.
pub const SYSTEM_MESSAGE: &str = "fault: system scripted";
/// The panic message of the system that reads after it.
pub const READER_MESSAGE: &str = "fault: system inspect";

/// The model of a fault-injection world.
pub struct Shadow {
    /// Entities, ids and values.
    pub model: Model,
    /// For each live `Link`'s token id, the entity it names.
    pub links: BTreeMap<u64, Entity>,
    /// The model's copy of what is armed.
    drops: BTreeSet<u64>,
    observer: Option<(Watcher, u32)>,
    map: Option<u64>,
    /// Errors observers' commands must have reported since they were last taken.
    pub observer_errors: Vec<Error>,
}

fn id_of(value: &Value) -> u64 {
    match value {
        Value::U64(id) => *id,
        other => unreachable!("a charged value mirrors as its token id, not {other:?}"),
    }
}

fn fuse() -> Key {
    Key::of::<Fuse>()
}

fn wick() -> Key {
    Key::of::<Wick>()
}

fn one(message: String) -> Panic {
    BTreeSet::from([message])
}

impl Shadow {
    /// The model of a world whose checks probe `model`'s types.
    pub fn new(model: Model) -> Self {
        Shadow {
            model,
            links: BTreeMap::new(),
            drops: BTreeSet::new(),
            observer: None,
            map: None,
            observer_errors: Vec::new(),
        }
    }

    /// The value `id` panics when dropped inside a call.
    pub fn arm_drop(&mut self, id: u64) {
        self.drops.insert(id);
    }

    /// `watcher` panics on its `run`-th run from now.
    pub fn arm_observer(&mut self, watcher: Watcher, run: u32) {
        self.observer = Some((watcher, run));
    }

    /// The `Link` `id` panics when mapped.
    pub fn arm_map(&mut self, id: u64) {
        self.map = Some(id);
    }

    /// Disarms what did not fire.
    pub fn disarm(&mut self) {
        self.drops.clear();
        self.observer = None;
        self.map = None;
    }

    /// The token ids of every charged value the world holds.
    pub fn charges(&self) -> BTreeSet<u64> {
        let mut ids = BTreeSet::new();
        for record in self.model.live().values() {
            ids.extend(
                record
                    .iter()
                    .filter(|(key, _)| charged(**key))
                    .map(|(_, v)| id_of(v)),
            );
        }
        ids
    }

    /// The token ids of the charged values `entity` holds, if it is alive.
    pub fn charges_of(&self, entity: Entity) -> Vec<u64> {
        match self.model.live().get(&entity) {
            Some(record) => record
                .iter()
                .filter(|(key, _)| charged(**key))
                .map(|(_, v)| id_of(v))
                .collect(),
            None => Vec::new(),
        }
    }

    /// A value leaves the world inside a call: the messages of the armed `Drop`s among
    /// `values` (one loop: any of them may panic first).
    fn dropped(&mut self, values: impl IntoIterator<Item = (Key, Value)>) -> Option<Panic> {
        let mut panic = Panic::new();
        for (key, value) in values {
            if charged(key) {
                let id = id_of(&value);
                if key == Key::of::<Link>() {
                    self.links.remove(&id);
                }
                if self.drops.remove(&id) {
                    panic.insert(drop_message(id));
                }
            }
        }
        (!panic.is_empty()).then_some(panic)
    }

    /// The observer following `event` on `key`, if any.
    fn watcher(event: Event, key: Key) -> Option<Watcher> {
        match event {
            Event::Insert if key == wick() => Some(Watcher::Glow),
            Event::Remove if key == fuse() => Some(Watcher::Ash),
            Event::Add if key == fuse() => Some(Watcher::Lit),
            _ => None,
        }
    }

    /// Runs the observers of `event` on `key` of `entity`, their commands going to `queues`;
    /// the panic of an armed one.
    fn notify(
        &mut self,
        event: Event,
        key: Key,
        entity: Entity,
        queues: &mut Queues,
    ) -> Option<Panic> {
        let watcher = Self::watcher(event, key)?;
        let mut queue = Vec::new();
        match watcher {
            Watcher::Glow => {
                let value = self.model.get(entity, wick()).expect("the Wick inserted");
                queue.push(Deferred::Glow(entity, id_of(value)));
            }
            Watcher::Ash => {
                let value = self.model.get(entity, fuse()).expect("the Fuse leaving");
                let id = id_of(value);
                // The id `commands.spawn` reserves: the next one the allocator hands out.
                let reserved = self.model.spawn([]);
                queue.push(Deferred::Ash(reserved, id));
            }
            Watcher::Lit => {}
        }
        queues.push(queue);
        match &mut self.observer {
            Some((armed, run)) if *armed == watcher => {
                *run -= 1;
                if *run == 0 {
                    self.observer = None;
                    return Some(one(observer_message(watcher)));
                }
                None
            }
            _ => None,
        }
    }

    /// After an observer's panic: every command of the call's observers is dropped and the
    /// ids their spawns reserved are despawned, in order; the panic goes on.
    fn abandon(&mut self, queues: Queues, first: &mut First) {
        for queue in queues {
            for deferred in queue {
                if let Deferred::Ash(reserved, _) = deferred {
                    let ends = self.despawn(reserved);
                    first.keep(panic_of(ends));
                }
            }
        }
    }

    /// Applies the commands of a call's observers, in order.
    fn apply_observed(&mut self, queues: Queues) {
        for deferred in queues.into_iter().flatten() {
            let ends = match deferred {
                Deferred::Glow(entity, id) => self
                    .insert(entity, Key::of::<Glow>(), Value::U64(id))
                    .map(drop),
                Deferred::Ash(reserved, id) => {
                    self.insert_bundle(reserved, &[(Key::of::<Ash>(), Value::U64(id))])
                }
            };
            match ends {
                Ends::Returns(Ok(())) => {}
                Ends::Returns(Err(error)) => self.observer_errors.push(error),
                Ends::Panics(panic) => unreachable!("observers' commands never panic: {panic:?}"),
            }
        }
    }

    /// Dispatches the additions a call made, in order, then applies their observers'
    /// commands; an observer's panic abandons them all.
    fn dispatch(&mut self, events: Vec<(Event, Key, Entity)>, first: &mut First) {
        let mut queues = Queues::new();
        for (event, key, entity) in events {
            // Observers never run for a component the entity no longer holds.
            if self
                .model
                .live()
                .get(&entity)
                .is_none_or(|r| !r.contains_key(&key))
            {
                continue;
            }
            if let Some(panic) = self.notify(event, key, entity, &mut queues) {
                first.keep(Some(panic));
                self.abandon(queues, first);
                return;
            }
        }
        self.apply_observed(queues);
    }

    /// Writes `writes` on the live `entity` in order, as a bundle does: every value is
    /// written, and those it replaces are dropped (their panics kept for the end of the call).
    fn write(
        &mut self,
        entity: Entity,
        writes: &[(Key, Value)],
        events: &mut Vec<(Event, Key, Entity)>,
        first: &mut First,
    ) {
        let mut replaced = Vec::new();
        for (key, value) in writes {
            match self.model.insert(entity, *key, value.clone()) {
                None => {
                    events.push((Event::Add, *key, entity));
                    events.push((Event::Insert, *key, entity));
                }
                Some(old) => {
                    events.push((Event::Insert, *key, entity));
                    replaced.push((*key, old));
                }
            }
        }
        for value in replaced {
            first.keep(self.dropped([value]));
        }
    }

    /// `spawn(bundle)`: the whole bundle arrives, its observers run; a replaced value's
    /// panic comes after both.
    pub fn spawn(&mut self, writes: &[(Key, Value)]) -> Ends<Entity> {
        let mut first = First::default();
        let mut events = Vec::new();
        let entity = self.model.spawn([]);
        self.write(entity, writes, &mut events, &mut first);
        self.dispatch(events, &mut first);
        first.ends(entity)
    }

    /// `spawn_batch`: every bundle spawned, then every observer run.
    pub fn spawn_batch(&mut self, bundles: &[Vec<(Key, Value)>]) -> Ends<Vec<Entity>> {
        let mut first = First::default();
        let mut events = Vec::new();
        let mut ids = Vec::new();
        for writes in bundles {
            let entity = self.model.spawn([]);
            self.write(entity, writes, &mut events, &mut first);
            ids.push(entity);
        }
        self.dispatch(events, &mut first);
        first.ends(ids)
    }

    /// `insert_bundle(entity, bundle)`.
    pub fn insert_bundle(&mut self, entity: Entity, writes: &[(Key, Value)]) -> Ends<()> {
        if let Err(error) = self.model.check(entity) {
            // The bundle is dropped unused.
            return match self.dropped(writes.to_vec()) {
                Some(panic) => Ends::Panics(panic),
                None => Ends::Returns(Err(error)),
            };
        }
        let mut first = First::default();
        let mut events = Vec::new();
        self.write(entity, writes, &mut events, &mut first);
        self.dispatch(events, &mut first);
        first.ends(())
    }

    /// `insert(entity, value)`: the value it replaces goes back to the caller.
    pub fn insert(&mut self, entity: Entity, key: Key, value: Value) -> Ends<Option<Value>> {
        if let Err(error) = self.model.check(entity) {
            return match self.dropped([(key, value)]) {
                Some(panic) => Ends::Panics(panic),
                None => Ends::Returns(Err(error)),
            };
        }
        let old = self.model.insert(entity, key, value);
        let mut events = vec![(Event::Insert, key, entity)];
        if old.is_none() {
            events.insert(0, (Event::Add, key, entity));
        }
        let mut first = First::default();
        self.dispatch(events, &mut first);
        if first.0.is_some() {
            // The replaced value is dropped while the panic unwinds.
            if let Some(old) = old.clone() {
                self.dropped([(key, old)]);
            }
        }
        first.ends(old)
    }

    /// `remove::<T>(entity)`: its `OnRemove` observers first; one of them panicking leaves
    /// the component in place. The removed value goes back to the caller.
    pub fn remove(&mut self, entity: Entity, key: Key) -> Ends<Value> {
        if let Err(error) = self.model.lookup(entity, key) {
            return Ends::Returns(Err(error));
        }
        let mut first = First::default();
        let mut queues = Queues::new();
        if let Some(panic) = self.notify(Event::Remove, key, entity, &mut queues) {
            first.keep(Some(panic));
            self.abandon(queues, &mut first);
            return first.ends(Value::Unit);
        }
        let value = self.model.remove(entity, key).expect("held");
        self.apply_observed(queues);
        first.ends(value)
    }

    /// `despawn(entity)`: its `OnRemove` observers first (one panicking leaves it alive);
    /// then every value dropped, whatever their `Drop`s do, and the observers' commands
    /// applied before a `Drop`'s panic goes on.
    pub fn despawn(&mut self, entity: Entity) -> Ends<()> {
        if let Err(error) = self.model.check(entity) {
            return Ends::Returns(Err(error));
        }
        let mut first = First::default();
        let mut queues = Queues::new();
        // The world announces in component id order; only `Fuse` has an `OnRemove` observer,
        // so the model's order of keys does not matter.
        let held: Vec<Key> = self.model.record(entity).keys().copied().collect();
        for key in held {
            if let Some(panic) = self.notify(Event::Remove, key, entity, &mut queues) {
                first.keep(Some(panic));
                self.abandon(queues, &mut first);
                return first.ends(());
            }
        }
        let record = self.model.record(entity).clone();
        self.model.despawn(entity);
        first.keep(self.dropped(record));
        self.apply_observed(queues);
        first.ends(())
    }

    /// `clear()`: every `OnRemove` observer first, entity by entity in index order (one
    /// panicking leaves the world as it was); then every entity but those the observers
    /// reserved is despawned and every value dropped, and the observers' commands apply.
    pub fn clear(&mut self) -> Ends<()> {
        let mut first = First::default();
        let mut queues = Queues::new();
        let alive: Vec<Entity> = self.model.live().keys().copied().collect();
        for entity in alive {
            let held: Vec<Key> = self.model.record(entity).keys().copied().collect();
            for key in held {
                if let Some(panic) = self.notify(Event::Remove, key, entity, &mut queues) {
                    first.keep(Some(panic));
                    self.abandon(queues, &mut first);
                    return first.ends(());
                }
            }
        }
        let kept: BTreeSet<Entity> = queues
            .iter()
            .flatten()
            .filter_map(|d| match d {
                Deferred::Ash(reserved, _) => Some(*reserved),
                Deferred::Glow(..) => None,
            })
            .collect();
        let values: Vec<(Key, Value)> = self
            .model
            .live()
            .iter()
            .filter(|(e, _)| !kept.contains(e))
            .flat_map(|(_, record)| record.clone())
            .collect();
        self.model.clear_except(&kept);
        first.keep(self.dropped(values));
        self.apply_observed(queues);
        first.ends(())
    }

    /// `merge(level)`, `level` being the model of the staging world and `links` where its
    /// `Link`s point: all or nothing when a `MapEntities` panics; otherwise every live entity
    /// of the level arrives under the next ids, in index order, and the observers of the
    /// arrivals run. Returns the `(old, new)` pairs.
    pub fn merge(
        &mut self,
        level: &Model,
        links: &BTreeMap<u64, Entity>,
    ) -> Ends<Vec<(Entity, Entity)>> {
        let arriving: Vec<u64> = level
            .live()
            .values()
            .flat_map(|record| record.get(&Key::of::<Link>()).map(id_of))
            .collect();
        if let Some(id) = self.map.filter(|id| arriving.contains(id)) {
            self.map = None;
            return Ends::Panics(one(map_message(id)));
        }
        let mut first = First::default();
        let mut pairs = Vec::new();
        let mut events = Vec::new();
        for (&old, record) in level.live() {
            let new = self.model.spawn([]);
            let writes: Vec<(Key, Value)> = record.iter().map(|(k, v)| (*k, v.clone())).collect();
            self.write(new, &writes, &mut events, &mut first);
            pairs.push((old, new));
        }
        for record in level.live().values() {
            if let Some(value) = record.get(&Key::of::<Link>()) {
                let id = id_of(value);
                let to = links[&id];
                let mapped = match level.status(to) {
                    Status::Alive => pairs.iter().find(|(old, _)| *old == to).expect("moved").1,
                    _ => to,
                };
                self.links.insert(id, mapped);
            }
        }
        // Per type, the arrivals in index order (the order does not change the outcome:
        // one observer's panic abandons every command of the call).
        events.sort_by_key(|&(event, key, entity)| (key, entity, event == Event::Insert));
        self.dispatch(events, &mut first);
        first.ends(pairs)
    }

    /// The commands of one buffer applied in order (a `flush`, or a stage's end), each a call
    /// of its own; failed ones go to `failed`. Should one panic: those before it stay applied,
    /// the rest are dropped, and the ids of the spawns that did not apply (its own too) are
    /// despawned.
    pub fn apply(&mut self, commands: Vec<Planned>, failed: &mut Vec<Error>) -> Option<Panic> {
        let mut commands = commands.into_iter();
        while let Some(command) = commands.next() {
            let spawning = match &command {
                Planned::Spawn(entity, _) => Some(*entity),
                _ => None,
            };
            let ends = self.command(command);
            match ends {
                Ends::Returns(Ok(())) => {}
                Ends::Returns(Err(error)) => failed.push(error),
                Ends::Panics(panic) => {
                    let mut first = First(Some(panic));
                    let rest: Vec<Planned> = commands.collect();
                    for planned in &rest {
                        // Not first: whatever these `Drop`s raise is dropped with them.
                        self.dropped(planned.values());
                    }
                    let unmade = spawning
                        .into_iter()
                        .chain(rest.iter().filter_map(|p| match p {
                            Planned::Spawn(entity, _) => Some(*entity),
                            _ => None,
                        }));
                    for entity in unmade.collect::<Vec<_>>() {
                        first.keep(panic_of(self.despawn(entity)));
                    }
                    return first.0;
                }
            }
        }
        None
    }

    /// One command, as the call it makes.
    fn command(&mut self, command: Planned) -> Ends<()> {
        match command {
            Planned::Spawn(entity, writes) | Planned::InsertBundle(entity, writes) => {
                self.insert_bundle(entity, &writes)
            }
            Planned::Insert(entity, key, value) => match self.insert(entity, key, value) {
                Ends::Returns(Ok(Some(old))) => match self.dropped([(key, old)]) {
                    Some(panic) => Ends::Panics(panic),
                    None => Ends::Returns(Ok(())),
                },
                other => other.map(drop),
            },
            Planned::Remove(entity, key) => match self.remove(entity, key) {
                Ends::Returns(Ok(value)) => match self.dropped([(key, value)]) {
                    Some(panic) => Ends::Panics(panic),
                    None => Ends::Returns(Ok(())),
                },
                other => other.map(drop),
            },
            Planned::Despawn(entity) => self.despawn(entity),
            Planned::Panic => Ends::Panics(one(COMMAND_MESSAGE.to_owned())),
        }
    }

    /// A stage whose system panicked, or a one-shot system's run that panicked: every buffer
    /// is dropped unapplied (a panicking `Drop` among them dropped past: the system's panic
    /// goes on) and the ids its spawns reserved (`reserved`, in order) are despawned.
    pub fn drop_stage(&mut self, recorded: &[Planned], reserved: &[Entity]) {
        for planned in recorded {
            self.dropped(planned.values());
        }
        for &entity in reserved {
            let ends = self.despawn(entity);
            assert_eq!(ends, Ends::Returns(Ok(())), "a reserved id holds nothing");
        }
    }
}

fn panic_of<T>(ends: Ends<T>) -> Option<Panic> {
    match ends {
        Ends::Panics(panic) => Some(panic),
        Ends::Returns(_) => None,
    }
}

impl<T> Ends<T> {
    /// The same ending with the returned value changed.
    pub fn map<U>(self, f: impl FnOnce(T) -> U) -> Ends<U> {
        match self {
            Ends::Returns(result) => Ends::Returns(result.map(f)),
            Ends::Panics(panic) => Ends::Panics(panic),
        }
    }
}
