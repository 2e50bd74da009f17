//! One storage behind a raw pointer, and what the world can do with it without its type.

use core::any::{Any, TypeId};
use core::ptr::NonNull;
use std::panic::{self, AssertUnwindSafe};

use crate::component::Component;
use crate::entity::{Entity, EntityMap};
use crate::util::PanicPayload;

use super::SparseSet;
use super::sparse_set::StorageHeap;

/// What the world can do with a storage without knowing its component type.
pub(crate) trait ErasedStorage: Any + Send + Sync {
    fn contains(&self, entity: Entity) -> bool;
    /// Number of components stored.
    fn len(&self) -> usize;
    /// Sparse index pages allocated.
    fn page_count(&self) -> usize;
    /// Bytes held on the heap, by structure.
    fn heap_bytes(&self) -> StorageHeap;
    /// Removes and drops `entity`'s component. The set is consistent before the
    /// value drops; a panic in its `Drop` is caught and returned, so the caller
    /// can finish its work before resuming it.
    fn remove_and_drop(&mut self, entity: Entity) -> Result<(), PanicPayload>;
    fn clear(&mut self);
    /// The entities holding this component, in dense order.
    fn entities(&self) -> &[Entity];
    /// The dense position of `entity`, if it holds this component.
    fn dense_index(&self, entity: Entity) -> Option<usize>;
    /// Swaps the entities at two dense positions, with their components.
    fn swap_dense(&mut self, a: usize, b: usize);
    /// Sorts the dense positions from `from` on by `(key(e), e.index())`
    /// (see `SparseSet::sort_dense`); whether anything moved.
    fn sort_dense(&mut self, from: usize, key: &dyn Fn(Entity) -> u64) -> bool;
    /// How many positions from `from` on are in that order.
    fn in_order_from(&self, from: usize, key: &dyn Fn(Entity) -> u64) -> usize;
    /// The `TypeId` of the component type stored (not of the storage).
    fn component_type_id(&self) -> TypeId;
    /// A new, empty storage of the same component type.
    fn new_empty(&self) -> Box<dyn ErasedStorage>;
    /// Rewrites the entity ids held inside every value through `map`.
    fn map_entities(&mut self, map: &EntityMap);
    /// Moves every component of `from`, a storage of the same type, to the
    /// end of this one, each for the entity `map` gives its owner (`None`:
    /// every entity keeps its id; see `SparseSet::absorb`); returns the dense
    /// position of the first moved value.
    ///
    /// # Panics
    /// If `from` holds another type, or an entity `map` lacks.
    fn absorb(&mut self, from: &mut dyn ErasedStorage, map: Option<&EntityMap>, tick: u64)
    -> usize;
    /// The value of `entity` as `dyn Debug`, if it holds one and its type shows it.
    fn debug_value(&self, entity: Entity) -> Option<&dyn core::fmt::Debug>;
    /// Gives `to`, which holds none, a copy of `from`'s value, added at
    /// `tick`; false (nothing changed) when `from` holds none or the type
    /// cannot be copied.
    fn clone_within(&mut self, from: Entity, to: Entity, tick: u64) -> bool;
    /// Whether `entity` holds a value and its type can be copied.
    fn can_clone(&self, entity: Entity) -> bool;
    /// Whether the component type is a relationship (it points its entity
    /// at another).
    #[cfg(feature = "serde")]
    fn is_relationship(&self) -> bool;
    /// For a relationship type, the entity the value at dense position
    /// `dense` points at; `None` for other types or a position past the end.
    #[cfg(feature = "serde")]
    fn relationship_target_at(&self, dense: usize) -> Option<Entity>;
    #[cfg(test)]
    fn assert_invariants(&self);
}

