//! The matches a world keeps per query type: the one cache every spelling
//! of a query reaches (`World::query`, `query_filtered`, `query_ref`, a
//! `QueryState`, a system's `Query` param, and what `.filter()` / `.with()` /
//! `.without()` narrow any of them to), so a query written by hand every
//! frame walks its runs as a prepared one does, and two spellings of one
//! query search once between them.

use core::any::TypeId;
use core::cell::UnsafeCell;
use core::hash::BuildHasherDefault;
use core::ptr::NonNull;
use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard, PoisonError};

use crate::util::TypeIdHasher;
use crate::view::{ViewMode, WorldView};

use super::alignment::AlignmentCache;
use super::matches::{MatchStats, Matches};
use super::plan::{driver, refresh};
use crate::query::Query;
use crate::query::column::Required;
use crate::query::data::QueryData;
use crate::query::filter::QueryFilter;
use crate::query::walk::Source;

/// Per query type `(Q, F)`, the matches its last use over this world found:
/// the one cache that `World::query`, `query_filtered`, `query_ref`,
/// [`QueryState`](crate::query::QueryState), a system's `Query` param, and
/// `.filter()` / `.with()` / `.without()` on any of them reach.
///
/// Keyed by `typeid::of::<(Q, F)>()`, the id of the type with every lifetime
/// made `'static`: two query types that differ only in lifetimes share one
/// impl of each trait (no impl can tell lifetimes apart) and compile to the
/// same code, so they search alike and may share an entry; any two that
/// differ otherwise have different ids.
///
/// Entries sit behind a lock so that queries built through a shared borrow
/// of the world (`query_ref`, possibly on several threads) reach them too;
/// each is boxed, so it stays where it is while the table grows, and none is
/// removed while the table lives.
///
/// Invariants:
/// - the entry under a query type's key was only ever searched by queries
///   of that type (up to lifetimes) over the one world that owns this table,
///   which is what [`Query::walking`] needs to walk it;
/// - an entry exists only for a query type whose fetch passed its access
///   check ([`Query::check_access`], which depends on the fetch alone);
/// - an entry is written only while the lock is held or the table is
///   borrowed exclusively, and only when it is not current. Every reference to an entry's matches was handed out while
///   the entry was current, and lives no longer than the borrow of the world
///   its query holds; an entry stops being current only when a storage its
///   query requires changes structure, which takes `&mut World` and so ends
///   every such borrow. So no reference to an entry is alive when it is
///   written.
#[derive(Default)]
pub(crate) struct KeptMatches {
    by_query: Mutex<Table>,
    /// What searches learned about storages that hold the same entities at
    /// the same positions, for the next search's known-aligned prefix.
    alignment: Mutex<AlignmentCache>,
}

/// Per query type, its boxed entry.
type Table = HashMap<TypeId, Box<UnsafeCell<Matches>>, BuildHasherDefault<TypeIdHasher>>;

/// How a prepared query reaches its world's [`KeptMatches`].
pub(crate) enum Reach<'w> {
    /// Through a shared borrow of the world (a system, or `QueryState::query`
    /// on `&World`): entries are read and written under the table's lock.
    Locked(&'w KeptMatches),
    /// With the world borrowed exclusively (`QueryState::query_mut`): no
    /// other query of it is alive, so the table needs no lock.
    Exclusive(&'w mut KeptMatches),
}

impl Reach<'_> {
    /// The table reached.
    pub(crate) fn table(&self) -> &KeptMatches {
        match self {
            Reach::Locked(kept) => kept,
            Reach::Exclusive(kept) => kept,
        }
    }
}

/// Where one query type's entry sits in a world's [`KeptMatches`]: found
/// once by a prepared query and kept with it, so that its later walks lock
/// the table without looking the entry up.
///
/// Only an address: it is read only through the table it came from, under
/// that table's lock ([`KeptMatches::walk_entry`]), and the table keeps each
/// entry boxed where it is for as long as it lives.
#[derive(Clone, Copy)]
pub(crate) struct KeptEntry(NonNull<UnsafeCell<Matches>>);

// SAFETY: an address, never read but through its table's lock (see the
// type's docs); sending or sharing it hands no access to the entry.
unsafe impl Send for KeptEntry {}
// SAFETY: as for `Send`: `&KeptEntry` gives nothing but the address.
unsafe impl Sync for KeptEntry {}

