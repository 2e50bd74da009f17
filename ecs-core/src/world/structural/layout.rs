//! The layout pass: every storage's dense order sorted by its entities'
//! signatures, outside any group's packed prefix.

use crate::component::ComponentId;
use crate::entity::Entity;

use super::World;

impl World {
    /// Sorts each storage's dense arrays by the signature of their entities
    /// (the component mask, then the index), leaving a group's packed prefix
    /// where it is; returns how many storages moved anything.
    ///
    /// Positions change, membership does not: no hook, observer or group is
    /// told, and change ticks move with their values. Every storage that
    /// moves counts a reorder, so queries that cached their runs, and the
    /// alignment cache, look again.
    pub(in crate::world) fn sort_layout(&mut self) -> usize {
        let data = &mut self.data;
        let masks = &data.masks;
        let key = |entity: Entity| masks.get(entity.index());
        let mut sorted = 0;
        for index in 0..data.storages.len() as u32 {
            let id = ComponentId(index);
            let from = data.groups.span(id).map_or(0, |span| span.len);
            sorted += usize::from(data.storages.erased_by_id_mut(id).sort_dense(from, &key));
        }
        sorted
    }
}
