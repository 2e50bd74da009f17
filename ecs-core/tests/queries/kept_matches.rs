//! The matches a world keeps for `World::query` and `World::query_filtered`:
//! a query written by hand each frame searches once while the structure
//! holds, searches again when a storage it requires changes, and answers as
//! a fresh search would on every path. Small enough for miri:
//!
//! ```text
//! cargo +nightly miri test -p ecs-core --test queries -- kept_matches::
//! ```

use std::collections::BTreeMap;

use ecs_core::prelude::*;

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct A(u32);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct B(u32);
#[derive(Component)]
struct Tag;

fn world_of(n: u32) -> (World, Vec<Entity>) {
    let mut world = World::new();
    let ids = (0..n)
        .map(|i| {
            let e = world.spawn(A(i));
            if i % 3 != 1 {
                world.insert(e, B(i * 10)).expect("alive");
            }
            if i % 4 == 0 {
                world.insert(e, Tag).expect("alive");
            }
            e
        })
        .collect();
    (world, ids)
}

fn searches(world: &mut World) -> u64 {
    world
        .query::<(&A, &mut B)>()
        .match_stats()
        .expect("a world's query keeps its matches")
        .searches
}

#[test]
fn a_hand_written_query_searches_once_while_the_structure_holds() {
    let (mut world, ids) = world_of(60);
    for _frame in 0..4 {
        world.query::<(&A, &mut B)>().for_each(|(a, b)| b.0 += a.0);
    }
    assert_eq!(searches(&mut world), 1);
    world.insert(ids[1], B(0)).expect("alive");
    assert_eq!(searches(&mut world), 2, "B grew: searched again");
    world.remove::<Tag>(ids[0]).expect("alive");
    assert_eq!(searches(&mut world), 2, "Tag is not required");
    world.despawn(ids[2]).expect("alive");
    assert_eq!(searches(&mut world), 3);
}

#[test]
fn each_query_type_keeps_its_own_matches() {
    let (mut world, _) = world_of(30);
    world.query::<&A>().for_each(|_| {});
    world.query::<(&A, &B)>().for_each(|_| {});
    world.query_filtered::<&A, With<Tag>>().for_each(|_| {});
    let stats = world.query::<&A>().match_stats().expect("kept");
    assert_eq!((stats.runs, stats.matched, stats.searches), (1, 30, 1));
    let stats = world.query::<(&A, &B)>().match_stats().expect("kept");
    assert_eq!((stats.matched, stats.searches), (20, 1));
    let filtered = world.query_filtered::<&A, With<Tag>>();
    assert_eq!(filtered.iter().count(), 8);
    assert_eq!(filtered.match_stats().map(|s| s.searches), Some(1));
    assert_eq!(world.query::<&A>().with::<Tag>().match_stats(), None);
}

/// Each `(A, B)` match's values, by entity.
type Rows = BTreeMap<Entity, (u32, u32)>;

/// Every `(A, B)` match, through the kept path and through a read-only query
/// that plans afresh.
fn both_ways(world: &mut World) -> (Rows, Rows) {
    let kept = world
        .query::<(Entity, &A, &B)>()
        .iter()
        .map(|(e, a, b)| (e, (a.0, b.0)))
        .collect();
    let fresh = world
        .query_ref::<(Entity, &A, &B)>()
        .iter()
        .map(|(e, a, b)| (e, (a.0, b.0)))
        .collect();
    (kept, fresh)
}

#[test]
fn kept_matches_answer_as_a_fresh_search_through_churn_and_layout_passes() {
    let (mut world, mut ids) = world_of(90);
    for round in 0..24u32 {
        let (kept, fresh) = both_ways(&mut world);
        assert_eq!(kept, fresh, "round {round}");
        let at = (round as usize * 7) % ids.len();
        match round % 6 {
            0 => {
                world.despawn(ids.swap_remove(at)).expect("alive");
            }
            1 => {
                let _ = world.remove::<B>(ids[at]);
            }
            2 => {
                world.insert(ids[at], B(round)).expect("alive");
            }
            3 => {
                world.optimize_layout();
            }
            4 => ids.push(world.spawn((A(round), B(round)))),
            _ => {
                world.query::<&mut B>().for_each(|b| b.0 += 1);
            }
        }
    }
}

#[test]
fn writes_through_kept_runs_reach_every_match_once() {
    let (mut world, _) = world_of(100);
    world.optimize_layout();
    for _ in 0..3 {
        world.query::<(&A, &mut B)>().for_each(|(a, b)| b.0 += a.0);
    }
    let mut rows: Vec<(u32, u32)> = world
        .query::<(&A, &B)>()
        .iter()
        .map(|(a, b)| (a.0, b.0))
        .collect();
    rows.sort_unstable();
    let expected: Vec<(u32, u32)> = (0..100)
        .filter(|i| i % 3 != 1)
        .map(|i| (i, i * 10 + 3 * i))
        .collect();
    assert_eq!(rows, expected);
}

#[test]
fn a_conflicting_query_panics_on_every_call() {
    let (mut world, _) = world_of(3);
    for _ in 0..2 {
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            world.query::<(&mut B, &B)>().for_each(|_| {});
        }));
        assert!(result.is_err(), "&mut B beside &B is refused each time");
    }
}
