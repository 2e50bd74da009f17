//! Change detection: which writes count, on every path that adds or writes a
//! tracked component, and what `Added` / `Changed` see from systems (each
//! system since its own last run) and from the world (since a kept tick).

use std::sync::{Arc, Mutex};

use ecs_core::change::Tick;
use ecs_core::prelude::*;

#[derive(Component, Debug, Clone, Copy, PartialEq)]
#[component(track_changes)]
struct Health(i32);

#[derive(Component, Debug, Clone, Copy, PartialEq)]
#[component(track_changes)]
struct Shield(i32);

#[derive(Component, Debug, Clone, Copy, PartialEq)]
struct Armor(i32);

#[derive(Component)]
struct Burning;

/// The entities whose `Health` was added since `since`, sorted.
fn added(world: &mut World, since: Tick) -> Vec<Entity> {
    let mut found: Vec<Entity> = world
        .query_filtered::<Entity, Added<Health>>()
        .changed_since(since)
        .iter()
        .collect();
    found.sort();
    found
}

/// The entities whose `Health` was changed since `since`, sorted.
fn changed(world: &mut World, since: Tick) -> Vec<Entity> {
    let mut found: Vec<Entity> = world
        .query_filtered::<Entity, Changed<Health>>()
        .changed_since(since)
        .iter()
        .collect();
    found.sort();
    found
}

// ---------------------------------------------------------------------------------------------
// A game's report of what arrived and changed
// ---------------------------------------------------------------------------------------------

struct Hit {
    target: Entity,
    damage: i32,
}

#[derive(Default)]
struct Report(Vec<(Entity, i32)>, Vec<Entity>);

fn damage(mut hits: EventReader<Hit>, mut health: Query<&mut Health>) {
    for hit in hits.read() {
        if let Ok(mut h) = health.get_mut(hit.target) {
            h.0 -= hit.damage;
        }
    }
}

fn report(
    changed: Query<(Entity, &Health), Changed<Health>>,
    added: Query<Entity, Added<Health>>,
    mut out: ResMut<Report>,
) {
    for (e, h) in changed.iter() {
        out.0.push((e, h.0));
    }
    out.1.extend(added.iter());
}

/// A report as a game writes it.
#[allow(
    unused_variables,
    reason = "`added` is declared and not read, as a game may write it"
)]
fn report_as_a_game_writes_it(
    changed: Query<(Entity, &Health), Changed<Health>>,
    added: Query<Entity, Added<Health>>,
) {
    for (e, h) in changed.iter() {
        println!("{e:?} now has {} hp", h.0);
    }
}

#[test]
fn each_change_is_reported_once() {
    let mut world = World::new();
    world.insert_resource(Report::default());
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, damage).unwrap();
    schedule.add_system(Stage::PostUpdate, report).unwrap();
    schedule
        .add_system(Stage::PostUpdate, report_as_a_game_writes_it)
        .unwrap();
    let a = world.spawn(Health(10));
    let b = world.spawn(Health(10));

    schedule.run(&mut world).unwrap();
    let first = world.resource_mut::<Report>().unwrap();
    assert_eq!(
        first.0,
        [(a, 10), (b, 10)],
        "the first run sees everything added before it"
    );
    assert_eq!(first.1, [a, b]);
    *first = Report::default();

    world.send(Hit {
        target: b,
        damage: 3,
    });
    schedule.run(&mut world).unwrap();
    let second = world.resource_mut::<Report>().unwrap();
    assert_eq!(second.0, [(b, 7)]);
    assert!(second.1.is_empty());
    *second = Report::default();

    schedule.run(&mut world).unwrap();
    let third = world.resource::<Report>().unwrap();
    assert!(third.0.is_empty() && third.1.is_empty(), "nothing happened");
}

// ---------------------------------------------------------------------------------------------
// What counts as a write
// ---------------------------------------------------------------------------------------------

