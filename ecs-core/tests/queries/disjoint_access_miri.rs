//! Queries that the access check lets write one component type at once,
//! because no entity can match both, must never touch what the other holds:
//! not a value, not a change tick, not even for a candidate they are about
//! to reject. Each shape below runs twice: as one system holding both
//! queries (the writer's items stay live while the other query runs, then
//! are written, so Stacked Borrows sees any read in between), and as two
//! systems of one parallel batch (the data-race detector sees it).
//!
//! ```text
//! cargo +nightly miri test -p ecs-core --test queries -- disjoint_access_miri:: --skip pool_
//! MIRIFLAGS="-Zmiri-tree-borrows -Zmiri-ignore-leaks -Zmiri-permissive-provenance" \
//!     cargo +nightly miri test -p ecs-core --test queries -- disjoint_access_miri::pool_ --test-threads=1
//! ```
//!
//! (The pool's tests need Tree Borrows for the reason `systems_miri.rs`
//! gives: Stacked Borrows rejects crossbeam-epoch, which rayon uses. They
//! run on one test thread because with several, miri sometimes flags the
//! deallocation of a finished `rayon::scope` inside rayon itself, while a
//! job of another test's pool still holds its latch: rayon-rs/rayon#952.)

use ecs_core::prelude::*;

#[derive(Component, Debug, PartialEq)]
#[component(track_changes)]
struct Health(u32);
#[derive(Component)]
struct Boss;
#[derive(Component)]
struct Shield;

#[derive(Default, Debug, PartialEq)]
struct Seen(Vec<Entity>);

/// A boss and a minion, each with `Health`.
struct Cast {
    world: World,
    boss: Entity,
    minion: Entity,
}

fn cast() -> Cast {
    let mut world = World::new();
    world.insert_resource(Seen::default());
    let boss = world.spawn((Health(0), Boss));
    let minion = world.spawn(Health(0));
    Cast {
        world,
        boss,
        minion,
    }
}

/// Runs `schedule` once on `world` on a pool of two threads, so that a
/// batch really goes to rayon even where the global pool has one thread
/// (miri reports one CPU).
#[cfg(feature = "parallel")]
fn run_on_two_threads(schedule: &mut Schedule, world: &mut World) {
    rayon::ThreadPoolBuilder::new()
        .num_threads(2)
        .build()
        .expect("a pool of two threads")
        .install(|| schedule.run(world))
        .unwrap();
}

/// A schedule that sends every batch of two or more systems to the pool,
/// with `a` and `b` checked to share one batch.
#[cfg(feature = "parallel")]
fn one_parallel_batch<A, B, Ma, Mb>(a: A, b: B) -> Schedule
where
    A: IntoSystem<Ma>,
    B: IntoSystem<Mb>,
{
    let mut schedule = Schedule::new();
    schedule.set_parallel_threshold(0);
    schedule.add_system(Stage::Update, a).unwrap();
    schedule.add_system(Stage::Update, b).unwrap();
    let explained = schedule.explain().unwrap();
    let batches = &explained.stage(Stage::Update).unwrap().batches;
    assert_eq!(
        batches.len(),
        1,
        "the two systems are disjoint: {batches:?}"
    );
    schedule
}

fn one_system<M>(system: impl IntoSystem<M>) -> Schedule {
    let mut schedule = Schedule::single_threaded();
    schedule.add_system(Stage::Update, system).unwrap();
    schedule
}

// --- `Changed<Health>` listed before the presence filter that rules bosses out.

#[cfg(feature = "parallel")]
fn hurt_bosses(mut bosses: Query<&mut Health, With<Boss>>) {
    bosses.for_each(|mut h| h.0 += 1);
}

#[cfg(feature = "parallel")]
fn changed_minions(
    minions: Query<Entity, (Changed<Health>, Without<Boss>)>,
    mut seen: ResMut<Seen>,
) {
    seen.0.extend(minions.iter());
}

#[test]
fn a_change_filter_before_without_reads_no_tick_of_a_held_boss() {
    fn both(
        mut bosses: Query<&mut Health, With<Boss>>,
        minions: Query<Entity, (Changed<Health>, Without<Boss>)>,
        mut seen: ResMut<Seen>,
    ) {
        let mut held: Vec<Mut<Health>> = bosses.iter_mut().collect();
        seen.0.extend(minions.iter());
        for h in &mut held {
            h.0 += 1;
        }
    }
    let Cast {
        mut world,
        boss,
        minion,
    } = cast();
    one_system(both).run(&mut world).unwrap();
    assert_eq!(world.resource::<Seen>().unwrap().0, [minion]);
    assert_eq!(world.get::<Health>(boss).unwrap().0, 1);
}

