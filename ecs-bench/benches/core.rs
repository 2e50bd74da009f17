//! Core operation benches: spawning, adding and removing components, random access.

#![allow(
    dead_code,
    reason = "component fields are payload the benches only move around"
)]

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use ecs_core::prelude::*;
use std::hint::black_box;

#[derive(Component, Clone, Copy)]
struct Transform([[f32; 4]; 4]);
#[derive(Component, Clone, Copy)]
struct Position([f32; 3]);
#[derive(Component, Clone, Copy)]
struct Rotation([f32; 3]);
#[derive(Component, Clone, Copy)]
struct Velocity([f32; 3]);
#[derive(Component, Clone, Copy)]
struct Extra(f32);

fn four_components(i: usize) -> (Transform, Position, Rotation, Velocity) {
    let f = i as f32;
    (
        Transform([[f; 4]; 4]),
        Position([f; 3]),
        Rotation([f; 3]),
        Velocity([f; 3]),
    )
}

fn spawn(c: &mut Criterion) {
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

fn add_remove(c: &mut Criterion) {
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

fn random_get(c: &mut Criterion) {
    let mut group = c.benchmark_group("random_get");
    let mut world = World::new();
    let ids = world.spawn_batch((0..100_000).map(four_components));
    // A fixed xorshift sequence, so every run reads the same entities.
    let mut state = 0x9e37_79b9_7f4a_7c15_u64;
    let picks: Vec<Entity> = (0..10_000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            ids[(state % ids.len() as u64) as usize]
        })
        .collect();
    group.bench_function("world_get_10k_of_100k", |b| {
        b.iter(|| {
            let mut sum = 0.0;
            for &e in &picks {
                sum += world.get::<Position>(e).unwrap().0[0];
            }
            black_box(sum)
        });
    });
    group.finish();
}

criterion_group!(benches, spawn, add_remove, random_get);
criterion_main!(benches);
