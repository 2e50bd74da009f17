//! Layout passes (`World::optimize_layout`) and prepared queries' cached
//! runs: what moves, what stays, and that every read and write path gives
//! the answers it gave before, only perhaps in another order. Small enough
//! for miri, which checks the cached walks' unsafe reads:
//!
//! ```text
//! cargo +nightly miri test -p ecs-core --test layout -- layout:: --skip auto_layout:: --skip pool_
//! MIRIFLAGS="-Zmiri-tree-borrows -Zmiri-ignore-leaks -Zmiri-permissive-provenance" \
//!     cargo +nightly miri test -p ecs-core --test layout -- layout::pool_
//! ```
//!
//! (rayon's pool needs Tree Borrows and leaks, as in `systems_miri.rs`.)

use std::collections::BTreeMap;

use ecs_core::prelude::*;
use ecs_core::query::QueryState;

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct A(u32);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct B(u32);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
#[component(track_changes)]
struct C(u32);
#[derive(Component)]
struct Tag;

/// Entity `i` holds `A` always, `B` when `i % 3 == 0`, `C` when `i % 2 == 0`
/// and `Tag` when `i % 5 == 0`, each added one at a time, so no two storages
/// line up.
fn scattered(world: &mut World, n: u32) -> Vec<Entity> {
    (0..n)
        .map(|i| {
            let e = world.spawn(A(i));
            if i % 5 == 0 {
                world.insert(e, Tag).expect("alive");
            }
            if i % 2 == 0 {
                world.insert(e, C(i * 100)).expect("alive");
            }
            if i % 3 == 0 {
                world.insert(e, B(i * 10)).expect("alive");
            }
            e
        })
        .collect()
}

/// Every `(A, B, Option<C>)` match, by entity.
fn rows(world: &mut World) -> BTreeMap<Entity, (u32, u32, Option<u32>)> {
    world
        .query::<(Entity, &A, &B, Option<&C>)>()
        .iter()
        .map(|(e, a, b, c)| (e, (a.0, b.0, c.map(|c| c.0))))
        .collect()
}

#[test]
fn optimizing_sorts_by_signature_and_changes_no_answer() {
    let mut world = World::new();
    scattered(&mut world, 40);
    let before = rows(&mut world);
    assert!(!world.layout_stats().is_optimized());
    assert!(world.optimize_layout() > 0);
    let stats = world.layout_stats();
    assert!(stats.is_optimized(), "{stats:?}");
    assert_eq!(
        rows(&mut world),
        before,
        "the same matches, the same values"
    );
    assert_eq!(world.optimize_layout(), 0, "nothing left to sort");
    // Entities of one signature sit together, by index: the `A` storage
    // lists the holders of exactly `A`, `B` and `C` as one block.
    let with_b_and_c: Vec<Entity> = world
        .query::<(Entity, &A)>()
        .with::<B>()
        .with::<C>()
        .without::<Tag>()
        .iter()
        .map(|(e, _)| e)
        .collect();
    let mut sorted = with_b_and_c.clone();
    sorted.sort();
    assert_eq!(with_b_and_c, sorted, "one block, by index inside it");
}

#[test]
fn stats_count_what_churn_leaves_out_of_order() {
    let mut world = World::new();
    let ids = scattered(&mut world, 30);
    world.optimize_layout();
    let a = |world: &World| world.layout_stats().storages[0].clone();
    assert_eq!(a(&world).component, "A");
    assert_eq!((a(&world).len, a(&world).in_order), (30, 30));
    // A removal moves the last entity into the hole: order holds up to it.
    world.despawn(ids[4]).expect("alive");
    let after = a(&world);
    assert_eq!(after.len, 29);
    assert!(after.in_order < 29, "{after:?}");
    world.optimize_layout();
    assert_eq!(a(&world).in_order, 29);
}

#[test]
fn a_groups_prefix_stays_and_only_what_follows_is_sorted() {
    let mut world = World::new();
    scattered(&mut world, 36);
    world.group::<(A, B)>().expect("a new group");
    let before = rows(&mut world);
    let grouped: Vec<(u32, u32)> = world
        .query::<(&A, &B)>()
        .slices()
        .map(|(a, b)| a.iter().zip(b).map(|(a, b)| (a.0, b.0)).collect())
        .expect("the group packs A and B");
    world.optimize_layout();
    let stats = world.layout_stats();
    assert_eq!(stats.storages[0].grouped, 12, "36 / 3 entities hold both");
    assert!(stats.is_optimized(), "{stats:?}");
    let after: Vec<(u32, u32)> = world
        .query::<(&A, &B)>()
        .slices()
        .map(|(a, b)| a.iter().zip(b).map(|(a, b)| (a.0, b.0)).collect())
        .expect("still packed");
    assert_eq!(after, grouped, "the packed prefix did not move");
    assert_eq!(rows(&mut world), before);
}

#[test]
fn change_ticks_move_with_their_values() {
    let mut world = World::new();
    let ids = scattered(&mut world, 20);
    let base = world.change_tick();
    for &e in &ids[..8] {
        if let Ok(mut c) = world.get_mut::<C>(e) {
            c.0 += 1;
        }
    }
    let changed = |world: &mut World| {
        let mut seen: Vec<(Entity, u32)> = world
            .query_filtered::<(Entity, &C), Changed<C>>()
            .changed_since(base)
            .iter()
            .map(|(e, c)| (e, c.0))
            .collect();
        seen.sort();
        seen
    };
    let before = changed(&mut world);
    assert_eq!(before.len(), 4, "0, 2, 4 and 6 hold C and were written");
    world.optimize_layout();
    assert_eq!(changed(&mut world), before);
}

