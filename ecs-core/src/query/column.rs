//! A query's view of one component storage: the sparse index, the dense entities, the data.

use core::marker::PhantomData;
use core::ops::Range;
use core::ptr::NonNull;

use crate::component::{Component, ComponentId};
use crate::entity::Entity;
use crate::storage::{SparseReader, SparseSet};
use crate::view::{Exclusive, Shared, ViewMode, WorldView};

use super::cache::DenseOrder;

#[cfg(doc)]
use super::data::QueryData;

/// One component storage as a query sees it, for the query's lifetime `'w`.
///
/// The sparse index and the dense entity array are shared references: a
/// query never changes which entities hold a component. The data is a raw
/// pointer because a query hands out `&mut T` to distinct elements one at a
/// time, which no single reference to the whole array could express.
///
/// Invariants:
/// - `data` points at `entities.len()` initialised values of `T`, in the same
///   order as `entities`, and `sparse` maps exactly those entities;
/// - a column made by `Column::new` from an [`Exclusive`] view comes from a
///   world borrowed exclusively for `'w`; the query holding it checked
///   (through [`Access`](super::Access)) that nothing else in it reaches
///   `T`'s data;
/// - a column made from a [`Shared`] view is never written through;
/// - `shift` only moves where aligned reads land: an aligned read of the
///   driver's position `i` reads this column's `i.wrapping_add(shift)`, and is
///   made only after [`aligned`](Self::aligned), with the same shift, found the
///   driver's entity `i` there, or after [`replay_shift`](Self::replay_shift)
///   put back a shift with which `aligned` found it, in a storage whose
///   entities have not moved since (a query's cached matches, kept by the
///   storages' structural versions).
pub struct Column<'w, T> {
    /// Which entities hold `T`, and where.
    presence: Presence<'w, T>,
    data: NonNull<T>,
    /// How far this column's positions lie from the driver's in the current
    /// run, wrapping: zero unless [`realign`](Self::realign) moved it.
    shift: usize,
    _values: PhantomData<&'w T>,
}

/// Where a world keeps `T`'s storage: its component id and a copy of the
/// storage's root pointer (never one derived from a reference, so no later
/// borrow of the world invalidates it).
///
/// A [`QueryState`](super::QueryState) keeps one per type it fetches or
/// filters on, so that using it again skips the lookup by type. A storage,
/// once made, lives as long as its world and never moves, so the pointer
/// stays valid for that world; the state checks that it is given the same
/// world before anything reads through it. It can only be copied: what
/// reads through it is this crate's.
///
/// Invariant: `root` is a copy of the root pointer of the `SparseSet<T>`
/// registered as `id` in the world it was found in (as `Storages::lookup`
/// gives it), valid for as long as that world lives.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::query::{StorageRoot, WorldQuery};
///
/// #[derive(Component)]
/// struct Position(f32);
///
/// // What a prepared `&Position` keeps: the storage, once the world has one.
/// fn kept(_: <&Position as WorldQuery>::Prepared) {}
/// let _: fn(Option<StorageRoot<Position>>) = kept;
/// ```
pub struct StorageRoot<T> {
    id: ComponentId,
    root: NonNull<SparseSet<T>>,
}

impl<T> Clone for StorageRoot<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for StorageRoot<T> {}

// SAFETY: the root is only an address: reading or writing through it is done
// under a borrow of its world (shared to read, exclusive to write), which
// carries the thread rules; `T: Component` is `Send + Sync`.
unsafe impl<T: Component> Send for StorageRoot<T> {}
// SAFETY: `&StorageRoot` gives out only copies of the id and the address;
// reading or writing through the address is done under a borrow of its world
// (shared to read, exclusive to write), which carries the thread rules, and
// `T: Component` is `Send + Sync`.
unsafe impl<T: Component> Sync for StorageRoot<T> {}

impl<T: Component> StorageRoot<T> {
    /// Where the viewed world keeps `T`'s storage; `None` if it has none yet.
    #[inline]
    pub(crate) fn find<M: ViewMode>(view: WorldView<'_, M>) -> Option<Self> {
        let (id, root) = view.storages().lookup::<T>()?;
        Some(Self { id, root })
    }

    /// The root pointer, for the change filters' ticks.
    #[inline]
    pub(super) fn root(self) -> NonNull<SparseSet<T>> {
        self.root
    }
}

