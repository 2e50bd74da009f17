//! Parallel iteration: a query's matches split into parts that rayon runs at once.

use core::ops::Range;

use rayon::prelude::*;

use super::Query;
use super::data::QueryData;
use super::filter::QueryFilter;
use super::walk::fold_segment;

/// The fewest candidates a part is cut down to.
///
/// How many parts there are is rayon's call, not a fixed count: it halves the
/// candidates until every thread has a part, and halves again whenever a thread
/// runs out of work and steals one. This only stops it before a part is too
/// short to be worth a thread however heavy the work per entity is: 1,000
/// candidates can still become 32 parts, one or two for each of 16 threads,
/// while a big loop of cheap updates stays a few long parts per thread.
const MIN_PART: usize = 16;

impl<'w, Q: QueryData, F: QueryFilter> Query<'w, Q, F> {
    /// Runs `f` on every match, spreading the work over rayon's thread pool.
    ///
    /// The driving storage is cut into contiguous parts, each run as
    /// [`for_each`](Self::for_each) runs the whole, by rayon's adaptive
    /// splitting: halved until every thread of the pool has a part, and again
    /// wherever a thread idles and steals one, down to 16 candidates a part. So
    /// a few hundred entities of heavy work still spread over every thread,
    /// while a long loop of cheap updates stays a few long runs per thread.
    /// Worth it when `f` does real work per entity, or there are many entities;
    /// for a few cheap updates the threads cost more than they save.
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
        let segments = self.segments();
        // Each thread reads the states; `Sync` says that is sound, and the
        // `QueryData` contract says fetching distinct entities at once is.
        let (data, filter) = (&self.data_state(), &self.filter_state());
        rayon::iter::split(0..segments.len(), halve).for_each(|part| {
            let mut part = segments.part(part);
            let driver = part.driver();
            let mut state = *data;
            let mut g = |(), item| f(item);
            while let Some(segment) = part.next::<Q>(&mut state) {
                // SAFETY: the segment was just produced with `state` as it
                // stands, by a part of this query's own producer (whose
                // contract `segments` met); parts are disjoint ranges of
                // positions, so each entity is fetched once; the states are
                // this query's (access checked), and `&mut self` keeps the
                // world borrowed.
                unsafe { fold_segment::<Q, F, ()>(&state, filter, driver, segment, (), &mut g) };
            }
        });
    }
}

/// One step of the adaptive split: `range` halved, or kept whole when the
/// halves would fall below [`MIN_PART`].
fn halve(range: Range<usize>) -> (Range<usize>, Option<Range<usize>>) {
    if range.len() < 2 * MIN_PART {
        return (range, None);
    }
    let mid = range.start + range.len() / 2;
    (range.start..mid, Some(mid..range.end))
}
