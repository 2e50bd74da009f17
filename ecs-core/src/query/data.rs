//! What a query fetches: the `QueryData` trait and its impls for options and
//! ids (references are in `component_fetch.rs`, tuples in `tuple.rs`).

use core::ops::Range;

use crate::access::Access;
use crate::entity::Entity;
use crate::view::{ViewMode, WorldView};

use super::column::Required;
use super::world_query::{WorldQuery, optional_world_query};

/// Something a query fetches for each matching entity: `&T`, `&mut T`,
/// `Option<F>`, [`Entity`], tuples of up to 16 fetches, or a `#[derive(Query)]` struct.
///
/// Write queries with the derive or with tuples; the methods of this trait are
/// the machinery the derive generates and [`Query`](super::Query) calls.
///
/// # Safety
///
/// An implementation promises, beside the contract of [`WorldQuery`] (whose
/// [`access`](WorldQuery::access) registers every component type whose data
/// [`fetch`](Self::fetch) reads, as `Read`, or writes, as `Write`), that:
/// - `fetch` writes only through columns built by the exclusive path of
///   [`state`](WorldQuery::state), and only for types registered as `Write`;
/// - [`ReadOnly`](Self::ReadOnly) fetches the same entities without writing, and
///   [`readonly_state`](Self::readonly_state) converts the state for it;
/// - [`for_each_required`](WorldQuery::for_each_required) reports storages
///   each holding every entity [`locate`](Self::locate) returns `Some` for;
///   the read-only form reports the same storages;
/// - `locate` reads only sparse indexes and dense entity arrays, never a
///   component value or a change tick, and returns `Some` only for an entity
///   held by every storage `for_each_required` reports;
/// - [`aligned`](Self::aligned) returns `true` only if `fetch_aligned`, given
///   the same state, may read the item of the driver's position `i` for every
///   `i` in the range (for a column shifted by [`realign`](Self::realign), the
///   position it maps `i` to);
/// - [`replay_shifts`](Self::replay_shifts), given what
///   [`record_shifts`](Self::record_shifts) reported after
///   `realign(state, driver, at)`, leaves the state with the shifts that
///   realign gave, consuming exactly what `record_shifts` reported;
/// - [`LEAVES`](Self::LEAVES) is at least the number of component columns
///   `fetch` reaches, and [`WRITES`](Self::WRITES) is `true` if it writes
///   any: a query skips the access check when `LEAVES <= 1` or `!WRITES`;
/// - when `State` is `Sync`, `fetch` and `fetch_aligned` may run on several
///   threads at once for distinct entities.
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
/// world.spawn((Position(0.0), Velocity(2.0)));
/// world.spawn(Position(5.0));
/// for (p, v) in world.query::<(&mut Position, Option<&Velocity>)>().iter_mut() {
///     p.0 += v.map_or(0.0, |v| v.0);
/// }
/// let mut xs: Vec<f32> = world.query::<&Position>().iter().map(|p| p.0).collect();
/// xs.sort_by(f32::total_cmp);
/// assert_eq!(xs, [2.0, 5.0]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be fetched by a query",
    label = "not a query fetch",
    note = "a query fetches `&T`, `&mut T`, `Option<&T>`, `Option<&mut T>`, `Entity`, \
            tuples of those, or a `#[derive(Query)]` struct, where `T` is a `#[derive(Component)]` type"
)]
pub unsafe trait QueryData: WorldQuery {
    /// What one matching entity yields, borrowed for `'q`.
    type Item<'q>;
    /// The read-only form of this fetch: `&T` for `&mut T`, itself when it never writes.
    type ReadOnly: ReadOnlyQueryData;

    /// How many component columns this fetch reaches. With at most one, or
    /// with no write, [`access`](WorldQuery::access) cannot conflict and building a
    /// query skips the check. The default assumes the worst.
    const LEAVES: usize = usize::MAX;

    /// Whether any column is reached mutably. The default assumes the worst.
    const WRITES: bool = true;

