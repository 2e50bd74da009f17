//! The allocator: hands out entity ids, recycles despawned slots, answers liveness.

use core::num::NonZeroU32;
use core::sync::atomic::{AtomicU32, Ordering};

use super::Entity;

mod state;

pub(crate) use state::AllocatorState;

/// One slot of the allocator.
///
/// `version` is the version of the entity that lives here, or, when the slot is
/// free, of the last entity that lived here (the next occupant gets `version + 1`).
/// A vacant slot, whose index was reserved but never handed out, has version
/// 0: its first occupant gets version 1, as a fresh index's does.
#[derive(Clone, Copy)]
struct EntitySlot {
    version: u32,
    alive: bool,
}

impl EntitySlot {
    /// The entity that lives here, or last did.
    #[inline]
    fn entity(self, index: u32) -> Entity {
        Entity::new(
            index,
            NonZeroU32::new(self.version).unwrap_or(NonZeroU32::MIN),
        )
    }

    /// The version the next occupant gets.
    #[inline]
    fn next_version(self) -> NonZeroU32 {
        NonZeroU32::MIN.saturating_add(self.version)
    }
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
/// - a slot has version 0 only while it is vacant: dead, in `free`, its
///   index never handed out;
/// - `alive` counts the slots with `alive == true`.
/// - `reserved` counts ids handed out through a shared borrow
///   ([`reserve_one`](Self::reserve_one)) and not yet made alive: the `k`-th
///   of them is the id the `k`-th next [`alloc`](Self::alloc) would return, so
///   every method that takes `&mut self` first makes them alive
///   ([`settle`](Self::settle)), and no reserved id is ever handed out twice.
#[derive(Default)]
pub(crate) struct Entities {
    slots: Vec<EntitySlot>,
    free: Vec<u32>,
    alive: usize,
    reserved: AtomicU32,
}

/// A handle that names no live entity: despawned, or never handed out by
/// this allocator. The crate's `Error` turns it into words.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct DeadEntity {
    pub(crate) entity: Entity,
    /// Whether the slot held this very entity once (else it was never spawned here).
    pub(crate) despawned: bool,
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
        if *self.reserved.get_mut() != 0 {
            self.settle(|_| {});
        }
        self.alloc_now()
    }

    #[inline]
    fn alloc_now(&mut self) -> Entity {
        self.alive += 1;
        if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            debug_assert!(!slot.alive && slot.version < u32::MAX);
            // The free list only holds slots below the top version.
            let version = slot.next_version();
            slot.version = version.get();
            slot.alive = true;
            return Entity::new(index, version);
        }
        let index =
            u32::try_from(self.slots.len()).expect("the world has used up all 2^32 entity indices");
        self.slots.push(EntitySlot {
            version: 1,
            alive: true,
        });
        Entity::new(index, NonZeroU32::MIN)
    }

    /// Hands out the id of an entity that becomes alive, with no components,
    /// at the next [`settle`](Self::settle); safe to call from many threads.
    ///
    /// # Panics
    /// When all 2^32 indices are in use, retired or reserved.
    pub(crate) fn reserve_one(&self) -> Entity {
        let g = self.reserved.fetch_add(1, Ordering::Relaxed);
        assert!(
            g < u32::MAX,
            "the world has used up all 2^32 entity indices"
        );
        self.reserved_id(g)
    }

    /// Reserves the id of the `g`-th next [`alloc`](Self::alloc): every
    /// reservation numbered below `g + 1` becomes alive at the next settle.
    /// Callers that number reservations themselves (one lane per system, so
    /// that ids do not depend on which thread got there first) use this.
    pub(crate) fn reserve_nth(&self, g: u32) -> Entity {
        assert!(
            g < u32::MAX,
            "the world has used up all 2^32 entity indices"
        );
        self.reserved.fetch_max(g + 1, Ordering::Relaxed);
        self.reserved_id(g)
    }

    /// Claims every reservation number below `end`, used or not; the unused
    /// ones become alive at the next settle like the rest, for the caller to free.
    pub(crate) fn claim_reserved(&self, end: u32) {
        self.reserved.fetch_max(end, Ordering::Relaxed);
    }

    /// How many reservation numbers are claimed.
    pub(crate) fn reserved_count(&self) -> u32 {
        self.reserved.load(Ordering::Relaxed)
    }

    /// The id the `g`-th next [`alloc`](Self::alloc) will return (from 0),
    /// with no reservation pending, changing nothing: what a merge maps the
    /// incoming entities to before it commits to anything.
    ///
    /// # Panics
    /// When all 2^32 indices would be in use.
    pub(crate) fn peek_alloc(&self, g: u32) -> Entity {
        debug_assert_eq!(self.reserved_count(), 0, "settled first");
        self.reserved_id(g)
    }

    /// The id the `g`-th next `alloc` returns: the free list from its top,
    /// then fresh indices.
    fn reserved_id(&self, g: u32) -> Entity {
        match self.free.len().checked_sub(1 + g as usize) {
            Some(position) => {
                let index = self.free[position];
                Entity::new(index, self.slots[index as usize].next_version())
            }
            None => {
                let beyond = g as usize - self.free.len();
                let index = u32::try_from(self.slots.len() + beyond)
                    .expect("the world has used up all 2^32 entity indices");
                Entity::new(index, NonZeroU32::MIN)
            }
        }
    }

    /// Makes every reserved id alive, in the order they were handed out,
    /// calling `made` for each.
    pub(crate) fn settle(&mut self, mut made: impl FnMut(Entity)) {
        let reserved = core::mem::take(self.reserved.get_mut());
        for _ in 0..reserved {
            made(self.alloc_now());
        }
    }

    /// Makes the reserved ids alive, in the order they were handed out
    /// (`made` gets each with its reservation number), except those
    /// numbered in `unused` (ascending): numbers claimed but
    /// never handed to anyone. Those stay spent on nothing: a free slot stays
    /// on the free list with its version, and a fresh index below one that
    /// is used becomes a vacant slot (version 0), on the free list, whose
    /// first occupant gets version 1. Fresh indices past the last used one
    /// are not made at all.
    pub(crate) fn settle_except(&mut self, unused: &[u32], mut made: impl FnMut(u32, Entity)) {
        debug_assert!(unused.windows(2).all(|pair| pair[0] < pair[1]));
        let reserved = core::mem::take(self.reserved.get_mut());
        if unused.is_empty() {
            // Every number was handed out: the ids `alloc` gives, in order.
            for g in 0..reserved {
                made(g, self.alloc_now());
            }
            return;
        }
        let is_unused = |g: u32| unused.binary_search(&g).is_ok();
        let free_len = self.free.len();
        let from_free = (reserved as usize).min(free_len);
        // Reservation `g < from_free` is the free list's entry `free_len - 1 - g`.
        let top = self.free.split_off(free_len - from_free);
        let fresh_start = self.slots.len();
        let mut kept_top = Vec::new();
        for g in 0..reserved {
            if let Some(position) = (from_free as u32).checked_sub(g + 1) {
                let index = top[position as usize];
                if is_unused(g) {
                    kept_top.push(index);
                    continue;
                }
                let slot = &mut self.slots[index as usize];
                let version = slot.next_version();
                *slot = EntitySlot {
                    version: version.get(),
                    alive: true,
                };
                self.alive += 1;
                made(g, Entity::new(index, version));
            } else if !is_unused(g) {
                let index = fresh_start + (g as usize - from_free);
                // Fresh indices skipped so far become vacant slots.
                self.slots.resize(
                    index,
                    EntitySlot {
                        version: 0,
                        alive: false,
                    },
                );
                self.slots.push(EntitySlot {
                    version: 1,
                    alive: true,
                });
                self.alive += 1;
                made(g, Entity::new(index as u32, NonZeroU32::MIN));
            }
        }
        // Vacant slots go under the unused free entries, lowest index on top,
        // so the next allocations take the free list's old top first, in its
        // old order, then the vacant indices in ascending order.
        let vacant = (fresh_start..self.slots.len())
            .filter(|&index| !self.slots[index].alive)
            .rev()
            .map(|index| index as u32);
        self.free.extend(vacant);
        kept_top.reverse();
        self.free.extend(kept_top);
    }

    /// Reserves room for `additional` more entities.
    pub(crate) fn reserve(&mut self, additional: usize) {
        self.settle(|_| {});
        self.slots
            .reserve(additional.saturating_sub(self.free.len()));
    }

    /// How many fresh ids (indices never handed out) [`commit_fresh`](Self::commit_fresh)
    /// can still make alive without the slot table growing or the indices
    /// running out. Only meaningful with an empty free list and no reservation,
    /// when fresh ids are exactly what [`alloc`](Self::alloc) would hand out.
    #[inline]
    pub(crate) fn fresh_room(&self) -> usize {
        // In 64 bits: 2^32 indices do not fit a 32-bit `usize`.
        let indices_left = (1u64 << 32) - self.slots.len() as u64;
        (self.slots.capacity() - self.slots.len())
            .min(usize::try_from(indices_left).unwrap_or(usize::MAX))
    }

    /// Makes room for at least `additional` more fresh ids.
    ///
    /// # Panics
    /// When all 2^32 indices are in use or retired.
    pub(crate) fn reserve_fresh(&mut self, additional: usize) {
        assert!(
            (self.slots.len() as u64) < 1 << 32,
            "the world has used up all 2^32 entity indices"
        );
        self.slots.reserve(additional);
    }

    /// Makes the next `count` fresh ids alive at once and returns the first
    /// (the rest follow it index by index, with the same version): the ids
    /// `count` calls of [`alloc`](Self::alloc) would return, the free list
    /// being empty. Grows nothing: `count` is within [`fresh_room`](Self::fresh_room).
    #[inline]
    pub(crate) fn commit_fresh(&mut self, count: usize) -> Entity {
        debug_assert!(self.free.is_empty() && *self.reserved.get_mut() == 0);
        debug_assert!(count <= self.fresh_room());
        let first = Entity::new(self.slots.len() as u32, NonZeroU32::MIN);
        let slot = EntitySlot {
            version: 1,
            alive: true,
        };
        self.slots.extend(core::iter::repeat_n(slot, count));
        self.alive += count;
        first
    }

    /// Frees a live entity's slot; a dead `entity` is refused, and nothing changes.
    #[inline]
    pub(crate) fn free(&mut self, entity: Entity) -> Result<(), DeadEntity> {
        if *self.reserved.get_mut() != 0 {
            self.settle(|_| {});
        }
        self.check(entity)?;
        let slot = &mut self.slots[entity.index() as usize];
        slot.alive = false;
        self.alive -= 1;
        if slot.version < u32::MAX {
            self.free.push(entity.index());
        }
        Ok(())
    }

    /// Frees every live slot, so that every handle handed out so far becomes
    /// stale, except the ids reserved and not settled yet: they become alive
    /// and stay so, for the commands that reserved them (the spawns of the
    /// `OnRemove` observers of a clear) apply after it.
    pub(crate) fn free_all(&mut self) {
        // Settled first: a reserved id is the one `alloc` would hand out
        // now, which freeing would change.
        let mut kept = Vec::new();
        self.settle(|entity| kept.push(entity.index()));
        kept.sort_unstable();
        for (index, slot) in self.slots.iter_mut().enumerate() {
            if slot.alive && kept.binary_search(&(index as u32)).is_err() {
                slot.alive = false;
                if slot.version < u32::MAX {
                    self.free.push(index as u32);
                }
            }
        }
        self.alive = kept.len();
    }

    /// Whether `entity` is alive in this allocator.
    #[inline]
    pub(crate) fn is_alive(&self, entity: Entity) -> bool {
        match self.slots.get(entity.index() as usize) {
            Some(slot) => slot.alive && slot.version == entity.version(),
            None => false,
        }
    }

    /// Classifies a handle: alive, despawned, or never handed out by this allocator.
    pub(crate) fn liveness(&self, entity: Entity) -> Liveness {
        let Some(slot) = self.slots.get(entity.index() as usize) else {
            return Liveness::NeverSpawned;
        };
        match entity.version().cmp(&slot.version) {
            core::cmp::Ordering::Less => Liveness::Despawned,
            core::cmp::Ordering::Equal if slot.alive => Liveness::Alive,
            core::cmp::Ordering::Equal => Liveness::Despawned,
            core::cmp::Ordering::Greater => Liveness::NeverSpawned,
        }
    }

    /// `Ok` when `entity` is alive, otherwise why not.
    #[inline]
    pub(crate) fn check(&self, entity: Entity) -> Result<(), DeadEntity> {
        if self.is_alive(entity) {
            return Ok(());
        }
        Err(self.dead(entity))
    }

    #[cold]
    fn dead(&self, entity: Entity) -> DeadEntity {
        DeadEntity {
            entity,
            despawned: match self.liveness(entity) {
                Liveness::Alive => unreachable!("is_alive and liveness disagree"),
                Liveness::Despawned => true,
                Liveness::NeverSpawned => false,
            },
        }
    }

    /// Every live entity, in index order.
    pub(crate) fn iter_alive(&self) -> AliveIter<'_> {
        self.alive_in(0..self.slots.len())
    }

    /// The live entities whose indexes lie in `slots` (clamped to the slots
    /// there are), in index order: one part of a walk over every live entity.
    pub(crate) fn alive_in(&self, slots: core::ops::Range<usize>) -> AliveIter<'_> {
        let end = slots.end.min(self.slots.len());
        let start = slots.start.min(end);
        AliveIter {
            slots: self.slots[start..end].iter().enumerate(),
            first: start,
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
        self.slots.capacity() * size_of::<EntitySlot>() + self.free.capacity() * size_of::<u32>()
    }

    /// Test hook: moves a live slot's version to `version`, so tests can reach
    /// the top of the version range without 4 billion despawns.
    #[cfg(test)]
    pub(crate) fn force_version(&mut self, entity: Entity, version: NonZeroU32) -> Entity {
        let slot = &mut self.slots[entity.index() as usize];
        assert!(slot.alive && slot.version == entity.version());
        slot.version = version.get();
        Entity::new(entity.index(), version)
    }
}

