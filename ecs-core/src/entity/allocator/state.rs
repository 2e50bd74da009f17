//! The allocator's state as plain data, the one form persistence exports:
//! copied out and back for rollback (trusted, whole slices), and read from a
//! snapshot (untrusted: imported only after every invariant is checked).

#[cfg(feature = "serde")]
use core::fmt;
use core::hash::Hasher;
#[cfg(feature = "serde")]
use core::sync::atomic::AtomicU32;

use super::{Entities, EntitySlot};
use crate::entity::Entity;

/// Why a saved allocator state cannot be restored: it breaks an invariant of
/// [`Entities`], so a world built on it could hand out one id twice.
#[cfg(feature = "serde")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AllocatorError {
    /// A live slot's version is 0, which no entity has (only a vacant slot,
    /// whose index was never handed out, has version 0).
    ZeroVersion { index: u32 },
    /// More slots than 32-bit indices can name.
    TooManySlots { slots: usize },
    /// The free list names a slot beyond the slot table.
    FreeOutOfRange { index: u32, slots: usize },
    /// The free list names a slot whose entity is alive.
    FreeIsAlive { entity: Entity },
    /// The free list names a slot twice.
    FreeTwice { index: u32 },
    /// The free list names a retired slot (version `u32::MAX`), whose next
    /// occupant would need a version past the top.
    FreeIsRetired { index: u32 },
    /// A dead slot below the top version is not on the free list: it would
    /// never be reused, though it is not retired.
    DeadNotFree { entity: Entity },
    /// A vacant slot (version 0: its index never handed out) is not on the
    /// free list, where every vacant slot waits for its first occupant.
    VacantNotFree { index: u32 },
}

#[cfg(feature = "serde")]
impl fmt::Display for AllocatorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            AllocatorError::ZeroVersion { index } => {
                write!(
                    f,
                    "slot {index} is alive with version 0, which no entity has"
                )
            }
            AllocatorError::TooManySlots { slots } => {
                write!(f, "{slots} slots are more than 2^32 entity indices")
            }
            AllocatorError::FreeOutOfRange { index, slots } => write!(
                f,
                "the free list names slot {index}, but there are only {slots} slots"
            ),
            AllocatorError::FreeIsAlive { entity } => {
                write!(
                    f,
                    "the free list names slot {}, where entity {entity:?} is alive",
                    entity.index()
                )
            }
            AllocatorError::FreeTwice { index } => {
                write!(f, "the free list names slot {index} twice")
            }
            AllocatorError::FreeIsRetired { index } => write!(
                f,
                "the free list names slot {index}, which is retired (its version is the last one)"
            ),
            AllocatorError::VacantNotFree { index } => write!(
                f,
                "slot {index} is vacant (version 0, never handed out) but not on the free list"
            ),
            AllocatorError::DeadNotFree { entity } => write!(
                f,
                "slot {} (last entity {entity:?}) is dead but neither on the free list nor retired",
                entity.index()
            ),
        }
    }
}

/// An allocator's state as it was: every slot's version and liveness, the
/// free list in order, and the live count. Restored, it hands out the same
/// ids in the same order as the allocator it was copied from.
///
/// Ids reserved and not yet made alive (by commands not yet applied) are not
/// part of it, as they are not alive.
#[derive(Clone, Default)]
pub(crate) struct AllocatorState {
    slots: Vec<EntitySlot>,
    free: Vec<u32>,
    alive: usize,
}

impl AllocatorState {
    /// A state read from outside, every slot as `(version, alive)` in index
    /// order and the free list bottom first; nothing is checked until
    /// [`Entities::import`].
    #[cfg(feature = "serde")]
    pub(crate) fn from_parts(slots: &[(u32, bool)], free: Vec<u32>) -> Self {
        Self {
            slots: (slots.iter())
                .map(|&(version, alive)| EntitySlot { version, alive })
                .collect(),
            free,
            alive: slots.iter().filter(|&&(_, alive)| alive).count(),
        }
    }

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
    pub(crate) fn copy_into(&self, copy: &mut AllocatorState) {
        copy.slots.clone_from(&self.slots);
        copy.free.clone_from(&self.free);
        copy.alive = self.alive;
    }

    /// Whether this allocator is in exactly the state `copy` holds, reserved
    /// ids aside.
    pub(crate) fn same_as(&self, copy: &AllocatorState) -> bool {
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
    /// aside), exactly as [`AllocatorState::hash_state`] feeds a copy of it.
    pub(crate) fn hash_state(&self, hasher: &mut impl Hasher) {
        hash_state(&self.slots, &self.free, hasher);
    }

    /// Puts this allocator back in the state `copy` holds. Reserved ids must
    /// have been made alive first (`settle`): the copy has none.
    pub(crate) fn restore_from(&mut self, copy: &AllocatorState) {
        debug_assert_eq!(self.reserved_count(), 0, "settled first");
        self.slots.clone_from(&copy.slots);
        self.free.clone_from(&copy.free);
        self.alive = copy.alive;
    }
}

#[cfg(feature = "serde")]
impl Entities {
    /// Every slot as `(version, alive)`, in index order. Reserved ids not yet
    /// made alive are left out: they are handed out next by a world restored
    /// from this state, as by this one.
    pub(crate) fn slot_states(&self) -> impl ExactSizeIterator<Item = (u32, bool)> + '_ {
        self.slots.iter().map(|slot| (slot.version, slot.alive))
    }

    /// The free list, bottom first: the last entry is reused first.
    pub(crate) fn free_list(&self) -> &[u32] {
        &self.free
    }

