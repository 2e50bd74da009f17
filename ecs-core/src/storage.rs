//! The map from component type to its sparse set, with the type-erased view the world uses.

use core::any::{Any, TypeId};
use core::hash::{BuildHasherDefault, Hasher};
use std::collections::HashMap;

use crate::component::{Component, ComponentId, ComponentInfo};
use crate::entity::Entity;
use crate::sparse_set::SparseSet;

/// What the world can do with a storage without knowing its component type.
pub(crate) trait ErasedStorage: Any + Send + Sync {
    fn contains(&self, entity: Entity) -> bool;
    /// Removes and drops `entity`'s component; returns whether there was one.
    fn remove_and_drop(&mut self, entity: Entity) -> bool;
    fn clear(&mut self);
    /// The entities holding this component, in dense order.
    #[cfg(test)]
    fn entities(&self) -> &[Entity];
    #[cfg(test)]
    fn assert_invariants(&self);
}

impl<T: Component> ErasedStorage for SparseSet<T> {
    fn contains(&self, entity: Entity) -> bool {
        SparseSet::contains(self, entity)
    }
    fn remove_and_drop(&mut self, entity: Entity) -> bool {
        self.remove(entity).is_some()
    }
    fn clear(&mut self) {
        SparseSet::clear(self);
    }
    #[cfg(test)]
    fn entities(&self) -> &[Entity] {
        SparseSet::entities(self)
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

/// Every component type a world has seen, and its storage.
///
/// `pub` only so the sealed bundle trait can name it; the module is private.
///
/// Invariants: `infos[i]` and `sets[i]` describe the same type, `sets[i]` is a
/// `SparseSet<T>` for the `T` whose `TypeId` maps to `ComponentId(i)` in `ids`.
#[derive(Default)]
pub struct Storages {
    ids: HashMap<TypeId, ComponentId, BuildHasherDefault<TypeIdHasher>>,
    infos: Vec<ComponentInfo>,
    sets: Vec<Box<dyn ErasedStorage>>,
}

impl Storages {
    /// The id of `T`, if this world has seen it.
    #[inline]
    pub(crate) fn id_of<T: Component>(&self) -> Option<ComponentId> {
        self.ids.get(&TypeId::of::<T>()).copied()
    }

    /// The id of `T`, registering `T` with an empty storage on first sight.
    pub(crate) fn register<T: Component>(&mut self) -> ComponentId {
        if let Some(id) = self.id_of::<T>() {
            return id;
        }
        let id = ComponentId(u32::try_from(self.sets.len()).expect("too many component types"));
        self.ids.insert(TypeId::of::<T>(), id);
        self.infos.push(ComponentInfo::of::<T>(id));
        self.sets.push(Box::new(SparseSet::<T>::default()));
        id
    }

    #[inline]
    pub(crate) fn get<T: Component>(&self) -> Option<&SparseSet<T>> {
        let id = self.id_of::<T>()?;
        let set: &dyn Any = &*self.sets[id.index()];
        set.downcast_ref()
    }

    #[inline]
    pub(crate) fn get_mut<T: Component>(&mut self) -> Option<&mut SparseSet<T>> {
        let id = self.id_of::<T>()?;
        let set: &mut dyn Any = &mut *self.sets[id.index()];
        set.downcast_mut()
    }

    /// `T`'s storage, created empty on first use.
    #[inline]
    pub(crate) fn get_or_create<T: Component>(&mut self) -> &mut SparseSet<T> {
        let id = self.register::<T>();
        let set: &mut dyn Any = &mut *self.sets[id.index()];
        set.downcast_mut()
            .expect("storage registered under T's TypeId holds a SparseSet<T>")
    }

    /// What the world knows about the component with `id`.
    pub(crate) fn info(&self, id: ComponentId) -> &ComponentInfo {
        &self.infos[id.index()]
    }

    /// Every storage, in component id order.
    pub(crate) fn erased(&self) -> impl Iterator<Item = (ComponentId, &dyn ErasedStorage)> {
        self.sets
            .iter()
            .zip(&self.infos)
            .map(|(set, info)| (info.id(), &**set))
    }

    pub(crate) fn erased_mut(&mut self) -> impl Iterator<Item = &mut dyn ErasedStorage> {
        self.sets.iter_mut().map(|set| &mut **set)
    }
}
