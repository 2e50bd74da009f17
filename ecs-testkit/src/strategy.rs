//! Proptest strategies producing [`Op`]s for the model tests.
//!
//! [`entity_op`] covers every entity operation over `Pos`, `Name` and `Tag` (batches through
//! iterators with wrong size hints or that panic included), aimed at live,
//! stale, made-up and arbitrary ids; [`query_op`] builds worlds of six types with holes,
//! swap-removes and reused indices, interleaved with query sweeps.

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;

use crate::bundle::{Hint, Spec};
use crate::component::{Count, Items, Name, Pos, Value, Which};
use crate::harness::{Assembly, HandleOp, Op, SWEEP_SHAPES, Target, ViewStep};

/// A proptest config running `cases` from the environment variable `var`
/// (`ECS_MODEL_CASES`, `ECS_FUZZ_CASES`), else `default`; no failure files
/// are written.
///
/// # Panics
/// When `var` is set to something other than a number.
pub fn cases_from_env(var: &str, default: u32) -> ProptestConfig {
    let cases = std::env::var(var).ok().map_or(default, |s| {
        s.parse()
            .unwrap_or_else(|_| panic!("{var} must be a number, not {s:?}"))
    });
    ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// A `Pos` with small coordinates.
pub fn pos() -> impl Strategy<Value = Pos> {
    (-50i32..50, -50i32..50).prop_map(|(x, y)| Pos(x, y))
}

/// A short lowercase name.
pub fn name() -> impl Strategy<Value = String> {
    "[a-z]{0,4}".prop_map(String::from)
}

/// `Pos`, `Name` or `Tag`.
fn which() -> impl Strategy<Value = Which> {
    prop_oneof![Just(Which::Pos), Just(Which::Name), Just(Which::Tag)]
}

/// A value of `Pos`, `Name` or `Tag`.
fn value() -> impl Strategy<Value = (Which, Value)> {
    prop_oneof![
        pos().prop_map(|p| (Which::Pos, Value::Pair(p.0, p.1))),
        name().prop_map(|n| (Which::Name, Value::Text(n))),
        Just((Which::Tag, Value::Unit)),
    ]
}

/// A `get_mut` change: the type and the bump.
fn mutation() -> impl Strategy<Value = (Which, u8)> {
    (which(), any::<u8>())
}

/// A bundle of a subset of `Pos`, `Name` and `Tag`; sometimes with a `Pos` listed before the
/// rest, which the later `Pos` (if any) overrides.
fn components() -> impl Strategy<Value = Spec> {
    (
        option::of(pos()),
        option::of(name()),
        any::<bool>(),
        option::weighted(0.15, pos()),
        0u8..3,
    )
        .prop_map(|(pos, name, tag, shadowed, shape)| Spec {
            pos,
            name,
            items: None,
            tag,
            tracked: None,
            shape: if shadowed.is_some() { 3 } else { shape },
            dup_pos: shadowed.unwrap_or(Pos(0, 0)),
            dup_tracked: 0,
        })
}

/// How `spawn_batch` gets its iterator: every size hint, right or wrong, and iterators that
/// panic at some item of a batch (of up to 11, see `Op::SpawnBatch`), or after its last.
fn hint() -> impl Strategy<Value = Hint> {
    prop_oneof![
        Just(Hint::Exact),
        Just(Hint::Vec),
        Just(Hint::Unknown),
        (0u8..16).prop_map(Hint::Over),
        Just(Hint::Lying),
        (0u8..14).prop_map(Hint::PanicsAt),
    ]
}

/// Mostly live entities, sometimes stale ids, ids past the slots, future versions of real
/// slots, and arbitrary valid handles (often with small indices and versions, which hit real or
/// stale ids).
fn target() -> impl Strategy<Value = Target> {
    let bits = prop_oneof![
        any::<u64>(),
        (0u64..24, 1u64..6).prop_map(|(index, version)| (version << 32) | index),
    ]
    .prop_filter("version 0 is not a handle", |bits| bits >> 32 != 0);
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
        2 => mutation().prop_map(|(w, k)| HandleOp::GetMut(w, k)),
        2 => which().prop_map(HandleOp::Contains),
        3 => value().prop_map(|(w, v)| HandleOp::Insert(w, v)),
        1 => components().prop_map(HandleOp::InsertBundle),
        2 => which().prop_map(HandleOp::Remove),
        1 => Just(HandleOp::Components),
        1 => Just(HandleOp::AsRef),
        1 => Just(HandleOp::Despawn),
    ]
}

fn view_step() -> impl Strategy<Value = ViewStep> {
    prop_oneof![
        3 => (target(), any::<u8>()).prop_map(|(t, seed)| ViewStep::Insert(t, seed)),
        2 => target().prop_map(ViewStep::Remove),
        2 => target().prop_map(ViewStep::Get),
        2 => (target(), any::<u8>()).prop_map(|(t, k)| ViewStep::GetMut(t, k)),
        1 => target().prop_map(ViewStep::Contains),
    ]
}

