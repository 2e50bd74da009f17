//! `&T` and `&mut T` in a query: one component's column, fetched shared or
//! exclusive. What the two differ in is their column type ([`FetchColumn`]);
//! their `WorldQuery` and `QueryData` impls are written once, for both.

use core::ops::Range;

use crate::access::{Access, AccessMode};
use crate::component::Component;
use crate::entity::Entity;
use crate::view::{ViewMode, WorldView};

use super::column::{Column, Required, StorageRoot};
use super::data::{QueryData, ReadOnlyQueryData};
use super::mut_column::MutColumn;
use super::world_query::WorldQuery;

/// The state of `&T` ([`Column`], read shared) or of `&mut T` ([`MutColumn`],
/// written exclusively): how it registers, how it is built, and what item it
/// makes of a dense position. Everything else a component fetch does, it
/// does on the [`Column`] either one holds.
///
/// # Safety
/// - [`MODE`](Self::MODE) is [`AccessMode::Write`] if [`item`](Self::item)
///   can write;
/// - [`build`](Self::build) makes a state that writes only from an exclusive
///   view (given a shared one, it panics);
/// - `item(dense)` reads the value at `dense` of [`column`](Self::column),
///   and nothing else of the storage but that entity's change tick.
pub(crate) unsafe trait FetchColumn<'w>: Copy {
    /// The component the column holds.
    type Component: Component;
    /// What the fetch yields per entity, borrowed for `'q`.
    type Item<'q>;
    /// How the fetch registers its component.
    const MODE: AccessMode;

    /// The column of the storage at `found` (`None`: the world has none).
    ///
    /// # Safety
    /// `found` is `StorageRoot::find` of a view of the world `view` borrows,
    /// and the state belongs to a query whose access check passed.
    unsafe fn build<M: ViewMode>(
        found: Option<StorageRoot<Self::Component>>,
        view: WorldView<'w, M>,
    ) -> Self;

    /// The column, for what looks at positions and entities.
    fn column(&self) -> &Column<'w, Self::Component>;

    /// The column, for what shifts it.
    fn column_mut(&mut self) -> &mut Column<'w, Self::Component>;

    /// The item for the value at `dense`.
    ///
    /// # Safety
    /// `dense` is below the column's length, the world stays borrowed for
    /// `'q`, and no other item of that entity from a state with write access
    /// is live during `'q`.
    unsafe fn item<'q>(&self, dense: usize) -> Self::Item<'q>;
}

// SAFETY: `Read`, and `item` only reads; a shared column never writes.
unsafe impl<'w, T: Component> FetchColumn<'w> for Column<'w, T> {
    type Component = T;
    type Item<'q> = &'q T;
    const MODE: AccessMode = AccessMode::Read;

    #[inline]
    unsafe fn build<M: ViewMode>(found: Option<StorageRoot<T>>, view: WorldView<'w, M>) -> Self {
        // SAFETY: found in the world `view` borrows (the caller's contract),
        // and a column built from a shared view is only read.
        unsafe { Column::new(view.as_shared(), found) }
    }

    #[inline(always)]
    fn column(&self) -> &Column<'w, T> {
        self
    }

    #[inline(always)]
    fn column_mut(&mut self) -> &mut Column<'w, T> {
        self
    }

    #[inline(always)]
    unsafe fn item<'q>(&self, dense: usize) -> &'q T {
        // SAFETY: `dense` is in bounds and the world stays borrowed for `'q`
        // (the caller's contract); a `Read` registration, with the query's
        // access checked, means no mutable reference to the value exists in
        // this query.
        unsafe { self.get(dense) }
    }
}

// SAFETY: `Write`; `build` panics on a shared view, and `item` writes the
// value at `dense` and, for a tracked type, its changed tick.
unsafe impl<'w, T: Component> FetchColumn<'w> for MutColumn<'w, T> {
    type Component = T;
    type Item<'q> = T::Mut<'q>;
    const MODE: AccessMode = AccessMode::Write;

    #[inline]
    unsafe fn build<M: ViewMode>(found: Option<StorageRoot<T>>, view: WorldView<'w, M>) -> Self {
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
        unsafe { MutColumn::exclusive(view, found) }
    }

    #[inline(always)]
    fn column(&self) -> &Column<'w, T> {
        self.column()
    }

    #[inline(always)]
    fn column_mut(&mut self) -> &mut Column<'w, T> {
        self.column_mut()
    }

    #[inline(always)]
    unsafe fn item<'q>(&self, dense: usize) -> T::Mut<'q> {
        // SAFETY: the column is exclusive (built above), `dense` is in bounds
        // and the world stays borrowed for `'q` (the caller's contract), and
        // the caller keeps every other item of this entity dead during `'q`,
        // so the value and its tick have no other reference.
        unsafe { self.get_mut(dense) }
    }
}

