//! `Query::par_for_each` visits exactly the matches `for_each` visits, once each,
//! on aligned, misaligned and filtered storages and on queries that require nothing,
//! and splits by work: a thousand entities are offered to every thread of a 16-thread pool.

use std::collections::HashSet;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

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

/// Threads in the pool of the splitting tests.
const THREADS: usize = 16;

/// Runs `run` in a pool of [`THREADS`] threads, handing it a visit function to call once per
/// item; returns how many distinct pool threads ran items.
///
/// The visit holds its thread until [`THREADS`] distinct threads have started items (or a
/// deadline passes), so no thread can finish its part and go on to the next: every thread that
/// runs an item is holding a part of its own. The count therefore reaches [`THREADS`] only if
/// the loop was cut into at least that many parts, whatever the machine's speed; with fewer
/// parts it stays short, the deadline releases everyone, and the assertion fails. Nothing
/// waits past the deadline, so the test cannot hang.
fn distinct_threads(run: impl FnOnce(&(dyn Fn() + Sync)) + Send) -> usize {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(THREADS)
        .build()
        .expect("a 16-thread pool");
    let started = Mutex::new(HashSet::new());
    let all_started = Condvar::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    let visit = || {
        let thread = rayon::current_thread_index().expect("items run on the pool");
        let mut seen = started.lock().unwrap();
        if seen.insert(thread) && seen.len() == THREADS {
            all_started.notify_all();
        }
        while seen.len() < THREADS {
            let now = Instant::now();
            if now >= deadline {
                break;
            }
            seen = all_started.wait_timeout(seen, deadline - now).unwrap().0;
        }
    };
    pool.install(|| run(&visit));
    started.into_inner().unwrap().len()
}

/// A thousand entities of (simulated) heavy work reach all 16 threads, and each is still
/// visited once.
#[test]
fn par_for_each_offers_a_thousand_entities_to_sixteen_threads() {
    let mut world = World::new();
    world.spawn_batch((0..1_000).map(|i| (Position(i), Velocity(1))));
    let threads = distinct_threads(|visit| {
        world
            .query::<(&mut Position, &Velocity)>()
            .par_for_each(|(p, v)| {
                visit();
                p.0 += v.0 * 1_000_000;
            });
    });
    assert_eq!(threads, THREADS, "the loop was cut into too few parts");
    let positions = world.query::<&Position>();
    assert!(
        positions
            .iter()
            .all(|p| p.0 >= 1_000_000 && p.0 < 1_001_000)
    );
    let distinct: HashSet<u64> = positions.iter().map(|p| p.0).collect();
    assert_eq!(distinct.len(), 1_000, "each entity bumped once");
}

/// The same for a query that requires no storage and walks the live entities.
#[test]
fn par_for_each_offers_live_entities_to_sixteen_threads() {
    let mut world = World::new();
    world.spawn_batch((0..1_000).map(Position));
    let visits = AtomicUsize::new(0);
    let threads = distinct_threads(|visit| {
        world.query::<Entity>().par_for_each(|_| {
            visit();
            visits.fetch_add(1, Ordering::Relaxed);
        });
    });
    assert_eq!(threads, THREADS, "the loop was cut into too few parts");
    assert_eq!(visits.into_inner(), 1_000);
}