/// The live entities of an allocator, in index order.
#[derive(Clone)]
pub(crate) struct AliveIter<'a> {
    slots: core::iter::Enumerate<core::slice::Iter<'a, EntitySlot>>,
    /// The index of the first slot of `slots`: what their offsets count from.
    first: usize,
}

impl Iterator for AliveIter<'_> {
    type Item = Entity;

    #[inline]
    fn next(&mut self) -> Option<Entity> {
        let (offset, slot) = self.slots.find(|(_, slot)| slot.alive)?;
        Some(slot.entity((self.first + offset) as u32))
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
    fn alive_in_yields_the_live_ids_of_its_slots_only() {
        let mut entities = Entities::default();
        let ids: Vec<Entity> = (0..6).map(|_| entities.alloc()).collect();
        entities.free(ids[2]).unwrap();
        entities.free(ids[4]).unwrap();
        let part: Vec<Entity> = entities.alive_in(1..5).collect();
        assert_eq!(part, [ids[1], ids[3]]);
        // Parts that cover the slots between them yield every live id once.
        let mut joined: Vec<Entity> = entities.alive_in(0..3).collect();
        joined.extend(entities.alive_in(3..100));
        assert_eq!(joined, entities.iter_alive().collect::<Vec<_>>());
        assert_eq!(joined, [ids[0], ids[1], ids[3], ids[5]]);
        assert_eq!(entities.alive_in(7..9).count(), 0, "past the slots: none");
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
        assert_eq!(
            entities.free(a),
            Err(DeadEntity {
                entity: a,
                despawned: true
            })
        );
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
    fn reserved_ids_are_what_alloc_would_give_and_never_given_twice() {
        let mut entities = Entities::default();
        let ids: Vec<_> = (0..4).map(|_| entities.alloc()).collect();
        entities.free(ids[1]).unwrap();
        entities.free(ids[3]).unwrap();
        let reserved: Vec<_> = (0..3).map(|_| entities.reserve_one()).collect();
        assert_eq!(
            reserved
                .iter()
                .map(|e| (e.index(), e.version()))
                .collect::<Vec<_>>(),
            [(3, 2), (1, 2), (4, 1)],
            "the free list's top first, as alloc takes it, then fresh indices"
        );
        assert!(reserved.iter().all(|&e| !entities.is_alive(e)));
        // A plain alloc settles the reservations first, then takes a fresh id.
        let next = entities.alloc();
        assert_eq!(next.index(), 5);
        assert!(reserved.iter().all(|&e| entities.is_alive(e)));
        assert_eq!(entities.len(), 6);
    }

    #[test]
    fn a_fresh_run_is_what_alloc_would_hand_out() {
        let mut by_alloc = Entities::default();
        let mut by_run = Entities::default();
        for entities in [&mut by_alloc, &mut by_run] {
            let a = entities.alloc();
            entities.alloc();
            entities.free(a).unwrap();
            entities.alloc();
        }
        let expected: Vec<_> = (0..5).map(|_| by_alloc.alloc()).collect();
        by_run.reserve_fresh(5);
        assert!(by_run.fresh_room() >= 5);
        let first = by_run.commit_fresh(5);
        let run: Vec<_> = (0..5).map(|n| first.shifted(n)).collect();
        assert_eq!(run, expected);
        assert_eq!(by_run.len(), by_alloc.len());
        assert!(run.iter().all(|&e| by_run.is_alive(e)));
        assert_eq!(by_run.alloc(), by_alloc.alloc());
    }

    #[test]
    fn settle_reports_each_reserved_id_in_order() {
        let mut entities = Entities::default();
        let a = entities.reserve_one();
        let b = entities.reserve_one();
        let mut made = Vec::new();
        entities.settle(|e| made.push(e));
        assert_eq!(made, [a, b]);
        entities.settle(|_| panic!("nothing is reserved any more"));
    }

    /// Five reservations over a free list of three: numbers 1 (a free slot)
    /// and 3 (a fresh index below a used one) are never handed out. Only
    /// the others become alive; the free slot keeps its version, the fresh
    /// index becomes vacant, and both are what the next allocations take.
    #[test]
    fn settle_except_spends_nothing_on_unused_reservations() {
        let mut entities = Entities::default();
        let ids: Vec<_> = (0..3).map(|_| entities.alloc()).collect();
        for &e in &ids {
            entities.free(e).unwrap();
        }
        // The free list is [0, 1, 2] with 2 on top: reservations take 2, 1, 0,
        // then the fresh indices 3 and 4.
        let reserved: Vec<_> = (0..5).map(|_| entities.reserve_one()).collect();
        let mut made = Vec::new();
        entities.settle_except(&[1, 3], |_, e| made.push(e));
        assert_eq!(made, [reserved[0], reserved[2], reserved[4]]);
        assert!(made.iter().all(|&e| entities.is_alive(e)));
        assert_eq!(entities.len(), 3);
        assert_eq!(entities.slot_count(), 5, "index 4 is used, so 3 exists");
        assert_eq!(
            entities.liveness(reserved[3]),
            Liveness::NeverSpawned,
            "a vacant slot names no entity"
        );
        assert_eq!(entities.liveness(reserved[1]), Liveness::NeverSpawned);
        // The unused free slot comes first, with the version it would have
        // had, then the vacant index with version 1.
        assert_eq!(entities.alloc(), reserved[1]);
        assert_eq!(entities.alloc(), reserved[3]);
        assert_eq!(reserved[3].version(), 1);
        assert_eq!(entities.alloc(), Entity::new(5, NonZeroU32::MIN));
    }

    #[test]
    fn settle_except_makes_no_slot_past_the_last_used_fresh_index() {
        let mut entities = Entities::default();
        let reserved: Vec<_> = (0..4).map(|_| entities.reserve_one()).collect();
        let mut made = Vec::new();
        entities.settle_except(&[2, 3], |_, e| made.push(e));
        assert_eq!(made, reserved[..2]);
        assert_eq!(entities.slot_count(), 2);
        assert_eq!(entities.free_count(), 0);
        assert_eq!(entities.alloc(), reserved[2]);
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
    fn free_all_keeps_the_ids_reserved_since_the_last_settle_alive() {
        let mut entities = Entities::default();
        let ids: Vec<_> = (0..4).map(|_| entities.alloc()).collect();
        entities.free(ids[1]).unwrap();
        let reused = entities.reserve_one();
        let fresh = entities.reserve_one();
        assert_eq!((reused.index(), fresh.index()), (1, 4));
        entities.free_all();
        assert_eq!(entities.len(), 2);
        assert!(entities.is_alive(reused) && entities.is_alive(fresh));
        assert!(ids.iter().all(|&e| !entities.is_alive(e)));
        let again: Vec<_> = (0..3).map(|_| entities.alloc().index()).collect();
        assert_eq!(again, [3, 2, 0], "the freed slots, last freed first");
    }
}
