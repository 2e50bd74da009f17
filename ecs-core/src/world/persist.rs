//! What persistence (`persist/`) reads from a world and how a loaded one is
//! put together. Putting a rollback back is a structural change, the
//! door's: `structural/restore.rs`.

use crate::entity::Entities;
#[cfg(feature = "serde")]
use crate::entity::EntityMap;
#[cfg(feature = "serde")]
use crate::error::Error;
use crate::resource::Resources;
use crate::storage::Storages;

use super::World;
#[cfg(feature = "serde")]
use super::relationship::find_relationship_cycle;

impl World {
    /// The allocator, storages and resources that rollback saves and hashes
    /// and snapshots write.
    pub(crate) fn persisted_parts(&self) -> (&Entities, &Storages, &Resources) {
        let data = &self.data;
        (&data.entities, &data.storages, &data.resources)
    }

    #[cfg(feature = "serde")]
    /// A new world made of a loaded allocator, storages and resources, its
    /// arrivals recorded for hooks but not dispatched yet.
    ///
    /// Fails with [`Error::RelationshipCycle`] when a relationship's values
    /// make a loop: inserts check each value, but loaded columns arrive
    /// whole, so they are checked whole, before any hook runs.
    pub(crate) fn from_loaded_parts(
        entities: Entities,
        mut storages: Storages,
        resources: Resources,
    ) -> Result<World, Error> {
        find_relationship_cycle(&storages)?;
        let mut world = World::new();
        world.data.entities = entities;
        world.data.resources = resources;
        world.transaction().adopt(&mut storages);
        Ok(world)
    }

    #[cfg(feature = "serde")]
    /// Runs the hooks and observers of a loaded world's arrivals.
    pub(crate) fn dispatch_loaded(&mut self) {
        self.dispatch_fired();
    }

    #[cfg(feature = "serde")]
    /// Moves a loaded world into this one, as [`merge`](World::merge) does.
    pub(crate) fn merge_loaded(&mut self, mut loaded: World) -> EntityMap {
        // Hooks hear of the entities where they land, in this world; run in
        // the loaded world too, their commands would make twice what they make.
        loaded.component_hooks.fired.clear();
        self.merge(loaded)
    }
}
