//! Adding and removing components with everything that follows from it: the
//! entity's component mask and the groups kept in step with the storages.

use crate::bundle::{Bundle, BundleInfo};
use crate::component::{Component, ComponentId};
use crate::deferred_panic::DeferredPanic;
use crate::entity::{Entities, Entity, MASKED_COMPONENTS, masked_ids};
use crate::group::Groups;
use crate::storage::Storages;

/// The parts of a world a structural change touches, borrowed together.
///
/// `pub` only so the sealed bundle trait can name it; the module is private.
pub struct Placement<'a> {
    pub(crate) storages: &'a mut Storages,
    pub(crate) entities: &'a mut Entities,
    pub(crate) groups: &'a mut Groups,
}

impl Placement<'_> {
    /// Gives the live `entity` `value` in storage `id` (which must be `T`'s),
    /// returning the value it replaces. A new component is recorded in the
    /// entity's mask and joins its group before the caller drops anything.
    #[inline]
    pub(crate) fn insert<T: Component>(
        &mut self,
        id: ComponentId,
        entity: Entity,
        value: T,
    ) -> Option<T> {
        let replaced = self.storages.typed_mut::<T>(id).insert(entity, value);
        if replaced.is_none() {
            self.entities.mark(entity.index(), id);
            if !self.groups.is_empty() {
                self.groups.on_insert(id, entity, self.storages);
            }
        }
        replaced
    }

    /// Gives the freshly allocated `entity` every component of `bundle`.
    ///
    /// A bundle of distinct types is appended to each storage; one that repeats
    /// a type takes the general path, where the later value replaces the earlier.
    #[inline]
    pub(crate) fn spawn<B: Bundle>(&mut self, info: &BundleInfo, bundle: B, entity: Entity) {
        if info.distinct {
            let columns = B::columns(self.storages, &mut info.ids.iter());
            let grouped = !self.groups.is_empty();
            self.append_fresh(info, &columns, grouped, bundle, entity);
        } else {
            bundle.write(self, &mut info.ids.iter(), entity);
        }
    }

    /// Spawns one entity per bundle of `bundles`, appending their ids to `spawned`;
    /// storages are resolved once for the whole batch.
    pub(crate) fn spawn_many<B: Bundle>(
        &mut self,
        info: &BundleInfo,
        bundles: impl Iterator<Item = B>,
        spawned: &mut Vec<Entity>,
    ) {
        if info.distinct {
            let columns = B::columns(self.storages, &mut info.ids.iter());
            let grouped = !self.groups.is_empty();
            for bundle in bundles {
                let entity = self.entities.alloc();
                self.append_fresh(info, &columns, grouped, bundle, entity);
                spawned.push(entity);
            }
        } else {
            for bundle in bundles {
                let entity = self.entities.alloc();
                bundle.write(self, &mut info.ids.iter(), entity);
                spawned.push(entity);
            }
        }
    }

    /// Appends `bundle`'s components (of distinct types) for the fresh `entity`
    /// through `columns`, with no look for a value to replace, sets its mask bits
    /// at once, and, when the world has groups, lets them take it in.
    #[inline(always)]
    fn append_fresh<B: Bundle>(
        &mut self,
        info: &BundleInfo,
        columns: &B::Columns,
        grouped: bool,
        bundle: B,
        entity: Entity,
    ) {
        // Marked first: should an append panic (only a capacity overflow can),
        // the mask names at most components the entity lacks, which despawn
        // tolerates.
        self.entities.mark_all(entity.index(), info.mask);
        // SAFETY: the columns were resolved from this world's storages, which
        // `self` borrows mutably; storages never move or drop while the world lives.
        unsafe { bundle.push_new(columns, entity) };
        if grouped {
            for &id in info.ids.iter() {
                self.groups.on_insert(id, entity, self.storages);
            }
        }
    }

    /// Takes component `id` (which must be `T`'s) away from the live `entity`.
    #[inline]
    pub(crate) fn remove<T: Component>(&mut self, id: ComponentId, entity: Entity) -> Option<T> {
        if !self.groups.is_empty() {
            self.groups.before_remove(id, entity, self.storages);
        }
        let removed = self.storages.typed_mut::<T>(id).remove(entity);
        if removed.is_some() {
            self.entities.unmark(entity.index(), id);
        }
        removed
    }

    /// Removes the live `entity` from every storage it is in, then frees its slot.
    ///
    /// Only the storages its mask names are visited (and any beyond the mask's
    /// reach). A panicking `Drop` is carried past the remaining storages and
    /// resumed once the entity is fully despawned.
    pub(crate) fn despawn(&mut self, entity: Entity) {
        if !self.groups.is_empty() {
            self.groups.before_despawn(entity, self.storages);
        }
        // A panic in a `Drop` is carried past the remaining storages.
        let mut panics = DeferredPanic::default();
        let mut remove_from = |storages: &mut Storages, id: ComponentId| {
            panics.keep(storages.erased_by_id_mut(id).remove_and_drop(entity));
        };
        for id in masked_ids(self.entities.components(entity.index())) {
            remove_from(self.storages, id);
        }
        for id in MASKED_COMPONENTS..self.storages.len() {
            remove_from(self.storages, ComponentId(id as u32));
        }
        self.entities
            .free(entity)
            .expect("the entity was checked alive before despawning");
        panics.resume();
    }

    /// The components the live `entity` holds, in id order.
    pub(crate) fn held<'a>(
        storages: &'a Storages,
        entities: &Entities,
        entity: Entity,
    ) -> impl Iterator<Item = ComponentId> + 'a {
        let beyond = (MASKED_COMPONENTS as u32..storages.len() as u32)
            .map(ComponentId)
            .filter(move |&id| storages.erased_by_id(id).contains(entity));
        masked_ids(entities.components(entity.index())).chain(beyond)
    }
}
