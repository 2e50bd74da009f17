//! Snapshots loaded into a running world: fresh ids as in a merge, `#[entity]`
//! fields rewritten, observers told, the target's resources kept.

use crate::snapshot_common::*;
use ecs_core::prelude::*;

#[derive(Default)]
struct Added(Vec<Entity>);

#[test]
fn ids_are_remapped_and_entity_fields_rewritten() -> Result<(), Error> {
    let registry = registry();
    let mut level = sample_world();
    let saved = fingerprint(&mut level);
    let bytes = to_postcard(&level, &registry);

    let mut world = World::new();
    let player = world.spawn(Name("player".into()));
    world.spawn_batch((0..20).map(|i| Position {
        x: i as f32,
        y: 0.0,
    }));
    let moved =
        registry.load_snapshot(&mut world, &mut postcard::Deserializer::from_bytes(&bytes))?;

    assert_eq!(moved.len(), saved.alive.len());
    assert_eq!(world.len(), 21 + saved.alive.len());
    assert_eq!(world.get::<Name>(player)?.0, "player");
    let new = |old: Entity| moved.get(old).expect("every saved entity moved");
    for (old, value) in &saved.positions {
        assert_eq!(world.get::<Position>(new(*old))?, value);
    }
    for (old, value) in &saved.names {
        assert_eq!(world.get::<Name>(new(*old))?, value);
    }
    for (old, value) in &saved.inventories {
        assert_eq!(world.get::<Inventory>(new(*old))?, value);
    }
    for old in &saved.frozen {
        assert!(world.contains::<Frozen>(new(*old)));
    }
    let (old, links) = &saved.links[0];
    let rewritten = world.get::<Links>(new(*old))?;
    assert_eq!(rewritten.target, new(links.target));
    assert_eq!(rewritten.maybe, links.maybe.map(new));
    assert_eq!(
        rewritten.all,
        links.all.iter().copied().map(new).collect::<Vec<_>>()
    );
    assert_ne!(rewritten.target, links.target, "the ids did move");
    Ok(())
}

#[test]
fn observers_see_on_add_for_every_loaded_component() -> Result<(), Error> {
    let registry = registry();
    let level = sample_world();
    let json = to_json(&level, &registry);

    let mut world = World::new();
    world.insert_resource(Added::default());
    world.observe(|trigger: OnAdd<Position>, mut added: ResMut<Added>| {
        added.0.push(trigger.entity());
    });
    let moved =
        registry.load_snapshot(&mut world, &mut serde_json::Deserializer::from_str(&json))?;
    let mut seen = world.resource::<Added>()?.0.clone();
    seen.sort();
    let mut expected: Vec<Entity> = world
        .query_filtered::<Entity, With<Position>>()
        .iter()
        .collect();
    expected.sort();
    assert_eq!(seen, expected);
    assert_eq!(seen.len(), 9, "the sample world's live positions");
    assert!(seen.iter().all(|&e| moved.iter().any(|(_, new)| new == e)));
    Ok(())
}

#[test]
fn the_running_world_keeps_its_own_resources() -> Result<(), Error> {
    let registry = registry();
    let level = sample_world();
    let json = to_json(&level, &registry);
    let mut world = World::new();
    world.insert_resource(Score(1));
    registry.load_snapshot(&mut world, &mut serde_json::Deserializer::from_str(&json))?;
    assert_eq!(world.resource::<Score>()?, &Score(1));
    let mut empty = World::new();
    registry.load_snapshot(&mut empty, &mut serde_json::Deserializer::from_str(&json))?;
    assert_eq!(empty.resource::<Score>()?, &Score(1234));
    Ok(())
}

/// An `#[entity]` field whose hand-written `MapEntities` panics while it is being rewritten to
/// this world's ids.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
struct Fragile(Entity);

impl ecs_core::MapEntities for Fragile {
    fn map_entities<M: ecs_core::EntityMapper + ?Sized>(&mut self, mapper: &mut M) {
        let mapped = mapper.map_entity(self.0);
        assert!(mapped == self.0, "cannot move {:?}", self.0);
        self.0 = mapped;
    }
}

#[derive(Component, Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
struct Holds(#[entity] Fragile);

/// `load_snapshot` is all or nothing under a panicking `MapEntities` too: the running world
/// keeps exactly what it had, and the next spawn gets the id it would have got.
#[test]
fn a_load_whose_map_entities_panics_changes_nothing() {
    let mut registry = registry();
    registry.register::<Holds>("game::Holds").snapshot();
    let mut level = World::new();
    let a = level.spawn(Position { x: 1.0, y: 2.0 });
    level.spawn(Holds(Fragile(a)));
    let bytes = to_postcard(&level, &registry);

    let mut world = World::new();
    world.spawn_batch((0..3).map(|i| Name(format!("n{i}"))));
    let before = fingerprint(&mut world);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        registry.load_snapshot(&mut world, &mut postcard::Deserializer::from_bytes(&bytes))
    }));
    assert!(caught.is_err(), "the mapping panics");
    assert_eq!(fingerprint(&mut world), before);
    assert_eq!(world.len(), 3);
    let next = world.spawn(());
    assert_eq!((next.index(), next.version()), (3, 1));
}