#[test]
fn a_prepared_query_searches_only_when_its_storages_change() {
    let mut world = World::new();
    let ids = scattered(&mut world, 30);
    let mut mix = world.query_state::<(&A, &mut B)>();
    let frame = |world: &mut World, mix: &mut QueryState<(&A, &mut B)>| {
        mix.query_mut(world).for_each(|(a, b)| b.0 += a.0);
    };
    for _ in 0..3 {
        frame(&mut world, &mut mix);
    }
    let stats = mix.match_stats();
    assert_eq!((stats.searches, stats.matched), (1, 10));
    // A storage the query does not require changes nothing.
    world.remove::<C>(ids[0]).expect("held");
    frame(&mut world, &mut mix);
    assert_eq!(mix.match_stats().searches, 1);
    // One it requires: searched again, and the new entity is found.
    let e = world.spawn((A(7), B(0)));
    frame(&mut world, &mut mix);
    assert_eq!(mix.match_stats().searches, 2);
    assert_eq!(world.get::<B>(e).expect("held").0, 7);
    // A layout pass moves entities: searched again, now as one run.
    world.optimize_layout();
    frame(&mut world, &mut mix);
    let stats = mix.match_stats();
    assert_eq!((stats.searches, stats.runs, stats.matched), (3, 1, 11));
    assert_eq!(world.get::<B>(e).expect("held").0, 14);
}

#[test]
fn cached_runs_give_every_match_on_every_path() {
    let mut world = World::new();
    scattered(&mut world, 50);
    let mut state = world.query_state::<(Entity, &mut A, &B)>();
    let expected: BTreeMap<Entity, u32> = state
        .iter_mut(&mut world)
        .map(|(e, a, _)| (e, a.0))
        .collect();
    for optimize in [false, true] {
        if optimize {
            world.optimize_layout();
        }
        // `next`, `fold`, half of each, `get`, and the read-only form.
        let by_next: BTreeMap<Entity, u32> = {
            let mut q = state.query_mut(&mut world);
            let mut found = BTreeMap::new();
            for (e, a, _) in q.iter_mut() {
                found.insert(e, a.0);
            }
            found
        };
        assert_eq!(by_next, expected);
        let by_fold =
            state
                .query_mut(&mut world)
                .iter()
                .fold(BTreeMap::new(), |mut found, (e, a, _)| {
                    found.insert(e, a.0);
                    found
                });
        assert_eq!(by_fold, expected);
        let q = state.query_mut(&mut world);
        let mut it = q.iter();
        let mut halves: BTreeMap<Entity, u32> =
            it.by_ref().take(7).map(|(e, a, _)| (e, a.0)).collect();
        halves.extend(it.map(|(e, a, _)| (e, a.0)));
        assert_eq!(halves, expected);
        for (&e, &a) in &expected {
            assert_eq!(q.get(e).expect("matches").1.0, a);
        }
    }
}

#[cfg(feature = "parallel")]
fn on_two_threads<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a pool")
        .install(f)
}

/// A system's kept query walks its cached runs in parallel parts.
#[cfg(feature = "parallel")]
#[test]
fn pool_par_for_each_walks_cached_runs() {
    on_two_threads(|| {
        let mut world = World::new();
        scattered(&mut world, 64);
        world.optimize_layout();
        let mut state = world.query_state::<(&A, &mut B)>();
        for _ in 0..2 {
            state
                .query_mut(&mut world)
                .par_for_each(|(a, b)| b.0 += a.0);
        }
        let sum: u32 = world.query::<&B>().iter().map(|b| b.0).sum();
        let expected: u32 = (0..64).filter(|i| i % 3 == 0).map(|i| i * 10 + 2 * i).sum();
        assert_eq!(sum, expected);
    });
}

/// A system of the parallel frames below: `B` mixes in `A`.
#[cfg(feature = "parallel")]
fn mix(q: Query<(&A, &mut B)>) {
    let mut q = q;
    q.for_each(|(a, b)| b.0 = b.0.wrapping_mul(3).wrapping_add(a.0));
}

/// A system of the parallel frames below: `C` grows by `B`.
#[cfg(feature = "parallel")]
fn grow(q: Query<(&B, &mut C)>) {
    let mut q = q;
    q.for_each(|(b, mut c)| c.0 = c.0.wrapping_add(b.0));
}

/// Parallel and single-threaded frames agree, values and ids, with layout
/// passes and structural change between frames.
#[cfg(feature = "parallel")]
#[test]
fn pool_parallel_frames_match_single_threaded_ones_across_layout_passes() {
    on_two_threads(|| {
        let run = |mut schedule: Schedule| {
            let mut world = World::new();
            let ids = scattered(&mut world, 48);
            schedule.add_system(Stage::Update, mix).expect("new");
            schedule.add_system(Stage::Update, grow).expect("new");
            for frame in 0..6 {
                schedule.run(&mut world).expect("runs");
                match frame % 3 {
                    0 => {
                        world.optimize_layout();
                    }
                    1 => {
                        world.despawn(ids[frame]).expect("alive");
                        world.insert(ids[frame + 10], B(1)).expect("alive");
                    }
                    _ => {}
                }
            }
            let mut all: Vec<(Entity, u32, Option<u32>)> = world
                .query::<(Entity, &B, Option<&C>)>()
                .iter()
                .map(|(e, b, c)| (e, b.0, c.map(|c| c.0)))
                .collect();
            all.sort_by_key(|row| row.0);
            all
        };
        let mut parallel = Schedule::new();
        parallel.set_parallel_threshold(0);
        assert_eq!(run(parallel), run(Schedule::single_threaded()));
    });
}
