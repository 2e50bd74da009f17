//! Iteration over the entities a query matches.

use core::iter::FusedIterator;
use core::marker::PhantomData;
use core::ops::Range;

use crate::entity::{AliveIter, Entity};

use super::cache::{Matches, fold_runs};
use super::chunk::{CHUNK_BITS, SetBits};
use super::data::QueryData;
use super::filter::QueryFilter;
use super::probe::{Seat, passes_aligned, passes_aligned_chunk, probe};

/// How many candidates share one alignment check.
///
/// Large enough that the check (one comparison of entity ids per required
/// column) is cheap per entity, small enough that one misplaced entity only
/// sends a few neighbours down the probing path.
pub(crate) const CHUNK: usize = 64;

/// Where the candidate entities come from.
#[derive(Clone)]
pub(crate) enum Candidates<'w> {
    /// The dense entities of the smallest storage every match must be in.
    Dense(DenseCursor<'w>),
    /// Every live entity, when the query requires no component.
    Alive(AliveIter<'w>),
    /// A prepared query's cached runs of the driving storage.
    Runs(RunCursor<'w>),
}

impl<'w> Candidates<'w> {
    /// Candidates from a storage's dense entities, of which the first
    /// `known_aligned` are aligned for the query without checking.
    pub(crate) fn dense(entities: &'w [Entity], known_aligned: usize) -> Self {
        Candidates::Dense(DenseCursor {
            entities,
            known_aligned,
            next: 0,
            chunk_end: 0,
            chunk_aligned: false,
            kept: SetBits::default(),
        })
    }
}

/// A position in a prepared query's cached runs.
#[derive(Clone)]
pub(crate) struct RunCursor<'w> {
    /// The driving storage's dense entities.
    driver: &'w [Entity],
    matches: &'w Matches,
    /// The run after the current one.
    next_run: usize,
    /// The next position, and the end of the current run.
    next: usize,
    end: usize,
    /// The positions before `next` of the chunk decided last that the
    /// filter kept and the walk has not yielded yet.
    kept: SetBits,
}

impl<'w> Candidates<'w> {
    /// Candidates from a prepared query's cached runs of `driver`.
    ///
    /// # Safety
    /// `matches` is current for the states the iterator reads through, whose
    /// plan drives from `driver`.
    pub(crate) unsafe fn runs(driver: &'w [Entity], matches: &'w Matches) -> Self {
        Candidates::Runs(RunCursor {
            driver,
            matches,
            next_run: 0,
            next: 0,
            end: 0,
            kept: SetBits::default(),
        })
    }
}

impl<'w> RunCursor<'w> {
    /// The driver and its cached runs.
    #[cfg(feature = "parallel")]
    pub(crate) fn parts(&self) -> (&'w [Entity], &'w Matches) {
        (self.driver, self.matches)
    }
}

impl<'w> DenseCursor<'w> {
    /// The whole entity array and its known-aligned prefix.
    #[cfg(feature = "parallel")]
    pub(crate) fn parts(&self) -> (&'w [Entity], usize) {
        (self.entities, self.known_aligned)
    }
}

/// A position in the driving storage, and what is known about the current chunk.
#[derive(Clone)]
pub(crate) struct DenseCursor<'w> {
    entities: &'w [Entity],
    known_aligned: usize,
    next: usize,
    chunk_end: usize,
    chunk_aligned: bool,
    /// As for [`RunCursor`]: the kept positions of the last chunk decided
    /// at once, in an aligned chunk, not yielded yet.
    kept: SetBits,
}

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
    candidates: Candidates<'w>,
    /// The state as built: no column shifted.
    data: Q::State<'w>,
    /// The state `next` reads through, its columns shifted for the current run.
    run: Q::State<'w>,
    filter: F::State<'w>,
    _items: PhantomData<&'q ()>,
}

