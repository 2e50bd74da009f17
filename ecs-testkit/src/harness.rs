//! Operations over the whole `World` API, each run against a world and the [`Model`] with every
//! answer compared (values and exact `Error`s), and the checks between operations.
//!
//! [`Op`] is the one operation enum: the byte decoder ([`crate::fuzz`]) and the proptest
//! strategies ([`crate::strategy`]) both produce it, and [`Harness::run`] runs it. After every
//! operation `World::stats` is compared field by field and the number of live [`Tracked`] values
//! must equal what the model holds; the whole observable state (every live entity's components,
//! dead ids, the next id, per-type counts through queries, every group's packed rows through
//! `Query::slices`) is compared after every operation while the world is small and every
//! [`FULL_CHECK_EVERY`] operations otherwise, or after every operation in a
//! [`thorough`](Harness::thorough) harness. Nothing here builds a query that aliases a `&mut T`
//! (the one documented panic of the API), so any panic is a failure.

use std::any::type_name;
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

use ecs_core::prelude::*;

use crate::bundle::{self, Hint, Spec};
use crate::component::{
    Count, Generate, Items, Key, Mark, Mirror, Name, Pos, Tag, Tracked, Value, Which, with_type,
};
use crate::model::{DeadIds, Model, Status, ent};
use crate::query::{
    self, Method, OP_SHAPES, Prepare, PreparedStates, PreparedSweep, SHAPES, Sweep, Val, with_shape,
};

/// The whole state is compared after every op while at most this many entities live.
pub const FULL_CHECK_LIVE: usize = 24;

/// Otherwise the whole state is compared every this many ops (and at the end).
pub const FULL_CHECK_EVERY: usize = 32;

/// Size of one spawn_batch that crosses a sparse page (4096 slots); run at most once per harness.
pub const BIG_BATCH: u32 = 4100;

/// The shapes `Op::QuerySweep` picks from: the table's shapes after the first [`OP_SHAPES`].
pub const SWEEP_SHAPES: usize = SHAPES - OP_SHAPES as usize;

/// Number of group shapes `Op::Group` declares.
pub const GROUPS: u8 = 8;

/// Number of slice shapes `Op::Slices` reads.
pub const SLICES: u8 = 7;

/// Which entity an op is aimed at, resolved against the model when it runs.
#[derive(Clone, Copy, Debug)]
pub enum Target {
    /// The `n % len`-th live entity in id order.
    Live(usize),
    /// One of the last ids spawned, alive or not.
    Spawned(u8),
    /// One of the last ids despawned.
    Dead(u8),
    /// The `n % len`-th id ever despawned, in the order they died.
    Stale(usize),
    /// `Entity::from_bits` of any `u64` (version 0 becomes version 1: `from_bits` rejects it).
    Bits(u64),
    /// An index near the allocator's frontier, a page boundary or `u32::MAX`, with a version
    /// near that slot's or at an extreme.
    Edge(u8, u8),
    /// A live entity's index with a neighbouring version.
    NearLive(usize, u8),
    /// An index `k` past the last slot the world ever allocated.
    BeyondSlots(u32),
    /// An allocated slot (`n % slots`) with a version `1 + k` above the slot's current one.
    FutureVersion(usize, u32),
}

impl Target {
    /// The handle this target names in the model's current state.
    pub fn resolve(self, model: &Model) -> Entity {
        let beyond = |k: u32| ent(model.slot_count().saturating_add(k), 1);
        let nth_live = |n: usize| {
            *model
                .live
                .keys()
                .nth(n % model.live.len())
                .expect("in range")
        };
        match self {
            Target::Live(n) if !model.live.is_empty() => nth_live(n),
            Target::Spawned(n) if !model.spawned.is_empty() => {
                model.spawned[usize::from(n) % model.spawned.len()]
            }
            Target::Dead(n) if !model.dead.is_empty() => {
                model.dead[usize::from(n) % model.dead.len()]
            }
            Target::Stale(n) if !model.stale_order.is_empty() => {
                model.stale_order[n % model.stale_order.len()]
            }
            Target::Bits(bits) => Entity::from_bits(bits).unwrap_or_else(|| ent(bits as u32, 1)),
            Target::NearLive(n, d) if !model.live.is_empty() => {
                let e = nth_live(n);
                let version = match d % 4 {
                    0 => e.version().saturating_add(1),
                    1 => e.version().saturating_sub(1).max(1),
                    2 => e.version().saturating_add(2),
                    _ => u32::MAX,
                };
                ent(e.index(), version)
            }
            Target::Edge(a, b) => {
                let slots = model.slot_count();
                let index = match a % 8 {
                    0 => slots,
                    1 => slots.saturating_add(1),
                    2 => slots.saturating_sub(1),
                    3 => 4095,
                    4 => 4096,
                    5 => u32::MAX,
                    6 => u32::MAX - 1,
                    _ => 0,
                };
                let slot_version = model.slot_version(index).unwrap_or(1);
                let version = match b % 7 {
                    0 => 1,
                    1 => 2,
                    2 => slot_version,
                    3 => slot_version.saturating_add(1),
                    4 => slot_version.saturating_sub(1).max(1),
                    5 => u32::MAX,
                    _ => u32::MAX - 1,
                };
                ent(index, version)
            }
            Target::BeyondSlots(k) => beyond(k),
            Target::FutureVersion(n, k) if !model.slots.is_empty() => {
                let index = n % model.slots.len();
                let version = model.slots[index].0.saturating_add(1 + k);
                ent(index as u32, version)
            }
            // Nothing to pick from: an index past every slot.
            Target::Live(n)
            | Target::NearLive(n, _)
            | Target::Stale(n)
            | Target::FutureVersion(n, _) => beyond((n % 4) as u32),
            Target::Spawned(n) | Target::Dead(n) => beyond(u32::from(n % 4)),
        }
    }
}

