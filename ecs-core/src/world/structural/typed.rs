//! [`TypedStorage`]: one component type's storage found once, for a loop of
//! structural changes of that type (what `ViewMut` keeps).

use core::ptr::NonNull;

use crate::component::{Component, ComponentId};
use crate::entity::Entity;
use crate::storage::SparseSet;

use super::super::World;
use super::funnel::Structural;

/// The storage of `T` in one world, with whether its inserts and removals
/// may take the funnel's unhooked path (the storage and the mask, nothing
/// else): no group, observer or component hook follows structural change
/// there. Otherwise a change goes through the world's [`Transaction`](super::transaction::Transaction),
/// and the storage is found again afterwards, also when a hook, an
/// observer or a command panics: the commands that ran may have replaced
/// the whole world, or added the first observer.
pub(in crate::world) struct TypedStorage<T: Component> {
    id: ComponentId,
    /// The root pointer of `T`'s storage (`Storages::register_root`):
    /// storages never move or drop while their world lives.
    set: NonNull<SparseSet<T>>,
    unhooked: bool,
}

impl<T: Component> TypedStorage<T> {
    /// `T`'s storage in `world`, registered if `T` is new.
    #[inline]
    pub(in crate::world) fn find(world: &mut World) -> Self {
        let (id, set) = world.data.storages.register_root::<T>();
        if T::DECLARES_HOOKS {
            world.component_hooks.sync(&world.data.storages);
        }
        Self {
            id,
            set,
            unhooked: world.structure_unhooked_for(id),
        }
    }

    /// The storage's root pointer, valid while the world it was found in
    /// lives and is not replaced.
    #[inline]
    pub(in crate::world) fn set(&self) -> NonNull<SparseSet<T>> {
        self.set
    }

    /// Gives the live `entity` `value` in `world` (the world this storage
    /// was found in), returning the value it replaces.
    #[inline]
    pub(super) fn insert(&mut self, world: &mut World, entity: Entity, value: T) -> Option<T> {
        if self.unhooked {
            let data = &mut world.data;
            // SAFETY: `set` is the root of storage `id` in `world`, a
            // `SparseSet<T>` (`register_root` gave both, and storages stay
            // put); the caller borrows the world mutably and holds no
            // reference into the storage; `masks` and `clock` are its own.
            return unsafe {
                Structural::insert_unhooked(
                    &mut data.masks,
                    &mut data.clock,
                    self.id,
                    self.set,
                    entity,
                    value,
                )
            };
        }
        let refind = RefindOnDrop {
            storage: self,
            world,
        };
        // SAFETY: `set` is the root of storage `id` in this world, a
        // `SparseSet<T>` (`register_root` gave both, storages stay put, and
        // after every change that ran commands the storage was found again).
        unsafe {
            refind.world.transaction().insert_into(
                refind.storage.id,
                refind.storage.set,
                entity,
                value,
            )
        }
    }

    /// Takes `T` away from the live `entity` in `world` (the world this
    /// storage was found in); `None` when it has none.
    #[inline]
    pub(super) fn remove(&mut self, world: &mut World, entity: Entity) -> Option<T> {
        if self.unhooked {
            // SAFETY: `set` is the root of storage `id` in `world`, a
            // `SparseSet<T>` (`register_root` gave both, and storages stay
            // put); the caller borrows the world mutably and holds no
            // reference into the storage; `masks` is its own.
            return unsafe {
                Structural::remove_unhooked(&mut world.data.masks, self.id, self.set, entity)
            };
        }
        let refind = RefindOnDrop {
            storage: self,
            world,
        };
        // SAFETY: `set` is the root of storage `id` in this world, a
        // `SparseSet<T>` (`register_root` gave both, storages stay put, and
        // after every change that ran commands the storage was found again).
        unsafe {
            refind
                .world
                .transaction()
                .remove_from(refind.storage.id, refind.storage.set, entity)
        }
    }
}

/// Holds a storage while a change that may run hooks, observers and their
/// commands is made, and finds the storage again when dropped, on return or
/// while a panic unwinds: a command may have replaced the whole world, and
/// a storage kept past the panic must not point into the old one.
struct RefindOnDrop<'a, T: Component> {
    storage: &'a mut TypedStorage<T>,
    world: &'a mut World,
}

impl<T: Component> Drop for RefindOnDrop<'_, T> {
    fn drop(&mut self) {
        *self.storage = TypedStorage::find(self.world);
    }
}
