//! Typed queries: what a system reads and writes, and iteration over the entities that match.
//!
//! A query names what it fetches ([`QueryData`]: `&T`, `&mut T`, `Option<..>`,
//! [`Entity`], tuples, `#[derive(Query)]` structs) and which entities it keeps
//! ([`QueryFilter`]: [`With`], [`Without`], [`Added`], [`Changed`], [`Or`], tuples). It borrows the world
//! for as long as it lives, so spawning, despawning, inserting or removing while
//! iterating does not compile: collect the entities first, or record the changes
//! in a command buffer and apply them after the loop.
//!
//! ```compile_fail
//! use ecs_core::prelude::*;
//! #[derive(Component)]
//! struct Health(i32);
//!
//! let mut world = World::new();
//! for (e, h) in world.query::<(Entity, &Health)>().iter() {
//!     if h.0 <= 0 {
//!         world.despawn(e).unwrap(); // error: `world` is borrowed by the query
//!     }
//! }
//! ```
//!
//! ```
//! use ecs_core::prelude::*;
//! # #[derive(Component)]
//! # struct Health(i32);
//! # let mut world = World::new();
//! # world.spawn(Health(0));
//! let dead: Vec<Entity> = world
//!     .query::<(Entity, &Health)>()
//!     .iter()
//!     .filter(|(_, h)| h.0 <= 0)
//!     .map(|(e, _)| e)
//!     .collect();
//! for e in dead {
//!     world.despawn(e)?;
//! }
//! # Ok::<(), Error>(())
//! ```

// What each file owns (ARCHITECTURE.md keeps the summary): `WorldQuery` (`world_query.rs`: what
// fetches and filters share, the storages a parameter uses, its access, its state and the storages
// every match is in; tuples implemented once for both, and the optional wrappers `Option<Q>` /
// `Or<(..)>` from one template), `QueryData` on top of it, and `QueryFilter` (`With` / `Without`
// from one template, differing in one constant; each filter's one per-entity form,
// `matches_presence` / `matches_ticks`, told the candidate's `Seat`, and one per-chunk form,
// `presence_chunk` / `ticks_chunk`), `Query`, `ReadOnlyQuery` (read-only queries by value),
// columns (`Column::new`, read-only or writable by the mode of the view it is built from;
// `MutColumn`: `&mut T`'s column with its ticks; `component_fetch.rs`: `&T` and `&mut T` written
// once, differing only in their column type, `FetchColumn`), the change filters `Added` /
// `Changed` and `Query::changed_since` (`changed.rs`), the one walk (`walk.rs`: `Segments`, the
// producer of every walk's stretches: a query's cached runs, each with its columns' shifts put
// back by `QueryData::replay_shifts`, read as zipped arrays, or the allocator's live ids for a
// query that requires no storage; `fold_segment`, the one consumer that `fold` and each part of
// `par_for_each` (`par.rs`) pass them to, while `iter.rs`'s `next` steps through the same
// segments), `probe.rs` (the one order in which every walk and lookup decides a candidate: its
// presence conditions, then the fetch's required components, located through the sparse indexes
// alone, before any change tick, and all before any value, so a query disjoint from a writer by
// those conditions never touches the writer's entities; `passes_aligned_chunk` takes the same
// order for 64 positions at once), `chunk.rs` (those chunks as `u64` masks, a change filter on the
// driving storage comparing its tick column with no branch, the walks visiting only the kept
// bits), slices, several entities' items at once (`many.rs`: `iter_many`, and `get_many_mut`,
// which refuses a repeated id before probing), prepared queries (`state.rs`: `QueryState`, the
// storages a query uses found once and kept between frames, as `StorageRoot`s, refreshed when the
// world registers a type, and where its entry sits in the world's table; `Prepared`, the same
// apart from the query's type, which a system's `Query` param keeps), and the cache (`cache/`: the
// driving storage and its known-aligned prefix, `plan.rs`; the alignment cache, `alignment.rs`;
// `Matches`, the runs of the driving storage where every fetched column holds its entities, with
// each column's shift as `QueryData::record_shifts` reports it, searched again when the
// structural version (reorders, length) of a storage the query requires changes, and
// `MatchStats`, `matches.rs`; `KeptMatches`, the world's table of them, one boxed entry per query
// type with lifetimes erased, behind a lock, which every spelling of a query reaches, and
// `Query::match_stats`, `kept.rs`)

