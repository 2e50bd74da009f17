//! What `&mut T` in a query reads from: a column that may be written, with the
//! change ticks of a type that tracks changes.

use core::ptr::NonNull;

use crate::change::ComponentMut;
use crate::component::Component;
use crate::storage::SparseSet;
use crate::view::{Exclusive, WorldView};

use super::column::{Column, Required, StorageRoot};

/// A [`Column`] that may be written, and for a type that tracks changes the
/// pointer to its storage's ticks, so an item can mark its own value changed.
///
/// Invariants, beside those of the exclusive `Column` it holds:
/// - when `T::TRACK_CHANGES`, `changed` points at one changed tick per value
///   of the column, in the same order; otherwise it is dangling and never used;
/// - `this_run` is the tick the query's writes are stamped with.
pub struct MutColumn<'w, T> {
    column: Column<'w, T>,
    changed: NonNull<u64>,
    this_run: u64,
}

// SAFETY: as for `Column`: items of distinct entities reach distinct values
// and distinct ticks, so sharing the column between threads that fetch
// distinct entities is sound when `T` may be sent and shared.
unsafe impl<T: Send + Sync> Sync for MutColumn<'_, T> {}

// SAFETY: as above; the column owns nothing.
unsafe impl<T: Send + Sync> Send for MutColumn<'_, T> {}

impl<T> Clone for MutColumn<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for MutColumn<'_, T> {}

impl<'w, T: Component> MutColumn<'w, T> {
    /// A writable column of the storage at `found`, stamping writes with the
    /// view's tick.
    ///
    /// # Safety
    /// As for [`Column::exclusive`]: `found` was found in the same world, and
    /// nothing else reachable from the caller references `T`'s data or ticks
    /// during `'w`, except filters reading ticks of entities whose items are
    /// not live.
    #[inline]
    pub(crate) unsafe fn exclusive(
        view: WorldView<'w, Exclusive>,
        found: Option<StorageRoot<T>>,
    ) -> Self {
        let changed = match found {
            // SAFETY: the root pointer of a live `SparseSet<T>` owned by the
            // world, borrowed exclusively for `'w` (the caller's contract).
            Some(found) if T::TRACK_CHANGES => unsafe {
                SparseSet::changed_for_write(found.root().as_ptr())
            },
            _ => NonNull::dangling(),
        };
        Self {
            // SAFETY: forwarded from the caller, with `found` from the same view.
            column: unsafe { Column::exclusive(view, found) },
            changed,
            this_run: view.ticks().this_run,
        }
    }

    /// The column, for what reads it.
    #[inline]
    pub(crate) fn column(&self) -> &Column<'w, T> {
        &self.column
    }

    /// Shifts the column for a run of the driver (see [`Column::realign`]).
    #[inline]
    pub(crate) fn realign(&mut self, driver: &[crate::entity::Entity], at: usize) {
        self.column.realign(driver, at);
    }

    /// This column as a storage every match must be in.
    #[inline]
    pub(crate) fn required(&self) -> Required<'w> {
        self.column.required()
    }

    /// The item for the value at `dense`: `&mut T`, or a `Mut<T>` that marks
    /// the value changed when written.
    ///
    /// # Safety
    /// As for [`Column::get_mut`]: `dense` is in the column's bounds, and no other
    /// reference to that value or its ticks is live during `'q`.
    #[inline(always)]
    pub(crate) unsafe fn get_mut<'q>(&self, dense: usize) -> T::Mut<'q> {
        // SAFETY: forwarded from the caller.
        let value = unsafe { self.column.get_mut(dense) };
        let changed = if T::TRACK_CHANGES {
            // SAFETY: a tracked column's ticks run beside its values (type
            // invariant), `dense` is in bounds, and the caller keeps every
            // other reference to this entity's ticks dead during `'q`.
            Some(unsafe { &mut *self.changed.as_ptr().add(dense) })
        } else {
            None
        };
        T::Mut::from_parts(value, changed, self.this_run)
    }

    /// The first `len` values, mutable, marked changed now: a slice hands out
    /// plain `&mut T`, so every value in it counts as written.
    ///
    /// # Safety
    /// As for [`Column::slice_mut`].
    pub(crate) unsafe fn slice_mut<'q>(&self, len: usize) -> &'q mut [T] {
        // SAFETY: forwarded from the caller.
        let values = unsafe { self.column.slice_mut(len) };
        if T::TRACK_CHANGES {
            // SAFETY: the first `len` ticks run beside those values (type
            // invariant and the caller's bound), and nothing else references
            // them (the caller's contract).
            let changed = unsafe { core::slice::from_raw_parts_mut(self.changed.as_ptr(), len) };
            changed.fill(self.this_run);
        }
        values
    }
}
