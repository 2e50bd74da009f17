//! The map from component type to its sparse set: one storage per component
//! type, each owned behind a raw pointer so queries can reach several at once.

mod cell;
mod loose_page;
mod page_table;
mod sparse_index;
mod sparse_set;
mod type_index;

use core::any::TypeId;
use core::ptr::NonNull;

use crate::component::{Component, ComponentId, ComponentInfo};
use crate::entity::{Entity, EntityMap};
use crate::util::DeferredPanic;

pub(crate) use cell::ErasedStorage;
use cell::StorageCell;
pub(crate) use sparse_index::SparseReader;
pub(crate) use sparse_set::{ColumnCopy, RunIds, SparseSet};
use type_index::TypeIndex;

/// Every component type a world has seen, and its storage.
///
/// `pub` only so the sealed bundle trait can name it; the module is private.
///
/// Invariant: `infos[i]` and `cells[i]` describe the same type, whose `TypeId`
/// maps to `ComponentId(i)` and a copy of `cells[i]`'s root pointer in `index`.
///
/// Pointer provenance, one rule: every pointer that outlives a single call
/// (query columns, the columns a batch spawn resolves once) is a copy of the
/// cell's root raw pointer ([`root`](Self::root), [`lookup`](Self::lookup)),
/// never derived from a `&mut SparseSet<T>`. A `&mut` made from the root for
/// one call (`typed_mut`, `erased_by_id_mut`) may invalidate pointers derived
/// from an earlier `&mut`, but never the root or its copies, so a hook that
/// reborrows a storage in the middle of a batch leaves the batch's columns valid.
#[derive(Default)]
pub struct Storages {
    index: TypeIndex,
    infos: Vec<ComponentInfo>,
    cells: Vec<StorageCell>,
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
    #[cfg(test)]
    pub(crate) fn id_of<T: Component>(&self) -> Option<ComponentId> {
        Some(self.lookup::<T>()?.0)
    }

    /// The id of `T`, registering `T` with an empty storage on first sight.
    #[inline]
    pub(crate) fn register<T: Component>(&mut self) -> ComponentId {
        self.register_root::<T>().0
    }

    /// `T`'s id and its storage's root raw pointer (as [`lookup`](Self::lookup)
    /// gives them), registering `T` with an empty storage on first sight.
    #[inline]
    pub(crate) fn register_root<T: Component>(&mut self) -> (ComponentId, NonNull<SparseSet<T>>) {
        if let Some(found) = self.lookup::<T>() {
            return found;
        }
        self.register_new::<T>()
    }

    #[cold]
    fn register_new<T: Component>(&mut self) -> (ComponentId, NonNull<SparseSet<T>>) {
        let cell = StorageCell::new::<T>();
        // The storage stays where it is when the cell moves into `cells`.
        let root = cell.root().cast();
        (self.push_cell(cell, ComponentInfo::of::<T>), root)
    }

    /// Registers `cell` under the next id, described by `info` of that id.
    fn push_cell(
        &mut self,
        cell: StorageCell,
        info: impl FnOnce(ComponentId) -> ComponentInfo,
    ) -> ComponentId {
        let id = ComponentId(u32::try_from(self.cells.len()).expect("too many component types"));
        // The cell's root is what the index hands out for its type: the
        // index's invariant.
        self.index.insert(cell.type_id(), id, cell.root());
        self.infos.push(info(id));
        self.cells.push(cell);
        id
    }

    /// `T`'s id and its storage's root raw pointer, for query columns.
    ///
    /// Reading through the pointer is allowed while `self` is borrowed; writing
    /// only while the world is borrowed exclusively by the caller (see the
    /// exclusive `WorldView`).
    #[inline]
    pub(crate) fn lookup<T: Component>(&self) -> Option<(ComponentId, NonNull<SparseSet<T>>)> {
        let (id, root) = self.index.get(TypeId::of::<T>())?;
        debug_assert!(self.cells[id.index()].typed::<T>() == Some(root.cast()));
        // The index keys each root by the type its cell holds: this is the
        // root of the `SparseSet<T>` (no second type check needed).
        Some((id, root.cast()))
    }

    /// The storage registered as `id`, without its type.
    pub(crate) fn erased_by_id(&self, id: ComponentId) -> &dyn ErasedStorage {
        self.cells[id.index()].erased()
    }

    /// How many entities the storage of the type with id `type_id` holds; 0
    /// for a type never seen.
    pub(crate) fn len_of(&self, type_id: TypeId) -> usize {
        self.index
            .get(type_id)
            .map_or(0, |(id, _)| self.erased_by_id(id).len())
    }

