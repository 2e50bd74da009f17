//! A page of the sparse index that holds few entities: a presence bit per
//! slot and only the slots in use, so its memory follows what it maps, not
//! the range of indices it covers.

use super::sparse_index::{PAGE_LEN, PAGE_MASK};

const WORDS: usize = PAGE_LEN / 64;

/// The mapped slots of one page, stored compactly.
///
/// A lookup is a few loads and no loop or call, so it can sit inline in a
/// loop of lookups without costing the loop's full-page path its registers:
/// the presence bit says whether the page holds the offset, and the count of
/// presence bits before it is the slot's place in `slots` (a stored count per
/// 64-bit word, plus the bits below it in its own word).
///
/// Invariant: bit `o` of `present` is set exactly when the page holds a slot
/// for offset `o`; `slots` holds those slots in offset order; `before[w]` is
/// the number of bits set in `present[..w]`.
pub(crate) struct LoosePage {
    present: [u64; WORDS],
    before: [u16; WORDS],
    slots: Vec<u64>,
}

impl LoosePage {
    pub(crate) fn new() -> Box<Self> {
        Box::new(Self {
            present: [0; WORDS],
            before: [0; WORDS],
            slots: Vec::new(),
        })
    }

    /// Where the slot of `offset` is, or would go, in `slots`, and whether
    /// the page holds it.
    #[inline(always)]
    fn rank(&self, offset: usize) -> (usize, bool) {
        let (word, bit) = (offset / 64, offset % 64);
        let bits = self.present[word];
        let below = bits & ((1u64 << bit) - 1);
        let rank = usize::from(self.before[word]) + below.count_ones() as usize;
        (rank, bits & (1 << bit) != 0)
    }

    /// The slot at `offset` (within the page; higher bits are ignored), if
    /// the page holds one.
    #[inline(always)]
    pub(crate) fn get(&self, offset: usize) -> Option<u64> {
        match self.rank(offset & PAGE_MASK) {
            (rank, true) => self.slots.get(rank).copied(),
            (_, false) => None,
        }
    }

    /// The slot at `offset`, added empty (0) if the page had none.
    pub(crate) fn slot_or_insert(&mut self, offset: usize) -> &mut u64 {
        let offset = offset & PAGE_MASK;
        let (rank, held) = self.rank(offset);
        if !held {
            self.slots.insert(rank, 0);
            self.present[offset / 64] |= 1 << (offset % 64);
            for count in &mut self.before[offset / 64 + 1..] {
                *count += 1;
            }
        }
        &mut self.slots[rank]
    }

    /// The slot at `offset`, if the page holds one.
    pub(crate) fn get_mut(&mut self, offset: usize) -> Option<&mut u64> {
        match self.rank(offset & PAGE_MASK) {
            (rank, true) => self.slots.get_mut(rank),
            (_, false) => None,
        }
    }

    /// Forgets the slot at `offset`, if the page holds one.
    pub(crate) fn remove(&mut self, offset: usize) {
        let offset = offset & PAGE_MASK;
        if let (rank, true) = self.rank(offset) {
            self.slots.remove(rank);
            self.present[offset / 64] &= !(1 << (offset % 64));
            for count in &mut self.before[offset / 64 + 1..] {
                *count -= 1;
            }
        }
    }

    /// Slots held, empty ones included.
    pub(crate) fn len(&self) -> usize {
        self.slots.len()
    }

    /// Each held slot with its offset, in offset order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        let offsets = self.present.iter().enumerate().flat_map(|(word, &bits)| {
            (0..64)
                .filter(move |bit| bits & (1 << bit) != 0)
                .map(move |bit| word * 64 + bit)
        });
        offsets.zip(self.slots.iter().copied())
    }

    /// Bytes on the heap: the page itself and its slots.
    pub(crate) fn heap_bytes(&self) -> usize {
        size_of::<Self>() + self.slots.capacity() * size_of::<u64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_are_found_by_offset_and_absent_ones_are_not() {
        let mut page = LoosePage::new();
        *page.slot_or_insert(4095) = 7;
        *page.slot_or_insert(3) = 9;
        *page.slot_or_insert(64) = 11;
        *page.slot_or_insert(63) = 13;
        assert_eq!(page.get(3), Some(9));
        assert_eq!(page.get(63), Some(13));
        assert_eq!(page.get(64), Some(11));
        assert_eq!(page.get(4095), Some(7));
        assert_eq!(page.get(4), None);
        assert_eq!(page.get(4094), None);
        assert_eq!(page.len(), 4);
        assert_eq!(
            page.iter().collect::<Vec<_>>(),
            [(3, 9), (63, 13), (64, 11), (4095, 7)]
        );
        *page.get_mut(64).unwrap() = 12;
        page.remove(3);
        page.remove(5);
        assert_eq!(page.get(3), None);
        assert_eq!(page.get(63), Some(13));
        assert_eq!(page.get(64), Some(12));
        assert_eq!(page.get(4095), Some(7));
        assert_eq!(page.len(), 3);
        assert_eq!(page.get_mut(3), None);
    }

    #[test]
    fn an_added_slot_starts_empty_and_is_kept_once() {
        let mut page = LoosePage::new();
        assert_eq!(*page.slot_or_insert(10), 0);
        *page.slot_or_insert(10) = 5;
        assert_eq!(*page.slot_or_insert(10), 5);
        assert_eq!(page.len(), 1);
    }

    #[test]
    fn every_offset_round_trips_in_any_order() {
        let mut page = LoosePage::new();
        // A fixed permutation of every offset: 1597 is odd, so coprime to 4096.
        let order: Vec<usize> = (0..PAGE_LEN).map(|i| i * 1597 % PAGE_LEN).collect();
        for (n, &offset) in order.iter().enumerate() {
            *page.slot_or_insert(offset) = offset as u64 + 1;
            if n % 512 == 0 {
                assert!(
                    order[..=n]
                        .iter()
                        .all(|&o| page.get(o) == Some(o as u64 + 1))
                );
            }
        }
        assert!(page.iter().map(|(o, _)| o).eq(0..PAGE_LEN));
        for &offset in order.iter().rev().step_by(2) {
            page.remove(offset);
        }
        for (offset, slot) in page.iter() {
            assert_eq!(slot, offset as u64 + 1);
        }
        assert_eq!(page.len(), PAGE_LEN / 2);
    }
}
