//! rollback: one frame's save and restore of a world of 10,000 entities with
//! three plain-data components (Position, Rotation, Velocity), as a rollback
//! session does it every frame, beside copying the same three columns out and
//! back with `copy_from_slice` (`ideal`: two `memcpy` per column).

use ecs_core::prelude::*;

use crate::components::{Position, Rotation, Velocity};
use crate::harness::{Bench, Contender, Workload};

/// Entities in the world.
pub const ENTITIES: usize = 10_000;

/// The workload.
pub fn workload() -> Workload {
    Workload {
        name: "rollback",
        summary: "save then restore 10,000 entities x 3 plain-data components",
        items: None,
        contenders: || {
            vec![
                Contender::of::<Ideal>("ideal", "copy_from_slice out and back, per column"),
                Contender::of::<Ours>(
                    "ours",
                    "rollback.save_into(&world, &mut state) + rollback.restore(&mut world, &state)",
                ),
                Contender::of::<OursFresh>(
                    "ours_fresh_state",
                    "rollback.save(&world) + rollback.restore: a new state every frame",
                ),
            ]
        },
    }
}

fn three_components(i: usize) -> (Position, Rotation, Velocity) {
    let f = i as f32;
    (Position([f; 3]), Rotation([f; 3]), Velocity([1.0; 3]))
}

/// The checksum: the sum of the x positions of every entity.
fn position_sum<'a>(positions: impl Iterator<Item = &'a Position>) -> f64 {
    positions.map(|p| f64::from(p.0[0])).sum()
}

/// The three columns and their saved copies.
struct Ideal {
    columns: (Vec<Position>, Vec<Rotation>, Vec<Velocity>),
    saved: (Vec<Position>, Vec<Rotation>, Vec<Velocity>),
}

impl Bench for Ideal {
    fn setup() -> Self {
        let mut columns = (Vec::new(), Vec::new(), Vec::new());
        for (p, r, v) in (0..ENTITIES).map(three_components) {
            columns.0.push(p);
            columns.1.push(r);
            columns.2.push(v);
        }
        let saved = columns.clone();
        Self { columns, saved }
    }

    fn run(&mut self) {
        self.saved.0.copy_from_slice(&self.columns.0);
        self.saved.1.copy_from_slice(&self.columns.1);
        self.saved.2.copy_from_slice(&self.columns.2);
        std::hint::black_box(&mut self.saved);
        self.columns.0.copy_from_slice(&self.saved.0);
        self.columns.1.copy_from_slice(&self.saved.1);
        self.columns.2.copy_from_slice(&self.saved.2);
    }

    fn checksum(&mut self) -> f64 {
        position_sum(self.columns.0.iter())
    }
}

fn registry() -> PersistRegistry {
    let mut rollback = PersistRegistry::new();
    rollback.register::<Position>("bench::Position").rollback();
    rollback.register::<Rotation>("bench::Rotation").rollback();
    rollback.register::<Velocity>("bench::Velocity").rollback();
    rollback
}

fn world() -> World {
    let mut world = World::new();
    world.spawn_batch((0..ENTITIES).map(three_components));
    world
}

fn world_position_sum(world: &mut World) -> f64 {
    position_sum(world.query::<&Position>().iter())
}

/// Saves over one state, kept between frames.
struct Ours {
    world: World,
    rollback: PersistRegistry,
    state: WorldState,
}

impl Bench for Ours {
    fn setup() -> Self {
        let world = world();
        let rollback = registry();
        let state = rollback.save(&world);
        Self {
            world,
            rollback,
            state,
        }
    }

    fn run(&mut self) {
        self.rollback.save_into(&self.world, &mut self.state);
        std::hint::black_box(&mut self.state);
        self.rollback
            .restore(&mut self.world, &self.state)
            .expect("the state was saved by this registry");
    }

    fn checksum(&mut self) -> f64 {
        world_position_sum(&mut self.world)
    }
}

/// A new state per frame, as `GameStateCell::save` takes one.
struct OursFresh {
    world: World,
    rollback: PersistRegistry,
}

impl Bench for OursFresh {
    fn setup() -> Self {
        Self {
            world: world(),
            rollback: registry(),
        }
    }

    fn run(&mut self) {
        let state = std::hint::black_box(self.rollback.save(&self.world));
        self.rollback
            .restore(&mut self.world, &state)
            .expect("the state was saved by this registry");
    }

    fn checksum(&mut self) -> f64 {
        world_position_sum(&mut self.world)
    }
}