    /// The storage registered as `id`, without its type, mutably.
    pub(crate) fn erased_by_id_mut(&mut self, id: ComponentId) -> &mut dyn ErasedStorage {
        self.cells[id.index()].erased_mut()
    }

    #[inline]
    pub(crate) fn get<T: Component>(&self) -> Option<&SparseSet<T>> {
        let (_, ptr) = self.lookup::<T>()?;
        // SAFETY: the index keys each root by the type its cell holds, so `ptr`
        // is the root of a live `SparseSet<T>`, which lives as long as `self`.
        // Nothing writes the set while this borrow lasts: a `&mut` to it needs
        // `&mut Storages`, which `&self` rules out, and query columns write
        // only under an exclusive view, made from `&mut World` (whose queries
        // never call this) or for a system, which no system reading the whole
        // world (`&World`, the only param that reaches this) runs beside.
        Some(unsafe { ptr.as_ref() })
    }

    #[inline]
    pub(crate) fn get_mut<T: Component>(&mut self) -> Option<&mut SparseSet<T>> {
        let (_, mut ptr) = self.lookup::<T>()?;
        // SAFETY: the cell holds a live `SparseSet<T>`, and `&mut self` rules out
        // every other reference to it.
        Some(unsafe { ptr.as_mut() })
    }

    /// The root raw pointer of the storage registered as `id`, which must be
    /// `T`'s: the one pointer from which longer-lived paths to its data derive.
    ///
    /// # Panics
    /// If `id` is not `T`'s id in this world.
    #[inline]
    pub(crate) fn root<T: Component>(&self, id: ComponentId) -> NonNull<SparseSet<T>> {
        self.cells[id.index()]
            .typed::<T>()
            .expect("the component id belongs to T")
    }

    /// The storage registered as `id`, which must be `T`'s.
    ///
    /// # Panics
    /// If `id` is not `T`'s id in this world.
    #[inline]
    pub(crate) fn typed_mut<T: Component>(&mut self, id: ComponentId) -> &mut SparseSet<T> {
        let mut ptr = self.root::<T>(id);
        // SAFETY: `root` checked that cell `id` holds a `SparseSet<T>`, live as
        // long as `self`; `&mut self` rules out every other reference to it for
        // the returned borrow.
        unsafe { ptr.as_mut() }
    }

    /// `T`'s storage, created empty on first use.
    #[cfg(test)]
    pub(crate) fn get_or_create<T: Component>(&mut self) -> &mut SparseSet<T> {
        let id = self.register::<T>();
        self.typed_mut::<T>(id)
    }

    /// Rewrites the `#[entity]` fields of every value through `map`.
    pub(crate) fn map_entities(&mut self, map: &EntityMap) {
        for cell in &mut self.cells {
            cell.erased_mut().map_entities(map);
        }
    }

    /// Moves every component of `other` into these storages, each for the
    /// entity `map` gives its owner (`None`: every entity keeps its id), as
    /// added at `tick`; a type seen here for
    /// the first time is registered. The values move as they are: their
    /// `#[entity]` fields are the caller's to rewrite first
    /// ([`map_entities`](Self::map_entities)). Then `moved` is told, per
    /// type, its id here and the entities that arrived, in dense order.
    ///
    /// `other` is left with empty storages.
    pub(crate) fn absorb(
        &mut self,
        other: &mut Storages,
        map: Option<&EntityMap>,
        tick: u64,
        mut moved: impl FnMut(ComponentId, &[Entity]),
    ) {
        for (cell, info) in other.cells.iter_mut().zip(&other.infos) {
            let id = match self.index.get(info.type_id()) {
                Some((id, _)) => id,
                None => self.register_like(info, cell.erased().new_empty()),
            };
            let from = cell.erased_mut();
            let into = self.cells[id.index()].erased_mut();
            let start = into.absorb(from, map, tick);
            moved(id, &into.entities()[start..]);
        }
    }

    /// Registers the type `info` describes, with `empty` (an empty storage of
    /// it) as its storage.
    #[cold]
    fn register_like(
        &mut self,
        info: &ComponentInfo,
        empty: Box<dyn ErasedStorage>,
    ) -> ComponentId {
        let cell = StorageCell::from_box(empty);
        assert_eq!(
            cell.type_id(),
            info.type_id(),
            "the storage holds the type described"
        );
        self.push_cell(cell, |id| info.with_id(id))
    }

    /// Number of component types registered.
    pub(crate) fn len(&self) -> usize {
        self.cells.len()
    }

    /// Whether any type registered here declares hooks on itself
    /// (`Component::DECLARES_HOOKS`).
    pub(crate) fn declare_hooks(&self) -> bool {
        self.infos.iter().any(ComponentInfo::declares_hooks)
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