    /// The same state, for the read-only form.
    fn readonly_state<'w>(state: &Self::State<'w>) -> <Self::ReadOnly as WorldQuery>::State<'w>;

    /// Where one entity's item lies: its dense position in each column
    /// (`usize` for one column, `Option` for an optional fetch, tuples for
    /// several, `()` for none).
    type Location: Copy;

    /// Where `entity`'s item lies, or `None` if it lacks a required component.
    ///
    /// Looks only at which entities each storage holds, never at a value or
    /// a change tick: a query decides every presence condition of a
    /// candidate (this, and its filters' `With` / `Without`) before it reads
    /// a tick or makes a reference, so a candidate that another query may be
    /// writing at the same moment (one ruled out by those conditions) is
    /// never touched.
    fn locate(state: &Self::State<'_>, entity: Entity) -> Option<Self::Location>;

    /// The item at `location`.
    ///
    /// # Safety
    /// `location` was returned by [`locate`](Self::locate) for `entity` and
    /// this state; `entity` is alive in the world the state was built from,
    /// the state's borrow of the world lasts for `'q`, and no other item
    /// fetched for the same entity from a state with write access is live
    /// during `'q`. The state belongs to a query whose access check passed
    /// (`Query::check_access`, made before a query builds its states), so no
    /// two of its columns reach one component type where either writes.
    unsafe fn fetch_located<'q>(
        state: &Self::State<'_>,
        entity: Entity,
        location: Self::Location,
    ) -> Self::Item<'q>;

    /// Fetches `entity`'s item, or `None` if it lacks a required component:
    /// [`locate`](Self::locate), then [`fetch_located`](Self::fetch_located).
    ///
    /// # Safety
    /// `entity` is alive in the world the state was built from, the state's
    /// borrow of the world lasts for `'q`, no other item fetched for the same
    /// entity from a state with write access is live during `'q`, and the
    /// state belongs to a query whose access check passed.
    #[inline(always)]
    unsafe fn fetch<'q>(state: &Self::State<'_>, entity: Entity) -> Option<Self::Item<'q>> {
        let location = Self::locate(state, entity)?;
        // SAFETY: `location` is what `locate` returned for `entity` and this
        // state just now; the caller guarantees the rest of `fetch_located`'s
        // contract: `entity` alive, the world borrowed for `'q`, no other
        // writing item of it live, and the state's access checked.
        Some(unsafe { Self::fetch_located(state, entity, location) })
    }

    /// Whether every column this fetch requires holds, at the positions
    /// `range` (moved by each column's shift, see [`realign`](Self::realign)),
    /// exactly the entities `driver[range]`.
    ///
    /// Where it does, [`fetch_aligned`](Self::fetch_aligned) reads each
    /// column's position for `i` directly, without probing a sparse index.
    fn aligned(state: &Self::State<'_>, driver: &[Entity], range: Range<usize>) -> bool;

    /// Shifts every required column so that the driver's position `at` maps
    /// to the position where that column holds `driver[at]`: a run of
    /// entities spawned together is read as zipped arrays at an offset even
    /// when the storages hold it at different positions. The default, for a
    /// fetch with no column of its own, does nothing.
    #[inline(always)]
    fn realign(state: &mut Self::State<'_>, driver: &[Entity], at: usize) {
        let _ = (state, driver, at);
    }

    /// Reports, in a fixed order, the shift of every column
    /// [`realign`](Self::realign) moves: what a query's cached matches keep
    /// of a run, so that walking it again needs no sparse lookup. The
    /// default, for a fetch with no column of its own, reports nothing.
    #[inline(always)]
    fn record_shifts(state: &Self::State<'_>, out: &mut impl FnMut(usize)) {
        let _ = (state, out);
    }

    /// Puts the state in the shifts `realign(state, driver, at)` gives,
    /// taking them from the front of `saved`: what
    /// [`record_shifts`](Self::record_shifts) reported after that very
    /// realign, over storages whose entities have not moved since. The
    /// default realigns, which is what a fetch that records nothing needs.
    #[inline(always)]
    fn replay_shifts(
        state: &mut Self::State<'_>,
        saved: &mut &[usize],
        driver: &[Entity],
        at: usize,
    ) {
        let _ = saved;
        Self::realign(state, driver, at);
    }

    /// Fetches the item at dense position `index` of every required column.
    ///
    /// # Safety
    /// `aligned(state, driver, range)` returned `true` for a `range` containing
    /// `index`, with the shifts `state` has now, and `entity == driver[index]`;
    /// `entity` is alive in the world the state was built from, the state's
    /// borrow of the world lasts for `'q`, no other item fetched for the same
    /// entity from a state with write access is live during `'q`, and the
    /// state belongs to a query whose access check passed.
    unsafe fn fetch_aligned<'q>(
        state: &Self::State<'_>,
        entity: Entity,
        index: usize,
    ) -> Self::Item<'q>;

    /// The full type name of the first required component `entity` lacks.
    fn missing(state: &Self::State<'_>, entity: Entity) -> Option<&'static str>;
}

