//! `#[derive(SystemParam)]`: derived params running in a schedule. The
//! compile tests and their pinned error messages are in
//! ecs-derive's `tests/ui/system_param/` (driven by its `tests/compile_fail.rs`).

use ecs_core::prelude::*;
use ecs_core::system::{Conflict, SystemAccess, SystemParam as _};

#[derive(Component, Debug, PartialEq)]
struct Position {
    x: f32,
}
#[derive(Component)]
struct Velocity {
    x: f32,
}
#[derive(Component)]
struct Frozen;
struct Time {
    dt: f32,
}

#[derive(Query)]
struct Mover<'w> {
    pos: &'w mut Position,
    vel: &'w Velocity,
}

#[derive(SystemParam)]
struct Physics<'w> {
    movers: Query<'w, Mover<'w>, Without<Frozen>>,
    time: Res<'w, Time>,
}

fn physics(mut p: Physics) {
    for m in p.movers.iter_mut() {
        m.pos.x += m.vel.x * p.time.dt;
    }
}

#[test]
fn physics_moves_each_unfrozen_mover_by_velocity_times_dt() -> Result<(), Error> {
    let mut world = World::new();
    world.insert_resource(Time { dt: 0.25 });
    let movers: Vec<_> = (0..4u8)
        .map(|i| world.spawn((Position { x: f32::from(i) }, Velocity { x: 2.0 })))
        .collect();
    let frozen = world.spawn((Position { x: 7.0 }, Velocity { x: 2.0 }, Frozen));
    let still = world.spawn(Position { x: 9.0 });
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::PostUpdate, physics.named("physics"))?;
    assert!(schedule.contains_system("physics"));

    schedule.run(&mut world)?;
    for (i, &e) in movers.iter().enumerate() {
        assert_eq!(world.get::<Position>(e)?.x, i as f32 + 0.5, "one step");
    }
    world.resource_mut::<Time>()?.dt = 1.0;
    schedule.run(&mut world)?;
    for (i, &e) in movers.iter().enumerate() {
        assert_eq!(
            world.get::<Position>(e)?.x,
            i as f32 + 2.5,
            "dt is read each run"
        );
    }
    assert_eq!(world.get::<Position>(frozen)?.x, 7.0);
    assert_eq!(world.get::<Position>(still)?.x, 9.0);
    Ok(())
}

#[test]
fn a_missing_resource_in_a_derived_struct_stops_its_system_by_name() {
    let mut world = World::new();
    let e = world.spawn((Position { x: 1.0 }, Velocity { x: 1.0 }));
    let mut schedule = Schedule::new();
    schedule
        .add_system(Stage::Update, physics.named("physics"))
        .unwrap();
    let err = schedule.run(&mut world).unwrap_err();
    assert_eq!(
        err.to_string(),
        "system `physics` could not run: the world has no resource `Time`: \
         add it with `world.insert_resource(..)`"
    );
    assert_eq!(world.get::<Position>(e).unwrap().x, 1.0, "nothing ran");
}

#[derive(Component)]
struct Spawner {
    children: u32,
}
#[derive(Component)]
struct Child;

#[derive(SystemParam)]
struct Spawning<'w> {
    commands: Commands<'w>,
    runs: Local<'w, u32>,
}

#[derive(SystemParam)]
struct Nursery<'w>(Query<'w, &'w Spawner>, Spawning<'w>);

fn nurse(mut n: Nursery) {
    *n.1.runs += 1;
    for spawner in n.0.iter() {
        for _ in 0..spawner.children {
            n.1.commands.spawn(Child);
        }
    }
}

/// Counts the children in the world while its stage runs.
fn count_children(children: Query<&Child>, mut seen: ResMut<Vec<usize>>) {
    seen.push(children.iter().count());
}

/// A derived struct's `Commands` make its system one that defers: a system
/// ordered after it gets a sync point and sees its spawns; an unordered one
/// (through `chain_ignore_deferred`) waits for the stage's end.
#[test]
fn a_nested_structs_commands_apply_before_a_system_ordered_after_it() -> Result<(), Error> {
    let mut world = World::new();
    world.insert_resource(Vec::<usize>::new());
    world.spawn(Spawner { children: 2 });
    world.spawn(Spawner { children: 1 });
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, nurse)?;
    schedule.add_system(Stage::Update, count_children.after("nurse"))?;
    schedule.add_system(Stage::PostUpdate, count_children.named("later"))?;

    schedule.run(&mut world)?;
    assert_eq!(
        *world.resource::<Vec<usize>>()?,
        [3, 3],
        "a sync point between `nurse` and its follower, then `PostUpdate` sees them too"
    );
    assert_eq!(world.query::<&Child>().iter().count(), 3);
    schedule.run(&mut world)?;
    assert_eq!(world.query::<&Child>().iter().count(), 6);

    let mut unsynced = Schedule::new();
    unsynced.add_systems(
        Stage::Update,
        (nurse, count_children).chain_ignore_deferred(),
    )?;
    unsynced.run(&mut world)?;
    assert_eq!(
        world.resource::<Vec<usize>>()?[4..],
        [6],
        "before this frame's spawns"
    );
    assert_eq!(world.query::<&Child>().iter().count(), 9);
    Ok(())
}

