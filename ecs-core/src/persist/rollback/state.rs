//! `WorldState`: a world's registered data, saved in memory.

use core::fmt;
use core::hash::Hasher;
use std::sync::{Arc, OnceLock};

use super::checksum::ChecksumHasher;
use super::column::RollbackColumn;
use super::resource::RollbackResource;
use super::saved::SavedValue;
use crate::entity::AllocatorState;

/// A world as a [`PersistRegistry`](crate::persist::PersistRegistry) saved it: the
/// allocator (every id's version, which are alive, the free list in order)
/// and, per registered type, its storage's entities, values and change ticks
/// in dense order; per registered resource, its value or its absence.
///
/// Made by [`PersistRegistry::save`](crate::persist::PersistRegistry::save), put
/// back by [`PersistRegistry::restore`](crate::persist::PersistRegistry::restore).
/// Cloning it clones every saved value; [`checksum`](Self::checksum) needs
/// no world and no registry.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component, Clone, Copy, Hash)]
/// struct Hp(u32);
///
/// let mut registry = PersistRegistry::new();
/// registry.register::<Hp>("game::Hp").rollback_hashed();
/// let mut world = World::new();
/// world.spawn(Hp(3));
/// let saved: WorldState = registry.save(&world);
/// assert_eq!(saved.len(), 1);
/// assert_eq!(saved.clone().checksum(), registry.checksum(&world));
/// ```
pub struct WorldState {
    pub(crate) allocator: AllocatorState,
    /// The world's layout debt, so a restored world re-sorts its layout at
    /// the frames the saved one would have.
    pub(crate) layout_debt: u64,
    pub(crate) columns: Vec<(Arc<dyn RollbackColumn>, Box<dyn SavedValue>)>,
    pub(crate) resources: Vec<(Arc<dyn RollbackResource>, Box<dyn SavedValue>)>,
    /// Computed on first ask; emptied whenever the state is saved over.
    pub(crate) checksum: OnceLock<u64>,
}

impl WorldState {
    /// The checksum of the world as it was saved: equal to
    /// [`PersistRegistry::checksum`](crate::persist::PersistRegistry::checksum) of
    /// that world, and of any world restored from this state. Computed on
    /// the first call, then kept.
    pub fn checksum(&self) -> u64 {
        *self.checksum.get_or_init(|| {
            combine(
                |hasher| self.allocator.hash_state(hasher),
                self.columns
                    .iter()
                    .map(|(column, saved)| column.checksum_saved(&**saved)),
                |hasher| {
                    for (resource, saved) in &self.resources {
                        resource.hash_saved(&**saved, hasher);
                    }
                },
            )
        })
    }

    /// How many entities were alive.
    pub fn len(&self) -> usize {
        self.allocator.len()
    }

    /// Whether no entity was alive.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// The checksum of a world or a state: the allocator, then each column's
/// order-independent hash in registration order, then the resources.
pub(crate) fn combine(
    allocator: impl FnOnce(&mut ChecksumHasher),
    columns: impl Iterator<Item = u64>,
    resources: impl FnOnce(&mut ChecksumHasher),
) -> u64 {
    let mut hasher = ChecksumHasher::new();
    allocator(&mut hasher);
    for column in columns {
        hasher.write_u64(column);
    }
    resources(&mut hasher);
    hasher.finish()
}

impl Clone for WorldState {
    fn clone(&self) -> Self {
        Self {
            allocator: self.allocator.clone(),
            layout_debt: self.layout_debt,
            columns: self
                .columns
                .iter()
                .map(|(column, saved)| (Arc::clone(column), (**saved).clone_box()))
                .collect(),
            resources: self
                .resources
                .iter()
                .map(|(resource, saved)| (Arc::clone(resource), (**saved).clone_box()))
                .collect(),
            checksum: self.checksum.clone(),
        }
    }
}

impl fmt::Debug for WorldState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("WorldState")
            .field("entities", &self.len())
            .field(
                "components",
                &self
                    .columns
                    .iter()
                    .map(|(column, _)| column.type_name())
                    .collect::<Vec<_>>(),
            )
            .field(
                "resources",
                &self
                    .resources
                    .iter()
                    .map(|(resource, _)| resource.type_name())
                    .collect::<Vec<_>>(),
            )
            .finish()
    }
}
