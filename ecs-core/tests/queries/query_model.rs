//! Model-based property test of typed queries.
//!
//! Proptest generates a sequence of world operations (spawn a random subset of six component
//! types, despawn, insert, remove) interleaved with queries, all mirrored in the reference
//! model (`ecs_testkit::Model`), so storages get holes, swap-removes, and indices reused with
//! bumped versions (`ecs_testkit::strategy::query_op`).
//!
//! Queries are types, so the test kit enumerates a fixed set of query *shapes*: fetch tuples of
//! `&T`, `&mut T`, `Option<&T>`, `Option<&mut T>`, `Entity`, nested tuples and
//! `#[derive(Query)]` structs (one nesting another), combined with `With`, `Without`, `Or`, tuple
//! filters, and `.with()` / `.without()` / `.filter()` chaining. Each sweep
//! (`ecs_testkit::query::check_sweep`) answers the query from the model by brute force over
//! every live entity and compares, exactly:
//!
//! - the items of `iter` (via `next`, via `fold`, and half `next` / half `fold`), `&Query` as
//!   `IntoIterator`, `count`, a `map(..).sum()` checksum, `is_empty`, `size_hint`;
//! - `get` / `contains` / `get_mut` for every id ever handed out (live or stale) and made-up ids,
//!   including the exact `Error` variant: liveness first, then the filter, then the fetch;
//! - `single` / `single_mut`, with `Error::NoMatch` / `Error::MultipleMatches`;
//! - the same read-side answers through `World::query_ref` of the read-only form;
//! - mutation through `get_mut`, then through `iter_mut`, `for_each`, `&mut Query`, the consuming
//!   `IntoIterator` or `iter_mut().fold` (chosen by the op), mirrored in the model and checked
//!   afterwards against every stored value.
//!
//! Each case starts with a `spawn_batch` of up to 200 entities, so several storages hold the same
//! entities at the same positions over several 64-entity chunks of the iterator (its aligned fast
//! path); the ops that follow break that line-up in places (swap-removes in one storage only,
//! inserts appended to one storage).
//!
//! A second property starts from several batches of different shapes, so storages hold the same
//! runs of entities at different offsets (the iterator's offset runs).
//!
//! Another property interleaves layout passes (`World::optimize_layout`) with churn and
//! sweeps every shape, afresh and through kept query states, before and after each pass.
//!
//! `ECS_MODEL_CASES` sets the number of generated cases (default 256).

use ecs_testkit::harness::SWEEP_SHAPES;
use ecs_testkit::query::{OP_SHAPES, shape_matches};
use ecs_testkit::strategy::{SWEPT, aligned_batch, cases_from_env, prepared_query_op, query_op};
use ecs_testkit::{Assembly, Count, Harness, Items, Name, Op, Pos, Target};
use proptest::collection::vec;
use proptest::prelude::*;

/// Longest generated op sequence.
const MAX_OPS: usize = 120;

/// Every sweep shape once, each writing through the path `mode + shape` picks.
fn every_shape(mode: u8) -> impl Iterator<Item = Op> {
    (0..SWEEP_SHAPES).map(move |shape| Op::QuerySweep {
        shape,
        mode: mode.wrapping_add(shape as u8),
    })
}

proptest! {
    #![proptest_config(cases_from_env("ECS_MODEL_CASES", 256))]

    /// Random worlds and random query shapes agree with a brute-force scan of the model on every
    /// read path, write path and error; at the end of each case every shape runs once more.
    #[test]
    fn queries_agree_with_the_model(
        first in aligned_batch(200),
        ops in vec(query_op(), 0..MAX_OPS),
        mode in any::<u8>(),
    ) {
        let mut h = Harness::with_types(&SWEPT);
        // A first batch lines several storages up (same entities at the same positions, in
        // several chunks of the iterator); the ops that follow break that up in places.
        h.run(&[first]);
        h.run(&ops);
        h.run(&every_shape(mode).collect::<Vec<_>>());
    }
}

proptest! {
    #![proptest_config(cases_from_env("ECS_MODEL_CASES", 96))]

    /// Several line-up batches of different shapes first: each storage then holds a batch's
    /// entities as one run, but at a different offset in each storage (one that started longer
    /// holds it further on), which the iterator reads as zipped arrays at an offset. The ops that
    /// follow shrink and reorder some storages and not others, so runs break, move and end
    /// mid-chunk; every shape is swept before and after them.
    #[test]
    fn offset_runs_agree_with_the_model(
        batches in vec(aligned_batch(200), 2..6),
        ops in vec(query_op(), 0..MAX_OPS / 2),
        mode in any::<u8>(),
    ) {
        let mut h = Harness::with_types(&SWEPT);
        h.run(&batches);
        h.run(&every_shape(mode).collect::<Vec<_>>());
        h.run(&ops);
        h.run(&every_shape(mode.wrapping_add(1)).collect::<Vec<_>>());
    }
}