/// An operation on an `EntityMut` handle.
#[derive(Clone, Debug)]
pub enum HandleOp {
    /// `get::<T>()`
    Get(Which),
    /// `get_mut::<T>()` and a change through it
    GetMut(Which, u8),
    /// `contains::<T>()`
    Contains(Which),
    /// `insert(value)`
    Insert(Which, Value),
    /// `insert_bundle(bundle)`
    InsertBundle(Spec),
    /// `remove::<T>()`
    Remove(Which),
    /// `components()`
    Components,
    /// `as_ref()` and reads through it
    AsRef,
    /// `despawn()`, consuming the handle: later handle ops of the same op are skipped
    Despawn,
}

/// An operation through one typed view (`World::view_mut::<T>()`), the type
/// being the op's.
#[derive(Clone, Debug)]
pub enum ViewStep {
    /// `insert(e, value)`, the value derived from the seed for the view's type
    Insert(Target, u8),
    /// `remove(e)`
    Remove(Target),
    /// `get(e)`
    Get(Target),
    /// `get_mut(e)` and a change through it
    GetMut(Target, u8),
    /// `contains(e)`, with `len()` and `is_empty()`
    Contains(Target),
}

/// A value of the component type `w` derived from `seed`.
pub fn value_of(w: Which, seed: u8) -> Value {
    match w {
        Which::Pos => Value::Pair(i32::from(seed), -i32::from(seed)),
        Which::Name => Value::Text(format!("v{seed}")),
        Which::Items => Value::List(vec![u16::from(seed)]),
        Which::Tracked => Value::U32(u32::from(seed)),
        Which::Tag | Which::Count | Which::Mark => Value::Unit,
    }
}

/// The contents of an entity built from parts: with all four data types, `spawn` of those as
/// one bundle and `insert_bundle` of the tags; otherwise `spawn(())` and one `insert` each.
#[derive(Clone, Debug, Default)]
pub struct Assembly {
    /// A `Pos`.
    pub pos: Option<Pos>,
    /// A `Name`.
    pub name: Option<Name>,
    /// An `Items`.
    pub items: Option<Items>,
    /// A `Count`.
    pub count: Option<Count>,
    /// A `Tag`.
    pub tag: bool,
    /// A `Mark`.
    pub mark: bool,
}

impl Assembly {
    /// The values, in the order the world gets them.
    fn writes(&self) -> Vec<(Which, Value)> {
        let mut writes = Vec::new();
        if let Some(p) = &self.pos {
            writes.push((Which::Pos, p.mirror()));
        }
        if let Some(n) = &self.name {
            writes.push((Which::Name, n.mirror()));
        }
        if let Some(i) = &self.items {
            writes.push((Which::Items, i.mirror()));
        }
        if let Some(c) = &self.count {
            writes.push((Which::Count, c.mirror()));
        }
        if self.tag {
            writes.push((Which::Tag, Value::Unit));
        }
        if self.mark {
            writes.push((Which::Mark, Value::Unit));
        }
        writes
    }
}

/// One operation on a world.
#[derive(Clone, Debug)]
pub enum Op {
    /// `spawn(bundle)`
    Spawn(Spec),
    /// `spawn_batch` of `n` bundles (`n % 12`, or [`BIG_BATCH`] once per harness for `n == 255`)
    SpawnBatch(Spec, u8, Hint),
    /// `spawn_batch` of `(Pos, Name)` bundles with these values
    SpawnPairs(Vec<(Pos, Name)>),
    /// One entity built from parts
    SpawnAssembled(Assembly),
    /// `spawn_batch` of `n` bundles of batch shape `shape % 5`, values derived from `seed`, so
    /// that several storages hold the same entities at the same positions
    SpawnAligned {
        /// which bundle type
        shape: u8,
        /// how many
        n: usize,
        /// where the values start
        seed: u32,
    },
    /// `despawn` (and, when it succeeds, a second `despawn` that must fail)
    Despawn(Target),
    /// `insert`
    Insert(Target, Which, Value),
    /// `insert_bundle`
    InsertBundle(Target, Spec),
    /// `remove::<T>`
    Remove(Target, Which),
    /// `get::<T>`
    Get(Target, Which),
    /// `get_mut::<T>` and a change through it
    GetMut(Target, Which, u8),
    /// `contains::<T>`
    Contains(Target, Which),
    /// `is_alive`
    IsAlive(Target),
    /// `entity` and every read through the handle
    EntityRef(Target),
    /// `entity_mut` and a sequence of handle operations
    EntityMut(Target, Vec<HandleOp>),
    /// `components_of`
    ComponentsOf(Target),
    /// `view_mut::<T>()` and a sequence of operations through it
    ViewMut(Which, Vec<ViewStep>),
    /// `view::<T>()` and `get` / `contains` / `len` through it for each target
    View(Which, Vec<Target>),
    /// `clear`
    Clear,
    /// The query of shape `shape % OP_SHAPES`, read or written by one method
    Query {
        /// which query type
        shape: u8,
        /// which query method (`% query::METHODS`)
        method: u8,
        /// the entity for `get` / `get_mut` / `contains`
        target: Target,
        /// the change applied through `&mut` items
        k: u8,
    },
    /// The query of sweep shape `shape % SWEEP_SHAPES` through every read and write path, then
    /// every stored value
    QuerySweep {
        /// which query type
        shape: usize,
        /// which path writes to every match
        mode: u8,
    },
    /// The sweep of shape `shape % SWEEP_SHAPES`, as in `QuerySweep`, through a `QueryState` the
    /// harness keeps between ops (made on first use, or by [`Harness::prepare_sweeps`])
    PreparedSweep {
        /// which query type
        shape: usize,
        /// which path writes to every match
        mode: u8,
    },
    /// `Entity::from_bits(bits)` round trip, then every entity API on the handle
    Bits(u64),
    /// Every entity API on one handle (failing mutators too, when it is not alive)
    Probe(Target),
    /// `World::group` of group shape `g % GROUPS`
    Group(u8),
    /// `Query::slices` of slice shape `n % SLICES`, writing `k` through the `&mut` slices
    Slices(u8, u8),
    /// `World::stats` (also checked after every op)
    Stats,
    /// `World::optimize_layout`: every storage sorted by signature (a group's prefix kept),
    /// after which `layout_stats` finds everything in order and a second pass moves nothing
    OptimizeLayout,
}