#[test]
fn handing_out_mut_marks_nothing_writing_through_it_does() {
    let mut world = World::new();
    let es = world.spawn_batch((0..4).map(Health));
    let since = world.change_tick();
    for (e, h) in world.query::<(Entity, &mut Health)>().iter_mut() {
        assert!(h.0 < 4, "read through Deref");
        if e == es[2] {
            let mut h = h;
            h.0 += 10;
        }
    }
    assert_eq!(changed(&mut world, since), [es[2]]);
    assert!(added(&mut world, since).is_empty());
}

#[test]
fn set_if_neq_marks_only_a_different_value() {
    let mut world = World::new();
    let es = world.spawn_batch((0..3).map(Health));
    let since = world.change_tick();
    world.query::<&mut Health>().for_each(|mut h| {
        h.set_if_neq(Health(1));
    });
    assert_eq!(changed(&mut world, since), [es[0], es[2]]);
}

#[test]
fn option_of_mut_and_for_each_and_get_mut_mark_exactly() {
    let mut world = World::new();
    let plain = world.spawn(Armor(0));
    let tracked = world.spawn((Armor(0), Health(1)));
    let other = world.spawn((Armor(0), Health(1)));
    let since = world.change_tick();
    for (armor, health) in world
        .query::<(&mut Armor, Option<&mut Health>)>()
        .iter_mut()
    {
        armor.0 += 1; // untracked: a plain `&mut Armor`
        if let Some(mut h) = health
            && h.0 == 1
            && armor.0 == 1
        {
            h.0 = 0;
        }
    }
    assert_eq!(changed(&mut world, since), [tracked, other]);

    let since = world.change_tick();
    world.query::<&mut Health>().get_mut(other).unwrap().0 = 5;
    assert_eq!(changed(&mut world, since), [other]);
    let since = world.change_tick();
    let _untouched = world.get_mut::<Health>(tracked).unwrap();
    assert!(changed(&mut world, since).is_empty());
    world.get_mut::<Health>(tracked).unwrap().0 = 9;
    world
        .entity_mut(other)
        .unwrap()
        .get_mut::<Health>()
        .unwrap()
        .0 = 9;
    assert_eq!(changed(&mut world, since), [tracked, other]);
    assert_eq!(world.get::<Armor>(plain).unwrap(), &Armor(1));
}

#[cfg(feature = "parallel")]
#[test]
fn a_parallel_loop_marks_exactly_the_entities_it_writes() {
    let mut world = World::new();
    let es = world.spawn_batch((0..5_000).map(|i| (Health(i), Armor(i))));
    let since = world.change_tick();
    world
        .query::<(&mut Health, &Armor)>()
        .par_for_each(|(mut h, a)| {
            if a.0 % 7 == 0 {
                h.0 = -1;
            }
        });
    let expected: Vec<Entity> = es.iter().copied().filter(|e| e.index() % 7 == 0).collect();
    assert_eq!(changed(&mut world, since), expected);
}

#[test]
fn a_mutable_slice_of_a_tracked_group_marks_every_value_in_it() {
    let mut world = World::new();
    world.group::<(Health, Shield)>().unwrap();
    let grouped = world.spawn_batch((0..3).map(|i| (Health(i), Shield(i))));
    let alone = world.spawn(Health(9));
    let since = world.change_tick();
    let mut query = world.query::<(&mut Health, &Shield)>();
    let (healths, _) = query.slices().unwrap();
    healths[0].0 = 100;
    assert_eq!(changed(&mut world, since), grouped);
    assert!(!changed(&mut world, since).contains(&alone));
}

// ---------------------------------------------------------------------------------------------
// Structural paths: added and changed on every way in
// ---------------------------------------------------------------------------------------------

