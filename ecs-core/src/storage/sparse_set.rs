//! One component type's storage: a sparse index over dense, parallel arrays.

use core::mem::ManuallyDrop;
use core::ptr::NonNull;

use super::sparse_index::{SparseIndex, SparseSlot};
use crate::component::Component;
use crate::entity::{Entity, EntityMap};
use crate::util::DeferredPanic;

mod layout;
mod rollback;

pub(crate) use rollback::ColumnCopy;

/// The ids a batch spawn's run gives the values it wrote past the end of a
/// storage ([`SparseSet::commit_run`]).
///
/// `pub` only so the sealed bundle trait can name it; the module is private.
#[derive(Clone, Copy, Debug)]
pub enum RunIds<'a> {
    /// Fresh ids: `first` and the `count - 1` after it, index by index, all
    /// with `first`'s version.
    Fresh { first: Entity, count: usize },
    /// Ids reused from the free list, in the order their values were written.
    Reused(&'a [Entity]),
}

impl RunIds<'_> {
    /// How many ids, so how many values the run commits.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        match self {
            RunIds::Fresh { count, .. } => *count,
            RunIds::Reused(ids) => ids.len(),
        }
    }
}

/// The storage of one component type.
///
/// ```text
///  sparse (paged, by entity index)      dense, same order in both arrays
///  [ 0: - ][ 1: v1@0 ][ 2: - ][ 3: v2@1 ] entities: [ 1v1, 3v2 ]
///                                         data:     [ A,   B   ]
///                                         added:    [ a1,  a2  ]  (tracked types only)
///                                         changed:  [ c1,  c2  ]  (tracked types only)
/// ```
///
/// Inserting appends to the dense arrays; removing moves the last element into
/// the hole, so both are O(1) and no other entity's component moves anywhere
/// else. Iteration walks the dense arrays, which are contiguous. A zero-sized
/// `T` (a tag) makes `data` a `Vec` that never allocates.
///
/// `pub` only so the sealed bundle trait can name it; the module is private.
///
/// Invariants, kept by every method:
/// - `entities.len() == data.len()`;
/// - `added.len() == changed.len() == entities.len()` if `T::TRACK_CHANGES`,
///   and both are empty (and never allocate) otherwise; `added[i]` and
///   `changed[i]` are the ticks of `data[i]`;
/// - for every `i < entities.len()`, `sparse.get(entities[i]) == Some(i)`;
/// - the sparse index maps no entity that is not in `entities`.
pub struct SparseSet<T> {
    sparse: SparseIndex,
    entities: Vec<Entity>,
    data: Vec<T>,
    /// When each value was added, for a type that tracks changes; in the
    /// same order as `data`.
    added: Vec<u64>,
    /// When each value was last written (or added), likewise. Apart from
    /// `added`, so that `Changed` walks only the ticks it compares.
    changed: Vec<u64>,
    /// Bumped whenever an entity already here changes position (a removal, a
    /// swap, a clear); appending leaves it alone. Queries key what they learned
    /// about the dense order on it.
    reorders: u64,
}

/// The heap bytes of one storage, by structure (capacity, not length).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct StorageHeap {
    /// The paged sparse index: its page table and pages.
    pub(crate) sparse: usize,
    /// The dense entity ids.
    pub(crate) ids: usize,
    /// The component values.
    pub(crate) data: usize,
    /// The added and changed ticks of a type that tracks changes.
    pub(crate) ticks: usize,
}

impl<T> Default for SparseSet<T> {
    fn default() -> Self {
        Self {
            sparse: SparseIndex::default(),
            entities: Vec::new(),
            data: Vec::new(),
            added: Vec::new(),
            changed: Vec::new(),
            reorders: 0,
        }
    }
}

impl<T: Component> SparseSet<T> {
    /// Whether `entity` (index and version) holds this component.
    #[inline]
    pub(crate) fn contains(&self, entity: Entity) -> bool {
        self.sparse.get(entity).is_some()
    }

    #[inline]
    pub(crate) fn get(&self, entity: Entity) -> Option<&T> {
        let dense = self.sparse.get(entity)?;
        Some(&self.data[dense])
    }