// ---------------------------------------------------------------------------------------------
// World-side helpers, dispatched on `Which`
// ---------------------------------------------------------------------------------------------

fn world_get_mut(world: &mut World, e: Entity, w: Which, k: u8) -> Result<Value, Error> {
    with_type!(w, T => world.get_mut::<T>(e).map(|c| {
        c.bump(k);
        c.mirror()
    }))
}

fn world_insert(world: &mut World, e: Entity, w: Which, v: &Value) -> Result<Option<Value>, Error> {
    with_type!(w, T => world.insert(e, T::make(v)).map(|old| old.map(|c| c.mirror())))
}

fn world_remove(world: &mut World, e: Entity, w: Which) -> Result<Value, Error> {
    with_type!(w, T => world.remove::<T>(e).map(|c| c.mirror()))
}

fn register(model: &mut Model, writes: &[(Which, Value)]) {
    let keys: Vec<Key> = writes.iter().map(|(w, _)| w.key()).collect();
    model.register(&keys);
}

fn keyed(writes: Vec<(Which, Value)>) -> impl Iterator<Item = (Key, Value)> {
    writes.into_iter().map(|(w, v)| (w.key(), v))
}

/// `Entity::from_bits` accepts exactly the non-zero versions and round-trips; `Debug` and
/// `Display` print `{index}v{version}`.
pub fn check_bits(bits: u64) -> Option<Entity> {
    let e = Entity::from_bits(bits);
    assert_eq!(e.is_none(), bits >> 32 == 0, "from_bits({bits:#x})");
    let e = e?;
    assert_eq!(e.to_bits(), bits);
    assert_eq!(e.index(), bits as u32);
    assert_eq!(u64::from(e.version()), bits >> 32);
    let shown = format!("{}v{}", bits as u32, bits >> 32);
    assert_eq!(format!("{e:?}"), shown);
    assert_eq!(format!("{e}"), shown);
    Some(e)
}

// ---------------------------------------------------------------------------------------------
// The harness
// ---------------------------------------------------------------------------------------------

/// A world, its model, and the bookkeeping of one run.
pub struct Harness {
    /// The world under test.
    pub world: World,
    /// What it should hold.
    pub model: Model,
    /// The types handle reads and probes check on every entity.
    types: &'static [Which],
    /// Compare the whole state after every op, dead ids all included.
    thorough: bool,
    /// Whether the one page-crossing batch of this harness was spawned.
    big_done: bool,
    /// Live values and errors of the `Tracked` ledger when the harness was made: the world's
    /// values count from here.
    tracked_base: (usize, usize),
    /// How often each kind of op ran, by the status of its target, when recording (see
    /// [`Harness::coverage`]; off by default: it formats strings on every op).
    coverage: Option<BTreeMap<String, usize>>,
    /// The query states `Op::PreparedSweep` uses, by shape, kept across ops.
    prepared: PreparedStates,
}

impl Default for Harness {
    fn default() -> Self {
        Self::new()
    }
}

impl Harness {
    /// An empty world and model over the fuzzed types ([`Which::FUZZ`]).
    pub fn new() -> Self {
        let ledger = Tracked::ledger();
        Harness {
            world: World::new(),
            model: Model::probing(Which::FUZZ.map(Which::key)),
            types: &Which::FUZZ,
            thorough: false,
            big_done: false,
            tracked_base: (ledger.live(), ledger.errors().len()),
            coverage: None,
            prepared: PreparedStates::new(),
        }
    }

    /// The same over the types `types` (checked on every entity, held or not).
    pub fn with_types(types: &'static [Which]) -> Self {
        Harness {
            model: Model::probing(types.iter().map(|w| w.key())),
            types,
            ..Harness::new()
        }
    }

    /// Makes the `QueryState` of every sweep shape that has none, from the world as it is now
    /// (before any type is registered, for a fresh harness); `Op::PreparedSweep` uses them.
    pub fn prepare_sweeps(&mut self) {
        for shape in 0..SWEEP_SHAPES {
            let shape = usize::from(OP_SHAPES) + shape;
            let prepare = Prepare {
                world: &self.world,
                states: &mut self.prepared,
                shape,
            };
            with_shape(shape, prepare);
        }
    }

    /// This harness, comparing the whole state after every op, every dead id included.
    pub fn thorough(self) -> Self {
        Harness {
            thorough: true,
            ..self
        }
    }

    /// An empty world and model that records [`coverage`](Self::coverage).
    pub fn with_coverage() -> Self {
        Harness {
            coverage: Some(BTreeMap::new()),
            ..Harness::new()
        }
    }

    /// How often each kind of op ran, keyed `kind/status` (`status` being the target's
    /// `Alive` / `Despawned` / `NeverSpawned`, or `-`), plus `query{shape}.{method}/rows` when a
    /// query matched something, `slices{n}/ok` when a group served a slice shape, `batch/big`
    /// for the page-crossing batch and `handle.{op}` per handle operation.
    pub fn coverage(&self) -> &BTreeMap<String, usize> {
        self.coverage
            .as_ref()
            .expect("made by Harness::with_coverage")
    }

