//! Putting a world back as a rollback saved it: the allocator restored,
//! entities that were not alive stripped of every component, then the
//! registered storages and resources rewritten, all without hooks or
//! observers (a restore is not a game event), and every group packed again
//! at the end. The one structural change that no hook or observer hears of.

use core::any::TypeId;

use crate::component::{Component, ComponentMasks};
use crate::entity::{AllocatorState, Entity};
use crate::resource::Resources;
use crate::storage::{ColumnCopy, Storages};
use crate::util::DeferredPanic;

use super::{World, maybe_held};

/// What a restore rewrites once the allocator is back, borrowed together:
/// the storages, written only through [`restore_column`](Self::restore_column),
/// which keeps the masks in step, and the resources.
pub(crate) struct RestoreParts<'a> {
    storages: &'a mut Storages,
    masks: &'a mut ComponentMasks,
    pub(crate) resources: &'a mut Resources,
}

impl RestoreParts<'_> {
    /// Makes `T`'s storage hold exactly what `copy` holds, each entity's
    /// mask bit for `T` set or cleared to match.
    pub(crate) fn restore_column<T: Component + Clone>(&mut self, copy: &ColumnCopy<T>) {
        if copy.entities().is_empty() && self.storages.get::<T>().is_none() {
            return;
        }
        let id = self.storages.register::<T>();
        let masks = &mut *self.masks;
        self.storages
            .typed_mut::<T>(id)
            .restore_from(copy, |entity, holds| {
                if holds {
                    masks.mark(entity.index(), id);
                } else {
                    masks.unmark(entity.index(), id);
                }
            });
    }
}

impl World {
    /// Puts the allocator back as `allocator` holds it, then lets `restore`
    /// rewrite the registered storages and resources.
    ///
    /// Every entity alive here but not in `allocator` (spawned since, or
    /// under another version) first loses its components of the types
    /// `is_registered` refuses (the registered ones are `restore`'s to
    /// rewrite) and its mask; ids reserved by commands not yet applied are
    /// made alive first, so they are among those. Groups are packed again
    /// at the end, as the storages were rewritten behind their hooks. A
    /// panicking `Drop` of a stripped value is carried past the rest and
    /// resumed once the world is consistent.
    pub(crate) fn restore_rollback(
        &mut self,
        allocator: &AllocatorState,
        is_registered: impl Fn(TypeId) -> bool,
        restore: impl FnOnce(RestoreParts<'_>),
    ) {
        let data = &mut self.data;
        data.entities.settle(|_| {});
        let mut panics = DeferredPanic::default();
        if !data.entities.same_as(allocator) {
            let leaving: Vec<Entity> = data
                .entities
                .iter_alive()
                .filter(|&entity| !allocator.is_alive(entity))
                .collect();
            for entity in leaving {
                for id in maybe_held(&data.masks, data.storages.len(), entity) {
                    if !is_registered(data.storages.info(id).type_id()) {
                        let storage = data.storages.erased_by_id_mut(id);
                        panics.keep(storage.remove_and_drop(entity));
                    }
                }
                data.masks.clear(entity.index());
            }
            data.entities.restore_from(allocator);
            data.masks.cover(data.entities.slot_count());
        }
        panics.run(|| {
            restore(RestoreParts {
                storages: &mut data.storages,
                masks: &mut data.masks,
                resources: &mut data.resources,
            });
        });
        if !data.groups.is_empty() {
            data.groups.repack_all(&mut data.storages);
        }
        panics.resume();
    }
}
