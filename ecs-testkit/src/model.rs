//! The reference model of a world.
//!
//! Live entities and their components in a `BTreeMap`; a copy of the allocator rules (LIFO free
//! list, version bump, retirement at `u32::MAX`) so that spawned ids are predicted exactly, index
//! and version; every id ever handed out, so a handle is classified as alive, despawned or never
//! spawned both by the slot rule and by history, and the two must agree; the order in which
//! component types were first registered (`ComponentId` order, and the order `components_of`
//! lists); the sparse pages each storage must have allocated; the declared groups.
//!
//! [`Model::assert_stats`] and [`Model::assert_world`] compare a world with the model.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet, VecDeque};

use ecs_core::ComponentInfo;
use ecs_core::diagnostics::{HeldComponent, WorldStats};
use ecs_core::prelude::*;

use crate::component::{Key, Value};

/// What the model says one live entity holds.
pub type Record = BTreeMap<Key, Value>;

/// How the model classifies a handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    /// Alive now.
    Alive,
    /// Was alive once.
    Despawned,
    /// Never handed out by this world.
    NeverSpawned,
}

/// Which dead ids [`Model::assert_world`] checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DeadIds {
    /// Every id ever despawned.
    All,
    /// The last [`RECENT`] despawned.
    Recent,
}

/// How many recent ids the model remembers for operands and checks.
pub const RECENT: usize = 32;

/// Builds a handle from its parts.
pub fn ent(index: u32, version: u32) -> Entity {
    Entity::from_bits((u64::from(version) << 32) | u64::from(index)).expect("version is non-zero")
}

/// The `MissingComponent` error for `key`.
pub fn missing(entity: Entity, key: Key) -> Error {
    Error::MissingComponent {
        entity,
        component: key.type_name(),
    }
}

fn remember(ring: &mut VecDeque<Entity>, e: Entity) {
    if ring.len() == RECENT {
        ring.pop_front();
    }
    ring.push_back(e);
}

/// The reference model of a world made by `World::new`.
#[derive(Debug, Default)]
pub struct Model {
    pub(crate) live: BTreeMap<Entity, Record>,
    /// One `(version, alive)` per slot ever used.
    pub(crate) slots: Vec<(u32, bool)>,
    /// LIFO free list of slot indices.
    free: Vec<u32>,
    /// Component types in the order the world first registered them.
    order: Vec<Key>,
    /// `(type, page)` for every sparse page each storage must have allocated.
    pages: BTreeSet<(Key, u32)>,
    /// Declared groups: the group's type name and its distinct types in declaration order.
    groups: Vec<(&'static str, Vec<Key>)>,
    /// Every id despawned (each once: ids are never reused).
    stale: BTreeSet<Entity>,
    /// The same ids in the order they died.
    pub(crate) stale_order: Vec<Entity>,
    /// The last ids spawned (alive or not).
    pub(crate) spawned: VecDeque<Entity>,
    /// The last ids despawned.
    pub(crate) dead: VecDeque<Entity>,
    /// Types checked on every live and dead entity, held or not.
    probe: Vec<Key>,
    /// How many live entities hold each type (kept as records change: checks ask often).
    counts: BTreeMap<Key, usize>,
}

impl Model {
    /// The model of an empty world.
    pub fn new() -> Self {
        Self::default()
    }

    /// The model of an empty world whose checks also look for `probe` types on every entity,
    /// whether it holds them or not (held types are always checked).
    pub fn probing(probe: impl IntoIterator<Item = Key>) -> Self {
        Model {
            probe: probe.into_iter().collect(),
            ..Model::default()
        }
    }

    /// Number of live entities.
    pub fn len(&self) -> usize {
        self.live.len()
    }

    /// Whether no entity is alive.
    pub fn is_empty(&self) -> bool {
        self.live.is_empty()
    }

    /// The live entities and what they hold, in id order.
    pub fn live(&self) -> &BTreeMap<Entity, Record> {
        &self.live
    }

    /// What the live `entity` holds.
    pub fn record(&self, entity: Entity) -> &Record {
        self.live.get(&entity).expect("model entity is alive")
    }

    /// The value of `key` the live `entity` holds.
    pub fn get(&self, entity: Entity, key: Key) -> Option<&Value> {
        self.record(entity).get(&key)
    }

    /// Every id despawned so far.
    pub fn stale(&self) -> &BTreeSet<Entity> {
        &self.stale
    }

    /// Number of allocator slots.
    pub fn slot_count(&self) -> u32 {
        u32::try_from(self.slots.len()).expect("fewer than 2^32 slots")
    }