    /// Records what `op` is about to exercise.
    fn note(&mut self, op: &Op) {
        if self.coverage.is_none() {
            return;
        }
        let target = match op {
            Op::Despawn(t)
            | Op::Insert(t, ..)
            | Op::InsertBundle(t, _)
            | Op::Remove(t, _)
            | Op::Get(t, _)
            | Op::GetMut(t, _, _)
            | Op::Contains(t, _)
            | Op::IsAlive(t)
            | Op::EntityRef(t)
            | Op::EntityMut(t, _)
            | Op::ComponentsOf(t)
            | Op::Probe(t)
            | Op::Query { target: t, .. } => Some(t.resolve(&self.model)),
            Op::Bits(bits) => Entity::from_bits(*bits),
            _ => None,
        };
        let kind = format!("{op:?}");
        let kind = kind.split(['(', ' ']).next().unwrap_or_default();
        let status = target.map_or("-".to_owned(), |e| format!("{:?}", self.model.status(e)));
        let mut keys = vec![format!("{kind}/{status}")];
        if let Op::Query { shape, method, .. } = op {
            let (shape, method) = (shape % OP_SHAPES, method % query::METHODS);
            if query::shape_matches(&self.model, usize::from(shape)) > 0 {
                keys.push(format!("query{shape}.{method}/rows"));
            }
        }
        if let Op::Slices(n, _) = op
            && n % SLICES != 6
            && self.model.grouped(&slice_keys(*n))
        {
            keys.push(format!("slices{}/ok", n % SLICES));
        }
        if let (Op::SpawnBatch(_, 255, _), false) = (op, self.big_done) {
            keys.push("batch/big".to_owned());
        }
        if let Op::ViewMut(_, steps) = op {
            keys.extend(variant_keys("view", steps));
        }
        if let Op::EntityMut(_, handle_ops) = op {
            keys.extend(variant_keys("handle", handle_ops));
        }
        let coverage = self.coverage.as_mut().expect("checked above");
        for key in keys {
            *coverage.entry(key).or_default() += 1;
        }
    }

    /// Runs one op and checks its answers against the model.
    pub fn apply(&mut self, op: &Op) {
        let Harness {
            world,
            model,
            big_done,
            types,
            prepared,
            ..
        } = self;
        match op {
            Op::Spawn(spec) => {
                let id = bundle::spawn(world, spec);
                assert_eq!(id, model.spawn(keyed(spec.writes(0))), "spawned id");
            }
            Op::SpawnBatch(spec, n, hint) => {
                let n = if *n == 255 && !*big_done {
                    *big_done = true;
                    BIG_BATCH
                } else {
                    u32::from(*n % 12)
                };
                // The bundle's types are registered even when the batch is empty.
                register(model, &spec.writes(0));
                if let Some(k) = hint.panics_after(n) {
                    let result = catch_unwind(AssertUnwindSafe(|| {
                        bundle::spawn_batch(world, spec, n, *hint)
                    }));
                    assert!(result.is_err(), "the batch's iterator panicked");
                    // Every bundle yielded before the panic is spawned whole, under the ids the
                    // allocator had next; the full check after this op finds them.
                    for i in 0..k {
                        model.spawn(keyed(spec.writes(i)));
                    }
                } else {
                    let ids = bundle::spawn_batch(world, spec, n, *hint);
                    let expected: Vec<Entity> =
                        (0..n).map(|i| model.spawn(keyed(spec.writes(i)))).collect();
                    assert_eq!(ids, expected, "spawn_batch ids");
                }
            }
            Op::SpawnPairs(items) => {
                let bundles: Vec<(Pos, Name)> = items.clone();
                let ids = world.spawn_batch(bundles);
                model.register(&[Which::Pos.key(), Which::Name.key()]);
                let expected: Vec<Entity> = items
                    .iter()
                    .map(|(p, n)| {
                        model.spawn(keyed(vec![
                            (Which::Pos, p.mirror()),
                            (Which::Name, n.mirror()),
                        ]))
                    })
                    .collect();
                assert_eq!(ids, expected, "spawn_batch ids");
            }
            Op::SpawnAssembled(parts) => {
                let id = assemble(world, parts);
                assert_eq!(id, model.spawn(keyed(parts.writes())), "spawned id");
            }
            Op::SpawnAligned { shape, n, seed } => {
                let (ids, writes) = spawn_aligned(world, *shape, *n, *seed);
                register(model, &writes(0));
                let expected: Vec<Entity> =
                    (0..*n).map(|i| model.spawn(keyed(writes(i)))).collect();
                assert_eq!(ids, expected, "spawn_batch ids");
            }
            Op::Despawn(t) => {
                let e = t.resolve(model);
                let expected = model.check(e);
                assert_eq!(world.despawn(e), expected, "despawn({e:?})");
                if expected.is_ok() {
                    model.despawn(e);
                    assert_eq!(
                        world.despawn(e),
                        Err(Error::Despawned { entity: e }),
                        "despawn({e:?}) twice"
                    );
                }
            }
            Op::Insert(t, w, value) => {
                let e = t.resolve(model);
                let got = world_insert(world, e, *w, value);
                let expected = model
                    .check(e)
                    .map(|()| model.insert(e, w.key(), value.clone()));
                assert_eq!(got, expected, "insert({e:?}, {value:?})");
            }
            Op::InsertBundle(t, spec) => {
                let e = t.resolve(model);
                let got = bundle::insert_bundle(world, e, spec);
                let expected = model.check(e);
                if expected.is_ok() {
                    for (key, value) in keyed(spec.writes(0)) {
                        model.insert(e, key, value);
                    }
                }
                assert_eq!(got, expected, "insert_bundle({e:?})");
            }
            Op::Remove(t, w) => {
                let e = t.resolve(model);
                let got = world_remove(world, e, *w);
                let expected = model.lookup(e, w.key());
                if expected.is_ok() {
                    model.remove(e, w.key());
                }
                assert_eq!(got, expected, "remove::<{w:?}>({e:?})");
            }
            Op::Get(t, w) => {
                let e = t.resolve(model);
                assert_eq!(
                    w.key().get(world, e),
                    model.lookup(e, w.key()),
                    "get::<{w:?}>({e:?})"
                );
            }
            Op::GetMut(t, w, k) => {
                let e = t.resolve(model);
                let got = world_get_mut(world, e, *w, *k);
                let expected = bump_in_model(model, e, *w, *k);
                assert_eq!(got, expected, "get_mut::<{w:?}>({e:?})");
            }
            Op::Contains(t, w) => {
                let e = t.resolve(model);
                assert_eq!(
                    w.key().contains(world, e),
                    model.lookup(e, w.key()).is_ok(),
                    "contains::<{w:?}>({e:?})"
                );
            }
            Op::IsAlive(t) => {
                let e = t.resolve(model);
                assert_eq!(
                    world.is_alive(e),
                    model.status(e) == Status::Alive,
                    "is_alive({e:?})"
                );
            }
            Op::EntityRef(t) => {
                let e = t.resolve(model);
                check_entity_ref(world, model, e, types);
            }
            Op::EntityMut(t, handle_ops) => {
                let e = t.resolve(model);
                run_entity_mut(world, model, e, handle_ops, types);
            }
            Op::ViewMut(w, steps) => {
                with_type!(*w, T => run_view_mut::<T>(world, model, *w, steps));
            }
            Op::View(w, targets) => {
                with_type!(*w, T => check_view::<T>(world, model, *w, targets));
            }
            Op::ComponentsOf(t) => {
                let e = t.resolve(model);
                let got = world.components_of(e).map(|infos| model.info_names(infos));
                assert_eq!(
                    got,
                    model.check(e).map(|()| model.names(e)),
                    "components_of({e:?})"
                );
            }
            Op::Clear => {
                world.clear();
                model.clear();
            }
            Op::Query {
                shape,
                method,
                target,
                k,
            } => {
                let target = target.resolve(model);
                let visitor = Method {
                    world,
                    model,
                    method: *method,
                    target,
                    k: *k,
                };
                with_shape(usize::from(shape % OP_SHAPES), visitor);
            }
            Op::QuerySweep { shape, mode } => {
                let visitor = Sweep {
                    world,
                    model,
                    mode: *mode,
                    k: 1,
                };
                with_shape(usize::from(OP_SHAPES) + shape % SWEEP_SHAPES, visitor);
                // The sweep's writes reached exactly the values the model changed.
                model.assert_values(world);
            }
            Op::PreparedSweep { shape, mode } => {
                let shape = usize::from(OP_SHAPES) + shape % SWEEP_SHAPES;
                let visitor = PreparedSweep {
                    world,
                    model,
                    states: prepared,
                    shape,
                    mode: *mode,
                    k: 1,
                };
                with_shape(shape, visitor);
                model.assert_values(world);
            }
            Op::Bits(bits) => {
                if let Some(e) = check_bits(*bits) {
                    self.probe(e);
                }
            }
            Op::Probe(t) => {
                let e = t.resolve(model);
                self.probe(e);
            }
            Op::Group(g) => {
                let (got, name, order) = declare_group(world, *g);
                let keys: Vec<Key> = order.iter().map(|w| w.key()).collect();
                assert_eq!(got, model.group(name, &keys), "group {name}");
            }
            Op::Slices(n, k) => run_slices(world, model, *n, *k),
            Op::Stats => {}
            Op::OptimizeLayout => {
                world.optimize_layout();
                let stats = world.layout_stats();
                assert!(
                    stats.is_optimized(),
                    "not in order after optimize_layout: {stats:?}"
                );
                assert_eq!(world.optimize_layout(), 0, "a second pass moves nothing");
            }
        }
    }

