//! The matches a world keeps for `World::query`, `query_filtered`,
//! `query_ref`, `QueryState`s, systems' queries and the queries `.filter()`
//! narrows them to: a query written by hand each frame searches once while the structure
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
    // Narrowed by `.with()`, a query keeps matches under its final type,
    // searched once and found again by the next narrowing.
    for _ in 0..2 {
        let narrowed = world.query::<&A>().with::<Tag>();
        assert_eq!(narrowed.iter().count(), 8);
        assert_eq!(narrowed.match_stats().map(|s| s.searches), Some(1));
    }
    // A read-only query through a shared borrow reaches the same entry as
    // `query` of the same type: no search of its own.
    let shared = world.query_ref::<&A>();
    assert_eq!(
        shared.match_stats().map(|s| (s.matched, s.searches)),
        Some((30, 1))
    );
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

/// Queries through shared borrows, on two threads at once, read entries of
/// the world's table while other query types add entries beside them (the
/// table grows; each entry stays put) and while copies of one query are
/// narrowed again and again; after a structural change every entry is
/// searched again before it is walked.
#[test]
fn shared_queries_read_the_table_from_several_threads() {
    let (mut world, ids) = world_of(12);
    for round in 0..2 {
        let mut fresh = world.query_state::<&B>();
        let expected: u32 = fresh.iter(&world).map(|b| b.0).sum();
        let shared = &world;
        let sums: Vec<u32> = std::thread::scope(|scope| {
            let threads: Vec<_> = (0..2)
                .map(|_| {
                    scope.spawn(move || {
                        let all = shared.query_ref::<&B>();
                        // Other types' entries arrive while `all` walks its own.
                        let tagged = shared.query_ref::<(&A, &B)>().with::<Tag>();
                        let narrowed = all.filter::<With<A>>().without::<Tag>();
                        let sum: u32 = all.iter().map(|b| b.0).sum();
                        let rest: u32 = narrowed.iter().map(|b| b.0).sum();
                        let tags: u32 = tagged.iter().map(|(_, b)| b.0).sum();
                        assert_eq!(rest + tags, sum);
                        sum
                    })
                })
                .collect();
            threads.into_iter().map(|t| t.join().unwrap()).collect()
        });
        assert_eq!(sums, [expected; 2], "round {round}");
        // Structure changes between rounds: every entry is stale until searched.
        if round == 0 {
            world.insert(ids[0], Tag).expect("alive");
            world.despawn(ids[5]).expect("alive");
        }
    }
}

/// A system's query narrowed by `.with()` walks the world's entry for the
/// narrower type: the same one `World::query` then finds, searched once.
#[test]
fn a_system_narrowing_its_query_reaches_the_world_s_matches() {
    #[derive(Default)]
    struct Seen(Option<ecs_core::diagnostics::MatchStats>, usize);
    fn narrow(query: Query<&A>, mut seen: ResMut<Seen>) {
        let tagged = query.with::<Tag>();
        seen.0 = tagged.match_stats();
        seen.1 = tagged.iter().count();
    }
    let (mut world, _) = world_of(30);
    world.insert_resource(Seen::default());
    let mut schedule = Schedule::new();
    schedule
        .add_system(Stage::Update, narrow)
        .expect("no conflict");
    schedule.run(&mut world).expect("the system runs");
    schedule.run(&mut world).expect("the system runs");
    let seen = world.resource::<Seen>().expect("inserted");
    assert_eq!(seen.1, 8);
    assert_eq!(seen.0.map(|s| (s.matched, s.searches)), Some((8, 1)));
    let stats = world.query::<&A>().with::<Tag>().match_stats();
    assert_eq!(
        stats.map(|s| s.searches),
        Some(1),
        "the system's search is the world's"
    );
}

/// A `QueryState`, a system's `Query` param and `World::query` of one query
/// type share the world's entry: whichever walks first after a structural
/// change searches, and the others walk what it found.
#[test]
fn a_state_a_system_and_the_world_share_one_entry() {
    #[derive(Default)]
    struct Seen(Option<ecs_core::diagnostics::MatchStats>, u32);
    fn sum(query: Query<(&A, &mut B)>, mut seen: ResMut<Seen>) {
        seen.0 = query.match_stats();
        seen.1 = query.iter().map(|(a, b)| a.0 + b.0).sum();
    }
    let (mut world, ids) = world_of(30);
    world.insert_resource(Seen::default());
    let mut state = world.query_state::<(&A, &mut B)>();
    state.query_mut(&mut world).for_each(|(a, b)| b.0 += a.0);
    assert_eq!(state.match_stats().searches, 1);
    assert_eq!(
        searches(&mut world),
        1,
        "the world's query walks the state's search"
    );

    let mut schedule = Schedule::new();
    schedule
        .add_system(Stage::Update, sum)
        .expect("no conflict");
    schedule.run(&mut world).expect("the system runs");
    let expected: u32 = world
        .query::<(&A, &B)>()
        .iter()
        .map(|(a, b)| a.0 + b.0)
        .sum();
    let seen = world.resource::<Seen>().expect("inserted");
    assert_eq!(seen.1, expected);
    assert_eq!(
        seen.0.map(|s| s.searches),
        Some(1),
        "the system walks it too"
    );

    // A structural change: the first to walk searches, once for all three.
    world.insert(ids[1], B(0)).expect("alive");
    schedule.run(&mut world).expect("the system runs");
    let seen = world.resource::<Seen>().expect("inserted");
    assert_eq!(seen.0.map(|s| (s.matched, s.searches)), Some((21, 2)));
    state.query_mut(&mut world).for_each(|(_, b)| b.0 += 1);
    assert_eq!(state.match_stats().searches, 2, "found by the system");
    assert_eq!(searches(&mut world), 2);
}
