//! The one walk every query takes: a producer of segments ([`Segments`]) and
//! the one consumer of a segment ([`fold_segment`]).
//!
//! A query's candidates are the cached runs of its driving storage (the
//! matches its world keeps for its type, searched again whenever a storage
//! it requires changed structure), or every live entity when it requires no
//! storage. [`Segments::next`] hands them over as stretches:
//! - [`Segment::Aligned`]: positions of the driver over which every column of
//!   the fetch holds the driver's entities under the shifts the producer just
//!   put back in the walk's state, read as zipped arrays;
//! - [`Segment::Live`]: a stretch of the allocator's slots, whose live ids
//!   are probed.
//!
//! `Iterator::fold` (and `for_each`, `count`, ... on top of it) and each part
//! of `par_for_each` pass every segment to [`fold_segment`]; `next` steps
//! through the same segments one item at a time. A part of a parallel walk is
//! the same producer over a range of positions ([`Segments::part`]).

use core::ops::Range;

use crate::entity::{AliveIter, Entities, Entity};

use super::cache::Matches;
use super::chunk::{CHUNK_BITS, SetBits};
use super::data::QueryData;
use super::filter::QueryFilter;
use super::probe::{Seat, passes_aligned, passes_aligned_chunk, probe};

/// One stretch of a walk, decided one way.
pub(crate) enum Segment<'w> {
    /// Driver positions aligned for the fetch under the walk state's shifts
    /// as the producer left them.
    Aligned(Range<usize>),
    /// Live entities of the world, to probe one at a time.
    Live(AliveIter<'w>),
}

/// Where a walk's candidates come from.
#[derive(Clone, Copy)]
pub(crate) enum Source<'w> {
    /// A prepared query's cached runs of its driving storage.
    Runs {
        driver: &'w [Entity],
        matches: &'w Matches,
    },
    /// Every live entity, when the query requires no storage.
    Live(&'w Entities),
}

/// The producer: a [`Source`]'s segments over a range of its positions
/// (driver positions, or allocator slots for [`Source::Live`]), in order.
#[derive(Clone)]
pub(crate) struct Segments<'w> {
    source: Source<'w>,
    /// The first position not yet handed over, and the end of the range.
    next: usize,
    end: usize,
    /// For cached runs: the first run not yet handed over.
    next_run: usize,
}

impl<'w> Segments<'w> {
    /// Every segment of `source`.
    ///
    /// # Safety
    /// For [`Source::Runs`], `matches` is current ([`Matches::is_current`])
    /// for the states the walk reads through, with runs of `driver`, their
    /// driving storage.
    #[inline(always)]
    pub(crate) unsafe fn new(source: Source<'w>) -> Self {
        let end = match source {
            Source::Runs { driver, .. } => driver.len(),
            Source::Live(entities) => entities.slot_count(),
        };
        Self {
            source,
            next: 0,
            end,
            next_run: 0,
        }
    }

    /// The same source's segments within `part`, a range of its positions:
    /// one part of a parallel walk.
    #[cfg(feature = "parallel")]
    pub(crate) fn part(&self, part: Range<usize>) -> Self {
        let next_run = match self.source {
            Source::Runs { matches, .. } if part.start > 0 => matches
                .runs()
                .partition_point(|run| run.end as usize <= part.start),
            _ => 0,
        };
        Self {
            source: self.source,
            next: part.start,
            end: part.end.min(self.end),
            next_run,
        }
    }

    /// How many positions the walk covers, to cut into parts.
    #[cfg(feature = "parallel")]
    pub(crate) fn len(&self) -> usize {
        self.end - self.next
    }

    /// The dense entities the segments' positions index; empty for live
    /// entities, whose segments carry their own.
    #[inline(always)]
    pub(crate) fn driver(&self) -> &'w [Entity] {
        match self.source {
            Source::Runs { driver, .. } => driver,
            Source::Live(_) => &[],
        }
    }

    /// An upper bound on the matches left.
    pub(crate) fn most_left(&self) -> usize {
        match self.source {
            Source::Runs { matches, .. } if self.next == 0 => matches.matched(),
            Source::Live(entities) if self.next == 0 => entities.len(),
            _ => self.end - self.next,
        }
    }

    /// The next segment, with `state` shifted as an aligned segment needs.
    #[inline(always)]
    pub(crate) fn next<Q: QueryData>(&mut self, state: &mut Q::State<'_>) -> Option<Segment<'w>> {
        match self.source {
            Source::Runs { driver, matches } => {
                let run = *matches.runs().get(self.next_run)?;
                let range = run.range();
                if range.start >= self.end {
                    return None;
                }
                let range = range.start.max(self.next)..range.end.min(self.end);
                Q::replay_shifts(
                    state,
                    &mut matches.shifts_of(self.next_run),
                    driver,
                    range.start,
                );
                debug_assert!(
                    Q::aligned(state, driver, range.clone()),
                    "a cached run is no longer aligned"
                );
                self.next_run += 1;
                self.next = range.end;
                Some(Segment::Aligned(range))
            }
            Source::Live(entities) => {
                if self.next >= self.end {
                    return None;
                }
                let slots = self.next..self.end;
                self.next = self.end;
                Some(Segment::Live(entities.alive_in(slots)))
            }
        }
    }
}