    /// The version of slot `index` (its occupant's, or its last occupant's), if it exists.
    pub fn slot_version(&self, index: u32) -> Option<u32> {
        self.slots.get(index as usize).map(|s| s.0)
    }

    /// The component types the world has registered, in `ComponentId` order.
    pub fn registered(&self) -> &[Key] {
        &self.order
    }

    /// How many live entities hold `key`.
    pub fn count(&self, key: Key) -> usize {
        self.counts.get(&key).copied().unwrap_or(0)
    }

    /// The id the next spawn returns.
    pub fn peek_next(&self) -> Entity {
        match self.free.last() {
            Some(&index) => ent(index, self.slots[index as usize].0 + 1),
            None => ent(self.slot_count(), 1),
        }
    }

    fn alloc(&mut self) -> Entity {
        if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            assert!(!slot.1 && slot.0 < u32::MAX, "model free list is broken");
            slot.0 += 1;
            slot.1 = true;
            return ent(index, slot.0);
        }
        let index = self.slot_count();
        self.slots.push((1, true));
        ent(index, 1)
    }

    /// A freed slot goes on the free list unless its version is at the top (retired).
    fn free_slot(&mut self, index: u32) {
        let slot = &mut self.slots[index as usize];
        assert!(slot.1, "model frees a dead slot");
        slot.1 = false;
        if slot.0 < u32::MAX {
            self.free.push(index);
        }
    }

    fn mark_dead(&mut self, e: Entity) {
        assert!(self.stale.insert(e), "an id died twice in the model");
        self.stale_order.push(e);
        remember(&mut self.dead, e);
    }

    /// Notes that the world registered these types (in this order) if it had not yet.
    pub fn register(&mut self, keys: &[Key]) {
        for &key in keys {
            if !self.order.contains(&key) {
                self.order.push(key);
            }
        }
    }

    /// `spawn` of a bundle that writes `writes` in this order (a repeated type: the later value
    /// stays): the id the world must return.
    pub fn spawn(&mut self, writes: impl IntoIterator<Item = (Key, Value)>) -> Entity {
        let e = self.alloc();
        assert!(self.live.insert(e, Record::new()).is_none());
        remember(&mut self.spawned, e);
        for (key, value) in writes {
            self.insert(e, key, value);
        }
        e
    }

    /// Writes `value` on the live `entity`, registering its type first if needed; returns the
    /// value it replaces.
    pub fn insert(&mut self, entity: Entity, key: Key, value: Value) -> Option<Value> {
        self.register(&[key]);
        self.pages.insert((key, entity.index() >> 12));
        let old = self
            .live
            .get_mut(&entity)
            .expect("model entity is alive")
            .insert(key, value);
        if old.is_none() {
            *self.counts.entry(key).or_default() += 1;
        }
        old
    }

    /// Removes `key` from the live `entity`; the value it held.
    pub fn remove(&mut self, entity: Entity, key: Key) -> Option<Value> {
        let old = self
            .live
            .get_mut(&entity)
            .expect("model entity is alive")
            .remove(&key);
        if old.is_some() {
            *self.counts.get_mut(&key).expect("counted") -= 1;
        }
        old
    }

    /// Despawns the live `entity`.
    pub fn despawn(&mut self, entity: Entity) {
        let record = self.live.remove(&entity).expect("model despawns a dead id");
        for key in record.keys() {
            *self.counts.get_mut(key).expect("counted") -= 1;
        }
        self.free_slot(entity.index());
        self.mark_dead(entity);
    }

    /// `World::clear`: every live slot is freed in index order, so the highest index pops first.
    pub fn clear(&mut self) {
        self.clear_except(&BTreeSet::new());
    }

    /// `World::clear` while `kept` (ids the `OnRemove` observers of the clear reserved) stay
    /// alive: every other live slot is freed in index order.
    pub fn clear_except(&mut self, kept: &BTreeSet<Entity>) {
        for index in 0..self.slot_count() {
            let (version, alive) = self.slots[index as usize];
            if alive && !kept.contains(&ent(index, version)) {
                self.free_slot(index);
            }
        }
        for (e, record) in std::mem::take(&mut self.live) {
            if kept.contains(&e) {
                self.live.insert(e, record);
                continue;
            }
            for key in record.keys() {
                *self.counts.get_mut(key).expect("counted") -= 1;
            }
            self.mark_dead(e);
        }
    }

