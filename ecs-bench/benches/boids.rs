//! One frame of the boids demo's grid version at 5,000, 20,000 and 100,000
//! boids, on one thread and on all cores: `ecs_bench::boids`, the code the
//! compare binary's "Boids frame time" section times.
//!
//! `cargo bench -p ecs-bench --bench boids` runs them all; `-- 20000` one
//! size, `-- one_thread` one thread count. A flock is built and warmed up
//! only when a bench the filter keeps needs it, and both thread counts time
//! the same flock.

use std::time::Duration;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use ecs_bench::boids::{Flock, SIZES, Threads};

fn boids(c: &mut Criterion) {
    let mut group = c.benchmark_group("boids_frame");
    for boids in SIZES {
        // A 100,000-boid frame takes tens of milliseconds: fewer samples keep
        // the whole group within a minute or two.
        if boids >= 100_000 {
            group
                .sample_size(10)
                .measurement_time(Duration::from_secs(4));
        } else {
            group
                .sample_size(30)
                .measurement_time(Duration::from_secs(3));
        }
        let mut flock: Option<Flock> = None;
        for threads in Threads::BOTH {
            let id = BenchmarkId::new(format!("grid_{}", threads.name()), boids);
            group.bench_function(id, |b| {
                let flock = flock.get_or_insert_with(|| Flock::new(boids));
                b.iter_custom(|frames| flock.run(threads, frames));
            });
        }
    }
    group.finish();
}

criterion_group! {
    name = benches;
    // With `--features peers` criterion's plots need the embedded font.
    config = {
        ecs_bench::fonts::register_chart_fonts();
        Criterion::default()
    };
    targets = boids
}
criterion_main!(benches);
