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

impl<'w, Q: QueryData, F: QueryFilter> Query<'w, Q, F> {
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
    pub fn par_for_each(&mut self, f: impl Fn(Q::Item<'_>) + Send + Sync)
    where
        Q::State<'w>: Sync,
        F::State<'w>: Sync,
    {
        let candidates = self.plan_candidates();
        // Each thread reads the states; `Sync` says that is sound, and the
        // `QueryData` contract says fetching distinct entities at once is.
        let (data, filter) = (self.data_state(), self.filter_state());
        let (data, filter) = (&data, &filter);
        match candidates {
            Candidates::Dense(cursor) => {
                let (entities, known_aligned) = cursor.parts();
                let part = part_len(entities.len());
                (0..entities.len().div_ceil(part))
                    .into_par_iter()
                    .for_each(|index| {
                        let start = index * part;
                        let range = start..(start + part).min(entities.len());
                        // SAFETY: the cursor walks a storage of the query's world, its
                        // first `known_aligned` positions are aligned, parts are
                        // disjoint, and `&mut self` keeps the world borrowed.
                        unsafe {
                            fold_dense::<Q, F, ()>(
                                data,
                                filter,
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
                        for &entity in chunk {
                            if !F::matches(filter, entity) {
                                continue;
                            }
                            // SAFETY: live, distinct entities of the query's world.
                            if let Some(item) = unsafe { Q::fetch(data, entity) } {
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
