//! frag_iter for the peer libraries (the `peers` feature).

use super::*;
use crate::components::for_each_frag_type;
use bevy_ecs::query::QueryState;
use specs::{Builder, Join, WorldExt};

pub(super) fn contenders() -> Vec<Contender> {
    vec![
        Contender::of::<Hecs>("hecs", "query_mut"),
        Contender::of::<Bevy>("bevy", "QueryState::iter_mut"),
        Contender::of::<Shipyard>("shipyard", "(&mut ViewMut).iter()"),
        Contender::of::<Sparsey>("sparsey", "world.for_each"),
        Contender::of::<Specs>("specs", "(&mut storage).join()"),
        Contender::of::<Legion>("legion", "query.for_each_mut"),
    ]
}

struct Hecs(hecs::World);

impl Bench for Hecs {
    fn setup() -> Self {
        let mut world = hecs::World::new();
        macro_rules! spawn {
            ($world:ident ; $ty:path) => {
                $world.spawn_batch((0..FRAG_ENTITIES_PER_TYPE).map(|_| ($ty(0.0), Data(1.0))));
            };
        }
        for_each_frag_type!(spawn!(world));
        Self(world)
    }

    fn run(&mut self) {
        self.0.query_mut::<&mut Data>().into_iter().for_each(double);
    }

    fn checksum(&mut self) -> f64 {
        data_sum(self.0.query_mut::<&Data>().into_iter())
    }
}

struct Bevy {
    world: bevy_ecs::world::World,
    data: QueryState<&'static mut Data>,
}

impl Bench for Bevy {
    fn setup() -> Self {
        let mut world = bevy_ecs::world::World::new();
        macro_rules! spawn {
            ($world:ident ; $ty:path) => {
                $world.spawn_batch((0..FRAG_ENTITIES_PER_TYPE).map(|_| ($ty(0.0), Data(1.0))));
            };
        }
        for_each_frag_type!(spawn!(world));
        let data = world.query();
        Self { world, data }
    }

    fn run(&mut self) {
        self.data
            .iter_mut(&mut self.world)
            .for_each(|mut d| double(&mut d));
    }

    fn checksum(&mut self) -> f64 {
        data_sum(self.world.query::<&Data>().iter(&self.world))
    }
}

struct Shipyard(shipyard::World);

impl Bench for Shipyard {
    fn setup() -> Self {
        let mut world = shipyard::World::new();
        macro_rules! spawn {
            ($world:ident ; $ty:path) => {
                $world.bulk_add_entity((0..FRAG_ENTITIES_PER_TYPE).map(|_| ($ty(0.0), Data(1.0))));
            };
        }
        for_each_frag_type!(spawn!(world));
        Self(world)
    }

    fn run(&mut self) {
        use shipyard::{IntoIter, ViewMut};
        self.0
            .run(|mut data: ViewMut<Data>| (&mut data).iter().for_each(double));
    }

    fn checksum(&mut self) -> f64 {
        use shipyard::{IntoIter, View};
        self.0.run(|data: View<Data>| data_sum((&data).iter()))
    }
}

struct Sparsey(sparsey::World);

impl Bench for Sparsey {
    fn setup() -> Self {
        let mut builder = sparsey::World::builder();
        macro_rules! register {
            ($builder:ident ; $ty:path) => {
                $builder.register::<$ty>();
            };
        }
        for_each_frag_type!(register!(builder));
        let mut world = builder.register::<Data>().build();
        macro_rules! spawn {
            ($world:ident ; $ty:path) => {
                $world.extend((0..FRAG_ENTITIES_PER_TYPE).map(|_| ($ty(0.0), Data(1.0))));
            };
        }
        for_each_frag_type!(spawn!(world));
        Self(world)
    }

    fn run(&mut self) {
        self.0.for_each::<&mut Data>(double);
    }

    fn checksum(&mut self) -> f64 {
        data_sum(self.0.query_all::<&Data>().iter())
    }
}

struct Specs(specs::World);

impl Bench for Specs {
    fn setup() -> Self {
        let mut world = specs::World::new();
        world.register::<Data>();
        macro_rules! spawn {
            ($world:ident ; $ty:path) => {
                $world.register::<$ty>();
                for _ in 0..FRAG_ENTITIES_PER_TYPE {
                    $world
                        .create_entity()
                        .with($ty(0.0))
                        .with(Data(1.0))
                        .build();
                }
            };
        }
        for_each_frag_type!(spawn!(world));
        Self(world)
    }

    fn run(&mut self) {
        (&mut self.0.write_storage::<Data>())
            .join()
            .for_each(double);
    }

    fn checksum(&mut self) -> f64 {
        data_sum((&self.0.read_storage::<Data>()).join())
    }
}

struct Legion {
    world: legion::World,
    data: legion::query::Query<&'static mut Data>,
}

impl Bench for Legion {
    fn setup() -> Self {
        use legion::IntoQuery;
        let mut world = legion::World::default();
        macro_rules! spawn {
            ($world:ident ; $ty:path) => {
                $world.extend((0..FRAG_ENTITIES_PER_TYPE).map(|_| ($ty(0.0), Data(1.0))));
            };
        }
        for_each_frag_type!(spawn!(world));
        Self {
            world,
            data: <&mut Data>::query(),
        }
    }

    fn run(&mut self) {
        self.data.for_each_mut(&mut self.world, double);
    }

    fn checksum(&mut self) -> f64 {
        use legion::IntoQuery;
        data_sum(<&Data>::query().iter(&self.world))
    }
}
