//! The paged sparse array of a sparse set: entity index -> dense position.

use crate::entity::Entity;

/// log2 of the number of slots in one page.
pub(crate) const PAGE_BITS: u32 = 12;
/// Slots per page: 4096 slots of 8 bytes, 32 KiB.
pub(crate) const PAGE_LEN: usize = 1 << PAGE_BITS;
const PAGE_MASK: usize = PAGE_LEN - 1;

/// One page of slots. A slot holds the mapped entity's version in its high
/// 32 bits and its dense position in the low 32; versions are never zero, so
/// 0 is an empty slot and a fresh page is zeroed memory.
type Page = [u64; PAGE_LEN];

/// Maps entity indices to dense positions, allocating pages of 4096 slots on first use.
///
/// A slot holds the dense position and the version of the entity it maps, so
/// a lookup checks the version in the slot it has already loaded and goes
/// straight to the value: two dependent loads (slot, value) and two cache
/// lines per random read. A four-byte slot (the position alone) halves the
/// index, but its version check reads the dense entity array, a third line
/// per read: random reads and removals measured a fifth to a third slower
/// that way, for 4 bytes per entity per component.
///
/// Invariant: a non-empty slot for index `i` holds `pack(e, dense)`, where
/// `e` is the entity with index `i` in its sparse set and `dense` its
/// position in the set's dense arrays.
#[derive(Default)]
pub(crate) struct SparseIndex {
    pages: Vec<Option<Box<Page>>>,
}

/// Looks entities up in a [`SparseIndex`] it borrows, holding the page
/// table's address and length itself: a loop of lookups keeps both in
/// registers instead of reading them through the index on every lookup. In a
/// loop bound by cache misses those extra loads cost more than their count
/// suggests, as they take room that the missing loads of later lookups need.
#[derive(Clone, Copy)]
pub(crate) struct SparseReader<'a> {
    pages: &'a [Option<Box<Page>>],
}

impl SparseReader<'_> {
    /// A reader that maps nothing.
    pub(crate) const EMPTY: SparseReader<'static> = SparseReader { pages: &[] };

    /// As [`SparseIndex::get`].
    #[inline]
    pub(crate) fn get(self, entity: Entity) -> Option<usize> {
        let index = entity.index() as usize;
        let page = self.pages.get(index >> PAGE_BITS)?.as_deref()?;
        unpack(page[index & PAGE_MASK], entity)
    }
}

/// The slot value that maps `entity` to dense position `dense`. Never 0:
/// the version is not.
#[inline(always)]
fn pack(entity: Entity, dense: u32) -> u64 {
    (u64::from(entity.version()) << 32) | u64::from(dense)
}

/// The dense position a slot maps `entity` to, if it maps that exact entity
/// (its version; the index is the slot's own). An empty slot's version, 0,
/// matches no entity.
#[inline(always)]
fn unpack(slot: u64, entity: Entity) -> Option<usize> {
    ((slot >> 32) as u32 == entity.version()).then_some(slot as u32 as usize)
}

impl SparseIndex {
    /// The dense position of `entity`, if this exact entity (index and
    /// version) is mapped.
    #[inline]
    pub(crate) fn get(&self, entity: Entity) -> Option<usize> {
        self.reader().get(entity)
    }