    /// Every entity API on `e`: reads always; when `e` is not alive, every mutator too, which
    /// must fail with the liveness error and change nothing (stats, drop counts).
    pub fn probe(&mut self, e: Entity) {
        let Harness {
            world,
            model,
            types,
            ..
        } = self;
        let dead = model.check(e).err();
        assert_eq!(world.is_alive(e), dead.is_none(), "is_alive({e:?})");
        for &w in *types {
            let expected = model.lookup(e, w.key());
            if let Err(err) = &expected {
                query::check_error_text(err, e);
            }
            assert_eq!(w.key().get(world, e), expected, "get::<{w:?}>({e:?})");
            assert_eq!(
                w.key().contains(world, e),
                expected.is_ok(),
                "contains::<{w:?}>({e:?})"
            );
            // k = 0 leaves every type but Name and Items unchanged; mirror it.
            let got = world_get_mut(world, e, w, 0);
            assert_eq!(
                got,
                bump_in_model(model, e, w, 0),
                "get_mut::<{w:?}>({e:?})"
            );
        }
        let got = world.components_of(e).map(|infos| model.info_names(infos));
        assert_eq!(
            got,
            model.check(e).map(|()| model.names(e)),
            "components_of({e:?})"
        );
        check_entity_ref(world, model, e, types);
        run_entity_mut(world, model, e, &[HandleOp::Components], types);
        for (shape, method, k) in [
            (1, 5, 0),  // get
            (3, 9, 0),  // contains
            (7, 5, 0),  // get, no required storage
            (6, 13, 0), // query_ref get
            (8, 6, 1),  // get_mut
        ] {
            let visitor = Method {
                world: &mut *world,
                model: &mut *model,
                method,
                target: e,
                k,
            };
            with_shape(shape, visitor);
        }

        if let Some(err) = dead {
            let stats = world.stats();
            let ledger = Tracked::ledger();
            let tracked = ledger.live();
            assert_eq!(world.despawn(e), Err(err.clone()), "despawn({e:?})");
            for &w in *types {
                let value = match w {
                    Which::Pos => Value::Pair(1, 2),
                    Which::Name => Value::Text("x".into()),
                    Which::Items => Value::List(vec![1]),
                    Which::Tag | Which::Mark => Value::Unit,
                    Which::Tracked => Value::U32(9),
                    Which::Count => Value::U64(3),
                };
                assert_eq!(
                    world_insert(world, e, w, &value),
                    Err(err.clone()),
                    "insert({e:?})"
                );
                assert_eq!(world_remove(world, e, w), Err(err.clone()), "remove({e:?})");
            }
            let bundle = (Pos(3, 4), Tracked::new(5), (Tag, Name("y".into())));
            assert_eq!(world.insert_bundle(e, bundle), Err(err.clone()));
            assert_eq!(world.entity_mut(e).map(|h| h.id()), Err(err.clone()));
            assert_eq!(world.entity(e).map(|h| h.id()), Err(err));
            assert_eq!(
                world.stats(),
                stats,
                "a failed call on {e:?} changed the world"
            );
            assert_eq!(
                ledger.live(),
                tracked,
                "a rejected Tracked was not dropped exactly once"
            );
        }
    }