    /// `entity`'s value, with its changed tick when `T` tracks changes.
    #[inline]
    pub(crate) fn get_mut(&mut self, entity: Entity) -> Option<(&mut T, Option<&mut u64>)> {
        let dense = self.sparse.get(entity)?;
        let changed = if T::TRACK_CHANGES {
            Some(&mut self.changed[dense])
        } else {
            None
        };
        Some((&mut self.data[dense], changed))
    }

    /// Adds `value` for `entity` as added and changed at `tick`, or replaces
    /// the value it has, as changed at `tick`, and returns the old one.
    #[inline(always)]
    pub(crate) fn insert(&mut self, entity: Entity, value: T, tick: u64) -> Option<T> {
        let Self {
            sparse,
            entities,
            data,
            added,
            changed,
            ..
        } = self;
        // One walk to the slot serves both the look for a value to replace
        // and the append.
        let slot = sparse.slot_or_alloc(entity.index(), entities.len() + 1);
        if let Some(dense) = slot.get(entity) {
            if T::TRACK_CHANGES {
                changed[dense] = tick;
            }
            return Some(core::mem::replace(&mut data[dense], value));
        }
        append(slot, entities, data, (added, changed), entity, value, tick);
        None
    }

    /// Appends a component for `entity`, added at `tick`, which must not be in
    /// the set: a freshly allocated entity, whose index every set released on
    /// despawn.
    ///
    /// Always inlined: a batch spawn runs it once per component per entity,
    /// and a call per component cost a fifth of the batch.
    #[inline(always)]
    pub(crate) fn push_new(&mut self, entity: Entity, value: T, tick: u64) {
        let Self {
            sparse,
            entities,
            data,
            added,
            changed,
            ..
        } = self;
        let slot = sparse.slot_or_alloc(entity.index(), entities.len() + 1);
        append(slot, entities, data, (added, changed), entity, value, tick);
    }

    /// How many values a run of fresh entities can still write past the end
    /// of the data (through [`fresh_tail`](Self::fresh_tail)) and then
    /// [`commit_run`](Self::commit_run) without any dense array growing or
    /// the set passing its size limit.
    #[inline]
    pub(crate) fn fresh_room(&self) -> usize {
        let len = self.entities.len();
        let mut room = (self.entities.capacity() - len)
            .min(self.data.capacity() - len)
            .min(u32::MAX as usize - len);
        if T::TRACK_CHANGES {
            room = room
                .min(self.added.capacity() - len)
                .min(self.changed.capacity() - len);
        }
        room
    }

    /// Makes room for at least `additional` more values of a fresh run, every
    /// dense array growing by the amortized policy of `Vec`.
    ///
    /// # Panics
    /// If the set is full (`u32::MAX` values), or on capacity overflow.
    pub(crate) fn reserve_fresh(&mut self, additional: usize) {
        assert_fits(self.entities.len() + 1);
        self.reserve(additional);
    }

    /// Where the next value of a fresh run goes: one past the last value.
    /// Values written there and on belong to no one until
    /// [`commit_run`](Self::commit_run) takes them.
    ///
    /// # Safety
    /// `set` points at a live `SparseSet<T>` that no one else references
    /// during the call.
    #[inline]
    pub(crate) unsafe fn fresh_tail(set: NonNull<Self>) -> *mut T {
        // SAFETY: the set is live and unaliased (caller's contract); `len`
        // is within the allocation (or zero past a dangling pointer).
        unsafe {
            let data = &mut (*set.as_ptr()).data;
            data.as_mut_ptr().add(data.len())
        }
    }

    /// Takes in the values written at [`fresh_tail`](Self::fresh_tail) as the
    /// components of `ids` (none of them in the set), one value per id in
    /// order, added at `tick`: each dense array is extended once, and a run of
    /// fresh ids writes its sparse slots as one range. Grows nothing: the count
    /// is within [`fresh_room`](Self::fresh_room).
    ///
    /// # Safety
    /// `ids.len() <= self.fresh_room()`, and the first `ids.len()` places from
    /// `fresh_tail` hold initialized values, which the set owns from here on.
    #[inline]
    pub(crate) unsafe fn commit_run(&mut self, ids: RunIds<'_>, tick: u64) {
        let count = ids.len();
        debug_assert!(count <= self.fresh_room());
        let start = self.entities.len();
        let end = start + count;
        // SAFETY: the values are initialized and within capacity (caller's
        // contract); the set takes them over.
        unsafe { self.data.set_len(end) };
        match ids {
            RunIds::Fresh { first, count } => {
                self.entities
                    .extend((0..count as u32).map(|offset| first.shifted(offset)));
                self.sparse.fill_range(first, count, start as u32);
            }
            RunIds::Reused(ids) => {
                self.entities.extend_from_slice(ids);
                for (offset, &entity) in ids.iter().enumerate() {
                    let slot = self
                        .sparse
                        .slot_or_alloc(entity.index(), start + offset + 1);
                    debug_assert!(slot.is_empty(), "slot of {entity:?} holds another entity");
                    // Below `u32::MAX`: `start + count` is within the set's limit.
                    slot.set(entity, (start + offset) as u32);
                }
            }
        }
        if T::TRACK_CHANGES {
            self.added.resize(end, tick);
            self.changed.resize(end, tick);
        }
    }

