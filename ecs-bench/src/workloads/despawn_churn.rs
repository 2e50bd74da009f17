//! despawn_churn: 100,000 entities with Position and Velocity; despawn every
//! third, then spawn as many again (with the batch spawn where a library has
//! one). The new entities take the old ones' places in the id list, with the
//! same components, so every run starts from an equal world.

use crate::components::{Position, moving};
use crate::harness::{Bench, Contender, Workload};

/// Entities in despawn_churn's world.
pub const ENTITIES: usize = 100_000;

/// The workload.
pub fn workload() -> Workload {
    Workload {
        name: "despawn_churn",
        summary: "100,000 entities with Position and Velocity: despawn every third, spawn as many again",
        items: None,
        contenders: || {
            let list = vec![
                Contender::of::<Ideal>("ideal", "slab: Vec<Option<_>> + free list"),
                Contender::of::<Ours>("ours", "world.despawn + world.spawn_batch"),
            ];
            #[cfg(feature = "peers")]
            let list = [list, peers::contenders()].concat();
            list
        },
    }
}

/// The places in the id list that each run replaces: every third.
fn victims() -> impl Iterator<Item = usize> + Clone {
    (0..ENTITIES).step_by(3)
}

/// The checksum: the sum of the x positions of the live entities. Every run
/// leaves it unchanged, and a missed despawn or spawn changes it.
fn position_sum<'a>(positions: impl Iterator<Item = &'a Position>) -> f64 {
    positions.map(|p| f64::from(p.0[0])).sum()
}

/// A slab: a slot per id, free slots reused last-in first-out.
struct Ideal {
    slots: Vec<Option<(Position, crate::components::Velocity)>>,
    free: Vec<usize>,
    ids: Vec<usize>,
}

impl Bench for Ideal {
    fn setup() -> Self {
        Self {
            slots: (0..ENTITIES).map(|i| Some(moving(i))).collect(),
            free: Vec::new(),
            ids: (0..ENTITIES).collect(),
        }
    }

    fn run(&mut self) {
        for place in victims() {
            let id = self.ids[place];
            self.slots[id].take().expect("alive");
            self.free.push(id);
        }
        for place in victims() {
            let id = match self.free.pop() {
                Some(id) => id,
                None => {
                    self.slots.push(None);
                    self.slots.len() - 1
                }
            };
            self.slots[id] = Some(moving(place));
            self.ids[place] = id;
        }
    }

    fn checksum(&mut self) -> f64 {
        position_sum(self.slots.iter().flatten().map(|(p, _)| p))
    }
}

/// Ours: `despawn` per entity, then one `spawn_batch`.
struct Ours {
    world: ecs_core::World,
    ids: Vec<ecs_core::Entity>,
}

impl Bench for Ours {
    fn setup() -> Self {
        let mut world = ecs_core::World::new();
        let ids = world.spawn_batch((0..ENTITIES).map(moving));
        Self { world, ids }
    }

    fn run(&mut self) {
        for place in victims() {
            self.world.despawn(self.ids[place]).expect("alive");
        }
        let spawned = self.world.spawn_batch(victims().map(moving));
        for (place, e) in victims().zip(spawned) {
            self.ids[place] = e;
        }
    }

    fn checksum(&mut self) -> f64 {
        position_sum(self.world.query_ref::<&Position>().iter())
    }
}

#[cfg(feature = "peers")]
mod peers;
