//! What a query fetches: the `QueryData` trait and its impls for references, options and ids.

use core::ops::Range;

use crate::access::{Access, AccessMode};
use crate::component::Component;
use crate::entity::Entity;
use crate::view::{ViewMode, WorldView};

use super::column::{Column, Required, StorageRoot};
use super::mut_column::MutColumn;

/// Something a query fetches for each matching entity: `&T`, `&mut T`,
/// `Option<F>`, [`Entity`], tuples of up to 16 fetches, or a `#[derive(Query)]` struct.
///
/// Write queries with the derive or with tuples; the methods of this trait are
/// the machinery the derive generates and [`Query`](super::Query) calls.
///
/// # Safety
///
/// An implementation promises that:
/// - [`access`](Self::access) registers every component type whose data
///   [`fetch`](Self::fetch) reads (as `Read`) or writes (as `Write`);
/// - `fetch` writes only through columns built by the exclusive path of
///   [`state`](Self::state), and only for types registered as `Write`;
/// - [`ReadOnly`](Self::ReadOnly) fetches the same entities without writing, and
///   [`readonly_state`](Self::readonly_state) converts the state for it;
/// - [`prepare`](Self::prepare) reports only storages of the viewed world,
///   and [`state_prepared`](Self::state_prepared) given them builds the state
///   [`state`](Self::state) would build from the same view;
/// - [`for_each_required`](Self::for_each_required) reports only storages of
///   the world given to [`state`](Self::state), each holding every entity
///   [`locate`](Self::locate) returns `Some` for; the read-only form reports
///   the same storages;
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
pub unsafe trait QueryData {
    /// What one matching entity yields, borrowed for `'q`.
    type Item<'q>;
    /// The read-only form of this fetch: `&T` for `&mut T`, itself when it never writes.
    type ReadOnly: ReadOnlyQueryData;
    /// Pointers into the storages this fetch uses, captured when the query is built.
    type State<'w>: Copy;

    /// How many component columns this fetch reaches. With at most one, or
    /// with no write, [`access`](Self::access) cannot conflict and building a
    /// query skips the check. The default assumes the worst.
    const LEAVES: usize = usize::MAX;

    /// Whether any column is reached mutably. The default assumes the worst.
    const WRITES: bool = true;

    /// Registers every component type whose data this fetch reads or writes.
    fn access(access: &mut Access);

    /// What a [`QueryState`](super::QueryState) keeps of this fetch between
    /// uses: where the world keeps each storage it reads
    /// ([`StorageRoot`](super::StorageRoot), `None` for a type the world had
    /// not seen), a tuple of those for a fetch of several.
    type Prepared: Copy + Send + Sync + 'static;

    /// Finds the storages this fetch uses in the viewed world.
    fn prepare(view: WorldView<'_>) -> Self::Prepared;

    /// Captures the storages this fetch uses, found beforehand by
    /// [`prepare`](Self::prepare): no lookup by type. Only an exclusive view
    /// (mode [`Exclusive`](crate::query::Exclusive)) can build a fetch that
    /// writes.
    ///
    /// # Safety
    /// `prepared` was returned by `prepare` given a view of the world `view`
    /// borrows (the same world, not merely an equal one): the storages it
    /// names are that world's, which it keeps for as long as it lives.
    unsafe fn state_prepared<'w, M: ViewMode>(
        prepared: &Self::Prepared,
        view: WorldView<'w, M>,
    ) -> Self::State<'w>;

