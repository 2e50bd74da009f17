//! The map from component type to its sparse set, with the type-erased view the world uses.

use core::any::{Any, TypeId};
use core::hash::{BuildHasherDefault, Hasher};
use core::ptr::NonNull;
use std::collections::HashMap;
use std::panic::{self, AssertUnwindSafe};

use crate::component::{Component, ComponentId, ComponentInfo};
use crate::deferred_panic::DeferredPanic;
use crate::deferred_panic::PanicPayload;
use crate::entity::Entity;
use crate::sparse_set::SparseSet;

/// What the world can do with a storage without knowing its component type.
pub(crate) trait ErasedStorage: Any + Send + Sync {
    fn contains(&self, entity: Entity) -> bool;
    /// Number of components stored.
    fn len(&self) -> usize;
    /// Sparse index pages allocated.
    fn page_count(&self) -> usize;
    /// Bytes held on the heap.
    fn heap_bytes(&self) -> usize;
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
    fn heap_bytes(&self) -> usize {
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
    #[cfg(test)]
    fn assert_invariants(&self) {
        SparseSet::assert_invariants(self);
    }
}

/// Hashes a `TypeId` by taking the 64 bits it writes: they are already a hash.
#[derive(Default)]
pub(crate) struct TypeIdHasher(u64);

impl Hasher for TypeIdHasher {
    #[inline]
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
    fn write(&mut self, bytes: &[u8]) {
        // `TypeId` writes one u64 today; fold anything else so the map stays correct.
        for &b in bytes {
            self.0 = (self.0.rotate_left(8) ^ u64::from(b)).wrapping_mul(0x100_0000_01b3);
        }
    }
    #[inline]
    fn finish(&self) -> u64 {
        self.0
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
///   `&self`, exclusive from `&mut self`), except the columns of a query, which
///   follow the borrow of the world the query was built from (see `query::Column`).
struct StorageCell {
    ptr: NonNull<dyn ErasedStorage>,
    type_id: TypeId,
}

// SAFETY: the cell owns its `SparseSet<T>` exactly as a `Box` would, and
// `ErasedStorage` requires `Send + Sync`.
unsafe impl Send for StorageCell {}
// SAFETY: as above. Through `&StorageCell` the storage is only read, except by
// query columns built for a world borrowed exclusively (`WorldSource`), which
// `&mut World` rules out being shared.
unsafe impl Sync for StorageCell {}

impl StorageCell {
    fn new<T: Component>() -> Self {
        let boxed: Box<dyn ErasedStorage> = Box::new(SparseSet::<T>::default());
        Self {
            ptr: NonNull::from(Box::leak(boxed)),
            type_id: TypeId::of::<T>(),
        }
    }

    #[inline]
    fn erased(&self) -> &dyn ErasedStorage {
        // SAFETY: `ptr` is live until `Drop` and the shared borrow of `self` rules
        // out an exclusive reference made from `&mut self`.
        unsafe { self.ptr.as_ref() }
    }

    #[inline]
    fn erased_mut(&mut self) -> &mut dyn ErasedStorage {
        // SAFETY: `ptr` is live until `Drop`, and `&mut self` is the only way in.
        unsafe { self.ptr.as_mut() }
    }

    /// The typed pointer, if this cell holds a `SparseSet<T>`.
    #[inline]
    fn typed<T: Component>(&self) -> Option<NonNull<SparseSet<T>>> {
        (self.type_id == TypeId::of::<T>()).then(|| self.ptr.cast::<SparseSet<T>>())
    }
}

impl Drop for StorageCell {
    fn drop(&mut self) {
        // SAFETY: `ptr` came from `Box::leak` and is freed only here.
        drop(unsafe { Box::from_raw(self.ptr.as_ptr()) });
    }
}

/// Every component type a world has seen, and its storage.
///
/// `pub` only so the sealed bundle trait can name it; the module is private.
///
/// Invariant: `infos[i]` and `cells[i]` describe the same type, whose `TypeId`
/// maps to `ComponentId(i)` in `ids`.
#[derive(Default)]
pub struct Storages {
    ids: HashMap<TypeId, ComponentId, BuildHasherDefault<TypeIdHasher>>,
    infos: Vec<ComponentInfo>,
    cells: Vec<StorageCell>,
    /// The type looked up last through `&mut self`: loops that insert or remove
    /// one type over and over skip the hash map.
    recent: Option<(TypeId, ComponentId)>,
}

impl Drop for Storages {
    /// Drops every storage even if a component's `Drop` panics, then resumes
    /// the first panic: one bad value never leaks the rest of the world.
    fn drop(&mut self) {
        let mut panics = DeferredPanic::default();
        for cell in self.cells.drain(..) {
            panics.run(|| drop(cell));
        }
        panics.resume();
    }
}

impl Storages {
    /// The id of `T`, if this world has seen it.
    #[inline]
    pub(crate) fn id_of<T: Component>(&self) -> Option<ComponentId> {
        self.ids.get(&TypeId::of::<T>()).copied()
    }

    /// The id of `T`, if this world has seen it, through the one-entry cache.
    #[inline]
    pub(crate) fn id_of_mut<T: Component>(&mut self) -> Option<ComponentId> {
        let type_id = TypeId::of::<T>();
        if let Some((recent, id)) = self.recent
            && recent == type_id
        {
            return Some(id);
        }
        let id = self.id_of::<T>()?;
        self.recent = Some((type_id, id));
        Some(id)
    }

    /// The id of `T`, registering `T` with an empty storage on first sight.
    #[inline]
    pub(crate) fn register<T: Component>(&mut self) -> ComponentId {
        if let Some(id) = self.id_of_mut::<T>() {
            return id;
        }
        self.register_new::<T>()
    }

    #[cold]
    fn register_new<T: Component>(&mut self) -> ComponentId {
        let id = ComponentId(u32::try_from(self.cells.len()).expect("too many component types"));
        self.ids.insert(TypeId::of::<T>(), id);
        self.infos.push(ComponentInfo::of::<T>(id));
        self.cells.push(StorageCell::new::<T>());
        id
    }

    /// `T`'s id and a raw pointer to its storage, for query columns.
    ///
    /// The pointer follows the rules of [`ptr`](Self::ptr).
    #[inline]
    pub(crate) fn lookup<T: Component>(&self) -> Option<(ComponentId, NonNull<SparseSet<T>>)> {
        let id = self.id_of::<T>()?;
        Some((id, self.cells[id.index()].typed::<T>()?))
    }

    /// The storage registered as `id`, without its type.
    pub(crate) fn erased_by_id(&self, id: ComponentId) -> &dyn ErasedStorage {
        self.cells[id.index()].erased()
    }

    /// The storage registered as `id`, without its type, mutably.
    pub(crate) fn erased_by_id_mut(&mut self, id: ComponentId) -> &mut dyn ErasedStorage {
        self.cells[id.index()].erased_mut()
    }

    /// A raw pointer to `T`'s storage, for query columns.
    ///
    /// Reading through it is allowed while `self` is borrowed; writing only while
    /// the world is borrowed exclusively by the caller (see `query::Column`).
    #[inline]
    pub(crate) fn ptr<T: Component>(&self) -> Option<NonNull<SparseSet<T>>> {
        Some(self.lookup::<T>()?.1)
    }

    #[inline]
    pub(crate) fn get<T: Component>(&self) -> Option<&SparseSet<T>> {
        let ptr = self.ptr::<T>()?;
        // SAFETY: the cell holds a live `SparseSet<T>` (checked by `typed`).
        // Exclusive access to it exists only under `&mut Storages` or in a query
        // over a mutably borrowed world, whose own code never calls this.
        Some(unsafe { ptr.as_ref() })
    }

    #[inline]
    pub(crate) fn get_mut<T: Component>(&mut self) -> Option<&mut SparseSet<T>> {
        let mut ptr = self.ptr::<T>()?;
        // SAFETY: the cell holds a live `SparseSet<T>`, and `&mut self` rules out
        // every other reference to it.
        Some(unsafe { ptr.as_mut() })
    }

    /// The storage registered as `id`, which must be `T`'s.
    ///
    /// # Panics
    /// If `id` is not `T`'s id in this world.
    #[inline]
    pub(crate) fn typed_mut<T: Component>(&mut self, id: ComponentId) -> &mut SparseSet<T> {
        let mut ptr = self.cells[id.index()]
            .typed::<T>()
            .expect("the component id belongs to T");
        // SAFETY: as in `get_mut`.
        unsafe { ptr.as_mut() }
    }

    /// `T`'s storage, created empty on first use.
    #[cfg(test)]
    pub(crate) fn get_or_create<T: Component>(&mut self) -> &mut SparseSet<T> {
        let id = self.register::<T>();
        self.typed_mut::<T>(id)
    }

    /// Number of component types registered.
    pub(crate) fn len(&self) -> usize {
        self.cells.len()
    }

    /// What the world knows about the component with `id`.
    pub(crate) fn info(&self, id: ComponentId) -> &ComponentInfo {
        &self.infos[id.index()]
    }

    /// Every storage, in component id order.
    pub(crate) fn erased(&self) -> impl Iterator<Item = (ComponentId, &dyn ErasedStorage)> {
        self.cells
            .iter()
            .zip(&self.infos)
            .map(|(cell, info)| (info.id(), cell.erased()))
    }

    pub(crate) fn erased_mut(&mut self) -> impl Iterator<Item = &mut dyn ErasedStorage> {
        self.cells.iter_mut().map(StorageCell::erased_mut)
    }
}
