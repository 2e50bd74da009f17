//! What a rollback (`rollback/`) reads from a world. Putting one back is a
//! structural change, the door's: `structural/restore.rs`.

use crate::entity::Entities;
use crate::resource::Resources;
use crate::storage::Storages;

use super::World;

impl World {
    /// The allocator, storages and resources a rollback saves and hashes.
    pub(crate) fn rollback_source(&self) -> (&Entities, &Storages, &Resources) {
        let data = &self.data;
        (&data.entities, &data.storages, &data.resources)
    }
}
