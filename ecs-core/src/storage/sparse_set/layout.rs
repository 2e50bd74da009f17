//! A storage's dense order sorted by a key per entity, every parallel array
//! moving with its values.

use super::SparseSet;
use crate::component::Component;
use crate::entity::Entity;

impl<T: Component> SparseSet<T> {
    /// How many positions from `from` on are in order by `(key(e), e.index())`:
    /// the length of the sorted stretch that starts at `from`.
    pub(crate) fn in_order_from(&self, from: usize, key: &dyn Fn(Entity) -> u64) -> usize {
        let Some(rest) = self.entities.get(from..) else {
            return 0;
        };
        let keyed = |entity: Entity| (key(entity), entity.index());
        let mut count = usize::from(!rest.is_empty());
        for pair in rest.windows(2) {
            if keyed(pair[0]) > keyed(pair[1]) {
                break;
            }
            count += 1;
        }
        count
    }

    /// Sorts the dense positions from `from` on by `(key(e), e.index())`,
    /// values, ticks and the sparse index moving with their entities, and
    /// returns whether anything moved. Positions before `from` (a group's
    /// packed prefix) stay where they are.
    ///
    /// Every storage sorted by the same key holds the entities it shares with
    /// another in the same relative order, so entities of one signature form
    /// one block at one shift in each: a query over two types reads their
    /// common entities as a few long zipped runs.
    pub(crate) fn sort_dense(&mut self, from: usize, key: &dyn Fn(Entity) -> u64) -> bool {
        let len = self.entities.len();
        if from >= len || self.in_order_from(from, key) == len - from {
            return false;
        }
        // Where each sorted position's entity is now, relative to `from`.
        let mut keyed: Vec<(u64, u32, u32)> = self.entities[from..]
            .iter()
            .enumerate()
            .map(|(offset, &entity)| (key(entity), entity.index(), offset as u32))
            .collect();
        // Entity indexes are distinct, so the order is total and unique. The
        // stable sort finds the runs already in order and merges them, so a
        // storage sorted before and disturbed since costs about a pass over
        // it plus the sort of what moved.
        keyed.sort();
        let mut source: Vec<u32> = keyed.into_iter().map(|(_, _, at)| at).collect();
        // Each cycle of the permutation, walked with swaps: position `j`
        // takes what `source[j]` holds, and is marked done.
        for start in 0..source.len() {
            let mut at = start;
            loop {
                let next = source[at] as usize;
                source[at] = at as u32;
                if next == start {
                    break;
                }
                self.swap_parallel(from + at, from + next);
                at = next;
            }
        }
        self.reorders += 1;
        for (offset, &entity) in self.entities[from..].iter().enumerate() {
            // Below `u32::MAX`: a set holds at most that many values.
            self.sparse.set_dense(entity, (from + offset) as u32);
        }
        true
    }

    /// Swaps positions `a` and `b` of every dense array, leaving the sparse
    /// index to the caller.
    fn swap_parallel(&mut self, a: usize, b: usize) {
        self.entities.swap(a, b);
        self.data.swap(a, b);
        if T::TRACK_CHANGES {
            self.added.swap(a, b);
            self.changed.swap(a, b);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use core::num::NonZeroU32;

    #[derive(crate::Component, Debug, PartialEq)]
    #[component(track_changes)]
    struct Tracked(u32);

    fn e(index: u32) -> Entity {
        Entity::new(index, NonZeroU32::MIN)
    }

    #[test]
    fn sorting_moves_values_ticks_and_slots_with_their_entities() {
        let mut set = SparseSet::default();
        for i in [7, 3, 9, 1, 4, 8] {
            set.insert(e(i), Tracked(i * 10), u64::from(i));
        }
        // Even indexes first, then odd; by index inside each.
        let key = |entity: Entity| u64::from(entity.index() % 2);
        assert!(set.sort_dense(0, &key));
        assert_eq!(set.entities(), &[e(4), e(8), e(1), e(3), e(7), e(9)]);
        for i in [7, 3, 9, 1, 4, 8] {
            assert_eq!(set.get(e(i)), Some(&Tracked(i * 10)));
            assert_eq!(set.ticks_of(e(i)), Some((u64::from(i), u64::from(i))));
        }
        set.assert_invariants();
        assert_eq!(set.in_order_from(0, &key), 6);
        assert!(!set.sort_dense(0, &key), "already in order: nothing moves");
    }

    #[test]
    fn a_prefix_before_from_stays_put() {
        let mut set = SparseSet::default();
        for i in [5, 2, 6, 1, 0] {
            set.insert(e(i), Tracked(i), 1);
        }
        let reorders = set.reorders;
        assert!(set.sort_dense(2, &|_| 0));
        assert_eq!(set.entities(), &[e(5), e(2), e(0), e(1), e(6)]);
        assert_eq!(set.reorders, reorders + 1, "a sort is a reorder");
        set.assert_invariants();
        assert_eq!(set.in_order_from(0, &|_| 0), 1);
        assert_eq!(set.in_order_from(2, &|_| 0), 3);
        assert_eq!(set.in_order_from(9, &|_| 0), 0);
    }
}