    /// Removes `entity`'s component and returns it; the last element fills the hole.
    #[inline]
    pub(crate) fn remove(&mut self, entity: Entity) -> Option<T> {
        let dense = self.sparse.take(entity)?;
        self.reorders += 1;
        self.entities.swap_remove(dense);
        if T::TRACK_CHANGES {
            self.added.swap_remove(dense);
            self.changed.swap_remove(dense);
        }
        let value = self.data.swap_remove(dense);
        if let Some(&moved) = self.entities.get(dense) {
            self.sparse.set_dense(moved, dense as u32);
        }
        Some(value)
    }

    /// Swaps the entities (and their components) at dense positions `a` and `b`.
    ///
    /// # Panics
    /// If either position is out of range.
    pub(crate) fn swap_dense(&mut self, a: usize, b: usize) {
        if a == b {
            return;
        }
        self.reorders += 1;
        self.entities.swap(a, b);
        self.data.swap(a, b);
        if T::TRACK_CHANGES {
            self.added.swap(a, b);
            self.changed.swap(a, b);
        }
        self.sparse.set_dense(self.entities[a], a as u32);
        self.sparse.set_dense(self.entities[b], b as u32);
    }

    /// Removes every component. Values are dropped after the index is emptied,
    /// so a panicking `Drop` leaves a consistent, empty set behind; every
    /// value is dropped even past panicking `Drop`s, and the first panic
    /// resumes once the set is empty.
    pub(crate) fn clear(&mut self) {
        self.reorders += 1;
        for entity in self.entities.drain(..) {
            self.sparse.remove(entity.index());
        }
        self.added.clear();
        self.changed.clear();
        let mut panics = DeferredPanic::default();
        panics.drop_each(self.data.drain(..));
        panics.resume();
    }

    /// Rewrites the entity ids held inside every value through `map`
    /// (for a type with `#[entity]` fields; a no-op otherwise).
    pub(crate) fn map_entities(&mut self, map: &EntityMap) {
        if T::MAPS_ENTITIES {
            let mut mapper = map;
            for value in &mut self.data {
                value.map_entities(&mut mapper);
            }
        }
    }

    /// Moves every component of `from` to the end of this set, each for the
    /// entity `map` gives its owner (`None`: every entity keeps its id), as
    /// added and changed at `tick`; `from` is left empty. Whole arrays move
    /// (one append per array, one sparse slot written per entity). Into an
    /// empty set with every id kept (a snapshot's staging storage, built by
    /// inserts alone, moving into a fresh world) the sparse index moves too.
    /// Returns the dense position of the first moved value.
    ///
    /// # Panics
    /// If an entity of `from` is not in `map`, before anything changes.
    pub(crate) fn absorb(
        &mut self,
        from: &mut SparseSet<T>,
        map: Option<&EntityMap>,
        tick: u64,
    ) -> usize {
        let start = self.entities.len();
        let moved = from.entities.len();
        // Everything that can panic comes first, so the set never holds an
        // entity without its value.
        assert_fits(start + moved);
        if let Some(map) = map {
            assert!(
                from.entities.iter().all(|&old| map.get(old).is_some()),
                "every entity of the merged world has a new id"
            );
        } else if start == 0 {
            core::mem::swap(&mut self.sparse, &mut from.sparse);
            core::mem::swap(&mut self.entities, &mut from.entities);
            core::mem::swap(&mut self.data, &mut from.data);
            if T::TRACK_CHANGES {
                self.added.clear();
                self.added.resize(moved, tick);
                self.changed.clear();
                self.changed.resize(moved, tick);
            }
            // `from` holds what this set held: nothing.
            from.clear();
            return 0;
        }
        self.reserve(moved);
        for (offset, &old) in from.entities.iter().enumerate() {
            let entity = map.and_then(|map| map.get(old)).unwrap_or(old);
            let slot = self
                .sparse
                .slot_or_alloc(entity.index(), start + offset + 1);
            debug_assert!(slot.is_empty(), "slot of {entity:?} holds another entity");
            slot.set(entity, (start + offset) as u32);
            self.entities.push(entity);
        }
        if self.data.is_empty() {
            // A type new here (a level's own components) takes the buffer
            // as it is: no copy at all.
            core::mem::swap(&mut self.data, &mut from.data);
        } else {
            self.data.append(&mut from.data);
        }
        if T::TRACK_CHANGES {
            self.added.resize(start + moved, tick);
            self.changed.resize(start + moved, tick);
        }
        // `from`'s values are here now; emptying it drops nothing.
        from.clear();
        start
    }

