//! A batch spawn writes its bundles in runs, under the free list's ids and
//! then fresh ones. One whose iterator states its length allocates what the
//! batch holds and no more (it reserves once, and its runs never grow an array
//! that already has room for every bundle left); empty bundles and types past
//! the component mask's reach go through the same runs; and a panic between
//! the two kinds of run leaves whole entities.

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

/// A tag to mark types past the first 64 ids, which the component mask does
/// not track: despawn finds them by probing each storage beyond the mask.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Far<const N: usize>(u32);

#[test]
fn types_past_the_mask_and_empty_bundles_go_through_the_free_list() {
    let mut world = World::new();
    // 64 types registered first (one entity each, indices 0 to 63), so
    // `Far<64>` and `Far<65>` get ids 64 and 65.
    macro_rules! register {
        ($($n:literal)*) => { $( world.spawn(Far::<$n>(0)); )* };
    }
    register!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30
        31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60
        61 62 63);
    let old = world.spawn_batch((0..20).map(|i| (Far::<64>(i), Far::<65>(i))));
    for &e in &old[..10] {
        world.despawn(e).unwrap();
    }
    let reused = world.spawn_batch((0..12).map(|i| (Far::<64>(100 + i), Far::<65>(100 + i))));
    let freed: Vec<u32> = old[..10].iter().rev().map(|e| e.index()).collect();
    let indices: Vec<u32> = reused.iter().map(|e| e.index()).collect();
    assert_eq!(
        indices[..10],
        freed,
        "the freed ids first, the last freed first"
    );
    assert_eq!(indices[10..], [84, 85], "then fresh ones");
    for (i, &e) in reused.iter().enumerate() {
        assert_eq!(world.get::<Far<65>>(e), Ok(&Far::<65>(100 + i as u32)));
    }
    for &e in &reused {
        world.despawn(e).unwrap();
    }
    assert_eq!(world.query::<&Far<64>>().iter().count(), 10);
    assert_eq!(world.query::<&Far<65>>().iter().count(), 10);

    let empty = world.spawn_batch((0..15).map(|_| ()));
    assert_eq!(empty.iter().filter(|e| e.version() > 1).count(), 12);
    assert_eq!(world.len(), 64 + 10 + 15);
    for &e in &empty {
        assert_eq!(world.components_of(e).unwrap().count(), 0);
        world.despawn(e).unwrap();
    }
    assert_eq!(world.len(), 64 + 10);
}

#[test]
fn a_panic_at_the_first_fresh_bundle_keeps_every_reused_one() {
    let mut world = World::new();
    let old = world.spawn_batch((0..8).map(bundle));
    for &e in &old[..5] {
        world.despawn(e).unwrap();
    }
    let mut next = 0;
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        world.spawn_batch(core::iter::from_fn(|| {
            // The free list holds five ids: the sixth bundle would be fresh.
            assert!(next < 5, "iterator panic");
            next += 1;
            Some(bundle(10 + next))
        }))
    }));
    assert!(result.is_err());
    assert_eq!(world.len(), 8, "three kept, five reused, none fresh");
    let mut values: Vec<f32> = world.query::<&Position>().iter().map(|p| p.0[0]).collect();
    values.sort_by(f32::total_cmp);
    assert_eq!(values, [5.0, 6.0, 7.0, 11.0, 12.0, 13.0, 14.0, 15.0]);
    let fresh = world.spawn(bundle(99));
    assert_eq!(fresh.index(), 8, "the next fresh index is untouched");
}