    /// A reader for loops that look many entities up.
    #[inline]
    pub(crate) fn reader(&self) -> SparseReader<'_> {
        SparseReader { pages: &self.pages }
    }

    /// Maps `entity` to `dense`, allocating its page if needed.
    #[cfg(test)]
    pub(crate) fn insert(&mut self, entity: Entity, dense: u32) {
        self.slot_or_alloc(entity.index()).set(entity, dense);
    }

    /// The slot for `index`, allocating its page on first use.
    #[inline]
    pub(crate) fn slot_or_alloc(&mut self, index: u32) -> SparseSlot<'_> {
        let index = index as usize;
        let page_index = index >> PAGE_BITS;
        if !matches!(self.pages.get(page_index), Some(Some(_))) {
            self.alloc_page(page_index);
        }
        debug_assert!(matches!(self.pages.get(page_index), Some(Some(_))));
        // SAFETY: the page exists: it did, or `alloc_page` just made it. (Taking
        // it through a checked `get_mut` would have to be written before the
        // allocation, which the borrow checker cannot follow.)
        let page = unsafe {
            self.pages
                .get_unchecked_mut(page_index)
                .as_deref_mut()
                .unwrap_unchecked()
        };
        SparseSlot(&mut page[index & PAGE_MASK])
    }

    #[cold]
    #[inline(never)]
    fn alloc_page(&mut self, page_index: usize) {
        if page_index >= self.pages.len() {
            self.pages.resize_with(page_index + 1, || None);
        }
        self.pages[page_index] = Some(new_page());
    }

    /// Maps the `count` entities `first`, `first + 1`, ... (one version,
    /// consecutive indices) to the dense positions from `first_dense`, in
    /// order: every slot must be empty. Each page of the range is looked up (or
    /// allocated) once, and its slots are written in one loop, so a batch of
    /// fresh ids costs no per-slot page check.
    pub(crate) fn fill_range(&mut self, first: Entity, count: usize, first_dense: u32) {
        let mut index = first.index() as usize;
        let end = index + count;
        let mut slot_value = pack(first, first_dense);
        while index < end {
            let page_index = index >> PAGE_BITS;
            if !matches!(self.pages.get(page_index), Some(Some(_))) {
                self.alloc_page(page_index);
            }
            let page = self.pages[page_index]
                .as_deref_mut()
                .expect("the page was just allocated");
            let from = index & PAGE_MASK;
            let to = (from + (end - index)).min(PAGE_LEN);
            for slot in &mut page[from..to] {
                debug_assert_eq!(*slot, 0, "slot {index} of a fresh range holds an entity");
                *slot = slot_value;
                // The position is in the low half; the last one written is at
                // most `u32::MAX - 1` (the set's limit), so the increment past
                // it reaches at most `u32::MAX` and never carries into the version.
                slot_value += 1;
            }
            index += to - from;
        }
    }

    /// Moves an already mapped `entity` to `dense`.
    #[inline]
    pub(crate) fn set_dense(&mut self, entity: Entity, dense: u32) {
        let index = entity.index() as usize;
        let slot = self.slot_mut(index);
        debug_assert!(unpack(*slot, entity).is_some(), "{entity:?} is mapped");
        *slot = pack(entity, dense);
    }

    /// Unmaps `entity` if this exact entity is mapped, returning its dense position.
    #[inline]
    pub(crate) fn take(&mut self, entity: Entity) -> Option<usize> {
        let index = entity.index() as usize;
        let page = self.pages.get_mut(index >> PAGE_BITS)?.as_deref_mut()?;
        let slot = &mut page[index & PAGE_MASK];
        let dense = unpack(*slot, entity)?;
        *slot = 0;
        Some(dense)
    }

    /// Slots that map an entity.
    #[cfg(test)]
    pub(crate) fn mapped_count(&self) -> usize {
        self.pages
            .iter()
            .flatten()
            .map(|page| page.iter().filter(|&&slot| slot != 0).count())
            .sum()
    }

    /// Pages allocated.
    pub(crate) fn page_count(&self) -> usize {
        self.pages.iter().flatten().count()
    }

    /// Bytes held on the heap: the page table and the pages.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.pages.capacity() * size_of::<Option<Box<Page>>>()
            + self.page_count() * size_of::<Page>()
    }

    /// Unmaps the entity with `index`.
    #[inline]
    pub(crate) fn remove(&mut self, index: u32) {
        *self.slot_mut(index as usize) = 0;
    }

    #[inline]
    fn slot_mut(&mut self, index: usize) -> &mut u64 {
        let page = self.pages[index >> PAGE_BITS]
            .as_deref_mut()
            .expect("sparse slot on a page that was never allocated");
        &mut page[index & PAGE_MASK]
    }
}

/// One slot of the index, borrowed for an insertion.
pub(crate) struct SparseSlot<'a>(&'a mut u64);

