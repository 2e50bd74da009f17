//! memory for the peer libraries (the `peers` feature).

use super::*;
use specs::WorldExt;

pub(super) fn contenders() -> Vec<MemoryContender> {
    let contender = |name, path, build| MemoryContender {
        name,
        path,
        build,
        structures: None,
    };
    vec![
        contender("hecs", "world.spawn_batch", hecs),
        contender("bevy", "world.spawn_batch", bevy),
        contender("shipyard", "world.bulk_add_entity", shipyard),
        contender("sparsey", "world.extend", sparsey),
        contender("specs", "create_iter + storage inserts (VecStorage)", specs),
        contender("legion", "world.extend", legion),
    ]
}

fn hecs() -> Box<dyn Any> {
    let mut world = hecs::World::new();
    world.spawn_batch((0..ENTITIES).map(four_components));
    assert_eq!(world.len() as usize, ENTITIES);
    Box::new(world)
}

fn bevy() -> Box<dyn Any> {
    let mut world = bevy_ecs::world::World::new();
    world.spawn_batch((0..ENTITIES).map(four_components));
    assert_eq!(world.query::<&Position>().iter(&world).count(), ENTITIES);
    Box::new(world)
}

fn shipyard() -> Box<dyn Any> {
    let mut world = shipyard::World::new();
    let count = world
        .bulk_add_entity((0..ENTITIES).map(four_components))
        .count();
    assert_eq!(count, ENTITIES);
    Box::new(world)
}

fn sparsey() -> Box<dyn Any> {
    let mut world = sparsey::World::builder()
        .register::<Transform>()
        .register::<Position>()
        .register::<Rotation>()
        .register::<Velocity>()
        .build();
    world.extend((0..ENTITIES).map(four_components));
    assert_eq!(world.entities().len(), ENTITIES);
    Box::new(world)
}

fn specs() -> Box<dyn Any> {
    let mut world = specs::World::new();
    world.register::<Transform>();
    world.register::<Position>();
    world.register::<Rotation>();
    world.register::<Velocity>();
    let ids: Vec<_> = world.create_iter().take(ENTITIES).collect();
    {
        let mut t = world.write_storage();
        let mut p = world.write_storage();
        let mut r = world.write_storage();
        let mut v = world.write_storage();
        for (i, &e) in ids.iter().enumerate() {
            let components = four_components(i);
            t.insert(e, components.0).expect("a fresh entity");
            p.insert(e, components.1).expect("a fresh entity");
            r.insert(e, components.2).expect("a fresh entity");
            v.insert(e, components.3).expect("a fresh entity");
        }
    }
    drop(ids);
    Box::new(world)
}

fn legion() -> Box<dyn Any> {
    let mut world = legion::World::default();
    world.extend((0..ENTITIES).map(four_components));
    assert_eq!(world.len(), ENTITIES);
    Box::new(world)
}
