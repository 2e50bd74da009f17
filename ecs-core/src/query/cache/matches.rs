//! A prepared query's cached matches: the runs of its driving storage over
//! which every column it fetches holds the driver's entities, found once and
//! walked again, without a single sparse lookup, for as long as no storage
//! the query requires changes structure.

use core::ops::Range;

use crate::entity::Entity;

use crate::query::column::Required;
use crate::query::data::QueryData;
use crate::query::filter::QueryFilter;

/// How many positions a search compares at once to extend a run.
///
/// Large enough that the comparison (one entity id per required column) is
/// one tight loop, small enough that a run ending inside a chunk is found a
/// few positions past its end.
const CHUNK: usize = 64;

/// One stretch of the driver's positions, `start..end`, over which every
/// column of the fetch holds the driver's entities, each at one shift (the
/// run's recorded shifts).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Run {
    pub(crate) start: u32,
    pub(crate) end: u32,
}

impl Run {
    /// The run's positions, as indexes into the driver.
    #[inline(always)]
    pub(crate) fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// Where a storage stands structurally: how often its entities have moved
/// and how many it holds. Appending raises the length and leaves the
/// count; every other change of which entities it holds or where (a
/// removal, a swap, a sort, a clear, a restore that changes order) raises
/// the count. Two equal versions of one storage therefore mean the same
/// entities at the same positions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Version {
    reorders: u64,
    len: usize,
}

impl Version {
    #[inline(always)]
    fn of(required: &Required<'_>) -> Self {
        Self {
            reorders: required.reorders,
            len: required.entities.len(),
        }
    }
}

/// What a prepared query found the last time the world's structure
/// changed under it: the runs of its driving storage where it matches, and
/// the columns' shifts in each.
///
/// Invariants, while [`is_current`](Self::is_current) holds for the states
/// of the same query over the same world:
/// - every run lies within the driving storage the query's plan picks (the
///   same one: the plan's choice depends on the storages' lengths alone,
///   which the versions pin), runs are in increasing order and do not
///   overlap;
/// - for every run `r`, `shifts[r * stride..][..stride]` is what
///   [`QueryData::record_shifts`] reported after
///   `QueryData::realign(state, driver, r.start)`, and with those shifts
///   `QueryData::aligned(state, driver, r.range())` returned `true`;
/// - a driver position in no run holds an entity that lacks a component
///   the fetch requires.
///
/// Filters are not cached: each position of a run still passes through
/// them, so `With`, `Without` and the change filters answer as they stand.
#[derive(Default)]
pub(crate) struct Matches {
    /// Whether `versions` and the runs describe anything yet.
    found: bool,
    /// The versions of the storages the query requires, the fetch's then
    /// the filter's, in `for_each_required` order, when the runs were found.
    versions: Vec<Version>,
    runs: Vec<Run>,
    /// The recorded shifts, `stride` per run.
    shifts: Vec<usize>,
    stride: usize,
    /// How many positions the runs cover.
    matched: usize,
    /// How long the driver was when the runs were found.
    searched: usize,
    /// How many times the runs were found anew.
    finds: u64,
}

/// What a prepared query's cached matches hold, for a reader who wants to
/// know why a loop is fast or slow.
///
/// Read with [`QueryState::match_stats`](crate::query::QueryState::match_stats).
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
/// world.spawn_batch((0..100).map(|i| (Position(i as f32), Velocity(1.0))));
/// let mut movement = world.query_state::<(&mut Position, &Velocity)>();
/// movement.query_mut(&mut world).for_each(|(p, v)| p.0 += v.0);
/// let stats = movement.match_stats();
/// assert_eq!((stats.runs, stats.matched), (1, 100));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MatchStats {
    /// How many runs a walk reads as zipped arrays (one per stretch of the
    /// driving storage where every fetched column holds the same entities).
    pub runs: usize,
    /// How many entities those runs hold: every entity that holds what the
    /// query fetches (filters then decide which of them match).
    pub matched: usize,
    /// How many candidates the last search looked at: the driving
    /// storage's length then (zero before the first search). A walk over
    /// current matches looks at none beyond the runs.
    pub searched: usize,
    /// How many times the matches were searched for, because a storage the
    /// query requires changed structure (or the query was new).
    pub searches: u64,
}

