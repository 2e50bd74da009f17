//! [`RelationshipSlots`]: where each source sits in its target's list, so
//! that taking it out costs O(1).

use core::any::TypeId;
use core::hash::BuildHasherDefault;
use std::collections::HashMap;

use crate::entity::Entity;
use crate::util::TypeIdHasher;

/// Per relationship type, per source entity index, the position the source
/// was last put at in its target's list.
///
/// A slot is a hint, never trusted: a reader checks that the list holds the
/// source there, and on a miss searches the list and writes the slots of
/// every source in it anew. So whatever moves lists without the hooks (a
/// rollback restore, a `sort_by`, a merge's values) costs one search per
/// list at its next removal, and never a wrong answer.
#[derive(Default)]
pub(in crate::world) struct RelationshipSlots {
    by_type: HashMap<TypeId, Vec<u32>, BuildHasherDefault<TypeIdHasher>>,
}

impl RelationshipSlots {
    /// The slot last written for `source` in relationship `R`'s lists.
    #[inline]
    pub(in crate::world) fn get<R: 'static>(&self, source: Entity) -> Option<usize> {
        let slots = self.by_type.get(&TypeId::of::<R>())?;
        match slots.get(source.index() as usize) {
            Some(&slot) if slot != u32::MAX => Some(slot as usize),
            _ => None,
        }
    }

    /// Records that `source` sits at `slot` in its target's list of `R`.
    #[inline]
    pub(in crate::world) fn set<R: 'static>(&mut self, source: Entity, slot: usize) {
        let slots = self.by_type.entry(TypeId::of::<R>()).or_default();
        let index = source.index() as usize;
        if slots.len() <= index {
            slots.resize(index + 1, u32::MAX);
        }
        // A list longer than `u32::MAX` stores no hint; its removals search.
        slots[index] = u32::try_from(slot).unwrap_or(u32::MAX);
    }

    /// Records the slot of every source of one list.
    pub(in crate::world) fn set_all<R: 'static>(&mut self, sources: &[Entity]) {
        for (slot, &source) in sources.iter().enumerate() {
            self.set::<R>(source, slot);
        }
    }

    /// Where `source` sits in `sources`: the hint when it is right, else a
    /// search, after which every source's slot is written anew.
    pub(in crate::world) fn find<R: 'static>(
        &mut self,
        sources: &[Entity],
        source: Entity,
    ) -> Option<usize> {
        if let Some(slot) = self.get::<R>(source)
            && sources.get(slot) == Some(&source)
        {
            return Some(slot);
        }
        let slot = sources.iter().position(|&s| s == source)?;
        self.set_all::<R>(sources);
        Some(slot)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct R;

    fn e(index: u32) -> Entity {
        Entity::from_bits((1u64 << 32) | u64::from(index)).unwrap()
    }

    #[test]
    fn a_right_hint_is_used_and_a_wrong_one_repaired_by_a_search() {
        let mut slots = RelationshipSlots::default();
        let list = [e(4), e(9), e(2)];
        slots.set_all::<R>(&list);
        assert_eq!(slots.find::<R>(&list, e(9)), Some(1));
        let moved = [e(2), e(4), e(9)];
        assert_eq!(slots.find::<R>(&moved, e(9)), Some(2));
        assert_eq!(slots.get::<R>(e(2)), Some(0), "every slot is written anew");
        assert_eq!(slots.find::<R>(&moved, e(7)), None);
        assert_eq!(
            slots.get::<()>(e(2)),
            None,
            "each relationship type has its own"
        );
    }
}
