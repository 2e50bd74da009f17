//! Model-based property test of `World`.
//!
//! A plain-Rust model (`Model`) holds what the world should contain: the live entities and their
//! components in a `BTreeMap`, every id ever handed out, and its own reimplementation of the
//! allocator rules, so it predicts the exact ids (index *and* version) that `spawn` and
//! `spawn_batch` return. Proptest generates sequences of [`Op`]s; each op runs against the world
//! and the model, their answers must agree (values and exact `Error` variants), and after every op
//! the whole observable state of the world is compared with the model.
//!
//! Extending it: add a variant to [`Op`] (queries, commands, merge, snapshots, ...), a strategy
//! arm in [`op`], and a match arm in [`Harness::apply`] that runs the operation on both sides and
//! compares the answers. [`Harness::check_state`] then compares everything else after the op.
//!
//! `ECS_MODEL_CASES` sets the number of generated cases (default 1000).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;

use ecs_core::prelude::*;
use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;

/// Plain-old-data component.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Pos(i32, i32);

/// Heap-owning component.
#[derive(Component, Clone, Debug, PartialEq)]
struct Name(String);

/// Zero-sized tag component.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Tag;

/// Longest generated op sequence.
const MAX_OPS: usize = 200;

// ---------------------------------------------------------------------------------------------
// The model
// ---------------------------------------------------------------------------------------------

/// What the model says one live entity holds.
#[derive(Clone, Debug, Default, PartialEq)]
struct ModelEntity {
    pos: Option<Pos>,
    name: Option<Name>,
    tag: bool,
}

impl ModelEntity {
    /// The short component names the entity holds, sorted.
    fn names(&self) -> BTreeSet<String> {
        let mut names = BTreeSet::new();
        if self.pos.is_some() {
            names.insert(Pos::NAME.to_owned());
        }
        if self.name.is_some() {
            names.insert(Name::NAME.to_owned());
        }
        if self.tag {
            names.insert(Tag::NAME.to_owned());
        }
        names
    }
}

/// The model's copy of one allocator slot.
#[derive(Clone, Copy, Debug)]
struct ModelSlot {
    /// Version of the occupant, or of the last occupant when free.
    version: u32,
    alive: bool,
}

/// How the model classifies a handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    Alive,
    Despawned,
    NeverSpawned,
}

/// The reference model of a world.
#[derive(Debug, Default)]
struct Model {
    /// Live entities and what they hold.
    live: BTreeMap<Entity, ModelEntity>,
    /// Every id handed out and since despawned (each appears once: ids are never reused).
    stale: BTreeSet<Entity>,
    /// The same stale ids in the order they died, so a target can pick one by position.
    stale_order: Vec<Entity>,
    /// The allocator: one slot per index ever used.
    slots: Vec<ModelSlot>,
    /// LIFO free list of indices.
    free: Vec<u32>,
    /// "`a` comes before `b` in `components_of`", as observed so far.
    order: BTreeSet<(String, String)>,
}

/// Builds a handle from its parts (the public API only has `from_bits`).
fn ent(index: u32, version: u32) -> Entity {
    Entity::from_bits((u64::from(version) << 32) | u64::from(index)).expect("version is non-zero")
}

impl Model {
    /// The id the next `spawn` must return, without allocating it.
    fn peek_next(&self) -> Entity {
        match self.free.last() {
            Some(&index) => ent(index, self.slots[index as usize].version + 1),
            None => ent(u32::try_from(self.slots.len()).expect("few slots"), 1),
        }
    }

