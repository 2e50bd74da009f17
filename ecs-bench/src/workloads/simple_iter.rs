//! simple_iter: `position += velocity` over 10,000 entities that hold Transform,
//! Position, Rotation and Velocity.
//!
//! The implementations take the entity count `N` and whether the entities carry
//! all four components (`FULL`) or only Position and Velocity, so big_iter runs
//! the same code at 1,000,000.

use crate::components::{Position, Velocity, four_components, moving};
use crate::harness::{Bench, Contender, Workload};

/// Entities in simple_iter's world.
pub const ENTITIES: usize = 10_000;

/// The simple_iter workload.
pub fn workload() -> Workload {
    Workload {
        name: "simple_iter",
        summary: "position += velocity over 10,000 entities with 4 components",
        items: None,
        contenders: contenders::<ENTITIES, true>,
    }
}

/// Every library's contenders at `N` entities, with four components or two.
pub(crate) fn contenders<const N: usize, const FULL: bool>() -> Vec<Contender> {
    let list = vec![
        Contender::of::<Ideal<N>>("ideal", "two Vecs, zipped"),
        Contender::of::<Ours<N, FULL, false>>("ours", "query.for_each"),
        Contender::of::<Ours<N, FULL, true>>(
            "ours_grouped",
            "group (Position, Velocity) + query.for_each",
        ),
    ];
    #[cfg(feature = "peers")]
    let list = [list, peers::contenders::<N, FULL>()].concat();
    list
}

/// The update every library runs per entity.
#[inline]
fn step(position: &mut Position, velocity: &Velocity) {
    position.0[0] += velocity.0[0];
    position.0[1] += velocity.0[1];
    position.0[2] += velocity.0[2];
}

/// The checksum: the sum of every coordinate of every position.
fn position_sum<'a>(positions: impl Iterator<Item = &'a Position>) -> f64 {
    positions
        .map(|p| p.0.iter().copied().map(f64::from).sum::<f64>())
        .sum()
}

/// The ideal loop, over slices the compiler knows do not overlap.
#[inline(never)]
fn advance(positions: &mut [Position], velocities: &[Velocity]) {
    for (p, v) in positions.iter_mut().zip(velocities) {
        step(p, v);
    }
}

/// Two plain vectors.
struct Ideal<const N: usize> {
    positions: Vec<Position>,
    velocities: Vec<Velocity>,
}

impl<const N: usize> Bench for Ideal<N> {
    fn setup() -> Self {
        let (positions, velocities) = (0..N).map(moving).unzip();
        Self {
            positions,
            velocities,
        }
    }

    fn run(&mut self) {
        advance(&mut self.positions, &self.velocities);
    }

    fn checksum(&mut self) -> f64 {
        position_sum(self.positions.iter())
    }
}

/// Ours, with or without a group of (Position, Velocity).
struct Ours<const N: usize, const FULL: bool, const GROUPED: bool>(ecs_core::World);

impl<const N: usize, const FULL: bool, const GROUPED: bool> Bench for Ours<N, FULL, GROUPED> {
    fn setup() -> Self {
        let mut world = ecs_core::World::new();
        if GROUPED {
            world
                .group::<(Position, Velocity)>()
                .expect("the first group of a world");
        }
        if FULL {
            world.spawn_batch((0..N).map(four_components));
        } else {
            world.spawn_batch((0..N).map(moving));
        }
        Self(world)
    }

    fn run(&mut self) {
        self.0
            .query::<(&mut Position, &Velocity)>()
            .for_each(|(p, v)| step(p, v));
    }

    fn checksum(&mut self) -> f64 {
        position_sum(self.0.query_ref::<&Position>().iter())
    }
}

#[cfg(feature = "peers")]
mod peers;
