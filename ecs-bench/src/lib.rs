//! Benchmarks for `ecs-core`: criterion benches in `benches/`, and the workload
//! definitions they share, so every bench measures the same data.
//!
//! The workloads follow ecs_bench_suite's definitions where one exists.

pub mod components;
pub mod rng;