    /// Allocator rule: pop the most recently freed index (version + 1), else a new slot at v1.
    fn alloc(&mut self) -> Entity {
        if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            assert!(!slot.alive && slot.version < u32::MAX, "model free list");
            slot.version += 1;
            slot.alive = true;
            return ent(index, slot.version);
        }
        let index = u32::try_from(self.slots.len()).expect("few slots");
        self.slots.push(ModelSlot {
            version: 1,
            alive: true,
        });
        ent(index, 1)
    }

    /// Allocator rule: a freed slot goes on the free list unless its version is at the top.
    fn free_slot(&mut self, index: u32) {
        let slot = &mut self.slots[index as usize];
        assert!(slot.alive, "model frees a dead slot");
        slot.alive = false;
        if slot.version < u32::MAX {
            self.free.push(index);
        }
    }

    /// Spawns `entity` in the model, which must be the id the allocator predicts.
    fn spawn(&mut self, contents: ModelEntity) -> Entity {
        let entity = self.alloc();
        assert!(self.live.insert(entity, contents).is_none());
        entity
    }

    /// Despawns the live `entity`.
    fn despawn(&mut self, entity: Entity) {
        assert!(self.live.remove(&entity).is_some(), "model despawns dead");
        self.free_slot(entity.index());
        self.mark_stale(entity);
    }

    fn mark_stale(&mut self, entity: Entity) {
        assert!(self.stale.insert(entity), "an id died twice in the model");
        self.stale_order.push(entity);
    }

    /// `World::clear`: every live slot is freed in index order, so the highest index pops first.
    fn clear(&mut self) {
        for index in 0..self.slots.len() {
            if self.slots[index].alive {
                self.free_slot(u32::try_from(index).expect("few slots"));
            }
        }
        for entity in std::mem::take(&mut self.live).into_keys() {
            self.mark_stale(entity);
        }
    }

    /// Classifies `entity` from the slot rule: a version at or below the slot's (other than the
    /// live occupant) was despawned, a higher version or an index past every slot never existed.
    fn status(&self, entity: Entity) -> Status {
        let by_slot = match self.slots.get(entity.index() as usize) {
            None => Status::NeverSpawned,
            Some(slot) if entity.version() == slot.version && slot.alive => Status::Alive,
            Some(slot) if entity.version() <= slot.version => Status::Despawned,
            Some(_) => Status::NeverSpawned,
        };
        // Cross-check against the history of ids actually handed out.
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

    /// The error every entity API must give for `entity`, or `None` if it is alive.
    fn dead_error(&self, entity: Entity) -> Option<Error> {
        match self.status(entity) {
            Status::Alive => None,
            Status::Despawned => Some(Error::Despawned { entity }),
            Status::NeverSpawned => Some(Error::NeverSpawned { entity }),
        }
    }

    /// `Ok(())` if `entity` is alive, else its error.
    fn check(&self, entity: Entity) -> Result<(), Error> {
        self.dead_error(entity).map_or(Ok(()), Err)
    }

    /// What `get::<T>` / `remove::<T>` must answer for `entity`.
    fn lookup<T: Kind>(&self, entity: Entity) -> Result<T, Error> {
        self.check(entity)?;
        T::get(&self.live[&entity]).ok_or_else(|| missing::<T>(entity))
    }

    fn live_mut(&mut self, entity: Entity) -> &mut ModelEntity {
        self.live.get_mut(&entity).expect("model entity is alive")
    }

    /// Records the order of one `components_of` answer and checks it against earlier ones:
    /// the world lists types in the one order it first saw them, so no pair may ever flip.
    fn observe_order(&mut self, names: &[String]) {
        for (i, a) in names.iter().enumerate() {
            for b in &names[i + 1..] {
                assert!(
                    !self.order.contains(&(b.clone(), a.clone())),
                    "components_of listed {a} before {b}, but earlier {b} before {a}"
                );
                self.order.insert((a.clone(), b.clone()));
            }
        }
    }
}

/// The `MissingComponent` error for `T`.
fn missing<T: Kind>(entity: Entity) -> Error {
    Error::MissingComponent {
        entity,
        component: std::any::type_name::<T>(),
    }
}

/// Links a component type to its field of `ModelEntity`.
trait Kind: Component + Clone + Debug + PartialEq {
    /// The short name `ComponentInfo::name` reports.
    const NAME: &'static str;
    fn get(m: &ModelEntity) -> Option<Self>;
    /// Stores `value` in the model and returns the previous value.
    fn set(m: &mut ModelEntity, value: Option<Self>) -> Option<Self>;
}

impl Kind for Pos {
    const NAME: &'static str = "Pos";
    fn get(m: &ModelEntity) -> Option<Self> {
        m.pos
    }
    fn set(m: &mut ModelEntity, value: Option<Self>) -> Option<Self> {
        std::mem::replace(&mut m.pos, value)
    }
}

impl Kind for Name {
    const NAME: &'static str = "Name";
    fn get(m: &ModelEntity) -> Option<Self> {
        m.name.clone()
    }
    fn set(m: &mut ModelEntity, value: Option<Self>) -> Option<Self> {
        std::mem::replace(&mut m.name, value)
    }
}

impl Kind for Tag {
    const NAME: &'static str = "Tag";
    fn get(m: &ModelEntity) -> Option<Self> {
        m.tag.then_some(Tag)
    }
    fn set(m: &mut ModelEntity, value: Option<Self>) -> Option<Self> {
        std::mem::replace(&mut m.tag, value.is_some()).then_some(Tag)
    }
}

