//! `Query::par_for_each` visits exactly the matches `for_each` visits, once each,
//! on aligned, misaligned and filtered storages and on queries that require nothing.

#![cfg(feature = "parallel")]
use std::sync::atomic::{AtomicUsize, Ordering};

use ecs_core::prelude::*;

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Position(u64);

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Velocity(u64);

#[derive(Component)]
struct Frozen;

/// A world where the two storages line up for the first half and are shuffled
/// for the second, with a filter tag on every fifth entity.
fn mixed_world() -> (World, Vec<Entity>) {
    let mut world = World::new();
    let mut ids = world.spawn_batch((0..5_000).map(|i| (Position(i), Velocity(1))));
    for i in 0..5_000u64 {
        let e = world.spawn(Position(10_000 + i));
        ids.push(e);
    }
    // Give the second half velocities in reverse order, so their dense positions differ.
    for &e in ids[5_000..].iter().rev() {
        world.insert(e, Velocity(2)).unwrap();
    }
    for &e in ids.iter().step_by(5) {
        world.insert(e, Frozen).unwrap();
    }
    // Punch holes: despawn some, so swap-removes reorder the tails.
    for &e in ids.iter().skip(3).step_by(97) {
        world.despawn(e).unwrap();
    }
    (world, ids)
}

/// Every match is updated exactly once, with the same result as the sequential loop.
#[test]
fn par_for_each_matches_for_each() {
    let (mut parallel, _) = mixed_world();
    let (mut sequential, _) = mixed_world();
    parallel
        .query::<(&mut Position, &Velocity)>()
        .without::<Frozen>()
        .par_for_each(|(p, v)| p.0 += v.0 * 1_000_000);
    sequential
        .query::<(&mut Position, &Velocity)>()
        .without::<Frozen>()
        .for_each(|(p, v)| p.0 += v.0 * 1_000_000);
    let collect = |world: &mut World| {
        let mut all: Vec<(Entity, u64)> = world
            .query::<(Entity, &Position)>()
            .iter()
            .map(|(e, p)| (e, p.0))
            .collect();
        all.sort();
        all
    };
    let got = collect(&mut parallel);
    assert_eq!(got, collect(&mut sequential));
    let bumped = got.iter().filter(|(_, p)| *p >= 1_000_000).count();
    let expected = sequential
        .query::<&Velocity>()
        .without::<Frozen>()
        .iter()
        .count();
    assert_eq!(
        bumped, expected,
        "each match is bumped once, no other entity is"
    );
}

/// A query that requires no storage runs over every live entity, in parallel.
#[test]
fn par_for_each_without_required_storage_visits_every_live_entity() {
    let (mut world, _) = mixed_world();
    let visits = AtomicUsize::new(0);
    world
        .query::<(Entity, Option<&mut Velocity>)>()
        .par_for_each(|(_, v)| {
            visits.fetch_add(1, Ordering::Relaxed);
            if let Some(v) = v {
                v.0 = 7;
            }
        });
    assert_eq!(visits.into_inner(), world.len());
    assert!(world.query::<&Velocity>().iter().all(|v| v.0 == 7));
}

/// An empty query, and a query on a type the world never saw, run nothing.
#[test]
fn par_for_each_on_nothing() {
    let mut world = World::new();
    world
        .query::<&mut Position>()
        .par_for_each(|_| panic!("nothing to visit"));
    world.spawn(Velocity(1));
    world
        .query::<&mut Position>()
        .par_for_each(|_| panic!("nothing to visit"));
}
