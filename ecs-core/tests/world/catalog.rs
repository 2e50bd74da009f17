//! `component_types`, `event_types` and `observers`: what a world says it
//! holds follows spawns, despawns, merges and unobserve.

use ecs_core::observer::TriggerKind;
use ecs_core::prelude::*;

#[derive(Component)]
struct Position(#[allow(dead_code, reason = "stored, never read: the tests count holders")] f32);
#[derive(Component)]
struct Enemy;

struct Hit;
struct Spawned;

fn counts(world: &World) -> Vec<(String, usize)> {
    world
        .component_types()
        .map(|t| (t.info().name().to_owned(), t.len()))
        .collect()
}

#[test]
fn component_types_count_their_holders_through_despawns() {
    let mut world = World::new();
    let ids = world.spawn_batch((0..5).map(|i| (Position(i as f32), Enemy)));
    world.despawn(ids[1]).unwrap();
    world.remove::<Enemy>(ids[2]).unwrap();
    assert_eq!(
        counts(&world),
        [("Position".into(), 4), ("Enemy".into(), 3)]
    );
    let enemy = world.component_types().nth(1).unwrap();
    assert!(!enemy.contains(ids[1]) && !enemy.contains(ids[2]) && enemy.contains(ids[3]));
    world.clear();
    assert_eq!(
        counts(&world),
        [("Position".into(), 0), ("Enemy".into(), 0)]
    );
}

#[test]
fn event_types_include_those_a_merge_brought() {
    let mut world = World::new();
    world.send(Hit);
    let mut level = World::new();
    level.send(Spawned);
    level.send(Spawned);
    world.merge(level);
    let names: Vec<(String, usize)> = world
        .event_types()
        .into_iter()
        .map(|e| (e.name, e.queued))
        .collect();
    assert_eq!(names, [("Hit".into(), 1), ("Spawned".into(), 2)]);
    world.update_events();
    world.update_events();
    assert!(world.event_types().iter().all(|e| e.queued == 0));
}

#[test]
fn observers_are_listed_in_registration_order_until_unobserved() {
    let mut world = World::new();
    let first = world.observe(|_: OnAdd<Enemy>| {});
    world.observe(|_: OnRemove<Position>| {});
    let listed = |world: &World| -> Vec<(TriggerKind, String)> {
        world
            .observers()
            .map(|o| (o.kind, o.component.name().to_owned()))
            .collect()
    };
    assert_eq!(
        listed(&world),
        [
            (TriggerKind::Add, "Enemy".into()),
            (TriggerKind::Remove, "Position".into())
        ]
    );
    world.unobserve(first).unwrap();
    assert_eq!(listed(&world), [(TriggerKind::Remove, "Position".into())]);
}
