//! simple_insert for the peer libraries (the `peers` feature).

use super::*;
use specs::{Builder, Join, WorldExt};

pub(super) fn one_by_one() -> Vec<Contender> {
    vec![
        Contender::of::<Hecs<false>>("hecs", "world.spawn"),
        Contender::of::<Bevy<false>>("bevy", "world.spawn"),
        Contender::of::<Shipyard<false>>("shipyard", "world.add_entity"),
        Contender::of::<Sparsey<false>>("sparsey", "world.create"),
        Contender::of::<Specs<false>>("specs", "create_entity().with(..).build()"),
        Contender::of::<Legion<false>>("legion", "world.push"),
    ]
}

pub(super) fn batch() -> Vec<Contender> {
    vec![
        Contender::of::<Hecs<true>>("hecs", "world.spawn_batch"),
        Contender::of::<Bevy<true>>("bevy", "world.spawn_batch"),
        Contender::of::<Shipyard<true>>("shipyard", "world.bulk_add_entity"),
        Contender::of::<Sparsey<true>>("sparsey", "world.extend"),
        Contender::of::<Specs<true>>("specs", "create_iter + one storage borrow per type"),
        Contender::of::<Legion<true>>("legion", "world.extend"),
    ]
}

struct Hecs<const BATCH: bool>(hecs::World);

impl<const BATCH: bool> Bench for Hecs<BATCH> {
    fn setup() -> Self {
        Self(hecs::World::new())
    }

    fn run(&mut self) {
        let mut world = hecs::World::new();
        if BATCH {
            world.spawn_batch((0..ENTITIES).map(four_components));
        } else {
            for i in 0..ENTITIES {
                world.spawn(four_components(i));
            }
        }
        self.0 = world;
    }

    fn checksum(&mut self) -> f64 {
        let mut query = self
            .0
            .query::<(&Transform, &Position, &Rotation, &Velocity)>();
        position_sum(query.iter().map(|(_, p, _, _)| p))
    }
}

struct Bevy<const BATCH: bool>(bevy_ecs::world::World);

impl<const BATCH: bool> Bench for Bevy<BATCH> {
    fn setup() -> Self {
        Self(bevy_ecs::world::World::new())
    }

    fn run(&mut self) {
        let mut world = bevy_ecs::world::World::new();
        if BATCH {
            world.spawn_batch((0..ENTITIES).map(four_components));
        } else {
            for i in 0..ENTITIES {
                world.spawn(four_components(i));
            }
        }
        self.0 = world;
    }

    fn checksum(&mut self) -> f64 {
        let mut query = self
            .0
            .query::<(&Transform, &Position, &Rotation, &Velocity)>();
        position_sum(query.iter(&self.0).map(|(_, p, _, _)| p))
    }
}

struct Shipyard<const BATCH: bool>(shipyard::World);

impl<const BATCH: bool> Bench for Shipyard<BATCH> {
    fn setup() -> Self {
        Self(shipyard::World::new())
    }

    fn run(&mut self) {
        let mut world = shipyard::World::new();
        if BATCH {
            world.bulk_add_entity((0..ENTITIES).map(four_components));
        } else {
            for i in 0..ENTITIES {
                world.add_entity(four_components(i));
            }
        }
        self.0 = world;
    }

    fn checksum(&mut self) -> f64 {
        use shipyard::{IntoIter, View};
        self.0.run(
            |t: View<Transform>, p: View<Position>, r: View<Rotation>, v: View<Velocity>| {
                position_sum((&t, &p, &r, &v).iter().map(|(_, p, _, _)| p))
            },
        )
    }
}

struct Sparsey<const BATCH: bool>(sparsey::World);

fn sparsey_world() -> sparsey::World {
    sparsey::World::builder()
        .register::<Transform>()
        .register::<Position>()
        .register::<Rotation>()
        .register::<Velocity>()
        .build()
}

impl<const BATCH: bool> Bench for Sparsey<BATCH> {
    fn setup() -> Self {
        Self(sparsey_world())
    }

    fn run(&mut self) {
        let mut world = sparsey_world();
        if BATCH {
            world.extend((0..ENTITIES).map(four_components));
        } else {
            for i in 0..ENTITIES {
                world.create(four_components(i));
            }
        }
        self.0 = world;
    }

    fn checksum(&mut self) -> f64 {
        let mut query = self
            .0
            .query_all::<(&Transform, &Position, &Rotation, &Velocity)>();
        position_sum(query.iter().map(|(_, p, _, _)| p))
    }
}

struct Specs<const BATCH: bool>(specs::World);

fn specs_world() -> specs::World {
    let mut world = specs::World::new();
    world.register::<Transform>();
    world.register::<Position>();
    world.register::<Rotation>();
    world.register::<Velocity>();
    world
}

impl<const BATCH: bool> Bench for Specs<BATCH> {
    fn setup() -> Self {
        Self(specs_world())
    }

    fn run(&mut self) {
        let mut world = specs_world();
        if BATCH {
            let entities: Vec<_> = world.create_iter().take(ENTITIES).collect();
            let mut transforms = world.write_storage::<Transform>();
            let mut positions = world.write_storage::<Position>();
            let mut rotations = world.write_storage::<Rotation>();
            let mut velocities = world.write_storage::<Velocity>();
            for (i, &e) in entities.iter().enumerate() {
                let (t, p, r, v) = four_components(i);
                transforms.insert(e, t).expect("a fresh entity");
                positions.insert(e, p).expect("a fresh entity");
                rotations.insert(e, r).expect("a fresh entity");
                velocities.insert(e, v).expect("a fresh entity");
            }
        } else {
            for i in 0..ENTITIES {
                let (t, p, r, v) = four_components(i);
                world
                    .create_entity()
                    .with(t)
                    .with(p)
                    .with(r)
                    .with(v)
                    .build();
            }
        }
        self.0 = world;
    }

    fn checksum(&mut self) -> f64 {
        let t = self.0.read_storage::<Transform>();
        let p = self.0.read_storage::<Position>();
        let r = self.0.read_storage::<Rotation>();
        let v = self.0.read_storage::<Velocity>();
        position_sum((&t, &p, &r, &v).join().map(|(_, p, _, _)| p))
    }
}

struct Legion<const BATCH: bool>(legion::World);

impl<const BATCH: bool> Bench for Legion<BATCH> {
    fn setup() -> Self {
        Self(legion::World::default())
    }

    fn run(&mut self) {
        let mut world = legion::World::default();
        if BATCH {
            world.extend((0..ENTITIES).map(four_components));
        } else {
            for i in 0..ENTITIES {
                world.push(four_components(i));
            }
        }
        self.0 = world;
    }

    fn checksum(&mut self) -> f64 {
        use legion::IntoQuery;
        let mut query = <(&Transform, &Position, &Rotation, &Velocity)>::query();
        position_sum(query.iter(&self.0).map(|(_, p, _, _)| p))
    }
}
