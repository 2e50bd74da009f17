//! Benchmarks for `ecs-core`: the workloads the criterion benches in `benches/`
//! and the `compare` binary run, for this ECS, a plain-`Vec` `ideal`, and (with
//! the `peers` feature) six other Rust ECS libraries.
//!
//! The workloads follow ecs_bench_suite's definitions where one exists.
//! [`boids`] is the exception: frames of the boids demo, ours only.

pub mod boids;
pub mod components;
pub mod fonts;
pub mod harness;
pub mod layout;
pub mod math;
pub mod rng;
pub mod text;
pub mod workloads;