    /// Compares `World::stats` with the model, and the `Tracked` values alive (and never dropped
    /// twice) with those the model holds.
    pub fn check_stats(&self) {
        self.model.assert_stats(&self.world);
        let ledger = Tracked::ledger();
        let (base_live, base_errors) = self.tracked_base;
        assert_eq!(
            ledger.live() as i64 - base_live as i64,
            self.model.count(Which::Tracked.key()) as i64,
            "live Tracked values vs the model"
        );
        let errors = ledger.errors();
        assert_eq!(
            errors.len(),
            base_errors,
            "Tracked values dropped twice: {:?}",
            &errors[base_errors.min(errors.len())..]
        );
    }

    /// Compares everything observable with the model (see [`Model::assert_world`]), and each
    /// group's packed rows through `Query::slices`.
    pub fn check_all(&mut self) {
        let dead = if self.thorough {
            DeadIds::All
        } else {
            DeadIds::Recent
        };
        self.model.assert_world(&self.world, dead);
        // Group invariant: each group's packed prefix is exactly its full holders, row-aligned.
        for n in 0..SLICES {
            if self.model.grouped(&slice_keys(n)) {
                run_slices(&mut self.world, &mut self.model, n, 0);
            }
        }
    }

    /// Runs `ops`, checking after each one; any panic is reported with its step and resumed.
    pub fn run(&mut self, ops: &[Op]) {
        for (step, op) in ops.iter().enumerate() {
            let result = catch_unwind(AssertUnwindSafe(|| {
                self.note(op);
                self.apply(op);
                self.check_stats();
                if self.thorough
                    || self.model.len() <= FULL_CHECK_LIVE
                    || step % FULL_CHECK_EVERY == 0
                {
                    self.check_all();
                }
            }));
            if let Err(payload) = result {
                eprintln!("step {step} of {} failed: {op:?}", ops.len());
                resume_unwind(payload);
            }
        }
        self.check_all();
    }
}

/// `get_mut` and a bump by `k` in the model: the value it must answer.
fn bump_in_model(model: &mut Model, e: Entity, w: Which, k: u8) -> Result<Value, Error> {
    model.lookup(e, w.key()).map(|mut value| {
        value.bump(k);
        model.insert(e, w.key(), value.clone());
        value
    })
}

fn check_entity_ref(world: &World, model: &Model, e: Entity, types: &[Which]) {
    match world.entity(e) {
        Err(err) => assert_eq!(Err(err), model.check(e), "entity({e:?})"),
        Ok(r) => {
            assert_eq!(model.check(e), Ok(()), "entity({e:?}) should fail");
            assert_eq!(r.id(), e);
            for &w in types {
                let got = with_type!(w, T => r.get::<T>().map(Mirror::mirror));
                assert_eq!(
                    got,
                    model.lookup(e, w.key()),
                    "EntityRef::get::<{w:?}>({e:?})"
                );
                let has = with_type!(w, T => r.contains::<T>());
                assert_eq!(
                    has,
                    model.get(e, w.key()).is_some(),
                    "EntityRef::contains::<{w:?}>"
                );
            }
            assert_eq!(model.info_names(r.components()), model.names(e));
        }
    }
}

/// A coverage key per operation of `ops`: `prefix` and the operation's variant name.
fn variant_keys<'a, T: std::fmt::Debug>(
    prefix: &'a str,
    ops: &'a [T],
) -> impl Iterator<Item = String> + 'a {
    ops.iter().map(move |op| {
        let name = format!("{op:?}");
        format!("{prefix}.{}", name.split('(').next().unwrap_or_default())
    })
}

fn run_view_mut<T: Generate>(world: &mut World, model: &mut Model, w: Which, steps: &[ViewStep]) {
    // A view registers its type, as `insert` does on first use.
    model.register(&[w.key()]);
    let mut view = world.view_mut::<T>();
    for step in steps {
        match step {
            ViewStep::Insert(t, seed) => {
                let e = t.resolve(model);
                let value = value_of(w, *seed);
                let got = view
                    .insert(e, T::make(&value))
                    .map(|old| old.map(|c| c.mirror()));
                let expected = model
                    .check(e)
                    .map(|()| model.insert(e, w.key(), value.clone()));
                assert_eq!(got, expected, "ViewMut::insert({e:?}, {value:?})");
            }
            ViewStep::Remove(t) => {
                let e = t.resolve(model);
                let got = view.remove(e).map(|c| c.mirror());
                let expected = model.lookup(e, w.key());
                if expected.is_ok() {
                    model.remove(e, w.key());
                }
                assert_eq!(got, expected, "ViewMut::<{w:?}>::remove({e:?})");
            }
            ViewStep::Get(t) => {
                let e = t.resolve(model);
                let got = view.get(e).map(Mirror::mirror);
                assert_eq!(
                    got,
                    model.lookup(e, w.key()),
                    "ViewMut::<{w:?}>::get({e:?})"
                );
            }
            ViewStep::GetMut(t, k) => {
                let e = t.resolve(model);
                let got = view.get_mut(e).map(|mut c| {
                    c.bump(*k);
                    c.mirror()
                });
                let expected = bump_in_model(model, e, w, *k);
                assert_eq!(got, expected, "ViewMut::<{w:?}>::get_mut({e:?})");
            }
            ViewStep::Contains(t) => {
                let e = t.resolve(model);
                let expected = model.lookup(e, w.key()).is_ok();
                assert_eq!(
                    view.contains(e),
                    expected,
                    "ViewMut::<{w:?}>::contains({e:?})"
                );
                assert_eq!(view.len(), model.count(w.key()), "ViewMut::<{w:?}>::len");
                assert_eq!(view.is_empty(), model.count(w.key()) == 0);
            }
        }
    }
}

fn check_view<T: Generate>(world: &World, model: &Model, w: Which, targets: &[Target]) {
    let view = world.view::<T>();
    assert_eq!(view.len(), model.count(w.key()), "View::<{w:?}>::len");
    assert_eq!(view.is_empty(), model.count(w.key()) == 0);
    for t in targets {
        let e = t.resolve(model);
        let expected = model.lookup(e, w.key());
        assert_eq!(
            view.get(e).map(Mirror::mirror),
            expected,
            "View::<{w:?}>::get({e:?})"
        );
        assert_eq!(
            view.contains(e),
            expected.is_ok(),
            "View::<{w:?}>::contains({e:?})"
        );
    }
}

