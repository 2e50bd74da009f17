//! A storage's dense arrays copied out and copied back, for rollback: whole
//! slices, so a `Copy` type moves as one `memcpy` per array (the standard
//! library's slice clones copy bytes for `Copy` types).

use super::SparseSet;
use crate::component::Component;
use crate::entity::Entity;
use crate::util::DeferredPanic;

/// One storage's contents as they were: its entities in dense order, their
/// values and, for a type that tracks changes, their ticks.
///
/// Invariant: `entities.len() == data.len()`, and the tick arrays are as long
/// for a tracked type, empty otherwise (as in [`SparseSet`]).
pub(crate) struct ColumnCopy<T> {
    entities: Vec<Entity>,
    data: Vec<T>,
    added: Vec<u64>,
    changed: Vec<u64>,
}

impl<T> Default for ColumnCopy<T> {
    fn default() -> Self {
        Self {
            entities: Vec::new(),
            data: Vec::new(),
            added: Vec::new(),
            changed: Vec::new(),
        }
    }
}

impl<T: Clone> Clone for ColumnCopy<T> {
    fn clone(&self) -> Self {
        Self {
            entities: self.entities.clone(),
            data: self.data.clone(),
            added: self.added.clone(),
            changed: self.changed.clone(),
        }
    }
}

impl<T> ColumnCopy<T> {
    /// The saved entities, in the dense order they had.
    pub(crate) fn entities(&self) -> &[Entity] {
        &self.entities
    }

    /// The saved values, in the order of [`entities`](Self::entities).
    pub(crate) fn values(&self) -> &[T] {
        &self.data
    }

    /// Empties the copy, keeping its buffers: what a storage never made holds.
    pub(crate) fn clear(&mut self) {
        self.entities.clear();
        self.data.clear();
        self.added.clear();
        self.changed.clear();
    }
}

/// Whether `a` and `b` hold the same ids in the same order.
///
/// Compared in blocks without an early exit inside a block, so that each
/// block compiles to a vector loop: comparing the ids element by element,
/// with a branch each, cost a restore a third of its copying.
fn same_ids(a: &[Entity], b: &[Entity]) -> bool {
    const BLOCK: usize = 256;
    a.len() == b.len()
        && a.chunks(BLOCK).zip(b.chunks(BLOCK)).all(|(a, b)| {
            let differ = a
                .iter()
                .zip(b)
                .fold(0, |differ, (a, b)| differ | (a.to_bits() ^ b.to_bits()));
            differ == 0
        })
}

impl<T: Component + Clone> SparseSet<T> {
    /// Copies this storage's dense arrays into `copy`, reusing its buffers.
    pub(crate) fn copy_into(&self, copy: &mut ColumnCopy<T>) {
        // `clone_from` on a `Vec` of a `Copy` type is a clear and one
        // `memcpy`; for other types it clones into the values already there.
        copy.entities.clone_from(&self.entities);
        copy.data.clone_from(&self.data);
        copy.added.clone_from(&self.added);
        copy.changed.clone_from(&self.changed);
    }

    /// Makes this storage hold exactly what `copy` holds, in its order, with
    /// its ticks. When the entities change, `moved` hears of every entity
    /// that held a value before (with `false`), then of every entity holding
    /// one after (with `true`), so the caller keeps its masks in step.
    ///
    /// When the storage holds the same entities in the same order, only the
    /// values and ticks are copied and `moved` is not called. Otherwise the
    /// saved values are cloned first, so a panicking `Clone` leaves the
    /// storage as it was; the values replaced are dropped once the storage is
    /// consistent again, each even past a panicking `Drop`, whose first panic
    /// then resumes.
    pub(crate) fn restore_from(
        &mut self,
        copy: &ColumnCopy<T>,
        mut moved: impl FnMut(Entity, bool),
    ) {
        if same_ids(&self.entities, &copy.entities) {
            // A panicking `Clone` leaves each value old or new: consistent.
            self.data.clone_from_slice(&copy.data);
            self.added.copy_from_slice(&copy.added);
            self.changed.copy_from_slice(&copy.changed);
            return;
        }
        let data = copy.data.clone();
        self.reorders += 1;
        for &entity in &self.entities {
            self.sparse.remove(entity.index());
            moved(entity, false);
        }
        self.entities.clone_from(&copy.entities);
        let replaced = core::mem::replace(&mut self.data, data);
        self.added.clone_from(&copy.added);
        self.changed.clone_from(&copy.changed);
        for (dense, &entity) in self.entities.iter().enumerate() {
            // Below `u32::MAX`: the copy came from a set within its limit.
            self.sparse
                .slot_or_alloc(entity.index(), dense + 1)
                .set(entity, dense as u32);
            moved(entity, true);
        }
        let mut panics = DeferredPanic::default();
        panics.drop_each(replaced.into_iter());
        panics.resume();
    }
}

