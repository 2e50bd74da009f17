//! Model-based property test of `World`.
//!
//! The reference model (`ecs_testkit::Model`) holds what the world should contain: the live
//! entities and their components, every id ever handed out, and its own reimplementation of the
//! allocator rules, so it predicts the exact ids (index *and* version) that `spawn` and
//! `spawn_batch` return. Proptest generates sequences of operations over `Pos`, `Name` and `Tag`
//! (`ecs_testkit::strategy::entity_op`); each runs against the world and the model, their
//! answers must agree (values and exact `Error` variants), and after every operation the whole
//! observable state of the world is compared with the model, every despawned id included.
//!
//! Extending it: add a variant to `ecs_testkit::Op`, a strategy arm, and a match arm in
//! `Harness::apply` that runs the operation on both sides and compares the answers.
//!
//! `ECS_MODEL_CASES` sets the number of generated cases (default 1000).

use ecs_core::prelude::*;
use ecs_testkit::strategy::{cases_from_env, entity_op};
use ecs_testkit::{Harness, Op, Pos, Spec, Target, ent};
use proptest::collection::vec;
use proptest::prelude::*;

/// Longest generated op sequence.
const MAX_OPS: usize = 200;

/// Runs a whole sequence, checking the whole state before and after every op.
fn run(ops: &[Op]) {
    let mut h = Harness::new().thorough();
    h.check_all();
    h.run(ops);
}

proptest! {
    #![proptest_config(cases_from_env("ECS_MODEL_CASES", 1000))]

    /// Any sequence of up to 200 operations leaves the world exactly as the model predicts: the
    /// same ids, values, errors, lengths and component sets after every step.
    #[test]
    fn world_matches_model(ops in vec(entity_op(), 0..=MAX_OPS)) {
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
    let mut h = Harness::new().thorough();
    for _ in 0..4 {
        h.apply(&Op::Spawn(Spec {
            tag: true,
            ..Spec::default()
        }));
    }
    h.apply(&Op::Despawn(Target::Bits(ent(1, 1).to_bits())));
    h.apply(&Op::Clear);
    h.check_all();
    let ids: Vec<Entity> = (0..5).map(|_| h.world.spawn(())).collect();
    // Slot 1 was freed first (by despawn), then 0, 2, 3 by clear: LIFO pops 3, 2, 0, 1, then a new slot.
    assert_eq!(ids, [ent(3, 2), ent(2, 2), ent(0, 2), ent(1, 2), ent(4, 1)]);
    let predicted: Vec<Entity> = (0..5).map(|_| h.model.spawn([])).collect();
    assert_eq!(predicted, ids);
    h.check_all();
}

/// Handles are classified by version: below or equal to a freed slot's version is despawned,
/// above it (including the version the next spawn will get) is never spawned.
#[test]
fn stale_and_future_versions_get_the_right_errors() {
    let mut h = Harness::new().thorough();
    h.apply(&Op::Spawn(Spec {
        pos: Some(Pos(1, 2)),
        ..Spec::default()
    }));
    h.apply(&Op::Despawn(Target::Live(0)));
    h.apply(&Op::Spawn(Spec::default()));
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
    h.check_all();
}