    /// Classifies `entity` by the slot rule (the live occupant is alive; a version at or below
    /// the slot's was despawned; a higher version, or an index past every slot, was never
    /// spawned), cross-checked against the history of ids handed out.
    pub fn status(&self, entity: Entity) -> Status {
        let by_slot = match self.slots.get(entity.index() as usize) {
            None => Status::NeverSpawned,
            Some(&(version, alive)) if entity.version() == version && alive => Status::Alive,
            Some(&(version, _)) if entity.version() <= version => Status::Despawned,
            Some(_) => Status::NeverSpawned,
        };
        let by_history = if self.live.contains_key(&entity) {
            Status::Alive
        } else if self.stale.contains(&entity) {
            Status::Despawned
        } else {
            Status::NeverSpawned
        };
        assert_eq!(by_slot, by_history, "model inconsistent about {entity:?}");
        by_slot
    }

    /// `Ok(())` if `entity` is alive, else the error every entity API must give for it.
    pub fn check(&self, entity: Entity) -> Result<(), Error> {
        match self.status(entity) {
            Status::Alive => Ok(()),
            Status::Despawned => Err(Error::Despawned { entity }),
            Status::NeverSpawned => Err(Error::NeverSpawned { entity }),
        }
    }

    /// What `get::<T>` (and `remove::<T>`) must answer for `entity`.
    pub fn lookup(&self, entity: Entity, key: Key) -> Result<Value, Error> {
        self.check(entity)?;
        self.record(entity)
            .get(&key)
            .cloned()
            .ok_or_else(|| missing(entity, key))
    }