mod cache;
mod changed;
mod chunk;
mod column;
mod component_fetch;
mod data;
mod filter;
mod iter;
mod many;
mod mut_column;
#[cfg(feature = "parallel")]
mod par;
mod probe;
mod read_only;
mod slices;
mod state;
mod tuple;
mod walk;
mod world_query;

use core::any::type_name;

use cache::KeptEntry;
pub(crate) use cache::{KeptMatches, Reach};
use probe::probe;
use walk::{Segments, Source};

pub use cache::MatchStats;
pub use changed::{Added, Changed};
pub use data::{QueryData, ReadOnlyQueryData};
pub use filter::{Or, QueryFilter, With, Without};
pub use iter::QueryIter;
pub use read_only::ReadOnlyQuery;
pub use slices::SliceQueryData;
pub use state::QueryState;
pub use world_query::WorldQuery;

// The machinery `#[derive(Query)]` and hand-written fetches name; users never do.
#[doc(hidden)]
pub use crate::access::{Access, AccessMode};
#[doc(hidden)]
pub use crate::view::{Exclusive, Shared, ViewMode, WorldView};
#[doc(hidden)]
pub use column::{Required, StorageRoot};
#[doc(hidden)]
pub use probe::Seat;
#[doc(hidden)]
pub use state::Prepared;

use crate::component::Component;
use crate::entity::Entity;
use crate::error::Error;

/// What `Q` yields per entity, borrowed for `'q`.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::query::QueryItem;
///
/// #[derive(Component)]
/// struct Velocity(f32);
///
/// fn speed(item: QueryItem<'_, (Entity, &Velocity)>) -> f32 {
///     item.1.0.abs()
/// }
///
/// let mut world = World::new();
/// world.spawn(Velocity(-2.0));
/// let fastest = world.query::<(Entity, &Velocity)>().iter_mut().map(speed).fold(0.0, f32::max);
/// assert_eq!(fastest, 2.0);
/// ```
pub type QueryItem<'q, Q> = <Q as QueryData>::Item<'q>;

/// What the read-only form of `Q` yields per entity, borrowed for `'q`.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::query::ReadOnlyItem;
///
/// #[derive(Component)]
/// struct Health(i32);
///
/// fn alive(item: ReadOnlyItem<'_, &mut Health>) -> bool {
///     item.0 > 0
/// }
///
/// let mut world = World::new();
/// world.spawn(Health(3));
/// world.spawn(Health(0));
/// assert_eq!(world.query::<&mut Health>().iter().filter(|h| alive(h)).count(), 1);
/// ```
pub type ReadOnlyItem<'q, Q> = <<Q as QueryData>::ReadOnly as QueryData>::Item<'q>;