/// A storage every match of a query must be in, as the query sees it when
/// choosing where its candidates come from.
///
/// A fetch or filter reports these through
/// [`WorldQuery::for_each_required`](super::WorldQuery::for_each_required);
/// one that wraps others forwards theirs.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::query::{QueryData, Required};
///
/// /// Whether a fetch narrows the candidates at all (an `Entity` or an
/// /// `Option<&T>` alone does not: such a query walks every live entity).
/// fn requires_a_storage<Q: QueryData>(state: &Q::State<'_>) -> bool {
///     let mut any = false;
///     Q::for_each_required(state, &mut |_: Required<'_>| any = true);
///     any
/// }
/// # let _ = requires_a_storage::<Entity>;
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Required<'w> {
    pub(crate) entities: &'w [Entity],
    pub(crate) component: Option<ComponentId>,
    pub(crate) reorders: u64,
}

impl<'w> Required<'w> {
    /// The storage's dense order, for the alignment cache; none for the
    /// stand-in of a type the world has never seen.
    #[inline]
    pub(crate) fn order(&self) -> Option<DenseOrder<'w>> {
        Some(DenseOrder {
            component: self.component?,
            entities: self.entities,
            reorders: self.reorders,
        })
    }
}

/// Which entities hold `T`, without any access to their values: what filters
/// look at. It holds no pointer to component data, so it can sit beside any
/// fetch of `T`, mutable ones included.
pub struct Presence<'w, T> {
    sparse: SparseReader<'w>,
    pub(super) entities: &'w [Entity],
    component: Option<ComponentId>,
    reorders: u64,
    _type: PhantomData<fn() -> T>,
}

impl<T> Clone for Presence<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Presence<'_, T> {}

impl<'w, T: Component> Presence<'w, T> {
    /// The holders of `T`, from where a world borrowed for `'w` keeps `T`'s
    /// storage (`None`: it has none, so nothing holds `T`).
    ///
    /// # Safety
    /// `found` is `StorageRoot::find` of a view of a world borrowed for `'w`.
    #[inline]
    pub(super) unsafe fn found(found: Option<StorageRoot<T>>) -> Self {
        let Some(StorageRoot { id, root: set }) = found else {
            return Self {
                sparse: SparseReader::EMPTY,
                entities: &[],
                component: None,
                reorders: 0,
                _type: PhantomData,
            };
        };
        // SAFETY: a live `SparseSet<T>` owned by the world (the caller's
        // contract: a storage lives as long as its world), borrowed for `'w`;
        // its index and entities change only under `&mut World`.
        let (sparse, entities) = unsafe { SparseSet::split_for_presence(set.as_ptr()) };
        // SAFETY: the same live `SparseSet<T>`; its `reorders` count changes
        // only with structural change (a removal, a swap, a clear), which
        // needs `&mut World` and so waits until the borrow for `'w` ends.
        let reorders = unsafe { SparseSet::reorders_of(set.as_ptr()) };
        Self {
            sparse: sparse.reader(),
            entities,
            component: Some(id),
            reorders,
            _type: PhantomData,
        }
    }
}

impl<'w, T> Presence<'w, T> {
    /// Whether `entity` holds `T`.
    #[inline]
    pub(crate) fn contains(&self, entity: Entity) -> bool {
        self.sparse.get(entity).is_some()
    }

    /// The dense position of `entity`'s value, if it has one.
    ///
    /// Always within the dense entity array, which is as long as the data
    /// (checked here against its length, a value already in a register), so
    /// the raw reads that follow stay in bounds even if the index and the
    /// arrays fell out of step.
    #[inline]
    pub(crate) fn dense(&self, entity: Entity) -> Option<usize> {
        self.sparse
            .get(entity)
            .filter(|&dense| dense < self.entities.len())
    }

    /// This storage as one every match must be in.
    #[inline]
    pub(crate) fn required(&self) -> Required<'w> {
        Required {
            entities: self.entities,
            component: self.component,
            reorders: self.reorders,
        }
    }
}

// SAFETY: a column hands out `&T` and, when exclusive, `&mut T` to distinct
// values; sharing it between threads is sound when `T` may be sent and shared.
// Its index and entity array are only read.
unsafe impl<T: Send + Sync> Sync for Column<'_, T> {}

// SAFETY: a column owns nothing: a shared index reader, a shared entity
// slice and a pointer into data the world owns. On another thread it reads
// `T`s (`T: Sync`) and, made from an exclusive view, writes distinct ones in
// place (`T: Send`), exactly what the `Sync` impl already allows.
unsafe impl<T: Send + Sync> Send for Column<'_, T> {}

impl<T> Clone for Column<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Column<'_, T> {}

/// How a column reaches its values, named by the mode of the view it is
/// built from: a [`Shared`] view's column only reads them, an [`Exclusive`]
/// view's may write them. The one difference between the column of `&T` and
/// the column inside `&mut T`'s [`MutColumn`](super::mut_column::MutColumn).
pub(crate) trait ColumnMode: ViewMode {
    /// A pointer to the values of the storage at `set`, with the provenance
    /// this mode needs: read-only for [`Shared`], writable for [`Exclusive`].
    ///
    /// # Safety
    /// `set` points at a live `SparseSet<T>` whose data vector (the vector
    /// itself, not its elements) no one writes while the pointer is used.
    unsafe fn values<T>(set: *const SparseSet<T>) -> NonNull<T>;
}

