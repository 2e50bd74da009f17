//! Iteration workloads: simple_iter, frag_iter and a 1,000,000-entity big_iter.

use criterion::Criterion;
use ecs_bench::components::{Data, Position, Velocity, four_components, spawn_fragmented};
use ecs_core::prelude::*;

/// pos += vel over every entity that has both.
fn move_all(world: &mut World) {
    world
        .query::<(&mut Position, &Velocity)>()
        .for_each(|(p, v)| {
            p.0[0] += v.0[0];
            p.0[1] += v.0[1];
            p.0[2] += v.0[2];
        });
}

pub fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("iteration");

    let mut world = World::new();
    world.spawn_batch((0..10_000).map(four_components));
    group.bench_function("simple_iter_10k", |b| {
        b.iter(|| {
            move_all(&mut world);
        });
    });

    let mut world = World::new();
    spawn_fragmented(&mut world);
    group.bench_function("frag_iter_26x20", |b| {
        b.iter(|| {
            world.query::<&mut Data>().for_each(|d| d.0 *= 2.0);
        });
    });

    let mut world = World::new();
    world.spawn_batch((0..1_000_000).map(|i| (Position([i as f32; 3]), Velocity([1.0; 3]))));
    group.bench_function("big_iter_1m", |b| {
        b.iter(|| {
            move_all(&mut world);
        });
    });

    let mut positions: Vec<Position> = (0..10_000).map(|i| Position([i as f32; 3])).collect();
    let velocities: Vec<Velocity> = vec![Velocity([1.0; 3]); 10_000];
    group.bench_function("ideal_simple_iter_10k", |b| {
        b.iter(|| {
            for (p, v) in positions.iter_mut().zip(&velocities) {
                p.0[0] += v.0[0];
                p.0[1] += v.0[1];
                p.0[2] += v.0[2];
            }
            std::hint::black_box(&mut positions);
        });
    });

    let mut data = vec![Data(1.0); 26 * 20];
    group.bench_function("ideal_frag_iter_26x20", |b| {
        b.iter(|| {
            for d in &mut data {
                d.0 *= 2.0;
            }
            std::hint::black_box(&mut data);
        });
    });

    group.finish();
}