proptest! {
    #![proptest_config(cases_from_env("ECS_MODEL_CASES", 96))]

    /// Query states made once, on the empty world (before any component type is registered),
    /// then used between random structural ops: every sweep through a state agrees with the
    /// model, as the one-off queries do, whatever types and entities arrived since it was made.
    /// At the end every shape runs once more through its state, then once more afresh.
    #[test]
    fn prepared_states_agree_with_the_model(
        first in aligned_batch(200),
        ops in vec(prepared_query_op(), 0..MAX_OPS),
        mode in any::<u8>(),
    ) {
        let mut h = Harness::with_types(&SWEPT);
        h.prepare_sweeps();
        h.run(&[first]);
        h.run(&ops);
        h.run(&every_prepared_shape(mode));
        h.run(&every_shape(mode.wrapping_add(1)).collect::<Vec<_>>());
    }
}

/// Every sweep shape once through the harness's kept query states.
fn every_prepared_shape(mode: u8) -> Vec<Op> {
    every_shape(mode)
        .map(|op| match op {
            Op::QuerySweep { shape, mode } => Op::PreparedSweep { shape, mode },
            other => other,
        })
        .collect()
}

proptest! {
    #![proptest_config(cases_from_env("ECS_MODEL_CASES", 64))]

    /// Layout passes between structural churn: every shape, afresh and through kept query
    /// states (whose cached runs must be found again after each pass and each change), agrees
    /// with the model before a pass, after it, after churn that breaks the sorted order up
    /// (appends, swap-removes, inserts that change signatures) and after a second pass.
    #[test]
    fn layout_passes_keep_every_shape_agreeing(
        batches in vec(aligned_batch(120), 1..4),
        churn in vec(prepared_query_op(), 0..MAX_OPS / 2),
        more in vec(prepared_query_op(), 0..MAX_OPS / 4),
        mode in any::<u8>(),
    ) {
        let mut h = Harness::with_types(&SWEPT);
        h.prepare_sweeps();
        h.run(&batches);
        h.run(&churn);
        h.run(&every_prepared_shape(mode));
        h.run(&[Op::OptimizeLayout]);
        h.run(&every_prepared_shape(mode.wrapping_add(1)));
        h.run(&every_shape(mode.wrapping_add(2)).collect::<Vec<_>>());
        h.run(&more);
        h.run(&every_prepared_shape(mode.wrapping_add(3)));
        h.run(&[Op::OptimizeLayout]);
        h.run(&every_prepared_shape(mode.wrapping_add(4)));
        h.run(&every_shape(mode.wrapping_add(5)).collect::<Vec<_>>());
    }
}

/// A fixed world with every kind of hole and reuse, run through every shape and every write
/// path: a deterministic smoke test of the harness itself (it must see matches, not only
/// empty results).
#[test]
fn every_shape_on_a_fixed_world() {
    let mut h = Harness::with_types(&SWEPT);
    let ops: Vec<Op> = (0..24u32)
        .map(|i| {
            Op::SpawnAssembled(Assembly {
                pos: (i % 2 == 0).then_some(Pos(i as i32, 0)),
                name: (i % 3 != 0).then(|| Name(format!("b{i}"))),
                items: (i % 4 != 1).then(|| Items(vec![i as u16; (i % 3) as usize])),
                count: (i % 5 != 2).then_some(Count(u64::from(i) * 10)),
                tag: i % 3 == 1,
                mark: i % 2 == 1 || i % 7 == 0,
            })
        })
        .collect();
    h.run(&ops);
    for i in [3usize, 8, 0, 15, 11] {
        h.run(&[Op::Despawn(Target::Live(i))]);
    }
    let reused = Assembly {
        pos: Some(Pos(99, 0)),
        name: Some(Name("reused".into())),
        items: Some(Items(vec![1, 2])),
        count: Some(Count(5)),
        tag: true,
        mark: true,
    };
    h.run(&vec![Op::SpawnAssembled(reused); 3]);
    assert!(
        h.model.live().keys().any(|e| e.version() == 2),
        "indices reused"
    );
    for mode in 0..5 {
        h.run(
            &every_shape(0)
                .map(|op| match op {
                    Op::QuerySweep { shape, .. } => Op::QuerySweep { shape, mode },
                    other => other,
                })
                .collect::<Vec<_>>(),
        );
    }
    // Shapes that must have matched something here, so the comparisons above were not vacuous:
    // the derived `Mover`, the derived `Outer` nesting it, `(Entity, &Pos)` filtered `With<Tag>`.
    let sweep = usize::from(OP_SHAPES);
    for shape in [15, 27, 8] {
        assert!(
            shape_matches(&h.model, sweep + shape) > 0,
            "sweep shape {shape}"
        );
    }
}
