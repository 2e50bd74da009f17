//! The map from a component's `TypeId` to its id and its storage's root
//! pointer: an open-addressed table whose lookup of a type in its home slot
//! is one compare, with no loop, so `world.get::<T>(e)` costs little more
//! than a query's `get`.

use core::any::TypeId;
use core::hash::{BuildHasher, BuildHasherDefault};
use core::ptr::NonNull;

use crate::component::ComponentId;
use crate::util::TypeIdHasher;

/// The key of a vacant slot: no component type is `Vacant` (it does not
/// implement `Component`, and no code outside this module can name it), so a
/// lookup never matches a vacant slot.
struct Vacant;

/// One entry of the table.
#[derive(Clone, Copy)]
struct Slot {
    type_id: TypeId,
    id: ComponentId,
    /// A copy of the root pointer of the storage of `type_id` (the
    /// `SparseSet<T>` itself, thin); dangling in a vacant slot.
    root: NonNull<()>,
}

impl Slot {
    const VACANT: Slot = Slot {
        type_id: TypeId::of::<Vacant>(),
        id: ComponentId(u32::MAX),
        root: NonNull::dangling(),
    };

    fn is_vacant(&self) -> bool {
        self.type_id == TypeId::of::<Vacant>()
    }
}

/// `TypeId` -> (component id, storage root), with linear probing.
///
/// ```text
///  slots (a power of two, at most half full):
///  [ 0: - ][ 1: Position, #0, root ][ 2: Velocity, #1, root ][ 3: - ]
///            ^ home of Position       ^ home of Health: taken, Health would sit here
/// ```
///
/// Invariants:
/// - `slots.len()` is a power of two, at least twice `len` (so a probe
///   always reaches a vacant slot and ends);
/// - each type is in at most one slot, reachable from its home slot
///   (`hash & (slots.len() - 1)`) without crossing a vacant slot (nothing is ever removed);
/// - a slot keyed by `TypeId::of::<T>()` holds the root pointer of the live
///   `SparseSet<T>` the owning `Storages` registered for `T`. The pointer is
///   only a copy of that cell's root, used under the same borrow rules.
pub(super) struct TypeIndex {
    slots: Box<[Slot]>,
    len: usize,
}

// SAFETY: the roots are copies of the owning `Storages`' cell pointers, which
// are `Send`; the index never dereferences them itself.
unsafe impl Send for TypeIndex {}
// SAFETY: `&TypeIndex` only reads the table (type ids, component ids, copies
// of root pointers) and never dereferences a root; what a reader may do
// through a root it is given is set by its borrow of the world (shared to
// read, exclusive to write).
unsafe impl Sync for TypeIndex {}

impl Default for TypeIndex {
    fn default() -> Self {
        Self::with_slots(8)
    }
}

/// Where probing for `type_id` starts, before masking. The 64 bits a
/// `TypeId` hashes to are already a hash; for `TypeId::of::<T>()` this folds
/// to a constant.
#[inline]
fn hash(type_id: TypeId) -> usize {
    BuildHasherDefault::<TypeIdHasher>::default().hash_one(type_id) as usize
}

impl TypeIndex {
    fn with_slots(count: usize) -> Self {
        debug_assert!(count.is_power_of_two());
        Self {
            slots: vec![Slot::VACANT; count].into_boxed_slice(),
            len: 0,
        }
    }

    /// What a hash is masked with to land in the table: its length is a
    /// power of two.
    #[inline]
    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    /// The id and storage root of `type_id`, if registered.
    ///
    /// The home slot is checked inline; a type displaced by a collision is
    /// found out of line.
    #[inline]
    pub(super) fn get(&self, type_id: TypeId) -> Option<(ComponentId, NonNull<()>)> {
        let home = hash(type_id) & self.mask();
        debug_assert!(home < self.slots.len());
        // SAFETY: `home` is masked by `slots.len() - 1`, so it is at most
        // that, and the table is never empty: in bounds.
        let slot = unsafe { self.slots.get_unchecked(home) };
        if slot.type_id == type_id {
            return Some((slot.id, slot.root));
        }
        self.probe(type_id, home)
    }