// ---------------------------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------------------------

/// Which entity an op is aimed at. Resolved against the model when the op runs.
#[derive(Clone, Debug)]
enum Target {
    /// The `n % len`-th live entity in id order.
    Live(usize),
    /// The `n % len`-th despawned id, in the order they died.
    Stale(usize),
    /// An index `k` past the last slot the world ever allocated.
    BeyondSlots(u32),
    /// An allocated slot (`n % slots`) with a version `1 + k` above the slot's current one.
    FutureVersion(usize, u32),
    /// Any handle `Entity::from_bits` accepts.
    Bits(Entity),
}

impl Target {
    fn resolve(&self, model: &Model) -> Entity {
        let beyond = |k: u32| {
            let first_free = u32::try_from(model.slots.len()).expect("few slots");
            ent(first_free.saturating_add(k), 1)
        };
        match *self {
            Target::Live(n) if !model.live.is_empty() => *model
                .live
                .keys()
                .nth(n % model.live.len())
                .expect("in range"),
            Target::Stale(n) if !model.stale_order.is_empty() => {
                model.stale_order[n % model.stale_order.len()]
            }
            Target::FutureVersion(n, k) if !model.slots.is_empty() => {
                let index = n % model.slots.len();
                let version = model.slots[index].version.saturating_add(1 + k);
                ent(u32::try_from(index).expect("few slots"), version)
            }
            Target::Bits(entity) => entity,
            Target::BeyondSlots(k) => beyond(k),
            // Nothing to pick from: fall back to a made-up id.
            Target::Live(n) | Target::Stale(n) | Target::FutureVersion(n, _) => {
                beyond((n % 4) as u32)
            }
        }
    }
}

/// One of the component types.
#[derive(Clone, Copy, Debug)]
enum Which {
    Pos,
    Name,
    Tag,
}

/// A component value.
#[derive(Clone, Debug)]
enum Value {
    Pos(Pos),
    Name(Name),
    Tag,
}

/// An in-place change made through `get_mut`.
#[derive(Clone, Debug)]
enum Mutation {
    Pos(i32, i32),
    Name(char),
    Tag,
}

/// A subset of components given as one bundle.
#[derive(Clone, Debug)]
struct Components {
    pos: Option<Pos>,
    name: Option<Name>,
    tag: bool,
    /// If set, the bundle becomes `(shadowed, bundle)`: a `Pos` listed before the rest, which the
    /// later `pos` (if any) overrides.
    shadowed: Option<Pos>,
}

impl Components {
    /// The values the bundle leaves on the entity.
    fn effective(&self) -> ModelEntity {
        ModelEntity {
            pos: self.pos.or(self.shadowed),
            name: self.name.clone(),
            tag: self.tag,
        }
    }

    /// Applies the bundle to an existing entity (values not in the bundle stay).
    fn apply_to(&self, m: &mut ModelEntity) {
        let e = self.effective();
        if e.pos.is_some() {
            m.pos = e.pos;
        }
        if e.name.is_some() {
            m.name = e.name;
        }
        m.tag |= e.tag;
    }
}

/// Calls `$body` with `$b` bound to the bundle `$c` describes; each subset is its own bundle
/// type, some of them nested tuples.
macro_rules! with_bundle {
    ($c:expr, $b:ident => $body:expr) => {{
        let c: &Components = $c;
        match c.shadowed {
            None => with_bundle!(@subset c, $b => $body),
            Some(s) => with_bundle!(@subset c, inner => {
                let $b = (s, inner);
                $body
            }),
        }
    }};
    (@subset $c:ident, $b:ident => $body:expr) => {
        match ($c.pos, $c.name.clone(), $c.tag) {
            (None, None, false) => {
                let $b = ();
                $body
            }
            (Some(p), None, false) => {
                let $b = p;
                $body
            }
            (None, Some(n), false) => {
                let $b = (n,);
                $body
            }
            (None, None, true) => {
                let $b = Tag;
                $body
            }
            (Some(p), Some(n), false) => {
                let $b = (p, n);
                $body
            }
            (Some(p), None, true) => {
                let $b = (Tag, p);
                $body
            }
            (None, Some(n), true) => {
                let $b = ((n,), (Tag,));
                $body
            }
            (Some(p), Some(n), true) => {
                let $b = ((p, n), Tag);
                $body
            }
        }
    };
}

