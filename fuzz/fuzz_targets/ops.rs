//! libFuzzer target: raw operation streams over the whole `World` API.
//!
//! Each input is decoded into up to 2,048 operations (spawn, spawn_batch, despawn, insert,
//! insert_bundle, remove, get, get_mut, contains, is_alive, entity / entity_mut handles,
//! components_of, clear, queries through every method, stats, arbitrary `Entity::from_bits`
//! handles) and run against a world and a model; any disagreement or panic is a crash. The
//! decoder and checks are `ecs_testkit::fuzz`, shared with the stable harness
//! `ecs-core/tests/world/fuzz_ops.rs`, which replays crash files on stable.
//!
//! `cd fuzz && cargo +nightly fuzz run ops`
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| ecs_testkit::fuzz::run_ops(data));
