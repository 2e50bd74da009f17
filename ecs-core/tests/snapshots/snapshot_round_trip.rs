//! Snapshots saved and loaded into fresh worlds, with JSON and postcard: every
//! id (versions included), every value, the allocator's next ids; chosen
//! types; the registry's names and its refusals.

use crate::snapshot_common::*;
use ecs_core::change::Tick;
use ecs_core::prelude::*;
use serde::{Deserialize, Serialize};

#[test]
fn json_round_trip_keeps_every_id_value_and_next_id() -> Result<(), Error> {
    let registry = registry();
    let mut world = sample_world();
    let mut copy = from_json(&registry, &to_json(&world, &registry))?;
    assert_eq!(fingerprint(&mut copy), fingerprint(&mut world));
    assert_eq!(next_ids(&mut copy, 6), next_ids(&mut world, 6));
    Ok(())
}

#[test]
fn postcard_round_trip_keeps_every_id_value_and_next_id() -> Result<(), Error> {
    let registry = registry();
    let mut world = sample_world();
    let mut copy = from_postcard(&registry, &to_postcard(&world, &registry))?;
    assert_eq!(fingerprint(&mut copy), fingerprint(&mut world));
    assert_eq!(next_ids(&mut copy, 6), next_ids(&mut world, 6));
    Ok(())
}

/// A component with data but nothing to save (its one field skipped)
/// writes no bytes per value in a binary format, and still loads back, one
/// value per entity.
#[test]
fn a_value_that_writes_no_bytes_round_trips() -> Result<(), Error> {
    #[derive(Component, Serialize, Deserialize, Debug, PartialEq)]
    struct Cache {
        #[serde(skip)]
        hits: u32,
    }
    let mut registry = PersistRegistry::new();
    registry.register::<Cache>("game::Cache").snapshot();
    let mut world = World::new();
    let ids: Vec<Entity> = (0..3).map(|hits| world.spawn(Cache { hits })).collect();
    for format in ["postcard", "json"] {
        let copy = match format {
            "postcard" => from_postcard(&registry, &to_postcard(&world, &registry))?,
            _ => from_json(&registry, &to_json(&world, &registry))?,
        };
        for &id in &ids {
            assert_eq!(copy.get::<Cache>(id)?, &Cache { hits: 0 }, "{format}");
        }
    }
    Ok(())
}

#[test]
fn old_handles_stay_valid_and_stale_ones_stay_stale() -> Result<(), Error> {
    let registry = registry();
    let mut world = World::new();
    let gone = world.spawn(Position { x: 1.0, y: 1.0 });
    world.despawn(gone)?;
    let kept = world.spawn(Position { x: 2.0, y: 2.0 });
    assert_eq!((kept.index(), kept.version()), (0, 2));
    let copy = from_postcard(&registry, &to_postcard(&world, &registry))?;
    assert_eq!(copy.get::<Position>(kept)?, &Position { x: 2.0, y: 2.0 });
    assert_eq!(
        copy.get::<Position>(gone),
        Err(Error::Despawned { entity: gone })
    );
    Ok(())
}

#[test]
fn a_snapshot_is_stable_text_and_reads_back_to_the_same_text() -> Result<(), Error> {
    let registry = registry();
    let world = sample_world();
    let json = to_json(&world, &registry);
    let copy = from_json(&registry, &json)?;
    assert_eq!(to_json(&copy, &registry), json);
    let bytes = to_postcard(&world, &registry);
    assert_eq!(
        to_postcard(&from_postcard(&registry, &bytes)?, &registry),
        bytes
    );
    Ok(())
}

#[test]
fn tracked_components_arrive_added_and_changed() -> Result<(), Error> {
    let registry = registry();
    let mut world = World::new();
    let e = world.spawn(Health(7));
    let mut copy = from_json(&registry, &to_json(&world, &registry))?;
    let added: Vec<Entity> = copy
        .query_filtered::<Entity, Added<Health>>()
        .changed_since(Tick::ZERO)
        .iter()
        .collect();
    assert_eq!(added, [e]);
    assert_eq!(copy.get::<Health>(e)?, &Health(7));
    Ok(())
}