impl<'w, Q: QueryData, F: QueryFilter> QueryIter<'_, 'w, Q, F> {
    /// # Safety
    /// `candidates` yields only live, distinct entities of the world `data` and
    /// `filter` were built from; a dense cursor walks the dense entity array of
    /// one of that world's storages; the world stays borrowed as the states
    /// require for as long as the iterator's items live; and the states belong
    /// to a query whose access check passed.
    pub(crate) unsafe fn new(
        candidates: Candidates<'w>,
        data: Q::State<'w>,
        filter: F::State<'w>,
    ) -> Self {
        Self {
            candidates,
            data,
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
        match &mut self.candidates {
            Candidates::Dense(cursor) => loop {
                if F::READS_TICKS
                    && let Some(index) = cursor.kept.next()
                {
                    // SAFETY: `index` was kept from an aligned chunk before
                    // `next`, whose shifts stay until `next` reaches the
                    // chunk's end; the entity is live (it is in a storage)
                    // and yielded once.
                    return Some(unsafe {
                        Q::fetch_aligned(&self.run, cursor.entities[index], index)
                    });
                }
                if cursor.next == cursor.chunk_end {
                    if cursor.next >= cursor.entities.len() {
                        return None;
                    }
                    if cursor.next < cursor.known_aligned {
                        // The known prefix is aligned at the same positions.
                        self.run = self.data;
                        cursor.chunk_end = cursor.known_aligned.min(cursor.entities.len());
                        cursor.chunk_aligned = true;
                    } else {
                        cursor.chunk_end = (cursor.next + CHUNK).min(cursor.entities.len());
                        cursor.chunk_aligned = align::<Q>(
                            &mut self.run,
                            cursor.entities,
                            cursor.next..cursor.chunk_end,
                        );
                    }
                }
                if F::READS_TICKS && cursor.chunk_aligned {
                    let len = (cursor.chunk_end - cursor.next).min(CHUNK_BITS);
                    let bits =
                        passes_aligned_chunk::<F>(&self.filter, cursor.entities, cursor.next, len);
                    cursor.kept = SetBits::new(bits, cursor.next);
                    cursor.next += len;
                    continue;
                }
                let index = cursor.next;
                cursor.next += 1;
                let entity = cursor.entities[index];
                if cursor.chunk_aligned {
                    if !passes_aligned::<F>(&self.filter, entity, cursor.entities, index) {
                        continue;
                    }
                    // SAFETY: the chunk holding `index` is aligned under the
                    // state's current shifts, unchanged since it was checked; the
                    // entity is live (it is in a storage) and yielded once.
                    return Some(unsafe { Q::fetch_aligned(&self.run, entity, index) });
                }
                // SAFETY: `entity` is the cursor's candidate at `index`, live
                // and distinct from every other (the constructor's contract),
                // and the cursor passes each position once, so no other item
                // of it is live.
                let item = unsafe {
                    probe_apart::<Q, F>(&self.data, &self.filter, cursor.entities, index)
                };
                if let Some(item) = item {
                    return Some(item);
                }
            },
            Candidates::Runs(_) => self.next_in_runs(),
            Candidates::Alive(alive) => loop {
                let entity = alive.next()?;
                let (data, filter) = (&self.data, &self.filter);
                // SAFETY: `entity` is a candidate, live and distinct from every
                // other (the constructor's contract), and the walk yields each
                // once, so no other item of it is live; the states are a
                // checked query's, over a world borrowed while items live.
                if let Some(item) = unsafe { probe::<Q, F>(data, filter, entity, Seat::Anywhere) } {
                    return Some(item);
                }
            },
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let upper = match &self.candidates {
            Candidates::Dense(cursor) => cursor.entities.len() - cursor.next,
            Candidates::Runs(cursor) => cursor.matches.matched(),
            Candidates::Alive(alive) => alive.size_hint().1.unwrap_or(usize::MAX),
        };
        (0, Some(upper))
    }

    // Like `Query::for_each`: one copy per closure, called from one place,
    // so inlining costs no code and keeps the iterator out of memory.
    #[inline(always)]
    fn fold<B, G>(self, init: B, mut g: G) -> B
    where
        G: FnMut(B, Q::Item<'q>) -> B,
    {
        let (data, filter) = (self.data, self.filter);
        match self.candidates {
            Candidates::Dense(cursor) => {
                let mut init = init;
                for index in cursor.kept {
                    // SAFETY: kept from an aligned chunk before `next` under
                    // the shifts of `self.run`, unchanged since, as in `next`;
                    // the entity is live and not yielded before.
                    init = g(init, unsafe {
                        Q::fetch_aligned(&self.run, cursor.entities[index], index)
                    });
                }
                let range = cursor.next..cursor.entities.len();
                // SAFETY: the cursor walks one of the states' world's storages
                // (the constructor's contract), and `range` is its unvisited
                // rest, within it; its first `known_aligned` positions are
                // aligned for the unshifted `data`; the world stays borrowed
                // while the items live, and the entities are distinct.
                unsafe {
                    fold_dense::<Q, F, B>(
                        &data,
                        &filter,
                        cursor.entities,
                        range,
                        cursor.known_aligned,
                        init,
                        g,
                    )
                }
            }
            Candidates::Runs(cursor) if cursor.next_run == 0 => {
                // SAFETY: the cursor's matches are current for these states,
                // whose plan drives from its driver (the constructor's
                // contract); the world stays borrowed while the items live,
                // and the driver's entities are distinct.
                unsafe {
                    fold_runs::<Q, F, B>(
                        &data,
                        &filter,
                        cursor.driver,
                        cursor.matches,
                        0..cursor.driver.len(),
                        init,
                        g,
                    )
                }
            }
            Candidates::Runs(cursor) => {
                // Part-way through: the rest, one item at a time.
                let rest = Self {
                    candidates: Candidates::Runs(cursor),
                    data,
                    run: self.run,
                    filter,
                    _items: PhantomData,
                };
                // A `for` loop calls `next`, never this `fold` again.
                let mut acc = init;
                for item in rest {
                    acc = g(acc, item);
                }
                acc
            }
            Candidates::Alive(alive) => alive.fold(init, |acc, entity| {
                // SAFETY: the walk's entities are live and distinct (the
                // constructor's contract), each probed once; the states are a
                // checked query's, over a world borrowed while items live.
                match unsafe { probe::<Q, F>(&data, &filter, entity, Seat::Anywhere) } {
                    Some(item) => g(acc, item),
                    None => acc,
                }
            }),
        }
    }
}

impl<'q, Q: QueryData, F: QueryFilter> QueryIter<'q, '_, Q, F> {
    /// The next item of a walk over cached runs: apart from `next`'s loops
    /// over chunks, so that each keeps its own state in registers.
    #[inline(always)]
    fn next_in_runs(&mut self) -> Option<Q::Item<'q>> {
        let Candidates::Runs(cursor) = &mut self.candidates else {
            return None;
        };
        loop {
            if F::READS_TICKS
                && let Some(index) = cursor.kept.next()
            {
                // SAFETY: `index` was kept from a chunk of the current run,
                // whose shifts were put back when it began, as for the
                // positions below; the entity is the driver's at `index`,
                // live, and yielded once.
                return Some(unsafe { Q::fetch_aligned(&self.run, cursor.driver[index], index) });
            }
            if cursor.next == cursor.end {
                let run = *cursor.matches.runs().get(cursor.next_run)?;
                let range = run.range();
                Q::replay_shifts(
                    &mut self.run,
                    &mut cursor.matches.shifts_of(cursor.next_run),
                    cursor.driver,
                    range.start,
                );
                debug_assert!(
                    Q::aligned(&self.run, cursor.driver, range.clone()),
                    "a cached run is no longer aligned"
                );
                cursor.next_run += 1;
                (cursor.next, cursor.end) = (range.start, range.end);
            }
            if F::READS_TICKS {
                // Change filters compare a chunk of ticks at once.
                let len = (cursor.end - cursor.next).min(CHUNK_BITS);
                let bits = passes_aligned_chunk::<F>(&self.filter, cursor.driver, cursor.next, len);
                cursor.kept = SetBits::new(bits, cursor.next);
                cursor.next += len;
                continue;
            }
            let index = cursor.next;
            cursor.next += 1;
            let entity = cursor.driver[index];
            if !passes_aligned::<F>(&self.filter, entity, cursor.driver, index) {
                continue;
            }
            // SAFETY: the current run was found aligned under the shifts
            // put back when it began, in storages whose structure is
            // unchanged since (the cursor's matches are current: the
            // constructor's contract); the entity is the driver's at
            // `index`, live, and yielded once.
            return Some(unsafe { Q::fetch_aligned(&self.run, entity, index) });
        }
    }
}