    /// Captures the storages this fetch uses, looking each up by type. Only an
    /// exclusive view (mode [`Exclusive`](crate::query::Exclusive)) can build
    /// a fetch that writes.
    #[inline]
    fn state<'w, M: ViewMode>(view: WorldView<'w, M>) -> Self::State<'w> {
        // SAFETY: prepared just now, from this very view.
        unsafe { Self::state_prepared(&Self::prepare(view.as_shared()), view) }
    }

    /// The same state, for the read-only form.
    fn readonly_state<'w>(state: &Self::State<'w>) -> <Self::ReadOnly as QueryData>::State<'w>;

    /// Calls `f` with every storage a matching entity must be in.
    fn for_each_required<'w>(state: &Self::State<'w>, f: &mut impl FnMut(Required<'w>));

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

// SAFETY: registers `T` as read; the column is only read; required is `T`'s storage.
unsafe impl<'a, T: Component> QueryData for &'a T {
    type Item<'q> = &'q T;
    type ReadOnly = &'a T;
    type State<'w> = Column<'w, T>;

    const LEAVES: usize = 1;
    const WRITES: bool = false;

    fn access(access: &mut Access) {
        access.add::<T>(AccessMode::Read);
        access.require::<T>();
    }

    type Prepared = Option<StorageRoot<T>>;

    #[inline]
    fn prepare(view: WorldView<'_>) -> Self::Prepared {
        StorageRoot::find(view)
    }

    #[inline]
    unsafe fn state_prepared<'w, M: ViewMode>(
        prepared: &Self::Prepared,
        view: WorldView<'w, M>,
    ) -> Column<'w, T> {
        // SAFETY: found in the same world (the caller's contract).
        unsafe { Column::shared(view.as_shared(), *prepared) }
    }

    fn readonly_state<'w>(state: &Self::State<'w>) -> <Self::ReadOnly as QueryData>::State<'w> {
        *state
    }

    #[inline]
    fn for_each_required<'w>(state: &Column<'w, T>, f: &mut impl FnMut(Required<'w>)) {
        f(state.required());
    }

    type Location = usize;

    #[inline(always)]
    fn locate(state: &Self::State<'_>, entity: Entity) -> Option<usize> {
        state.dense(entity)
    }

    #[inline(always)]
    unsafe fn fetch_located<'q>(state: &Self::State<'_>, _: Entity, dense: usize) -> &'q T {
        // SAFETY: `dense` came from the column's own index and the world stays
        // borrowed for `'q` (the caller's contract); a `Read` registration,
        // with the query's access checked, means no mutable reference to the
        // value exists in this query.
        unsafe { state.get(dense) }
    }

    #[inline(always)]
    fn aligned(state: &Self::State<'_>, driver: &[Entity], range: Range<usize>) -> bool {
        state.aligned(driver, range)
    }

    #[inline(always)]
    fn realign(state: &mut Self::State<'_>, driver: &[Entity], at: usize) {
        state.realign(driver, at);
    }

    #[inline(always)]
    fn record_shifts(state: &Self::State<'_>, out: &mut impl FnMut(usize)) {
        out(state.shift());
    }

    #[inline(always)]
    fn replay_shifts(
        state: &mut Self::State<'_>,
        saved: &mut &[usize],
        driver: &[Entity],
        at: usize,
    ) {
        state.replay_shift(saved, driver, at);
    }

    #[inline(always)]
    unsafe fn fetch_aligned<'q>(
        state: &Self::State<'_>,
        _: Entity,
        index: usize,
    ) -> Self::Item<'q> {
        // SAFETY: the column is aligned at `index` under its current shift, so
        // the shifted position is in bounds; the world stays borrowed for `'q`
        // (the caller's contract), and the read-only item aliases no `&mut`
        // of a query whose access was checked.
        unsafe { state.get(state.shifted(index)) }
    }

    fn missing(state: &Column<'_, T>, entity: Entity) -> Option<&'static str> {
        (!state.contains(entity)).then(core::any::type_name::<T>)
    }
}

// SAFETY: `&T` never writes.
unsafe impl<T: Component> ReadOnlyQueryData for &T {}

// SAFETY: registers `T` as written; writes only through an exclusive column
// (values, and for a tracked `T` the changed tick of the fetched entity).
unsafe impl<'a, T: Component> QueryData for &'a mut T {
    /// `&mut T`, or [`Mut<T>`](crate::change::Mut) for a type that tracks changes.
    type Item<'q> = T::Mut<'q>;
    type ReadOnly = &'a T;
    type State<'w> = MutColumn<'w, T>;

    const LEAVES: usize = 1;
    const WRITES: bool = true;

    fn access(access: &mut Access) {
        access.add::<T>(AccessMode::Write);
        access.require::<T>();
    }

    type Prepared = Option<StorageRoot<T>>;

    #[inline]
    fn prepare(view: WorldView<'_>) -> Self::Prepared {
        StorageRoot::find(view)
    }

