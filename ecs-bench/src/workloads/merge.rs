//! merge: a staging world of 100,000 entities with Transform, Position,
//! Rotation and Velocity moved into a world of 100,000 such entities, beside
//! spawning the same entities into it one by one and in a batch (the
//! `ours_baseline_` rows: shown beside the merge, never taken as its fastest
//! path). Building the
//! staging world, and taking the previous run's entities out again, is
//! untimed preparation ([`Bench::PREPARES`]).

use ecs_core::prelude::*;

use crate::components::{Position, Rotation, Transform, Velocity, four_components};
use crate::harness::{Bench, Contender, Workload};

#[cfg(feature = "peers")]
mod peers;

/// Entities in the target world, and in each staging world.
pub const ENTITIES: usize = 100_000;

/// The workload.
pub fn workload() -> Workload {
    Workload {
        name: "merge",
        summary: "move a 100,000-entity world (4 components) into a 100,000-entity world",
        items: None,
        contenders: || {
            let list = vec![
                Contender::of::<Ideal>("ideal", "Vec::append per component"),
                Contender::of::<Ours<Merge>>("ours", "world.merge(staging)"),
                Contender::of::<Ours<OneByOne>>(
                    "ours_baseline_spawn",
                    "not a merge: world.spawn, one by one",
                ),
                Contender::of::<Ours<Batch>>(
                    "ours_baseline_spawn_batch",
                    "not a merge: world.spawn_batch",
                ),
            ];
            #[cfg(feature = "peers")]
            let list = [list, peers::contenders()].concat();
            list
        },
    }
}

/// The checksum: the sum of the x positions of every entity.
fn position_sum<'a>(positions: impl Iterator<Item = &'a Position>) -> f64 {
    positions.map(|p| f64::from(p.0[0])).sum()
}

/// Four columns, as a staging world holds them.
#[derive(Default)]
struct Columns {
    transforms: Vec<Transform>,
    positions: Vec<Position>,
    rotations: Vec<Rotation>,
    velocities: Vec<Velocity>,
}

impl Columns {
    fn filled() -> Self {
        let mut columns = Self::default();
        for (t, p, r, v) in (0..ENTITIES).map(four_components) {
            columns.transforms.push(t);
            columns.positions.push(p);
            columns.rotations.push(r);
            columns.velocities.push(v);
        }
        columns
    }

    fn truncate(&mut self, len: usize) {
        self.transforms.truncate(len);
        self.positions.truncate(len);
        self.rotations.truncate(len);
        self.velocities.truncate(len);
    }

    fn append(&mut self, other: &mut Columns) {
        self.transforms.append(&mut other.transforms);
        self.positions.append(&mut other.positions);
        self.rotations.append(&mut other.rotations);
        self.velocities.append(&mut other.velocities);
    }
}

/// Plain vectors: a merge is four appends.
struct Ideal {
    world: Columns,
    staging: Columns,
}

impl Bench for Ideal {
    const PREPARES: bool = true;

    fn setup() -> Self {
        Self {
            world: Columns::filled(),
            staging: Columns::default(),
        }
    }

    fn prepare(&mut self) {
        self.world.truncate(ENTITIES);
        self.staging = Columns::filled();
    }

    fn run(&mut self) {
        self.world.append(&mut self.staging);
    }

    fn checksum(&mut self) -> f64 {
        position_sum(self.world.positions.iter())
    }
}

/// How `Ours` brings the entities in.
trait Arrival: 'static {
    /// Whether the staging world is built before the run.
    const STAGES: bool;
    fn arrive(world: &mut World, staging: World) -> Vec<Entity>;
}

/// `world.merge(staging)`.
struct Merge;

impl Arrival for Merge {
    const STAGES: bool = true;
    fn arrive(world: &mut World, staging: World) -> Vec<Entity> {
        world.merge(staging).iter().map(|(_, new)| new).collect()
    }
}

/// `world.spawn` per entity.
struct OneByOne;

impl Arrival for OneByOne {
    const STAGES: bool = false;
    fn arrive(world: &mut World, _: World) -> Vec<Entity> {
        (0..ENTITIES)
            .map(|i| world.spawn(four_components(i)))
            .collect()
    }
}

/// `world.spawn_batch`.
struct Batch;

impl Arrival for Batch {
    const STAGES: bool = false;
    fn arrive(world: &mut World, _: World) -> Vec<Entity> {
        world.spawn_batch((0..ENTITIES).map(four_components))
    }
}

struct Ours<A> {
    world: World,
    staging: World,
    arrived: Vec<Entity>,
    _arrival: core::marker::PhantomData<A>,
}

impl<A: Arrival> Bench for Ours<A> {
    const PREPARES: bool = true;

    fn setup() -> Self {
        let mut world = World::new();
        world.spawn_batch((0..ENTITIES).map(four_components));
        Self {
            world,
            staging: World::new(),
            arrived: Vec::new(),
            _arrival: core::marker::PhantomData,
        }
    }

    fn prepare(&mut self) {
        for entity in self.arrived.drain(..) {
            self.world.despawn(entity).expect("arrived last run");
        }
        if A::STAGES {
            self.staging = World::new();
            self.staging.spawn_batch((0..ENTITIES).map(four_components));
        }
    }

    fn run(&mut self) {
        let staging = core::mem::take(&mut self.staging);
        self.arrived = A::arrive(&mut self.world, staging);
    }

    fn checksum(&mut self) -> f64 {
        let query = self
            .world
            .query::<(&Transform, &Position, &Rotation, &Velocity)>();
        position_sum(query.iter().map(|(_, p, _, _)| p))
    }
}