    /// Continues a lookup past the home slot: up to the first vacant slot.
    ///
    /// Cold, but `#[inline]` so that every crate that calls `get` compiles
    /// its own copy and sees that it only reads: a call into another crate
    /// that received the table could, for all the optimizer knows, write
    /// through the storage pointers it holds, and a loop of `world.get`
    /// would then reload each storage's addresses on every read.
    #[cold]
    #[inline]
    fn probe(&self, type_id: TypeId, home: usize) -> Option<(ComponentId, NonNull<()>)> {
        let mask = self.mask();
        let mut at = home;
        loop {
            let slot = &self.slots[at];
            if slot.type_id == type_id {
                return Some((slot.id, slot.root));
            }
            if slot.is_vacant() {
                return None;
            }
            at = (at + 1) & mask;
        }
    }

    /// Records `type_id` as `id`, its storage at `root`.
    ///
    /// The caller keeps the type's invariant: `root` is the root pointer of
    /// the live storage of `type_id`, which outlives the index.
    ///
    /// # Panics
    /// If `type_id` is already here.
    pub(super) fn insert(&mut self, type_id: TypeId, id: ComponentId, root: NonNull<()>) {
        assert!(self.get(type_id).is_none(), "a type is registered once");
        if 2 * (self.len + 1) > self.slots.len() {
            self.grow();
        }
        self.place(Slot { type_id, id, root });
        self.len += 1;
    }

    /// Writes `slot` into the first vacant slot from its home.
    fn place(&mut self, slot: Slot) {
        let mask = self.mask();
        let mut at = hash(slot.type_id) & mask;
        while !self.slots[at].is_vacant() {
            at = (at + 1) & mask;
        }
        self.slots[at] = slot;
    }

    /// Doubles the table and places every entry again.
    #[cold]
    fn grow(&mut self) {
        let old = core::mem::replace(self, Self::with_slots(self.slots.len() * 2));
        self.len = old.len;
        for slot in old.slots.iter().filter(|slot| !slot.is_vacant()) {
            self.place(*slot);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One of many distinct types, for distinct `TypeId`s.
    struct T<const N: usize>;

    macro_rules! type_ids {
        ($($n:literal)*) => { [$(TypeId::of::<T<$n>>()),*] };
    }

    fn many() -> Vec<TypeId> {
        type_ids!(
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30
            31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58
            59 60 61 62 63 64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86
            87 88 89 90 91 92 93 94 95 96 97 98 99
        )
        .to_vec()
    }

    fn root(n: usize) -> NonNull<()> {
        NonNull::<u64>::dangling()
            .map_addr(|a| a.saturating_add(8 * n))
            .cast()
    }

    /// Every type registered so far is found with its own id and root, through
    /// growth and the collisions a small table has (some types are displaced
    /// from their home slot, and found by `probe`); types not registered are not.
    #[test]
    fn finds_every_registered_type_and_no_other() {
        let ids = many();
        let mut index = TypeIndex::default();
        let mut displaced = 0;
        for (n, &type_id) in ids.iter().enumerate() {
            assert_eq!(index.get(type_id), None);
            index.insert(type_id, ComponentId(n as u32), root(n));
            for (m, &seen) in ids[..=n].iter().enumerate() {
                assert_eq!(index.get(seen), Some((ComponentId(m as u32), root(m))));
            }
            assert!(2 * index.len <= index.slots.len());
            let mask = index.slots.len() - 1;
            displaced = ids[..=n]
                .iter()
                .filter(|&&id| index.slots[hash(id) & mask].type_id != id)
                .count();
        }
        assert!(displaced > 0, "the probe path was exercised");
        assert_eq!(index.get(TypeId::of::<u8>()), None);
    }

    #[test]
    #[should_panic(expected = "registered once")]
    fn a_type_is_inserted_once() {
        let mut index = TypeIndex::default();
        index.insert(TypeId::of::<u8>(), ComponentId(0), root(0));
        index.insert(TypeId::of::<u8>(), ComponentId(1), root(1));
    }
}
