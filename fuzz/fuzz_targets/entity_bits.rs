//! libFuzzer target: arbitrary `u64`s as entity handles, through every API taking an `Entity`.
//!
//! The first byte picks a small world (spawns of mixed components, despawns, maybe a clear); each
//! following 8 bytes are one `u64`, checked through `Entity::from_bits` (round trip, `Debug`) and,
//! when it is a valid handle, through every entity API: reads must answer as the model says, and
//! on a handle that is not alive every mutator must fail with the right error and change nothing.
//! Shares `ecs_testkit::fuzz` with the stable harness `ecs-core/tests/world/fuzz_ops.rs`.
//!
//! `cd fuzz && cargo +nightly fuzz run entity_bits`
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| ecs_testkit::fuzz::run_entity_bits(data));
