//! Iteration over the entities a query matches, one item at a time or folded:
//! both over the segments of [`walk`](super::walk).

use core::iter::FusedIterator;
use core::marker::PhantomData;

use crate::entity::Entity;

use super::chunk::{CHUNK_BITS, SetBits};
use super::data::QueryData;
use super::filter::QueryFilter;
use super::probe::{Seat, passes_aligned, passes_aligned_chunk, probe};
use super::walk::{Segment, Segments, fold_segment};

/// The items of a query, one per matching entity, borrowed for `'q`.
///
/// Made by [`Query::iter`](super::Query::iter) and
/// [`Query::iter_mut`](super::Query::iter_mut). Candidates come from the smallest
/// storage the query requires. They are taken in chunks of 64: where every
/// other required storage holds the same entities at the same positions (as
/// entities spawned together do), the chunk is read as zipped arrays; elsewhere
/// each candidate is probed in the other storages' sparse indexes. `for_each`,
/// `fold` and everything built on them (`count`, `sum`, ...) run each chunk as one
/// tight loop.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Score(u32);
///
/// let mut world = World::new();
/// world.spawn_batch((1..=4).map(Score));
/// let total: u32 = world.query::<&Score>().iter().map(|s| s.0).sum();
/// assert_eq!(total, 10);
/// ```
pub struct QueryIter<'q, 'w, Q: QueryData, F: QueryFilter> {
    segments: Segments<'w>,
    /// The dense entities the segments' positions index (`segments.driver()`,
    /// kept at hand for the item loop).
    driver: &'w [Entity],
    /// What is left of the segment `next` is in.
    segment: Segment<'w>,
    /// The positions before the current segment's rest that a change filter
    /// kept from its last chunk, not yielded yet.
    kept: SetBits,
    /// The state the walk reads through, shifted for the current segment.
    run: Q::State<'w>,
    filter: F::State<'w>,
    _items: PhantomData<&'q ()>,
}

impl<'w, Q: QueryData, F: QueryFilter> QueryIter<'_, 'w, Q, F> {
    /// # Safety
    /// `segments` meets its own contract ([`Segments::new`]) for `data` and
    /// `filter`, over the world they were built from; the world stays
    /// borrowed as the states require for as long as the iterator's items
    /// live; and the states belong to a query whose access check passed.
    pub(crate) unsafe fn new(
        segments: Segments<'w>,
        data: Q::State<'w>,
        filter: F::State<'w>,
    ) -> Self {
        Self {
            driver: segments.driver(),
            segments,
            segment: Segment::Aligned(0..0),
            kept: SetBits::default(),
            run: data,
            filter,
            _items: PhantomData,
        }
    }
}

impl<'q, Q: QueryData, F: QueryFilter> Iterator for QueryIter<'q, '_, Q, F> {
    type Item = Q::Item<'q>;

    #[inline]
    fn next(&mut self) -> Option<Q::Item<'q>> {
        loop {
            if F::READS_TICKS
                && let Some(index) = self.kept.next()
            {
                let entity = self.driver[index];
                // SAFETY: `index` was kept from a chunk of the current aligned
                // segment, whose shifts `run` keeps until the segment ends;
                // the driver's entity there is live (a storage holds it) and
                // yielded once.
                return Some(unsafe { Q::fetch_aligned(&self.run, entity, index) });
            }
            match &mut self.segment {
                Segment::Aligned(range) if range.start < range.end => {
                    let driver = self.driver;
                    if F::READS_TICKS {
                        // Change filters compare a chunk of ticks at once.
                        let len = range.len().min(CHUNK_BITS);
                        let bits =
                            passes_aligned_chunk::<F>(&self.filter, driver, range.start, len);
                        self.kept = SetBits::new(bits, range.start);
                        range.start += len;
                        continue;
                    }
                    let index = range.start;
                    range.start += 1;
                    let entity = driver[index];
                    if passes_aligned::<F>(&self.filter, entity, driver, index) {
                        // SAFETY: the segment is aligned under the shifts the
                        // producer put in `run`, unchanged since; the entity
                        // is live (a storage holds it) and yielded once.
                        return Some(unsafe { Q::fetch_aligned(&self.run, entity, index) });
                    }
                    continue;
                }
                Segment::Live(alive) => {
                    if let Some(entity) = alive.next() {
                        let (data, filter) = (&self.run, &self.filter);
                        // SAFETY: a live entity of the states' world, produced
                        // once, so no other item of it is live; the states are
                        // a checked query's, over a world borrowed while items
                        // live.
                        let item = unsafe { probe::<Q, F>(data, filter, entity, Seat::Anywhere) };
                        if item.is_some() {
                            return item;
                        }
                        continue;
                    }
                }
                _ => {}
            }
            self.segment = self.segments.next::<Q>(&mut self.run)?;
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let current = match &self.segment {
            Segment::Aligned(range) => range.len(),
            Segment::Live(alive) => alive.size_hint().1.unwrap_or(usize::MAX),
        };
        let upper = current
            .saturating_add(self.kept.len())
            .saturating_add(self.segments.most_left());
        (0, Some(upper))
    }

    // Like `Query::for_each`: one copy per closure, called from one place,
    // so inlining costs no code and keeps the iterator out of memory.
    #[inline(always)]
    fn fold<B, G>(self, init: B, mut g: G) -> B
    where
        G: FnMut(B, Q::Item<'q>) -> B,
    {
        let Self {
            mut segments,
            driver,
            segment,
            kept,
            mut run,
            filter,
            ..
        } = self;
        let mut acc = init;
        for index in kept {
            // SAFETY: kept from a chunk of the current aligned segment under
            // the shifts of `run`, unchanged since, as in `next`; the entity
            // is live and not yielded before.
            acc = g(acc, unsafe { Q::fetch_aligned(&run, driver[index], index) });
        }
        // SAFETY: what is left of the current segment was produced with `run`
        // as it stands, and every later one is produced just before it is
        // folded; the producer's contract is the constructor's; the states are
        // a checked query's over a world borrowed while the items live, and a
        // walk's entities are distinct.
        unsafe {
            acc = fold_segment::<Q, F, B>(&run, &filter, driver, segment, acc, &mut g);
            while let Some(segment) = segments.next::<Q>(&mut run) {
                acc = fold_segment::<Q, F, B>(&run, &filter, driver, segment, acc, &mut g);
            }
        }
        acc
    }
}

impl<Q: QueryData, F: QueryFilter> FusedIterator for QueryIter<'_, '_, Q, F> {}
