//! The paged sparse array of a sparse set: entity index -> dense position.

use super::loose_page::LoosePage;
use super::page_table::{GATE_MARK, LoosePages, Page, PageEntries, PageTable};
use crate::entity::Entity;

/// log2 of the number of slots in one page.
pub(crate) const PAGE_BITS: u32 = 12;
/// Slots per page: 4096 slots of 8 bytes, 32 KiB.
pub(crate) const PAGE_LEN: usize = 1 << PAGE_BITS;
pub(crate) const PAGE_MASK: usize = PAGE_LEN - 1;
/// A loose page that comes to hold this many slots becomes a full page: at
/// this share of its slots (an eighth) a full page costs 64 bytes per entity.
pub(crate) const PROMOTE_AT: usize = PAGE_LEN / 8;
/// Entities a set maps per full page it may allocate beyond its first.
const ENTITIES_PER_FULL_PAGE: usize = PAGE_LEN / 8;

/// Maps entity indices to dense positions, in pages of 4096 slots.
///
/// A slot holds the dense position and the version of the entity it maps, so
/// a lookup checks the version in the slot it has already loaded and goes
/// straight to the value: two dependent loads (slot, value) and two cache
/// lines per random read. A four-byte slot (the position alone) halves the
/// index, but its version check reads the dense entity array, a third line
/// per read: random reads and removals measured a fifth to a third slower
/// that way, for 4 bytes per entity per component.
///
/// A page is full (a plain array of slots) or loose ([`LoosePage`]: only the
/// slots in use). A set gets a full page while it maps at least
/// [`ENTITIES_PER_FULL_PAGE`] entities per full page beyond its first, or when
/// a loose page fills to [`PROMOTE_AT`] slots; otherwise the page is loose.
/// Entities spawned in order fill their pages, so in a running game every
/// page of a commonly held component is full and lookups take the two loads
/// above. The rule bounds the index by the entities it maps, whatever their
/// indices: a set of `n` entities spread one per page (a snapshot can list
/// them so) holds at most `1 + n / 512` full pages and `n` loose slots, where
/// a full page each would cost 32 KiB per entity.
///
/// A lookup reads its slot through the page table whatever the page is
/// ([`PageTable`]): a page number with no page reads an empty slot, and a
/// loose one reads a mark that sends the lookup, out of line, to the loose
/// page. So the common path is the loads of an index of full pages alone,
/// with no null check (what the other layouts cost is measured in
/// BENCHMARKS.md, "Why targets are missed", Random access).
///
/// Invariant: a non-empty slot for index `i` holds `pack(e, dense)`, where
/// `e` is the entity with index `i` in its sparse set and `dense` its
/// position in the set's dense arrays; for each page number, the page table
/// holds a full page, or its entry is the gate and the loose pages may hold
/// a page, which holds every mapped slot of that page number; `full_pages`
/// counts the full pages.
#[derive(Default)]
pub(crate) struct SparseIndex {
    pages: PageTable,
    full_pages: usize,
}

/// Looks entities up in a [`SparseIndex`] it borrows, holding the page
/// table's address and length itself: a loop of lookups keeps both in
/// registers instead of reading them through the index on every lookup. In a
/// loop bound by cache misses those extra loads cost more than their count
/// suggests, as they take room that the missing loads of later lookups need.
#[derive(Clone, Copy)]
pub(crate) struct SparseReader<'a> {
    pages: PageEntries<'a>,
}

/// The dense position of `entity` through `pages`.
#[inline(always)]
fn lookup(pages: PageEntries<'_>, entity: Entity) -> Option<usize> {
    let index = entity.index() as usize;
    let page_index = index >> PAGE_BITS;
    let slot = pages.slot(page_index, index & PAGE_MASK)?;
    match unpack(slot, entity) {
        Some(dense) => Some(dense),
        None if slot == GATE_MARK => loose_lookup(pages, page_index, entity),
        None => None,
    }
}

