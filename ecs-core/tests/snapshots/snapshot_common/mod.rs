//! What the snapshot tests share: components of every kind (plain data,
//! owned heap data, a tag, a tracked type, entity references), a resource,
//! their registry, and a fingerprint of a world that compares every id and value.

#![allow(dead_code, reason = "each test file uses its own part of the kit")]

use ecs_core::prelude::*;
use serde::{Deserialize, Serialize};

#[derive(Component, Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

#[derive(Component, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Name(pub String);

#[derive(Component, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Inventory(pub Vec<u32>);

#[derive(Component, Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
pub struct Frozen;

#[derive(Component, Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
#[component(track_changes)]
pub struct Health(pub i32);

#[derive(Component, Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Links {
    #[entity]
    pub target: Entity,
    #[entity]
    pub maybe: Option<Entity>,
    #[entity]
    pub all: Vec<Entity>,
}

#[derive(Serialize, Deserialize, Clone, Debug, PartialEq)]
pub struct Score(pub u64);

pub fn registry() -> PersistRegistry {
    let mut registry = PersistRegistry::new();
    registry.register::<Position>("game::Position").snapshot();
    registry.register::<Name>("game::Name").snapshot();
    registry.register::<Inventory>("game::Inventory").snapshot();
    registry.register::<Frozen>("game::Frozen").snapshot();
    registry.register::<Health>("game::Health").snapshot();
    registry.register::<Links>("game::Links").snapshot();
    registry
        .register_resource::<Score>("game::Score")
        .snapshot();
    registry
}

pub fn to_json(world: &World, registry: &PersistRegistry) -> String {
    serde_json::to_string(&registry.snapshot(world)).expect("a snapshot serializes")
}

pub fn to_postcard(world: &World, registry: &PersistRegistry) -> Vec<u8> {
    postcard::to_allocvec(&registry.snapshot(world)).expect("a snapshot serializes")
}

pub fn from_json(registry: &PersistRegistry, text: &str) -> Result<World, Error> {
    registry.world_from_snapshot(&mut serde_json::Deserializer::from_str(text))
}

pub fn from_postcard(registry: &PersistRegistry, bytes: &[u8]) -> Result<World, Error> {
    registry.world_from_snapshot(&mut postcard::Deserializer::from_bytes(bytes))
}

/// Every live id and every value of every test type, sorted by entity.
#[derive(Debug, PartialEq)]
pub struct Fingerprint {
    pub alive: Vec<Entity>,
    pub positions: Vec<(Entity, Position)>,
    pub names: Vec<(Entity, Name)>,
    pub inventories: Vec<(Entity, Inventory)>,
    pub frozen: Vec<Entity>,
    pub health: Vec<(Entity, Health)>,
    pub links: Vec<(Entity, Links)>,
    pub score: Option<Score>,
}

fn column<T: Component + Clone>(world: &mut World) -> Vec<(Entity, T)> {
    let mut column: Vec<(Entity, T)> = world
        .query::<(Entity, &T)>()
        .iter()
        .map(|(entity, value)| (entity, value.clone()))
        .collect();
    column.sort_by_key(|&(entity, _)| entity);
    column
}

pub fn fingerprint(world: &mut World) -> Fingerprint {
    let mut alive: Vec<Entity> = world.query::<Entity>().iter().collect();
    alive.sort();
    assert_eq!(alive.len(), world.len());
    Fingerprint {
        alive,
        positions: column(world),
        names: column(world),
        inventories: column(world),
        frozen: column::<Frozen>(world)
            .into_iter()
            .map(|(e, _)| e)
            .collect(),
        health: column(world),
        links: column(world),
        score: world.resource::<Score>().ok().cloned(),
    }
}

/// The next `n` ids `world` hands out (spawning them).
pub fn next_ids(world: &mut World, n: usize) -> Vec<Entity> {
    (0..n).map(|_| world.spawn(())).collect()
}

/// A world with every kind of component, holes in its slot table, reused
/// slots at higher versions, and a resource.
pub fn sample_world() -> World {
    let mut world = World::new();
    let ids: Vec<Entity> = (0..12)
        .map(|i| {
            world.spawn(Position {
                x: i as f32,
                y: -(i as f32) / 2.0,
            })
        })
        .collect();
    for (i, &e) in ids.iter().enumerate() {
        if i % 2 == 0 {
            world.insert(e, Name(format!("unit {i}"))).unwrap();
        }
        if i % 3 == 0 {
            world.insert(e, Inventory((0..i as u32).collect())).unwrap();
        }
        if i % 4 == 1 {
            world.insert(e, Frozen).unwrap();
        }
        world.insert(e, Health(100 - i as i32)).unwrap();
    }
    world.despawn(ids[3]).unwrap();
    world.despawn(ids[7]).unwrap();
    world.despawn(ids[5]).unwrap();
    let reborn = world.spawn(Name("reborn".into()));
    world
        .insert(
            ids[0],
            Links {
                target: reborn,
                maybe: Some(ids[1]),
                all: vec![ids[2], reborn, ids[11]],
            },
        )
        .unwrap();
    world.spawn(()); // an entity with no component at all
    world.insert_resource(Score(1234));
    world
}
