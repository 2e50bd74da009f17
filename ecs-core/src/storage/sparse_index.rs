//! The paged sparse array of a sparse set: entity index -> (version, dense position).

use crate::entity::Entity;

/// log2 of the number of slots in one page.
pub(crate) const PAGE_BITS: u32 = 12;
/// Slots per page: 4096 slots of 8 bytes, 32 KiB.
pub(crate) const PAGE_LEN: usize = 1 << PAGE_BITS;
const PAGE_MASK: usize = PAGE_LEN - 1;

/// One page of slots. A slot packs `(version << 32) | dense`; 0 is empty, which
/// no occupied slot can be because versions start at 1.
type Page = [u64; PAGE_LEN];

/// Maps entity indices to dense positions, allocating pages of 4096 slots on first use.
///
/// A slot also stores the version of the entity it maps, so a lookup answers
/// "is this exact entity here, and where" from the slot alone, without reading
/// the dense entity array.
///
/// Invariant: a non-empty slot for index `i` holds the version of the entity with
/// index `i` that its sparse set holds, and that entity's dense position.
#[derive(Default)]
pub(crate) struct SparseIndex {
    pages: Vec<Option<Box<Page>>>,
}

impl SparseIndex {
    /// An index that maps nothing.
    pub(crate) const fn new() -> Self {
        Self { pages: Vec::new() }
    }
}

#[inline]
fn pack(entity: Entity, dense: u32) -> u64 {
    (u64::from(entity.version()) << 32) | u64::from(dense)
}

impl SparseIndex {
    /// The dense position of `entity`, if this exact entity (index and version) is mapped.
    #[inline]
    pub(crate) fn get(&self, entity: Entity) -> Option<usize> {
        let index = entity.index() as usize;
        let page = self.pages.get(index >> PAGE_BITS)?.as_deref()?;
        let slot = page[index & PAGE_MASK];
        if (slot >> 32) as u32 == entity.version() {
            Some(slot as u32 as usize)
        } else {
            None
        }
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

    /// Moves an already mapped `entity` to `dense`.
    #[inline]
    pub(crate) fn set_dense(&mut self, entity: Entity, dense: u32) {
        let index = entity.index() as usize;
        let slot = self.slot_mut(index);
        debug_assert_eq!((*slot >> 32) as u32, entity.version());
        *slot = pack(entity, dense);
    }

    /// Unmaps `entity` if this exact entity is mapped, returning its dense position.
    #[inline]
    pub(crate) fn take(&mut self, entity: Entity) -> Option<usize> {
        let index = entity.index() as usize;
        let page = self.pages.get_mut(index >> PAGE_BITS)?.as_deref_mut()?;
        let slot = &mut page[index & PAGE_MASK];
        if (*slot >> 32) as u32 != entity.version() {
            return None;
        }
        let dense = *slot as u32 as usize;
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
        let slot = *self.0;
        ((slot >> 32) as u32 == entity.version()).then_some(slot as u32 as usize)
    }

    /// Whether the slot maps nothing.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        *self.0 == 0
    }

    /// Maps the slot to `entity` at `dense`.
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
    fn pages_are_allocated_only_where_used() {
        let mut sparse = SparseIndex::default();
        sparse.insert(e(10 * PAGE_LEN as u32 + 5, 1), 0);
        assert_eq!(sparse.pages.iter().flatten().count(), 1);
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
}