/// An operation on an `EntityMut` handle.
#[derive(Clone, Debug)]
enum HandleOp {
    Get(Which),
    GetMut(Mutation),
    Contains(Which),
    Insert(Value),
    InsertBundle(Components),
    Remove(Which),
    Components,
    AsRef,
    /// Consumes the handle; later handle ops of the same `Op` are skipped.
    Despawn,
}

/// One step of a generated test sequence. New world features get new variants.
#[derive(Clone, Debug)]
enum Op {
    Spawn(Components),
    SpawnBatch(Vec<(Pos, Name)>),
    Despawn(Target),
    Insert(Target, Value),
    InsertBundle(Target, Components),
    Remove(Target, Which),
    Get(Target, Which),
    GetMut(Target, Mutation),
    Contains(Target, Which),
    IsAlive(Target),
    ComponentsOf(Target),
    EntityRef(Target),
    EntityMut(Target, Vec<HandleOp>),
    Clear,
}

// ---------------------------------------------------------------------------------------------
// Strategies
// ---------------------------------------------------------------------------------------------

fn pos() -> impl Strategy<Value = Pos> {
    (-50i32..50, -50i32..50).prop_map(|(x, y)| Pos(x, y))
}

fn name() -> impl Strategy<Value = Name> {
    "[a-z]{0,4}".prop_map(Name)
}

fn which() -> impl Strategy<Value = Which> {
    prop_oneof![Just(Which::Pos), Just(Which::Name), Just(Which::Tag)]
}

fn value() -> impl Strategy<Value = Value> {
    prop_oneof![
        pos().prop_map(Value::Pos),
        name().prop_map(Value::Name),
        Just(Value::Tag),
    ]
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        (-5i32..5, -5i32..5).prop_map(|(dx, dy)| Mutation::Pos(dx, dy)),
        proptest::char::range('a', 'z').prop_map(Mutation::Name),
        Just(Mutation::Tag),
    ]
}

fn components() -> impl Strategy<Value = Components> {
    (
        option::of(pos()),
        option::of(name()),
        any::<bool>(),
        option::weighted(0.15, pos()),
    )
        .prop_map(|(pos, name, tag, shadowed)| Components {
            pos,
            name,
            tag,
            shadowed,
        })
}

fn target() -> impl Strategy<Value = Target> {
    let bits = prop_oneof![
        any::<u64>(),
        // Small indices and versions, which often hit real or stale ids.
        (0u64..24, 1u64..6).prop_map(|(index, version)| (version << 32) | index),
    ]
    .prop_filter_map("version 0 is not a handle", Entity::from_bits);
    prop_oneof![
        16 => any::<usize>().prop_map(Target::Live),
        3 => any::<usize>().prop_map(Target::Stale),
        1 => (0u32..5000).prop_map(Target::BeyondSlots),
        1 => (any::<usize>(), 0u32..3).prop_map(|(n, k)| Target::FutureVersion(n, k)),
        2 => bits.prop_map(Target::Bits),
    ]
}

fn handle_op() -> impl Strategy<Value = HandleOp> {
    prop_oneof![
        3 => which().prop_map(HandleOp::Get),
        2 => mutation().prop_map(HandleOp::GetMut),
        2 => which().prop_map(HandleOp::Contains),
        3 => value().prop_map(HandleOp::Insert),
        1 => components().prop_map(HandleOp::InsertBundle),
        2 => which().prop_map(HandleOp::Remove),
        1 => Just(HandleOp::Components),
        1 => Just(HandleOp::AsRef),
        1 => Just(HandleOp::Despawn),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        10 => components().prop_map(Op::Spawn),
        2 => vec((pos(), name()), 0..8).prop_map(Op::SpawnBatch),
        7 => target().prop_map(Op::Despawn),
        8 => (target(), value()).prop_map(|(t, v)| Op::Insert(t, v)),
        3 => (target(), components()).prop_map(|(t, c)| Op::InsertBundle(t, c)),
        6 => (target(), which()).prop_map(|(t, w)| Op::Remove(t, w)),
        5 => (target(), which()).prop_map(|(t, w)| Op::Get(t, w)),
        5 => (target(), mutation()).prop_map(|(t, m)| Op::GetMut(t, m)),
        3 => (target(), which()).prop_map(|(t, w)| Op::Contains(t, w)),
        2 => target().prop_map(Op::IsAlive),
        2 => target().prop_map(Op::ComponentsOf),
        2 => target().prop_map(Op::EntityRef),
        4 => (target(), vec(handle_op(), 0..6)).prop_map(|(t, h)| Op::EntityMut(t, h)),
        1 => Just(Op::Clear),
    ]
}

