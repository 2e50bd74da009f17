//! Which components each entity holds, as one bit per component type.

use super::ComponentId;

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

/// One mask per entity index: bit `i` set means the live entity at that index
/// holds the component with id `i` (ids below [`MASKED_COMPONENTS`]).
///
/// Invariant (kept by the world's structural funnel): the mask of a free index
/// is zero, and a set bit names a storage that holds the entity. Indices past
/// the end read as zero.
#[derive(Default)]
pub(crate) struct ComponentMasks {
    masks: Vec<u64>,
    /// How many signatures were written: one per mark, unmark or clear of
    /// an index, never wrapping in practice. The world's layout decays as
    /// signatures change, so this is what its layout debt counts.
    changes: u64,
}

impl ComponentMasks {
    /// Records that the entity at `index` now holds component `id`.
    #[inline]
    pub(crate) fn mark(&mut self, index: u32, id: ComponentId) {
        self.mark_all(index, mask_bit(id));
    }

    /// Records that the entity at `index` now holds every component in `mask`.
    #[inline]
    pub(crate) fn mark_all(&mut self, index: u32, mask: u64) {
        self.changes = self.changes.wrapping_add(1);
        // One bounds check on the common path: the index is covered.
        match self.masks.get_mut(index as usize) {
            Some(held) => *held |= mask,
            None => self.grow_and_mark(index as usize, mask),
        }
    }

    /// Makes room for the masks of indices below `len`, so marking them
    /// never grows the table one index at a time.
    pub(crate) fn cover(&mut self, len: usize) {
        if len > self.masks.len() {
            self.masks.resize(len, 0);
        }
    }

    /// Records that each of the `count` entities from index `first` on holds
    /// every component in `mask`.
    #[inline]
    pub(crate) fn mark_range(&mut self, first: u32, count: usize, mask: u64) {
        let (first, end) = (first as usize, first as usize + count);
        self.changes = self.changes.wrapping_add(count as u64);
        if self.masks.len() <= first {
            // The usual case, a run of fresh indices at the end: one fill.
            self.masks.resize(first, 0);
            self.masks.extend(core::iter::repeat_n(mask, count));
        } else {
            self.cover(end);
            for held in &mut self.masks[first..end] {
                *held |= mask;
            }
        }
    }

    /// How many indices from `first` on the table can cover without growing.
    #[inline]
    pub(crate) fn room_from(&self, first: usize) -> usize {
        self.masks.capacity().saturating_sub(first)
    }

    /// Makes room for the masks of indices below `len`.
    pub(crate) fn reserve_to(&mut self, len: usize) {
        self.masks.reserve(len.saturating_sub(self.masks.len()));
    }

    /// Covers `index` and the indices after it up to twice the table's
    /// length, so that spawning one entity at a time reaches this once per
    /// doubling rather than once per entity (a zero mask holds nothing).
    #[cold]
    #[inline(never)]
    fn grow_and_mark(&mut self, index: usize, mask: u64) {
        let len = (index + 1).max(self.masks.len() * 2).max(64);
        self.masks.resize(len, 0);
        self.masks[index] = mask;
    }

    /// Records that the entity at `index` no longer holds component `id`.
    #[inline]
    pub(crate) fn unmark(&mut self, index: u32, id: ComponentId) {
        self.changes = self.changes.wrapping_add(1);
        if let Some(mask) = self.masks.get_mut(index as usize) {
            *mask &= !mask_bit(id);
        }
    }

    /// The masked components of the entity at `index`.
    #[inline]
    pub(crate) fn get(&self, index: u32) -> u64 {
        self.masks.get(index as usize).copied().unwrap_or(0)
    }

    /// Forgets every component of the entity at `index`, once it is despawned.
    #[inline]
    pub(crate) fn clear(&mut self, index: u32) {
        self.changes = self.changes.wrapping_add(1);
        if let Some(mask) = self.masks.get_mut(index as usize) {
            *mask = 0;
        }
    }

    /// Forgets every component of every entity.
    pub(crate) fn clear_all(&mut self) {
        self.changes = self.changes.wrapping_add(self.masks.len() as u64);
        self.masks.fill(0);
    }

    /// How many signatures were written since the table was made: each
    /// mark, unmark and clear of one index counts one.
    #[inline]
    pub(crate) fn changes(&self) -> u64 {
        self.changes
    }

    /// Makes room for `additional` more entity indices.
    pub(crate) fn reserve(&mut self, additional: usize) {
        self.masks.reserve(additional);
    }

    /// Bytes held on the heap.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.masks.capacity() * size_of::<u64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_beyond_the_mask_have_no_bit() {
        assert_eq!(mask_bit(ComponentId(0)), 1);
        assert_eq!(mask_bit(ComponentId(63)), 1 << 63);
        assert_eq!(mask_bit(ComponentId(64)), 0);
    }

    #[test]
    fn masked_ids_walk_set_bits_in_order() {
        let ids: Vec<u32> = masked_ids(0b1010_0001 | 1 << 63).map(|id| id.0).collect();
        assert_eq!(ids, [0, 5, 7, 63]);
        assert_eq!(masked_ids(0).count(), 0);
    }

    #[test]
    fn marks_follow_each_index() {
        let mut masks = ComponentMasks::default();
        assert_eq!(masks.get(9), 0, "unseen indices hold nothing");
        masks.mark(9, ComponentId(2));
        masks.mark_all(3, 0b11);
        masks.unmark(3, ComponentId(0));
        assert_eq!((masks.get(9), masks.get(3)), (0b100, 0b10));
        masks.clear(9);
        assert_eq!(masks.get(9), 0);
        masks.clear_all();
        assert_eq!(masks.get(3), 0);
    }

    #[test]
    fn every_signature_write_counts_one_change() {
        let mut masks = ComponentMasks::default();
        masks.mark(1, ComponentId(0));
        masks.mark_all(1, 0b110);
        masks.unmark(1, ComponentId(2));
        masks.clear(1);
        assert_eq!(masks.changes(), 4);
        masks.mark_range(10, 5, 0b1);
        assert_eq!(masks.changes(), 9, "a range counts each index");
        assert_eq!(masks.get(1), 0);
        assert_eq!(masks.get(12), 1);
    }

    #[test]
    fn a_range_is_marked_past_the_end_and_inside_the_table() {
        let mut masks = ComponentMasks::default();
        masks.mark_range(2, 3, 0b1);
        assert_eq!(
            (0..6).map(|i| masks.get(i)).collect::<Vec<_>>(),
            [0, 0, 1, 1, 1, 0]
        );
        masks.mark_range(3, 4, 0b10);
        assert_eq!(
            (0..8).map(|i| masks.get(i)).collect::<Vec<_>>(),
            [0, 0, 1, 3, 3, 2, 2, 0]
        );
    }
}