impl ColumnMode for Shared {
    #[inline]
    unsafe fn values<T>(set: *const SparseSet<T>) -> NonNull<T> {
        // SAFETY: `set` is live and its data vector unwritten while the
        // pointer is used (this function's contract), which is all
        // `data_for_read` asks.
        unsafe { SparseSet::data_for_read(set) }
    }
}

impl ColumnMode for Exclusive {
    #[inline]
    unsafe fn values<T>(set: *const SparseSet<T>) -> NonNull<T> {
        // SAFETY: `set` is live and its data vector unwritten while the
        // pointer is used (this function's contract), which is all
        // `data_for_write` asks; who writes through the pointer answers for
        // the values it reaches.
        unsafe { SparseSet::data_for_write(set) }
    }
}

impl<'w, T: Component> Column<'w, T> {
    /// A column that can only be read; empty if the world has no storage for `T`.
    #[cfg(all(test, debug_assertions))]
    fn of(view: WorldView<'w>) -> Self {
        // SAFETY: found in this very view, which is shared.
        unsafe { Self::new(view, StorageRoot::find(view)) }
    }

    /// A column of the storage at `found`, empty for `None`, that may be
    /// written if the view is [`Exclusive`] and is only ever read if it is
    /// [`Shared`]. The view is the proof of the borrow that `'w` names.
    ///
    /// # Safety
    /// `found` is `StorageRoot::find` of a view of the same world as `_view`;
    /// for an exclusive view, nothing else reachable from the caller (no
    /// other column of any copy of `_view`) may reference `T`'s data during
    /// `'w`.
    #[inline]
    pub(crate) unsafe fn new<M: ColumnMode>(
        _view: WorldView<'w, M>,
        found: Option<StorageRoot<T>>,
    ) -> Self {
        let data = match found {
            // SAFETY: a live `SparseSet<T>` owned by the world (the caller's
            // contract), borrowed for `'w`, whose data vector changes only
            // under `&mut World`; a shared column is only read through (type
            // invariant), and an exclusive one's values are the caller's
            // alone.
            Some(found) => unsafe { M::values(found.root.as_ptr()) },
            None => NonNull::dangling(),
        };
        Self {
            // SAFETY: `found` is `StorageRoot::find` of a view of the world
            // `_view` borrows for `'w` (this function's contract), which is
            // what `Presence::found` requires.
            presence: unsafe { Presence::found(found) },
            data,
            shift: 0,
            _values: PhantomData,
        }
    }
}

