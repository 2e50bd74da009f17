//! `PersistRegistry`: save, restore and checksum, behaviour by behaviour.
//! The model-based test is `rollback_model.rs`, beside this file.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use ecs_core::persist::ChecksumHasher;
use ecs_core::prelude::*;

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Position {
    x: f32,
    y: f32,
}

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Velocity {
    x: f32,
    y: f32,
}

#[derive(Clone, Debug, PartialEq, Hash)]
struct FrameCount(u64);

/// Not registered: rollback leaves it alone on entities that survive.
#[derive(Component, Debug, PartialEq)]
struct Sprite(&'static str);

fn hash_position(p: &Position, hasher: &mut ChecksumHasher) {
    hasher.write_f32(p.x);
    hasher.write_f32(p.y);
}

fn movement(mut movers: Query<(&mut Position, &Velocity)>, mut frame: ResMut<FrameCount>) {
    for (p, v) in movers.iter_mut() {
        p.x += v.x;
        p.y += v.y;
    }
    frame.0 += 1;
}

/// Spawns one mover and despawns the oldest one every frame.
fn churn(movers: Query<Entity, With<Velocity>>, frame: Res<FrameCount>, mut commands: Commands) {
    let oldest = movers.iter().min_by_key(|e| e.to_bits());
    if let Some(oldest) = oldest {
        commands.despawn(oldest);
    }
    let f = frame.0 as f32;
    commands.spawn((Position { x: f, y: 0.0 }, Velocity { x: 1.0, y: f }));
}

fn arena_world() -> (World, Vec<Entity>) {
    let mut world = World::new();
    world.insert_resource(FrameCount(0));
    let ids = world.spawn_batch((0..8).map(|i| {
        (
            Position {
                x: i as f32,
                y: 0.0,
            },
            Velocity { x: 0.5, y: -0.5 },
        )
    }));
    (world, ids)
}

fn arena_schedule() -> Schedule {
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, movement).unwrap();
    schedule
        .add_system(Stage::Update, churn.after("movement"))
        .unwrap();
    schedule
}

/// Every live entity with its registered values, in id order.
fn contents(world: &mut World) -> Vec<(Entity, Option<Position>, Option<Velocity>)> {
    let mut all: Vec<_> = world
        .query::<(Entity, Option<&Position>, Option<&Velocity>)>()
        .iter()
        .map(|(e, p, v)| (e, p.copied(), v.copied()))
        .collect();
    all.sort_by_key(|(e, ..)| e.to_bits());
    all
}

#[test]
fn save_run_restore_gives_back_the_saved_world() -> Result<(), Error> {
    let (mut world, _) = arena_world();
    let mut schedule = arena_schedule();

    let mut rollback = PersistRegistry::new();
    rollback.register::<Position>("Position").rollback();
    rollback.register::<Velocity>("Velocity").rollback();
    rollback
        .register_resource::<FrameCount>("FrameCount")
        .rollback();

    let before = contents(&mut world);
    let saved: WorldState = rollback.save(&world);
    schedule.run(&mut world)?;
    assert_ne!(
        contents(&mut world),
        before,
        "the frame moved, spawned, despawned"
    );
    rollback.restore(&mut world, &saved)?;
    assert_eq!(rollback.checksum(&world), saved.checksum());

    assert_eq!(contents(&mut world), before);
    assert_eq!(world.resource::<FrameCount>()?, &FrameCount(0));
    Ok(())
}

/// Restoring and running the same frames again gives the same world, ids
/// included: the free list and versions came back as they were.
#[test]
fn frames_replayed_after_a_restore_give_the_same_world() -> Result<(), Error> {
    let (mut world, _) = arena_world();
    let mut schedule = arena_schedule();
    let mut rollback = PersistRegistry::new();
    rollback
        .register::<Position>("Position")
        .rollback_with_checksum(hash_position);
    rollback.register::<Velocity>("Velocity").rollback();
    rollback
        .register_resource::<FrameCount>("FrameCount")
        .rollback_hashed();
    for _ in 0..3 {
        schedule.run(&mut world)?;
    }
    let saved = rollback.save(&world);
    for _ in 0..5 {
        schedule.run(&mut world)?;
    }
    let first_run = contents(&mut world);
    let first_checksum = rollback.checksum(&world);

    rollback.restore(&mut world, &saved)?;
    for _ in 0..5 {
        schedule.run(&mut world)?;
    }
    assert_eq!(contents(&mut world), first_run);
    assert_eq!(rollback.checksum(&world), first_checksum);
    Ok(())
}

