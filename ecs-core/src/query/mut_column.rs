//! What `&mut T` in a query reads from: a column that may be written, with the
//! change ticks of a type that tracks changes.

use core::ptr::NonNull;

use crate::change::ComponentMut;
use crate::component::Component;
use crate::storage::SparseSet;
use crate::view::{Exclusive, WorldView};

use super::column::{Column, StorageRoot};

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

// SAFETY: through `&MutColumn` values and ticks are reached only by
// `get_mut` and `slice_mut`, whose callers never fetch one entity twice at
// once, so threads sharing the column reach distinct values and distinct
// ticks: sound when `T` may be sent (written from another thread) and shared
// (its read-only form hands out `&T`). The index and entity array are only read.
unsafe impl<T: Send + Sync> Sync for MutColumn<'_, T> {}

// SAFETY: the column owns nothing: an exclusive `Column`, a pointer to ticks
// the world owns and a tick. On another thread it does only what the `Sync`
// impl allows, which needs `T: Send + Sync`.
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
    /// `found` is `StorageRoot::find` of a view of the world `view` borrows
    /// exclusively for `'w`, and nothing else reachable from the caller (no
    /// other column of any copy of `view`) references `T`'s data or changed
    /// ticks during `'w`, except filters reading the ticks of entities whose
    /// items are not live.
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
            // SAFETY: `found` was found in the world `view` borrows
            // exclusively, and nothing else the caller can reach references
            // `T`'s data during `'w` (this function's contract): what
            // `Column::new` requires of an exclusive view.
            column: unsafe { Column::new(view, found) },
            changed,
            this_run: view.ticks().this_run,
        }
    }

    /// The column, for what reads it.
    #[inline]
    pub(crate) fn column(&self) -> &Column<'w, T> {
        &self.column
    }

    /// The column, for what shifts it.
    #[inline]
    pub(crate) fn column_mut(&mut self) -> &mut Column<'w, T> {
        &mut self.column
    }

    /// The item for the value at `dense`: `&mut T`, or a `Mut<T>` that marks
    /// the value changed when written.
    ///
    /// # Safety
    /// `dense` is below the column's length, the world stays borrowed for
    /// `'q`, and no other reference to that value or its changed tick is live
    /// during `'q`.
    #[inline(always)]
    pub(crate) unsafe fn get_mut<'q>(&self, dense: usize) -> T::Mut<'q> {
        // SAFETY: `dense` is in bounds, the world stays borrowed for `'q` and
        // nothing else references the value meanwhile (this function's
        // contract); the column was made from an exclusive view, in
        // `MutColumn::exclusive`.
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
    /// `len` is at most the column's length, the world stays borrowed for
    /// `'q`, no other reference to those values is live during `'q`, and none
    /// to their changed ticks during the call.
    pub(crate) unsafe fn slice_mut<'q>(&self, len: usize) -> &'q mut [T] {
        // SAFETY: `len` is within the column, the world stays borrowed for
        // `'q` and nothing else references those values meanwhile (this
        // function's contract); the column was made from an exclusive view.
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