/// A typed view of the entities that hold what `Q` fetches and pass `F`.
///
/// Built by [`World::query`](crate::World::query),
/// [`World::query_filtered`](crate::World::query_filtered) or, for read-only fetches
/// through a shared borrow, [`World::query_ref`](crate::World::query_ref). Narrow it with
/// [`with`](Self::with), [`without`](Self::without) and [`filter`](Self::filter);
/// read it with [`iter`](Self::iter) (read-only items), [`iter_mut`](Self::iter_mut),
/// [`get`](Self::get) / [`get_mut`](Self::get_mut) for one entity, or
/// [`single`](Self::single) when exactly one entity matches.
///
/// A query that only reads ([`ReadOnlyQueryData`]) is `Copy`, and method syntax
/// then reaches [`ReadOnlyQuery`] (in the prelude) before the inherent methods:
/// its `iter`, `get` and `single` take the query by value and hand out items that
/// borrow the world for `'w`, so a query can be built and read in one expression.
/// A query that writes keeps the inherent methods, whose items borrow the query;
/// [`into_single`](Self::into_single) and `into_iter` consume it instead.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Position(f32);
/// #[derive(Component)]
/// struct Player;
///
/// let mut world = World::new();
/// let p1 = world.spawn((Position(2.0), Player));
/// let (e, pos) = world.query::<(Entity, &Position)>().with::<Player>().single()?;
/// assert_eq!((e, pos.0), (p1, 2.0));
/// # Ok::<(), Error>(())
/// ```
///
/// A query that asks for `&mut T` together with any other access to `T` panics
/// when it is built, before it touches any data: one entity would otherwise hand
/// out two references to the same value. `#[derive(Query)]` reports the same
/// mistake at compile time when both fields name the type the same way.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Position { x: f32 }
/// #[derive(Component)]
/// struct Velocity { x: f32 }
/// #[derive(Component)]
/// struct Frozen;
///
/// let mut world = World::new();
/// let a = world.spawn((Position { x: 0.0 }, Velocity { x: 1.0 }));
/// let b = world.spawn((Position { x: 0.0 }, Velocity { x: 1.0 }, Frozen));
/// for (p, v) in world.query::<(&mut Position, &Velocity)>().without::<Frozen>().iter_mut() {
///     p.x += v.x;
/// }
/// assert_eq!(world.get::<Position>(a)?.x, 1.0);
/// assert_eq!(world.get::<Position>(b)?.x, 0.0);
/// # Ok::<(), Error>(())
/// ```
pub struct Query<'w, Q: QueryData, F: QueryFilter = ()> {
    view: WorldView<'w>,
    data: Q::State<'w>,
    filter: F::State<'w>,
    /// What its walks take: the cached runs of its driving storage, current
    /// for these states, or every live entity when it requires no storage.
    source: Source<'w>,
    /// The table of matches of the world this query reads, where every
    /// spelling of a query finds its entry: what `.filter()` narrows it to
    /// walks the entry kept there for the narrower type.
    kept: &'w KeptMatches,
}

impl<'w, Q: QueryData, F: QueryFilter> Query<'w, Q, F> {
    /// A query over storages found beforehand, without any lookup by type or
    /// access check, walking the matches `kept` holds for `(Q, F)` (searched
    /// again first if a storage it requires changed structure): the same
    /// entry every other spelling of this query over the world reaches.
    ///
    /// # Safety
    /// `data` and `filter` were prepared (`QueryData::prepare`,
    /// `QueryFilter::prepare`) from a view of the world `view` borrows,
    /// [`check_access`](Self::check_access) passed for `Q`, and `kept` is
    /// that world's table (as `reach` names it), in which `entry` is the
    /// entry of `(Q, F)`.
    #[inline]
    pub(crate) unsafe fn prepared<M: ViewMode>(
        view: WorldView<'w, M>,
        data: &Q::Prepared,
        filter: &F::Prepared,
        reach: Reach<'w>,
        entry: KeptEntry,
    ) -> Self {
        let shared = view.as_shared();
        // SAFETY: `data` and `filter` were prepared from a view of the world
        // `view` (and so `shared`) borrows (this function's contract), which
        // is what `state_prepared` of each requires.
        let (data, filter) = unsafe {
            (
                Q::state_prepared(data, view),
                F::state_prepared(filter, shared),
            )
        };
        // SAFETY: `reach` names the table of the world `shared` borrows,
        // with `entry` the entry of `(Q, F)` in it; the states were just
        // built from that world, and `Q` passed its access check (this
        // function's contract).
        unsafe { KeptMatches::walk_entry(reach, shared, data, filter, entry) }
    }

    /// Panics if `Q` asks for `&mut T` together with any other access to `T`.
    #[inline]
    pub(crate) fn check_access() {
        // One column, or none written, cannot conflict: decided at compile time.
        if Q::WRITES && Q::LEAVES > 1 {
            let mut access = Access::new();
            Q::access(&mut access);
            access.assert_no_conflict(type_name::<Q>());
        }
    }

