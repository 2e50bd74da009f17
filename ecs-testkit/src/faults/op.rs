//! The operations of a fault-injection run, the fault each may carry, and their strategies.

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;

use super::values::{Shape, Watcher};
use crate::harness::Target;

/// A component type a command or call names alone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// [`Fuse`](super::Fuse)
    Fuse,
    /// [`Wick`](super::Wick)
    Wick,
}

/// The entity a command is aimed at.
#[derive(Clone, Copy, Debug)]
pub enum Aim {
    /// An entity named when the operation starts (live, stale or never spawned).
    World(Target),
    /// The entity reserved by the `n % spawns`-th spawn of the same list (a live entity when
    /// the list spawns nothing).
    Spawned(u8),
}

/// A recorded command.
#[derive(Clone, Copy, Debug)]
pub enum Cmd {
    /// `spawn(bundle)`: reserves an id now; the bundle arrives when the commands apply.
    Spawn(Shape),
    /// `insert(e, value)`: a value it replaces is dropped inside the command.
    Insert(Aim, Kind),
    /// `insert_bundle(e, bundle)`
    InsertBundle(Aim, Shape),
    /// `remove::<T>(e)`: the removed value is dropped inside the command.
    Remove(Aim, Kind),
    /// `despawn(e)`
    Despawn(Aim),
}

/// One entity of a staging world that an operation merges.
#[derive(Clone, Copy, Debug)]
pub struct LevelEntity {
    /// What it is spawned with.
    pub shape: Shape,
    /// A `Link` it also holds, and what it names.
    pub link: Option<LinkTo>,
    /// Despawned again before the merge, so the level's live indices have holes.
    pub despawned: bool,
}

/// What a level's `Link` names.
#[derive(Clone, Copy, Debug)]
pub enum LinkTo {
    /// The `n % len`-th entity of the level, alive or despawned.
    Level(u8),
    /// An entity of the world merged into (the merge keeps such ids, unless one is also alive
    /// in the level).
    World(Target),
}

/// The fault an operation carries.
#[derive(Clone, Copy, Debug)]
pub enum Fault {
    /// The `Drop` of one value panics: the `n % len`-th candidate (each operation names its
    /// candidates: the values it replaces or takes away, or the new values it brings).
    Drop(u8),
    /// The `Drop`s of two candidates panic (the same one twice is one).
    Drops(u8, u8),
    /// An observer panics on its `run`-th run during the operation, after recording its
    /// commands.
    Observer(Watcher, u8),
    /// A command that panics, recorded at position `at % (len + 1)` of the operation's list.
    Command(u8),
    /// The `MapEntities` of the `n % links`-th `Link` of the merged level panics.
    MapEntities(u8),
    /// The system recording a frame's (or a one-shot run's) commands panics after recording
    /// `at % (len + 1)` of them.
    System(u8),
    /// As `System(at)`, and the `Drop` of the `n % len`-th value the system recorded before
    /// it panicked panics too, as its buffer is dropped.
    SystemDrop(u8, u8),
    /// The system that reads `Fuse`s after the recording one panics.
    Reader,
}

/// One operation on the world.
#[derive(Clone, Debug)]
pub enum FaultOp {
    /// `spawn(bundle)`
    Spawn(Shape),
    /// `spawn_batch` of `n % 5` bundles of one shape
    SpawnBatch(Shape, u8),
    /// `insert(e, value)`: a value it replaces goes back to the caller
    Insert(Target, Kind),
    /// `insert_bundle(e, bundle)`
    InsertBundle(Target, Shape),
    /// `remove::<T>(e)`
    Remove(Target, Kind),
    /// `despawn(e)`
    Despawn(Target),
    /// `clear()`
    Clear,
    /// `world.commands()`, then `flush()`
    Flush(Vec<Cmd>),
    /// `Schedule::run`: one system records the commands, a second reads after it; the stage
    /// applies them at its end
    Frame(Vec<Cmd>),
    /// `merge` of a staging world built from these entities
    Merge(Vec<LevelEntity>),
    /// `run_system` of a registered one-shot system that records the commands; they apply
    /// before the call returns
    OneShot(Vec<Cmd>),
}

/// An operation and the fault injected into it.
#[derive(Clone, Debug)]
pub struct Step {
    /// What runs.
    pub op: FaultOp,
    /// What is armed to panic while it runs.
    pub fault: Option<Fault>,
}

fn kind() -> impl Strategy<Value = Kind> {
    prop_oneof![Just(Kind::Fuse), Just(Kind::Wick)]
}

fn shape() -> impl Strategy<Value = Shape> {
    prop::sample::select(Shape::ALL.to_vec())
}

/// Mostly live entities; sometimes despawned, or ids this world never handed out.
fn target() -> impl Strategy<Value = Target> {
    prop_oneof![
        8 => any::<usize>().prop_map(Target::Live),
        1 => any::<usize>().prop_map(Target::Stale),
        1 => (0u32..3).prop_map(Target::BeyondSlots),
    ]
}

fn aim() -> impl Strategy<Value = Aim> {
    prop_oneof![
        3 => target().prop_map(Aim::World),
        1 => any::<u8>().prop_map(Aim::Spawned),
    ]
}

