//! Model-based property test of `World::merge`.
//!
//! Two worlds are built by random operation sequences, each checked against
//! its reference model (`ecs_testkit::Harness`). The second is merged into
//! the first; the first model then spawns, in the order of the second world's
//! indices, one entity per live entity of the second with the same
//! components. The model's allocator predicts the exact ids the merge must
//! hand out, and the whole world, groups included, must match the model
//! afterwards; the returned map must pair every old id with its predicted id.
//!
//! `ECS_MERGE_CASES` sets the number of generated cases (default 200).

use ecs_core::prelude::*;
use ecs_testkit::strategy::{cases_from_env, entity_op};
use ecs_testkit::{Harness, Op};
use proptest::collection::vec;
use proptest::prelude::*;

/// Longest generated op sequence, per world.
const MAX_OPS: usize = 120;

/// Group shapes the target may declare before its ops run (see `Op::Group`).
const GROUP_SHAPES: u8 = 4;

fn merge_and_check(target_ops: &[Op], level_ops: &[Op], group: Option<u8>) {
    let mut target = Harness::new();
    if let Some(g) = group {
        target.run(&[Op::Group(g % GROUP_SHAPES)]);
    }
    target.run(target_ops);
    let mut level = Harness::new();
    level.run(level_ops);

    let level_world = std::mem::take(&mut level.world);
    // Types the level registered arrive in its order, after the target's own.
    target.model.register(level.model.registered());
    let moved = target.world.merge(level_world);

    let mut expected = Vec::new();
    for (&old, record) in level.model.live() {
        let new = target
            .model
            .spawn(record.iter().map(|(&key, value)| (key, value.clone())));
        expected.push((old, new));
    }
    let pairs: Vec<(Entity, Entity)> = moved.iter().collect();
    assert_eq!(
        pairs, expected,
        "the map pairs each old id with the next id"
    );
    assert_eq!(moved.len(), level.model.len());
    for &(old, new) in &expected {
        assert_eq!(moved.get(old), Some(new));
    }
    for &stale in level.model.stale() {
        assert_eq!(
            moved.get(stale),
            None,
            "{stale:?} was not alive in the level"
        );
    }
    target.check_all();
    // The merged world goes on like any other.
    target.run(target_ops);
}

proptest! {
    #![proptest_config(cases_from_env("ECS_MERGE_CASES", 200))]

    /// Whatever two worlds hold, merging one into the other gives exactly
    /// what spawning the second's entities into the first would have.
    #[test]
    fn merge_matches_spawning_the_levels_entities(
        target_ops in vec(entity_op(), 0..=MAX_OPS),
        level_ops in vec(entity_op(), 0..=MAX_OPS),
        group in proptest::option::of(any::<u8>()),
    ) {
        merge_and_check(&target_ops, &level_ops, group);
    }
}