    /// Keeps only entities that also hold a `T`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Enemy;
    ///
    /// let mut world = World::new();
    /// world.spawn((Position(0.0), Enemy));
    /// world.spawn(Position(1.0));
    /// assert_eq!(world.query::<&Position>().with::<Enemy>().iter().count(), 1);
    /// ```
    pub fn with<T: Component>(self) -> Query<'w, Q, (F, With<T>)> {
        self.filter::<With<T>>()
    }

    /// Keeps only entities that do not hold a `T`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Frozen;
    ///
    /// let mut world = World::new();
    /// world.spawn((Position(0.0), Frozen));
    /// world.spawn(Position(1.0));
    /// assert_eq!(world.query::<&Position>().without::<Frozen>().iter().count(), 1);
    /// ```
    pub fn without<T: Component>(self) -> Query<'w, Q, (F, Without<T>)> {
        self.filter::<Without<T>>()
    }

    /// Keeps only entities that also pass `G`, for filters `with` and
    /// `without` cannot express, such as [`Or`].
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Enemy;
    /// #[derive(Component)]
    /// struct Player;
    ///
    /// let mut world = World::new();
    /// world.spawn(Enemy);
    /// world.spawn(Player);
    /// world.spawn(());
    /// let n = world.query::<Entity>().filter::<Or<(With<Enemy>, With<Player>)>>().iter().count();
    /// assert_eq!(n, 2);
    /// ```
    pub fn filter<G: QueryFilter>(self) -> Query<'w, Q, (F, G)> {
        // The new filter may bring a smaller storage, which then drives.
        let filter = (self.filter, G::state(self.view));
        // SAFETY: `kept` is the table of the world `self.view` borrows,
        // whose states these are, and `Q` passed its access check when this
        // query was built.
        unsafe { self.kept.walk(self.view, self.data, filter) }
    }

    /// The producer of one walk's segments.
    #[inline(always)]
    fn segments(&self) -> Segments<'w> {
        // SAFETY: a runs source is only made by `Query::walking`, whose
        // callers pass matches current for these very states, with runs of
        // their driving storage `driver`; nothing changes structure while
        // the query borrows the world.
        unsafe { Segments::new(self.source) }
    }

    /// Iterates the matching entities with read-only items, borrowed from the query.
    ///
    /// For a query that only reads, method syntax picks [`ReadOnlyQuery::iter`]
    /// instead, whose items borrow the world and may outlive the query.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// world.spawn(Health(3));
    /// let query = world.query::<&mut Health>();
    /// let total: i32 = query.iter().map(|h: &Health| h.0).sum();
    /// assert_eq!(total, 3);
    /// ```
    pub fn iter(&self) -> QueryIter<'_, 'w, Q::ReadOnly, F> {
        // SAFETY: `segments()` meets `Segments::new`'s contract for these
        // states (this query's own runs, current while it borrows the world,
        // or the world's live ids); the read-only state keeps `Q`'s columns,
        // so the runs' recorded shifts fit it. The states are this query's
        // (access checked when it was built), the world stays borrowed for
        // `'w`, and read-only items may overlap.
        unsafe { QueryIter::new(self.segments(), Q::readonly_state(&self.data), self.filter) }
    }

    /// Iterates the matching entities with their full items, `&mut T` included.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Health(3));
    /// for h in world.query::<&mut Health>().iter_mut() {
    ///     h.0 *= 2;
    /// }
    /// assert_eq!(world.get::<Health>(e)?.0, 6);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn iter_mut(&mut self) -> QueryIter<'_, 'w, Q, F> {
        // SAFETY: `segments()` meets `Segments::new`'s contract for these
        // states (this query's own runs, or the world's live ids: live,
        // distinct entities), and the world stays borrowed for `'w`; the
        // states are this query's, its access checked when it was built;
        // `&mut self` keeps every other item of this query dead while these
        // live, and each entity is yielded once.
        unsafe { QueryIter::new(self.segments(), self.data, self.filter) }
    }

    /// Runs `f` on every match, as one tight loop.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Velocity(f32);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn((Position(0.0), Velocity(2.0)));
    /// world.query::<(&mut Position, &Velocity)>().for_each(|(p, v)| p.0 += v.0);
    /// assert_eq!(world.get::<Position>(e)?.0, 2.0);
    /// # Ok::<(), Error>(())
    /// ```
    // Each closure makes its own copy of this loop, called from one place:
    // inlining it there costs no code and keeps the query's columns in
    // registers rather than passed through memory.
    #[inline(always)]
    pub fn for_each(&mut self, f: impl FnMut(Q::Item<'_>)) {
        self.iter_mut().for_each(f);
    }

    /// The read-only item of `entity`, borrowed from the query, or an error
    /// naming the entity and what it lacks (or holds, for `Without`).
    ///
    /// For a query that only reads, method syntax picks [`ReadOnlyQuery::get`]
    /// instead, whose item borrows the world.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component, Debug)]
    /// struct Position(f32);
    /// #[derive(Component, Debug)]
    /// struct Velocity(f32);
    ///
    /// let mut world = World::new();
    /// let still = world.spawn(Position(1.0));
    /// let query = world.query::<(&mut Position, &Velocity)>();
    /// assert_eq!(
    ///     query.get(still).unwrap_err().to_string(),
    ///     "entity 0v1 does not have component `Velocity`"
    /// );
    /// ```
    #[inline]
    pub fn get(&self, entity: Entity) -> Result<ReadOnlyItem<'_, Q>, Error> {
        let state = Q::readonly_state(&self.data);
        if self.may_probe(entity) {
            // SAFETY: a probe that requires a storage only succeeds for entities
            // in it, which are alive; otherwise `may_probe` checked liveness.
            // The states are this query's, over a world borrowed for `'w`, and
            // read-only items may overlap.
            let item =
                unsafe { probe::<Q::ReadOnly, F>(&state, &self.filter, entity, Seat::Anywhere) };
            if let Some(item) = item {
                return Ok(item);
            }
        }
        Err(self.mismatch(entity, <Q::ReadOnly as QueryData>::missing(&state, entity)))
    }

    /// The full item of `entity`, `&mut T` included, or an error as for [`get`](Self::get).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Health(5));
    /// world.query::<&mut Health>().get_mut(e)?.0 -= 1;
    /// assert_eq!(world.get::<Health>(e)?.0, 4);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn get_mut(&mut self, entity: Entity) -> Result<Q::Item<'_>, Error> {
        if self.may_probe(entity) {
            // SAFETY: `may_probe` passed: the query requires a storage, which
            // holds only live entities and without which a probe fails, or
            // `entity` is alive. The states are this query's (access checked)
            // over a world borrowed for `'w`, and `&mut self` keeps every other
            // item of this query dead while this one lives.
            let item = unsafe { probe::<Q, F>(&self.data, &self.filter, entity, Seat::Anywhere) };
            if let Some(item) = item {
                return Ok(item);
            }
        }
        Err(self.mismatch(entity, Q::missing(&self.data, entity)))
    }

    /// The read-only item of the one entity that matches, borrowed from the
    /// query; an error if none or several do.
    ///
    /// For a query that only reads, method syntax picks [`ReadOnlyQuery::single`]
    /// instead, whose item borrows the world, so
    /// `world.query::<&Player>().single()?` can be kept past the statement.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Player(&'static str);
    ///
    /// let mut world = World::new();
    /// assert!(world.query::<&mut Player>().single().is_err());
    /// world.spawn(Player("p1"));
    /// let query = world.query::<&mut Player>();
    /// assert_eq!(query.single()?.0, "p1");
    /// # Ok::<(), Error>(())
    /// ```
    ///
    /// A query that writes lends its read-only items only while it is borrowed:
    /// an item kept from a temporary query would outlive it. Keep the query, or
    /// consume it with [`into_single`](Self::into_single).
    ///
    /// ```compile_fail
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Player(&'static str);
    ///
    /// let mut world = World::new();
    /// world.spawn(Player("p1"));
    /// let p = world.query::<&mut Player>().single()?; // error: temporary dropped while borrowed
    /// assert_eq!(p.0, "p1");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn single(&self) -> Result<ReadOnlyItem<'_, Q>, Error> {
        single_of::<Q, _>(self.iter())
    }

    /// Consumes the query and returns the full item of the one entity that
    /// matches, borrowed from the world for `'w`; an error if none or several do.
    ///
    /// Sound for every query, writing ones included: the query is consumed, so
    /// it cannot hand out another item that aliases this one (a read-only query
    /// may have copies, but they only read).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Score(u32);
    /// #[derive(Component)]
    /// struct Player;
    ///
    /// let mut world = World::new();
    /// world.spawn(Score(0));
    /// world.spawn((Score(0), Player));
    /// let score = world.query::<&mut Score>().with::<Player>().into_single()?;
    /// score.0 += 10;
    /// assert_eq!(world.query::<&Score>().with::<Player>().single()?.0, 10);
    /// # Ok::<(), Error>(())
    /// ```
    ///
    /// The query cannot be used again afterwards:
    ///
    /// ```compile_fail
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Score(u32);
    ///
    /// let mut world = World::new();
    /// world.spawn(Score(0));
    /// let mut query = world.query::<&mut Score>();
    /// let score = query.into_single()?;
    /// for s in query.iter_mut() { // error: `query` was moved by `into_single`
    ///     s.0 += 1;
    /// }
    /// score.0 += 10;
    /// # Ok::<(), Error>(())
    /// ```
    pub fn into_single(self) -> Result<Q::Item<'w>, Error> {
        single_of::<Q, _>(self.into_iter())
    }

    /// The full item of the one entity that matches; an error if none or several do.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Score(u32);
    ///
    /// let mut world = World::new();
    /// world.spawn(Score(0));
    /// world.query::<&mut Score>().single_mut()?.0 += 10;
    /// assert_eq!(world.query::<&Score>().single()?.0, 10);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn single_mut(&mut self) -> Result<Q::Item<'_>, Error> {
        single_of::<Q, _>(self.iter_mut())
    }

    /// Whether no entity matches.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Enemy;
    ///
    /// let mut world = World::new();
    /// assert!(world.query::<&Enemy>().is_empty());
    /// world.spawn(Enemy);
    /// assert!(!world.query::<&Enemy>().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.iter().next().is_none()
    }

    /// Whether `entity` is alive and matches.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Enemy;
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Enemy);
    /// let f = world.spawn(());
    /// let enemies = world.query::<&Enemy>();
    /// assert!(enemies.contains(e) && !enemies.contains(f));
    /// ```
    #[inline]
    pub fn contains(&self, entity: Entity) -> bool {
        let state = Q::readonly_state(&self.data);
        // SAFETY: the probe runs only where `may_probe` passed: a required
        // storage vouches for liveness, or `entity` is alive. The item is
        // read-only and dropped at once, so it aliases nothing.
        self.may_probe(entity)
            && unsafe { probe::<Q::ReadOnly, F>(&state, &self.filter, entity, Seat::Anywhere) }
                .is_some()
    }

    /// Whether probing `entity` is safe: it is alive, or the query requires
    /// a storage, which vouches for liveness by itself (it holds only live
    /// entities, and a probe succeeds only for entities in it).
    #[inline]
    fn may_probe(&self, entity: Entity) -> bool {
        // Whether `Q` requires a storage is known at compile time once
        // inlined; a driving storage covers the filters' storages.
        let mut fetch_requires = false;
        Q::for_each_required(&self.data, &mut |_: Required<'w>| fetch_requires = true);
        let driven = matches!(self.source, Source::Runs { .. });
        fetch_requires || driven || self.view.is_alive(entity)
    }

    /// Why `entity` does not match: dead, filtered out by what it holds,
    /// lacking `missing`, or filtered out by its change ticks, asked in the
    /// order a probe decides them (so ticks are read only for an entity that
    /// passes every presence condition).
    #[cold]
    fn mismatch(&self, entity: Entity, missing: Option<&'static str>) -> Error {
        if let Err(dead) = self.view.entities().check(entity) {
            return dead.into();
        }
        if let Err(filtered) = F::check_presence(&self.filter, entity) {
            return filtered;
        }
        if let Some(component) = missing {
            return Error::MissingComponent { entity, component };
        }
        match F::check_ticks(&self.filter, entity) {
            Err(filtered) => filtered,
            Ok(()) => unreachable!("{entity} fails no check of the query, yet does not match it"),
        }
    }

    /// The fetch state, captured when the query was built.
    #[cfg(feature = "parallel")]
    pub(crate) fn data_state(&self) -> Q::State<'w> {
        self.data
    }

    /// The filter state, captured when the query was built.
    #[cfg(feature = "parallel")]
    pub(crate) fn filter_state(&self) -> F::State<'w> {
        self.filter
    }

    /// The fetch state, for the query's own modules.
    pub(crate) fn data_ref(&self) -> &Q::State<'w> {
        &self.data
    }

    /// The view the query was built from, for the query's own modules.
    pub(crate) fn view(&self) -> WorldView<'w> {
        self.view
    }
}