#[cfg(test)]
mod tests {
    use core::num::NonZeroU32;

    use super::*;

    #[derive(crate::Component, Clone, Copy, Debug, PartialEq)]
    struct Plain(u32);

    #[derive(crate::Component, Clone, Debug, PartialEq)]
    #[component(track_changes)]
    struct Named(String);

    fn e(index: u32) -> Entity {
        Entity::new(index, NonZeroU32::MIN)
    }

    /// The fast path: same entities, same order, so only values move and
    /// nothing else is told.
    #[test]
    fn the_same_entities_in_the_same_order_copy_values_only() {
        let mut set = SparseSet::default();
        for i in 0..5 {
            set.insert(e(i), Plain(i), 0);
        }
        let mut copy = ColumnCopy::default();
        set.copy_into(&mut copy);
        for i in 0..5 {
            set.get_mut(e(i)).unwrap().0.0 += 100;
        }
        let reorders = set.reorders;
        set.restore_from(&copy, |entity, _| panic!("{entity:?} did not move"));
        assert_eq!(set.reorders, reorders, "the order is what it was");
        assert_eq!(set.values(), [0, 1, 2, 3, 4].map(Plain));
        set.assert_invariants();
    }

    /// The general path: other entities, another order; the index is
    /// rebuilt, the ticks come back, and the caller hears of every move.
    #[test]
    fn other_entities_are_replaced_with_the_saved_ones_and_their_ticks() {
        let mut set = SparseSet::default();
        set.insert(e(1), Named("one".into()), 5);
        set.insert(e(2), Named("two".into()), 6);
        let mut copy = ColumnCopy::default();
        set.copy_into(&mut copy);
        set.remove(e(1));
        set.insert(e(7), Named("seven".into()), 9);
        set.insert(e(2), Named("two again".into()), 9);

        let mut moved = Vec::new();
        set.restore_from(&copy, |entity, holds| moved.push((entity.index(), holds)));
        assert_eq!(set.entities(), &[e(1), e(2)]);
        assert_eq!(set.get(e(1)), Some(&Named("one".into())));
        assert_eq!(set.get(e(2)), Some(&Named("two".into())));
        assert!(!set.contains(e(7)));
        assert_eq!(set.ticks_of(e(1)), Some((5, 5)));
        assert_eq!(set.ticks_of(e(2)), Some((6, 6)));
        assert_eq!(moved, [(2, false), (7, false), (1, true), (2, true)]);
        set.assert_invariants();
    }

    #[test]
    fn ids_are_the_same_only_in_the_same_order_and_number() {
        let ids: Vec<Entity> = (0..600).map(e).collect();
        assert!(same_ids(&ids, &ids.clone()));
        assert!(same_ids(&[], &[]));
        assert!(!same_ids(&ids, &ids[..599]));
        for at in [0, 255, 256, 599] {
            let mut other = ids.clone();
            other[at] = Entity::new(at as u32, NonZeroU32::new(2).unwrap());
            assert!(!same_ids(&ids, &other), "another version at {at}");
            let mut swapped = ids.clone();
            swapped.swap(at, (at + 1) % 600);
            assert!(!same_ids(&ids, &swapped), "another order at {at}");
        }
    }

    #[test]
    fn a_copy_of_nothing_empties_the_set() {
        let mut set = SparseSet::default();
        set.insert(e(3), Plain(3), 0);
        let mut copy = ColumnCopy::default();
        set.copy_into(&mut copy);
        copy.clear();
        set.restore_from(&copy, |_, _| {});
        assert!(set.entities().is_empty());
        set.assert_invariants();
    }
}