impl KeptMatches {
    /// The query `Q` filtered by `F` over `view`, walking the matches kept
    /// for it (searched again first if a storage it requires changed
    /// structure since).
    ///
    /// # Panics
    /// If `Q` asks for `&mut T` together with any other access to `T`.
    ///
    /// # Safety
    /// `view` borrows the world that owns this table, and every call on this
    /// table is given a view of that same world.
    #[inline]
    pub(crate) unsafe fn query<'w, Q, F, M>(&'w self, view: WorldView<'w, M>) -> Query<'w, Q, F>
    where
        Q: QueryData,
        F: QueryFilter,
        M: ViewMode,
    {
        let mut table = self.lock();
        // The check depends on the query type alone: made when its entry is,
        // and an entry is only made once the check passed (a check that
        // panics leaves the lock poisoned, which `lock` takes as it is).
        let entry = match table.get(&typeid::of::<(Q, F)>()) {
            Some(cell) => KeptEntry(NonNull::from(&**cell)),
            None => {
                Query::<Q, F>::check_access();
                Self::entry_in::<Q, F>(&mut table)
            }
        };
        let shared = view.as_shared();
        let (data, filter) = (Q::state(view), F::state(shared));
        let Some(driver) = driver::<Q, F>(&data, &filter) else {
            drop(table);
            let live = Source::Live(shared.entities());
            // SAFETY: a live source of the world `view` borrows, whose table
            // this is (this function's contract); `Q` passed its access check.
            return unsafe { Query::walking(shared, data, filter, live, self) };
        };
        // SAFETY: the lock is held and `entry` is `(Q, F)`'s in it; `view`
        // borrows this table's world (this function's contract), the states
        // were just built from it, `driver` is their driving storage, and
        // `Q` passed its access check, now or when its entry was made.
        unsafe { self.walk_locked(Some(table), shared, data, filter, driver, entry) }
    }

