//! random_get: 10,000 reads of Position at random live entities among 100,000
//! (the same picks, in the same order, for every library). Measures the lookup
//! from an id to its component: sparse index, dense array, or entity location
//! then table.

use crate::components::{Position, four_components};
use crate::harness::{Bench, Contender, Workload};
use crate::rng::XorShift;

/// Entities in random_get's world.
pub const ENTITIES: usize = 100_000;

/// Reads per run.
pub const READS: usize = 10_000;

/// The random_get workload.
pub fn workload() -> Workload {
    Workload {
        name: "random_get",
        summary: "read Position of 10,000 random live entities among 100,000 (4 components each)",
        items: None,
        contenders: || {
            let list = vec![
                Contender::of::<Ideal>("ideal", "Vec indexed by position"),
                Contender::of::<Ours>("ours", "query_ref::<&Position>().get(e)"),
                world_get(),
                Contender::of::<OursView>("ours_view", "world.view::<Position>().get(e)"),
            ];
            #[cfg(feature = "peers")]
            let list = [list, peers::contenders()].concat();
            list
        },
    }
}

/// Ours through `world.get`, which finds the storage again on every read, as
/// code that holds no query does: a row beside `ours` (the query path every
/// peer's row takes), so the report shows what the plain `World` API costs.
pub fn world_get() -> Contender {
    Contender::of::<OursWorldGet>("ours_world_get", "world.get::<Position>(e)")
}

/// The spawn-order positions of the entities to read, the same for every library.
fn picks() -> Vec<usize> {
    let mut rng = XorShift::new();
    (0..READS).map(|_| rng.below(ENTITIES)).collect()
}

/// Maps each pick to the library's id of that entity.
fn picked_ids<Id: Copy>(ids: &[Id]) -> Vec<Id> {
    picks().into_iter().map(|i| ids[i]).collect()
}

/// What a run adds up per read: the bits of the x coordinate, as an integer, so
/// the sum is a one-cycle add that does not hide the lookups, and exact in any order.
#[inline]
fn x(position: &Position) -> u64 {
    u64::from(position.0[0].to_bits())
}

/// The positions in a plain vector, read at random indices.
struct Ideal {
    positions: Vec<Position>,
    picks: Vec<usize>,
    sum: u64,
}

impl Bench for Ideal {
    fn setup() -> Self {
        Self {
            positions: (0..ENTITIES).map(|i| four_components(i).1).collect(),
            picks: picks(),
            sum: 0,
        }
    }

    fn run(&mut self) {
        self.sum = self.picks.iter().map(|&i| x(&self.positions[i])).sum();
    }

    fn checksum(&mut self) -> f64 {
        self.sum as f64
    }
}

/// Ours: a read-only query's `get`.
struct Ours {
    world: ecs_core::World,
    picks: Vec<ecs_core::Entity>,
    sum: u64,
}

impl Bench for Ours {
    fn setup() -> Self {
        let mut world = ecs_core::World::new();
        let ids = world.spawn_batch((0..ENTITIES).map(four_components));
        Self {
            world,
            picks: picked_ids(&ids),
            sum: 0,
        }
    }

    fn run(&mut self) {
        let positions = self.world.query_ref::<&Position>();
        self.sum = self
            .picks
            .iter()
            .map(|&e| x(positions.get(e).expect("alive")))
            .sum();
    }

    fn checksum(&mut self) -> f64 {
        self.sum as f64
    }
}

/// Ours: `World::get` per read.
struct OursWorldGet(Ours);

impl Bench for OursWorldGet {
    fn setup() -> Self {
        Self(Ours::setup())
    }

    fn run(&mut self) {
        let Ours { world, picks, sum } = &mut self.0;
        *sum = picks
            .iter()
            .map(|&e| x(world.get::<Position>(e).expect("alive")))
            .sum();
    }

    fn checksum(&mut self) -> f64 {
        self.0.checksum()
    }
}

/// Ours through a typed view: the storage found once per run.
struct OursView(Ours);

impl Bench for OursView {
    fn setup() -> Self {
        Self(Ours::setup())
    }

    fn run(&mut self) {
        let Ours { world, picks, sum } = &mut self.0;
        let positions = world.view::<Position>();
        *sum = picks
            .iter()
            .map(|&e| x(positions.get(e).expect("alive")))
            .sum();
    }

    fn checksum(&mut self) -> f64 {
        self.0.checksum()
    }
}

#[cfg(feature = "peers")]
mod peers;
