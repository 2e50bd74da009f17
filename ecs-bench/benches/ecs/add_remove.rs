//! Adding a component to 10,000 entities, then removing it again.

use criterion::{BatchSize, Criterion};
use ecs_bench::components::{Extra, Position};
use ecs_core::prelude::*;
use std::hint::black_box;

pub fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("add_remove");
    group.bench_function("insert_then_remove_10k", |b| {
        b.iter_batched_ref(
            || {
                let mut world = World::new();
                let ids = world.spawn_batch((0..10_000).map(|i| Position([i as f32; 3])));
                (world, ids)
            },
            |(world, ids)| {
                for &e in ids.iter() {
                    world.insert(e, Extra(1.0)).unwrap();
                }
                for &e in ids.iter() {
                    black_box(world.remove::<Extra>(e).unwrap());
                }
            },
            BatchSize::SmallInput,
        );
    });
    group.finish();
}