#[test]
fn every_way_of_adding_marks_added_and_changed_and_a_replacement_marks_changed_only() {
    let mut world = World::new();
    let old = world.spawn(Health(0));
    let bare = world.spawn(Burning);
    let since = world.change_tick();

    let spawned = world.spawn((Health(1), Burning));
    let batch = world.spawn_batch([Health(2), Health(3)]);
    world.insert(bare, Health(4)).unwrap();
    world.insert(old, Health(5)).unwrap(); // a replacement
    let bundled = world.spawn(Burning);
    world
        .insert_bundle(bundled, (Health(6), Shield(6)))
        .unwrap();
    let handled = world.spawn(());
    world
        .entity_mut(handled)
        .unwrap()
        .insert(Health(7))
        .unwrap();
    world.commands().spawn(Health(8));
    let commanded_insert = world.spawn(());
    world.commands().insert(commanded_insert, Health(9));
    world.flush();
    let commanded = world
        .query::<(Entity, &Health)>()
        .iter()
        .find(|(_, h)| h.0 == 8)
        .unwrap()
        .0;

    let mut expected_added = vec![
        spawned, batch[0], batch[1], bare, bundled, handled, commanded,
    ];
    expected_added.push(commanded_insert);
    expected_added.sort();
    assert_eq!(added(&mut world, since), expected_added);
    let mut expected_changed = expected_added.clone();
    expected_changed.push(old);
    expected_changed.sort();
    assert_eq!(changed(&mut world, since), expected_changed);
}

#[test]
fn removing_and_adding_again_is_a_new_add() {
    let mut world = World::new();
    let e = world.spawn(Health(1));
    let since = world.change_tick();
    world.remove::<Health>(e).unwrap();
    assert!(added(&mut world, since).is_empty());
    world.insert(e, Health(2)).unwrap();
    assert_eq!(added(&mut world, since), [e]);
    let since = world.change_tick();
    world.despawn(e).unwrap();
    let again = world.spawn(Health(3));
    assert_eq!(added(&mut world, since), [again]);
}

#[test]
fn a_query_built_from_the_world_compares_against_tick_zero() {
    let mut world = World::new();
    let a = world.spawn(Health(1));
    let b = world.spawn(Armor(1));
    let _ = world.change_tick();
    let all: Vec<Entity> = world
        .query_filtered::<Entity, Added<Health>>()
        .iter()
        .collect();
    assert_eq!(all, [a]);
    assert_eq!(world.query_ref::<Entity>().iter().count(), 2);
    let shared: Vec<Entity> = world
        .query_ref::<(Entity, &Health)>()
        .filter::<Changed<Health>>()
        .changed_since(Tick::ZERO)
        .iter()
        .map(|(e, _)| e)
        .collect();
    assert_eq!(shared, [a]);
    let _ = b;
}

#[test]
fn get_on_a_filtered_query_says_why_an_entity_is_left_out() {
    let mut world = World::new();
    let old = world.spawn(Health(1));
    let since = world.change_tick();
    let fresh = world.spawn(Health(2));
    let none = world.spawn(());
    let query = world
        .query_filtered::<&Health, Added<Health>>()
        .changed_since(since);
    assert_eq!(query.get(fresh).unwrap(), &Health(2));
    assert_eq!(
        query.get(old).unwrap_err().to_string(),
        format!("entity {old:?} does not pass the query filter `Added<Health>`")
    );
    assert_eq!(
        query.get(none).unwrap_err().to_string(),
        format!("entity {none:?} does not have component `Health`")
    );
}

/// A query decides what an entity holds before it reads a change tick, so
/// an entity that is both unchanged and missing a fetched component, or
/// held back by `Without`, is reported for what it holds, whatever order the
/// query's type lists its parts in.
#[test]
fn get_reports_what_an_entity_holds_before_whether_it_changed() {
    let mut world = World::new();
    let bare = world.spawn(Health(1));
    let burning = world.spawn((Health(1), Shield(1), Burning));
    let since = world.change_tick();
    let query = world
        .query_filtered::<(&Health, &Shield), (Changed<Health>, Without<Burning>)>()
        .changed_since(since);
    assert_eq!(
        query.get(bare).unwrap_err().to_string(),
        format!("entity {bare:?} does not have component `Shield`")
    );
    assert!(matches!(
        query.get(burning).unwrap_err(),
        Error::ExcludedComponent { entity, .. } if entity == burning
    ));
    world.get_mut::<Shield>(burning).unwrap().0 = 2;
    world.remove::<Burning>(burning).unwrap();
    let query = world
        .query_filtered::<(&Health, &Shield), (Changed<Health>, Without<Burning>)>()
        .changed_since(since);
    assert_eq!(
        query.get(burning).unwrap_err().to_string(),
        format!("entity {burning:?} does not pass the query filter `Changed<Health>`")
    );
}