impl<T: Component> ErasedStorage for SparseSet<T> {
    fn contains(&self, entity: Entity) -> bool {
        SparseSet::contains(self, entity)
    }
    fn len(&self) -> usize {
        SparseSet::entities(self).len()
    }
    fn page_count(&self) -> usize {
        self.sparse().page_count()
    }
    fn heap_bytes(&self) -> StorageHeap {
        SparseSet::heap_bytes(self)
    }
    fn remove_and_drop(&mut self, entity: Entity) -> Result<(), PanicPayload> {
        let removed = self.remove(entity);
        if core::mem::needs_drop::<T>() && removed.is_some() {
            panic::catch_unwind(AssertUnwindSafe(|| drop(removed)))
        } else {
            Ok(())
        }
    }
    fn clear(&mut self) {
        SparseSet::clear(self);
    }
    fn entities(&self) -> &[Entity] {
        SparseSet::entities(self)
    }
    fn dense_index(&self, entity: Entity) -> Option<usize> {
        self.sparse().get(entity)
    }
    fn swap_dense(&mut self, a: usize, b: usize) {
        SparseSet::swap_dense(self, a, b);
    }
    fn sort_dense(&mut self, from: usize, key: &dyn Fn(Entity) -> u64) -> bool {
        SparseSet::sort_dense(self, from, key)
    }
    fn in_order_from(&self, from: usize, key: &dyn Fn(Entity) -> u64) -> usize {
        SparseSet::in_order_from(self, from, key)
    }
    fn component_type_id(&self) -> TypeId {
        TypeId::of::<T>()
    }
    fn new_empty(&self) -> Box<dyn ErasedStorage> {
        Box::new(SparseSet::<T>::default())
    }
    fn map_entities(&mut self, map: &EntityMap) {
        SparseSet::map_entities(self, map);
    }
    fn absorb(
        &mut self,
        from: &mut dyn ErasedStorage,
        map: Option<&EntityMap>,
        tick: u64,
    ) -> usize {
        let from = (from as &mut dyn Any)
            .downcast_mut::<SparseSet<T>>()
            .expect("storages of one type are merged together");
        SparseSet::absorb(self, from, map, tick)
    }
    fn debug_value(&self, entity: Entity) -> Option<&dyn core::fmt::Debug> {
        self.get(entity)?.as_debug()
    }
    fn clone_within(&mut self, from: Entity, to: Entity, tick: u64) -> bool {
        let Some(copy) = self.get(from).and_then(T::clone_value) else {
            return false;
        };
        self.push_new(to, copy, tick);
        true
    }
    fn can_clone(&self, entity: Entity) -> bool {
        self.get(entity).and_then(T::clone_value).is_some()
    }
    #[cfg(feature = "serde")]
    fn is_relationship(&self) -> bool {
        T::IS_RELATIONSHIP
    }
    #[cfg(feature = "serde")]
    fn relationship_target_at(&self, dense: usize) -> Option<Entity> {
        if !T::IS_RELATIONSHIP {
            return None;
        }
        self.values()
            .get(dense)
            .and_then(Component::relationship_target)
    }
    #[cfg(test)]
    fn assert_invariants(&self) {
        SparseSet::assert_invariants(self);
    }
}

/// An owned, type-erased sparse set, reached through a raw pointer.
///
/// The world keeps its storages behind raw pointers rather than `Box`es so that
/// a query can hold pointers into several storages at once, each derived from
/// the allocation itself, without reborrowing the container for every one.
///
/// Invariants:
/// - `ptr` comes from `Box::into_raw` of a `Box<SparseSet<T>>` for the `T` with
///   `TypeId::of::<T>() == type_id`, and is freed exactly once, in `Drop`;
/// - references made from `ptr` follow the borrow of the cell (shared from
///   `&self`, exclusive from `&mut self`), except those made through copies
///   of the root ([`root`](Self::root)): query columns, a batch spawn's
///   columns, a `ViewMut`'s storage, which follow the borrow of the world
///   they were taken from (see the exclusive `WorldView`).
pub(super) struct StorageCell {
    ptr: NonNull<dyn ErasedStorage>,
    type_id: TypeId,
}

// SAFETY: the cell owns its `SparseSet<T>` exactly as a `Box` would, and
// `ErasedStorage` requires `Send + Sync`.
unsafe impl Send for StorageCell {}
// SAFETY: through `&StorageCell` the storage is reached only as `&dyn
// ErasedStorage` (reads of a `Sync` value: `ErasedStorage` requires `Sync`)
// or as a copy of the root. Writes through a copied root come from code that
// holds `&mut World` (the funnel, a batch spawn, a `ViewMut`, queries built
// from it), so only that code reaches the cells meanwhile, or from the query
// columns of systems running at once, whose access the schedule checked, so
// no two threads reach one value where either writes.
unsafe impl Sync for StorageCell {}

impl StorageCell {
    pub(super) fn new<T: Component>() -> Self {
        Self::from_box(Box::new(SparseSet::<T>::default()))
    }

    /// A cell owning `boxed`, keyed by the component type the storage itself
    /// names (the key `typed` casts by).
    pub(super) fn from_box(boxed: Box<dyn ErasedStorage>) -> Self {
        let type_id = boxed.component_type_id();
        Self {
            ptr: NonNull::from(Box::leak(boxed)),
            type_id,
        }
    }

    #[inline]
    pub(super) fn erased(&self) -> &dyn ErasedStorage {
        // SAFETY: `ptr` is live until `Drop` and the shared borrow of `self` rules
        // out an exclusive reference made from `&mut self`.
        unsafe { self.ptr.as_ref() }
    }

    #[inline]
    pub(super) fn erased_mut(&mut self) -> &mut dyn ErasedStorage {
        // SAFETY: `ptr` is live until `Drop`, and `&mut self` is the only way in.
        unsafe { self.ptr.as_mut() }
    }

    /// The component type the cell's storage holds.
    pub(super) fn type_id(&self) -> TypeId {
        self.type_id
    }

    /// A copy of the root pointer, thin: the address of the `SparseSet<T>`
    /// for the `T` of [`type_id`](Self::type_id).
    pub(super) fn root(&self) -> NonNull<()> {
        self.ptr.cast()
    }

    /// The typed pointer, if this cell holds a `SparseSet<T>`.
    #[inline]
    pub(super) fn typed<T: Component>(&self) -> Option<NonNull<SparseSet<T>>> {
        (self.type_id == TypeId::of::<T>()).then(|| self.ptr.cast::<SparseSet<T>>())
    }
}

impl Drop for StorageCell {
    fn drop(&mut self) {
        // SAFETY: `ptr` came from `Box::leak` and is freed only here.
        drop(unsafe { Box::from_raw(self.ptr.as_ptr()) });
    }
}
