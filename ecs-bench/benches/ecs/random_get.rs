//! 10,000 random reads among 100,000 entities, through the world and through a query.

use criterion::Criterion;
use ecs_bench::components::{Position, four_components};
use ecs_bench::rng::XorShift;
use ecs_core::prelude::*;
use std::hint::black_box;

pub fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_get");
    let mut world = World::new();
    let ids = world.spawn_batch((0..100_000).map(four_components));
    let mut rng = XorShift::new();
    let picks: Vec<Entity> = (0..10_000).map(|_| ids[rng.below(ids.len())]).collect();
    group.bench_function("world_get_10k_of_100k", |b| {
        b.iter(|| {
            let mut sum = 0.0;
            for &e in &picks {
                sum += world.get::<Position>(e).unwrap().0[0];
            }
            black_box(sum)
        });
    });
    group.bench_function("query_get_10k_of_100k", |b| {
        let positions = world.query_ref::<&Position>();
        b.iter(|| {
            let mut sum = 0.0;
            for &e in &picks {
                sum += positions.get(e).unwrap().0[0];
            }
            black_box(sum)
        });
    });
    group.finish();
}
