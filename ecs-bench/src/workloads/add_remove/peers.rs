//! add_remove for the peer libraries (the `peers` feature).

use super::*;
use specs::{Join, WorldExt};

pub(super) fn contenders() -> Vec<Contender> {
    vec![
        Contender::of::<Hecs>("hecs", "insert_one / remove_one"),
        Contender::of::<Bevy>("bevy", "entity_mut(e).insert / .remove"),
        Contender::of::<Shipyard>("shipyard", "ViewMut::add_component_unchecked / delete"),
        Contender::of::<Sparsey>("sparsey", "world.insert / world.delete"),
        Contender::of::<Specs>("specs", "storage.insert / storage.remove"),
        Contender::of::<Legion>("legion", "entry.add_component / remove_component"),
    ]
}

struct Hecs {
    world: hecs::World,
    ids: Vec<hecs::Entity>,
}

impl Bench for Hecs {
    fn setup() -> Self {
        let mut world = hecs::World::new();
        let ids = world
            .spawn_batch((0..ENTITIES).map(|i| (position(i),)))
            .collect();
        Self { world, ids }
    }

    fn run(&mut self) {
        for &e in &self.ids {
            self.world.insert_one(e, Extra(1.0)).expect("alive");
        }
        for &e in &self.ids {
            black_box(self.world.remove_one::<Extra>(e).expect("just added"));
        }
    }

    fn checksum(&mut self) -> f64 {
        census(
            self.world.query_mut::<&Position>().into_iter().count(),
            self.world.query_mut::<&Extra>().into_iter().count(),
        )
    }
}

struct Bevy {
    world: bevy_ecs::world::World,
    ids: Vec<bevy_ecs::entity::Entity>,
}

impl Bench for Bevy {
    fn setup() -> Self {
        let mut world = bevy_ecs::world::World::new();
        let ids = world.spawn_batch((0..ENTITIES).map(position)).collect();
        Self { world, ids }
    }

    fn run(&mut self) {
        for &e in &self.ids {
            self.world.entity_mut(e).insert(Extra(1.0));
        }
        for &e in &self.ids {
            self.world.entity_mut(e).remove::<Extra>();
        }
    }

    fn checksum(&mut self) -> f64 {
        census(
            self.world.query::<&Position>().iter(&self.world).count(),
            self.world.query::<&Extra>().iter(&self.world).count(),
        )
    }
}

struct Shipyard {
    world: shipyard::World,
    ids: Vec<shipyard::EntityId>,
}

impl Bench for Shipyard {
    fn setup() -> Self {
        let mut world = shipyard::World::new();
        let ids = world
            .bulk_add_entity((0..ENTITIES).map(|i| (position(i),)))
            .collect();
        Self { world, ids }
    }

    fn run(&mut self) {
        use shipyard::{AddComponent, Delete, ViewMut};
        let ids = &self.ids;
        self.world.run(|mut extras: ViewMut<Extra>| {
            for &e in ids {
                extras.add_component_unchecked(e, Extra(1.0));
            }
            for &e in ids {
                assert!(extras.delete(e), "just added");
            }
        });
    }

    fn checksum(&mut self) -> f64 {
        use shipyard::{IntoIter, View};
        self.world
            .run(|positions: View<Position>, extras: View<Extra>| {
                census((&positions).iter().count(), (&extras).iter().count())
            })
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
            .register::<Extra>()
            .build();
        let ids = world.extend((0..ENTITIES).map(|i| (position(i),))).to_vec();
        Self { world, ids }
    }

    fn run(&mut self) {
        for &e in &self.ids {
            assert!(self.world.insert(e, (Extra(1.0),)), "alive");
        }
        for &e in &self.ids {
            self.world.delete::<(Extra,)>(e);
        }
    }

    fn checksum(&mut self) -> f64 {
        census(
            self.world.query_all::<&Position>().iter().count(),
            self.world.query_all::<&Extra>().iter().count(),
        )
    }
}

struct Specs {
    world: specs::World,
    ids: Vec<specs::Entity>,
}

impl Bench for Specs {
    fn setup() -> Self {
        let mut world = specs::World::new();
        world.register::<Position>();
        world.register::<Extra>();
        let ids: Vec<_> = world.create_iter().take(ENTITIES).collect();
        {
            let mut positions = world.write_storage::<Position>();
            for (i, &e) in ids.iter().enumerate() {
                positions.insert(e, position(i)).expect("a fresh entity");
            }
        }
        Self { world, ids }
    }

    fn run(&mut self) {
        let mut extras = self.world.write_storage::<Extra>();
        for &e in &self.ids {
            extras.insert(e, Extra(1.0)).expect("alive");
        }
        for &e in &self.ids {
            black_box(extras.remove(e).expect("just added"));
        }
    }

    fn checksum(&mut self) -> f64 {
        census(
            self.world.read_storage::<Position>().join().count(),
            self.world.read_storage::<Extra>().join().count(),
        )
    }
}

struct Legion {
    world: legion::World,
    ids: Vec<legion::Entity>,
}

impl Bench for Legion {
    fn setup() -> Self {
        let mut world = legion::World::default();
        let ids = world.extend((0..ENTITIES).map(|i| (position(i),))).to_vec();
        Self { world, ids }
    }

    fn run(&mut self) {
        for &e in &self.ids {
            self.world
                .entry(e)
                .expect("alive")
                .add_component(Extra(1.0));
        }
        for &e in &self.ids {
            self.world
                .entry(e)
                .expect("alive")
                .remove_component::<Extra>();
        }
    }

    fn checksum(&mut self) -> f64 {
        use legion::IntoQuery;
        census(
            <&Position>::query().iter(&self.world).count(),
            <&Extra>::query().iter(&self.world).count(),
        )
    }
}
