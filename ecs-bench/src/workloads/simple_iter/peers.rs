//! simple_iter for the peer libraries (the `peers` feature).

use super::*;
use bevy_ecs::query::QueryState;
use specs::{Join, WorldExt};

pub(super) fn contenders<const N: usize, const FULL: bool>() -> Vec<Contender> {
    vec![
        Contender::of::<Hecs<N, FULL>>("hecs", "query_mut"),
        Contender::of::<Bevy<N, FULL, false>>("bevy", "QueryState::iter_mut"),
        Contender::of::<Bevy<N, FULL, true>>(
            "bevy_contiguous",
            "QueryState::contiguous_iter_mut (table slices)",
        ),
        Contender::of::<Shipyard<N, FULL>>("shipyard", "(&mut ViewMut, &View).iter()"),
        Contender::of::<Sparsey<N, FULL, false>>("sparsey", "world.for_each"),
        Contender::of::<Sparsey<N, FULL, true>>(
            "sparsey_grouped",
            "group (Position, Velocity) + world.for_each",
        ),
        Contender::of::<Specs<N, FULL>>("specs", "(&mut storage, &storage).join()"),
        Contender::of::<Legion<N, FULL>>("legion", "query.for_each_mut"),
    ]
}

struct Hecs<const N: usize, const FULL: bool>(hecs::World);

impl<const N: usize, const FULL: bool> Bench for Hecs<N, FULL> {
    fn setup() -> Self {
        let mut world = hecs::World::new();
        if FULL {
            world.spawn_batch((0..N).map(four_components));
        } else {
            world.spawn_batch((0..N).map(moving));
        }
        Self(world)
    }

    fn run(&mut self) {
        self.0
            .query_mut::<(&mut Position, &Velocity)>()
            .into_iter()
            .for_each(|(p, v)| step(p, v));
    }

    fn checksum(&mut self) -> f64 {
        position_sum(self.0.query_mut::<&Position>().into_iter())
    }
}

struct Bevy<const N: usize, const FULL: bool, const CONTIGUOUS: bool> {
    world: bevy_ecs::world::World,
    movers: QueryState<(&'static mut Position, &'static Velocity)>,
}

impl<const N: usize, const FULL: bool, const CONTIGUOUS: bool> Bench for Bevy<N, FULL, CONTIGUOUS> {
    fn setup() -> Self {
        let mut world = bevy_ecs::world::World::new();
        if FULL {
            world.spawn_batch((0..N).map(four_components));
        } else {
            world.spawn_batch((0..N).map(moving));
        }
        let movers = world.query();
        Self { world, movers }
    }

    fn run(&mut self) {
        if CONTIGUOUS {
            let tables = self
                .movers
                .contiguous_iter_mut(&mut self.world)
                .expect("table components are dense");
            for (mut positions, velocities) in tables {
                for (p, v) in positions.iter_mut().zip(velocities) {
                    step(p, v);
                }
            }
        } else {
            self.movers
                .iter_mut(&mut self.world)
                .for_each(|(mut p, v)| step(&mut p, v));
        }
    }

    fn checksum(&mut self) -> f64 {
        position_sum(self.world.query::<&Position>().iter(&self.world))
    }
}

struct Shipyard<const N: usize, const FULL: bool>(shipyard::World);

impl<const N: usize, const FULL: bool> Bench for Shipyard<N, FULL> {
    fn setup() -> Self {
        let mut world = shipyard::World::new();
        if FULL {
            world.bulk_add_entity((0..N).map(four_components));
        } else {
            world.bulk_add_entity((0..N).map(moving));
        }
        Self(world)
    }

    fn run(&mut self) {
        use shipyard::{IntoIter, View, ViewMut};
        self.0.run(
            |mut positions: ViewMut<Position>, velocities: View<Velocity>| {
                (&mut positions, &velocities)
                    .iter()
                    .for_each(|(p, v)| step(p, v));
            },
        );
    }

    fn checksum(&mut self) -> f64 {
        use shipyard::{IntoIter, View};
        self.0
            .run(|positions: View<Position>| position_sum((&positions).iter()))
    }
}

struct Sparsey<const N: usize, const FULL: bool, const GROUPED: bool>(sparsey::World);

impl<const N: usize, const FULL: bool, const GROUPED: bool> Bench for Sparsey<N, FULL, GROUPED> {
    fn setup() -> Self {
        let mut builder = sparsey::World::builder();
        if GROUPED {
            builder.add_group::<(Position, Velocity)>();
        }
        let mut world = builder
            .register::<crate::components::Transform>()
            .register::<Position>()
            .register::<crate::components::Rotation>()
            .register::<Velocity>()
            .build();
        if FULL {
            world.extend((0..N).map(four_components));
        } else {
            world.extend((0..N).map(moving));
        }
        Self(world)
    }

    fn run(&mut self) {
        self.0
            .for_each::<(&mut Position, &Velocity)>(|(p, v)| step(p, v));
    }

    fn checksum(&mut self) -> f64 {
        position_sum(self.0.query_all::<&Position>().iter())
    }
}

struct Specs<const N: usize, const FULL: bool>(specs::World);

impl<const N: usize, const FULL: bool> Bench for Specs<N, FULL> {
    fn setup() -> Self {
        let mut world = specs::World::new();
        world.register::<crate::components::Transform>();
        world.register::<Position>();
        world.register::<crate::components::Rotation>();
        world.register::<Velocity>();
        let entities: Vec<_> = world.create_iter().take(N).collect();
        {
            let mut positions = world.write_storage::<Position>();
            let mut velocities = world.write_storage::<Velocity>();
            let mut transforms = world.write_storage::<crate::components::Transform>();
            let mut rotations = world.write_storage::<crate::components::Rotation>();
            for (i, &e) in entities.iter().enumerate() {
                let (t, p, r, v) = four_components(i);
                positions.insert(e, p).expect("a fresh entity");
                velocities.insert(e, v).expect("a fresh entity");
                if FULL {
                    transforms.insert(e, t).expect("a fresh entity");
                    rotations.insert(e, r).expect("a fresh entity");
                }
            }
        }
        Self(world)
    }

    fn run(&mut self) {
        let mut positions = self.0.write_storage::<Position>();
        let velocities = self.0.read_storage::<Velocity>();
        (&mut positions, &velocities)
            .join()
            .for_each(|(p, v)| step(p, v));
    }

    fn checksum(&mut self) -> f64 {
        position_sum((&self.0.read_storage::<Position>()).join())
    }
}

struct Legion<const N: usize, const FULL: bool> {
    world: legion::World,
    movers: legion::query::Query<(&'static mut Position, &'static Velocity)>,
}

impl<const N: usize, const FULL: bool> Bench for Legion<N, FULL> {
    fn setup() -> Self {
        use legion::IntoQuery;
        let mut world = legion::World::default();
        if FULL {
            world.extend((0..N).map(four_components));
        } else {
            world.extend((0..N).map(moving));
        }
        let movers = <(&mut Position, &Velocity)>::query();
        Self { world, movers }
    }

    fn run(&mut self) {
        self.movers
            .for_each_mut(&mut self.world, |(p, v)| step(p, v));
    }

    fn checksum(&mut self) -> f64 {
        use legion::IntoQuery;
        position_sum(<&Position>::query().iter(&self.world))
    }
}
