//! A storage's dense arrays copied out and copied back, for rollback: whole
//! slices, so a `Copy` type moves as one `memcpy` per array (the standard
//! library's slice clones copy bytes for `Copy` types).

use super::SparseSet;
use crate::component::Component;
use crate::entity::Entity;
use crate::util::DeferredPanic;

/// One storage's contents as they were: its entities in dense order, their
/// values and, for a type that tracks changes, their ticks.
///
/// Invariant: `entities.len() == data.len()`, and the tick arrays are as long
/// for a tracked type, empty otherwise (as in [`SparseSet`]).
pub(crate) struct ColumnCopy<T> {
    entities: Vec<Entity>,
    data: Vec<T>,
    added: Vec<u64>,
    changed: Vec<u64>,
}

impl<T> Default for ColumnCopy<T> {
    fn default() -> Self {
        Self {
            entities: Vec::new(),
            data: Vec::new(),
            added: Vec::new(),
            changed: Vec::new(),
        }
    }
}

impl<T: Clone> Clone for ColumnCopy<T> {
    fn clone(&self) -> Self {
        Self {
            entities: self.entities.clone(),
            data: self.data.clone(),
            added: self.added.clone(),
            changed: self.changed.clone(),
        }
    }
}

impl<T> ColumnCopy<T> {
    /// The saved entities, in the dense order they had.
    pub(crate) fn entities(&self) -> &[Entity] {
        &self.entities
    }

    /// The saved values, in the order of [`entities`](Self::entities).
    pub(crate) fn values(&self) -> &[T] {
        &self.data
    }

    /// Empties the copy, keeping its buffers: what a storage never made holds.
    pub(crate) fn clear(&mut self) {
        self.entities.clear();
        self.data.clear();
        self.added.clear();
        self.changed.clear();
    }
}

impl<T: Component + Clone> SparseSet<T> {
    /// Copies this storage's dense arrays into `copy`, reusing its buffers.
    pub(crate) fn copy_into(&self, copy: &mut ColumnCopy<T>) {
        // `clone_from` on a `Vec` of a `Copy` type is a clear and one
        // `memcpy`; for other types it clones into the values already there.
        copy.entities.clone_from(&self.entities);
        copy.data.clone_from(&self.data);
        copy.added.clone_from(&self.added);
        copy.changed.clone_from(&self.changed);
    }

    /// Makes this storage hold exactly what `copy` holds, in its order, with
    /// its ticks. When the entities change, `moved` hears of every entity
    /// that held a value before (with `false`), then of every entity holding
    /// one after (with `true`), so the caller keeps its masks in step.
    ///
    /// When the storage holds the same entities in the same order, only the
    /// values and ticks are copied and `moved` is not called. Otherwise the
    /// saved values are cloned first, so a panicking `Clone` leaves the
    /// storage as it was; the values replaced are dropped once the storage is
    /// consistent again, each even past a panicking `Drop`, whose first panic
    /// then resumes.
    pub(crate) fn restore_from(
        &mut self,
        copy: &ColumnCopy<T>,
        mut moved: impl FnMut(Entity, bool),
    ) {
        if self.entities == copy.entities {
            // A panicking `Clone` leaves each value old or new: consistent.
            self.data.clone_from_slice(&copy.data);
            self.added.copy_from_slice(&copy.added);
            self.changed.copy_from_slice(&copy.changed);
            return;
        }
        let data = copy.data.clone();
        self.reorders += 1;
        for &entity in &self.entities {
            self.sparse.remove(entity.index());
            moved(entity, false);
        }
        self.entities.clone_from(&copy.entities);
        let replaced = core::mem::replace(&mut self.data, data);
        self.added.clone_from(&copy.added);
        self.changed.clone_from(&copy.changed);
        for (dense, &entity) in self.entities.iter().enumerate() {
            // Below `u32::MAX`: the copy came from a set within its limit.
            self.sparse
                .slot_or_alloc(entity.index())
                .set(entity, dense as u32);
            moved(entity, true);
        }
        let mut panics = DeferredPanic::default();
        panics.drop_each(replaced.into_iter());
        panics.resume();
    }
}
