//! Fault injection: random sequences of operations (spawn, spawn_batch, insert,
//! insert_bundle, remove, despawn, clear, `world.commands()` + `flush`, a schedule's frame,
//! `run_system` of a one-shot system, merge of a staging world) on a world with observers,
//! where each operation may carry one fault: the `Drop` of one value (or two), an observer's
//! run, a command, a system (alone, or with the `Drop` of a value it recorded) or a
//! `MapEntities` panics. After each operation the call must have ended as the model says
//! (returned the model's answer, or panicked with the fault's message, once), and the world
//! must equal the model's state before or after the call, as the crate promises for that
//! call and fault (the table in `ecs_testkit::faults`): every live and dead id, every value,
//! `stats()`, and the drop ledger (exactly the values the world holds are alive, none dropped
//! twice). The sequence then goes on on the same world; at its end every value made must have
//! been dropped exactly once. A value armed to panic does so even while another panic
//! unwinds, so a process abort fails the run.
//!
//! `ECS_MODEL_CASES` sets the number of generated sequences (default 512).
//!
//! Under miri, only the fixed seeds (four sequences of 12 steps; a little over a minute of
//! test time on two cores, plus the build):
//! `cargo +nightly miri test -p ecs-core --test reliability -- fault_injection::fault_injection_small`

use std::collections::{BTreeMap, BTreeSet};

use ecs_testkit::faults::{FaultHarness, Step, step};
use ecs_testkit::strategy::cases_from_env;
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{RngAlgorithm, TestRng, TestRunner};

/// Longest generated sequence.
const MAX_STEPS: usize = 40;

/// Runs `steps` on a fresh world; how many calls ended in which panic.
fn run(steps: &[Step]) -> BTreeMap<String, usize> {
    let mut harness = FaultHarness::new();
    harness.run(steps);
    let struck = harness.struck().clone();
    harness.finish();
    struck
}

proptest! {
    #![proptest_config(cases_from_env("ECS_MODEL_CASES", 512))]

    /// Whatever fault strikes whichever call, the world is the model's state before or after
    /// the call, and every value is dropped exactly once.
    #[test]
    fn faults_leave_the_world_before_or_after_each_call(steps in vec(step(), 0..=MAX_STEPS)) {
        run(&steps);
    }
}

/// Seeds whose sequences of [`SMALL_LEN`] steps, together, make every kind of fault strike,
/// and strike a one-shot run with a system's and with a command's panic.
const SMALL_SEEDS: [u8; 4] = [255, 1, 4, 206];

/// Steps per small-seed sequence: short enough for miri.
const SMALL_LEN: usize = 12;

/// The sequences of a few fixed seeds, short enough for miri; together they strike with every
/// kind of fault, and strike `run_system` with a system's and a command's panic, which the
/// test checks, so a change to the generator cannot quietly leave a kind out.
#[test]
fn fault_injection_small_seeds() {
    let mut struck: BTreeMap<String, usize> = BTreeMap::new();
    for seed in SMALL_SEEDS {
        let mut bytes = [0u8; 32];
        bytes[0] = seed;
        let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
        let mut runner = TestRunner::new_with_rng(Default::default(), rng);
        let steps = vec(step(), SMALL_LEN..=SMALL_LEN)
            .new_tree(&mut runner)
            .expect("a value")
            .current();
        for (kind, n) in run(&steps) {
            *struck.entry(kind).or_default() += n;
        }
    }
    let kinds: BTreeSet<&str> = struck
        .keys()
        .map(|key| key.split_once(": ").expect("call: kind").1)
        .collect();
    let expected = BTreeSet::from([
        "fault: Drop of",
        "fault: MapEntities of",
        "fault: command",
        "fault: observer Ash",
        "fault: observer Glow",
        "fault: observer Lit",
        "fault: system inspect",
        "fault: system scripted",
    ]);
    assert_eq!(kinds, expected, "{struck:#?}");
    for key in [
        "run_system: fault: system scripted",
        "run_system: fault: command",
    ] {
        assert!(struck.contains_key(key), "{key} in {struck:#?}");
    }
}