#[cfg(feature = "parallel")]
#[test]
fn pool_a_change_filter_before_without_beside_a_writer_of_bosses() {
    let Cast {
        mut world,
        boss,
        minion,
    } = cast();
    let mut schedule = one_parallel_batch(hurt_bosses, changed_minions);
    run_on_two_threads(&mut schedule, &mut world);
    assert_eq!(schedule.parallel_batches(), 1);
    assert_eq!(world.resource::<Seen>().unwrap().0, [minion]);
    assert_eq!(world.get::<Health>(boss).unwrap().0, 1);
}

// --- `Query::get` and `contains` on the entity the other query holds.

#[cfg(feature = "parallel")]
fn probe_the_boss(
    minions: Query<Entity, (Changed<Health>, Without<Boss>)>,
    bosses: Query<Entity, With<Boss>>,
    mut seen: ResMut<Seen>,
) {
    for boss in bosses.iter() {
        assert!(minions.get(boss).is_err());
        assert!(!minions.contains(boss));
        seen.0.push(boss);
    }
}

#[test]
fn get_and_contains_read_no_tick_of_a_held_boss() {
    fn both(
        mut bosses: Query<&mut Health, With<Boss>>,
        minions: Query<Entity, (Changed<Health>, Without<Boss>)>,
        names: Query<Entity, With<Boss>>,
        mut seen: ResMut<Seen>,
    ) {
        let mut held: Vec<Mut<Health>> = bosses.iter_mut().collect();
        for boss in names.iter() {
            let error = minions.get(boss).unwrap_err();
            assert!(error.to_string().contains("Boss"), "{error}");
            assert!(!minions.contains(boss));
            seen.0.push(boss);
        }
        for h in &mut held {
            h.0 += 1;
        }
    }
    let Cast {
        mut world, boss, ..
    } = cast();
    one_system(both).run(&mut world).unwrap();
    assert_eq!(world.resource::<Seen>().unwrap().0, [boss]);
    assert_eq!(world.get::<Health>(boss).unwrap().0, 1);
}

#[cfg(feature = "parallel")]
#[test]
fn pool_get_and_contains_beside_a_writer_of_bosses() {
    let Cast {
        mut world, boss, ..
    } = cast();
    let mut schedule = one_parallel_batch(hurt_bosses, probe_the_boss);
    run_on_two_threads(&mut schedule, &mut world);
    assert_eq!(world.resource::<Seen>().unwrap().0, [boss]);
    assert_eq!(world.get::<Health>(boss).unwrap().0, 1);
}

// --- `With<Shield>` when the changed type's storage is the smaller one and
// drives the walk: every `Health` holder is a candidate.

/// `Health` on a shielded and an unshielded entity, and two more shields, so
/// that `Health`'s storage is the smaller.
struct Shielded {
    world: World,
    shielded: Entity,
    bare: Entity,
}

fn shielded() -> Shielded {
    let mut world = World::new();
    world.insert_resource(Seen::default());
    let shielded = world.spawn((Health(0), Shield));
    let bare = world.spawn(Health(0));
    world.spawn(Shield);
    world.spawn(Shield);
    Shielded {
        world,
        shielded,
        bare,
    }
}

#[cfg(feature = "parallel")]
fn hurt_the_bare(mut bare: Query<&mut Health, Without<Shield>>) {
    bare.for_each(|mut h| h.0 += 1);
}

#[cfg(feature = "parallel")]
fn changed_shielded(
    shielded: Query<Entity, (Changed<Health>, With<Shield>)>,
    mut seen: ResMut<Seen>,
) {
    seen.0.extend(shielded.iter());
}

#[test]
fn a_change_filter_on_the_driving_storage_reads_no_tick_of_a_held_entity() {
    fn both(
        mut bare: Query<&mut Health, Without<Shield>>,
        shielded: Query<Entity, (Changed<Health>, With<Shield>)>,
        mut seen: ResMut<Seen>,
    ) {
        let mut held: Vec<Mut<Health>> = bare.iter_mut().collect();
        seen.0.extend(shielded.iter());
        for h in &mut held {
            h.0 += 1;
        }
    }
    let Shielded {
        mut world,
        shielded,
        bare,
    } = shielded();
    one_system(both).run(&mut world).unwrap();
    assert_eq!(world.resource::<Seen>().unwrap().0, [shielded]);
    assert_eq!(world.get::<Health>(bare).unwrap().0, 1);
}

#[cfg(feature = "parallel")]
#[test]
fn pool_a_change_filter_on_the_driving_storage_beside_a_writer() {
    let Shielded {
        mut world,
        shielded,
        bare,
    } = shielded();
    let mut schedule = one_parallel_batch(hurt_the_bare, changed_shielded);
    run_on_two_threads(&mut schedule, &mut world);
    assert_eq!(world.resource::<Seen>().unwrap().0, [shielded]);
    assert_eq!(world.get::<Health>(bare).unwrap().0, 1);
}

// --- A required fetch, or an optional one, listed before the required
// fetch that rules the other query's entities out.

#[cfg(feature = "parallel")]
fn shielded_by_required(mut shielded: Query<(&mut Health, &Shield)>) {
    shielded.for_each(|(mut h, _)| h.0 += 10);
}