// ---------------------------------------------------------------------------------------------
// Running ops against world and model
// ---------------------------------------------------------------------------------------------

/// The short names of an iterator of component infos, in the world's order.
fn info_names<'a>(infos: impl Iterator<Item = &'a ecs_core::ComponentInfo>) -> Vec<String> {
    infos.map(|info| info.name().to_owned()).collect()
}

/// Compares a `get`-style answer with the model's.
fn assert_lookup<T: Kind>(got: Result<&T, Error>, model: &Model, entity: Entity, what: &str) {
    let expected = model.lookup::<T>(entity);
    assert_eq!(got.cloned(), expected, "{what}::<{}>({entity:?})", T::NAME);
}

/// Applies `mutation` through the world's `&mut` and to the model, and compares the results.
fn assert_get_mut<T: Kind>(
    got: Result<&mut T, Error>,
    model: &mut Model,
    entity: Entity,
    mutate: impl Fn(&mut T),
) {
    let expected = model.lookup::<T>(entity).map(|mut value| {
        mutate(&mut value);
        T::set(model.live_mut(entity), Some(value.clone()));
        value
    });
    let got = got.map(|value| {
        mutate(value);
        value.clone()
    });
    assert_eq!(got, expected, "get_mut::<{}>({entity:?})", T::NAME);
}

/// `insert` on both sides; compares the replaced value or the error.
fn insert_one<T: Kind>(world: &mut World, model: &mut Model, entity: Entity, value: T) {
    let got = world.insert(entity, value.clone());
    let expected = model
        .check(entity)
        .map(|()| T::set(model.live_mut(entity), Some(value)));
    assert_eq!(got, expected, "insert::<{}>({entity:?})", T::NAME);
}

/// `remove` on both sides; compares the removed value or the error.
fn remove_one<T: Kind>(got: Result<T, Error>, model: &mut Model, entity: Entity) {
    let expected = model.lookup::<T>(entity);
    if expected.is_ok() {
        T::set(model.live_mut(entity), None);
    }
    assert_eq!(got, expected, "remove::<{}>({entity:?})", T::NAME);
}

/// Applies a `Mutation` to a `Pos`.
fn mutate_pos(dx: i32, dy: i32) -> impl Fn(&mut Pos) {
    move |p: &mut Pos| {
        p.0 = p.0.wrapping_add(dx);
        p.1 = p.1.wrapping_sub(dy);
    }
}

/// Applies a `Mutation` to a `Name`.
fn mutate_name(c: char) -> impl Fn(&mut Name) {
    move |n: &mut Name| n.0.push(c)
}

/// A world and its model.
#[derive(Default)]
struct Harness {
    world: World,
    model: Model,
}