    /// The values, in dense order (that of [`entities`](Self::entities)).
    #[inline]
    pub(crate) fn values(&self) -> &[T] {
        &self.data
    }

    /// Reserves room for `additional` more components.
    pub(crate) fn reserve(&mut self, additional: usize) {
        self.entities.reserve(additional);
        self.data.reserve(additional);
        if T::TRACK_CHANGES {
            self.added.reserve(additional);
            self.changed.reserve(additional);
        }
    }

    /// The entities holding this component, in dense order.
    #[inline]
    pub(crate) fn entities(&self) -> &[Entity] {
        &self.entities
    }

    /// The index that maps entities to dense positions.
    #[inline]
    pub(crate) fn sparse(&self) -> &SparseIndex {
        &self.sparse
    }

    /// Bytes held on the heap, by structure: index, entity array, data array, ticks.
    pub(crate) fn heap_bytes(&self) -> StorageHeap {
        StorageHeap {
            sparse: self.sparse.heap_bytes(),
            ids: self.entities.capacity() * size_of::<Entity>(),
            data: self.data.capacity() * size_of::<T>(),
            ticks: (self.added.capacity() + self.changed.capacity()) * size_of::<u64>(),
        }
    }

    /// The added and changed ticks of `entity`'s value, if it has one and
    /// `T` tracks changes.
    #[cfg(test)]
    pub(crate) fn ticks_of(&self, entity: Entity) -> Option<(u64, u64)> {
        let dense = self.sparse.get(entity)?;
        Some((*self.added.get(dense)?, *self.changed.get(dense)?))
    }

    /// Checks every invariant listed on the type; used by tests.
    #[cfg(test)]
    pub(crate) fn assert_invariants(&self) {
        assert_eq!(self.entities.len(), self.data.len());
        let ticks = if T::TRACK_CHANGES {
            self.entities.len()
        } else {
            0
        };
        assert_eq!(
            (self.added.len(), self.changed.len()),
            (ticks, ticks),
            "one pair of ticks per tracked value"
        );
        for (i, &e) in self.entities.iter().enumerate() {
            assert_eq!(self.sparse.get(e), Some(i), "sparse slot of {e:?}");
        }
        // A slot answers for its version alone, so a stale one would hand out
        // another entity's value: every mapped slot is one of the entities'.
        assert_eq!(
            self.sparse.mapped_count(),
            self.entities.len(),
            "one sparse slot per held entity"
        );
    }
}

impl<T> Drop for SparseSet<T> {
    /// Drops every value even past panicking `Drop`s, then resumes the first
    /// panic: a `Vec`'s own drop would abort the process at the second.
    fn drop(&mut self) {
        let mut panics = DeferredPanic::default();
        panics.drop_each(self.data.drain(..));
        panics.resume();
    }
}

