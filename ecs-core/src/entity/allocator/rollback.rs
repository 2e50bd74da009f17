//! The allocator's state copied out and copied back, for rollback: the slot
//! table and the free list as whole slices.

use core::hash::Hasher;

use super::{Entities, EntitySlot};
use crate::entity::Entity;

/// An allocator's state as it was: every slot's version and liveness, the
/// free list in order, and the live count. Restored, it hands out the same
/// ids in the same order as the allocator it was copied from.
///
/// Ids reserved and not yet made alive (by commands not yet applied) are not
/// part of it, as they are not alive.
#[derive(Clone, Default)]
pub(crate) struct AllocatorCopy {
    slots: Vec<EntitySlot>,
    free: Vec<u32>,
    alive: usize,
}

impl AllocatorCopy {
    /// Whether `entity` (index and version) was alive.
    pub(crate) fn is_alive(&self, entity: Entity) -> bool {
        self.slots
            .get(entity.index() as usize)
            .is_some_and(|slot| slot.alive && slot.version == entity.version())
    }

    /// How many entities were alive.
    pub(crate) fn len(&self) -> usize {
        self.alive
    }

    /// Feeds the slot table and the free list to `hasher`, exactly as
    /// [`Entities::hash_state`] feeds an allocator in the same state.
    pub(crate) fn hash_state(&self, hasher: &mut impl Hasher) {
        hash_state(&self.slots, &self.free, hasher);
    }
}

/// Every slot's version and liveness, then the free list in order, each
/// preceded by its length.
fn hash_state(slots: &[EntitySlot], free: &[u32], hasher: &mut impl Hasher) {
    hasher.write_u64(slots.len() as u64);
    for slot in slots {
        hasher.write_u32(slot.version);
        hasher.write_u8(u8::from(slot.alive));
    }
    hasher.write_u64(free.len() as u64);
    for &index in free {
        hasher.write_u32(index);
    }
}

impl Entities {
    /// Copies this allocator's state into `copy`, reusing its buffers.
    pub(crate) fn copy_into(&self, copy: &mut AllocatorCopy) {
        copy.slots.clone_from(&self.slots);
        copy.free.clone_from(&self.free);
        copy.alive = self.alive;
    }

    /// Whether this allocator is in exactly the state `copy` holds, reserved
    /// ids aside.
    pub(crate) fn same_as(&self, copy: &AllocatorCopy) -> bool {
        self.alive == copy.alive
            && self.free == copy.free
            && self.slots.len() == copy.slots.len()
            && self
                .slots
                .iter()
                .zip(&copy.slots)
                .all(|(now, then)| now.version == then.version && now.alive == then.alive)
    }

    /// Feeds the slot table and the free list to `hasher` (reserved ids
    /// aside), exactly as [`AllocatorCopy::hash_state`] feeds a copy of it.
    pub(crate) fn hash_state(&self, hasher: &mut impl Hasher) {
        hash_state(&self.slots, &self.free, hasher);
    }

    /// Puts this allocator back in the state `copy` holds. Reserved ids must
    /// have been made alive first (`settle`): the copy has none.
    pub(crate) fn restore_from(&mut self, copy: &AllocatorCopy) {
        debug_assert_eq!(self.reserved_count(), 0, "settled first");
        self.slots.clone_from(&copy.slots);
        self.free.clone_from(&copy.free);
        self.alive = copy.alive;
    }
}