#[test]
fn a_chosen_types_snapshot_holds_only_those_types() -> Result<(), Error> {
    let registry = registry();
    let mut world = sample_world();
    let snapshot = registry
        .snapshot(&world)
        .only(&["game::Position", "game::Frozen"])?;
    let json = serde_json::to_string(&snapshot).unwrap();
    for absent in [
        "game::Name",
        "game::Inventory",
        "game::Health",
        "game::Links",
        "game::Score",
    ] {
        assert!(!json.contains(absent), "{absent} is not chosen: {json}");
    }
    let mut copy = from_json(&registry, &json)?;
    let (original, restored) = (fingerprint(&mut world), fingerprint(&mut copy));
    assert_eq!(restored.alive, original.alive, "every id survives");
    assert_eq!(restored.positions, original.positions);
    assert_eq!(restored.frozen, original.frozen);
    assert!(restored.names.is_empty() && restored.health.is_empty() && restored.score.is_none());
    assert_eq!(next_ids(&mut copy, 4), next_ids(&mut world, 4));

    let only_score = registry.snapshot(&world).only(&["game::Score"])?;
    let copy = from_postcard(&registry, &postcard::to_allocvec(&only_score).unwrap())?;
    assert_eq!(copy.resource::<Score>()?, &Score(1234));
    assert_eq!(
        registry.snapshot(&world).only(&["game::Nope"]).err(),
        Some(Error::UnknownSnapshotName {
            name: "game::Nope".into()
        })
    );
    Ok(())
}

#[test]
fn unregistered_types_are_left_out() -> Result<(), Error> {
    #[derive(Component)]
    struct Secret;
    struct Cache;
    let registry = registry();
    let mut world = World::new();
    let e = world.spawn((Position { x: 0.0, y: 1.0 }, Secret));
    world.insert_resource(Cache);
    let copy = from_json(&registry, &to_json(&world, &registry))?;
    assert!(copy.contains::<Position>(e) && !copy.contains::<Secret>(e));
    assert!(!copy.contains_resource::<Cache>());
    Ok(())
}

/// The name, not the Rust type, is what a snapshot stores: a renamed type
/// registered under the old name reads an old snapshot.
#[test]
fn a_snapshot_survives_a_type_rename() -> Result<(), Error> {
    #[derive(Component, Serialize, Deserialize, Debug, PartialEq)]
    struct Place {
        x: f32,
        y: f32,
    }
    let mut world = World::new();
    let e = world.spawn(Position { x: 3.0, y: 4.0 });
    let bytes = to_postcard(&world, &registry());
    let mut renamed = PersistRegistry::new();
    renamed.register::<Place>("game::Position").snapshot();
    let copy = from_postcard(&renamed, &bytes)?;
    assert_eq!(copy.get::<Place>(e)?, &Place { x: 3.0, y: 4.0 });
    Ok(())
}

#[test]
fn the_registry_refuses_a_name_twice_and_a_type_twice() {
    let mut registry = PersistRegistry::new();
    registry.register::<Position>("game::Position").snapshot();
    let taken = registry
        .try_register::<Name>("game::Position")
        .err()
        .unwrap();
    assert_eq!(
        taken.to_string(),
        "the name `game::Position` is already registered for `Position`: \
         each name stands for one type"
    );
    let twice = registry
        .try_register::<Position>("game::Place")
        .err()
        .unwrap();
    assert_eq!(
        twice.to_string(),
        "`Position` is already registered as `game::Position`: a type is registered once, \
         with every capability it needs, and keeps one name so that snapshots find it again"
    );
    // A resource shares the names of components, but is a kind of its own.
    assert!(
        registry
            .try_register_resource::<Score>("game::Position")
            .is_err()
    );
    registry
        .register_resource::<Position>("game::LastPosition")
        .snapshot();
    assert!(
        registry
            .names()
            .eq(["game::Position", "game::LastPosition"])
    );
}

#[test]
#[should_panic(expected = "the name `game::Position` is already registered")]
fn register_panics_on_a_taken_name() {
    let mut registry = PersistRegistry::new();
    registry.register::<Position>("game::Position").snapshot();
    registry.register::<Name>("game::Position").snapshot();
}

#[test]
#[should_panic(expected = "is already registered as `game::Score`")]
fn register_resource_panics_on_a_type_registered_twice() {
    let mut registry = PersistRegistry::new();
    registry
        .register_resource::<Score>("game::Score")
        .snapshot();
    registry
        .register_resource::<Score>("game::Points")
        .snapshot();
}
