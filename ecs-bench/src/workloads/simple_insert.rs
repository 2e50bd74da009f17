//! simple_insert: build a world of 10,000 entities with Transform, Position,
//! Rotation and Velocity, one spawn per entity ([`one_by_one`]) or with each
//! library's batch spawn ([`batch`]). Creating and dropping the world is part of a run.

use crate::components::{Position, Rotation, Transform, Velocity, four_components};
use crate::harness::{Bench, Contender, Workload};

/// Entities spawned per run.
pub const ENTITIES: usize = 10_000;

/// simple_insert with one spawn call per entity.
pub fn one_by_one() -> Workload {
    Workload {
        name: "simple_insert",
        summary: "a new world, then 10,000 entities with 4 components (100 bytes), one spawn each",
        items: None,
        contenders: || {
            let list = vec![
                Contender::of::<Ideal<false>>("ideal", "Vec::push into 4 Vecs"),
                Contender::of::<Ours<false>>("ours", "world.spawn"),
            ];
            #[cfg(feature = "peers")]
            let list = [list, peers::one_by_one()].concat();
            list
        },
    }
}

/// simple_insert with each library's batch spawn.
pub fn batch() -> Workload {
    Workload {
        name: "simple_insert_batch",
        summary: "a new world, then 10,000 entities with 4 components through the batch spawn",
        items: None,
        contenders: || {
            let list = vec![
                Contender::of::<Ideal<true>>("ideal", "Vec::with_capacity + extend"),
                Contender::of::<Ours<true>>("ours", "world.spawn_batch"),
            ];
            #[cfg(feature = "peers")]
            let list = [list, peers::batch()].concat();
            list
        },
    }
}

/// The checksum every library reports: the sum of the x positions of the
/// entities that hold all four components.
fn position_sum<'a>(positions: impl Iterator<Item = &'a Position>) -> f64 {
    positions.map(|p| f64::from(p.0[0])).sum()
}

/// Four plain vectors, one per component.
#[derive(Default)]
struct Ideal<const BATCH: bool> {
    transforms: Vec<Transform>,
    positions: Vec<Position>,
    rotations: Vec<Rotation>,
    velocities: Vec<Velocity>,
}

impl<const BATCH: bool> Bench for Ideal<BATCH> {
    fn setup() -> Self {
        Self::default()
    }

    fn run(&mut self) {
        let mut next = Self::default();
        if BATCH {
            next.transforms.reserve_exact(ENTITIES);
            next.positions.reserve_exact(ENTITIES);
            next.rotations.reserve_exact(ENTITIES);
            next.velocities.reserve_exact(ENTITIES);
        }
        for (t, p, r, v) in (0..ENTITIES).map(four_components) {
            next.transforms.push(t);
            next.positions.push(p);
            next.rotations.push(r);
            next.velocities.push(v);
        }
        *self = next;
    }

    fn checksum(&mut self) -> f64 {
        assert_eq!(self.transforms.len(), self.velocities.len());
        position_sum(self.positions.iter())
    }
}

/// Ours: `spawn` per entity, or `spawn_batch`.
struct Ours<const BATCH: bool>(ecs_core::World);

impl<const BATCH: bool> Bench for Ours<BATCH> {
    fn setup() -> Self {
        Self(ecs_core::World::new())
    }

    fn run(&mut self) {
        let mut world = ecs_core::World::new();
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
        let query = self
            .0
            .query_ref::<(&Transform, &Position, &Rotation, &Velocity)>();
        position_sum(query.iter().map(|(_, p, _, _)| p))
    }
}

#[cfg(feature = "peers")]
mod peers;
