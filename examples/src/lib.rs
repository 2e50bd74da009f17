//! Runnable examples of `ecs-core`. Run one with
//! `cargo run --release -p examples --example <name>`; the sources are in `examples/examples/`.
