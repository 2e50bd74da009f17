//! add_remove: 10,000 entities hold a Position; give each an `Extra`, then take
//! it away from each again. Archetype libraries move every entity twice; a
//! sparse set touches only the `Extra` storage.

use std::hint::black_box;

use crate::components::{Extra, Position};
use crate::harness::{Bench, Contender, Workload};

/// Entities in add_remove's world.
pub const ENTITIES: usize = 10_000;

/// The add_remove workload.
pub fn workload() -> Workload {
    Workload {
        name: "add_remove",
        summary: "add a component to 10,000 entities, then remove it from all of them",
        items: None,
        contenders: || {
            let list = vec![
                Contender::of::<Ideal>("ideal", "Vec<Option<Extra>>"),
                Contender::of::<Ours>("ours", "world.insert / world.remove"),
                Contender::of::<OursView>(
                    "ours_view",
                    "world.view_mut::<Extra>(): insert / remove",
                ),
                Contender::of::<Ours<OBSERVERS_ELSEWHERE>>(
                    "ours_observers_elsewhere",
                    "as ours; OnAdd / OnRemove observers on another type",
                ),
                Contender::of::<Ours<OBSERVED>>(
                    "ours_observed",
                    "as ours; OnAdd / OnRemove observers on Extra counting events",
                ),
            ];
            #[cfg(feature = "peers")]
            let list = [list, peers::contenders()].concat();
            list
        },
    }
}

/// The first component of entity `i`.
fn position(i: usize) -> Position {
    Position([i as f32; 3])
}

/// The checksum: entities with a Position, plus 1,000 for each that still has
/// an `Extra` (none should).
fn census(positions: usize, extras: usize) -> f64 {
    (positions + 1_000 * extras) as f64
}

/// The positions, and one optional `Extra` slot per entity.
struct Ideal {
    positions: Vec<Position>,
    extras: Vec<Option<Extra>>,
}

impl Bench for Ideal {
    fn setup() -> Self {
        Self {
            positions: (0..ENTITIES).map(position).collect(),
            extras: vec![None; ENTITIES],
        }
    }

    fn run(&mut self) {
        for slot in &mut self.extras {
            *slot = Some(Extra(1.0));
        }
        black_box(&mut self.extras);
        for slot in &mut self.extras {
            black_box(slot.take());
        }
    }

    fn checksum(&mut self) -> f64 {
        census(self.positions.len(), self.extras.iter().flatten().count())
    }
}

/// [`Ours`] with no observer at all.
const UNOBSERVED: u8 = 0;
/// [`Ours`] in a world with observers, none of them on `Extra`.
const OBSERVERS_ELSEWHERE: u8 = 1;
/// [`Ours`] with observers of `Extra` arriving and leaving.
const OBSERVED: u8 = 2;

/// How many observer events ran.
#[derive(Default)]
struct Events(u64);

/// Ours: `insert` and `remove` per entity, in a world whose observers
/// `OBSERVERS` picks.
struct Ours<const OBSERVERS: u8 = UNOBSERVED> {
    world: ecs_core::World,
    ids: Vec<ecs_core::Entity>,
}

impl<const OBSERVERS: u8> Bench for Ours<OBSERVERS> {
    fn setup() -> Self {
        use ecs_core::prelude::{OnAdd, OnRemove, ResMut};
        let mut world = ecs_core::World::new();
        world.insert_resource(Events::default());
        match OBSERVERS {
            OBSERVERS_ELSEWHERE => {
                world.observe(|_: OnAdd<Position>, mut n: ResMut<Events>| n.0 += 1);
                world.observe(|_: OnRemove<Position>, mut n: ResMut<Events>| n.0 += 1);
            }
            OBSERVED => {
                world.observe(|_: OnAdd<Extra>, mut n: ResMut<Events>| n.0 += 1);
                world.observe(|_: OnRemove<Extra>, mut n: ResMut<Events>| n.0 += 1);
            }
            _ => {}
        }
        let ids = world.spawn_batch((0..ENTITIES).map(position));
        Self { world, ids }
    }

    fn run(&mut self) {
        for &e in &self.ids {
            self.world.insert(e, Extra(1.0)).expect("alive");
        }
        for &e in &self.ids {
            black_box(self.world.remove::<Extra>(e).expect("just added"));
        }
    }

    fn checksum(&mut self) -> f64 {
        census(
            self.world.query_ref::<&Position>().iter().count(),
            self.world.query_ref::<&Extra>().iter().count(),
        )
    }
}

/// Ours through a typed view: `Extra`'s storage found once per loop.
struct OursView(Ours);

impl Bench for OursView {
    fn setup() -> Self {
        Self(Ours::setup())
    }

    fn run(&mut self) {
        let mut extras = self.0.world.view_mut::<Extra>();
        for &e in &self.0.ids {
            extras.insert(e, Extra(1.0)).expect("alive");
        }
        for &e in &self.0.ids {
            black_box(extras.remove(e).expect("just added"));
        }
    }

    fn checksum(&mut self) -> f64 {
        self.0.checksum()
    }
}

#[cfg(feature = "peers")]
mod peers;
