//! The scenarios of the source articles, as named tests.
//!
//! Seed 003's retired slot needs a crate-private hook to reach the top version,
//! so it lives beside the world: `ecs-core/src/world/tests.rs`.

use ecs_core::prelude::*;

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Position {
    x: f32,
    y: f32,
}

#[derive(Component, Clone, Debug, PartialEq)]
struct Name(String);

#[derive(Component, Debug, PartialEq)]
struct Health(i32);

#[derive(Component, Debug, PartialEq)]
struct Monster;

#[derive(Component, Debug, PartialEq)]
struct Hero;

/// Seed 000: create, check validity, delete, and reuse a deleted id.
#[test]
fn seed_000_create_delete_reuse() {
    let mut world = World::new();
    let entity = world.spawn(());
    assert!(world.is_alive(entity));
    let entity_2 = world.spawn(());
    assert!(world.is_alive(entity_2));
    assert_eq!((entity.index(), entity_2.index()), (0, 1));

    world.despawn(entity).unwrap();
    assert!(!world.is_alive(entity));

    let entity_3 = world.spawn(());
    assert!(world.is_alive(entity_3));
    assert_eq!(entity_3.index(), 0, "the deleted index is reused");
}

/// Seed 000's "zombie entity": a deleted monster's handle stays dead after the
/// hero reuses its index, and never reaches the hero's components.
#[test]
fn seed_000_zombie_entity() {
    let mut world = World::new();
    let monster = world.spawn((Monster, Health(30)));
    world.despawn(monster).unwrap();

    let hero = world.spawn((Hero, Health(100)));
    assert_eq!(
        hero.index(),
        monster.index(),
        "the hero reuses the monster's index"
    );
    assert_ne!(hero, monster);

    assert!(world.is_alive(hero));
    assert!(
        !world.is_alive(monster),
        "the monster came back as a zombie"
    );
    assert_eq!(
        world.get::<Health>(monster),
        Err(Error::Despawned { entity: monster })
    );
    assert!(!world.contains::<Health>(monster));
    assert!(world.insert(monster, Health(1)).is_err());
    assert!(world.remove::<Health>(monster).is_err());
    assert!(world.despawn(monster).is_err());
    assert!(world.entity(monster).is_err());

    // None of that touched the hero.
    assert_eq!(world.get::<Health>(hero), Ok(&Health(100)));
    assert!(world.contains::<Hero>(hero));
    assert_eq!(world.len(), 1);
}

/// Seed 001: plain-data and owning components side by side, and tags that store nothing.
#[test]
fn seed_001_pod_non_pod_and_tag_components() {
    #[derive(Component)]
    struct Script(Box<dyn Fn(i32) -> i32 + Send + Sync>);
    #[derive(Component)]
    struct Inventory(Vec<String>);

    let mut world = World::new();
    let e = world.spawn((
        Position { x: 1.0, y: 2.0 },
        Name("boid".into()),
        Script(Box::new(|x| x * 2)),
        Inventory(vec!["feather".into()]),
        Monster,
    ));
    assert_eq!(
        world.get::<Position>(e).unwrap(),
        &Position { x: 1.0, y: 2.0 }
    );
    assert_eq!(world.get::<Name>(e).unwrap().0, "boid");
    assert_eq!((world.get::<Script>(e).unwrap().0)(21), 42);
    world
        .get_mut::<Inventory>(e)
        .unwrap()
        .0
        .push("stone".into());
    assert_eq!(world.get::<Inventory>(e).unwrap().0, ["feather", "stone"]);
    assert!(world.contains::<Monster>(e));

    let sizes: Vec<_> = world
        .components_of(e)
        .unwrap()
        .map(|c| (c.name().to_owned(), c.size()))
        .collect();
    assert!(sizes.contains(&("Monster".to_owned(), 0)), "{sizes:?}");
    assert!(sizes.contains(&("Position".to_owned(), 8)), "{sizes:?}");
}

