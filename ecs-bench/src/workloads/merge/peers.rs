//! merge in the other libraries. Of the six, only legion moves a whole world
//! into another (`World::move_from`); the rest have no merge, and their rows
//! are absent rather than emulated by spawning.

use super::{ENTITIES, position_sum};
use crate::components::{Position, Rotation, Transform, Velocity, four_components};
use crate::harness::{Bench, Contender};

pub(super) fn contenders() -> Vec<Contender> {
    vec![Contender::of::<Legion>(
        "legion",
        "world.move_from(staging, any())",
    )]
}

struct Legion {
    world: legion::World,
    staging: legion::World,
    arrived: Vec<legion::Entity>,
}

impl Bench for Legion {
    const PREPARES: bool = true;

    fn setup() -> Self {
        let mut world = legion::World::default();
        world.extend((0..ENTITIES).map(four_components));
        Self {
            world,
            staging: legion::World::default(),
            arrived: Vec::new(),
        }
    }

    fn prepare(&mut self) {
        for entity in self.arrived.drain(..) {
            assert!(self.world.remove(entity), "arrived last run");
        }
        self.staging = legion::World::default();
        // legion's ids are unique across worlds, so they survive the move.
        self.arrived = self
            .staging
            .extend((0..ENTITIES).map(four_components))
            .to_vec();
    }

    fn run(&mut self) {
        self.world
            .move_from(&mut self.staging, &legion::query::any());
    }

    fn checksum(&mut self) -> f64 {
        use legion::IntoQuery;
        let mut query = <(&Transform, &Position, &Rotation, &Velocity)>::query();
        position_sum(query.iter(&self.world).map(|(_, p, _, _)| p))
    }
}