/// A [`QueryData`] that never writes: usable through a shared borrow of the world.
///
/// # Safety
/// The implementation's `fetch` never writes, and `ReadOnly` is `Self`. Queries
/// rely on this to be `Copy` and to lend items from the world
/// ([`ReadOnlyQuery`](super::ReadOnlyQuery)): any number of those items, from any
/// number of copies of one query, may be alive at once.
#[diagnostic::on_unimplemented(
    message = "`{Self}` writes components, so it cannot be used where only reading is allowed",
    label = "this fetch can write",
    note = "use `&T` instead of `&mut T`, or borrow the world mutably with `World::query`; \
            a `#[derive(Query)]` struct holding a nested query that writes needs `#[query(mutable)]`"
)]
pub unsafe trait ReadOnlyQueryData: QueryData<ReadOnly = Self> {}

optional_world_query! {
    /// `Q`'s storages, without requiring them: an entity lacking them fetches `None`.
    impl<Q> for Option<Q>
}

// SAFETY: delegates to `Q`, and matches every entity, so it requires nothing.
unsafe impl<Q: QueryData> QueryData for Option<Q> {
    type Item<'q> = Option<Q::Item<'q>>;
    type ReadOnly = Option<Q::ReadOnly>;

    const LEAVES: usize = Q::LEAVES;
    const WRITES: bool = Q::WRITES;

    fn readonly_state<'w>(state: &Self::State<'w>) -> <Self::ReadOnly as WorldQuery>::State<'w> {
        Q::readonly_state(state)
    }

    type Location = Option<Q::Location>;

    #[inline(always)]
    fn locate(state: &Self::State<'_>, entity: Entity) -> Option<Option<Q::Location>> {
        Some(Q::locate(state, entity))
    }

    #[inline(always)]
    unsafe fn fetch_located<'q>(
        state: &Self::State<'_>,
        entity: Entity,
        location: Option<Q::Location>,
    ) -> Self::Item<'q> {
        // SAFETY: `location` is what `Q::locate` returned for `entity` and
        // this state (inside `locate` above), and the state is `Q`'s; the
        // caller's guarantees (entity alive, world borrowed for `'q`, no other
        // writing item of it live, access checked) hold for `Q`'s as they are.
        location.map(|location| unsafe { Q::fetch_located(state, entity, location) })
    }

    /// An optional fetch requires nothing, so it never breaks alignment; it probes instead.
    #[inline(always)]
    fn aligned(_: &Self::State<'_>, _: &[Entity], _: Range<usize>) -> bool {
        true
    }

    #[inline(always)]
    unsafe fn fetch_aligned<'q>(
        state: &Self::State<'_>,
        entity: Entity,
        _: usize,
    ) -> Self::Item<'q> {
        // SAFETY: `Q::fetch` locates `entity` itself, so it needs only what
        // the caller guarantees here: `entity` alive in the state's world,
        // borrowed for `'q`, no other writing item of it live, access checked.
        unsafe { Q::fetch(state, entity) }
    }

    fn missing(_: &Q::State<'_>, _: Entity) -> Option<&'static str> {
        None
    }
}

// SAFETY: `Option<Q>` writes only if `Q` does.
unsafe impl<Q: ReadOnlyQueryData> ReadOnlyQueryData for Option<Q> {}

// SAFETY: touches no component data, builds nothing and requires nothing.
unsafe impl WorldQuery for Entity {
    type State<'w> = ();
    type Prepared = ();

    fn access(_: &mut Access) {}

    fn prepare(_: WorldView<'_>) {}

    #[inline]
    unsafe fn state_prepared<M: ViewMode>(_: &(), _: WorldView<'_, M>) {}

    #[inline]
    fn for_each_required<'w>(_: &(), _: &mut impl FnMut(Required<'w>)) {}
}

// SAFETY: touches no component data and matches every entity.
unsafe impl QueryData for Entity {
    type Item<'q> = Entity;
    type ReadOnly = Entity;

    const LEAVES: usize = 0;
    const WRITES: bool = false;

    fn readonly_state<'w>(_: &Self::State<'w>) -> <Self::ReadOnly as WorldQuery>::State<'w> {}

    type Location = ();

    #[inline(always)]
    fn locate(_: &Self::State<'_>, _: Entity) -> Option<()> {
        Some(())
    }

    #[inline(always)]
    unsafe fn fetch_located<'q>(_: &Self::State<'_>, entity: Entity, _: ()) -> Self::Item<'q> {
        entity
    }

    #[inline(always)]
    fn aligned(_: &Self::State<'_>, _: &[Entity], _: Range<usize>) -> bool {
        true
    }

    #[inline(always)]
    unsafe fn fetch_aligned<'q>(_: &Self::State<'_>, entity: Entity, _: usize) -> Self::Item<'q> {
        entity
    }

    fn missing(_: &(), _: Entity) -> Option<&'static str> {
        None
    }
}

// SAFETY: `Entity` never writes.
unsafe impl ReadOnlyQueryData for Entity {}
