//! despawn_churn for the peer libraries (the `peers` feature).

use super::*;
use crate::components::Velocity;
use specs::{Join, WorldExt};

pub(super) fn contenders() -> Vec<Contender> {
    vec![
        Contender::of::<Hecs>("hecs", "world.despawn + world.spawn_batch"),
        Contender::of::<Bevy>("bevy", "world.despawn + world.spawn_batch"),
        Contender::of::<Shipyard>("shipyard", "world.delete_entity + bulk_add_entity"),
        Contender::of::<Sparsey>("sparsey", "world.destroy + world.extend"),
        Contender::of::<Specs>(
            "specs",
            "delete_entities + maintain + create_iter/storage inserts",
        ),
        Contender::of::<Legion>("legion", "world.remove + world.extend"),
    ]
}

struct Hecs {
    world: hecs::World,
    ids: Vec<hecs::Entity>,
}

impl Bench for Hecs {
    fn setup() -> Self {
        let mut world = hecs::World::new();
        let ids = world.spawn_batch((0..ENTITIES).map(moving)).collect();
        Self { world, ids }
    }

    fn run(&mut self) {
        for place in victims() {
            self.world.despawn(self.ids[place]).expect("alive");
        }
        let spawned = self.world.spawn_batch(victims().map(moving));
        for (place, e) in victims().zip(spawned) {
            self.ids[place] = e;
        }
    }

    fn checksum(&mut self) -> f64 {
        position_sum(self.world.query_mut::<&Position>().into_iter())
    }
}

struct Bevy {
    world: bevy_ecs::world::World,
    ids: Vec<bevy_ecs::entity::Entity>,
}

impl Bench for Bevy {
    fn setup() -> Self {
        let mut world = bevy_ecs::world::World::new();
        let ids = world.spawn_batch((0..ENTITIES).map(moving)).collect();
        Self { world, ids }
    }

    fn run(&mut self) {
        for place in victims() {
            assert!(self.world.despawn(self.ids[place]), "alive");
        }
        let spawned = self.world.spawn_batch(victims().map(moving));
        for (place, e) in victims().zip(spawned) {
            self.ids[place] = e;
        }
    }

    fn checksum(&mut self) -> f64 {
        position_sum(self.world.query::<&Position>().iter(&self.world))
    }
}

struct Shipyard {
    world: shipyard::World,
    ids: Vec<shipyard::EntityId>,
}

impl Bench for Shipyard {
    fn setup() -> Self {
        let mut world = shipyard::World::new();
        let ids = world.bulk_add_entity((0..ENTITIES).map(moving)).collect();
        Self { world, ids }
    }

    fn run(&mut self) {
        for place in victims() {
            assert!(self.world.delete_entity(self.ids[place]), "alive");
        }
        let spawned = self.world.bulk_add_entity(victims().map(moving));
        for (place, e) in victims().zip(spawned) {
            self.ids[place] = e;
        }
    }

    fn checksum(&mut self) -> f64 {
        use shipyard::{IntoIter, View};
        self.world
            .run(|positions: View<Position>| position_sum((&positions).iter()))
    }
}

struct Sparsey {
    world: sparsey::World,
    ids: Vec<sparsey::Entity>,
}

impl Bench for Sparsey {
    fn setup() -> Self {
        let mut world = sparsey::World::builder()
            .register::<Position>()
            .register::<Velocity>()
            .build();
        let ids = world.extend((0..ENTITIES).map(moving)).to_vec();
        Self { world, ids }
    }

    fn run(&mut self) {
        for place in victims() {
            assert!(self.world.destroy(self.ids[place]), "alive");
        }
        let spawned = self.world.extend(victims().map(moving));
        for (place, &e) in victims().zip(spawned) {
            self.ids[place] = e;
        }
    }

    fn checksum(&mut self) -> f64 {
        position_sum(self.world.query_all::<&Position>().iter())
    }
}

struct Specs {
    world: specs::World,
    ids: Vec<specs::Entity>,
    victims: Vec<specs::Entity>,
}

/// Gives each new entity the components of its place, one storage borrow per type.
fn specs_fill(world: &specs::World, places: impl Iterator<Item = usize>, new: &[specs::Entity]) {
    let mut positions = world.write_storage::<Position>();
    let mut velocities = world.write_storage::<Velocity>();
    for (place, &e) in places.zip(new) {
        let (p, v) = moving(place);
        positions.insert(e, p).expect("a fresh entity");
        velocities.insert(e, v).expect("a fresh entity");
    }
}

impl Bench for Specs {
    fn setup() -> Self {
        let mut world = specs::World::new();
        world.register::<Position>();
        world.register::<Velocity>();
        let ids: Vec<_> = world.create_iter().take(ENTITIES).collect();
        specs_fill(&world, 0..ENTITIES, &ids);
        Self {
            world,
            ids,
            victims: Vec::new(),
        }
    }

    fn run(&mut self) {
        self.victims.clear();
        self.victims.extend(victims().map(|place| self.ids[place]));
        self.world.delete_entities(&self.victims).expect("alive");
        self.world.maintain();
        let spawned: Vec<_> = self.world.create_iter().take(self.victims.len()).collect();
        specs_fill(&self.world, victims(), &spawned);
        for (place, e) in victims().zip(spawned) {
            self.ids[place] = e;
        }
    }

    fn checksum(&mut self) -> f64 {
        position_sum(self.world.read_storage::<Position>().join())
    }
}

struct Legion {
    world: legion::World,
    ids: Vec<legion::Entity>,
}

impl Bench for Legion {
    fn setup() -> Self {
        let mut world = legion::World::default();
        let ids = world.extend((0..ENTITIES).map(moving)).to_vec();
        Self { world, ids }
    }

    fn run(&mut self) {
        for place in victims() {
            assert!(self.world.remove(self.ids[place]), "alive");
        }
        let spawned = self.world.extend(victims().map(moving));
        for (place, &e) in victims().zip(spawned) {
            self.ids[place] = e;
        }
    }

    fn checksum(&mut self) -> f64 {
        use legion::IntoQuery;
        position_sum(<&Position>::query().iter(&self.world))
    }
}