/// Looks every `Health` holder up, so the bare one is asked for too: its
/// optional `Health` comes before the `Shield` it lacks.
#[cfg(feature = "parallel")]
fn shielded_by_optional(
    mut shielded: Query<(Option<&mut Health>, &Shield)>,
    holders: Query<Entity, With<Health>>,
) {
    for e in holders.iter() {
        if let Ok((Some(mut h), _)) = shielded.get_mut(e) {
            h.0 += 100;
        }
    }
}

#[test]
fn a_required_fetch_before_a_missing_one_makes_no_reference() {
    fn both(
        mut bare: Query<&mut Health, Without<Shield>>,
        mut shielded: Query<(&mut Health, &Shield)>,
    ) {
        let mut held: Vec<Mut<Health>> = bare.iter_mut().collect();
        shielded.for_each(|(mut h, _)| h.0 += 10);
        for h in &mut held {
            h.0 += 1;
        }
    }
    let Shielded {
        mut world,
        shielded,
        bare,
    } = shielded();
    one_system(both).run(&mut world).unwrap();
    assert_eq!(world.get::<Health>(shielded).unwrap().0, 10);
    assert_eq!(world.get::<Health>(bare).unwrap().0, 1);
}

#[test]
fn an_optional_fetch_before_a_missing_one_makes_no_reference() {
    fn both(
        mut bare: Query<&mut Health, Without<Shield>>,
        mut shielded: Query<(Option<&mut Health>, &Shield)>,
        holders: Query<Entity, With<Health>>,
    ) {
        let mut held: Vec<Mut<Health>> = bare.iter_mut().collect();
        for e in holders.iter() {
            if let Ok((Some(mut h), _)) = shielded.get_mut(e) {
                h.0 += 100;
            }
        }
        for h in &mut held {
            h.0 += 1;
        }
    }
    let Shielded {
        mut world,
        shielded,
        bare,
    } = shielded();
    one_system(both).run(&mut world).unwrap();
    assert_eq!(world.get::<Health>(shielded).unwrap().0, 100);
    assert_eq!(world.get::<Health>(bare).unwrap().0, 1);
}

#[cfg(feature = "parallel")]
#[test]
fn pool_a_required_fetch_before_a_missing_one_beside_a_writer() {
    let Shielded {
        mut world,
        shielded,
        bare,
    } = shielded();
    let mut schedule = one_parallel_batch(hurt_the_bare, shielded_by_required);
    run_on_two_threads(&mut schedule, &mut world);
    assert_eq!(world.get::<Health>(shielded).unwrap().0, 10);
    assert_eq!(world.get::<Health>(bare).unwrap().0, 1);
}

#[cfg(feature = "parallel")]
#[test]
fn pool_an_optional_fetch_before_a_missing_one_beside_a_writer() {
    let Shielded {
        mut world,
        shielded,
        bare,
    } = shielded();
    let mut schedule = one_parallel_batch(hurt_the_bare, shielded_by_optional);
    run_on_two_threads(&mut schedule, &mut world);
    assert_eq!(world.get::<Health>(shielded).unwrap().0, 100);
    assert_eq!(world.get::<Health>(bare).unwrap().0, 1);
}

// --- A group's slices as the writer: the whole packed prefix of bosses,
// values and ticks, beside a change filter that rules bosses out.

#[cfg(feature = "parallel")]
fn hurt_grouped_bosses(mut bosses: Query<(&mut Health, &Boss)>) {
    let (health, _) = bosses.slices().unwrap();
    for h in health {
        h.0 += 1;
    }
}

#[cfg(feature = "parallel")]
#[test]
fn pool_a_change_filter_beside_group_slices() {
    let Cast {
        mut world,
        boss,
        minion,
    } = cast();
    world.group::<(Health, Boss)>().unwrap();
    let mut schedule = one_parallel_batch(hurt_grouped_bosses, changed_minions);
    run_on_two_threads(&mut schedule, &mut world);
    assert_eq!(world.resource::<Seen>().unwrap().0, [minion]);
    assert_eq!(world.get::<Health>(boss).unwrap().0, 1);
}

#[test]
fn a_change_filter_beside_group_slices() {
    fn both(
        mut bosses: Query<(&mut Health, &Boss)>,
        minions: Query<Entity, (Changed<Health>, Without<Boss>)>,
        mut seen: ResMut<Seen>,
    ) {
        let (health, _) = bosses.slices().unwrap();
        seen.0.extend(minions.iter());
        for h in health {
            h.0 += 1;
        }
    }
    let Cast {
        mut world,
        boss,
        minion,
    } = cast();
    world.group::<(Health, Boss)>().unwrap();
    one_system(both).run(&mut world).unwrap();
    assert_eq!(world.resource::<Seen>().unwrap().0, [minion]);
    assert_eq!(world.get::<Health>(boss).unwrap().0, 1);
}
