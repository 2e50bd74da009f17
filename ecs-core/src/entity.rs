//! Entity ids and the allocator that hands them out.

use core::fmt;
use core::hash::{Hash, Hasher};
use core::num::NonZeroU32;

use crate::component::ComponentId;
use crate::error::Error;

/// A handle to an entity: a 32-bit index and a 32-bit version.
///
/// The index names a slot in its [`World`](crate::World); the version tells
/// apart the successive entities that occupy that slot. Despawning an entity
/// bumps its slot's version, so an old handle never aliases the entity that
/// reuses the slot: every API reports it as despawned instead.
///
/// The version is never zero, so `Option<Entity>` is as small as `Entity`.
/// `Debug` prints `{index}v{version}`.
///
/// The 64 bits name a slot and a version, not a world: an id taken from one
/// world and used in another is reported as never spawned there, unless that
/// world happens to have a live entity with the same index and version, which
/// it then names. Keep ids with the world they came from; to move entities
/// between worlds, move their components and use the new ids.
///
/// ```
/// use ecs_core::prelude::*;
///
/// let mut world = World::new();
/// let e = world.spawn(());
/// assert_eq!((e.index(), e.version()), (0, 1));
/// assert_eq!(format!("{e:?}"), "0v1");
/// assert_eq!(Entity::from_bits(e.to_bits()), Some(e));
/// assert_eq!(size_of::<Option<Entity>>(), 8);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
#[repr(C, align(8))]
pub struct Entity {
    index: u32,
    version: NonZeroU32,
}

impl Entity {
    /// Builds a handle from its parts. Used by the allocator and by tests.
    #[inline]
    pub(crate) const fn new(index: u32, version: NonZeroU32) -> Self {
        Self { index, version }
    }

    /// The slot this entity occupies in its world.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let (a, b) = (world.spawn(()), world.spawn(()));
    /// assert_eq!((a.index(), b.index()), (0, 1));
    /// ```
    #[inline]
    pub const fn index(self) -> u32 {
        self.index
    }

    /// How many times the slot has been reused before this entity, plus one.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let a = world.spawn(());
    /// world.despawn(a)?;
    /// let b = world.spawn(());
    /// assert_eq!((b.index(), b.version()), (0, 2));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    #[inline]
    pub const fn version(self) -> u32 {
        self.version.get()
    }

    /// Packs the handle into 64 bits: the version in the high half, the index in the low half.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// assert_eq!(e.to_bits(), 1 << 32);
    /// ```
    #[inline]
    pub const fn to_bits(self) -> u64 {
        ((self.version.get() as u64) << 32) | self.index as u64
    }

    /// Unpacks a handle made by [`to_bits`](Self::to_bits).
    ///
    /// Returns `None` when the version half is zero, since no entity has version 0.
    /// Any other value is a well-formed handle; whether it names a live entity is
    /// for a world to say, and every world API answers that with an error, never UB.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// assert_eq!(Entity::from_bits(7), None);
    /// let e = Entity::from_bits((3 << 32) | 7).unwrap();
    /// assert_eq!(format!("{e:?}"), "7v3");
    /// ```
    #[inline]
    pub const fn from_bits(bits: u64) -> Option<Entity> {
        match NonZeroU32::new((bits >> 32) as u32) {
            Some(version) => Some(Entity {
                index: bits as u32,
                version,
            }),
            None => None,
        }
    }
}

impl Hash for Entity {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.to_bits());
    }
}

impl fmt::Debug for Entity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}v{}", self.index, self.version)
    }
}

impl fmt::Display for Entity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self, f)
    }
}

/// One slot of the allocator.
///
/// `version` is the version of the entity that lives here, or, when the slot is
/// free, of the last entity that lived here (the next occupant gets `version + 1`).
#[derive(Clone, Copy)]
struct Slot {
    version: NonZeroU32,
    alive: bool,
    /// Bit `i` set: the live entity holds the component with id `i` (ids below
    /// [`MASKED_COMPONENTS`]). Zero whenever the slot is free.
    components: u64,
}

/// Component ids below this are tracked per entity in a bit mask, so despawning
/// visits only the storages the entity is in; higher ids are probed.
pub(crate) const MASKED_COMPONENTS: usize = 64;

/// The bit of component `id` in an entity's component mask; none beyond the mask's reach.
#[inline]
pub(crate) fn mask_bit(id: ComponentId) -> u64 {
    if id.index() < MASKED_COMPONENTS {
        1 << id.index()
    } else {
        0
    }
}

/// The component ids whose bits are set in `mask`, in id order.
pub(crate) fn masked_ids(mut mask: u64) -> impl Iterator<Item = ComponentId> {
    core::iter::from_fn(move || {
        let id = mask.trailing_zeros();
        mask &= mask.wrapping_sub(1);
        (id < 64).then_some(ComponentId(id))
    })
}

