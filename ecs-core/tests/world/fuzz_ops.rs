//! Stable fuzzing of the whole `World` API: arbitrary byte streams decoded into operations
//! (spawn, spawn_batch, despawn, insert, insert_bundle, remove, get, get_mut, contains,
//! is_alive, entity / entity_mut handles, components_of, clear, ten query types read and written
//! through every query method, `World::stats`), with entity operands that include arbitrary
//! `u64`s through `Entity::from_bits`, each run against a model and inside `catch_unwind`.
//!
//! The decoder, the model and the checks live in `ecs_testkit::fuzz`, shared with the
//! `cargo fuzz` targets in `fuzz/` (nightly, for long local runs). Here proptest drives it on
//! stable, bounded for CI: `ECS_FUZZ_CASES` sets the number of random inputs (default 32, each
//! up to 4 KiB, i.e. up to ~1,000 operations; 4 under valgrind).
//!
//! ```sh
//! cargo test -p ecs-core --test world -- fuzz_ops::                                 # CI size
//! ECS_FUZZ_CASES=5000 cargo test --release -p ecs-core --test world -- fuzz_ops::   # a longer run
//! ```

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use ecs_testkit::fuzz::{EDGE_BITS, decode, run_entity_bits, run_ops, setup_ops};
use ecs_testkit::harness::{GROUPS, SLICES, check_bits};
use ecs_testkit::query::{METHODS, OP_SHAPES as SHAPES};
use ecs_testkit::strategy::cases_from_env;
use ecs_testkit::{Harness, Hint, Op, Pos, Target, Tracked, ent};
use proptest::collection::vec;
use proptest::prelude::*;
use proptest::test_runner::Config as ProptestConfig;

/// Cases from `ECS_FUZZ_CASES` (default 32, or 4 under valgrind, whose ~50x slowdown
/// `scripts/memcheck.sh` would otherwise pay in full); no failure files are written.
fn config() -> ProptestConfig {
    cases_from_env("ECS_FUZZ_CASES", if under_valgrind() { 4 } else { 32 })
}

proptest! {
    #![proptest_config(config())]

    /// Any byte stream decodes into a program whose every operation answers exactly as the model
    /// says (ids, values, errors, stats, drop counts) and never panics.
    #[test]
    fn arbitrary_byte_streams_match_the_model(bytes in vec(any::<u8>(), 0..4096)) {
        run_ops(&bytes);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: (config().cases / 4).max(1), ..config() })]

    /// The same with a byte alphabet that favours spawning (opcodes 0..=4), so the world grows
    /// to hundreds of entities with holes, swap-removes and reused slots before the rest runs.
    /// (A quarter of `ECS_FUZZ_CASES`: these cases are the slow ones.)
    #[test]
    fn spawn_heavy_streams_match_the_model(
        bytes in vec(prop_oneof![3 => 0u8..=4, 2 => any::<u8>()], 0..4096)
    ) {
        run_ops(&bytes);
    }
}

/// Degenerate inputs decode and run: empty, all zeros, all `0xFF`, every byte value in order,
/// and one input per opcode repeated.
#[test]
fn degenerate_inputs_run_cleanly() {
    run_ops(&[]);
    run_ops(&[0; 1024]);
    run_ops(&[0xFF; 1024]);
    run_ops(&(0..=255).collect::<Vec<u8>>());
    run_ops(&(0..=255).rev().cycle().take(4096).collect::<Vec<u8>>());
    for opcode in 0..32u8 {
        let bytes: Vec<u8> = [opcode, 7, 1, 200, 3, 9]
            .iter()
            .copied()
            .cycle()
            .take(600)
            .collect();
        run_ops(&bytes);
    }
}

/// Every query shape through every query method (`par_for_each` included), aimed at live,
/// despawned and made-up ids, on a world with mixed contents, without groups and with groups
/// declared before and after the entities (plus every group declaration, conflicting and too
/// small ones included, and every `slices` shape): each answer matches the model.
/// Deterministic coverage of what the random streams reach only by chance.
#[test]
fn every_query_shape_and_method_matches_the_model() {
    let all: Vec<u8> = (0..GROUPS).collect();
    let reversed: Vec<u8> = (0..GROUPS).rev().collect();
    // (groups declared before the entities, groups declared after them)
    let scenarios: [(&[u8], &[u8]); 4] = [(&[], &[]), (&all, &[]), (&[], &reversed), (&[3], &all)];
    let mut reached = std::collections::BTreeSet::new();
    for (before, after) in scenarios {
        let mut ops: Vec<Op> = before.iter().map(|&g| Op::Group(g)).collect();
        ops.extend(setup_ops(31 | 64 | 128));
        ops.extend(after.iter().map(|&g| Op::Group(g)));
        ops.extend(query_sweep());
        if !(before.is_empty() && after.is_empty()) {
            ops.extend((0..SLICES).map(|n| Op::Slices(n, 3)));
            ops.extend(setup_ops(17));
            ops.extend((0..SLICES).map(|n| Op::Slices(n, 250)));
        }
        let mut h = Harness::with_coverage();
        h.run(&ops);
        reached.extend(h.coverage().keys().cloned());
    }
    for n in 0..5 {
        assert!(
            reached.contains(&format!("slices{n}/ok")),
            "slices #{n} never served"
        );
    }
}