impl Harness {
    /// Runs one op on the world and the model and compares the answers.
    fn apply(&mut self, op: &Op) {
        let Harness { world, model } = self;
        match op {
            Op::Spawn(c) => {
                let expected = model.peek_next();
                let got = with_bundle!(c, b => world.spawn(b));
                assert_eq!(got, expected, "spawn returned an unexpected id");
                assert_eq!(model.spawn(c.effective()), got);
            }
            Op::SpawnBatch(items) => {
                let got = world.spawn_batch(
                    items
                        .iter()
                        .map(|(p, n)| (*p, n.clone()))
                        .collect::<Vec<_>>(),
                );
                let expected: Vec<Entity> = items
                    .iter()
                    .map(|(p, n)| {
                        model.spawn(ModelEntity {
                            pos: Some(*p),
                            name: Some(n.clone()),
                            tag: false,
                        })
                    })
                    .collect();
                assert_eq!(got, expected, "spawn_batch returned unexpected ids");
            }
            Op::Despawn(t) => {
                let e = t.resolve(model);
                let expected = model.check(e);
                assert_eq!(world.despawn(e), expected, "despawn({e:?})");
                if expected.is_ok() {
                    model.despawn(e);
                }
            }
            Op::Insert(t, v) => {
                let e = t.resolve(model);
                match v.clone() {
                    Value::Pos(p) => insert_one(world, model, e, p),
                    Value::Name(n) => insert_one(world, model, e, n),
                    Value::Tag => insert_one(world, model, e, Tag),
                }
            }
            Op::InsertBundle(t, c) => {
                let e = t.resolve(model);
                let got = with_bundle!(c, b => world.insert_bundle(e, b));
                let expected = model.check(e);
                assert_eq!(got, expected, "insert_bundle({e:?})");
                if expected.is_ok() {
                    c.apply_to(model.live_mut(e));
                }
            }
            Op::Remove(t, w) => {
                let e = t.resolve(model);
                match w {
                    Which::Pos => remove_one(world.remove::<Pos>(e), model, e),
                    Which::Name => remove_one(world.remove::<Name>(e), model, e),
                    Which::Tag => remove_one(world.remove::<Tag>(e), model, e),
                }
            }
            Op::Get(t, w) => {
                let e = t.resolve(model);
                match w {
                    Which::Pos => assert_lookup(world.get::<Pos>(e), model, e, "get"),
                    Which::Name => assert_lookup(world.get::<Name>(e), model, e, "get"),
                    Which::Tag => assert_lookup(world.get::<Tag>(e), model, e, "get"),
                }
            }
            Op::GetMut(t, m) => {
                let e = t.resolve(model);
                match *m {
                    Mutation::Pos(dx, dy) => {
                        assert_get_mut(world.get_mut::<Pos>(e), model, e, mutate_pos(dx, dy));
                    }
                    Mutation::Name(c) => {
                        assert_get_mut(world.get_mut::<Name>(e), model, e, mutate_name(c));
                    }
                    Mutation::Tag => assert_get_mut(world.get_mut::<Tag>(e), model, e, |_| ()),
                }
            }
            Op::Contains(t, w) => {
                let e = t.resolve(model);
                let got = match w {
                    Which::Pos => world.contains::<Pos>(e),
                    Which::Name => world.contains::<Name>(e),
                    Which::Tag => world.contains::<Tag>(e),
                };
                let expected = match w {
                    Which::Pos => model.lookup::<Pos>(e).is_ok(),
                    Which::Name => model.lookup::<Name>(e).is_ok(),
                    Which::Tag => model.lookup::<Tag>(e).is_ok(),
                };
                assert_eq!(got, expected, "contains::<{w:?}>({e:?})");
            }
            Op::IsAlive(t) => {
                let e = t.resolve(model);
                let expected = model.status(e) == Status::Alive;
                assert_eq!(world.is_alive(e), expected, "is_alive({e:?})");
            }
            Op::ComponentsOf(t) => {
                let e = t.resolve(model);
                let got = world.components_of(e).map(info_names);
                let expected = model.check(e).map(|()| model.live[&e].names());
                assert_eq!(
                    got.clone()
                        .map(|names| names.into_iter().collect::<BTreeSet<_>>()),
                    expected,
                    "components_of({e:?})"
                );
                if let Ok(names) = got {
                    model.observe_order(&names);
                }
            }
            Op::EntityRef(t) => {
                let e = t.resolve(model);
                match world.entity(e) {
                    Err(err) => assert_eq!(Err(err), model.check(e), "entity({e:?})"),
                    Ok(r) => {
                        assert_eq!(model.check(e), Ok(()), "entity({e:?}) should fail");
                        assert_eq!(r.id(), e);
                        assert_lookup(r.get::<Pos>(), model, e, "EntityRef::get");
                        assert_lookup(r.get::<Name>(), model, e, "EntityRef::get");
                        assert_lookup(r.get::<Tag>(), model, e, "EntityRef::get");
                        let m = &model.live[&e];
                        assert_eq!(r.contains::<Pos>(), m.pos.is_some());
                        assert_eq!(r.contains::<Name>(), m.name.is_some());
                        assert_eq!(r.contains::<Tag>(), m.tag);
                        let names = info_names(r.components());
                        assert_eq!(names.iter().cloned().collect::<BTreeSet<_>>(), m.names());
                        model.observe_order(&names);
                    }
                }
            }
            Op::EntityMut(t, handle_ops) => {
                let e = t.resolve(model);
                let handle = world.entity_mut(e);
                let mut handle = match handle {
                    Err(err) => {
                        assert_eq!(Err(err), model.check(e), "entity_mut({e:?})");
                        return;
                    }
                    Ok(handle) => handle,
                };
                assert_eq!(model.check(e), Ok(()), "entity_mut({e:?}) should fail");
                assert_eq!(handle.id(), e);
                for hop in handle_ops {
                    match hop {
                        HandleOp::Get(w) => match w {
                            Which::Pos => assert_lookup(handle.get::<Pos>(), model, e, "h.get"),
                            Which::Name => assert_lookup(handle.get::<Name>(), model, e, "h.get"),
                            Which::Tag => assert_lookup(handle.get::<Tag>(), model, e, "h.get"),
                        },
                        HandleOp::GetMut(m) => match *m {
                            Mutation::Pos(dx, dy) => {
                                assert_get_mut(
                                    handle.get_mut::<Pos>(),
                                    model,
                                    e,
                                    mutate_pos(dx, dy),
                                );
                            }
                            Mutation::Name(c) => {
                                assert_get_mut(handle.get_mut::<Name>(), model, e, mutate_name(c));
                            }
                            Mutation::Tag => {
                                assert_get_mut(handle.get_mut::<Tag>(), model, e, |_| ());
                            }
                        },
                        HandleOp::Contains(w) => {
                            let m = &model.live[&e];
                            let (got, expected) = match w {
                                Which::Pos => (handle.contains::<Pos>(), m.pos.is_some()),
                                Which::Name => (handle.contains::<Name>(), m.name.is_some()),
                                Which::Tag => (handle.contains::<Tag>(), m.tag),
                            };
                            assert_eq!(got, expected, "h.contains::<{w:?}>({e:?})");
                        }
                        HandleOp::Insert(v) => {
                            let m = model.live_mut(e);
                            match v.clone() {
                                Value::Pos(p) => assert_eq!(handle.insert(p), Pos::set(m, Some(p))),
                                Value::Name(n) => {
                                    assert_eq!(handle.insert(n.clone()), Name::set(m, Some(n)));
                                }
                                Value::Tag => {
                                    assert_eq!(handle.insert(Tag), Tag::set(m, Some(Tag)))
                                }
                            }
                        }
                        HandleOp::InsertBundle(c) => {
                            with_bundle!(c, b => handle.insert_bundle(b));
                            c.apply_to(model.live_mut(e));
                        }
                        HandleOp::Remove(w) => match w {
                            Which::Pos => remove_one(handle.remove::<Pos>(), model, e),
                            Which::Name => remove_one(handle.remove::<Name>(), model, e),
                            Which::Tag => remove_one(handle.remove::<Tag>(), model, e),
                        },
                        HandleOp::Components => {
                            let names = info_names(handle.components());
                            assert_eq!(
                                names.iter().cloned().collect::<BTreeSet<_>>(),
                                model.live[&e].names(),
                                "h.components({e:?})"
                            );
                            model.observe_order(&names);
                        }
                        HandleOp::AsRef => {
                            let r = handle.as_ref();
                            assert_eq!(r.id(), e);
                            assert_lookup(r.get::<Pos>(), model, e, "h.as_ref().get");
                            assert_lookup(r.get::<Name>(), model, e, "h.as_ref().get");
                            assert_eq!(r.contains::<Tag>(), model.live[&e].tag);
                        }
                        HandleOp::Despawn => {
                            handle.despawn();
                            model.despawn(e);
                            break;
                        }
                    }
                }
            }
            Op::Clear => {
                world.clear();
                model.clear();
            }
        }
    }

