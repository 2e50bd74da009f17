//! heavy_compute for the peer libraries (the `peers` feature).

use super::*;
use bevy_ecs::query::QueryState;
use specs::{Join, ParJoin, WorldExt};

pub(super) fn contenders() -> Vec<Contender> {
    vec![
        Contender::of::<Hecs>("hecs", "query_mut.into_iter_batched(64).par_bridge()"),
        Contender::of::<Bevy>("bevy", "QueryState::par_iter_mut"),
        Contender::of::<Shipyard>("shipyard", "(&mut ViewMut, &mut ViewMut).par_iter()"),
        Contender::of::<Sparsey>("sparsey", "world.par_for_each"),
        Contender::of::<Specs>("specs", "(&mut storage, &mut storage).par_join()"),
        Contender::of::<Legion>("legion", "query.par_for_each_mut"),
    ]
}

struct Hecs(hecs::World);

impl Bench for Hecs {
    fn setup() -> Self {
        let mut world = hecs::World::new();
        world.spawn_batch((0..ENTITIES).map(heavy_entity));
        Self(world)
    }

    fn run(&mut self) {
        self.0
            .query_mut::<(&mut Position, &mut Transform)>()
            .into_iter_batched(64)
            .par_bridge()
            .for_each(|batch| batch.for_each(|(p, t)| step(p, t)));
    }

    fn checksum(&mut self) -> f64 {
        let mut query = self.0.query::<(&Position, &Transform)>();
        state_sum(query.iter())
    }
}

struct Bevy {
    world: bevy_ecs::world::World,
    query: QueryState<(&'static mut Position, &'static mut Transform)>,
}

impl Bench for Bevy {
    fn setup() -> Self {
        bevy_tasks::ComputeTaskPool::get_or_init(bevy_tasks::TaskPool::default);
        let mut world = bevy_ecs::world::World::new();
        world.spawn_batch((0..ENTITIES).map(heavy_entity));
        let query = world.query();
        Self { world, query }
    }

    fn run(&mut self) {
        self.query
            .par_iter_mut(&mut self.world)
            .for_each(|(mut p, mut t)| step(&mut p, &mut t));
    }

    fn checksum(&mut self) -> f64 {
        let mut query = self.world.query::<(&Position, &Transform)>();
        state_sum(query.iter(&self.world))
    }
}

struct Shipyard(shipyard::World);

impl Bench for Shipyard {
    fn setup() -> Self {
        let mut world = shipyard::World::new();
        world.bulk_add_entity((0..ENTITIES).map(heavy_entity));
        Self(world)
    }

    fn run(&mut self) {
        use shipyard::{IntoIter, ViewMut};
        self.0.run(
            |mut positions: ViewMut<Position>, mut transforms: ViewMut<Transform>| {
                (&mut positions, &mut transforms)
                    .par_iter()
                    .for_each(|(p, t)| step(p, t));
            },
        );
    }

    fn checksum(&mut self) -> f64 {
        use shipyard::{IntoIter, View};
        self.0
            .run(|positions: View<Position>, transforms: View<Transform>| {
                state_sum((&positions, &transforms).iter())
            })
    }
}

struct Sparsey(sparsey::World);

impl Bench for Sparsey {
    fn setup() -> Self {
        let mut world = sparsey::World::builder()
            .register::<Transform>()
            .register::<Position>()
            .register::<Rotation>()
            .register::<Velocity>()
            .build();
        world.extend((0..ENTITIES).map(heavy_entity));
        Self(world)
    }

    fn run(&mut self) {
        self.0
            .par_for_each::<(&mut Position, &mut Transform)>(|(p, t)| step(p, t));
    }

    fn checksum(&mut self) -> f64 {
        state_sum(self.0.query_all::<(&Position, &Transform)>().iter())
    }
}

struct Specs(specs::World);

impl Bench for Specs {
    fn setup() -> Self {
        let mut world = specs::World::new();
        world.register::<Transform>();
        world.register::<Position>();
        world.register::<Rotation>();
        world.register::<Velocity>();
        let entities: Vec<_> = world.create_iter().take(ENTITIES).collect();
        {
            let mut transforms = world.write_storage::<Transform>();
            let mut positions = world.write_storage::<Position>();
            let mut rotations = world.write_storage::<Rotation>();
            let mut velocities = world.write_storage::<Velocity>();
            for (i, &e) in entities.iter().enumerate() {
                let (t, p, r, v) = heavy_entity(i);
                transforms.insert(e, t).expect("a fresh entity");
                positions.insert(e, p).expect("a fresh entity");
                rotations.insert(e, r).expect("a fresh entity");
                velocities.insert(e, v).expect("a fresh entity");
            }
        }
        Self(world)
    }

    fn run(&mut self) {
        let mut positions = self.0.write_storage::<Position>();
        let mut transforms = self.0.write_storage::<Transform>();
        (&mut positions, &mut transforms)
            .par_join()
            .for_each(|(p, t)| step(p, t));
    }

    fn checksum(&mut self) -> f64 {
        let positions = self.0.read_storage::<Position>();
        let transforms = self.0.read_storage::<Transform>();
        state_sum((&positions, &transforms).join())
    }
}

struct Legion {
    world: legion::World,
    query: legion::query::Query<(&'static mut Position, &'static mut Transform)>,
}

impl Bench for Legion {
    fn setup() -> Self {
        use legion::IntoQuery;
        let mut world = legion::World::default();
        world.extend((0..ENTITIES).map(heavy_entity));
        Self {
            world,
            query: <(&mut Position, &mut Transform)>::query(),
        }
    }

    fn run(&mut self) {
        self.query
            .par_for_each_mut(&mut self.world, |(p, t)| step(p, t));
    }

    fn checksum(&mut self) -> f64 {
        use legion::IntoQuery;
        state_sum(<(&Position, &Transform)>::query().iter(&self.world))
    }
}