fn run_entity_mut(
    world: &mut World,
    model: &mut Model,
    e: Entity,
    handle_ops: &[HandleOp],
    types: &[Which],
) {
    let mut handle = match world.entity_mut(e) {
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
            HandleOp::Get(w) => {
                let got = with_type!(*w, T => handle.get::<T>().map(Mirror::mirror));
                assert_eq!(got, model.lookup(e, w.key()), "EntityMut::get::<{w:?}>");
            }
            HandleOp::GetMut(w, k) => {
                let got = with_type!(*w, T => handle.get_mut::<T>().map(|c| {
                    c.bump(*k);
                    c.mirror()
                }));
                let expected = bump_in_model(model, e, *w, *k);
                assert_eq!(got, expected, "EntityMut::get_mut::<{w:?}>");
            }
            HandleOp::Contains(w) => {
                let has = with_type!(*w, T => handle.contains::<T>());
                assert_eq!(
                    has,
                    model.get(e, w.key()).is_some(),
                    "EntityMut::contains::<{w:?}>"
                );
            }
            HandleOp::Insert(w, value) => {
                let got = with_type!(*w, T => handle
                    .insert(T::make(value))
                    .map(|old| old.map(|c| c.mirror())));
                assert_eq!(
                    got,
                    Ok(model.insert(e, w.key(), value.clone())),
                    "EntityMut::insert"
                );
            }
            HandleOp::InsertBundle(spec) => {
                bundle::handle_insert_bundle(&mut handle, spec);
                for (key, value) in keyed(spec.writes(0)) {
                    model.insert(e, key, value);
                }
            }
            HandleOp::Remove(w) => {
                let got = with_type!(*w, T => handle.remove::<T>().map(|c| c.mirror()));
                let expected = model.lookup(e, w.key());
                if expected.is_ok() {
                    model.remove(e, w.key());
                }
                assert_eq!(got, expected, "EntityMut::remove::<{w:?}>");
            }
            HandleOp::Components => {
                let held = handle.components().expect("the handle's entity is alive");
                assert_eq!(model.info_names(held), model.names(e));
            }
            HandleOp::AsRef => {
                let r = handle.as_ref().expect("the handle's entity is alive");
                assert_eq!(r.id(), e);
                for &w in types {
                    let got = with_type!(w, T => r.get::<T>().map(Mirror::mirror));
                    assert_eq!(got, model.lookup(e, w.key()), "as_ref().get::<{w:?}>");
                    let has = with_type!(w, T => r.contains::<T>());
                    assert_eq!(
                        has,
                        model.get(e, w.key()).is_some(),
                        "as_ref().contains::<{w:?}>"
                    );
                }
                assert_eq!(model.info_names(r.components()), model.names(e));
            }
            HandleOp::Despawn => {
                handle.despawn().expect("the handle's entity is alive");
                model.despawn(e);
                return;
            }
        }
    }
}

/// Spawns an entity as [`Assembly`] says.
fn assemble(world: &mut World, parts: &Assembly) -> Entity {
    if let (Some(p), Some(n), Some(i), Some(c)) =
        (&parts.pos, &parts.name, &parts.items, &parts.count)
    {
        let e = world.spawn((*p, n.clone(), i.clone(), *c));
        let tags = match (parts.tag, parts.mark) {
            (true, true) => world.insert_bundle(e, (Tag, Mark)),
            (true, false) => world.insert_bundle(e, Tag),
            (false, true) => world.insert_bundle(e, (Mark,)),
            (false, false) => Ok(()),
        };
        assert_eq!(tags, Ok(()), "insert_bundle of tags");
        return e;
    }
    let e = world.spawn(());
    for (w, value) in parts.writes() {
        assert_eq!(
            world_insert(world, e, w, &value),
            Ok(None),
            "insert on a new entity"
        );
    }
    e
}

/// What one entity writes.
type Writes = Vec<(Which, Value)>;

/// `spawn_batch` of `n` bundles of batch shape `shape % 5`; the ids, and what each entity
/// writes.
fn spawn_aligned(
    world: &mut World,
    shape: u8,
    n: usize,
    seed: u32,
) -> (Vec<Entity>, impl Fn(usize) -> Writes + use<>) {
    let a = move |i: usize| Pos((seed.wrapping_add(i as u32) % 4) as i32, 0);
    let b = move |i: usize| Name("ab".repeat((seed as usize + i) % 3));
    let c = move |i: usize| Items(vec![i as u16; (seed as usize + i) % 3]);
    let d = move |i: usize| Count(u64::from(seed) + i as u64);
    let ids = match shape % 5 {
        0 => world.spawn_batch((0..n).map(|i| (a(i), b(i)))),
        1 => world.spawn_batch((0..n).map(|i| (a(i), b(i), c(i), d(i)))),
        2 => world.spawn_batch((0..n).map(|i| (a(i), b(i), c(i), d(i), Tag, Mark))),
        3 => world.spawn_batch((0..n).map(|i| (a(i), d(i), Tag))),
        _ => world.spawn_batch((0..n).map(|i| (Mark, c(i), b(i)))),
    };
    let writes = move |i: usize| -> Writes {
        let (a, b, c, d) = (
            (Which::Pos, a(i).mirror()),
            (Which::Name, b(i).mirror()),
            (Which::Items, c(i).mirror()),
            (Which::Count, d(i).mirror()),
        );
        let (tag, mark) = ((Which::Tag, Value::Unit), (Which::Mark, Value::Unit));
        match shape % 5 {
            0 => vec![a, b],
            1 => vec![a, b, c, d],
            2 => vec![a, b, c, d, tag, mark],
            3 => vec![a, d, tag],
            _ => vec![mark, c, b],
        }
    };
    (ids, writes)
}