/// Every query shape through every method, at a live, a despawned and an edge id.
fn query_sweep() -> Vec<Op> {
    let mut ops = Vec::new();
    for shape in 0..SHAPES {
        for method in 0..METHODS {
            for target in [
                Target::Live(usize::from(method)),
                Target::Dead(shape),
                Target::Edge(method, shape),
            ] {
                ops.push(Op::Query {
                    shape,
                    method,
                    target,
                    k: shape.wrapping_mul(31).wrapping_add(method),
                });
            }
        }
    }
    ops
}

/// The edge values of `u64` handles, and handles at the edges of the world's own slots, give the
/// right error (or the right answer, when alive) from every API taking an `Entity`, on an empty
/// world, small worlds with despawned and cleared slots, and a world whose slots cross a sparse
/// page; failing mutators change nothing and drop the rejected values exactly once.
#[test]
fn edge_entity_bits_are_handled_by_every_api() {
    let mut setups: Vec<Vec<Op>> = [0u8, 5, 13, 13 | 32, 31 | 64, 31 | 32 | 128]
        .iter()
        .map(|&s| setup_ops(s))
        .collect();
    let mut big = setup_ops(3);
    big.push(Op::SpawnBatch(
        decode(&[0, 24, 0])
            .into_iter()
            .find_map(|op| match op {
                Op::Spawn(spec) => Some(spec),
                _ => None,
            })
            .expect("decodes a spawn"),
        255,
        Hint::Exact,
    ));
    big.push(Op::Despawn(Target::Live(4097)));
    setups.push(big);

    let mut probed = 0;
    for setup in setups {
        let mut h = Harness::new();
        h.run(&setup);
        let slots = h.model.slot_count();
        let mut bits: Vec<u64> = EDGE_BITS.to_vec();
        let indices = [
            0,
            1,
            slots.saturating_sub(1),
            slots,
            slots.saturating_add(1),
            4095,
            4096,
            4097,
            u32::MAX - 1,
            u32::MAX,
        ];
        for index in indices {
            let v = h.model.slot_version(index).unwrap_or(1);
            for version in [
                0,
                1,
                2,
                v.saturating_sub(1),
                v,
                v.saturating_add(1),
                u32::MAX - 1,
                u32::MAX,
            ] {
                bits.push((u64::from(version) << 32) | u64::from(index));
            }
        }
        let ops: Vec<Op> = bits.into_iter().map(Op::Bits).collect();
        probed += ops.len();
        h.run(&ops);
    }
    assert!(probed > 500, "probed {probed} handles");
}

/// `Entity::from_bits` rejects exactly the zero versions and round-trips everything else,
/// including the extremes; `Debug` and `Display` print `{index}v{version}`.
#[test]
fn from_bits_round_trips_every_edge() {
    for bits in EDGE_BITS {
        check_bits(bits);
    }
    assert_eq!(check_bits(0), None);
    assert_eq!(check_bits(u64::from(u32::MAX)), None);
    let top = check_bits(u64::MAX).expect("version u32::MAX is valid");
    assert_eq!((top.index(), top.version()), (u32::MAX, u32::MAX));
    assert_eq!(format!("{top:?}"), "4294967295v4294967295");
    assert_eq!(ent(0, 1), check_bits(1 << 32).expect("0v1"));
}

/// The checks can fail: a world changed behind the model's back, a `Tracked` value that is
/// never dropped, and a wrong expectation inside an op are all reported as panics.
#[test]
fn the_harness_detects_disagreements() {
    let quiet = |f: &mut dyn FnMut()| catch_unwind(AssertUnwindSafe(f)).is_err();

    // An entity the model does not know about: stats disagree after the first op.
    assert!(quiet(&mut || {
        let mut h = Harness::new();
        h.world.spawn(());
        h.run(&[Op::Stats]);
    }));
    // A component changed behind the model's back: the full check sees the value.
    assert!(quiet(&mut || {
        let mut h = Harness::new();
        h.run(&setup_ops(4));
        let e = ent(1, 1);
        h.world.insert(e, Pos(99, 99)).expect("alive");
        h.run(&[Op::Stats]);
    }));
    // A counted value alive that the world does not hold (as a leak would leave one).
    let mut h = Harness::new();
    let stray = Tracked::new(1);
    assert!(quiet(&mut || h.run(&[Op::Stats])));
    drop(stray);
    h.run(&[Op::Stats]);
    // A despawn the model does not know about: the next spawn's id differs from the prediction.
    assert!(quiet(&mut || {
        let mut h = Harness::new();
        h.run(&setup_ops(2));
        h.world.despawn(ent(0, 1)).expect("alive");
        h.world.spawn(());
        h.run(&setup_ops(1));
    }));
}

