//! The one interface through which everything kept in step with the world's
//! structure hears of it: groups, and the records of additions that
//! observers and component hooks follow. (Change ticks live in the storages and move with the values, so
//! they need no hook.)

use crate::component::ComponentId;
use crate::entity::Entity;
use crate::group::Groups;
use crate::observer::{Fired, ObserverIndex, TriggerKind};
use crate::storage::Storages;

use super::super::component_hooks::{HookKind, HookRegistry};
use super::super::required::RequirementMarks;

/// Something that follows the structural changes of a world.
///
/// The structural funnel (`world/structural/funnel.rs`) calls these around every
/// change, whichever `World` method, batch or handle made it; nothing else
/// adds or removes components. Each call gets the storages, after or before
/// the change as its name says, and may reorder entities inside them but
/// must not add or remove any.
pub(crate) trait StructuralHook {
    /// Whether the hook has nothing to follow, so the funnel can skip it.
    fn is_idle(&self) -> bool;

    /// After `entity` gained the component with `id` (not a replacement).
    fn after_add(&mut self, id: ComponentId, entity: Entity, storages: &mut Storages);

    /// After `entity`'s component with `id` was replaced by a new value.
    fn after_replace(&mut self, id: ComponentId, entity: Entity) {
        let _ = (id, entity);
    }

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

/// Records the additions observers follow, for the world to dispatch once
/// the call that made them is done (observers need the whole world, which
/// the funnel borrows in parts).
///
/// Removals are not recorded here: `OnRemove` observers must still read what
/// leaves, so the world runs them before it calls the funnel.
pub(crate) struct ObserverHook<'a> {
    pub(crate) index: &'a ObserverIndex,
    pub(crate) fired: &'a mut Vec<Fired>,
}

impl ObserverHook<'_> {
    #[inline]
    fn record(&mut self, kind: TriggerKind, component: ComponentId, entity: Entity) {
        if self.index.follows(kind, component) {
            self.fired.push(Fired {
                kind,
                component,
                entity,
            });
        }
    }
}

impl StructuralHook for ObserverHook<'_> {
    #[inline]
    fn is_idle(&self) -> bool {
        !self.index.follows_additions()
    }

    #[inline]
    fn after_add(&mut self, id: ComponentId, entity: Entity, _: &mut Storages) {
        self.record(TriggerKind::Add, id, entity);
        self.record(TriggerKind::Insert, id, entity);
    }

    #[inline]
    fn after_replace(&mut self, id: ComponentId, entity: Entity) {
        self.record(TriggerKind::Insert, id, entity);
    }

    fn before_remove(&mut self, _: ComponentId, _: Entity, _: &mut Storages) {}

    fn before_despawn(&mut self, _: Entity, _: &mut Storages) {}

    fn before_clear(&mut self, _: &mut Storages) {}
}

/// Records the additions that component hooks follow (`on_add`,
/// `on_insert`), for the world to run once the call that made them is
/// done, before the observers. Departure hooks, like `OnRemove` observers,
/// must still read what leaves, so the world runs them before it calls the
/// funnel.
impl StructuralHook for HookRegistry {
    #[inline]
    fn is_idle(&self) -> bool {
        !self.follow_arrivals()
    }

    #[inline]
    fn after_add(&mut self, id: ComponentId, entity: Entity, _: &mut Storages) {
        self.record(HookKind::Add, id, entity);
        self.record(HookKind::Insert, id, entity);
    }

    #[inline]
    fn after_replace(&mut self, id: ComponentId, entity: Entity) {
        self.record(HookKind::Insert, id, entity);
    }

    fn before_remove(&mut self, _: ComponentId, _: Entity, _: &mut Storages) {}

    fn before_despawn(&mut self, _: Entity, _: &mut Storages) {}

    fn before_clear(&mut self, _: &mut Storages) {}
}

/// Requirement marks: each forgotten as its component or entity leaves.
impl StructuralHook for RequirementMarks {
    #[inline]
    fn is_idle(&self) -> bool {
        self.is_empty()
    }

    fn after_add(&mut self, _: ComponentId, _: Entity, _: &mut Storages) {}

    fn before_remove(&mut self, id: ComponentId, entity: Entity, _: &mut Storages) {
        self.forget(id, entity);
    }

    fn before_despawn(&mut self, entity: Entity, _: &mut Storages) {
        self.forget_entity(entity);
    }

    fn before_clear(&mut self, _: &mut Storages) {
        self.forget_all();
    }
}

/// Every subscriber of the structural funnel, borrowed together. A new
/// subscriber is a field here and a line in each method below; the funnel
/// itself does not change.
pub(crate) struct Hooks<'a> {
    pub(crate) groups: &'a mut Groups,
    /// Component hooks, run before the observers: recorded first.
    pub(crate) components: &'a mut HookRegistry,
    pub(crate) observers: ObserverHook<'a>,
    /// Which components arrived as requirements: forgotten as they leave.
    pub(crate) required: &'a mut RequirementMarks,
}

impl StructuralHook for Hooks<'_> {
    #[inline]
    fn is_idle(&self) -> bool {
        self.groups.is_idle()
            && self.components.is_idle()
            && self.observers.is_idle()
            && self.required.is_idle()
    }

    #[inline]
    fn after_add(&mut self, id: ComponentId, entity: Entity, storages: &mut Storages) {
        if !self.groups.is_idle() {
            self.groups.after_add(id, entity, storages);
        }
        if !self.components.is_idle() {
            self.components.after_add(id, entity, storages);
        }
        if !self.observers.is_idle() {
            self.observers.after_add(id, entity, storages);
        }
    }

    #[inline]
    fn after_replace(&mut self, id: ComponentId, entity: Entity) {
        if !self.components.is_idle() {
            self.components.after_replace(id, entity);
        }
        if !self.observers.is_idle() {
            self.observers.after_replace(id, entity);
        }
    }

    #[inline]
    fn before_remove(&mut self, id: ComponentId, entity: Entity, storages: &mut Storages) {
        if !self.groups.is_idle() {
            self.groups.before_remove(id, entity, storages);
        }
        if !self.required.is_idle() {
            self.required.before_remove(id, entity, storages);
        }
    }

    fn before_despawn(&mut self, entity: Entity, storages: &mut Storages) {
        if !self.groups.is_idle() {
            self.groups.before_despawn(entity, storages);
        }
        if !self.required.is_idle() {
            self.required.before_despawn(entity, storages);
        }
    }

    fn before_clear(&mut self, storages: &mut Storages) {
        self.groups.before_clear(storages);
        self.required.before_clear(storages);
    }
}