impl<T> SparseSet<T> {
    /// Shared views of a set's index and entities, touching neither its data
    /// vector nor the values it points to.
    ///
    /// # Safety
    /// `set` points at a live `SparseSet<T>` whose index and entity array no one
    /// writes during `'a`.
    #[inline]
    pub(crate) unsafe fn split_for_presence<'a>(
        set: *const Self,
    ) -> (&'a SparseIndex, &'a [Entity]) {
        // SAFETY: the projections stay inside the live set, and only read fields
        // no one writes during `'a` (caller's contract).
        unsafe { (&(*set).sparse, &(*set).entities) }
    }

    /// A pointer to the set's data for reading, made through a shared
    /// reference to the data vector alone.
    ///
    /// # Safety
    /// `set` points at a live `SparseSet<T>` whose data vector no one writes
    /// (the vector itself, not its elements) while the pointer is used.
    #[inline]
    pub(crate) unsafe fn data_for_read(set: *const Self) -> NonNull<T> {
        // SAFETY: a place projection inside the live set (caller's contract);
        // a vector's buffer pointer is never null.
        unsafe { NonNull::new_unchecked((*set).data.as_ptr().cast_mut()) }
    }

    /// A writable pointer to the set's data, touching no other field and
    /// making no reference to the data vector.
    ///
    /// Systems of one parallel batch may build columns of the same set at
    /// once (for disjoint entities: `With<A>` beside `Without<A>`), so this
    /// only reads the vector: a `&mut` to it, however brief, is a write of the
    /// vector under the aliasing model, and two at once race.
    ///
    /// # Safety
    /// `set` points at a live `SparseSet<T>` whose data vector (the vector
    /// itself, not its elements) no one writes while the pointer is used;
    /// writing a value through the pointer is sound only while no one else
    /// references that value.
    #[inline]
    pub(crate) unsafe fn data_for_write(set: *const Self) -> NonNull<T> {
        // SAFETY: a read of the vector inside the live set (caller's contract)
        // into a bitwise copy that is never dropped, so the set still owns the
        // buffer alone; the copy's buffer pointer is the set's, with the
        // buffer's own provenance, and is never null.
        let mut copy = ManuallyDrop::new(unsafe { core::ptr::read(&raw const (*set).data) });
        // SAFETY: `copy` holds the set's buffer pointer, and a `Vec`'s buffer
        // pointer is never null (dangling, not null, when nothing is allocated).
        unsafe { NonNull::new_unchecked(copy.as_mut_ptr()) }
    }

    /// Pointers to the set's added and changed ticks for reading, each made
    /// through a shared reference to its vector alone.
    ///
    /// # Safety
    /// `set` points at a live `SparseSet<T>` whose tick vectors no one writes
    /// (the vectors themselves, not their elements) while the pointers are used.
    #[inline]
    pub(crate) unsafe fn ticks_for_read(set: *const Self) -> (NonNull<u64>, NonNull<u64>) {
        // SAFETY: place projections inside the live set (caller's contract);
        // a vector's buffer pointer is never null.
        unsafe {
            (
                NonNull::new_unchecked((*set).added.as_ptr().cast_mut()),
                NonNull::new_unchecked((*set).changed.as_ptr().cast_mut()),
            )
        }
    }

    /// A writable pointer to the set's changed ticks, touching no other field
    /// and making no reference to the vector, for the same reason as
    /// [`data_for_write`](Self::data_for_write).
    ///
    /// # Safety
    /// `set` points at a live `SparseSet<T>` whose `changed` vector (the vector
    /// itself, not its ticks) no one writes while the pointer is used; writing
    /// a tick through the pointer is sound only while no one else references
    /// that tick.
    #[inline]
    pub(crate) unsafe fn changed_for_write(set: *const Self) -> NonNull<u64> {
        // SAFETY: `set` is live and no one writes its `changed` vector meanwhile
        // (caller's contract), so this reads a valid `Vec<u64>` inside it; the
        // bitwise copy is never dropped, so the set still owns the buffer
        // alone, and the copy's buffer pointer has the buffer's own provenance.
        let mut copy = ManuallyDrop::new(unsafe { core::ptr::read(&raw const (*set).changed) });
        // SAFETY: a vector's buffer pointer is never null.
        unsafe { NonNull::new_unchecked(copy.as_mut_ptr()) }
    }

    /// How many times entities in the set have changed position, read through
    /// a raw pointer without touching any other field.
    ///
    /// # Safety
    /// `set` points at a live `SparseSet<T>` that no one writes during the call.
    #[inline]
    pub(crate) unsafe fn reorders_of(set: *const Self) -> u64 {
        // SAFETY: a read of one field of the live set (caller's contract).
        unsafe { (*set).reorders }
    }
}

