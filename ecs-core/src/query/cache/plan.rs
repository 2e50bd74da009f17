//! What a query works out before its first walk: the storage that drives
//! it, and how much of that storage is known aligned for the fetch (a
//! group's packed prefix, or what the alignment cache learned), which the
//! search for its matches then takes without comparing an id.

use crate::group::GroupSpan;
use crate::view::WorldView;

use super::kept::KeptMatches;
use super::matches::Matches;
use crate::query::Query;
use crate::query::column::Required;
use crate::query::data::QueryData;
use crate::query::filter::QueryFilter;
use crate::query::walk::Source;

impl<'w, Q: QueryData, F: QueryFilter> Query<'w, Q, F> {
    /// A query over the given states whose walks take `source`: the cached
    /// runs of its driving storage, or every live entity when it requires
    /// no storage (and keeps no matches).
    ///
    /// # Safety
    /// For [`Source::Runs`], `matches` was only ever searched by queries of
    /// this `Q` and `F` over the world `view` borrows, is current for `data`
    /// and `filter` (no storage they require changed structure since its
    /// last search), and its runs are of `driver`, the query's driving
    /// storage; a [`Source::Live`] lists that world's entities. `kept` is
    /// the table of that world, and `Q` passed its access check
    /// ([`Query::check_access`]).
    #[inline]
    pub(in crate::query) unsafe fn walking(
        view: WorldView<'w>,
        data: Q::State<'w>,
        filter: F::State<'w>,
        source: Source<'w>,
        kept: &'w KeptMatches,
    ) -> Self {
        Query {
            view,
            data,
            filter,
            source,
            kept,
        }
    }
}

/// Searches `matches` again when a storage the query requires changed
/// structure since its last search; `driver` is the query's driving storage.
///
/// The caller keeps the first invariant of [`KeptMatches`](super::KeptMatches):
/// `matches` was only searched by this `Q` and `F` over the world `view`
/// borrows.
#[inline]
pub(in crate::query) fn refresh<'w, Q: QueryData, F: QueryFilter>(
    view: WorldView<'w>,
    kept: &KeptMatches,
    data: &Q::State<'w>,
    filter: &F::State<'w>,
    driver: Required<'w>,
    matches: &mut Matches,
) {
    if !matches.is_current::<Q, F>(data, filter) {
        let known = known_aligned::<Q, F>(view, kept, data, filter, driver);
        matches.find::<Q, F>(data, filter, driver.entities, known);
    }
}

/// The driving storage: the smallest that every match is in (the first of
/// the smallest, in the order the fetch and then the filter report them, so
/// storages of the same lengths give the same choice); none when the query
/// requires no storage.
#[inline]
pub(in crate::query) fn driver<'w, Q: QueryData, F: QueryFilter>(
    data: &Q::State<'w>,
    filter: &F::State<'w>,
) -> Option<Required<'w>> {
    let mut driver: Option<Required<'w>> = None;
    let mut consider = |required: Required<'w>| {
        if driver.is_none_or(|best| required.entities.len() < best.entities.len()) {
            driver = Some(required);
        }
    };
    Q::for_each_required(data, &mut consider);
    F::for_each_required(filter, &mut consider);
    driver
}

/// How many leading positions of `driver` are known aligned for every
/// column of the fetch, never past the shortest of them.
#[inline]
fn known_aligned<'w, Q: QueryData, F: QueryFilter>(
    view: WorldView<'w>,
    kept: &KeptMatches,
    data: &Q::State<'w>,
    filter: &F::State<'w>,
    driver: Required<'w>,
) -> usize {
    // Positions below `known_aligned` are read by index from every column of
    // `Q`: never past the shortest of them. Columns that are the driving
    // storage itself are aligned throughout (a query of one type, or one whose
    // filters require nothing smaller): the walk is one run, no chunk checked.
    let mut shortest = usize::MAX;
    Q::for_each_required(data, &mut |column: Required<'w>| {
        shortest = shortest.min(column.entities.len());
    });
    let mut known = if all_driver::<Q>(data, driver) {
        driver.entities.len()
    } else {
        // Only here are groups asked: a query whose columns are all the
        // driver (the common one-type loop) never looks its group up.
        let mut shared_group = SharedGroup::Unknown;
        let mut add = |required: Required<'w>| {
            shared_group.add(required.component.and_then(|id| view.group_span(id)));
        };
        Q::for_each_required(data, &mut add);
        F::for_each_required(filter, &mut add);
        shared_group.prefix()
    };
    // One column at most is aligned with the driver or not read by position;
    // a group covering the whole driver leaves nothing to learn.
    if Q::LEAVES >= 2 && known < driver.entities.len() {
        let mut cache = kept.alignment();
        let mut cached = driver.entities.len();
        Q::for_each_required(data, &mut |column: Required<'w>| {
            if cached > 0 {
                cached = cached.min(match (driver.order(), column.order()) {
                    (Some(driver), Some(column)) => cache.aligned_prefix(driver, column),
                    _ => 0,
                });
            }
        });
        known = known.max(cached);
    }
    known.min(shortest)
}

/// Whether every column of the fetch is the driving storage itself, so the
/// whole driver is aligned for it.
#[inline(always)]
fn all_driver<'w, Q: QueryData>(data: &Q::State<'w>, driver: Required<'w>) -> bool {
    let mut all_driver = true;
    Q::for_each_required(data, &mut |column: Required<'w>| {
        all_driver &= core::ptr::eq(column.entities, driver.entities);
    });
    all_driver
}

/// Whether every required storage seen so far belongs to the same group.
#[derive(Clone, Copy)]
enum SharedGroup {
    Unknown,
    All(GroupSpan),
    Mixed,
}

impl SharedGroup {
    fn add(&mut self, group: Option<GroupSpan>) {
        *self = match (*self, group) {
            (SharedGroup::Unknown, Some(span)) => SharedGroup::All(span),
            (SharedGroup::All(span), Some(other)) if span.group == other.group => {
                SharedGroup::All(span)
            }
            _ => SharedGroup::Mixed,
        };
    }

    /// How many leading positions of any of the storages are known aligned.
    fn prefix(self) -> usize {
        match self {
            SharedGroup::All(span) => span.len,
            SharedGroup::Unknown | SharedGroup::Mixed => 0,
        }
    }
}