/// Hands out entity ids, recycles despawned slots, and answers liveness.
///
/// ```text
///  slots:  [ 0: v1 alive ][ 1: v3 free ][ 2: v1 alive ][ 3: vMAX free (retired) ]
///  free:   [ 1 ]           <- LIFO; a retired slot is never pushed here
/// ```
///
/// Invariants:
/// - every index in `free` names a dead slot whose version is below `u32::MAX`,
///   and appears in `free` at most once;
/// - a dead slot not in `free` has version `u32::MAX`: it is retired for good;
/// - `alive` counts the slots with `alive == true`.
#[derive(Default)]
pub(crate) struct Entities {
    slots: Vec<Slot>,
    free: Vec<u32>,
    alive: usize,
}

/// What the allocator knows about a handle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Liveness {
    Alive,
    Despawned,
    NeverSpawned,
}

impl Entities {
    /// Allocates a new entity, reusing the most recently freed slot first.
    ///
    /// # Panics
    /// When all 2^32 indices are in use or retired.
    #[inline]
    pub(crate) fn alloc(&mut self) -> Entity {
        self.alive += 1;
        if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            debug_assert!(!slot.alive && slot.version.get() < u32::MAX);
            // The free list only holds slots below the top version.
            slot.version = slot.version.saturating_add(1);
            slot.alive = true;
            return Entity::new(index, slot.version);
        }
        let index =
            u32::try_from(self.slots.len()).expect("the world has used up all 2^32 entity indices");
        self.slots.push(Slot {
            version: NonZeroU32::MIN,
            alive: true,
            components: 0,
        });
        Entity::new(index, NonZeroU32::MIN)
    }

    /// Reserves room for `additional` more entities.
    pub(crate) fn reserve(&mut self, additional: usize) {
        self.slots
            .reserve(additional.saturating_sub(self.free.len()));
    }

    /// Frees a live entity's slot. Returns the error that describes `entity` if it is not alive.
    pub(crate) fn free(&mut self, entity: Entity) -> Result<(), Error> {
        self.check(entity)?;
        let slot = &mut self.slots[entity.index() as usize];
        slot.alive = false;
        slot.components = 0;
        self.alive -= 1;
        if slot.version.get() < u32::MAX {
            self.free.push(entity.index());
        }
        Ok(())
    }

    /// Frees every live slot, so that every handle handed out so far becomes stale.
    pub(crate) fn free_all(&mut self) {
        for (index, slot) in self.slots.iter_mut().enumerate() {
            if slot.alive {
                slot.alive = false;
                slot.components = 0;
                if slot.version.get() < u32::MAX {
                    self.free.push(index as u32);
                }
            }
        }
        self.alive = 0;
    }

    /// Whether `entity` is alive in this allocator.
    #[inline]
    pub(crate) fn is_alive(&self, entity: Entity) -> bool {
        match self.slots.get(entity.index() as usize) {
            Some(slot) => slot.alive && slot.version == entity.version,
            None => false,
        }
    }

    /// Classifies a handle: alive, despawned, or never handed out by this allocator.
    pub(crate) fn liveness(&self, entity: Entity) -> Liveness {
        let Some(slot) = self.slots.get(entity.index() as usize) else {
            return Liveness::NeverSpawned;
        };
        match entity.version.cmp(&slot.version) {
            core::cmp::Ordering::Less => Liveness::Despawned,
            core::cmp::Ordering::Equal if slot.alive => Liveness::Alive,
            core::cmp::Ordering::Equal => Liveness::Despawned,
            core::cmp::Ordering::Greater => Liveness::NeverSpawned,
        }
    }

    /// `Ok` when `entity` is alive, otherwise the error that says why not.
    #[inline]
    pub(crate) fn check(&self, entity: Entity) -> Result<(), Error> {
        if self.is_alive(entity) {
            return Ok(());
        }
        Err(match self.liveness(entity) {
            Liveness::Alive => unreachable!("is_alive and liveness disagree"),
            Liveness::Despawned => Error::Despawned { entity },
            Liveness::NeverSpawned => Error::NeverSpawned { entity },
        })
    }

    /// Records that the live entity at `index` now holds component `id`.
    #[inline]
    pub(crate) fn mark(&mut self, index: u32, id: ComponentId) {
        self.slots[index as usize].components |= mask_bit(id);
    }

    /// Records that the live entity at `index` now holds every component in `mask`.
    #[inline]
    pub(crate) fn mark_all(&mut self, index: u32, mask: u64) {
        self.slots[index as usize].components |= mask;
    }

    /// Records that the live entity at `index` no longer holds component `id`.
    #[inline]
    pub(crate) fn unmark(&mut self, index: u32, id: ComponentId) {
        self.slots[index as usize].components &= !mask_bit(id);
    }

    /// The masked components of the live entity at `index`.
    #[inline]
    pub(crate) fn components(&self, index: u32) -> u64 {
        self.slots[index as usize].components
    }

    /// Every live entity, in index order.
    pub(crate) fn iter_alive(&self) -> AliveIter<'_> {
        AliveIter {
            slots: self.slots.iter().enumerate(),
        }
    }

    /// Number of live entities.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.alive
    }

    /// Number of slots waiting on the free list.
    pub(crate) fn free_count(&self) -> usize {
        self.free.len()
    }

    /// Number of slots ever handed out.
    pub(crate) fn slot_count(&self) -> usize {
        self.slots.len()
    }

    /// Bytes held on the heap by the slot table and the free list.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.slots.capacity() * size_of::<Slot>() + self.free.capacity() * size_of::<u32>()
    }

    /// Test hook: moves a live slot's version to `version`, so tests can reach
    /// the top of the version range without 4 billion despawns.
    #[cfg(test)]
    pub(crate) fn force_version(&mut self, entity: Entity, version: NonZeroU32) -> Entity {
        let slot = &mut self.slots[entity.index() as usize];
        assert!(slot.alive && slot.version == entity.version);
        slot.version = version;
        Entity::new(entity.index(), version)
    }
}