    /// Compares everything observable about the world with the model.
    fn check_state(&mut self) {
        let Harness { world, model } = self;
        assert_eq!(world.len(), model.live.len(), "len");
        assert_eq!(world.is_empty(), model.live.is_empty(), "is_empty");
        let mut orders = Vec::new();
        for (&e, m) in &model.live {
            assert!(world.is_alive(e), "{e:?} should be alive");
            // Values, or `MissingComponent` naming the full type.
            assert_lookup(world.get::<Pos>(e), model, e, "get");
            assert_lookup(world.get::<Name>(e), model, e, "get");
            assert_lookup(world.get::<Tag>(e), model, e, "get");
            assert_eq!(
                world.contains::<Pos>(e),
                m.pos.is_some(),
                "contains::<Pos>({e:?})"
            );
            assert_eq!(
                world.contains::<Name>(e),
                m.name.is_some(),
                "contains::<Name>({e:?})"
            );
            assert_eq!(world.contains::<Tag>(e), m.tag, "contains::<Tag>({e:?})");
            let names = info_names(world.components_of(e).expect("alive"));
            assert_eq!(
                names.iter().cloned().collect::<BTreeSet<_>>(),
                m.names(),
                "components_of({e:?})"
            );
            orders.push(names);
        }
        for names in &orders {
            model.observe_order(names);
        }
        for &e in &model.stale {
            let dead = Error::Despawned { entity: e };
            assert!(!world.is_alive(e), "stale {e:?} reported alive");
            assert!(!world.contains::<Pos>(e), "stale {e:?} contains Pos");
            assert_eq!(
                world.get::<Name>(e),
                Err(dead.clone()),
                "get on stale {e:?}"
            );
            assert_eq!(
                world.components_of(e).map(|_| ()),
                Err(dead),
                "components_of stale {e:?}"
            );
        }
        // The id the next spawn will return has not been handed out yet.
        let next = model.peek_next();
        assert!(!world.is_alive(next));
        assert_eq!(
            world.get::<Tag>(next),
            Err(Error::NeverSpawned { entity: next }),
            "the next id {next:?} should count as never spawned"
        );
    }
}