/// Panics unless a set may hold `len` values: a sparse slot stores a dense
/// position in 32 bits, and positions stop one short of `u32::MAX`.
#[inline(always)]
fn assert_fits(len: usize) {
    assert!(
        len <= u32::MAX as usize,
        "too many components of one type: a storage holds at most 4,294,967,295"
    );
}

/// Appends `entity`, `value` and, for a tracked `T`, its `(added, changed)`
/// ticks at `tick` to the end of the dense arrays, and maps `slot` (the
/// entity's, found empty) to them: the one way a value joins a set.
#[inline(always)]
fn append<T: Component>(
    slot: SparseSlot<'_>,
    entities: &mut Vec<Entity>,
    data: &mut Vec<T>,
    (added, changed): (&mut Vec<u64>, &mut Vec<u64>),
    entity: Entity,
    value: T,
    tick: u64,
) {
    // The index holds at most one entity per slot index, and the world removes
    // an entity from every set before its index is reused.
    debug_assert!(slot.is_empty(), "slot of {entity:?} holds another entity");
    assert_fits(entities.len() + 1);
    // Everything that can panic comes first: the limit, then growth (capacity
    // overflow), data before the entity array, which cannot overflow before
    // the limit. The slot is written last, and the ticks' pushes cannot fail.
    if T::TRACK_CHANGES {
        added.reserve(1);
        changed.reserve(1);
    }
    let dense = entities.len() as u32;
    data.push(value);
    entities.push(entity);
    slot.set(entity, dense);
    if T::TRACK_CHANGES {
        added.push(tick);
        changed.push(tick);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::num::NonZeroU32;

    /// A plain value stored as a component.
    #[derive(crate::Component, Debug, PartialEq)]
    struct V<T>(T);

    /// The same, tracking changes.
    #[derive(crate::Component, Debug, PartialEq)]
    #[component(track_changes)]
    struct Tracked(u32);

    fn e(index: u32) -> Entity {
        Entity::new(index, NonZeroU32::MIN)
    }

    #[test]
    fn insert_appends_and_replace_returns_old() {
        let mut set = SparseSet::default();
        assert_eq!(set.insert(e(5), V("a"), 1), None);
        assert_eq!(set.insert(e(2), V("b"), 1), None);
        assert_eq!(set.insert(e(5), V("c"), 1), Some(V("a")));
        assert_eq!(set.entities(), &[e(5), e(2)]);
        assert_eq!(set.data, [V("c"), V("b")]);
        assert_eq!(
            (set.added.capacity(), set.changed.capacity()),
            (0, 0),
            "an untracked type keeps no ticks"
        );
        set.assert_invariants();
    }

    #[test]
    fn remove_swaps_last_into_hole() {
        let mut set = SparseSet::default();
        for i in 0..4 {
            set.insert(e(i), V(i * 10), 1);
        }
        assert_eq!(set.remove(e(1)), Some(V(10)));
        assert_eq!(set.entities(), &[e(0), e(3), e(2)]);
        assert_eq!(set.get(e(3)), Some(&V(30)));
        assert_eq!(set.remove(e(1)), None);
        assert_eq!(set.remove(e(2)), Some(V(20)));
        set.assert_invariants();
    }

    #[test]
    fn stale_versions_are_not_found() {
        let mut set = SparseSet::default();
        set.insert(e(1), V(1u8), 1);
        let newer = Entity::new(1, NonZeroU32::new(2).unwrap());
        assert!(!set.contains(newer));
        assert_eq!(set.remove(newer), None);
        assert_eq!(set.entities.len(), 1);
    }

    #[test]
    fn tags_store_no_data() {
        #[derive(crate::Component)]
        struct Tag;
        let mut set = SparseSet::default();
        for i in 0..1000 {
            set.insert(e(i), Tag, 1);
        }
        assert_eq!(
            set.data.capacity(),
            usize::MAX,
            "a Vec of a ZST never allocates"
        );
        assert_eq!(set.entities.len(), 1000);
    }

    #[test]
    fn clear_empties_index() {
        let mut set = SparseSet::default();
        set.insert(e(1), V(String::from("x")), 1);
        set.clear();
        assert!(!set.contains(e(1)));
        assert!(set.entities.is_empty() && set.data.is_empty());
        set.assert_invariants();
    }

    #[test]
    fn absorb_moves_every_value_under_its_new_id_with_the_merge_tick() {
        for target_len in [0u32, 3] {
            let mut target = SparseSet::<Tracked>::default();
            for i in 0..target_len {
                target.insert(e(i), Tracked(i), 1);
            }
            let mut from = SparseSet::<Tracked>::default();
            let mut map = EntityMap::with_slots(3);
            for i in 0..3 {
                from.insert(e(i), Tracked(100 + i), 2);
                map.insert(e(i), e(10 + i));
            }
            from.remove(e(0));
            let start = target.absorb(&mut from, Some(&map), 9);
            assert_eq!(start, target_len as usize);
            target.assert_invariants();
            from.assert_invariants();
            assert!(from.entities().is_empty());
            assert_eq!(target.get(e(12)), Some(&Tracked(102)));
            assert_eq!(target.get(e(11)), Some(&Tracked(101)));
            assert_eq!(target.get(e(10)), None, "removed before the merge");
            assert_eq!(target.ticks_of(e(11)), Some((9, 9)));
            if target_len > 0 {
                assert_eq!(target.ticks_of(e(0)), Some((1, 1)));
            }
        }
    }

    /// With every id kept: into an empty set the whole set moves (its order
    /// included) and takes the tick; into a set that holds values, it appends.
    #[test]
    fn absorb_with_every_id_kept_moves_the_whole_set() {
        for target_len in [0u32, 2] {
            let mut target = SparseSet::<Tracked>::default();
            for i in 0..target_len {
                target.insert(e(20 + i), Tracked(i), 1);
            }
            let mut from = SparseSet::<Tracked>::default();
            for i in [5, 1, 7] {
                from.insert(e(i), Tracked(100 + i), 2);
            }
            let start = target.absorb(&mut from, None, 9);
            assert_eq!(start, target_len as usize);
            target.assert_invariants();
            from.assert_invariants();
            assert!(from.entities().is_empty() && from.values().is_empty());
            assert_eq!(&target.entities()[start..], &[e(5), e(1), e(7)]);
            for i in [5, 1, 7] {
                assert_eq!(target.get(e(i)), Some(&Tracked(100 + i)));
                assert_eq!(target.ticks_of(e(i)), Some((9, 9)));
            }
            from.insert(e(3), Tracked(3), 4);
            assert_eq!(from.get(e(5)), None, "the moved index is not left behind");
            from.assert_invariants();
        }
    }

    #[test]
    fn ticks_follow_their_values_through_insert_replace_remove_and_swap() {
        let mut set = SparseSet::default();
        for i in 0..4 {
            set.push_new(e(i), Tracked(i), u64::from(i) + 1);
        }
        let ticks = |set: &SparseSet<Tracked>, i| set.ticks_of(e(i)).expect("held");
        assert_eq!(set.insert(e(2), Tracked(20), 9), Some(Tracked(2)));
        assert_eq!(
            ticks(&set, 2),
            (3, 9),
            "a replacement is a change, not an add"
        );
        set.remove(e(0));
        assert_eq!(set.entities(), &[e(3), e(1), e(2)]);
        assert_eq!((ticks(&set, 3), ticks(&set, 1)), ((4, 4), (2, 2)));
        set.swap_dense(0, 2);
        assert_eq!((ticks(&set, 2), ticks(&set, 3)), ((3, 9), (4, 4)));
        if let Some((value, Some(changed))) = set.get_mut(e(1)) {
            value.0 += 1;
            *changed = 12;
        }
        assert_eq!(ticks(&set, 1), (2, 12));
        set.assert_invariants();
        set.clear();
        set.assert_invariants();
    }
}

#[cfg(all(test, debug_assertions))]
mod debug_checks {
    use super::*;
    use core::num::NonZeroU32;

    #[derive(crate::Component)]
    struct V(#[allow(dead_code, reason = "payload only")] u8);

    /// Two live entities with one index in a set is a broken world invariant;
    /// the debug check names it instead of silently corrupting the index.
    #[test]
    #[should_panic(expected = "holds another entity")]
    fn inserting_a_second_version_of_an_index_fires_the_debug_check() {
        let mut set = SparseSet::default();
        set.insert(Entity::new(1, NonZeroU32::MIN), V(1), 1);
        set.insert(Entity::new(1, NonZeroU32::new(2).unwrap()), V(2), 1);
    }
}