#[test]
fn unregistered_components_stay_on_survivors_and_leave_with_the_rest() -> Result<(), Error> {
    let mut rollback = PersistRegistry::new();
    rollback.register::<Position>("Position").rollback();
    let mut world = World::new();
    let survivor = world.spawn((Position { x: 1.0, y: 1.0 }, Sprite("hero")));
    let despawned = world.spawn((Position { x: 2.0, y: 2.0 }, Sprite("foe")));
    let saved = rollback.save(&world);

    world.insert(survivor, Sprite("hero, hurt"))?;
    world.despawn(despawned)?;
    let spawned = world.spawn(Sprite("new"));
    let late = world.spawn(Position { x: 3.0, y: 3.0 });
    rollback.restore(&mut world, &saved)?;

    assert_eq!(world.get::<Sprite>(survivor)?, &Sprite("hero, hurt"));
    assert!(world.is_alive(despawned), "despawned since: back, same id");
    assert_eq!(
        world.get::<Position>(despawned)?,
        &Position { x: 2.0, y: 2.0 }
    );
    assert!(
        world.get::<Sprite>(despawned).is_err(),
        "an unregistered component is not saved"
    );
    assert!(!world.is_alive(spawned) && !world.is_alive(late));
    assert_eq!(world.query::<&Sprite>().iter().count(), 1);
    assert_eq!(world.len(), 2);
    Ok(())
}

#[test]
fn observers_do_not_fire_on_restore() -> Result<(), Error> {
    let mut rollback = PersistRegistry::new();
    rollback.register::<Position>("Position").rollback();
    let mut world = World::new();
    let a = world.spawn(Position { x: 0.0, y: 0.0 });
    let saved = rollback.save(&world);
    world.despawn(a)?;
    world.spawn(Position { x: 5.0, y: 5.0 });

    let added = Arc::new(AtomicUsize::new(0));
    let removed = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&added);
    world.observe(move |_: OnAdd<Position>| {
        seen.fetch_add(1, Ordering::Relaxed);
    });
    let seen = Arc::clone(&removed);
    world.observe(move |_: OnRemove<Position>| {
        seen.fetch_add(1, Ordering::Relaxed);
    });
    rollback.restore(&mut world, &saved)?;
    assert_eq!(world.get::<Position>(a)?, &Position { x: 0.0, y: 0.0 });
    assert_eq!(added.load(Ordering::Relaxed), 0);
    assert_eq!(removed.load(Ordering::Relaxed), 0);
    // The observers are still there for the game's own changes.
    world.insert(a, Position { x: 1.0, y: 1.0 })?;
    world.spawn(Position { x: 2.0, y: 2.0 });
    assert_eq!(added.load(Ordering::Relaxed), 1);
    Ok(())
}

#[derive(Component, Clone, Debug, PartialEq)]
#[component(track_changes)]
struct Health(i32);

#[test]
fn change_ticks_are_restored() -> Result<(), Error> {
    let mut rollback = PersistRegistry::new();
    rollback.register::<Health>("Health").rollback();
    let mut world = World::new();
    let a = world.spawn(Health(1));
    let b = world.spawn(Health(1));
    let since = world.change_tick();
    world.get_mut::<Health>(a)?.0 = 2;
    let saved = rollback.save(&world);
    world.get_mut::<Health>(b)?.0 = 2;
    rollback.restore(&mut world, &saved)?;

    let changed: Vec<Entity> = world
        .query_filtered::<Entity, Changed<Health>>()
        .changed_since(since)
        .iter()
        .collect();
    assert_eq!(changed, [a], "b's change was undone, a's kept");
    assert_eq!(world.get::<Health>(b)?, &Health(1));
    // Writes after the restore are newer than everything restored.
    let after = world.change_tick();
    world.get_mut::<Health>(b)?.0 = 3;
    let changed: Vec<Entity> = world
        .query_filtered::<Entity, Changed<Health>>()
        .changed_since(after)
        .iter()
        .collect();
    assert_eq!(changed, [b]);
    Ok(())
}

#[test]
fn resources_come_back_or_leave_as_they_were() -> Result<(), Error> {
    let mut rollback = PersistRegistry::new();
    rollback
        .register_resource::<FrameCount>("FrameCount")
        .rollback();
    rollback.register_resource::<String>("String").rollback();
    let mut world = World::new();
    world.insert_resource(FrameCount(7));
    let saved = rollback.save(&world);
    world.insert_resource(FrameCount(8));
    world.insert_resource(String::from("since"));
    rollback.restore(&mut world, &saved)?;
    assert_eq!(world.resource::<FrameCount>()?, &FrameCount(7));
    assert!(!world.contains_resource::<String>());

    world.remove_resource::<FrameCount>()?;
    rollback.restore(&mut world, &saved)?;
    assert_eq!(world.resource::<FrameCount>()?, &FrameCount(7));
    Ok(())
}