/// The live entities of an allocator, in index order.
#[derive(Clone)]
pub(crate) struct AliveIter<'a> {
    slots: core::iter::Enumerate<core::slice::Iter<'a, Slot>>,
}

impl Iterator for AliveIter<'_> {
    type Item = Entity;

    #[inline]
    fn next(&mut self) -> Option<Entity> {
        self.slots
            .find(|(_, slot)| slot.alive)
            .map(|(index, slot)| Entity::new(index as u32, slot.version))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, self.slots.size_hint().1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(n: u32) -> NonZeroU32 {
        NonZeroU32::new(n).unwrap()
    }

    #[test]
    fn first_entity_is_index_zero_version_one() {
        let mut entities = Entities::default();
        let e = entities.alloc();
        assert_eq!((e.index(), e.version()), (0, 1));
        assert_eq!(entities.alloc().index(), 1);
    }

    #[test]
    fn despawn_bumps_version_and_reuses_index() {
        let mut entities = Entities::default();
        let a = entities.alloc();
        entities.free(a).unwrap();
        let b = entities.alloc();
        assert_eq!((b.index(), b.version()), (0, 2));
        assert!(!entities.is_alive(a));
        assert!(entities.is_alive(b));
        assert_eq!(entities.liveness(a), Liveness::Despawned);
    }

    #[test]
    fn free_list_is_lifo() {
        let mut entities = Entities::default();
        let ids: Vec<_> = (0..4).map(|_| entities.alloc()).collect();
        entities.free(ids[1]).unwrap();
        entities.free(ids[3]).unwrap();
        assert_eq!(entities.alloc().index(), 3);
        assert_eq!(entities.alloc().index(), 1);
        assert_eq!(entities.alloc().index(), 4);
    }

    #[test]
    fn liveness_tells_despawned_from_never_spawned() {
        let mut entities = Entities::default();
        let a = entities.alloc();
        assert_eq!(
            entities.liveness(Entity::new(5, v(1))),
            Liveness::NeverSpawned
        );
        assert_eq!(
            entities.liveness(Entity::new(0, v(2))),
            Liveness::NeverSpawned
        );
        entities.free(a).unwrap();
        assert_eq!(entities.liveness(a), Liveness::Despawned);
        // The free slot's next occupant is version 2, which has not been handed out yet.
        assert_eq!(
            entities.liveness(Entity::new(0, v(2))),
            Liveness::NeverSpawned
        );
    }

    #[test]
    fn double_free_is_an_error_and_changes_nothing() {
        let mut entities = Entities::default();
        let a = entities.alloc();
        entities.free(a).unwrap();
        assert_eq!(entities.free(a), Err(Error::Despawned { entity: a }));
        assert_eq!(entities.free_count(), 1);
        assert_eq!(entities.len(), 0);
    }

    #[test]
    fn slot_at_top_version_is_retired() {
        let mut entities = Entities::default();
        let a = entities.alloc();
        let a = entities.force_version(a, v(u32::MAX));
        entities.free(a).unwrap();
        assert_eq!(entities.free_count(), 0);
        let b = entities.alloc();
        assert_eq!(b.index(), 1, "the retired slot 0 must not be reused");
        assert_eq!(entities.liveness(a), Liveness::Despawned);
    }

    #[test]
    fn free_all_makes_every_handle_stale() {
        let mut entities = Entities::default();
        let ids: Vec<_> = (0..3).map(|_| entities.alloc()).collect();
        entities.free_all();
        assert_eq!(entities.len(), 0);
        assert!(ids.iter().all(|&e| !entities.is_alive(e)));
        let again: Vec<_> = (0..3).map(|_| entities.alloc()).collect();
        assert!(again.iter().all(|e| e.version() == 2));
    }

    #[test]
    fn bits_round_trip() {
        let e = Entity::new(u32::MAX, v(u32::MAX));
        assert_eq!(Entity::from_bits(e.to_bits()), Some(e));
        assert_eq!(Entity::from_bits(u64::from(u32::MAX)), None);
    }

    #[test]
    fn ordering_is_by_index_then_version() {
        assert!(Entity::new(1, v(9)) < Entity::new(2, v(1)));
        assert!(Entity::new(1, v(1)) < Entity::new(1, v(2)));
    }
}