/// Seed 002: the id carries its generation in the high 32 bits, tags are
/// data-less components, and deleting an entity removes it from every component.
#[test]
fn seed_002_delete_removes_from_every_component() {
    let mut world = World::new();
    let e = world.spawn((Position { x: 0.0, y: 0.0 }, Name("a".into()), Monster));
    let other = world.spawn((Position { x: 5.0, y: 5.0 }, Monster));
    assert_eq!(e.to_bits() >> 32, 1, "generation in the high half");
    assert_eq!(e.to_bits() & 0xffff_ffff, 0, "index in the low half");

    world.despawn(e).unwrap();
    let reused = world.spawn(());
    assert_eq!(reused.to_bits() >> 32, 2, "generation bumped on reuse");
    assert!(
        !world.contains::<Position>(reused),
        "the new entity inherits nothing"
    );
    assert!(!world.contains::<Name>(reused));
    assert!(!world.contains::<Monster>(reused));
    assert_eq!(world.components_of(reused).unwrap().count(), 0);
    assert_eq!(
        world.get::<Position>(other),
        Ok(&Position { x: 5.0, y: 5.0 })
    );
}

/// Seed 003: several independent managers (worlds) at once; versions start at 1.
#[test]
fn seed_003_several_worlds() {
    let mut level = World::new();
    let mut menu = World::new();
    let a = level.spawn(Name("level".into()));
    let b = menu.spawn(Name("menu".into()));
    assert_eq!((a.version(), b.version()), (1, 1));

    level.despawn(a).unwrap();
    assert!(!level.is_alive(a));
    assert!(
        menu.is_alive(b),
        "despawning in one world leaves the other alone"
    );
    assert_eq!(menu.get::<Name>(b).unwrap().0, "menu");

    let fresh = World::new();
    assert_eq!(fresh.get::<Name>(b), Err(Error::NeverSpawned { entity: b }));

    let worker = std::thread::spawn(move || {
        let e = level.spawn(Name("built on another thread".into()));
        (level, e)
    });
    let (level, e) = worker.join().unwrap();
    assert_eq!(level.get::<Name>(e).unwrap().0, "built on another thread");
}

/// Seed 003: handles report their validity, and a destroyed handle is
/// distinguishable from one that never existed.
#[test]
fn seed_003_handles_report_validity() {
    let mut world = World::new();
    let e = world.spawn(());
    let made_up = Entity::from_bits((1 << 32) | 999).unwrap();
    let future = Entity::from_bits((7 << 32) | u64::from(e.index())).unwrap();
    assert!(world.is_alive(e));
    assert!(!world.is_alive(made_up));
    assert_eq!(
        world.entity(made_up).err().unwrap().to_string(),
        "entity 999v1 was never spawned in this world"
    );
    assert_eq!(
        world.entity(future).err().unwrap().to_string(),
        "entity 0v7 was never spawned in this world"
    );
    world.despawn(e).unwrap();
    assert_eq!(
        world.entity(e).err().unwrap().to_string(),
        "entity 0v1 was despawned"
    );
}

/// Seed 004: add / remove / contains on entities, iterating one entity's
/// components, and a clear error for an entity that does not exist.
#[test]
fn seed_004_errors_for_destroyed_entity() {
    let mut world = World::new();
    let e = world.spawn(Name("crate".into()));
    world.insert(e, Health(5)).unwrap();
    assert!(world.contains::<Health>(e));
    let names: Vec<_> = world
        .components_of(e)
        .unwrap()
        .map(|c| c.name().to_owned())
        .collect();
    assert_eq!(names, ["Name", "Health"]);
    assert_eq!(world.remove::<Health>(e), Ok(Health(5)));
    assert!(!world.contains::<Health>(e));

    world.despawn(e).unwrap();
    let gone = Error::Despawned { entity: e };
    assert_eq!(world.insert(e, Health(1)), Err(gone.clone()));
    assert_eq!(
        world.insert_bundle(e, (Health(1), Monster)),
        Err(gone.clone())
    );
    assert_eq!(world.remove::<Name>(e), Err(gone.clone()));
    assert_eq!(world.get::<Name>(e), Err(gone.clone()));
    assert_eq!(world.get_mut::<Name>(e), Err(gone.clone()));
    assert_eq!(world.despawn(e), Err(gone.clone()));
    assert_eq!(world.components_of(e).err(), Some(gone.clone()));
    assert!(!world.contains::<Name>(e));
    assert_eq!(gone.to_string(), "entity 0v1 was despawned");
    assert!(world.is_empty());
}
