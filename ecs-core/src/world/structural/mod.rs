//! The one door for structural change. Every component added or removed
//! and every entity spawned or despawned, whichever `World` method, handle,
//! typed view, command, batch, merge or snapshot load asks for it, goes
//! through a [`Transaction`](transaction::Transaction), which announces what leaves, opens the
//! funnel (`funnel.rs`, the only code that writes storages' membership and
//! the masks; a batch spawn's runs in `spawn_run.rs`), runs the hooks and
//! observers of what arrived and applies their commands. Callers say what
//! changes; none of them repeats how. `tests/world/layers.rs` checks that no file
//! outside this directory reaches the funnel's parts.

mod funnel;
mod layout;
mod restore;
mod rules;
mod spawn_run;
mod subscribers;
mod transaction;
mod typed;

use crate::bundle::BundleRegistry;
use crate::component::{ComponentId, ComponentMasks, MASKED_COMPONENTS, masked_ids};
use crate::entity::Entity;
use crate::storage::Storages;

use super::World;
use funnel::Structural;
use subscribers::{Hooks, ObserverHook};

pub(crate) use restore::RestoreParts;
pub(in crate::world) use typed::TypedStorage;

impl World {
    /// The bundle registry, and the structural funnel, borrowed apart so a
    /// bundle's info can be read while its components are placed. Inlined:
    /// every structural call goes through it, and a call would build the
    /// funnel's borrows in memory. Private to this module: only a
    /// [`Transaction`](transaction::Transaction) opens the funnel.
    #[inline]
    fn split(&mut self) -> (&mut BundleRegistry, Structural<'_>) {
        let data = &mut self.data;
        let observers = &mut self.observers;
        let structural = Structural {
            clock: &mut data.clock,
            storages: &mut data.storages,
            entities: &mut data.entities,
            masks: &mut data.masks,
            hooks: Hooks {
                groups: &mut data.groups,
                components: &mut self.component_hooks,
                observers: ObserverHook {
                    index: &observers.registry.index,
                    fired: &mut observers.fired,
                },
                required: &mut self.requirement_marks,
            },
        };
        (&mut self.bundles, structural)
    }

    /// Whether inserts and removals of component `id` change its storage
    /// and the mask and nothing else: no group holds `id`, and no observer
    /// or hook follows it. Hooks and observers of other types leave it on
    /// this path.
    #[inline]
    pub(in crate::world) fn structure_unhooked_for(&self, id: ComponentId) -> bool {
        self.data.groups.span(id).is_none()
            && self.requirement_marks.is_empty()
            && !self.observers.follow_component(id)
            && !self.component_hooks.follow_component(id)
    }
}

/// The components the live `entity` holds, in id order.
pub(in crate::world) fn held_components<'a>(
    storages: &'a Storages,
    masks: &ComponentMasks,
    entity: Entity,
) -> impl Iterator<Item = ComponentId> + 'a {
    let beyond = (MASKED_COMPONENTS as u32..storages.len() as u32)
        .map(ComponentId)
        .filter(move |&id| storages.erased_by_id(id).contains(entity));
    masked_ids(masks.get(entity.index())).chain(beyond)
}

/// The storages a removal of the live `entity` visits, in id order: those
/// its mask names, which hold it, then every storage beyond the mask's
/// reach, where a removal finds nothing if it holds nothing. Takes the count
/// of storages, not the storages, so the caller removes while it walks.
fn maybe_held(
    masks: &ComponentMasks,
    storage_count: usize,
    entity: Entity,
) -> impl Iterator<Item = ComponentId> + 'static {
    let beyond = (MASKED_COMPONENTS as u32..storage_count as u32).map(ComponentId);
    masked_ids(masks.get(entity.index())).chain(beyond)
}
