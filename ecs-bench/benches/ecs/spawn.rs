//! Spawning 10,000 entities with four components, one at a time and as a batch.

use criterion::Criterion;
use ecs_bench::components::four_components;
use ecs_core::prelude::*;

pub fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("spawn");
    group.bench_function("one_by_one_10k_4_components", |b| {
        b.iter(|| {
            let mut world = World::new();
            for i in 0..10_000 {
                world.spawn(four_components(i));
            }
            world
        });
    });
    group.bench_function("batch_10k_4_components", |b| {
        b.iter(|| {
            let mut world = World::new();
            world.spawn_batch((0..10_000).map(four_components));
            world
        });
    });
    group.finish();
}