// ---------------------------------------------------------------------------------------------
// Systems: each sees every change once, relative to its own last run
// ---------------------------------------------------------------------------------------------

type Log = Arc<Mutex<Vec<(&'static str, Vec<Entity>)>>>;

/// A system named `name` that logs the entities whose `Health` changed.
fn watcher(
    name: &'static str,
    log: &Log,
) -> impl FnMut(Query<Entity, Changed<Health>>) + Send + 'static {
    let log = Arc::clone(log);
    move |q: Query<Entity, Changed<Health>>| {
        let mut seen: Vec<Entity> = q.iter().collect();
        seen.sort();
        log.lock().unwrap().push((name, seen));
    }
}

fn take(log: &Log) -> Vec<(&'static str, Vec<Entity>)> {
    std::mem::take(&mut *log.lock().unwrap())
}

#[test]
fn two_systems_each_see_every_change_once_whatever_their_order() {
    let log = Log::default();
    let mut world = World::new();
    let a = world.spawn(Health(1));
    let b = world.spawn(Health(1));
    let mut schedule = Schedule::new();
    schedule
        .add_system(Stage::PreUpdate, watcher("early", &log).named("early"))
        .unwrap();
    schedule
        .add_system(
            Stage::Update,
            (move |mut q: Query<(Entity, &mut Health)>| {
                for (e, mut h) in q.iter_mut() {
                    if e == b && h.0 < 3 {
                        h.0 += 1;
                    }
                }
            })
            .named("writer"),
        )
        .unwrap();
    schedule
        .add_system(Stage::PostUpdate, watcher("late", &log).named("late"))
        .unwrap();

    schedule.run(&mut world).unwrap();
    assert_eq!(take(&log), [("early", vec![a, b]), ("late", vec![a, b])]);
    // `early` runs before the writer: it sees the previous frame's write now.
    schedule.run(&mut world).unwrap(); // b reaches 3 in this frame's writer
    assert_eq!(take(&log), [("early", vec![b]), ("late", vec![b])]);
    schedule.run(&mut world).unwrap(); // no writes any more
    assert_eq!(take(&log), [("early", vec![b]), ("late", vec![])]);
    schedule.run(&mut world).unwrap();
    assert_eq!(take(&log), [("early", vec![]), ("late", vec![])]);
}

#[test]
fn a_system_does_not_see_its_own_writes_on_its_next_run() {
    let log = Log::default();
    let mut world = World::new();
    let e = world.spawn(Health(0));
    let mut schedule = Schedule::new();
    let inner = Arc::clone(&log);
    schedule
        .add_system(
            Stage::Update,
            move |mut q: Query<(Entity, &mut Health), Changed<Health>>| {
                let mut seen = Vec::new();
                for (e, mut h) in q.iter_mut() {
                    seen.push(e);
                    h.0 += 1;
                }
                inner.lock().unwrap().push(("self", seen));
            },
        )
        .unwrap();
    schedule.run(&mut world).unwrap();
    schedule.run(&mut world).unwrap();
    assert_eq!(take(&log), [("self", vec![e]), ("self", vec![])]);
    assert_eq!(world.get::<Health>(e).unwrap(), &Health(1));
}

