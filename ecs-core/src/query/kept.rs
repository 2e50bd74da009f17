//! The matches a world keeps for the queries built by its own methods
//! (`World::query`, `World::query_filtered`), one entry per query type, so
//! a query written by hand every frame walks its runs as a prepared one
//! does instead of probing every candidate again.

use core::any::TypeId;
use core::hash::BuildHasherDefault;
use std::collections::HashMap;
use std::collections::hash_map::Entry;

use crate::util::TypeIdHasher;
use crate::view::{ViewMode, WorldView};

use super::Query;
use super::data::QueryData;
use super::filter::QueryFilter;
use super::matches::{MatchStats, Matches};

/// Per query type `(Q, F)`, the matches its last use over this world found.
///
/// Keyed by `typeid::of::<(Q, F)>()`, the id of the type with every lifetime
/// made `'static`: two query types that differ only in lifetimes share one
/// impl of each trait (no impl can tell lifetimes apart) and compile to the
/// same code, so they search alike and may share an entry; any two that
/// differ otherwise have different ids.
///
/// Invariant: the entry under a query type's key was only ever searched by
/// queries of that type (up to lifetimes) over the one world that owns this
/// table, which is what [`Query::planned_with`] needs to walk it.
#[derive(Default)]
pub(crate) struct KeptMatches {
    by_query: HashMap<TypeId, Matches, BuildHasherDefault<TypeIdHasher>>,
}

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
    pub(crate) unsafe fn query<'w, Q, F, M>(&'w mut self, view: WorldView<'w, M>) -> Query<'w, Q, F>
    where
        Q: QueryData,
        F: QueryFilter,
        M: ViewMode,
    {
        // The check depends on the query type alone: made when its entry is,
        // and an entry is only made once the check passed.
        let matches = match self.by_query.entry(typeid::of::<(Q, F)>()) {
            Entry::Occupied(entry) => entry.into_mut(),
            Entry::Vacant(entry) => {
                Query::<Q, F>::check_access();
                entry.insert(Matches::default())
            }
        };
        let shared = view.as_shared();
        let (data, filter) = (Q::state(view), F::state(shared));
        // SAFETY: the entry is keyed by `(Q, F)` up to lifetimes, so only
        // queries that search as this `Q` and `F` do searched it, and every one over the world that owns
        // this table (this function's contract), which `view` borrows.
        unsafe { Query::planned_with(shared, data, filter, matches) }
    }
}

impl<Q: QueryData, F: QueryFilter> Query<'_, Q, F> {
    /// What the matches this query walks hold: for a query of a system, of a
    /// [`QueryState`](super::QueryState) or of [`World::query`](crate::World::query),
    /// the runs kept from its last search; `None` for one that plans afresh
    /// (a read-only `query_ref`, or after [`filter`](Self::filter) added to it).
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
        self.matches.map(Matches::stats)
    }
}
