//! random_get for the peer libraries (the `peers` feature).

use super::*;
use bevy_ecs::query::QueryState;
use specs::WorldExt;

pub(super) fn contenders() -> Vec<Contender> {
    vec![
        Contender::of::<Hecs>("hecs", "world.view::<&Position>().get(e)"),
        Contender::of::<Bevy>("bevy", "QueryState::query(&world).get(e)"),
        Contender::of::<Shipyard>("shipyard", "View::get(e)"),
        Contender::of::<Sparsey>("sparsey", "world.borrow::<Position>().get(e)"),
        Contender::of::<Specs>("specs", "ReadStorage::get(e)"),
        Contender::of::<Legion>("legion", "query.get(&world, e)"),
    ]
}

struct Hecs {
    world: hecs::World,
    picks: Vec<hecs::Entity>,
    sum: u64,
}

impl Bench for Hecs {
    fn setup() -> Self {
        let mut world = hecs::World::new();
        let ids: Vec<_> = world
            .spawn_batch((0..ENTITIES).map(four_components))
            .collect();
        Self {
            world,
            picks: picked_ids(&ids),
            sum: 0,
        }
    }

    fn run(&mut self) {
        let positions = self.world.view::<&Position>();
        self.sum = self
            .picks
            .iter()
            .map(|&e| x(positions.get(e).expect("alive")))
            .sum();
    }

    fn checksum(&mut self) -> f64 {
        self.sum as f64
    }
}

struct Bevy {
    world: bevy_ecs::world::World,
    positions: QueryState<&'static Position>,
    picks: Vec<bevy_ecs::entity::Entity>,
    sum: u64,
}

impl Bench for Bevy {
    fn setup() -> Self {
        let mut world = bevy_ecs::world::World::new();
        let ids: Vec<_> = world
            .spawn_batch((0..ENTITIES).map(four_components))
            .collect();
        Self {
            positions: world.query(),
            world,
            picks: picked_ids(&ids),
            sum: 0,
        }
    }

    fn run(&mut self) {
        let positions = self.positions.query(&self.world);
        self.sum = self
            .picks
            .iter()
            .map(|&e| x(positions.get(e).expect("alive")))
            .sum();
    }

    fn checksum(&mut self) -> f64 {
        self.sum as f64
    }
}

struct Shipyard {
    world: shipyard::World,
    picks: Vec<shipyard::EntityId>,
    sum: u64,
}

impl Bench for Shipyard {
    fn setup() -> Self {
        let mut world = shipyard::World::new();
        let ids: Vec<_> = world
            .bulk_add_entity((0..ENTITIES).map(four_components))
            .collect();
        Self {
            world,
            picks: picked_ids(&ids),
            sum: 0,
        }
    }

    fn run(&mut self) {
        use shipyard::{Get, View};
        let picks = &self.picks;
        self.sum = self.world.run(|positions: View<Position>| {
            picks
                .iter()
                .map(|&e| x((&positions).get(e).expect("alive")))
                .sum()
        });
    }

    fn checksum(&mut self) -> f64 {
        self.sum as f64
    }
}

struct Sparsey {
    world: sparsey::World,
    picks: Vec<sparsey::Entity>,
    sum: u64,
}

impl Bench for Sparsey {
    fn setup() -> Self {
        let mut world = sparsey::World::builder()
            .register::<crate::components::Transform>()
            .register::<Position>()
            .register::<crate::components::Rotation>()
            .register::<crate::components::Velocity>()
            .build();
        let ids = world.extend((0..ENTITIES).map(four_components)).to_vec();
        Self {
            world,
            picks: picked_ids(&ids),
            sum: 0,
        }
    }

    fn run(&mut self) {
        let positions = self.world.borrow::<Position>();
        self.sum = self
            .picks
            .iter()
            .map(|&e| x(positions.get(e).expect("alive")))
            .sum();
    }

    fn checksum(&mut self) -> f64 {
        self.sum as f64
    }
}

struct Specs {
    world: specs::World,
    picks: Vec<specs::Entity>,
    sum: u64,
}

impl Bench for Specs {
    fn setup() -> Self {
        let mut world = specs::World::new();
        world.register::<Position>();
        world.register::<crate::components::Transform>();
        world.register::<crate::components::Rotation>();
        world.register::<crate::components::Velocity>();
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
        Self {
            world,
            picks: picked_ids(&ids),
            sum: 0,
        }
    }

    fn run(&mut self) {
        let positions = self.world.read_storage::<Position>();
        self.sum = self
            .picks
            .iter()
            .map(|&e| x(positions.get(e).expect("alive")))
            .sum();
    }

    fn checksum(&mut self) -> f64 {
        self.sum as f64
    }
}

struct Legion {
    world: legion::World,
    positions: legion::query::Query<&'static Position>,
    picks: Vec<legion::Entity>,
    sum: u64,
}

impl Bench for Legion {
    fn setup() -> Self {
        use legion::IntoQuery;
        let mut world = legion::World::default();
        let ids = world.extend((0..ENTITIES).map(four_components)).to_vec();
        Self {
            world,
            positions: <&Position>::query(),
            picks: picked_ids(&ids),
            sum: 0,
        }
    }

    fn run(&mut self) {
        let (world, positions) = (&self.world, &mut self.positions);
        self.sum = self
            .picks
            .iter()
            .map(|&e| x(positions.get(world, e).expect("alive")))
            .sum();
    }

    fn checksum(&mut self) -> f64 {
        self.sum as f64
    }
}
