//! Prepared queries: the storages a query uses, found once and kept between
//! frames, so building the query again skips every lookup by type.

use core::any::type_name;
use core::fmt;
use core::marker::PhantomData;

use crate::view::{ViewMode, WorldId, WorldView};

use super::Query;
use super::cache::{KeptEntry, MatchStats, Reach};
use super::data::QueryData;
use super::filter::QueryFilter;

/// A query prepared once and used every frame: the storages it fetches and
/// filters on are found when it is made, and kept, so using it again builds
/// the [`Query`] without looking any type up.
///
/// Made by [`World::query_state`](crate::World::query_state) and
/// [`World::query_state_filtered`](crate::World::query_state_filtered); used
/// with [`query_mut`](Self::query_mut), [`query`](Self::query),
/// [`iter_mut`](Self::iter_mut) and [`iter`](Self::iter), each given the
/// world it was made from. Function systems keep one per `Query` param the
/// same way, so their queries are prepared too.
///
/// A state belongs to one world: given another, it panics, before touching
/// any data. Types the world registers after the state was made are found
/// the next time it is used, so it sees every entity a fresh query would.
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
/// let mut movement = world.query_state::<(&mut Position, &Velocity)>();
/// let e = world.spawn((Position(0.0), Velocity(1.0)));
/// for _frame in 0..3 {
///     movement.query_mut(&mut world).for_each(|(p, v)| p.0 += v.0);
/// }
/// assert_eq!(world.get::<Position>(e)?.0, 3.0);
/// # Ok::<(), Error>(())
/// ```
pub struct QueryState<Q: QueryData, F: QueryFilter = ()> {
    prepared: Prepared<Q::Prepared, F::Prepared>,
    /// What the world's matches for this query held at its last use.
    stats: MatchStats,
    _query: PhantomData<fn() -> (Q, F)>,
}

impl<Q: QueryData, F: QueryFilter> QueryState<Q, F> {
    /// Prepares `Q` and `F` for the viewed world.
    ///
    /// # Panics
    /// If `Q` asks for `&mut T` together with any other access to `T`.
    pub(crate) fn new(view: WorldView<'_>) -> Self {
        Self {
            prepared: Prepared::new::<Q, F>(view),
            stats: MatchStats::default(),
            _query: PhantomData,
        }
    }

    /// The query over the viewed world, walking the matches its table (as
    /// `reach` names it) holds for it.
    ///
    /// # Panics
    /// If the view is of a world other than the one the state was made from.
    ///
    /// # Safety
    /// `reach` names the table of the world `view` borrows.
    #[inline]
    #[track_caller]
    pub(crate) unsafe fn query_in<'w, M: ViewMode>(
        &'w mut self,
        view: WorldView<'w, M>,
        reach: Reach<'w>,
    ) -> Query<'w, Q, F> {
        // SAFETY: `reach` names the table of the world `view` borrows (this
        // function's contract).
        let query = unsafe { self.prepared.query::<Q, F, M>(view, reach) };
        self.stats = query.match_stats().unwrap_or_default();
        query
    }

    /// What the matches the state's last query walked held: how many runs
    /// its walks read as zipped arrays, how many entities those hold, and
    /// how often the world's structure made it search again. The matches are
    /// the world's, one entry per query type, which every spelling of the
    /// same query shares (`World::query`, a system's `Query` param, another
    /// state of the same type); all zero for a query that requires no
    /// component, which walks every live entity and keeps nothing.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health(u32);
    ///
    /// let mut world = World::new();
    /// world.spawn_batch((0..10).map(Health));
    /// let mut health = world.query_state::<&mut Health>();
    /// for _frame in 0..3 {
    ///     health.query_mut(&mut world).for_each(|h| h.0 += 1);
    /// }
    /// assert_eq!(health.match_stats().searches, 1, "the world did not change");
    /// world.spawn(Health(0));
    /// health.query_mut(&mut world).for_each(|h| h.0 += 1);
    /// assert_eq!(health.match_stats().searches, 2, "a spawn changed `Health`'s storage");
    /// ```
    pub fn match_stats(&self) -> MatchStats {
        self.stats
    }
}

impl<Q: QueryData, F: QueryFilter> fmt::Debug for QueryState<Q, F> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("QueryState")
            .field("query", &type_name::<Q>())
            .field("filter", &type_name::<F>())
            .finish_non_exhaustive()
    }
}