/// `WorldQuery` and `QueryData` for a reference to a component, in terms of
/// its [`FetchColumn`]: the same code for `&T` and `&mut T`.
macro_rules! component_fetch {
    ($fetch:ty => $state:ident, $(#[$item_doc:meta])* type Item = $item:ty;) => {
        // SAFETY: registers `T` in its column's mode, and as required; the
        // state is built by the column type, which writes only when built
        // from an exclusive view; the one storage reported is `T`'s, which
        // holds every entity that has a `T`.
        unsafe impl<'a, T: Component> WorldQuery for $fetch {
            type State<'w> = $state<'w, T>;
            type Prepared = Option<StorageRoot<T>>;

            fn access(access: &mut Access) {
                access.add::<T>(<$state<'static, T> as FetchColumn<'static>>::MODE);
                access.require::<T>();
            }

            #[inline]
            fn prepare(view: WorldView<'_>) -> Self::Prepared {
                StorageRoot::find(view)
            }

            #[inline]
            unsafe fn state_prepared<'w, M: ViewMode>(
                prepared: &Self::Prepared,
                view: WorldView<'w, M>,
            ) -> $state<'w, T> {
                // SAFETY: found in the world `view` borrows (the caller's
                // contract); the query this state belongs to checks its
                // access before it builds any state.
                unsafe { <$state<'w, T> as FetchColumn<'w>>::build(*prepared, view) }
            }

            #[inline]
            fn for_each_required<'w>(state: &$state<'w, T>, f: &mut impl FnMut(Required<'w>)) {
                f(state.column().required());
            }
        }

        // SAFETY: `access` (above) registers `T` as the column's `MODE`,
        // which is `Write` exactly when `item` writes; every read goes to the
        // one column, at a position its own index gave or alignment proved;
        // the read-only form is `&T` over the same column.
        unsafe impl<'a, T: Component> QueryData for $fetch {
            $(#[$item_doc])*
            type Item<'q> = $item;
            type ReadOnly = &'a T;

            const LEAVES: usize = 1;
            const WRITES: bool = matches!(
                <$state<'static, T> as FetchColumn<'static>>::MODE,
                AccessMode::Write
            );

            #[inline]
            fn readonly_state<'w>(state: &Self::State<'w>) -> Column<'w, T> {
                *state.column()
            }

            type Location = usize;

            #[inline(always)]
            fn locate(state: &$state<'_, T>, entity: Entity) -> Option<usize> {
                state.column().dense(entity)
            }

            #[inline(always)]
            unsafe fn fetch_located<'q>(
                state: &$state<'_, T>,
                _: Entity,
                dense: usize,
            ) -> Self::Item<'q> {
                // SAFETY: `dense` came from the column's own index, the world
                // stays borrowed for `'q` and no other writing item of the
                // entity is live (the caller's contract).
                unsafe { state.item(dense) }
            }

            #[inline(always)]
            fn aligned(state: &$state<'_, T>, driver: &[Entity], range: Range<usize>) -> bool {
                state.column().aligned(driver, range)
            }

            #[inline(always)]
            fn realign(state: &mut $state<'_, T>, driver: &[Entity], at: usize) {
                state.column_mut().realign(driver, at);
            }

            #[inline(always)]
            fn record_shifts(state: &$state<'_, T>, out: &mut impl FnMut(usize)) {
                out(state.column().shift());
            }

            #[inline(always)]
            fn replay_shifts(
                state: &mut $state<'_, T>,
                saved: &mut &[usize],
                driver: &[Entity],
                at: usize,
            ) {
                state.column_mut().replay_shift(saved, driver, at);
            }

            #[inline(always)]
            unsafe fn fetch_aligned<'q>(
                state: &$state<'_, T>,
                _: Entity,
                index: usize,
            ) -> Self::Item<'q> {
                // SAFETY: the column is aligned at `index` under its current
                // shift, so the shifted position is in bounds and holds this
                // entity's value; the world stays borrowed for `'q` and no
                // other writing item of the entity is live (the caller's
                // contract).
                unsafe { state.item(state.column().shifted(index)) }
            }

            fn missing(state: &$state<'_, T>, entity: Entity) -> Option<&'static str> {
                (!state.column().contains(entity)).then(core::any::type_name::<T>)
            }
        }
    };
}

component_fetch! {
    &'a T => Column,
    type Item = &'q T;
}

component_fetch! {
    &'a mut T => MutColumn,
    /// `&mut T`, or [`Mut<T>`](crate::change::Mut) for a type that tracks changes.
    type Item = T::Mut<'q>;
}

// SAFETY: `&T` never writes.
unsafe impl<T: Component> ReadOnlyQueryData for &T {}