/// Whether this process runs under valgrind, which preloads its own libraries into the client.
fn under_valgrind() -> bool {
    std::env::var_os("LD_PRELOAD").is_some_and(|v| v.to_string_lossy().contains("vgpreload"))
}

/// xorshift64*: deterministic pseudo-random bytes, so a coverage failure reproduces.
fn pseudo_random_bytes(seed: u64, len: usize, spawn_heavy: bool) -> Vec<u8> {
    let mut state = seed | 1;
    (0..len)
        .map(|_| {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            let r = (state.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 56) as u8;
            if spawn_heavy && r % 5 < 3 { r % 5 } else { r }
        })
        .collect()
}

/// The decoder is not vacuous: a fixed set of pseudo-random streams reaches every operation
/// with live targets and with dead or made-up ones, every handle operation, the page-crossing
/// batch, and every query shape through every method with at least one matching entity.
/// (Skipped under valgrind, where it would only repeat the other tests' memory checks slowly.)
#[test]
fn random_streams_reach_every_operation() {
    if under_valgrind() {
        // This checks the decoder's reach, not memory: the other tests run the same code.
        eprintln!("random_streams_reach_every_operation: skipped under valgrind");
        return;
    }
    let mut coverage: BTreeMap<String, usize> = BTreeMap::new();
    for seed in 0..32 {
        let bytes = pseudo_random_bytes(0x9e37_79b9_7f4a_7c15 ^ seed, 4096, seed % 2 == 0);
        let mut h = Harness::with_coverage();
        h.run(&decode(&bytes));
        for (key, n) in h.coverage() {
            *coverage.entry(key.clone()).or_default() += n;
        }
    }
    let mut expected: Vec<String> = Vec::new();
    for kind in [
        "Despawn",
        "Insert",
        "InsertBundle",
        "Remove",
        "Get",
        "GetMut",
        "Contains",
        "IsAlive",
        "EntityRef",
        "EntityMut",
        "ComponentsOf",
        "Probe",
        "Query",
    ] {
        for status in ["Alive", "Despawned", "NeverSpawned"] {
            expected.push(format!("{kind}/{status}"));
        }
    }
    // A random u64 almost never names a live or despawned id; other ops cover those.
    // (Slice shape 3 needs its group declared before any conflicting one: rare at random, so
    // `every_query_shape_and_method_matches_the_model` covers it.)
    for n in [0, 1, 2, 4] {
        expected.push(format!("slices{n}/ok"));
    }
    for kind in [
        "Bits/NeverSpawned",
        "Group/-",
        "Slices/-",
        "Spawn/-",
        "SpawnBatch/-",
        "Clear/-",
        "Stats/-",
        "OptimizeLayout/-",
        "batch/big",
        "ViewMut/-",
        "View/-",
    ] {
        expected.push(kind.to_owned());
    }
    for hop in [
        "Get",
        "GetMut",
        "Contains",
        "Insert",
        "InsertBundle",
        "Remove",
        "Components",
        "AsRef",
        "Despawn",
    ] {
        expected.push(format!("handle.{hop}"));
    }
    for step in ["Insert", "Remove", "Get", "GetMut", "Contains"] {
        expected.push(format!("view.{step}"));
    }
    for shape in 0..SHAPES {
        for method in 0..METHODS {
            expected.push(format!("query{shape}.{method}/rows"));
        }
    }
    let unreached: Vec<&String> = expected
        .iter()
        .filter(|key| !coverage.contains_key(*key))
        .collect();
    assert!(
        unreached.is_empty(),
        "never exercised: {unreached:?}\n{coverage:#?}"
    );
}

/// Replays the inputs named in `ECS_FUZZ_REPLAY` (files or directories, separated by `:`,
/// relative to the current directory or the workspace root), such as crash files or the corpus
/// of `cargo fuzz`, on stable: paths containing `entity_bits` through the `entity_bits`
/// harness, others through the `ops` harness, printing the failing step. Without the variable
/// there is nothing to replay and it passes.
#[test]
fn replay() {
    let Ok(paths) = std::env::var("ECS_FUZZ_REPLAY") else {
        return;
    };
    let mut files = Vec::new();
    for path in paths.split(':').filter(|p| !p.is_empty()) {
        // Tests run in `ecs-core/`; a relative path may be meant from the workspace root.
        let mut path = std::path::PathBuf::from(path);
        if !path.exists() {
            path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("..")
                .join(&path);
        }
        assert!(
            path.exists(),
            "ECS_FUZZ_REPLAY: no such file {}",
            path.display()
        );
        if path.is_dir() {
            let entries = std::fs::read_dir(&path).expect("readable directory");
            files.extend(entries.map(|entry| entry.expect("directory entry").path()));
        } else {
            files.push(path);
        }
    }
    for file in files {
        let bytes = std::fs::read(&file).expect("readable input");
        eprintln!("replaying {} ({} bytes)", file.display(), bytes.len());
        if file.to_string_lossy().contains("entity_bits") {
            run_entity_bits(&bytes);
        } else {
            run_ops(&bytes);
        }
    }
}