/// Runs a whole sequence, checking the state after every op.
fn run(ops: &[Op]) {
    let mut h = Harness::default();
    h.check_state();
    for (step, op) in ops.iter().enumerate() {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            h.apply(op);
            h.check_state();
        }));
        if let Err(payload) = result {
            eprintln!("model test failed at step {step}: {op:?}");
            std::panic::resume_unwind(payload);
        }
    }
}

/// Cases from `ECS_MODEL_CASES` (default 1000); no failure files are written.
fn config() -> ProptestConfig {
    let cases = std::env::var("ECS_MODEL_CASES")
        .ok()
        .map(|s| s.parse().expect("ECS_MODEL_CASES must be a number"))
        .unwrap_or(1000);
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

proptest! {
    #![proptest_config(config())]

    /// Any sequence of up to 200 operations leaves the world exactly as the model predicts: the
    /// same ids, values, errors, lengths and component sets after every step.
    #[test]
    fn world_matches_model(ops in vec(op(), 0..=MAX_OPS)) {
        run(&ops);
    }
}

// ---------------------------------------------------------------------------------------------
// Fixed scenarios that pin down the model's allocator rules
// ---------------------------------------------------------------------------------------------

/// `clear` frees slots in index order, so spawns after it reuse the highest index first, each
/// with its version bumped; the model predicts the same ids.
#[test]
fn clear_then_spawn_reuses_highest_index_first() {
    let mut h = Harness::default();
    for _ in 0..4 {
        h.apply(&Op::Spawn(Components {
            pos: None,
            name: None,
            tag: true,
            shadowed: None,
        }));
    }
    h.apply(&Op::Despawn(Target::Bits(ent(1, 1))));
    h.apply(&Op::Clear);
    h.check_state();
    let ids: Vec<Entity> = (0..5).map(|_| h.world.spawn(())).collect();
    // Slot 1 was freed first (by despawn), then 0, 2, 3 by clear: LIFO pops 3, 2, 0, 1, then a new slot.
    assert_eq!(ids, [ent(3, 2), ent(2, 2), ent(0, 2), ent(1, 2), ent(4, 1)]);
    let predicted: Vec<Entity> = (0..5)
        .map(|_| h.model.spawn(ModelEntity::default()))
        .collect();
    assert_eq!(predicted, ids);
    h.check_state();
}

/// Handles are classified by version: below or equal to a freed slot's version is despawned,
/// above it (including the version the next spawn will get) is never spawned.
#[test]
fn stale_and_future_versions_get_the_right_errors() {
    let mut h = Harness::default();
    h.apply(&Op::Spawn(Components {
        pos: Some(Pos(1, 2)),
        name: None,
        tag: false,
        shadowed: None,
    }));
    h.apply(&Op::Despawn(Target::Live(0)));
    h.apply(&Op::Spawn(Components {
        pos: None,
        name: None,
        tag: false,
        shadowed: None,
    }));
    h.apply(&Op::Despawn(Target::Live(0)));
    // Slot 0 is free at version 2.
    let w = &h.world;
    assert_eq!(
        w.get::<Pos>(ent(0, 1)),
        Err(Error::Despawned { entity: ent(0, 1) })
    );
    assert_eq!(
        w.get::<Pos>(ent(0, 2)),
        Err(Error::Despawned { entity: ent(0, 2) })
    );
    assert_eq!(
        w.get::<Pos>(ent(0, 3)),
        Err(Error::NeverSpawned { entity: ent(0, 3) })
    );
    assert_eq!(
        w.get::<Pos>(ent(1, 1)),
        Err(Error::NeverSpawned { entity: ent(1, 1) })
    );
    h.check_state();
}
