//! Benchmarks for `ecs-core`: criterion benches in `benches/`, shared workload data here.