impl Matches {
    /// Whether the runs were found in the storages of `data` and `filter` as
    /// they stand now.
    #[inline]
    pub(crate) fn is_current<Q: QueryData, F: QueryFilter>(
        &self,
        data: &Q::State<'_>,
        filter: &F::State<'_>,
    ) -> bool {
        let mut index = 0;
        let mut same = self.found;
        let mut compare = |required: Required<'_>| {
            same &= self.versions.get(index) == Some(&Version::of(&required));
            index += 1;
        };
        Q::for_each_required(data, &mut compare);
        F::for_each_required(filter, &mut compare);
        same && index == self.versions.len()
    }

    /// Searches the driver for the runs where `data`'s columns hold its
    /// entities, and records the versions of every storage the query requires.
    /// The first `known_aligned` positions are aligned without shifts (a
    /// group's prefix, or what the world's alignment cache knows).
    pub(crate) fn find<Q: QueryData, F: QueryFilter>(
        &mut self,
        data: &Q::State<'_>,
        filter: &F::State<'_>,
        driver: &[Entity],
        known_aligned: usize,
    ) {
        // Not current until the search ends: one that unwinds part-way
        // leaves matches that are searched again, never walked.
        self.found = false;
        self.versions.clear();
        let versions = &mut self.versions;
        let mut record = |required: Required<'_>| versions.push(Version::of(&required));
        Q::for_each_required(data, &mut record);
        F::for_each_required(filter, &mut record);
        self.runs.clear();
        self.shifts.clear();
        self.stride = 0;
        Q::record_shifts(data, &mut |_| self.stride += 1);
        self.matched = 0;
        self.searched = driver.len();
        self.finds += 1;

        let len = driver.len();
        let mut state = *data;
        let mut start = 0;
        if known_aligned > 0 {
            let end = known_aligned.min(len);
            self.push::<Q>(&state, start, end);
            start = end;
        }
        while start < len {
            // The shifts of the run before may hold on after a gap; else
            // one lookup per column finds where each holds this entity.
            if !Q::aligned(&state, driver, start..start + 1) {
                Q::realign(&mut state, driver, start);
                if !Q::aligned(&state, driver, start..start + 1) {
                    // A column lacks this entity: no match here.
                    start += 1;
                    continue;
                }
            }
            let mut end = start + 1;
            while end < len {
                let next = (end + CHUNK).min(len);
                if !Q::aligned(&state, driver, end..next) {
                    break;
                }
                end = next;
            }
            while end < len && Q::aligned(&state, driver, end..end + 1) {
                end += 1;
            }
            self.push::<Q>(&state, start, end);
            start = end;
        }
        self.found = true;
    }

    /// Appends the run `start..end` with `state`'s shifts, joined to the run
    /// before when it follows on with the same shifts.
    fn push<Q: QueryData>(&mut self, state: &Q::State<'_>, start: usize, end: usize) {
        // Positions stop below `u32::MAX`: a storage holds at most that many.
        let (start32, end32) = (start as u32, end as u32);
        let shifts_at = self.shifts.len();
        Q::record_shifts(state, &mut |shift| self.shifts.push(shift));
        self.matched += end - start;
        if let Some(last) = self.runs.last_mut()
            && last.end == start32
            && self.shifts[shifts_at - self.stride..shifts_at] == self.shifts[shifts_at..]
        {
            last.end = end32;
            self.shifts.truncate(shifts_at);
            return;
        }
        self.runs.push(Run {
            start: start32,
            end: end32,
        });
    }

    /// The runs, in driver order.
    #[inline(always)]
    pub(crate) fn runs(&self) -> &[Run] {
        &self.runs
    }

    /// The recorded shifts of run `index`.
    #[inline(always)]
    pub(crate) fn shifts_of(&self, index: usize) -> &[usize] {
        let from = index * self.stride;
        self.shifts.get(from..from + self.stride).unwrap_or(&[])
    }

    /// How many positions the runs cover: an upper bound on the matches.
    #[inline]
    pub(crate) fn matched(&self) -> usize {
        self.matched
    }

    /// What the matches hold.
    pub(crate) fn stats(&self) -> MatchStats {
        MatchStats {
            runs: self.runs.len(),
            matched: self.matched,
            searched: self.searched,
            searches: self.finds,
        }
    }
}
