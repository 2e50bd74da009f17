//! The paged sparse array of a sparse set: entity index -> dense position.

use crate::entity::Entity;

/// log2 of the number of slots in one page.
pub(crate) const PAGE_BITS: u32 = 12;
/// Slots per page: 4096 slots of 4 bytes, 16 KiB.
pub(crate) const PAGE_LEN: usize = 1 << PAGE_BITS;
const PAGE_MASK: usize = PAGE_LEN - 1;

/// One page of slots. A slot holds `dense + 1`; 0 is empty, so a fresh page
/// is zeroed memory.
type Page = [u32; PAGE_LEN];

/// Maps entity indices to dense positions, allocating pages of 4096 slots on first use.
///
/// A slot holds only the dense position; the version is checked against the
/// dense entity array, whose entry the caller reads anyway beside the value
/// (the two loads are independent, so they overlap). Four bytes a slot
/// instead of eight halve the index's memory and its share of the cache.
///
/// Invariant: a non-empty slot for index `i` holds `dense + 1`, where `dense`
/// is the position of the entity with index `i` in its sparse set's dense
/// entity array (`entities` in the methods below).
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
    pub(crate) fn get(self, entity: Entity, entities: &[Entity]) -> Option<usize> {
        let index = entity.index() as usize;
        let page = self.pages.get(index >> PAGE_BITS)?.as_deref()?;
        unpack(page[index & PAGE_MASK], entity, entities)
    }
}

/// The slot value for dense position `dense`, which is below `u32::MAX`: a
/// set holds at most `u32::MAX` values (`SparseSet` checks that before it
/// grows), so its positions stop one short.
#[inline]
fn pack(dense: u32) -> u32 {
    debug_assert!(dense < u32::MAX, "a dense position below the set's limit");
    dense.wrapping_add(1)
}

/// The dense position a slot maps `entity` to, if it maps that exact entity:
/// the slot's position holds `entity` (index and version) in `entities`.
/// An empty slot wraps to `u32::MAX`, past the end of any set's dense array.
#[inline(always)]
fn unpack(slot: u32, entity: Entity, entities: &[Entity]) -> Option<usize> {
    let dense = slot.wrapping_sub(1) as usize;
    (entities.get(dense) == Some(&entity)).then_some(dense)
}

impl SparseIndex {
    /// The dense position of `entity`, if this exact entity (index and
    /// version) is mapped; `entities` is the set's dense entity array.
    #[inline]
    pub(crate) fn get(&self, entity: Entity, entities: &[Entity]) -> Option<usize> {
        self.reader().get(entity, entities)
    }

    /// A reader for loops that look many entities up.
    #[inline]
    pub(crate) fn reader(&self) -> SparseReader<'_> {
        SparseReader { pages: &self.pages }
    }

    /// Maps `entity` to `dense`, allocating its page if needed.
    #[cfg(test)]
    pub(crate) fn insert(&mut self, entity: Entity, dense: u32) {
        self.slot_or_alloc(entity.index()).set(dense);
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

    /// Maps the `count` indices from `first` to the dense positions from
    /// `first_dense`, in order: every slot must be empty. Each page of the
    /// range is looked up (or allocated) once, and its slots are written in one
    /// loop, so a batch of fresh ids costs no per-slot page check.
    pub(crate) fn fill_range(&mut self, first: u32, count: usize, first_dense: u32) {
        let mut index = first as usize;
        let end = index + count;
        let mut dense = first_dense;
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
                *slot = pack(dense);
                dense = dense.wrapping_add(1);
            }
            index += to - from;
        }
    }

    /// Moves an already mapped `entity` to `dense`.
    #[inline]
    pub(crate) fn set_dense(&mut self, entity: Entity, dense: u32) {
        let index = entity.index() as usize;
        let slot = self.slot_mut(index);
        debug_assert_ne!(*slot, 0, "{entity:?} is mapped");
        *slot = pack(dense);
    }

    /// Unmaps `entity` if this exact entity is mapped (`entities` is the set's
    /// dense entity array), returning its dense position.
    #[inline]
    pub(crate) fn take(&mut self, entity: Entity, entities: &[Entity]) -> Option<usize> {
        let index = entity.index() as usize;
        let page = self.pages.get_mut(index >> PAGE_BITS)?.as_deref_mut()?;
        let slot = &mut page[index & PAGE_MASK];
        let dense = unpack(*slot, entity, entities)?;
        *slot = 0;
        Some(dense)
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
    fn slot_mut(&mut self, index: usize) -> &mut u32 {
        let page = self.pages[index >> PAGE_BITS]
            .as_deref_mut()
            .expect("sparse slot on a page that was never allocated");
        &mut page[index & PAGE_MASK]
    }
}

