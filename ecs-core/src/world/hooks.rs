//! The one interface through which everything kept in step with the world's
//! structure hears of it: groups today, observers next. (Change ticks live
//! in the storages and move with the values, so they need no hook.)

use crate::component::ComponentId;
use crate::entity::Entity;
use crate::group::Groups;
use crate::storage::Storages;

/// Something that follows the structural changes of a world.
///
/// The structural funnel (`world/structural.rs`) calls these around every
/// change, whichever `World` method, batch or handle made it; nothing else
/// adds or removes components. Each call gets the storages, after or before
/// the change as its name says, and may reorder entities inside them but
/// must not add or remove any.
pub(crate) trait StructuralHook {
    /// Whether the hook has nothing to follow, so the funnel can skip it.
    fn is_idle(&self) -> bool;

    /// After `entity` gained the component with `id` (not a replacement).
    fn after_add(&mut self, id: ComponentId, entity: Entity, storages: &mut Storages);

    /// Before `entity` loses the component with `id`, which it holds.
    fn before_remove(&mut self, id: ComponentId, entity: Entity, storages: &mut Storages);

    /// Before the live `entity` is despawned with everything it holds.
    fn before_despawn(&mut self, entity: Entity, storages: &mut Storages);

    /// Before every entity is despawned at once.
    fn before_clear(&mut self, storages: &mut Storages);
}

impl StructuralHook for Groups {
    #[inline]
    fn is_idle(&self) -> bool {
        self.is_empty()
    }

    #[inline]
    fn after_add(&mut self, id: ComponentId, entity: Entity, storages: &mut Storages) {
        self.on_insert(id, entity, storages);
    }

    #[inline]
    fn before_remove(&mut self, id: ComponentId, entity: Entity, storages: &mut Storages) {
        Groups::before_remove(self, id, entity, storages);
    }

    fn before_despawn(&mut self, entity: Entity, storages: &mut Storages) {
        Groups::before_despawn(self, entity, storages);
    }

    fn before_clear(&mut self, _: &mut Storages) {
        self.clear();
    }
}

/// Every subscriber of the structural funnel, borrowed together. A new
/// subscriber is a field here and a line in each method below; the funnel
/// itself does not change.
pub(crate) struct Hooks<'a> {
    pub(crate) groups: &'a mut Groups,
}

impl StructuralHook for Hooks<'_> {
    #[inline]
    fn is_idle(&self) -> bool {
        self.groups.is_idle()
    }

    #[inline]
    fn after_add(&mut self, id: ComponentId, entity: Entity, storages: &mut Storages) {
        if !self.groups.is_idle() {
            self.groups.after_add(id, entity, storages);
        }
    }

    #[inline]
    fn before_remove(&mut self, id: ComponentId, entity: Entity, storages: &mut Storages) {
        if !self.groups.is_idle() {
            self.groups.before_remove(id, entity, storages);
        }
    }

    fn before_despawn(&mut self, entity: Entity, storages: &mut Storages) {
        if !self.groups.is_idle() {
            self.groups.before_despawn(entity, storages);
        }
    }

    fn before_clear(&mut self, storages: &mut Storages) {
        self.groups.before_clear(storages);
    }
}
