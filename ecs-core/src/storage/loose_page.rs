//! A page of the sparse index that holds few entities: a presence bit per
//! slot and only the slots in use, so its memory follows what it maps, not
//! the range of indices it covers.

use super::sparse_index::{PAGE_LEN, PAGE_MASK};

const WORDS: usize = PAGE_LEN / 64;

/// The mapped slots of one page, stored compactly.
///
/// A lookup of an index the page does not map reads one bit, so probing a
/// rarely held component stays a load and a test; a mapped index is found
/// by binary search among at most [`PROMOTE_AT`](super::sparse_index::PROMOTE_AT)
/// offsets, as the index turns a page this full into a full page.
///
/// Invariant: `offsets` is sorted and without repeats, `slots[i]` is the slot
/// of offset `offsets[i]`, and bit `o` of `present` is set exactly when `o`
/// is in `offsets`.
pub(crate) struct LoosePage {
    present: [u64; WORDS],
    offsets: Vec<u16>,
    slots: Vec<u64>,
}

impl LoosePage {
    pub(crate) fn new() -> Box<Self> {
        Box::new(Self {
            present: [0; WORDS],
            offsets: Vec::new(),
            slots: Vec::new(),
        })
    }

    /// The slot at `offset` (within the page), if the page holds one.
    #[inline]
    pub(crate) fn get(&self, offset: usize) -> Option<u64> {
        let offset = offset & PAGE_MASK;
        if self.present[offset / 64] & (1 << (offset % 64)) == 0 {
            return None;
        }
        Some(self.slots[self.position(offset)])
    }

    /// Where `offset`, which the page holds, sits in `offsets`.
    #[inline(never)]
    fn position(&self, offset: usize) -> usize {
        self.offsets
            .binary_search(&(offset as u16))
            .expect("a present bit has its offset")
    }

    /// The slot at `offset`, added empty (0) if the page had none.
    pub(crate) fn slot_or_insert(&mut self, offset: usize) -> &mut u64 {
        let offset = offset & PAGE_MASK;
        let at = match self.offsets.binary_search(&(offset as u16)) {
            Ok(at) => at,
            Err(at) => {
                self.offsets.insert(at, offset as u16);
                self.slots.insert(at, 0);
                self.present[offset / 64] |= 1 << (offset % 64);
                at
            }
        };
        &mut self.slots[at]
    }

    /// The slot at `offset`, if the page holds one.
    pub(crate) fn get_mut(&mut self, offset: usize) -> Option<&mut u64> {
        let offset = offset & PAGE_MASK;
        if self.present[offset / 64] & (1 << (offset % 64)) == 0 {
            return None;
        }
        let at = self.position(offset);
        Some(&mut self.slots[at])
    }

    /// Forgets the slot at `offset`, if the page holds one.
    pub(crate) fn remove(&mut self, offset: usize) {
        let offset = offset & PAGE_MASK;
        if let Ok(at) = self.offsets.binary_search(&(offset as u16)) {
            self.offsets.remove(at);
            self.slots.remove(at);
            self.present[offset / 64] &= !(1 << (offset % 64));
        }
    }

    /// Slots held, empty ones included.
    pub(crate) fn len(&self) -> usize {
        self.offsets.len()
    }

    /// Each held slot with its offset, in offset order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = (usize, u64)> + '_ {
        self.offsets
            .iter()
            .zip(&self.slots)
            .map(|(&offset, &slot)| (usize::from(offset), slot))
    }

    /// Bytes on the heap: the page itself and its two arrays.
    pub(crate) fn heap_bytes(&self) -> usize {
        size_of::<Self>()
            + self.offsets.capacity() * size_of::<u16>()
            + self.slots.capacity() * size_of::<u64>()
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
        assert_eq!(page.get(3), Some(9));
        assert_eq!(page.get(64), Some(11));
        assert_eq!(page.get(4095), Some(7));
        assert_eq!(page.get(4), None);
        assert_eq!(page.len(), 3);
        assert_eq!(
            page.iter().collect::<Vec<_>>(),
            [(3, 9), (64, 11), (4095, 7)]
        );
        *page.get_mut(64).unwrap() = 12;
        page.remove(3);
        page.remove(5);
        assert_eq!(page.get(3), None);
        assert_eq!(page.get(64), Some(12));
        assert_eq!(page.len(), 2);
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
}
