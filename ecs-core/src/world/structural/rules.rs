//! The rules every spawn and insert passes, owned by the door: the target is
//! alive, the relationships it carries keep their world a forest, the types'
//! requirements form no cycle; then the change and the components the new
//! types require, written together and dispatched once (`transaction.rs`),
//! so hooks and observers see the entity whole. A refused change leaves the
//! world as it was. `World`,
//! `ViewMut` and, through them, handles and commands call these and nothing
//! below them, so no caller can skip a rule.

use crate::bundle::Bundle;
use crate::component::Component;
use crate::entity::Entity;
use crate::error::Error;

use super::super::World;
use super::TypedStorage;
use super::transaction::Transaction;

impl Transaction<'_> {
    /// Spawns an entity holding `bundle`, or says which rule refused it.
    #[inline]
    pub(in crate::world) fn try_spawn<B: Bundle>(self, bundle: B) -> Result<Entity, Error> {
        let world = self.into_world();
        world.check_bundle(None, &bundle)?;
        world.check_requirements::<B>()?;
        Ok(world.transaction().spawn(bundle))
    }

    /// Spawns one entity per bundle of `bundles`, appending their ids to
    /// `spawned`. Every bundle passes the rules before the first is spawned,
    /// so a refused batch spawns nothing.
    pub(in crate::world) fn try_spawn_batch<B: Bundle>(
        self,
        bundles: impl Iterator<Item = B>,
        spawned: &mut Vec<Entity>,
    ) -> Result<(), Error> {
        let world = self.into_world();
        world.check_requirements::<B>()?;
        if B::RELATIONSHIPS {
            // Checked whole before any spawn: the bundles are collected first.
            let bundles: Vec<B> = bundles.collect();
            for bundle in &bundles {
                world.check_bundle(None, bundle)?;
            }
            spawned.reserve(bundles.len());
            world
                .transaction()
                .spawn_batch(bundles.into_iter(), spawned);
        } else {
            spawned.reserve(bundles.size_hint().0);
            world.transaction().spawn_batch(bundles, spawned);
        }
        Ok(())
    }

    /// Gives `entity` `value`, returning the value it replaces, or says which
    /// rule refused it.
    #[inline]
    pub(in crate::world) fn try_insert<T: Component>(
        self,
        entity: Entity,
        value: T,
    ) -> Result<Option<T>, Error> {
        let world = self.into_world();
        check_insert(world, entity, &value)?;
        Ok(world.transaction().insert(entity, value))
    }

    /// [`try_insert`](Self::try_insert) into a storage found once for a loop
    /// of inserts (a [`ViewMut`](crate::world::ViewMut)'s), which is found
    /// again when the requirements added ran hooks or commands.
    #[inline]
    pub(in crate::world) fn try_insert_typed<T: Component>(
        self,
        storage: &mut TypedStorage<T>,
        entity: Entity,
        value: T,
    ) -> Result<Option<T>, Error> {
        let world = self.into_world();
        check_insert(world, entity, &value)?;
        if T::REQUIRES {
            // The requirements arrive in the insert's own dispatch, through
            // the world's path; their hooks may have run commands, and their
            // marks make structure hooked: the storage is found anew.
            let replaced = world.transaction().insert(entity, value);
            *storage = TypedStorage::find(world);
            return Ok(replaced);
        }
        Ok(storage.insert(world, entity, value))
    }

    /// Takes `T` away from `entity` and returns it, or says that `entity`
    /// is not alive or holds no `T`.
    #[inline]
    pub(in crate::world) fn try_remove<T: Component>(self, entity: Entity) -> Result<T, Error> {
        let world = self.into_world();
        world.data.entities.check(entity)?;
        world
            .transaction()
            .remove(entity)
            .ok_or_else(|| Error::missing::<T>(entity))
    }

    /// [`try_remove`](Self::try_remove) from a storage found once for a loop
    /// of removals.
    #[inline]
    pub(in crate::world) fn try_remove_typed<T: Component>(
        self,
        storage: &mut TypedStorage<T>,
        entity: Entity,
    ) -> Result<T, Error> {
        let world = self.into_world();
        world.data.entities.check(entity)?;
        storage
            .remove(world, entity)
            .ok_or_else(|| Error::missing::<T>(entity))
    }

    /// Gives `entity` every component of `bundle` (values it replaces are
    /// dropped), or says which rule refused it.
    pub(in crate::world) fn try_insert_bundle<B: Bundle>(
        self,
        entity: Entity,
        bundle: B,
    ) -> Result<(), Error> {
        let world = self.into_world();
        world.data.entities.check(entity)?;
        world.check_bundle(Some(entity), &bundle)?;
        world.check_requirements::<B>()?;
        world.transaction().insert_bundle(entity, bundle);
        Ok(())
    }
}

/// The rules an insert of `value` into `entity` passes before anything
/// changes: `entity` is alive, a relationship keeps its world a forest,
/// `T`'s requirements form no cycle.
#[inline]
fn check_insert<T: Component>(world: &mut World, entity: Entity, value: &T) -> Result<(), Error> {
    world.data.entities.check(entity)?;
    if T::IS_RELATIONSHIP || T::IS_RELATIONSHIP_TARGET {
        world.check_relationship(Some(entity), value)?;
    }
    world.check_requirements::<T>()
}