#[test]
fn a_state_of_other_types_is_refused_and_the_world_is_unchanged() -> Result<(), Error> {
    let mut saving = PersistRegistry::new();
    saving.register::<Position>("Position").rollback();
    let mut world = World::new();
    let saved = saving.save(&world);
    let e = world.spawn(Position { x: 1.0, y: 1.0 });

    let mut more = PersistRegistry::new();
    more.register::<Position>("Position").rollback();
    more.register::<Velocity>("Velocity").rollback();
    let err = more.restore(&mut world, &saved).unwrap_err();
    assert!(matches!(err, Error::Rollback { .. }));
    let message = err.to_string();
    assert!(message.contains("Velocity"), "{message}");
    assert!(
        message.contains("registered after it was saved"),
        "{message}"
    );

    let mut other = PersistRegistry::new();
    other.register::<Velocity>("Velocity").rollback();
    let message = other.restore(&mut world, &saved).unwrap_err().to_string();
    assert!(
        message.contains("Position") && message.contains("Velocity"),
        "{message}"
    );
    assert!(world.is_alive(e), "nothing changed");
    assert_eq!(world.get::<Position>(e)?, &Position { x: 1.0, y: 1.0 });
    Ok(())
}

#[test]
fn groups_are_packed_again_after_a_restore() -> Result<(), Error> {
    let mut rollback = PersistRegistry::new();
    rollback.register::<Position>("Position").rollback();
    let mut world = World::new();
    world.group::<(Position, Velocity)>()?;
    let ids = world.spawn_batch((0..6).map(|i| {
        (
            Position {
                x: i as f32,
                y: 0.0,
            },
            Velocity { x: 1.0, y: 0.0 },
        )
    }));
    let saved = rollback.save(&world);
    // Velocity is not registered: the restored order of Position's storage
    // disagrees with Velocity's.
    for &e in ids.iter().step_by(2) {
        world.remove::<Position>(e)?;
    }
    world.insert(ids[0], Position { x: 9.0, y: 9.0 })?;
    rollback.restore(&mut world, &saved)?;

    let mut query = world.query::<(Entity, &Position, &Velocity)>();
    let (entities, positions, velocities) = query.slices()?;
    assert_eq!(entities.len(), 6, "every full holder is in the group");
    assert_eq!(velocities.len(), 6);
    for (entity, position) in entities.iter().zip(positions) {
        let i = ids.iter().position(|e| e == entity).unwrap();
        assert_eq!(position.x, i as f32, "row of {entity:?}");
    }
    Ok(())
}

#[test]
fn checksums_agree_for_equal_worlds_and_differ_otherwise() {
    let mut rollback = PersistRegistry::new();
    rollback
        .register::<Position>("Position")
        .rollback_with_checksum(hash_position);
    let build = |order_swapped: bool| {
        let mut world = World::new();
        let a = world.spawn(());
        let b = world.spawn(());
        let (first, second) = if order_swapped { (b, a) } else { (a, b) };
        world.insert(first, Position { x: 1.0, y: 0.0 }).unwrap();
        world.insert(second, Position { x: 2.0, y: 0.0 }).unwrap();
        world
    };
    let a = build(false);
    let b = build(true);
    assert_ne!(
        rollback.checksum(&a),
        rollback.checksum(&b),
        "the values sit on other entities"
    );
    let mut c = build(false);
    let d = build(false);
    assert_eq!(rollback.checksum(&c), rollback.checksum(&d));

    // Same live entities and values, but a version moved on: another checksum.
    let extra = c.spawn(());
    c.despawn(extra).unwrap();
    let mut e = build(false);
    let extra = e.spawn(());
    e.despawn(extra).unwrap();
    assert_eq!(rollback.checksum(&c), rollback.checksum(&e));
    assert_ne!(
        rollback.checksum(&c),
        rollback.checksum(&d),
        "the free list differs"
    );
}

/// Commands recorded before a restore are not part of any state: the id a
/// pending spawn reserved is not alive after the restore, and applying the
/// commands afterwards fails in words rather than bringing it back.
#[test]
fn an_id_reserved_by_a_pending_command_is_not_alive_after_a_restore() -> Result<(), Error> {
    let mut rollback = PersistRegistry::new();
    rollback.register::<Position>("Position").rollback();
    let mut world = World::new();
    let kept = world.spawn(Position { x: 1.0, y: 1.0 });
    let saved = rollback.save(&world);
    let reserved = world.commands().spawn(Position { x: 2.0, y: 2.0 });
    rollback.restore(&mut world, &saved)?;
    assert!(!world.is_alive(reserved));
    let errors = world.flush();
    assert!(!world.is_alive(reserved));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert_eq!(errors[0].entity(), Some(reserved));
    assert_eq!(world.len(), 1);
    assert!(world.is_alive(kept));
    assert_eq!(rollback.checksum(&world), saved.checksum());
    Ok(())
}