/// Declares group shape `g % GROUPS`; returns the answer, the group's type name and its types
/// in write order.
fn declare_group(world: &mut World, g: u8) -> (Result<(), Error>, &'static str, Vec<Which>) {
    use Which::{Items as I, Name as N, Pos as P, Tag as T, Tracked as K};
    macro_rules! declare {
        ($G:ty, $order:expr) => {
            (world.group::<$G>(), type_name::<$G>(), $order.to_vec())
        };
    }
    match g % GROUPS {
        0 => declare!((Pos, Items), [P, I]),
        1 => declare!((Items, Pos), [I, P]),
        2 => declare!((Name, Tag), [N, T]),
        3 => declare!((Pos, Tracked, Tag), [P, K, T]),
        4 => declare!((Pos,), [P]),
        5 => declare!((Tag, Tag), [T, T]),
        6 => declare!((Tracked, Name), [K, N]),
        _ => declare!(((Pos,), (Items, Pos)), [P, I, P]),
    }
}

/// The component types of slice shape `n`: `Query::slices` succeeds iff a group owns exactly
/// these (and the query has no filter).
fn slice_keys(n: u8) -> Vec<Key> {
    use Which::{Items as I, Name as N, Pos as P, Tag as T, Tracked as K};
    let types: &[Which] = match n % SLICES {
        0 | 1 | 6 => &[P, I],
        2 => &[N, T],
        3 => &[K, P, T],
        4 => &[K, N],
        _ => &[P],
    };
    types.iter().map(|w| w.key()).collect()
}

fn v<T: Mirror>(c: &T) -> Val {
    Val::V(c.mirror())
}

fn sorted(mut rows: Vec<Vec<Val>>) -> Vec<Vec<Val>> {
    rows.sort();
    rows
}

/// `Query::slices` of slice shape `n % SLICES`, bumping the `&mut` slice by `k`; the rows must be
/// the model's holders of the shape's types (row `i` of every slice one entity), or the error
/// `NotGrouped` when no group owns exactly those types or the query has a filter.
fn run_slices(world: &mut World, model: &mut Model, n: u8, k: u8) {
    let n = n % SLICES;
    let keys = slice_keys(n);
    let filtered = n == 6;
    let ok = !filtered && model.grouped(&keys);
    let (got, query): (Result<Vec<Vec<Val>>, Error>, &'static str) = match n {
        0 => {
            let mut q = world.query::<(&mut Pos, &Items)>();
            let got = q.slices().map(|(ps, is)| {
                assert_eq!(ps.len(), is.len(), "slice lengths");
                ps.iter_mut()
                    .zip(is.iter())
                    .map(|(p, i)| {
                        p.bump(k);
                        vec![v(&*p), v(i)]
                    })
                    .collect()
            });
            (got, type_name::<(&mut Pos, &Items)>())
        }
        1 => {
            let mut q = world.query::<(Entity, &Items, &Pos)>();
            let got = q.slices().map(|(es, is, ps)| {
                assert!(
                    es.len() == is.len() && is.len() == ps.len(),
                    "slice lengths"
                );
                es.iter()
                    .zip(is)
                    .zip(ps)
                    .map(|((&e, i), p)| vec![Val::E(e), v(i), v(p)])
                    .collect()
            });
            (got, type_name::<(Entity, &Items, &Pos)>())
        }
        2 => {
            let mut q = world.query::<(&Name, &mut Tag)>();
            let got = q.slices().map(|(ns, ts)| {
                assert_eq!(ns.len(), ts.len(), "slice lengths");
                ns.iter()
                    .zip(ts.iter())
                    .map(|(n, t)| vec![v(n), v(t)])
                    .collect()
            });
            (got, type_name::<(&Name, &mut Tag)>())
        }
        3 => {
            let mut q = world.query::<(&mut Tracked, &Pos, &Tag)>();
            let got = q.slices().map(|(ks, ps, ts)| {
                assert!(
                    ks.len() == ps.len() && ps.len() == ts.len(),
                    "slice lengths"
                );
                ks.iter_mut()
                    .zip(ps)
                    .map(|(t, p)| {
                        t.bump(k);
                        vec![v(&*t), v(p), Val::V(Value::Unit)]
                    })
                    .collect()
            });
            (got, type_name::<(&mut Tracked, &Pos, &Tag)>())
        }
        4 => {
            let mut q = world.query::<(&Tracked, &mut Name)>();
            let got = q.slices().map(|(ks, ns)| {
                assert_eq!(ks.len(), ns.len(), "slice lengths");
                ks.iter()
                    .zip(ns.iter_mut())
                    .map(|(t, name)| {
                        name.bump(k);
                        vec![v(t), v(&*name)]
                    })
                    .collect()
            });
            (got, type_name::<(&Tracked, &mut Name)>())
        }
        5 => {
            let mut q = world.query::<&Pos>();
            let got = q.slices().map(|ps| ps.iter().map(|p| vec![v(p)]).collect());
            (got, type_name::<&Pos>())
        }
        _ => {
            let mut q = world.query_filtered::<(&Pos, &Items), With<Tag>>();
            let got = q
                .slices()
                .map(|(ps, is)| ps.iter().zip(is).map(|(p, i)| vec![v(p), v(i)]).collect());
            (got, type_name::<(&Pos, &Items)>())
        }
    };
    let expected = if ok {
        let bumped = match n {
            0 => Some(Which::Pos),
            3 => Some(Which::Tracked),
            4 => Some(Which::Name),
            _ => None,
        };
        let columns: &[Which] = match n {
            0 => &[Which::Pos, Which::Items],
            1 => &[Which::Items, Which::Pos],
            2 => &[Which::Name, Which::Tag],
            3 => &[Which::Tracked, Which::Pos, Which::Tag],
            _ => &[Which::Tracked, Which::Name],
        };
        let mut rows = Vec::new();
        for (&e, m) in &mut model.live {
            if !keys.iter().all(|key| m.contains_key(key)) {
                continue;
            }
            if let Some(w) = bumped {
                m.get_mut(&w.key()).expect("holds it").bump(k);
            }
            let mut row = if n == 1 { vec![Val::E(e)] } else { Vec::new() };
            row.extend(columns.iter().map(|w| Val::V(m[&w.key()].clone())));
            rows.push(row);
        }
        Ok(sorted(rows))
    } else {
        Err(Error::NotGrouped { query })
    };
    assert_eq!(got.map(sorted), expected, "slices #{n}");
}
