//! The side-by-side workloads as criterion benches: one group per workload,
//! `ours` and `ideal` always, the other libraries with `--features peers`.
//!
//! `cargo bench -p ecs-bench --bench compare --features peers -- simple_iter`
//! runs one workload; worlds are built only for the benches the filter keeps.
//! The `compare` binary runs the same code interleaved and writes BENCHMARKS.md.

use std::cell::OnceCell;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use ecs_bench::harness::Prepared;
use ecs_bench::workloads;

fn compare(c: &mut Criterion) {
    for workload in workloads::all() {
        let mut group = c.benchmark_group(workload.name);
        group
            .sample_size(30)
            .warm_up_time(Duration::from_millis(500))
            .measurement_time(Duration::from_secs(2));
        // The ideal contender's checksum, computed the first time a bench needs it.
        let reference = OnceCell::new();
        for contender in (workload.contenders)() {
            let mut prepared: Option<Prepared> = None;
            group.bench_function(contender.name, |b| {
                let prepared = prepared.get_or_insert_with(|| {
                    let expected = *reference
                        .get_or_init(|| workload.prepare_one(workload.reference(), None).1);
                    workload.prepare_one(contender, Some(expected)).0
                });
                b.iter_custom(|iters| prepared.bench.time(iters));
            });
        }
        group.finish();
    }
}

criterion_group! {
    name = benches;
    config = {
        ecs_bench::fonts::register_chart_fonts();
        Criterion::default()
    };
    targets = compare
}
criterion_main!(benches);
