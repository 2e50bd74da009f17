//! Parallel iteration: a query's matches split into parts that rayon runs at once.

use rayon::prelude::*;

use crate::entity::Entity;

use super::Query;
use super::data::QueryData;
use super::filter::QueryFilter;
use super::iter::{Candidates, fold_dense};

/// Parts per thread: enough that a thread finishing early can steal work,
/// few enough that each part is a long loop.
const PARTS_PER_THREAD: usize = 4;

/// The smallest part worth sending to another thread.
const MIN_PART: usize = 256;

/// A query's states, shared by the threads of one `par_for_each`.
///
/// The states hold shared references to sparse indexes and entity arrays, and
/// raw pointers to component data, so they are neither `Send` nor `Sync` by
/// themselves.
struct SharedStates<D, F>(D, F);

// SAFETY: the states point into storages of components, which are `Send +
// Sync`; the indexes and entity arrays are only read; threads fetch disjoint
// sets of entities, so no component value is reached from two threads, and the
// query's exclusive borrow of the world lasts until every thread is done.
unsafe impl<D, F> Sync for SharedStates<D, F> {}

impl<Q: QueryData, F: QueryFilter> Query<'_, Q, F> {
    /// Runs `f` on every match, spreading the work over rayon's thread pool.
    ///
    /// Each thread takes contiguous parts of the driving storage and runs them
    /// as [`for_each`](Self::for_each) does. Worth it when `f` does real work per
    /// entity, or there are many entities; for a few cheap updates the threads
    /// cost more than they save.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Velocity(f32);
    ///
    /// let mut world = World::new();
    /// world.spawn_batch((0..10_000).map(|i| (Position(i as f32), Velocity(1.0))));
    /// world.query::<(&mut Position, &Velocity)>().par_for_each(|(p, v)| p.0 += v.0);
    /// let sum: f32 = world.query::<&Position>().iter().map(|p| p.0).sum();
    /// assert_eq!(sum, (0..10_000).map(|i| i as f32 + 1.0).sum::<f32>());
    /// ```
    pub fn par_for_each(&mut self, f: impl Fn(Q::Item<'_>) + Send + Sync) {
        let candidates = self.candidates();
        let shared = SharedStates(self.data_state(), self.filter_state());
        match candidates {
            Candidates::Dense(cursor) => {
                let (entities, known_aligned) = cursor.parts();
                let part = part_len(entities.len());
                (0..entities.len().div_ceil(part))
                    .into_par_iter()
                    .for_each(|index| {
                        let shared = &shared;
                        let start = index * part;
                        let range = start..(start + part).min(entities.len());
                        // SAFETY: the cursor walks a storage of the query's world, its
                        // first `known_aligned` positions are aligned, parts are
                        // disjoint, and `&mut self` keeps the world borrowed.
                        unsafe {
                            fold_dense::<Q, F, ()>(
                                &shared.0,
                                &shared.1,
                                entities,
                                range,
                                known_aligned,
                                (),
                                |(), item| f(item),
                            );
                        }
                    });
            }
            Candidates::Alive(alive) => {
                let entities: Vec<Entity> = alive.collect();
                entities
                    .par_chunks(part_len(entities.len()))
                    .for_each(|chunk| {
                        let shared = &shared;
                        for &entity in chunk {
                            if !F::matches(&shared.1, entity) {
                                continue;
                            }
                            // SAFETY: live, distinct entities of the query's world.
                            if let Some(item) = unsafe { Q::fetch(&shared.0, entity) } {
                                f(item);
                            }
                        }
                    });
            }
        }
    }
}

/// How many candidates one parallel part takes.
fn part_len(candidates: usize) -> usize {
    let parts = rayon::current_num_threads() * PARTS_PER_THREAD;
    candidates.div_ceil(parts).max(MIN_PART)
}
