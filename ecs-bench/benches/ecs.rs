//! Criterion benches of `ecs-core`, one module (and one group) per topic.
//!
//! `cargo bench -p ecs-bench --bench ecs` runs them all; add a filter such as
//! `-- iteration` for one topic.

use criterion::{criterion_group, criterion_main};

mod ecs {
    pub mod add_remove;
    pub mod iteration;
    pub mod random_get;
    pub mod spawn;
}

criterion_group! {
    name = benches;
    // With `--features peers` criterion's plots need the embedded font.
    config = {
        ecs_bench::fonts::register_chart_fonts();
        criterion::Criterion::default()
    };
    targets = ecs::spawn::bench, ecs::add_remove::bench, ecs::random_get::bench, ecs::iteration::bench
}
criterion_main!(benches);
