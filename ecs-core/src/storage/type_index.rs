//! The map from a component's `TypeId` to its id and its storage's root
//! pointer: an open-addressed table whose lookup of a type in its home slot
//! is one compare, with no loop, so `world.get::<T>(e)` costs little more
//! than a query's `get`. The table picks its hash seed (and, within a
//! bound, its size) so that every type sits in its home slot: two types
//! that happen to share a home would otherwise cost every lookup of the
//! second a probe.

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

/// How many slots a table may grow to so that no type is displaced from
/// its home slot; past it, displaced types are found by probing.
const SETTLED_UP_TO: usize = 4096;

/// How many seeds a table tries at one size before it doubles.
const SEEDS_PER_SIZE: u64 = 64;

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
///   ([`home`]: the top bits of its hash times `seed`, `seed` odd) without
///   crossing a vacant slot (nothing is ever removed);
/// - while `slots.len() < settled_up_to`, every type is in its home slot;
/// - a slot keyed by `TypeId::of::<T>()` holds the root pointer of the live
///   `SparseSet<T>` the owning `Storages` registered for `T`. The pointer is
///   only a copy of that cell's root, used under the same borrow rules.
pub(super) struct TypeIndex {
    slots: Box<[Slot]>,
    len: usize,
    /// The odd multiplier of the hash.
    seed: u64,
    /// `64 - log2(slots.len())`: the hash's top bits pick the home slot.
    shift: u32,
    /// The size up to which the table keeps every type in its home slot
    /// ([`SETTLED_UP_TO`]; lower in tests, to reach the probe).
    settled_up_to: usize,
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
        Self::with_slots(8, FIRST_SEED, SETTLED_UP_TO)
    }
}

/// The first seed a table hashes with: 2^64 over the golden ratio, odd.
const FIRST_SEED: u64 = 0x9E37_79B9_7F4A_7C15;

/// The `n`th seed a table tries after [`FIRST_SEED`]: odd, and spread over
/// the whole range (splitmix64's finaliser).
fn nth_seed(n: u64) -> u64 {
    let mut z = FIRST_SEED.wrapping_mul(n.wrapping_add(1));
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (z ^ (z >> 31)) | 1
}

/// The home slot of a type whose hash is `hash`, in a table hashing with
/// `seed` and `shift`.
#[inline(always)]
fn home(hash: u64, seed: u64, shift: u32) -> usize {
    (hash.wrapping_mul(seed) >> shift) as usize
}

/// Where probing for `type_id` starts, before masking. The 64 bits a
/// `TypeId` hashes to are already a hash; for `TypeId::of::<T>()` this folds
/// to a constant.
#[inline]
fn hash(type_id: TypeId) -> u64 {
    BuildHasherDefault::<TypeIdHasher>::default().hash_one(type_id)
}

impl TypeIndex {
    fn with_slots(count: usize, seed: u64, settled_up_to: usize) -> Self {
        debug_assert!(count.is_power_of_two() && count >= 2 && seed % 2 == 1);
        Self {
            slots: vec![Slot::VACANT; count].into_boxed_slice(),
            len: 0,
            seed,
            shift: 64 - count.trailing_zeros(),
            settled_up_to,
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
        let home = home(hash(type_id), self.seed, self.shift);
        debug_assert!(home < self.slots.len());
        // SAFETY: `home` is the top `64 - shift` bits of a `u64`, where
        // `1 << (64 - shift)` is `slots.len()`: below it, in bounds.
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
            self.rebuild(self.slots.len() * 2, self.seed);
        }
        self.place(Slot { type_id, id, root });
        self.len += 1;
        if self.slots.len() < self.settled_up_to && self.displaced() > 0 {
            self.settle();
        }
    }

    /// Writes `slot` into the first vacant slot from its home.
    fn place(&mut self, slot: Slot) {
        let mask = self.mask();
        let mut at = home(hash(slot.type_id), self.seed, self.shift);
        while !self.slots[at].is_vacant() {
            at = (at + 1) & mask;
        }
        self.slots[at] = slot;
    }

    /// How many types sit away from their home slot.
    fn displaced(&self) -> usize {
        self.slots
            .iter()
            .enumerate()
            .filter(|(at, slot)| {
                !slot.is_vacant() && home(hash(slot.type_id), self.seed, self.shift) != *at
            })
            .count()
    }

    /// Finds a seed, and if need be a larger table (up to
    /// `settled_up_to`), under which every type sits in its home slot;
    /// failing that, keeps the table of `settled_up_to` slots with the seed
    /// that displaces the fewest.
    #[cold]
    fn settle(&mut self) {
        let mut best = (usize::MAX, self.slots.len(), self.seed);
        let mut size = self.slots.len();
        while size <= self.settled_up_to {
            // The fallback is the largest size's best seed: a smaller table
            // that displaces a type would break the home-slot invariant.
            best.0 = usize::MAX;
            for n in 0..SEEDS_PER_SIZE {
                self.rebuild(size, nth_seed(n));
                let displaced = self.displaced();
                if displaced == 0 {
                    return;
                }
                if displaced < best.0 {
                    best = (displaced, size, self.seed);
                }
            }
            size *= 2;
        }
        self.rebuild(best.1, best.2);
    }

    /// Places every entry again in a table of `size` slots hashing with `seed`.
    fn rebuild(&mut self, size: usize, seed: u64) {
        let fresh = Self::with_slots(size, seed, self.settled_up_to);
        let old = core::mem::replace(self, fresh);
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
    /// growth and the collisions of a table not allowed to settle (some types
    /// are displaced from their home slot, and found by `probe`); types not
    /// registered are not.
    #[test]
    fn finds_every_registered_type_and_no_other() {
        let ids = many();
        let mut index = TypeIndex::with_slots(8, FIRST_SEED, 0);
        let mut displaced = 0;
        for (n, &type_id) in ids.iter().enumerate() {
            assert_eq!(index.get(type_id), None);
            index.insert(type_id, ComponentId(n as u32), root(n));
            for (m, &seen) in ids[..=n].iter().enumerate() {
                assert_eq!(index.get(seen), Some((ComponentId(m as u32), root(m))));
            }
            assert!(2 * index.len <= index.slots.len());
            displaced = index.displaced();
        }
        assert!(displaced > 0, "the probe path was exercised");
        assert_eq!(index.get(TypeId::of::<u8>()), None);
    }

    /// A table left to settle keeps every one of 100 types in its home
    /// slot, so no lookup probes, and stays within its bound.
    #[test]
    fn a_settled_table_displaces_no_type() {
        let ids = many();
        let mut index = TypeIndex::default();
        for (n, &type_id) in ids.iter().enumerate() {
            index.insert(type_id, ComponentId(n as u32), root(n));
            assert_eq!(index.displaced(), 0, "after {} types", n + 1);
        }
        for (n, &type_id) in ids.iter().enumerate() {
            assert_eq!(index.get(type_id), Some((ComponentId(n as u32), root(n))));
        }
        assert!(index.slots.len() <= SETTLED_UP_TO);
    }

    #[test]
    #[should_panic(expected = "registered once")]
    fn a_type_is_inserted_once() {
        let mut index = TypeIndex::default();
        index.insert(TypeId::of::<u8>(), ComponentId(0), root(0));
        index.insert(TypeId::of::<u8>(), ComponentId(1), root(1));
    }
}