impl SparseSlot<'_> {
    /// The dense position this slot maps `entity` to, if it maps that exact entity.
    #[inline]
    pub(crate) fn get(&self, entity: Entity) -> Option<usize> {
        unpack(*self.0, entity)
    }

    /// Whether the slot maps nothing.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        *self.0 == 0
    }

    /// Maps the slot to `entity` at dense position `dense`.
    #[inline]
    pub(crate) fn set(self, entity: Entity, dense: u32) {
        *self.0 = pack(entity, dense);
    }
}

fn new_page() -> Box<Page> {
    // A zeroed `Vec<u64>` comes straight from the allocator's zeroed memory.
    vec![0u64; PAGE_LEN]
        .into_boxed_slice()
        .try_into()
        .expect("a page has PAGE_LEN slots")
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::num::NonZeroU32;

    fn e(index: u32, version: u32) -> Entity {
        Entity::new(index, NonZeroU32::new(version).unwrap())
    }

    #[test]
    fn lookup_checks_the_version() {
        let mut sparse = SparseIndex::default();
        sparse.insert(e(3, 2), 7);
        assert_eq!(sparse.get(e(3, 2)), Some(7));
        assert_eq!(sparse.get(e(3, 1)), None);
        assert_eq!(sparse.get(e(3, 3)), None);
        assert_eq!(sparse.get(e(4, 2)), None);
    }

    #[test]
    fn an_empty_slot_maps_nothing_on_a_used_page() {
        let mut sparse = SparseIndex::default();
        sparse.insert(e(1, 1), 1);
        // Index 0 shares the page but its slot is empty.
        assert_eq!(sparse.get(e(0, 1)), None);
        assert_eq!(sparse.get(e(1, 1)), Some(1));
    }

    #[test]
    fn pages_are_allocated_only_where_used() {
        let mut sparse = SparseIndex::default();
        let far = e(10 * PAGE_LEN as u32 + 5, 1);
        sparse.insert(far, 0);
        assert_eq!(sparse.pages.iter().flatten().count(), 1);
        assert_eq!(sparse.get(far), Some(0));
        assert_eq!(sparse.get(e(5, 1)), None);
        assert_eq!(sparse.get(e(u32::MAX, 1)), None);
    }

    #[test]
    fn remove_and_move() {
        let mut sparse = SparseIndex::default();
        sparse.insert(e(1, 1), 0);
        sparse.insert(e(2, 1), 1);
        sparse.set_dense(e(2, 1), 0);
        sparse.remove(1);
        assert_eq!(sparse.get(e(1, 1)), None);
        assert_eq!(sparse.get(e(2, 1)), Some(0));
    }

    #[test]
    fn fill_range_maps_a_run_across_pages() {
        let mut sparse = SparseIndex::default();
        let first = PAGE_LEN as u32 - 3;
        sparse.fill_range(e(first, 4), 2 * PAGE_LEN + 10, 7);
        assert_eq!(sparse.page_count(), 4);
        for i in [0, 2, 3, PAGE_LEN as u32, 2 * PAGE_LEN as u32 + 9] {
            assert_eq!(sparse.get(e(first + i, 4)), Some(7 + i as usize));
            assert_eq!(sparse.get(e(first + i, 3)), None, "another version");
        }
        assert_eq!(sparse.get(e(first - 1, 4)), None);
        assert_eq!(sparse.get(e(first + 2 * PAGE_LEN as u32 + 10, 4)), None);
        sparse.fill_range(e(5, 1), 0, 0);
        assert_eq!(sparse.page_count(), 4, "an empty range allocates nothing");
    }

    #[test]
    fn the_largest_position_and_version_round_trip() {
        let mut sparse = SparseIndex::default();
        let last = e(7, u32::MAX);
        sparse.insert(last, u32::MAX - 1);
        assert_eq!(sparse.get(last), Some(u32::MAX as usize - 1));
        assert_eq!(sparse.get(e(7, u32::MAX - 1)), None);
        assert_eq!(sparse.get(e(7, 1)), None);
    }

    #[test]
    fn take_unmaps_only_the_exact_entity() {
        let mut sparse = SparseIndex::default();
        sparse.insert(e(4, 3), 0);
        assert_eq!(sparse.take(e(4, 2)), None);
        assert_eq!(sparse.take(e(4, 3)), Some(0));
        assert_eq!(sparse.get(e(4, 3)), None);
    }
}
