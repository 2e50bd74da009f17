//! A batch spawn whose iterator states its length allocates what the batch
//! holds and no more: it reserves once, and its runs never grow an array that
//! already has room for every bundle left.

use ecs_core::prelude::*;

#[derive(Component, Clone, Copy)]
struct Position([f32; 3]);

#[derive(Component, Clone, Copy)]
struct Velocity([f32; 3]);

fn bundle(i: usize) -> (Position, Velocity) {
    let x = i as f32;
    (Position([x, 0.0, 0.0]), Velocity([0.0, x, 0.0]))
}

/// Bytes of components and dense ids a world holds whose arrays each have
/// room for `capacity` entities of `bundle`.
fn bytes(capacity: usize) -> (usize, usize) {
    let data = capacity * (size_of::<Position>() + size_of::<Velocity>());
    let ids = capacity * 2 * size_of::<Entity>();
    (data, ids)
}

/// The capacity of a vector that reserved room for `first` items, kept `kept`
/// of them, then reserved room for `more`: what one reservation per batch gives.
#[expect(
    clippy::reserve_after_initialization,
    reason = "the world reserves on an empty vector, which rounds small sizes up, unlike with_capacity"
)]
fn reserved_once(first: usize, kept: usize, more: usize) -> usize {
    let mut v: Vec<Position> = Vec::new();
    v.reserve(first);
    v.resize(kept, Position([0.0; 3]));
    v.reserve(more);
    v.capacity()
}

#[test]
fn a_batch_of_fresh_ids_allocates_exactly_its_size() {
    for n in [1, 7, 1000, 5000] {
        let mut world = World::new();
        world.spawn_batch((0..n).map(bundle));
        let heap = world.stats().heap;
        assert_eq!(
            (heap.component_data, heap.dense_ids),
            bytes(reserved_once(n, n, 0)),
            "{n} entities"
        );
    }
}

#[test]
fn a_batch_through_the_free_list_allocates_exactly_what_it_adds() {
    for (before, freed, n) in [(30, 15, 100), (1000, 999, 400), (64, 32, 32), (10, 5, 3)] {
        let mut world = World::new();
        let ids = world.spawn_batch((0..before).map(bundle));
        for &e in ids.iter().take(freed) {
            world.despawn(e).unwrap();
        }
        let spawned = world.spawn_batch((0..n).map(bundle));
        assert_eq!(spawned.len(), n);
        assert_eq!(
            spawned[0].index() as usize,
            freed - 1,
            "the free list first"
        );
        let heap = world.stats().heap;
        assert_eq!(
            (heap.component_data, heap.dense_ids),
            bytes(reserved_once(before, before - freed, n)),
            "{before} spawned, {freed} freed, {n} more"
        );
        for (i, &e) in spawned.iter().enumerate() {
            assert_eq!(world.get::<Position>(e).unwrap().0[0], i as f32);
            assert_eq!(world.get::<Velocity>(e).unwrap().0[1], i as f32);
        }
    }
}