    /// An allocator in exactly the state `state` holds, once every invariant
    /// of [`Entities`] holds for it. It hands out the same ids, in the same
    /// order, as the allocator the state was read from.
    pub(crate) fn import(state: AllocatorState) -> Result<Self, AllocatorError> {
        let AllocatorState {
            slots: table,
            free,
            alive,
        } = state;
        if table.len() as u64 > 1 << 32 {
            return Err(AllocatorError::TooManySlots { slots: table.len() });
        }
        if let Some(index) = table
            .iter()
            .position(|slot| slot.version == 0 && slot.alive)
        {
            return Err(AllocatorError::ZeroVersion {
                index: index as u32,
            });
        }
        // One flag per slot: the input listed every slot, so this is no more
        // than it already paid for.
        let mut on_free_list = vec![false; table.len()];
        for &index in &free {
            let Some(slot) = table.get(index as usize) else {
                return Err(AllocatorError::FreeOutOfRange {
                    index,
                    slots: table.len(),
                });
            };
            if slot.alive {
                return Err(AllocatorError::FreeIsAlive {
                    entity: slot.entity(index),
                });
            }
            if slot.version == u32::MAX {
                return Err(AllocatorError::FreeIsRetired { index });
            }
            if core::mem::replace(&mut on_free_list[index as usize], true) {
                return Err(AllocatorError::FreeTwice { index });
            }
        }
        for (index, slot) in table.iter().enumerate() {
            if !slot.alive && slot.version < u32::MAX && !on_free_list[index] {
                return Err(if slot.version == 0 {
                    AllocatorError::VacantNotFree {
                        index: index as u32,
                    }
                } else {
                    AllocatorError::DeadNotFree {
                        entity: slot.entity(index as u32),
                    }
                });
            }
        }
        Ok(Entities {
            slots: table,
            free,
            alive,
            reserved: AtomicU32::new(0),
        })
    }
}

#[cfg(all(test, feature = "serde"))]
mod tests {
    use core::num::NonZeroU32;

    use super::*;

    fn export(entities: &Entities) -> (Vec<(u32, bool)>, Vec<u32>) {
        (
            entities.slot_states().collect(),
            entities.free_list().to_vec(),
        )
    }

    #[test]
    fn an_imported_state_hands_out_the_same_ids() {
        let mut original = Entities::default();
        let ids: Vec<_> = (0..6).map(|_| original.alloc()).collect();
        original.free(ids[4]).unwrap();
        original.free(ids[1]).unwrap();
        original.free(ids[2]).unwrap();
        let (slots, free) = export(&original);
        let mut restored = Entities::import(AllocatorState::from_parts(&slots, free)).unwrap();
        assert_eq!(restored.len(), original.len());
        for _ in 0..5 {
            assert_eq!(restored.alloc(), original.alloc());
        }
    }

    #[test]
    fn reserved_ids_are_left_out() {
        let mut original = Entities::default();
        original.alloc();
        let reserved = original.reserve_one();
        let (slots, free) = export(&original);
        assert_eq!(slots, [(1, true)]);
        let mut restored = Entities::import(AllocatorState::from_parts(&slots, free)).unwrap();
        assert_eq!(restored.alloc(), reserved);
    }

    /// A vacant slot (an index reserved but never handed out) is saved as
    /// version 0 and restored as vacant: its first occupant is version 1 on
    /// both sides.
    #[test]
    fn a_vacant_slot_round_trips() {
        let mut original = Entities::default();
        let ids: Vec<_> = (0..3).map(|_| original.reserve_one()).collect();
        original.settle_except(&[1], |_, _| {});
        let (slots, free) = export(&original);
        assert_eq!(slots, [(1, true), (0, false), (1, true)]);
        let mut restored = Entities::import(AllocatorState::from_parts(&slots, free)).unwrap();
        assert_eq!(restored.alloc(), ids[1]);
        assert_eq!(original.alloc(), ids[1]);
        assert_eq!(
            Entities::import(AllocatorState::from_parts(&[(0, false)], vec![])).err(),
            Some(AllocatorError::VacantNotFree { index: 0 }),
            "a vacant slot must be on the free list"
        );
    }

    /// Slots, a free list, and why they are refused.
    type Case = (&'static [(u32, bool)], Vec<u32>, AllocatorError);

    #[test]
    fn every_broken_invariant_is_refused() {
        let cases: [Case; 6] = [
            (
                &[(0, true)],
                vec![],
                AllocatorError::ZeroVersion { index: 0 },
            ),
            (
                &[(1, false)],
                vec![3],
                AllocatorError::FreeOutOfRange { index: 3, slots: 1 },
            ),
            (
                &[(2, true)],
                vec![0],
                AllocatorError::FreeIsAlive {
                    entity: Entity::new(0, NonZeroU32::new(2).unwrap()),
                },
            ),
            (
                &[(1, false)],
                vec![0, 0],
                AllocatorError::FreeTwice { index: 0 },
            ),
            (
                &[(u32::MAX, false)],
                vec![0],
                AllocatorError::FreeIsRetired { index: 0 },
            ),
            (
                &[(1, true), (3, false)],
                vec![],
                AllocatorError::DeadNotFree {
                    entity: Entity::new(1, NonZeroU32::new(3).unwrap()),
                },
            ),
        ];
        for (slots, free, expected) in cases {
            assert_eq!(
                Entities::import(AllocatorState::from_parts(slots, free)).err(),
                Some(expected)
            );
        }
        // A retired slot off the free list is fine.
        let restored = Entities::import(AllocatorState::from_parts(
            &[(u32::MAX, false), (1, true)],
            vec![],
        ))
        .unwrap();
        assert_eq!(restored.len(), 1);
    }
}