#[derive(Component)]
struct Chaos;

#[derive(SystemParam)]
struct Reckless<'w> {
    commands: Commands<'w>,
    spawned: ResMut<'w, Vec<usize>>,
}

fn reckless(mut r: Reckless) {
    r.commands.spawn(Chaos);
    r.spawned.push(1);
    panic!("the system fails after spawning");
}

#[test]
fn a_panicking_systems_nested_commands_are_discarded() {
    let mut world = World::new();
    world.insert_resource(Vec::<usize>::new());
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, reckless).unwrap();
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        let _ = schedule.run(&mut world);
    }));
    assert!(outcome.is_err(), "the system's panic reaches the caller");
    assert_eq!(
        world.query::<&Chaos>().iter().count(),
        0,
        "no spawn applied"
    );
    assert_eq!(world.len(), 0, "the reserved id was not left alive either");
}

/// Writes `Position`: a system that may not run beside `Physics`.
fn nudge(mut positions: Query<&mut Position>) {
    for p in positions.iter_mut() {
        p.x += 1.0;
    }
}

#[test]
fn a_derived_structs_access_is_its_fields_access() {
    let mut access = SystemAccess::new();
    let _state = <Physics as ecs_core::system::SystemParam>::init(&mut access);
    assert!(access.clash().is_none());

    let mut writer = SystemAccess::new();
    <Query<&mut Position>>::init(&mut writer);
    assert_eq!(
        access.conflict_with(&writer),
        Some(Conflict::Component {
            type_name: core::any::type_name::<Position>(),
            first: ecs_core::query::AccessMode::Write,
            second: ecs_core::query::AccessMode::Write,
        })
    );

    let mut frozen_only = SystemAccess::new();
    <Query<&mut Position, With<Frozen>>>::init(&mut frozen_only);
    assert!(
        access.conflict_with(&frozen_only).is_none(),
        "the struct's `Without<Frozen>` keeps its query disjoint"
    );

    let mut time_writer = SystemAccess::new();
    <ResMut<Time>>::init(&mut time_writer);
    assert!(access.conflict_with(&time_writer).is_some());
    let mut time_reader = SystemAccess::new();
    <Res<Time>>::init(&mut time_reader);
    assert!(access.conflict_with(&time_reader).is_none());
}

#[test]
fn a_schedule_keeps_physics_apart_from_a_position_writer() -> Result<(), Error> {
    let mut world = World::new();
    world.insert_resource(Time { dt: 1.0 });
    let e = world.spawn((Position { x: 0.0 }, Velocity { x: 1.0 }));
    let mut schedule = Schedule::new();
    schedule.set_parallel_threshold(0);
    schedule.add_system(Stage::Update, physics)?;
    schedule.add_system(Stage::Update, nudge)?;
    schedule.run(&mut world)?;
    assert_eq!(world.get::<Position>(e)?.x, 2.0);
    Ok(())
}

struct Score;

#[derive(SystemParam)]
#[allow(dead_code, reason = "its system is rejected before it runs")]
struct Scoring<'w> {
    score: ResMut<'w, Score>,
    commands: Commands<'w>,
}

fn double_score(_scoring: Scoring, _again: ResMut<Score>) {}

#[test]
fn a_derived_struct_and_a_separate_param_writing_one_resource_are_rejected() {
    let mut schedule = Schedule::new();
    let err = schedule
        .add_system(Stage::Update, double_score)
        .unwrap_err();
    let Error::ConflictingAccess {
        system,
        first,
        second,
        type_name,
        ..
    } = &err
    else {
        panic!("not a conflict: {err}");
    };
    assert_eq!(system, "double_score");
    assert_eq!(
        (first.as_str(), second.as_str()),
        ("ResMut<Score>", "ResMut<Score>")
    );
    assert_eq!(*type_name, core::any::type_name::<Score>());
    assert_eq!(
        err.to_string(),
        "system `double_score` cannot take both `ResMut<Score>` and `ResMut<Score>`: both \
         reach the resource `Score` and at least one writes it. Merge them into one param"
    );
    assert!(!schedule.contains_system("double_score"));
}

#[derive(SystemParam)]
#[allow(dead_code, reason = "its system is rejected before it runs")]
struct Readers<'w> {
    movers: Query<'w, &'w Position>,
}

#[derive(SystemParam)]
#[allow(dead_code, reason = "its system is rejected before it runs")]
struct Writers<'w> {
    movers: Query<'w, &'w mut Position, Without<Frozen>>,
}

fn aliased(_readers: Readers, _writers: Writers) {}

#[test]
fn clashing_queries_in_two_derived_structs_are_rejected_at_add_system() {
    let mut schedule = Schedule::new();
    let err = schedule.add_system(Stage::Update, aliased).unwrap_err();
    assert!(
        matches!(&err, Error::ConflictingAccess { first, second, .. }
            if first == "Query<&Position>"
                && second == "Query<&mut Position, Without<Frozen>>"),
        "{err}"
    );
}