/// One slot of the index, borrowed for an insertion.
pub(crate) struct SparseSlot<'a>(&'a mut u32);

impl SparseSlot<'_> {
    /// The dense position this slot maps `entity` to, if it maps that exact
    /// entity; `entities` is the set's dense entity array.
    #[inline]
    pub(crate) fn get(&self, entity: Entity, entities: &[Entity]) -> Option<usize> {
        unpack(*self.0, entity, entities)
    }

    /// Whether the slot maps nothing.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        *self.0 == 0
    }

    /// Maps the slot to dense position `dense`.
    #[inline]
    pub(crate) fn set(self, dense: u32) {
        *self.0 = pack(dense);
    }
}

fn new_page() -> Box<Page> {
    // A zeroed `Vec<u64>` comes straight from the allocator's zeroed memory.
    vec![0u32; PAGE_LEN]
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
        let mut entities = vec![e(9, 1); 8];
        entities[7] = e(3, 2);
        sparse.insert(e(3, 2), 7);
        assert_eq!(sparse.get(e(3, 2), &entities), Some(7));
        assert_eq!(sparse.get(e(3, 1), &entities), None);
        assert_eq!(sparse.get(e(3, 3), &entities), None);
        assert_eq!(sparse.get(e(4, 2), &entities), None);
    }

    #[test]
    fn an_empty_slot_maps_nothing_even_beside_a_full_array() {
        let mut sparse = SparseIndex::default();
        let entities = [e(0, 1), e(1, 1)];
        sparse.insert(e(1, 1), 1);
        // Index 0 shares the page but its slot is empty.
        assert_eq!(sparse.get(e(0, 1), &entities), None);
        assert_eq!(sparse.get(e(1, 1), &entities), Some(1));
    }

    #[test]
    fn pages_are_allocated_only_where_used() {
        let mut sparse = SparseIndex::default();
        let entities = [e(10 * PAGE_LEN as u32 + 5, 1)];
        sparse.insert(entities[0], 0);
        assert_eq!(sparse.pages.iter().flatten().count(), 1);
        assert_eq!(sparse.get(entities[0], &entities), Some(0));
        assert_eq!(sparse.get(e(5, 1), &entities), None);
        assert_eq!(sparse.get(e(u32::MAX, 1), &entities), None);
    }

    #[test]
    fn remove_and_move() {
        let mut sparse = SparseIndex::default();
        sparse.insert(e(1, 1), 0);
        sparse.insert(e(2, 1), 1);
        sparse.set_dense(e(2, 1), 0);
        sparse.remove(1);
        let entities = [e(2, 1)];
        assert_eq!(sparse.get(e(1, 1), &entities), None);
        assert_eq!(sparse.get(e(2, 1), &entities), Some(0));
    }

    #[test]
    fn fill_range_maps_a_run_across_pages() {
        let mut sparse = SparseIndex::default();
        let first = PAGE_LEN as u32 - 3;
        sparse.fill_range(first, 2 * PAGE_LEN + 10, 7);
        assert_eq!(sparse.page_count(), 4);
        let entities: Vec<Entity> = (0..2 * PAGE_LEN as u32 + 17)
            .map(|i| e(first + i - 7, 1))
            .collect();
        for i in [0, 2, 3, PAGE_LEN as u32, 2 * PAGE_LEN as u32 + 9] {
            assert_eq!(sparse.get(e(first + i, 1), &entities), Some(7 + i as usize));
        }
        assert_eq!(sparse.get(e(first - 1, 1), &entities), None);
        assert_eq!(
            sparse.get(e(first + 2 * PAGE_LEN as u32 + 10, 1), &entities),
            None
        );
        sparse.fill_range(5, 0, 0);
        assert_eq!(sparse.page_count(), 4, "an empty range allocates nothing");
    }

    #[test]
    fn take_unmaps_only_the_exact_entity() {
        let mut sparse = SparseIndex::default();
        let entities = [e(4, 3)];
        sparse.insert(e(4, 3), 0);
        assert_eq!(sparse.take(e(4, 2), &entities), None);
        assert_eq!(sparse.take(e(4, 3), &entities), Some(0));
        assert_eq!(sparse.get(e(4, 3), &entities), None);
    }
}
