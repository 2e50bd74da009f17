//! The page table of a sparse index: per page number, a full page of slots,
//! or a stand-in page that every lookup misses in, and through which a miss
//! finds the index's loose pages.

use core::ptr::NonNull;

use super::loose_page::LoosePage;
use super::sparse_index::PAGE_LEN;

/// One page of slots. A slot holds the mapped entity's version in its high
/// 32 bits and its dense position in the low 32; versions are never zero, so
/// 0 is an empty slot and a fresh page is zeroed memory.
pub(crate) type Page = [u64; PAGE_LEN];

/// The loose pages of an index, by page number.
pub(crate) type LoosePages = Vec<Option<Box<LoosePage>>>;

/// What every slot of a [`Gate`] holds: version 0, so it maps no entity, and
/// a position no full page's slot has alongside version 0 (an empty slot is 0).
pub(crate) const GATE_MARK: u64 = u32::MAX as u64;

/// The page every entry without a page points at: all slots empty, never
/// written. A lookup through it misses like one in a full page, so the
/// common path needs no null check.
static EMPTY: Page = [0; PAGE_LEN];

/// The stand-in page of an index's loose pages, and the loose pages: a loose
/// page number's entry points here. A lookup reads a slot of `slots` as it
/// would a full page's, finds [`GATE_MARK`], and only then, out of line,
/// reads `loose` at the same address; the common path is the same loads as
/// in a table of full pages alone, and a lookup needs no second pointer.
#[repr(C)]
struct Gate {
    slots: Page,
    loose: LoosePages,
}

/// Full pages and the loose pages' gate, by page number.
///
/// Invariant: every entry is [`EMPTY`]'s address, `gate` (once made), or a
/// pointer from `Box::into_raw` of a full page this table owns, distinct
/// from every other entry; `gate`, once made, is from `Box::into_raw` and
/// owned here. Owned memory is freed when the table drops. A shared
/// reference to the table gives only reads of its pages and gate, and a
/// mutable one is needed to write any, so they are borrowed as a
/// `Vec<Box<Page>>`'s would be. Entries are raw pointers, never narrowed to
/// a `&Page`, so an entry to the gate may read its `loose` field.
#[derive(Default)]
pub(crate) struct PageTable {
    entries: Vec<Entry>,
    gate: Option<Entry>,
}

/// One entry of a [`PageTable`]: a pointer the table's invariant governs.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Entry(NonNull<Page>);

// SAFETY: an entry points at `EMPTY`, an immutable static, or at memory its
// table owns as a `Box` would (the table's invariant): moving an entry, or
// the table, to another thread moves nothing a thread can own, and what it
// points at (integers, loose pages of integers) is `Send`.
unsafe impl Send for Entry {}
// SAFETY: through a shared entry, as through a shared table, memory is only
// read (the table writes only from `&mut self`), and what it points at is
// `Sync`.
unsafe impl Sync for Entry {}

impl Entry {
    fn empty() -> Self {
        Entry(NonNull::from(&EMPTY))
    }
}

/// The entries of a [`PageTable`], borrowed for lookups.
#[derive(Clone, Copy)]
pub(crate) struct PageEntries<'a>(&'a [Entry]);

impl<'a> PageEntries<'a> {
    /// Entries of no page.
    pub(crate) const NONE: PageEntries<'static> = PageEntries(&[]);

    /// The slot at `offset` (below [`PAGE_LEN`]) of page `page_index`'s
    /// entry: of a full page, or 0 (empty) or [`GATE_MARK`] (loose) for a
    /// page number without one; `None` past the table's end.
    #[inline(always)]
    pub(crate) fn slot(self, page_index: usize, offset: usize) -> Option<u64> {
        let Entry(page) = *self.0.get(page_index)?;
        debug_assert!(offset < PAGE_LEN);
        // SAFETY: the entry points at `EMPTY`, the gate's `slots` (its first
        // field, `repr(C)`) or a full page (invariant), each `PAGE_LEN`
        // slots that live while the table is borrowed; `offset` is below
        // `PAGE_LEN` (callers mask it); the table writes no page while it is
        // borrowed shared.
        Some(unsafe { page.as_ptr().cast::<u64>().add(offset).read() })
    }