/// The only item of `items`, or the error for none or several.
fn single_of<Q, I: Iterator>(mut items: I) -> Result<I::Item, Error> {
    let query = type_name::<Q>();
    match (items.next(), items.next()) {
        (Some(item), None) => Ok(item),
        (None, _) => Err(Error::NoMatch { query }),
        (Some(_), Some(_)) => Err(Error::MultipleMatches { query }),
    }
}

/// A query that only reads is `Clone`: the copy reads the same matches.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Position(f32);
///
/// let mut world = World::new();
/// world.spawn(Position(1.0));
/// let query = world.query::<&Position>();
/// let copy = query.clone();
/// assert_eq!(query.iter().count(), copy.iter().count());
/// ```
impl<Q: ReadOnlyQueryData, F: QueryFilter> Clone for Query<'_, Q, F> {
    fn clone(&self) -> Self {
        *self
    }
}

/// A query that only reads is `Copy`: copies only ever read, so their items
/// may all be alive at once. A query that writes is not, so that one `&mut T`
/// item cannot be handed out twice.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Position(f32);
///
/// let mut world = World::new();
/// let goal = world.spawn(Position(10.0));
/// world.spawn(Position(0.0));
/// let positions = world.query::<&Position>();
/// let copy = positions;
/// for p in positions.iter() {
///     assert!(copy.get(goal)?.0 >= p.0);
/// }
/// # Ok::<(), Error>(())
/// ```
///
/// ```compile_fail
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Health(i32);
///
/// let mut world = World::new();
/// let query = world.query::<&mut Health>();
/// let copy = query;
/// let again = query; // error: use of moved value: `query`
/// ```
impl<Q: ReadOnlyQueryData, F: QueryFilter> Copy for Query<'_, Q, F> {}