    /// A query over states built already, walking the matches kept for
    /// `(Q, F)`, made if new and searched again if not current.
    ///
    /// # Safety
    /// `view` borrows the world that owns this table, the states were built
    /// from it, and `Q` passed its access check ([`Query::check_access`]).
    #[inline]
    pub(in crate::query) unsafe fn walk<'w, Q: QueryData, F: QueryFilter>(
        &'w self,
        view: WorldView<'w>,
        data: Q::State<'w>,
        filter: F::State<'w>,
    ) -> Query<'w, Q, F> {
        let Some(driver) = driver::<Q, F>(&data, &filter) else {
            // Every live entity is a candidate: nothing to keep.
            let live = Source::Live(view.entities());
            // SAFETY: a live source of the world `view` borrows, whose table
            // this is, and `Q` passed its access check (this function's
            // contract).
            return unsafe { Query::walking(view, data, filter, live, self) };
        };
        let mut table = self.lock();
        let entry = Self::entry_in::<Q, F>(&mut table);
        // SAFETY: the entry is `(Q, F)`'s in this table, which is locked;
        // the rest is this function's contract.
        unsafe { self.walk_locked(Some(table), view, data, filter, driver, entry) }
    }

    /// [`walk`](Self::walk) for a prepared query, which found its entry once
    /// ([`entry`](Self::entry)) and skips looking it up again; with the world
    /// borrowed exclusively ([`Reach::Exclusive`]), it skips the lock too.
    ///
    /// # Safety
    /// As for [`walk`](Self::walk) on the table `reach` names, and `entry`
    /// is what `entry::<Q, F>()` returned on that very table.
    #[inline]
    pub(in crate::query) unsafe fn walk_entry<'w, Q: QueryData, F: QueryFilter>(
        reach: Reach<'w>,
        view: WorldView<'w>,
        data: Q::State<'w>,
        filter: F::State<'w>,
        entry: KeptEntry,
    ) -> Query<'w, Q, F> {
        let (kept, table) = match reach {
            Reach::Locked(kept) => (kept, Some(kept.lock())),
            // No other borrow of the table, so no other query, is alive
            // while this one holds `'w`: nothing to lock against.
            Reach::Exclusive(kept) => (&*kept, None),
        };
        let Some(driver) = driver::<Q, F>(&data, &filter) else {
            let live = Source::Live(view.entities());
            // SAFETY: a live source of the world `view` borrows, whose table
            // `kept` is, and `Q` passed its access check (this function's
            // contract).
            return unsafe { Query::walking(view, data, filter, live, kept) };
        };
        // SAFETY: `entry` is `(Q, F)`'s in this table (this function's
        // contract), which is locked or borrowed exclusively; the rest is
        // the contract too.
        unsafe { kept.walk_locked(table, view, data, filter, driver, entry) }
    }

    /// The entry kept for `(Q, F)`, made if new: where it stays for as long
    /// as the table lives.
    pub(in crate::query) fn entry<Q: QueryData, F: QueryFilter>(&self) -> KeptEntry {
        Self::entry_in::<Q, F>(&mut self.lock())
    }

    /// The entry for `(Q, F)` in the locked `table`, made if new.
    #[inline]
    fn entry_in<Q: QueryData, F: QueryFilter>(table: &mut Table) -> KeptEntry {
        let cell: &UnsafeCell<Matches> = table.entry(typeid::of::<(Q, F)>()).or_default();
        KeptEntry(NonNull::from(cell))
    }

    /// The walk over `entry`, searched again first if not current, with the
    /// table locked until then.
    ///
    /// # Safety
    /// `table` is this table's lock, held, or `None` when the table is
    /// borrowed exclusively for `'w`; `entry` is `(Q, F)`'s in it;
    /// `view` borrows the world that owns this table, the states were built
    /// from it, `driver` is the query's driving storage
    /// ([`driver`](super::plan::driver)), and `Q` passed its access check.
    #[inline]
    unsafe fn walk_locked<'w, Q: QueryData, F: QueryFilter>(
        &'w self,
        table: Option<MutexGuard<'_, Table>>,
        view: WorldView<'w>,
        data: Q::State<'w>,
        filter: F::State<'w>,
        driver: Required<'w>,
        entry: KeptEntry,
    ) -> Query<'w, Q, F> {
        // SAFETY: the entry is boxed in this table and never removed while
        // the table lives, which is while the world lives, and the world
        // outlives `'w`.
        let cell: &'w UnsafeCell<Matches> = unsafe { entry.0.as_ref() };
        // SAFETY: a shared read of the entry: writes happen only under the
        // lock, which this thread holds (or with the table borrowed
        // exclusively, as it is if not locked), so none runs now; other
        // readers only read (the third invariant).
        let current = unsafe { &*cell.get() }.is_current::<Q, F>(&data, &filter);
        if !current {
            // SAFETY: the lock is held (or the table borrowed exclusively);
            // only queries of `(Q, F)` over this world searched the entry
            // (the first invariant, kept by its key), and as it is not
            // current no reference to it is alive (the third), so the search
            // writes what nobody reads.
            let matches = unsafe { &mut *cell.get() };
            refresh::<Q, F>(view, self, &data, &filter, driver, matches);
        }
        drop(table);
        // SAFETY: current now, it is written again only once a structural
        // change has ended `'w` (the third invariant).
        let matches: &'w Matches = unsafe { &*cell.get() };
        let source = Source::Runs {
            driver: driver.entities,
            matches,
        };
        // SAFETY: the runs source's matches were searched only by `(Q, F)`
        // over the world `view` borrows, are current for these states, with
        // runs of its driver `driver`; this is that world's table, and `Q`
        // passed its access check (this function's contract).
        unsafe { Query::walking(view, data, filter, source, self) }
    }

    /// The table, locked. A poisoned lock only means another thread
    /// panicked while holding it: an entry is written by one search, which
    /// leaves it unsearched (never current) if it panics part-way, so every
    /// entry stays valid.
    fn lock(&self) -> MutexGuard<'_, Table> {
        self.by_query.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The alignment cache, locked while a query is planned or searched; a
    /// poisoned lock still holds valid data (every entry is checked against
    /// the storages before use). Taken after the table's lock, never before.
    pub(in crate::query) fn alignment(&self) -> MutexGuard<'_, AlignmentCache> {
        self.alignment
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
    }
}
impl<'w, Q: QueryData, F: QueryFilter> Query<'w, Q, F> {
    /// What the matches this query walks hold: the runs the world keeps for
    /// its type, one entry per query type, shared by every spelling of it
    /// ([`World::query`](crate::World::query), `query_filtered`, `query_ref`,
    /// a [`QueryState`](crate::query::QueryState), a system's `Query` param,
    /// or a query narrowed by [`filter`](Self::filter), `with` or `without`
    /// to it). `None` for a query that requires no component, which walks
    /// every live entity and keeps nothing.
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
    /// world.spawn_batch((0..10).map(|i| (Position(i as f32), Velocity(1.0))));
    /// for _frame in 0..3 {
    ///     world.query::<(&mut Position, &Velocity)>().for_each(|(p, v)| p.0 += v.0);
    /// }
    /// let stats = world.query::<(&mut Position, &Velocity)>().match_stats();
    /// assert_eq!(stats.map(|s| (s.runs, s.searches)), Some((1, 1)), "searched once");
    /// ```
    pub fn match_stats(&self) -> Option<MatchStats> {
        match self.source {
            Source::Runs { matches, .. } => Some(matches.stats()),
            Source::Live(_) => None,
        }
    }
}