/// One entity operation: spawn, spawn_batch, despawn, insert, insert_bundle, remove, get,
/// get_mut, contains, is_alive, components_of, `entity`, `entity_mut` with handle operations,
/// typed views (`view_mut` with a sequence of operations, `view` with reads), clear.
pub fn entity_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        10 => components().prop_map(Op::Spawn),
        2 => vec((pos(), name().prop_map(Name)), 0..8).prop_map(Op::SpawnPairs),
        2 => (components(), any::<u8>(), hint()).prop_map(|(c, n, h)| Op::SpawnBatch(c, n, h)),
        7 => target().prop_map(Op::Despawn),
        8 => (target(), value()).prop_map(|(t, (w, v))| Op::Insert(t, w, v)),
        3 => (target(), components()).prop_map(|(t, c)| Op::InsertBundle(t, c)),
        6 => (target(), which()).prop_map(|(t, w)| Op::Remove(t, w)),
        5 => (target(), which()).prop_map(|(t, w)| Op::Get(t, w)),
        5 => (target(), mutation()).prop_map(|(t, (w, k))| Op::GetMut(t, w, k)),
        3 => (target(), which()).prop_map(|(t, w)| Op::Contains(t, w)),
        2 => target().prop_map(Op::IsAlive),
        2 => target().prop_map(Op::ComponentsOf),
        2 => target().prop_map(Op::EntityRef),
        4 => (target(), vec(handle_op(), 0..6)).prop_map(|(t, h)| Op::EntityMut(t, h)),
        3 => (which(), vec(view_step(), 0..8)).prop_map(|(w, s)| Op::ViewMut(w, s)),
        2 => (which(), vec(target(), 0..6)).prop_map(|(w, t)| Op::View(w, t)),
        1 => Just(Op::Clear),
        1 => Just(Op::OptimizeLayout),
    ]
}

fn small_pos() -> impl Strategy<Value = Pos> {
    (0i32..4).prop_map(|x| Pos(x, 0))
}

fn short_name() -> impl Strategy<Value = Name> {
    vec(b'a'..=b'c', 0..3).prop_map(|bytes| Name(String::from_utf8(bytes).expect("ascii")))
}

fn short_items() -> impl Strategy<Value = Items> {
    vec(0u16..5, 0..3).prop_map(Items)
}

fn count() -> impl Strategy<Value = Count> {
    prop_oneof![Just(u64::MAX), 0u64..4].prop_map(Count)
}

fn assembly() -> impl Strategy<Value = Assembly> {
    (
        option::of(small_pos()),
        option::of(short_name()),
        option::of(short_items()),
        option::of(count()),
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(pos, name, items, count, tag, mark)| Assembly {
            pos,
            name,
            items,
            count,
            tag,
            mark,
        })
}

/// The six types of the query sweeps.
pub const SWEPT: [Which; 6] = [
    Which::Pos,
    Which::Name,
    Which::Items,
    Which::Count,
    Which::Tag,
    Which::Mark,
];

fn swept_value() -> impl Strategy<Value = (Which, Value)> {
    prop_oneof![
        small_pos().prop_map(|p| (Which::Pos, Value::Pair(p.0, p.1))),
        short_name().prop_map(|n| (Which::Name, Value::Text(n.0))),
        short_items().prop_map(|i| (Which::Items, Value::List(i.0))),
        count().prop_map(|c| (Which::Count, Value::U64(c.0))),
        Just((Which::Tag, Value::Unit)),
        Just((Which::Mark, Value::Unit)),
    ]
}

/// A `spawn_batch` of up to `max` entities of one of five bundle types, which lines several
/// storages up (the same entities at the same positions, over several 64-entity chunks of the
/// query iterator).
pub fn aligned_batch(max: usize) -> impl Strategy<Value = Op> {
    (any::<u8>(), 0..max, any::<u32>()).prop_map(|(shape, n, seed)| Op::SpawnAligned {
        shape,
        n,
        seed,
    })
}

/// One step of a query case: spawn a subset of six types, a line-up batch, despawn, insert or
/// remove on a live entity, or a sweep of one query shape through every path.
pub fn query_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        5 => assembly().prop_map(Op::SpawnAssembled),
        1 => aligned_batch(90),
        2 => any::<usize>().prop_map(|n| Op::Despawn(Target::Live(n))),
        3 => (any::<usize>(), swept_value()).prop_map(|(n, (w, v))| Op::Insert(Target::Live(n), w, v)),
        2 => (any::<usize>(), any::<u8>())
            .prop_map(|(n, w)| Op::Remove(Target::Live(n), SWEPT[usize::from(w) % SWEPT.len()])),
        3 => (0..SWEEP_SHAPES, any::<u8>()).prop_map(|(shape, mode)| Op::QuerySweep { shape, mode }),
        1 => Just(Op::OptimizeLayout),
    ]
}

/// One step of a prepared-query case: a step of [`query_op`], or a sweep of one shape through
/// the query state the harness keeps, so states see every structural change in between.
pub fn prepared_query_op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => query_op(),
        1 => (0..SWEEP_SHAPES, any::<u8>())
            .prop_map(|(shape, mode)| Op::PreparedSweep { shape, mode }),
    ]
}