impl<'w, Q: QueryData, F: QueryFilter> IntoIterator for Query<'w, Q, F> {
    type Item = Q::Item<'w>;
    type IntoIter = QueryIter<'w, 'w, Q, F>;

    /// Consumes the query, yielding items that borrow the world directly.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// world.spawn(Health(1));
    /// for h in world.query::<&mut Health>() {
    ///     h.0 += 1;
    /// }
    /// ```
    fn into_iter(self) -> QueryIter<'w, 'w, Q, F> {
        // SAFETY: `segments()` meets `Segments::new`'s contract for these
        // states (this query's own runs, or the world's live ids: live,
        // distinct entities), and the world stays borrowed for `'w`, as long
        // as these items live; the states are this query's, its access
        // checked; the query is consumed, so nothing else of it can hand out
        // items while these live.
        unsafe { QueryIter::new(self.segments(), self.data, self.filter) }
    }
}

impl<'q, 'w, Q: QueryData, F: QueryFilter> IntoIterator for &'q Query<'w, Q, F> {
    type Item = ReadOnlyItem<'q, Q>;
    type IntoIter = QueryIter<'q, 'w, Q::ReadOnly, F>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'q, 'w, Q: QueryData, F: QueryFilter> IntoIterator for &'q mut Query<'w, Q, F> {
    type Item = Q::Item<'q>;
    type IntoIter = QueryIter<'q, 'w, Q, F>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}
