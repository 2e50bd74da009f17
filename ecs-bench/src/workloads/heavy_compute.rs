//! heavy_compute: 1,000 entities with a matrix, Position, Rotation and
//! Velocity; in parallel, each entity inverts its matrix 100 times and moves its
//! position through it. Compute-bound: it measures the parallel iteration's
//! overhead and how evenly it spreads the work.

use rayon::prelude::*;

use crate::components::{Position, Rotation, Transform, Velocity};
use crate::harness::{Bench, Contender, Workload};
use crate::math::{heavy_step, rotation_x};

/// Entities in heavy_compute's world.
pub const ENTITIES: usize = 1_000;

/// The heavy_compute workload.
pub fn workload() -> Workload {
    Workload {
        name: "heavy_compute",
        summary: "1,000 entities, in parallel: invert a 4x4 matrix 100 times, then transform the position",
        items: None,
        contenders: || {
            let list = vec![
                Contender::of::<Ideal>("ideal", "rayon par_iter_mut over two Vecs"),
                Contender::of::<Ours>("ours", "query.par_for_each"),
                Contender::of::<OursSchedule>(
                    "ours_schedule",
                    "Schedule, 1 system in Update: query.par_for_each",
                ),
            ];
            #[cfg(feature = "peers")]
            let list = [list, peers::contenders()].concat();
            list
        },
    }
}

/// The components of entity `i`, the same for every library.
fn heavy_entity(_: usize) -> (Transform, Position, Rotation, Velocity) {
    (
        Transform(rotation_x(1.2)),
        Position([0.0, 1.0, 0.0]),
        Rotation([1.0, 0.0, 0.0]),
        Velocity([1.0, 0.0, 0.0]),
    )
}

/// One entity's work, on the components.
#[inline]
fn step(position: &mut Position, transform: &mut Transform) {
    heavy_step(&mut transform.0, &mut position.0);
}

/// The checksum: every coordinate and every matrix element, summed.
fn state_sum<'a>(items: impl Iterator<Item = (&'a Position, &'a Transform)>) -> f64 {
    items
        .map(|(p, t)| {
            let position: f64 = p.0.iter().copied().map(f64::from).sum();
            let matrix: f64 = t.0.iter().flatten().copied().map(f64::from).sum();
            position + matrix
        })
        .sum()
}

/// Two plain vectors, split over rayon's pool.
struct Ideal {
    positions: Vec<Position>,
    transforms: Vec<Transform>,
}

impl Bench for Ideal {
    fn setup() -> Self {
        let (transforms, positions) = (0..ENTITIES)
            .map(heavy_entity)
            .map(|(t, p, _, _)| (t, p))
            .unzip();
        Self {
            positions,
            transforms,
        }
    }

    fn run(&mut self) {
        self.positions
            .par_iter_mut()
            .zip(self.transforms.par_iter_mut())
            .for_each(|(p, t)| step(p, t));
    }

    fn checksum(&mut self) -> f64 {
        state_sum(self.positions.iter().zip(&self.transforms))
    }
}

/// Ours: `Query::par_for_each`.
struct Ours(ecs_core::World);

impl Bench for Ours {
    fn setup() -> Self {
        let mut world = ecs_core::World::new();
        world.spawn_batch((0..ENTITIES).map(heavy_entity));
        Self(world)
    }

    fn run(&mut self) {
        self.0
            .query::<(&mut Position, &mut Transform)>()
            .par_for_each(|(p, t)| step(p, t));
    }

    fn checksum(&mut self) -> f64 {
        state_sum(self.0.query_ref::<(&Position, &Transform)>().iter())
    }
}

/// heavy_compute as a system: the same `par_for_each`, from inside a frame.
fn heavy_system(mut query: ecs_core::Query<(&mut Position, &mut Transform)>) {
    query.par_for_each(|(p, t)| step(p, t));
}

/// Ours through a [`Schedule`](ecs_core::Schedule): one system, so the
/// schedule runs it on the calling thread and `par_for_each` spreads the
/// entities over rayon's pool, as `ours` does without a schedule.
struct OursSchedule {
    world: ecs_core::World,
    schedule: ecs_core::Schedule,
}

impl Bench for OursSchedule {
    fn setup() -> Self {
        let Ours(world) = Ours::setup();
        let mut schedule = ecs_core::Schedule::new();
        schedule
            .add_system(ecs_core::Stage::Update, heavy_system)
            .expect("the system's params do not clash");
        Self { world, schedule }
    }

    fn run(&mut self) {
        self.schedule
            .run(&mut self.world)
            .expect("the system can run");
    }

    fn checksum(&mut self) -> f64 {
        state_sum(self.world.query_ref::<(&Position, &Transform)>().iter())
    }
}

#[cfg(feature = "peers")]
mod peers;
