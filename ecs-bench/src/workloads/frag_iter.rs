//! frag_iter: double `Data` on 520 entities spread over 26 kinds: for each of
//! the types `A` to `Z`, 20 entities hold it and `Data`. Archetype libraries see
//! 26 small tables; sparse-set libraries see one dense `Data` array.

use crate::components::{Data, FRAG_ENTITIES_PER_TYPE, spawn_fragmented};
use crate::harness::{Bench, Contender, Workload};

/// Entities in frag_iter's world.
pub const ENTITIES: usize = 26 * FRAG_ENTITIES_PER_TYPE;

/// The frag_iter workload.
pub fn workload() -> Workload {
    Workload {
        name: "frag_iter",
        summary: "data *= 2 over 520 entities in 26 kinds (each kind: one of A..Z, plus Data)",
        items: None,
        contenders: || {
            let list = vec![
                Contender::of::<Ideal>("ideal", "one Vec"),
                Contender::of::<Ours>("ours", "prepared QueryState, query_mut.for_each"),
                Contender::of::<OursUnprepared>("ours_unprepared", "world.query.for_each"),
            ];
            #[cfg(feature = "peers")]
            let list = [list, peers::contenders()].concat();
            list
        },
    }
}

/// The update every library runs per entity.
#[inline]
fn double(data: &mut Data) {
    data.0 *= 2.0;
}

/// The checksum: the sum of every `Data`.
fn data_sum<'a>(data: impl Iterator<Item = &'a Data>) -> f64 {
    data.map(|d| f64::from(d.0)).sum()
}

/// One plain vector of `Data`.
struct Ideal(Vec<Data>);

impl Bench for Ideal {
    fn setup() -> Self {
        Self(vec![Data(1.0); ENTITIES])
    }

    fn run(&mut self) {
        self.0.iter_mut().for_each(double);
    }

    fn checksum(&mut self) -> f64 {
        data_sum(self.0.iter())
    }
}

/// Ours as a game writes a per-frame loop: the query prepared once and kept
/// (as a system's `Query` param keeps it), over one dense `Data` storage.
struct Ours {
    world: ecs_core::World,
    doubled: ecs_core::query::QueryState<&'static mut Data>,
}

impl Bench for Ours {
    fn setup() -> Self {
        let mut world = ecs_core::World::new();
        spawn_fragmented(&mut world);
        let doubled = world.query_state::<&mut Data>();
        Self { world, doubled }
    }

    fn run(&mut self) {
        self.doubled.query_mut(&mut self.world).for_each(double);
    }

    fn checksum(&mut self) -> f64 {
        data_sum(self.world.query_ref::<&Data>().iter())
    }
}

/// Ours, the query built afresh each run: every type it names looked up again.
struct OursUnprepared(ecs_core::World);

impl Bench for OursUnprepared {
    fn setup() -> Self {
        let mut world = ecs_core::World::new();
        spawn_fragmented(&mut world);
        Self(world)
    }

    fn run(&mut self) {
        self.0.query::<&mut Data>().for_each(double);
    }

    fn checksum(&mut self) -> f64 {
        data_sum(self.0.query_ref::<&Data>().iter())
    }
}

#[cfg(feature = "peers")]
mod peers;