/// The dense position of `entity`, whose page number is loose.
#[cold]
#[inline(never)]
fn loose_lookup(pages: PageEntries<'_>, page_index: usize, entity: Entity) -> Option<usize> {
    loose_get(pages.loose(page_index), entity)
}

/// The dense position of `entity` in `loose`.
fn loose_get(loose: &LoosePages, entity: Entity) -> Option<usize> {
    let index = entity.index() as usize;
    let page = loose.get(index >> PAGE_BITS)?.as_deref()?;
    unpack(page.get(index)?, entity)
}

/// The slot of `index` in `loose`.
#[cold]
#[inline(never)]
fn loose_slot_mut(loose: &mut LoosePages, index: usize) -> Option<&mut u64> {
    loose
        .get_mut(index >> PAGE_BITS)?
        .as_deref_mut()?
        .get_mut(index)
}

impl SparseReader<'_> {
    /// A reader that maps nothing.
    pub(crate) const EMPTY: SparseReader<'static> = SparseReader {
        pages: PageEntries::NONE,
    };

    /// As [`SparseIndex::get`].
    #[inline]
    pub(crate) fn get(self, entity: Entity) -> Option<usize> {
        lookup(self.pages, entity)
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
/// matches no entity, nor does the gate's mark.
#[inline(always)]
fn unpack(slot: u64, entity: Entity) -> Option<usize> {
    ((slot >> 32) as u32 == entity.version()).then_some(slot as u32 as usize)
}

impl SparseIndex {
    /// The dense position of `entity`, if this exact entity (index and
    /// version) is mapped.
    #[inline]
    pub(crate) fn get(&self, entity: Entity) -> Option<usize> {
        lookup(self.pages.entries(), entity)
    }

    /// A reader for loops that look many entities up.
    #[inline]
    pub(crate) fn reader(&self) -> SparseReader<'_> {
        SparseReader {
            pages: self.pages.entries(),
        }
    }

    /// Maps `entity` to `dense`, making its page if needed.
    #[cfg(test)]
    pub(crate) fn insert(&mut self, entity: Entity, dense: u32) {
        self.slot_or_alloc(entity.index(), usize::MAX)
            .set(entity, dense);
    }

    /// The slot for `index`, making its page on first use. `mapped` is how
    /// many entities the set maps once this slot is filled: it decides
    /// whether a new page is full or loose.
    #[inline]
    pub(crate) fn slot_or_alloc(&mut self, index: u32, mapped: usize) -> SparseSlot<'_> {
        let index = index as usize;
        let page_index = index >> PAGE_BITS;
        if let Some(slot) = self.pages.full_slot(page_index, index & PAGE_MASK) {
            // SAFETY: `full_slot` gave a slot of a full page of this index's
            // table, valid for writes while the table is borrowed mutably and
            // unchanged; the slot borrows `self` mutably for as long as it lives.
            return SparseSlot(unsafe { &mut *slot.as_ptr() });
        }
        self.slot_on_new_page(index, mapped)
    }

    /// [`slot_or_alloc`](Self::slot_or_alloc) for an index whose page is not full.
    #[cold]
    #[inline(never)]
    fn slot_on_new_page(&mut self, index: usize, mapped: usize) -> SparseSlot<'_> {
        let page_index = index >> PAGE_BITS;
        if !self.place_full_page(page_index, 1, mapped) {
            return SparseSlot(self.loose_page(page_index).slot_or_insert(index));
        }
        let page = self
            .pages
            .full_mut(page_index)
            .expect("place_full_page made the page full");
        SparseSlot(&mut page[index & PAGE_MASK])
    }

    /// Gives page `page_index`, which has no full page, a full one if the
    /// set may have it now that `adding` more of its slots are about to be
    /// filled and the set will map `mapped` entities; returns whether the
    /// page is full. The page's loose slots move into the full page.
    #[cold]
    #[inline(never)]
    fn place_full_page(&mut self, page_index: usize, adding: usize, mapped: usize) -> bool {
        let loose = self
            .pages
            .loose()
            .get(page_index)
            .and_then(Option::as_deref)
            .map_or(0, LoosePage::len);
        let full_allowed = 1 + mapped / ENTITIES_PER_FULL_PAGE;
        if loose + adding < PROMOTE_AT && self.full_pages >= full_allowed {
            return false;
        }
        let mut page = new_page();
        let taken = (self.pages.loose_mut_if_any())
            .and_then(|loose| loose.get_mut(page_index))
            .and_then(Option::take);
        if let Some(loose) = taken {
            for (offset, slot) in loose.iter() {
                page[offset] = slot;
            }
        }
        self.pages.put(page_index, page);
        self.full_pages += 1;
        true
    }

    /// The loose page `page_index`, made empty if it has none; the page
    /// table's entry for it becomes the gate.
    fn loose_page(&mut self, page_index: usize) -> &mut LoosePage {
        self.pages.open_gate(page_index);
        let loose = self.pages.loose_mut();
        if page_index >= loose.len() {
            loose.resize_with(page_index + 1, || None);
        }
        loose[page_index].get_or_insert_with(LoosePage::new)
    }

    /// Maps the `count` entities `first`, `first + 1`, ... (one version,
    /// consecutive indices) to the dense positions from `first_dense`, in
    /// order: every slot must be empty. Each page of the range is looked up (or
    /// made) once, and a full page's slots are written in one loop, so a batch
    /// of fresh ids costs no per-slot page check.
    pub(crate) fn fill_range(&mut self, first: Entity, count: usize, first_dense: u32) {
        let mut index = first.index() as usize;
        let end = index + count;
        let mapped = first_dense as usize + count;
        let mut slot_value = pack(first, first_dense);
        while index < end {
            let page_index = index >> PAGE_BITS;
            let from = index & PAGE_MASK;
            let to = (from + (end - index)).min(PAGE_LEN);
            let full = self.pages.is_full(page_index)
                || self.place_full_page(page_index, to - from, mapped);
            // The position is in the low half; the last one written is at
            // most `u32::MAX - 1` (the set's limit), so the increment past
            // it reaches at most `u32::MAX` and never carries into the version.
            if full {
                let page = self.pages.full_mut(page_index).expect("the page is full");
                for slot in &mut page[from..to] {
                    debug_assert_eq!(*slot, 0, "slot {index} of a fresh range holds an entity");
                    *slot = slot_value;
                    slot_value += 1;
                }
            } else {
                let page = self.loose_page(page_index);
                for offset in from..to {
                    let slot = page.slot_or_insert(offset);
                    debug_assert_eq!(*slot, 0, "slot {index} of a fresh range holds an entity");
                    *slot = slot_value;
                    slot_value += 1;
                }
            }
            index += to - from;
        }
    }

    /// Moves an already mapped `entity` to `dense`.
    #[inline]
    pub(crate) fn set_dense(&mut self, entity: Entity, dense: u32) {
        let slot = self
            .slot_mut(entity.index() as usize)
            .expect("a moved entity is mapped");
        debug_assert!(unpack(*slot, entity).is_some(), "{entity:?} is mapped");
        *slot = pack(entity, dense);
    }

    /// Unmaps `entity` if this exact entity is mapped, returning its dense position.
    #[inline]
    pub(crate) fn take(&mut self, entity: Entity) -> Option<usize> {
        let index = entity.index() as usize;
        if let Some(slot) = self
            .pages
            .full_slot_mut(index >> PAGE_BITS, index & PAGE_MASK)
        {
            let dense = unpack(*slot, entity)?;
            *slot = 0;
            return Some(dense);
        }
        self.take_loose(entity)
    }

    /// [`take`](Self::take) for an entity whose page is not full.
    #[cold]
    #[inline(never)]
    fn take_loose(&mut self, entity: Entity) -> Option<usize> {
        let dense = loose_get(self.pages.loose(), entity)?;
        self.remove_loose(entity.index() as usize);
        Some(dense)
    }

    /// Forgets the loose slot for `index`. An emptied loose page stays, as
    /// a full one does: a page, once made, lasts as long as the index.
    #[cold]
    #[inline(never)]
    fn remove_loose(&mut self, index: usize) {
        let loose = self.pages.loose_mut_if_any();
        if let Some(Some(page)) = loose.and_then(|loose| loose.get_mut(index >> PAGE_BITS)) {
            page.remove(index);
        }
    }

    /// Slots that map an entity.
    #[cfg(test)]
    pub(crate) fn mapped_count(&self) -> usize {
        let full: usize = self
            .pages
            .full_pages()
            .map(|page| page.iter().filter(|&&slot| slot != 0).count())
            .sum();
        let loose: usize = self
            .pages
            .loose()
            .iter()
            .flatten()
            .map(|page| page.iter().filter(|&(_, slot)| slot != 0).count())
            .sum();
        full + loose
    }

    /// Pages made, full and loose.
    pub(crate) fn page_count(&self) -> usize {
        self.full_pages + self.pages.loose().iter().flatten().count()
    }

    /// Bytes held on the heap: the page tables and the pages.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.pages.heap_bytes()
            + self.full_pages * size_of::<Page>()
            + self.pages.loose().capacity() * size_of::<Option<Box<LoosePage>>>()
            + self
                .pages
                .loose()
                .iter()
                .flatten()
                .map(|page| page.heap_bytes())
                .sum::<usize>()
    }

    /// Unmaps the entity with `index`.
    #[inline]
    pub(crate) fn remove(&mut self, index: u32) {
        let index = index as usize;
        if let Some(slot) = self
            .pages
            .full_slot_mut(index >> PAGE_BITS, index & PAGE_MASK)
        {
            *slot = 0;
        } else {
            self.remove_loose(index);
        }
    }

    #[inline]
    fn slot_mut(&mut self, index: usize) -> Option<&mut u64> {
        let page_index = index >> PAGE_BITS;
        if let Some(slot) = self.pages.full_slot(page_index, index & PAGE_MASK) {
            // SAFETY: `full_slot` gave a slot of a full page of this index's
            // table, valid for writes while the table is borrowed mutably and
            // unchanged; the result borrows `self` mutably for as long as it lives.
            return Some(unsafe { &mut *slot.as_ptr() });
        }
        loose_slot_mut(self.pages.loose_mut_if_any()?, index)
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
        assert_eq!(sparse.pages.full_pages().count(), 1);
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

    /// Maps `entity` as a set that already maps `mapped - 1` others would.
    fn add(sparse: &mut SparseIndex, entity: Entity, dense: u32, mapped: usize) {
        sparse
            .slot_or_alloc(entity.index(), mapped)
            .set(entity, dense);
    }

    #[test]
    fn entities_spread_one_per_page_get_loose_pages() {
        let mut sparse = SparseIndex::default();
        // Fewer under miri, whose every page costs seconds.
        let count: u32 = if cfg!(miri) { 40 } else { 2000 };
        let spread: Vec<Entity> = (0..count).map(|i| e(i * PAGE_LEN as u32 + 7, 1)).collect();
        for (dense, &entity) in spread.iter().enumerate() {
            add(&mut sparse, entity, dense as u32, dense + 1);
        }
        let count = count as usize;
        assert_eq!(sparse.full_pages, 1 + count / ENTITIES_PER_FULL_PAGE);
        assert_eq!(sparse.mapped_count(), count);
        for (dense, &entity) in spread.iter().enumerate() {
            assert_eq!(sparse.get(entity), Some(dense));
            assert_eq!(sparse.get(e(entity.index(), 2)), None, "another version");
            assert_eq!(sparse.get(e(entity.index() + 1, 1)), None, "a neighbour");
        }
        let full_bytes = count * size_of::<Page>();
        assert!(
            sparse.heap_bytes() < full_bytes / 4,
            "{} bytes where a full page each would take {full_bytes}",
            sparse.heap_bytes()
        );
        for (dense, &entity) in spread.iter().enumerate().rev() {
            assert_eq!(sparse.take(entity), Some(dense));
        }
        assert_eq!(sparse.mapped_count(), 0);
        assert_eq!(sparse.page_count(), count, "pages, once made, last");
    }

    #[test]
    fn a_loose_page_becomes_full_when_it_fills() {
        let mut sparse = SparseIndex::default();
        // The set's first full page goes to page 0, so page 3 starts loose.
        add(&mut sparse, e(0, 1), 0, 1);
        let base = 3 * PAGE_LEN as u32;
        for offset in 0..PROMOTE_AT as u32 - 1 {
            add(&mut sparse, e(base + offset * 2, 1), offset + 1, 2);
        }
        assert_eq!(sparse.full_pages, 1);
        assert!(sparse.pages.loose()[3].is_some());
        let last = e(base + 4000, 5);
        add(&mut sparse, last, 9999, 2);
        assert_eq!(
            sparse.full_pages, 2,
            "the page filled to the promotion point"
        );
        assert!(sparse.pages.loose().iter().flatten().next().is_none());
        for offset in 0..PROMOTE_AT as u32 - 1 {
            assert_eq!(
                sparse.get(e(base + offset * 2, 1)),
                Some(offset as usize + 1)
            );
        }
        assert_eq!(sparse.get(last), Some(9999));
        assert_eq!(sparse.mapped_count(), PROMOTE_AT + 1);
    }

    #[test]
    fn loose_slots_move_and_unmap_like_full_ones() {
        let mut sparse = SparseIndex::default();
        add(&mut sparse, e(0, 1), 0, 1);
        let (a, b) = (e(5 * PAGE_LEN as u32, 1), e(5 * PAGE_LEN as u32 + 1, 2));
        add(&mut sparse, a, 1, 2);
        add(&mut sparse, b, 2, 3);
        assert!(
            sparse.pages.loose()[5].is_some(),
            "two entities do not pay for a page"
        );
        sparse.set_dense(b, 1);
        sparse.remove(a.index());
        assert_eq!(sparse.get(a), None);
        assert_eq!(sparse.get(b), Some(1));
        assert_eq!(sparse.reader().get(b), Some(1));
        assert_eq!(
            sparse.take(e(b.index(), 1)),
            None,
            "another version stays mapped"
        );
        assert_eq!(sparse.take(b), Some(1));
        assert_eq!(sparse.mapped_count(), 1);
    }

    #[test]
    fn a_short_range_on_a_new_page_is_loose_and_a_long_one_full() {
        let mut sparse = SparseIndex::default();
        sparse.fill_range(e(0, 1), 10, 0);
        sparse.fill_range(e(9 * PAGE_LEN as u32, 1), 3, 10);
        sparse.fill_range(e(20 * PAGE_LEN as u32, 1), PROMOTE_AT, 13);
        assert_eq!(sparse.full_pages, 2);
        assert!(sparse.pages.loose()[9].is_some());
        for i in 0..3 {
            assert_eq!(
                sparse.get(e(9 * PAGE_LEN as u32 + i, 1)),
                Some(10 + i as usize)
            );
        }
        let last = 20 * PAGE_LEN as u32 + PROMOTE_AT as u32 - 1;
        assert_eq!(sparse.get(e(last, 1)), Some(13 + PROMOTE_AT - 1));
    }

    #[test]
    fn entities_added_in_order_fill_full_pages() {
        let mut sparse = SparseIndex::default();
        let count = 5 * PAGE_LEN + 3;
        for i in 0..count {
            add(&mut sparse, e(i as u32, 1), i as u32, i + 1);
        }
        assert_eq!(sparse.full_pages, 6);
        assert!(sparse.pages.loose().iter().flatten().next().is_none());
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