fn cmd() -> impl Strategy<Value = Cmd> {
    prop_oneof![
        3 => shape().prop_map(Cmd::Spawn),
        2 => (aim(), kind()).prop_map(|(a, k)| Cmd::Insert(a, k)),
        2 => (aim(), shape()).prop_map(|(a, s)| Cmd::InsertBundle(a, s)),
        1 => (aim(), kind()).prop_map(|(a, k)| Cmd::Remove(a, k)),
        2 => aim().prop_map(Cmd::Despawn),
    ]
}

fn level_entity() -> impl Strategy<Value = LevelEntity> {
    let link = prop_oneof![
        2 => any::<u8>().prop_map(LinkTo::Level),
        1 => target().prop_map(LinkTo::World),
    ];
    (
        shape(),
        option::weighted(0.5, link),
        prop::bool::weighted(0.2),
    )
        .prop_map(|(shape, link, despawned)| LevelEntity {
            shape,
            link,
            despawned,
        })
}

/// Which run of an observer panics: mostly the first, so that a call that runs it once is
/// struck too.
fn run() -> impl Strategy<Value = u8> {
    prop_oneof![3 => Just(1u8), 1 => 2u8..=3]
}

/// An observer fault of one of `watchers`.
fn observer(watchers: &'static [Watcher]) -> impl Strategy<Value = Fault> {
    (prop::sample::select(watchers), run()).prop_map(|(w, n)| Fault::Observer(w, n))
}

/// `fault` half of the time.
fn maybe(fault: impl Strategy<Value = Fault>) -> impl Strategy<Value = Option<Fault>> {
    option::of(fault)
}

/// The observers an addition runs.
const ADDED: &[Watcher] = &[Watcher::Glow, Watcher::Lit];
/// The observer a removal runs.
const REMOVED: &[Watcher] = &[Watcher::Ash];
/// Every observer.
const ALL: &[Watcher] = &[Watcher::Glow, Watcher::Ash, Watcher::Lit];

/// One operation with, half of the time, a fault that can strike it.
pub fn step() -> impl Strategy<Value = Step> {
    let drop = || any::<u8>().prop_map(Fault::Drop);
    let drops = || (any::<u8>(), any::<u8>()).prop_map(|(a, b)| Fault::Drops(a, b));
    let system = || any::<u8>().prop_map(Fault::System);
    let system_drop = || (any::<u8>(), any::<u8>()).prop_map(|(at, n)| Fault::SystemDrop(at, n));
    let step = |op: BoxedStrategy<FaultOp>, fault: BoxedStrategy<Option<Fault>>| {
        (op, fault).prop_map(|(op, fault)| Step { op, fault })
    };
    prop_oneof![
        6 => step(
            shape().prop_map(FaultOp::Spawn).boxed(),
            maybe(prop_oneof![drop(), observer(ADDED)]).boxed(),
        ),
        2 => step(
            (shape(), any::<u8>()).prop_map(|(s, n)| FaultOp::SpawnBatch(s, n)).boxed(),
            maybe(prop_oneof![drop(), observer(ADDED)]).boxed(),
        ),
        3 => step(
            (target(), kind()).prop_map(|(t, k)| FaultOp::Insert(t, k)).boxed(),
            maybe(observer(ADDED)).boxed(),
        ),
        3 => step(
            (target(), shape()).prop_map(|(t, s)| FaultOp::InsertBundle(t, s)).boxed(),
            maybe(prop_oneof![2 => drop(), 1 => observer(ADDED)]).boxed(),
        ),
        2 => step(
            (target(), kind()).prop_map(|(t, k)| FaultOp::Remove(t, k)).boxed(),
            maybe(observer(REMOVED)).boxed(),
        ),
        3 => step(
            target().prop_map(FaultOp::Despawn).boxed(),
            maybe(prop_oneof![2 => drop(), 1 => drops(), 1 => observer(REMOVED)]).boxed(),
        ),
        1 => step(
            Just(FaultOp::Clear).boxed(),
            maybe(prop_oneof![drop(), drops(), observer(REMOVED)]).boxed(),
        ),
        3 => step(
            vec(cmd(), 0..6).prop_map(FaultOp::Flush).boxed(),
            maybe(prop_oneof![
                2 => any::<u8>().prop_map(Fault::Command),
                2 => drop(),
                1 => observer(ALL),
            ])
            .boxed(),
        ),
        3 => step(
            vec(cmd(), 0..6).prop_map(FaultOp::Frame).boxed(),
            maybe(prop_oneof![
                2 => any::<u8>().prop_map(Fault::Command),
                1 => drop(),
                1 => observer(ALL),
                1 => system(),
                1 => system_drop(),
                1 => Just(Fault::Reader),
            ])
            .boxed(),
        ),
        3 => step(
            vec(cmd(), 0..6).prop_map(FaultOp::OneShot).boxed(),
            maybe(prop_oneof![
                2 => any::<u8>().prop_map(Fault::Command),
                1 => drop(),
                1 => observer(ALL),
                2 => system(),
                1 => system_drop(),
            ])
            .boxed(),
        ),
        2 => step(
            vec(level_entity(), 0..6).prop_map(FaultOp::Merge).boxed(),
            maybe(prop_oneof![
                2 => any::<u8>().prop_map(Fault::MapEntities),
                1 => observer(ADDED),
            ])
            .boxed(),
        ),
    ]
}