    /// The loose pages behind page `page_index`'s entry, whose slot read
    /// [`GATE_MARK`].
    #[inline]
    pub(crate) fn loose(self, page_index: usize) -> &'a LoosePages {
        let Entry(page) = self.0[page_index];
        // SAFETY: only the gate's slots hold `GATE_MARK`, so the entry is the
        // gate's pointer, from `Box::into_raw` of the whole `Gate` and so
        // valid for its `loose` field; the table, borrowed shared, writes no
        // loose page while the reference is used.
        unsafe { &(*page.as_ptr().cast::<Gate>()).loose }
    }
}

impl PageTable {
    /// The entries, for lookups.
    #[inline(always)]
    pub(crate) fn entries(&self) -> PageEntries<'_> {
        PageEntries(&self.entries)
    }

    /// Whether the entry is neither the empty page nor the gate.
    #[inline(always)]
    fn owns(&self, entry: Entry) -> bool {
        entry != Entry::empty() && Some(entry) != self.gate
    }

    /// The slot at `offset` (below [`PAGE_LEN`]) of `page_index`'s full
    /// page, if it has one, as a pointer that borrows nothing: for a caller
    /// that returns a borrow of the slot and otherwise goes on to change the
    /// table. The page is this table's (invariant), so the pointer is valid
    /// for writes while the table is borrowed mutably and not otherwise
    /// changed.
    ///
    /// Whether the page is full is read from the slot itself, which the
    /// caller reads or writes next anyway: the empty page is told by its
    /// address, a constant, and the gate by its mark, so no field of the
    /// table is loaded for it.
    #[inline(always)]
    pub(crate) fn full_slot(&mut self, page_index: usize, offset: usize) -> Option<NonNull<u64>> {
        let Entry(page) = *self.entries.get(page_index)?;
        if core::ptr::eq(page.as_ptr(), &EMPTY) {
            return None;
        }
        debug_assert!(offset < PAGE_LEN);
        // SAFETY: the entry is the gate's slots or a full page (invariant,
        // and not `EMPTY`), `PAGE_LEN` slots either way, valid while the
        // table lives; `offset` is below `PAGE_LEN` (callers mask it).
        let slot = unsafe { page.cast::<u64>().add(offset) };
        // SAFETY: `slot` is within a live page of `PAGE_LEN` initialised
        // slots (the entry is the gate's or a full page's, and `offset` is
        // below `PAGE_LEN`); `&mut self` rules out writes by anyone else.
        if unsafe { slot.read() } == GATE_MARK {
            return None;
        }
        Some(slot)
    }

    /// [`full_slot`](Self::full_slot), borrowed.
    #[inline(always)]
    pub(crate) fn full_slot_mut(&mut self, page_index: usize, offset: usize) -> Option<&mut u64> {
        let slot = self.full_slot(page_index, offset)?;
        // SAFETY: `full_slot` gave a slot of a full page this table owns and
        // no other entry points at (invariant); `&mut self` rules out every
        // other borrow of the table and so of its pages.
        Some(unsafe { &mut *slot.as_ptr() })
    }

    /// The full page for `page_index`, if there is one.
    #[inline(always)]
    pub(crate) fn full_mut(&mut self, page_index: usize) -> Option<&mut Page> {
        let entry = *self.entries.get(page_index)?;
        if !self.owns(entry) {
            return None;
        }
        // SAFETY: the entry is neither `EMPTY` nor the gate, so it is a full
        // page this table owns and no other entry points at (invariant);
        // `&mut self` rules out every other borrow of the table and so of
        // its pages.
        Some(unsafe { &mut *entry.0.as_ptr() })
    }

    /// Whether `page_index` has a full page.
    #[inline(always)]
    pub(crate) fn is_full(&self, page_index: usize) -> bool {
        self.entries
            .get(page_index)
            .is_some_and(|&entry| self.owns(entry))
    }

    /// Makes `page` the full page of `page_index`, which must have none.
    pub(crate) fn put(&mut self, page_index: usize, page: Box<Page>) {
        assert!(
            !self.is_full(page_index),
            "page {page_index} is already full"
        );
        self.cover(page_index);
        self.entries[page_index] = Entry(NonNull::from(Box::leak(page)));
    }

    /// Points `page_index`'s entry at the gate, making the gate if needed:
    /// the page number is loose.
    pub(crate) fn open_gate(&mut self, page_index: usize) {
        assert!(!self.is_full(page_index), "page {page_index} is full");
        self.cover(page_index);
        let gate = self.gate_entry();
        self.entries[page_index] = gate;
    }

    /// The gate's entry, made on first use.
    fn gate_entry(&mut self) -> Entry {
        *self.gate.get_or_insert_with(|| {
            let gate = Box::new(Gate {
                slots: [GATE_MARK; PAGE_LEN],
                loose: Vec::new(),
            });
            Entry(NonNull::from(Box::leak(gate)).cast::<Page>())
        })
    }

    /// The loose pages, for reading.
    pub(crate) fn loose(&self) -> &LoosePages {
        match self.gate {
            // SAFETY: the gate is from `Box::into_raw` of a `Gate` this table
            // owns (invariant); `&self` allows reads only.
            Some(Entry(gate)) => unsafe { &(*gate.as_ptr().cast::<Gate>()).loose },
            None => const { &Vec::new() },
        }
    }

    /// The loose pages, for writing, if the gate was made.
    pub(crate) fn loose_mut_if_any(&mut self) -> Option<&mut LoosePages> {
        let Entry(gate) = self.gate?;
        // SAFETY: the gate is from `Box::into_raw` of a `Gate` this table
        // owns (invariant); `&mut self` rules out every other borrow of the
        // table and so of the gate.
        Some(unsafe { &mut (*gate.as_ptr().cast::<Gate>()).loose })
    }

    /// The loose pages, for writing; the gate is made if needed.
    pub(crate) fn loose_mut(&mut self) -> &mut LoosePages {
        let Entry(gate) = self.gate_entry();
        // SAFETY: the gate is from `Box::into_raw` of a `Gate` this table
        // owns (invariant); `&mut self` rules out every other borrow of the
        // table and so of the gate.
        unsafe { &mut (*gate.as_ptr().cast::<Gate>()).loose }
    }

    /// Gives `page_index` an entry (the empty page) if the table ends before it.
    fn cover(&mut self, page_index: usize) {
        if page_index >= self.entries.len() {
            self.entries.resize(page_index + 1, Entry::empty());
        }
    }

    /// The full pages, in page order.
    #[cfg(test)]
    pub(crate) fn full_pages(&self) -> impl Iterator<Item = &Page> {
        self.entries
            .iter()
            .filter(|&&entry| self.owns(entry))
            // SAFETY: an owned entry is a full page this table owns
            // (invariant); `&self` allows reads only.
            .map(|entry| unsafe { entry.0.as_ref() })
    }

    /// Bytes on the heap: the table and the gate's page (not the full or
    /// loose pages).
    pub(crate) fn heap_bytes(&self) -> usize {
        self.entries.capacity() * size_of::<Entry>() + self.gate.map_or(0, |_| size_of::<Gate>())
    }
}

impl Drop for PageTable {
    fn drop(&mut self) {
        for index in 0..self.entries.len() {
            let entry = self.entries[index];
            if self.owns(entry) {
                // SAFETY: an owned entry is a full page from `Box::into_raw`
                // (through `Box::leak`) that this table owns and no other
                // entry points at (invariant); the table is going away, so
                // nothing reads it after this.
                drop(unsafe { Box::from_raw(entry.0.as_ptr()) });
            }
        }
        if let Some(Entry(gate)) = self.gate.take() {
            // SAFETY: the gate is from `Box::into_raw` of a `Gate` this table
            // owns (invariant), dropped once: `take` cleared it.
            drop(unsafe { Box::from_raw(gate.as_ptr().cast::<Gate>()) });
        }
    }
}