impl<'w, T> Column<'w, T> {
    /// This column as a storage every match must be in.
    #[inline]
    pub(crate) fn required(&self) -> Required<'w> {
        self.presence.required()
    }

    /// The first `len` values, shared.
    ///
    /// # Safety
    /// `len <= self.presence.entities.len()`, the world the column was built
    /// from stays borrowed for `'q`, and no mutable reference to those values
    /// is live during `'q`.
    pub(crate) unsafe fn slice<'q>(&self, len: usize) -> &'q [T] {
        debug_assert!(len <= self.presence.entities.len());
        debug_assert_eq!(self.shift, 0, "slices come from unshifted columns");
        // SAFETY: the first `len` values are initialised (type invariant and
        // the caller's bound) and not mutably borrowed (caller's contract).
        unsafe { core::slice::from_raw_parts(self.data.as_ptr(), len) }
    }

    /// The first `len` values, mutable.
    ///
    /// # Safety
    /// `len <= self.presence.entities.len()`, the column was made from an
    /// exclusive view, the world it was built from stays borrowed for
    /// `'q`, and no other reference to those values is live during `'q`.
    pub(crate) unsafe fn slice_mut<'q>(&self, len: usize) -> &'q mut [T] {
        debug_assert!(len <= self.presence.entities.len());
        debug_assert_eq!(self.shift, 0, "slices come from unshifted columns");
        // SAFETY: in bounds, writable and unaliased by the caller's contract.
        unsafe { core::slice::from_raw_parts_mut(self.data.as_ptr(), len) }
    }

    /// The dense position of `entity`'s value, if it has one, checked
    /// against the length as [`Presence::dense`] says.
    #[inline]
    pub(crate) fn dense(&self, entity: Entity) -> Option<usize> {
        self.presence.dense(entity)
    }

    /// Whether this column holds exactly `driver[range]`, at the positions
    /// `range` moved by the current shift.
    #[inline]
    pub(crate) fn aligned(&self, driver: &[Entity], range: Range<usize>) -> bool {
        if self.shift == 0 && core::ptr::eq(self.presence.entities, driver) {
            return true;
        }
        let mine = self.shifted(range.start)..self.shifted(range.end);
        match (self.presence.entities.get(mine), driver.get(range)) {
            // The ends first: a chunk in another order (or a shift that does
            // not hold) fails there for two loads. Then a fold, not `==`, so the
            // full comparison runs without early exits and vectorises.
            (Some(mine), Some(theirs)) => {
                mine.first() == theirs.first()
                    && mine.last() == theirs.last()
                    && mine
                        .iter()
                        .zip(theirs)
                        .fold(true, |same, (a, b)| same & (a.to_bits() == b.to_bits()))
            }
            _ => false,
        }
    }

    /// Shifts this column so that the driver's position `at` lands where this
    /// column holds `driver[at]`. Entities spawned together sit together in
    /// every storage, but not at the same positions once the storages started
    /// from different lengths; one sparse lookup finds the offset of a whole
    /// run. A column without `driver[at]` goes back to no shift.
    #[inline]
    pub(crate) fn realign(&mut self, driver: &[Entity], at: usize) {
        self.shift = driver
            .get(at)
            .and_then(|&entity| self.presence.dense(entity))
            .map_or(0, |dense| dense.wrapping_sub(at));
    }

    /// How far this column's positions lie from the driver's in the current
    /// run: what a query's cached matches record of it.
    #[inline(always)]
    pub(crate) fn shift(&self) -> usize {
        self.shift
    }

    /// Takes this column's shift from the front of `saved`, where a query's
    /// cached matches recorded it after [`realign`](Self::realign) at the
    /// same position; realigns should `saved` hold nothing (which the
    /// cache, recording one shift per column, never leaves it).
    #[inline(always)]
    pub(crate) fn replay_shift(&mut self, saved: &mut &[usize], driver: &[Entity], at: usize) {
        match saved.split_first() {
            Some((&shift, rest)) => {
                self.shift = shift;
                *saved = rest;
            }
            None => self.realign(driver, at),
        }
    }

    /// This column's position for the driver's position `index`, in the current run.
    #[inline(always)]
    pub(crate) fn shifted(&self, index: usize) -> usize {
        index.wrapping_add(self.shift)
    }

    /// Whether `entity` holds `T`.
    #[inline]
    pub(crate) fn contains(&self, entity: Entity) -> bool {
        self.presence.contains(entity)
    }

    /// A shared reference to the value at `dense`.
    ///
    /// # Safety
    /// `dense < self.presence.entities.len()`, the world the column was built
    /// from stays borrowed for `'q`, and no mutable reference to that value is
    /// live during `'q`.
    #[inline]
    pub(crate) unsafe fn get<'q>(&self, dense: usize) -> &'q T {
        debug_assert!(dense < self.presence.entities.len());
        // SAFETY: in bounds by the caller's contract and the type's first invariant.
        unsafe { &*self.data.as_ptr().add(dense) }
    }

    /// A mutable reference to the value at `dense`.
    ///
    /// # Safety
    /// `dense < self.presence.entities.len()`, the column was made from an
    /// exclusive view, the world it was built from stays borrowed for
    /// `'q`, and no other reference to that value is live during `'q`.
    #[inline]
    pub(crate) unsafe fn get_mut<'q>(&self, dense: usize) -> &'q mut T {
        debug_assert!(dense < self.presence.entities.len());
        // SAFETY: in bounds, writable and unaliased by the caller's contract.
        unsafe { &mut *self.data.as_ptr().add(dense) }
    }
}

#[cfg(all(test, debug_assertions))]
mod tests {
    use super::Column;
    use crate::prelude::*;

    #[derive(Component)]
    struct Health(#[allow(dead_code, reason = "payload only")] u32);

    /// An out-of-range dense position is caught by the debug check before any read.
    #[test]
    #[should_panic(expected = "dense < self.presence.entities.len()")]
    fn get_out_of_range_fires_the_debug_check() {
        let mut world = World::new();
        world.spawn_batch((0..3).map(Health));
        let column = Column::<Health>::of(world.data_view());
        // SAFETY: deliberately breaks the contract; the debug check panics first.
        let _ = unsafe { column.get(3) };
    }

    /// A slice longer than the column is caught by the debug check.
    #[test]
    #[should_panic(expected = "len <= self.presence.entities.len()")]
    fn slice_out_of_range_fires_the_debug_check() {
        let mut world = World::new();
        world.spawn_batch((0..3).map(Health));
        let column = Column::<Health>::of(world.data_view());
        // SAFETY: deliberately breaks the contract; the debug check panics first.
        let _ = unsafe { column.slice(4) };
    }
}