    /// Short names of the live `entity`'s types in registration order, as `components_of`
    /// lists them.
    pub fn names(&self, entity: Entity) -> Vec<Cow<'static, str>> {
        let record = self.record(entity);
        self.order
            .iter()
            .filter(|key| record.contains_key(key))
            .map(|key| key.short_name())
            .collect()
    }

    /// What `World::group` answers for a group named `name` of the types `order` (in write
    /// order, repeats included), and the group it declares.
    pub fn group(&mut self, name: &'static str, order: &[Key]) -> Result<(), Error> {
        self.register(order);
        let mut distinct: Vec<Key> = Vec::new();
        for &key in order {
            if !distinct.contains(&key) {
                distinct.push(key);
            }
        }
        if distinct.len() < 2 {
            return Err(Error::GroupTooSmall { group: name });
        }
        let set: BTreeSet<Key> = distinct.iter().copied().collect();
        for &key in &distinct {
            if let Some((other, owned)) = self.groups.iter().find(|(_, owned)| owned.contains(&key))
            {
                if owned.iter().copied().collect::<BTreeSet<_>>() == set {
                    return Ok(());
                }
                return Err(Error::GroupConflict {
                    group: name,
                    other,
                    component: key.type_name(),
                });
            }
        }
        self.groups.push((name, distinct));
        Ok(())
    }

    /// Whether some group owns exactly `keys`.
    pub fn grouped(&self, keys: &[Key]) -> bool {
        let set: BTreeSet<Key> = keys.iter().copied().collect();
        self.groups
            .iter()
            .any(|(_, owned)| owned.iter().copied().collect::<BTreeSet<_>>() == set)
    }

    /// Every id ever handed out, plus ids this world never handed out: the next version of
    /// every slot, the first index past the slots, and the largest index.
    pub fn probes(&self) -> Vec<Entity> {
        let mut probes: Vec<Entity> = self.live.keys().chain(&self.stale).copied().collect();
        probes.sort();
        for (index, &(version, _)) in self.slots.iter().enumerate() {
            if version < u32::MAX {
                probes.push(ent(index as u32, version + 1));
            }
        }
        probes.push(ent(self.slot_count(), 1));
        probes.push(ent(u32::MAX, 1));
        probes
    }

    /// Checks one `ComponentInfo` against the registration order; its short name.
    pub fn check_info<'a>(&self, info: &'a ComponentInfo) -> Cow<'a, str> {
        let key = self.order[info.id().index()];
        assert_eq!(info.name(), key.short_name(), "ComponentInfo::name");
        assert_eq!(
            info.type_name(),
            key.type_name(),
            "ComponentInfo::type_name"
        );
        assert_eq!(info.size(), key.size(), "ComponentInfo::size");
        Cow::Borrowed(info.name())
    }

    /// The checked short names of a `components_of`-style list, in the world's order.
    pub fn info_names<'a>(
        &self,
        infos: impl Iterator<Item = HeldComponent<'a>>,
    ) -> Vec<Cow<'a, str>> {
        infos.map(|held| self.check_info(held.info())).collect()
    }

    /// Compares `World::stats`, `len` and `is_empty` with the model, field by field.
    pub fn assert_stats(&self, world: &World) {
        let s: WorldStats = world.stats();
        assert_eq!(s.live_entities, self.live.len(), "stats.live_entities");
        assert_eq!(s.entity_slots, self.slots.len(), "stats.entity_slots");
        assert_eq!(s.free_slots, self.free.len(), "stats.free_slots");
        let retired = self
            .slots
            .iter()
            .filter(|&&(v, alive)| !alive && v == u32::MAX)
            .count();
        assert_eq!(s.retired_slots, retired, "stats.retired_slots");
        assert_eq!(
            s.live_entities + s.free_slots + s.retired_slots,
            s.entity_slots,
            "stats: live + free + retired == slots"
        );
        assert_eq!(s.component_types, self.order.len(), "stats.component_types");
        let per_type: Vec<(Key, usize)> = self.order.iter().map(|&k| (k, self.count(k))).collect();
        assert_eq!(
            s.components,
            per_type.iter().map(|(_, n)| n).sum::<usize>(),
            "stats.components"
        );
        assert_eq!(s.sparse_pages, self.pages.len(), "stats.sparse_pages");
        // Capacity is at least length: slots (8 bytes), free list (4), pages (at least a
        // presence bit per slot, full or loose: 512 bytes), and per type the dense entity ids
        // (8) and values.
        let heap = s.heap;
        let values = per_type.iter().map(|(k, n)| n * k.size()).sum::<usize>();
        let components = per_type.iter().map(|(_, n)| n).sum::<usize>();
        let floors = [
            (
                heap.entity_slots,
                self.slots.len() * 8 + self.free.len() * 4,
                "entity_slots",
            ),
            (
                heap.sparse_indexes,
                self.pages.len() * 4096 / 8,
                "sparse_indexes",
            ),
            (heap.dense_ids, components * 8, "dense_ids"),
            (heap.component_data, values, "component_data"),
        ];
        for (bytes, floor, structure) in floors {
            assert!(bytes >= floor, "stats.heap.{structure} {bytes} < {floor}");
        }
        assert_eq!(
            s.heap_bytes,
            heap.total(),
            "stats.heap_bytes is the breakdown's total"
        );
        assert_eq!(world.len(), self.live.len(), "len");
        assert_eq!(world.is_empty(), self.live.is_empty(), "is_empty");
    }

    /// Compares every value the live entities hold, or lack among the probed types, with the
    /// model, through `get`.
    pub fn assert_values(&self, world: &World) {
        assert_eq!(world.len(), self.live.len(), "len");
        for (&e, record) in &self.live {
            for &key in self.checked(record) {
                self.assert_holds(world, e, key, record);
            }
        }
    }

    /// `get` on the live `e` gives the value of `key` it holds, or `MissingComponent`.
    fn assert_holds(&self, world: &World, e: Entity, key: Key, record: &Record) {
        if !key.holds(world, e, record.get(&key)) {
            let expected = record.get(&key).cloned().ok_or_else(|| missing(e, key));
            assert_eq!(key.get(world, e), expected, "get::<{key:?}>({e:?})");
        }
    }

    /// The types checked on an entity holding `record`: the probed ones, then the others it
    /// holds.
    fn checked<'a>(&'a self, record: &'a Record) -> impl Iterator<Item = &'a Key> {
        let others = record.keys().filter(|key| !self.probe.contains(key));
        self.probe.iter().chain(others)
    }

    /// Compares everything observable about entities with the model: every live entity's
    /// values (held and probed types) and its `components_of` list; dead ids (`dead`: all of
    /// them, or the recent ones) and the next id answer with the right errors; the probed
    /// types' counts through queries.
    pub fn assert_world(&self, world: &World, dead: DeadIds) {
        let mut held: BTreeMap<Key, usize> = BTreeMap::new();
        for (&e, record) in &self.live {
            assert!(world.is_alive(e), "{e:?} should be alive");
            for &key in record.keys() {
                *held.entry(key).or_default() += 1;
            }
            for &key in self.checked(record) {
                self.assert_holds(world, e, key, record);
                assert_eq!(
                    key.contains(world, e),
                    record.contains_key(&key),
                    "contains::<{key:?}>({e:?})"
                );
            }
            let names = self.info_names(world.components_of(e).expect("alive"));
            assert_eq!(names, self.names(e), "components_of({e:?})");
        }
        let dead_ids: Box<dyn Iterator<Item = &Entity>> = match dead {
            DeadIds::All => Box::new(self.stale.iter()),
            DeadIds::Recent => Box::new(self.dead.iter()),
        };
        for &e in dead_ids {
            if self.status(e) == Status::Alive {
                continue;
            }
            let err = Error::Despawned { entity: e };
            assert!(!world.is_alive(e), "dead {e:?} is alive");
            for &key in &self.probe {
                assert!(!key.contains(world, e), "dead {e:?} contains {key:?}");
                assert_eq!(
                    key.get(world, e),
                    Err(err.clone()),
                    "get::<{key:?}> on dead {e:?}"
                );
            }
            assert_eq!(
                world.components_of(e).map(|_| ()),
                Err(err),
                "components_of dead {e:?}"
            );
        }
        // The id the next spawn will return has not been handed out yet.
        let next = self.peek_next();
        let never = Error::NeverSpawned { entity: next };
        assert!(!world.is_alive(next), "next id {next:?} is alive");
        for &key in &self.probe {
            assert_eq!(key.get(world, next), Err(never.clone()), "next id {next:?}");
        }
        assert_eq!(
            world.components_of(next).map(|_| ()),
            Err(never),
            "components_of next id {next:?}"
        );
        held.retain(|_, n| *n > 0);
        let mut counts = self.counts.clone();
        counts.retain(|_, n| *n > 0);
        assert_eq!(counts, held, "the model's own counts");
        for &key in &self.probe {
            assert_eq!(key.count(world), self.count(key), "entities with {key:?}");
        }
    }
}