impl<Q: QueryData, F: QueryFilter> FusedIterator for QueryIter<'_, '_, Q, F> {}

/// The item of the candidate at `driver[index]`, in a chunk that is not
/// aligned, if it matches: [`probe`] through the sparse indexes. Kept out of
/// `QueryIter::next`'s loop, so that the aligned path, which most walks
/// take, keeps its state in registers.
///
/// # Safety
/// As for [`probe`]: `driver[index]` is a live candidate of a walk over the
/// world both states were built from, and no other item of it is live.
#[inline(never)]
unsafe fn probe_apart<'q, Q: QueryData, F: QueryFilter>(
    data: &Q::State<'_>,
    filter: &F::State<'_>,
    driver: &[Entity],
    index: usize,
) -> Option<Q::Item<'q>> {
    let seat = Seat::Driver(driver, index);
    // SAFETY: `driver[index]` is a live candidate of a walk over the world
    // both states were built from, and no other item of it is live (the
    // caller's contract), which is all `probe` asks.
    unsafe { probe::<Q, F>(data, filter, driver[index], seat) }
}

/// Whether the chunk `range` of the driver `entities` is aligned for `Q`: under
/// the columns' current shifts (the run before it went on), or else after
/// shifting every column to where it holds the chunk's first entity (a run of
/// entities spawned together, held at another offset).
#[inline(always)]
fn align<Q: QueryData>(data: &mut Q::State<'_>, entities: &[Entity], range: Range<usize>) -> bool {
    Q::aligned(data, entities, range.clone()) || {
        Q::realign(data, entities, range.start);
        Q::aligned(data, entities, range)
    }
}