    #[inline]
    unsafe fn state_prepared<'w, M: ViewMode>(
        prepared: &Self::Prepared,
        view: WorldView<'w, M>,
    ) -> MutColumn<'w, T> {
        let Some(view) = view.as_exclusive() else {
            panic!(
                "a query that writes `{}` was built from a shared borrow of the world",
                core::any::type_name::<T>()
            );
        };
        // SAFETY: found in the same world (the caller's contract); the view is
        // exclusive, so the world is borrowed mutably for `'w`; the query
        // checked the access, so no other fetch reaches `T`, and filters only
        // read ticks of entities before their items exist.
        unsafe { MutColumn::exclusive(view, *prepared) }
    }

    fn readonly_state<'w>(state: &Self::State<'w>) -> <Self::ReadOnly as QueryData>::State<'w> {
        *state.column()
    }

    #[inline]
    fn for_each_required<'w>(state: &MutColumn<'w, T>, f: &mut impl FnMut(Required<'w>)) {
        f(state.required());
    }

    type Location = usize;

    #[inline(always)]
    fn locate(state: &Self::State<'_>, entity: Entity) -> Option<usize> {
        state.column().dense(entity)
    }

    #[inline(always)]
    unsafe fn fetch_located<'q>(
        state: &Self::State<'_>,
        _: Entity,
        dense: usize,
    ) -> Self::Item<'q> {
        // SAFETY: the column is exclusive (built above), `dense` came from its
        // own index and the world stays borrowed for `'q` (the caller's
        // contract), and the caller fetches each entity at most once while
        // its item is live.
        unsafe { state.get_mut(dense) }
    }

    #[inline(always)]
    fn aligned(state: &Self::State<'_>, driver: &[Entity], range: Range<usize>) -> bool {
        state.column().aligned(driver, range)
    }

    #[inline(always)]
    fn realign(state: &mut Self::State<'_>, driver: &[Entity], at: usize) {
        state.realign(driver, at);
    }

    #[inline(always)]
    fn record_shifts(state: &Self::State<'_>, out: &mut impl FnMut(usize)) {
        out(state.shift());
    }

    #[inline(always)]
    fn replay_shifts(
        state: &mut Self::State<'_>,
        saved: &mut &[usize],
        driver: &[Entity],
        at: usize,
    ) {
        state.replay_shift(saved, driver, at);
    }

    #[inline(always)]
    unsafe fn fetch_aligned<'q>(
        state: &Self::State<'_>,
        _: Entity,
        index: usize,
    ) -> Self::Item<'q> {
        // SAFETY: aligned at `index` under the column's current shift, so the
        // shifted position is in bounds and holds this entity's value; the
        // column is exclusive (built by `state_prepared` from an exclusive
        // view), and the caller keeps every other item of this entity dead
        // during `'q`, so the value and its tick have no other reference.
        unsafe { state.get_mut(state.column().shifted(index)) }
    }

    fn missing(state: &MutColumn<'_, T>, entity: Entity) -> Option<&'static str> {
        (!state.column().contains(entity)).then(core::any::type_name::<T>)
    }
}

// SAFETY: delegates to `Q`, and matches every entity, so it requires nothing.
unsafe impl<Q: QueryData> QueryData for Option<Q> {
    type Item<'q> = Option<Q::Item<'q>>;
    type ReadOnly = Option<Q::ReadOnly>;
    type State<'w> = Q::State<'w>;

    const LEAVES: usize = Q::LEAVES;
    const WRITES: bool = Q::WRITES;

    fn access(access: &mut Access) {
        let mut inner = Access::new();
        Q::access(&mut inner);
        access.add_optional(&inner);
    }

    type Prepared = Q::Prepared;

    #[inline]
    fn prepare(view: WorldView<'_>) -> Self::Prepared {
        Q::prepare(view)
    }

    #[inline]
    unsafe fn state_prepared<'w, M: ViewMode>(
        prepared: &Self::Prepared,
        view: WorldView<'w, M>,
    ) -> Q::State<'w> {
        // SAFETY: `Option<Q>` prepares exactly as `Q`, so `prepared` came from
        // `Q::prepare` on a view of the world `view` borrows (the caller's
        // contract), as `Q::state_prepared` requires.
        unsafe { Q::state_prepared(prepared, view) }
    }

    fn readonly_state<'w>(state: &Self::State<'w>) -> <Self::ReadOnly as QueryData>::State<'w> {
        Q::readonly_state(state)
    }

    #[inline]
    fn for_each_required<'w>(_: &Q::State<'w>, _: &mut impl FnMut(Required<'w>)) {}

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

// SAFETY: touches no component data and matches every entity.
unsafe impl QueryData for Entity {
    type Item<'q> = Entity;
    type ReadOnly = Entity;
    type State<'w> = ();

    const LEAVES: usize = 0;
    const WRITES: bool = false;

    fn access(_: &mut Access) {}

    type Prepared = ();

    fn prepare(_: WorldView<'_>) {}

    #[inline]
    unsafe fn state_prepared<M: ViewMode>(_: &(), _: WorldView<'_, M>) {}

    fn readonly_state<'w>(_: &Self::State<'w>) -> <Self::ReadOnly as QueryData>::State<'w> {}

    #[inline]
    fn for_each_required<'w>(_: &(), _: &mut impl FnMut(Required<'w>)) {}

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