#[test]
fn ignore_earlier_changes_makes_the_first_run_see_nothing_from_before() {
    let log = Log::default();
    let mut world = World::new();
    world.spawn(Health(0));
    let mut schedule = Schedule::new();
    schedule
        .add_system(
            Stage::Update,
            watcher("fresh", &log).ignore_earlier_changes(),
        )
        .unwrap();
    schedule.run(&mut world).unwrap();
    let later = world.spawn(Health(1));
    schedule.run(&mut world).unwrap();
    assert_eq!(take(&log), [("fresh", vec![]), ("fresh", vec![later])]);
}

#[test]
fn commands_applied_at_a_stage_end_are_seen_by_later_stages_and_by_earlier_ones_next_frame() {
    let log = Log::default();
    let mut world = World::new();
    let mut schedule = Schedule::new();
    schedule
        .add_system(Stage::PreUpdate, watcher("before", &log).named("before"))
        .unwrap();
    schedule
        .add_system(
            Stage::Update,
            (|mut commands: Commands, mut done: Local<bool>| {
                if !*done {
                    commands.spawn(Health(1));
                    *done = true;
                }
            })
            .named("spawner"),
        )
        .unwrap();
    schedule
        .add_system(Stage::PostUpdate, watcher("after", &log).named("after"))
        .unwrap();
    schedule.run(&mut world).unwrap();
    let e = world.query::<Entity>().iter().next().unwrap();
    schedule.run(&mut world).unwrap();
    assert_eq!(
        take(&log),
        [
            ("before", vec![]),
            ("after", vec![e]),
            ("before", vec![e]),
            ("after", vec![]),
        ]
    );
}

#[test]
fn an_exclusive_system_keeps_its_own_tick() {
    let seen = Arc::new(Mutex::new(Vec::new()));
    let out = Arc::clone(&seen);
    let mut since = Tick::ZERO;
    let mut world = World::new();
    let a = world.spawn(Health(1));
    let mut schedule = Schedule::new();
    schedule
        .add_system(Stage::Update, move |world: &mut World| {
            let found: Vec<Entity> = world
                .query_filtered::<Entity, Changed<Health>>()
                .changed_since(since)
                .iter()
                .collect();
            out.lock().unwrap().push(found);
            since = world.change_tick();
        })
        .unwrap();
    schedule.run(&mut world).unwrap();
    schedule.run(&mut world).unwrap();
    world.get_mut::<Health>(a).unwrap().0 = 2;
    schedule.run(&mut world).unwrap();
    assert_eq!(*seen.lock().unwrap(), [vec![a], vec![], vec![a]]);
}

#[test]
fn a_writer_and_a_change_reader_of_one_type_never_share_a_batch() {
    let mut world = World::new();
    world.spawn_batch((0..10_000).map(Health));
    let mut schedule = Schedule::new();
    schedule
        .add_system(
            Stage::Update,
            (|mut q: Query<&mut Health>| q.for_each(|mut h| h.0 += 1)).named("w"),
        )
        .unwrap();
    schedule
        .add_system(
            Stage::Update,
            (|q: Query<Entity, Changed<Health>>| {
                let _ = q.iter().count();
            })
            .named("r"),
        )
        .unwrap();
    let explained = schedule.explain().unwrap();
    let stage = explained.stage(Stage::Update).unwrap();
    assert_eq!(stage.batches.len(), 2, "{explained:?}");
}

#[test]
fn one_system_may_not_hold_a_writer_and_a_change_reader_of_one_type_in_two_queries() {
    let mut schedule = Schedule::new();
    let result = schedule.add_system(
        Stage::Update,
        |_: Query<&mut Health>, _: Query<Entity, Changed<Health>>| {},
    );
    assert!(
        matches!(result, Err(Error::ConflictingAccess { .. })),
        "{result:?}"
    );
    type NewShields = Or<(Added<Shield>, Changed<Shield>)>;
    let together = schedule.add_system(
        Stage::Update,
        (|_: Query<&mut Health, (Changed<Health>, NewShields)>| {}).named("together"),
    );
    assert!(
        together.is_ok(),
        "a filter beside its own query's `&mut T` is fine"
    );
}