#[cfg(test)]
mod tests {
    use std::panic::{AssertUnwindSafe, catch_unwind};

    use super::*;
    use crate::component::{Name, Pos, Tag, Which};

    fn probing() -> Model {
        Model::probing(Which::FUZZ.map(Which::key))
    }

    /// The allocator rules: a freed index is reused LIFO with its version bumped, `clear` frees
    /// in index order, and the model's checks pass on the world it mirrors.
    #[test]
    fn predicts_ids_and_agrees_with_the_world() {
        let mut world = World::new();
        let mut model = probing();
        let (p, n) = (Which::Pos.key(), Which::Name.key());
        for i in 0..5 {
            let e = world.spawn((Pos(i, 0), Name(format!("{i}"))));
            let writes = [(p, Value::Pair(i, 0)), (n, Value::Text(format!("{i}")))];
            assert_eq!(model.spawn(writes), e);
        }
        for index in [1, 3] {
            world.despawn(ent(index, 1)).expect("alive");
            model.despawn(ent(index, 1));
        }
        assert_eq!(model.peek_next(), ent(3, 2));
        assert_eq!(
            world.spawn(Tag),
            model.spawn([(Which::Tag.key(), Value::Unit)])
        );
        world.clear();
        model.clear();
        assert_eq!(model.peek_next(), ent(4, 2), "clear frees in index order");
        model.assert_stats(&world);
        model.assert_world(&world, DeadIds::All);
        assert_eq!(model.status(ent(1, 1)), Status::Despawned);
        assert_eq!(model.status(ent(1, 3)), Status::NeverSpawned);
        assert_eq!(
            model.check(ent(9, 1)),
            Err(Error::NeverSpawned { entity: ent(9, 1) })
        );
        assert_eq!(model.registered(), [p, n, Which::Tag.key()]);
    }

    /// A world changed behind the model's back fails the checks.
    #[test]
    fn checks_see_changes_behind_the_models_back() {
        let mut world = World::new();
        let mut model = probing();
        let e = world.spawn(Pos(1, 1));
        model.spawn([(Which::Pos.key(), Value::Pair(1, 1))]);
        world.insert(e, Pos(2, 2)).expect("alive");
        let failed = |f: &dyn Fn()| catch_unwind(AssertUnwindSafe(f)).is_err();
        assert!(failed(&|| model.assert_world(&world, DeadIds::Recent)));
        world.spawn(());
        assert!(failed(&|| model.assert_stats(&world)));
    }

    /// Group declarations follow the world's rules: two distinct types, the same set again is
    /// fine, a type in two groups is a conflict naming both.
    #[test]
    fn group_rules() {
        let mut model = Model::new();
        let (p, n, t) = (Which::Pos.key(), Which::Name.key(), Which::Tag.key());
        assert_eq!(
            model.group("(Pos, Pos)", &[p, p]),
            Err(Error::GroupTooSmall {
                group: "(Pos, Pos)"
            })
        );
        assert_eq!(model.group("(Pos, Name)", &[p, n]), Ok(()));
        assert_eq!(model.group("(Name, Pos)", &[n, p]), Ok(()));
        assert_eq!(
            model.group("(Tag, Name)", &[t, n]),
            Err(Error::GroupConflict {
                group: "(Tag, Name)",
                other: "(Pos, Name)",
                component: n.type_name(),
            })
        );
        assert!(model.grouped(&[n, p]));
        assert!(!model.grouped(&[p]));
    }
}
