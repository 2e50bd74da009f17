//! The one order in which a query decides a candidate: which components it
//! holds, then its change ticks, then its item.
//!
//! Two queries may write one component type at the same moment when the
//! access check finds them disjoint: one requires a type the other excludes
//! (`With<Boss>` beside `Without<Boss>`, or a required `&Shield` beside
//! `Without<Shield>`). That promise is about the entities each *matches*,
//! not those it looks at: a query walking `Health`'s storage sees every
//! holder, bosses included. So nothing of a candidate may be read before it
//! passed every condition that makes the queries disjoint: a change filter
//! listed before `Without<Boss>` must not read a boss's tick, and a fetch
//! listed before a required `&Shield` must not make a reference to the value
//! of an entity without one. Every walk and lookup of a query goes through
//! [`probe`], [`passes_aligned`] or [`passes_aligned_chunk`], which take the steps in that order
//! whatever order the query's type lists them in.

use crate::entity::Entity;

use super::data::QueryData;
use super::filter::QueryFilter;

/// Where a query found a candidate: position `index` of the driving
/// storage's dense entities `driver` (filters on that storage then answer
/// without probing), or nowhere in particular (a lookup by id, or a walk
/// over every live entity). What a filter's per-entity conditions are told.
#[derive(Clone, Copy)]
pub enum Seat<'a> {
    /// Found at `driver[index]`.
    Driver(&'a [Entity], usize),
    /// Named by id.
    Anywhere,
}

/// `entity`'s item, if it matches: the filter's presence conditions, then
/// the fetch's required components (located, nothing read), then the
/// filter's ticks, and only then the values.
///
/// # Safety
/// `entity` is alive in the world both states were built from (or held by a
/// storage `Q` or `F` requires, which holds only live entities), that borrow
/// lasts for `'q`, no other item of `entity` from a state with write access
/// is live during `'q`, and the states belong to a query whose access check
/// passed: with the location found here, what [`QueryData::fetch_located`]
/// requires.
#[inline(always)]
pub(crate) unsafe fn probe<'q, Q: QueryData, F: QueryFilter>(
    data: &Q::State<'_>,
    filter: &F::State<'_>,
    entity: Entity,
    seat: Seat<'_>,
) -> Option<Q::Item<'q>> {
    if !F::matches_presence(filter, entity, seat) {
        return None;
    }
    let location = Q::locate(data, entity)?;
    if F::READS_TICKS && !F::matches_ticks(filter, entity, seat) {
        return None;
    }
    // SAFETY: `location` is what `locate` returned for `entity` and `data`
    // just now. `entity` is live: the caller says so, or it is held by a
    // storage `Q` or `F` requires, which it just passed. The caller guarantees
    // the rest: the world borrowed for `'q`, no other writing item of
    // `entity` live, and the query's access checked.
    Some(unsafe { Q::fetch_located(data, entity, location) })
}

/// Whether `entity`, at `driver[index]` in a run where every column the
/// fetch requires holds the driver's entities (so the required components
/// are known present), passes the filter: presence first, then ticks.
#[inline(always)]
pub(crate) fn passes_aligned<F: QueryFilter>(
    filter: &F::State<'_>,
    entity: Entity,
    driver: &[Entity],
    index: usize,
) -> bool {
    let seat = Seat::Driver(driver, index);
    F::matches_presence(filter, entity, seat)
        && (!F::READS_TICKS || F::matches_ticks(filter, entity, seat))
}

/// [`passes_aligned`] for the `len` positions from `start` of `driver` (`len`
/// at most 64, within `driver`), as bits: bit `i` set when `driver[start + i]`
/// passes. The presence conditions of the whole chunk are decided first, and
/// ticks are read only for the positions that passed them.
#[inline(always)]
pub(crate) fn passes_aligned_chunk<F: QueryFilter>(
    filter: &F::State<'_>,
    driver: &[Entity],
    start: usize,
    len: usize,
) -> u64 {
    let present = F::presence_chunk(filter, driver, start, len);
    if !F::READS_TICKS || present == 0 {
        return present;
    }
    F::ticks_chunk(filter, driver, start, len, present)
}