/// The consumer: folds `g` over the matches of `segment`, in order.
///
/// # Safety
/// `segment` was just produced by [`Segments::next`] over `driver` (that
/// producer's [`driver`](Segments::driver)) with `state` as it left it; the
/// producer's safety contract holds; `state` and `filter` belong to a query
/// whose access check passed, over the world the producer's source is
/// from, which stays borrowed as the states require while the items live;
/// items of distinct entities may be live at once.
#[inline(always)]
pub(crate) unsafe fn fold_segment<'q, Q: QueryData, F: QueryFilter, B>(
    state: &Q::State<'_>,
    filter: &F::State<'_>,
    driver: &[Entity],
    segment: Segment<'_>,
    init: B,
    g: &mut impl FnMut(B, Q::Item<'q>) -> B,
) -> B {
    // Copies of the states, whose addresses nothing else takes: the loops
    // below keep their columns in registers (measured: a fifth fewer
    // instructions in the `change_detection` row than reading through the
    // caller's state).
    let (state, filter) = (*state, *filter);
    let (state, filter) = (&state, &filter);
    match segment {
        // SAFETY: an aligned segment is aligned for `state` as the producer
        // left it (the caller's contract), within `driver`, whose entities
        // are a storage's: live and distinct.
        Segment::Aligned(range) => unsafe {
            fold_aligned::<Q, F, B>(state, filter, driver, range, init, g)
        },
        Segment::Live(alive) => alive.fold(init, |acc, entity| {
            // SAFETY: the allocator's live entities, each in one slot and so
            // produced once; the states are a checked query's, over the
            // world the allocator belongs to, borrowed while items live.
            match unsafe { probe::<Q, F>(state, filter, entity, Seat::Anywhere) } {
                Some(item) => g(acc, item),
                None => acc,
            }
        }),
    }
}

/// Folds `g` over the matches among `driver[range]`, a stretch where every
/// column of `data` holds the driver's entities under its current shifts:
/// each position passed through the filter, a change filter's chunk of 64
/// at once, and read as zipped arrays.
///
/// # Safety
/// `range` lies within `driver`, the dense entity array of a storage of the
/// world the states were built from, and is aligned for `data` as it
/// stands; the world stays borrowed as the states require while the items
/// live; the states belong to a query whose access check passed; items of
/// distinct entities may be live at once.
#[inline(always)]
unsafe fn fold_aligned<'q, Q: QueryData, F: QueryFilter, B>(
    data: &Q::State<'_>,
    filter: &F::State<'_>,
    driver: &[Entity],
    range: Range<usize>,
    init: B,
    g: &mut impl FnMut(B, Q::Item<'q>) -> B,
) -> B {
    let mut acc = init;
    if F::READS_TICKS {
        let mut start = range.start;
        while start < range.end {
            let len = (range.end - start).min(CHUNK_BITS);
            let kept = passes_aligned_chunk::<F>(filter, driver, start, len);
            for at in SetBits::new(kept, start) {
                // SAFETY: `at` lies in the aligned `range` (the caller's
                // contract), and the driver's entity there is live, distinct,
                // and fetched once; the states are a checked query's.
                acc = g(acc, unsafe { Q::fetch_aligned(data, driver[at], at) });
            }
            start += len;
        }
        return acc;
    }
    for (offset, &entity) in driver[range.clone()].iter().enumerate() {
        let at = range.start + offset;
        if passes_aligned::<F>(filter, entity, driver, at) {
            // SAFETY: `at` lies in the aligned `range` (the caller's
            // contract) and `entity` is `driver[at]`: live, distinct, fetched
            // once; the states are a checked query's, over a borrowed world.
            acc = g(acc, unsafe { Q::fetch_aligned(data, entity, at) });
        }
    }
    acc
}