/// Folds `g` over the matches among `entities[range]`, in order.
///
/// Positions below `known_aligned` are aligned without checking (a group keeps
/// them so). Elsewhere the range is taken in chunks of [`CHUNK`]: aligned chunks
/// (at the same positions, or at one offset per column, see [`align`]) join
/// into runs read as zipped arrays, the others probe sparse indexes.
///
/// # Safety
/// `entities` is the dense entity array of a storage of the world `pristine`
/// and `filter` were built from, `range` lies within it, the first
/// `known_aligned` positions are aligned for `Q` as `pristine` stands (no
/// column shifted), the world stays borrowed as the states require while
/// the items live, and the states belong to a query whose access check
/// passed; items of distinct entities may be live at once.
#[inline(always)]
pub(crate) unsafe fn fold_dense<'q, Q: QueryData, F: QueryFilter, B>(
    pristine: &Q::State<'_>,
    filter: &F::State<'_>,
    entities: &[Entity],
    range: Range<usize>,
    known_aligned: usize,
    init: B,
    mut g: impl FnMut(B, Q::Item<'q>) -> B,
) -> B {
    let mut acc = init;
    // This walk's own copy: shifting its columns changes nothing for the
    // caller or for other parts of a parallel walk.
    let mut run = *pristine;
    let data = &mut run;
    let mut start = range.start;
    while start < range.end {
        let mut end = (start + CHUNK).min(range.end);
        let aligned = if start < known_aligned {
            // The known prefix is aligned at the same positions: no shift.
            *data = *pristine;
            end = known_aligned.min(range.end);
            true
        } else {
            align::<Q>(data, entities, start..end)
        };
        if aligned {
            // Extend the run chunk by chunk, so the loop below is one long
            // zipped pass rather than many short ones.
            while end < range.end {
                let next = (end + CHUNK).min(range.end);
                if !Q::aligned(data, entities, end..next) {
                    break;
                }
                end = next;
            }
            // SAFETY: the run is aligned under the shifts it was checked
            // with, which stay until the next chunk; a storage's dense
            // entities are live and distinct; the states are a checked
            // query's, over a world borrowed while the items live.
            acc =
                unsafe { fold_aligned::<Q, F, B>(data, filter, entities, start..end, acc, &mut g) };
        } else {
            for (offset, &entity) in entities[start..end].iter().enumerate() {
                let seat = Seat::Driver(entities, start + offset);
                // SAFETY: a storage's dense entities are live and distinct, and
                // each position of `range` is probed once; the states are a
                // checked query's, over a world borrowed while items live.
                if let Some(item) = unsafe { probe::<Q, F>(data, filter, entity, seat) } {
                    acc = g(acc, item);
                }
            }
        }
        start = end;
    }
    acc
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
pub(crate) unsafe fn fold_aligned<'q, Q: QueryData, F: QueryFilter, B>(
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