/// What a [`QueryState`] keeps, apart from the query's type, so that it can
/// live where a type with borrowed lifetimes cannot: a function system's
/// `Query` param keeps one between runs.
///
/// Machinery: only this crate makes or reads one.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::query::{Prepared, WorldQuery};
/// use ecs_core::system::SystemParam;
///
/// #[derive(Component)]
/// struct Position(f32);
///
/// // What a system's `Query<&Position>` keeps between its runs.
/// type Kept = <Query<'static, &'static Position> as SystemParam>::State;
/// fn kept(_: Option<Prepared<<&Position as WorldQuery>::Prepared, <() as WorldQuery>::Prepared>>) {}
/// let _: fn(Kept) = kept;
/// ```
pub struct Prepared<D, G> {
    /// The world the storages were found in: the only one they may be read in.
    world: WorldId,
    /// How many component types that world had when they were found: a type
    /// it had not seen then may have a storage now.
    types_seen: usize,
    data: D,
    filter: G,
    /// Where the world's table keeps this query's matches, once found.
    entry: Option<KeptEntry>,
}

impl<D: Copy, G: Copy> Prepared<D, G> {
    /// Finds the storages of `Q` and `F` in the viewed world, and checks
    /// `Q`'s access once: every later use is of the same `Q` and `F` (the
    /// callers' invariant), so none repeats the check.
    ///
    /// # Panics
    /// If `Q` asks for `&mut T` together with any other access to `T`.
    pub(crate) fn new<Q, F>(view: WorldView<'_>) -> Self
    where
        Q: QueryData<Prepared = D>,
        F: QueryFilter<Prepared = G>,
    {
        Query::<Q, F>::check_access();
        Self {
            world: view.world_id(),
            types_seen: view.storages().len(),
            data: Q::prepare(view),
            filter: F::prepare(view),
            entry: None,
        }
    }

    /// Whether the storages were found in the viewed world.
    #[inline]
    pub(crate) fn belongs_to<M: ViewMode>(&self, view: WorldView<'_, M>) -> bool {
        self.world == view.world_id()
    }

    /// The query over the viewed world, from the kept storages, walking the
    /// matches its table (as `reach` names it) holds for `(Q, F)`; a type
    /// registered since the storages were found is looked up first.
    ///
    /// `Q` and `F` are those given to [`new`](Self::new).
    ///
    /// # Panics
    /// If the view is of a world other than the one the storages were found in.
    ///
    /// # Safety
    /// `reach` names the table of the world `view` borrows.
    #[inline]
    #[track_caller]
    pub(crate) unsafe fn query<'w, Q, F, M>(
        &'w mut self,
        view: WorldView<'w, M>,
        reach: Reach<'w>,
    ) -> Query<'w, Q, F>
    where
        Q: QueryData<Prepared = D>,
        F: QueryFilter<Prepared = G>,
        M: ViewMode,
    {
        if !self.belongs_to(view) {
            foreign_world::<Q, F>();
        }
        if self.types_seen != view.storages().len() {
            self.refresh::<Q, F>(view.as_shared());
        }
        // Found in this world's table: the world is the one the state
        // belongs to (checked above), whose table `reach` names (this
        // function's contract), and which keeps each entry where it is
        // while it lives.
        let entry = match self.entry {
            Some(entry) => entry,
            None => *self.entry.insert(reach.table().entry::<Q, F>()),
        };
        // SAFETY: the storages were found in this very world (its id is
        // unique and checked above), which keeps every storage it makes for
        // as long as it lives; the access was checked in `new`, for this
        // `Q` (the caller's invariant); `reach` names this world's table
        // (this function's contract), and `entry` is `(Q, F)`'s in it.
        unsafe { Query::prepared(view, &self.data, &self.filter, reach, entry) }
    }

    /// Finds the storages again, after the world registered new types.
    #[cold]
    #[inline(never)]
    fn refresh<Q, F>(&mut self, view: WorldView<'_>)
    where
        Q: QueryData<Prepared = D>,
        F: QueryFilter<Prepared = G>,
    {
        self.types_seen = view.storages().len();
        self.data = Q::prepare(view);
        self.filter = F::prepare(view);
    }
}

/// The panic for a state given a world it was not made from.
#[cold]
#[inline(never)]
#[track_caller]
fn foreign_world<Q, F>() -> ! {
    panic!(
        "a query state for `{}` (filter `{}`) was used with a world other than the one it was \
         made from; make one state per world",
        type_name::<Q>(),
        type_name::<F>()
    )
}
