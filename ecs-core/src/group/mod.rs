//! Owning groups: component types whose common holders sit packed at the front
//! of every one of their storages, in the same order.

use crate::component::ComponentId;
use crate::entity::Entity;
use crate::error::Error;
use crate::storage::Storages;

mod repack;

/// Where a group's packed prefix is, as a query sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct GroupSpan {
    pub(crate) group: u32,
    pub(crate) len: usize,
    pub(crate) owned: usize,
}

struct Group {
    /// The owned types, distinct, in declaration order.
    owned: Box<[ComponentId]>,
    /// How many entities hold every owned type: the packed prefix's length.
    len: usize,
    /// The type name of the tuple the group was declared with, for messages.
    name: &'static str,
}

/// Every group a world has, and which group owns each component type.
///
/// Invariants, for every group:
/// - for `i < len`, every owned storage holds the same entity at dense position
///   `i`, and that entity holds every owned type;
/// - no entity at a position `>= len` of an owned storage holds every owned type;
/// - a component type is owned by at most one group.
#[derive(Default)]
pub(crate) struct Groups {
    groups: Vec<Group>,
    owner: Vec<Option<u32>>,
}

impl Groups {
    /// Whether the world has no group, so the hooks below have nothing to do.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// The group owning the component with `id`, and its prefix.
    #[inline]
    pub(crate) fn span(&self, id: ComponentId) -> Option<GroupSpan> {
        let group = (*self.owner.get(id.index())?)?;
        let data = &self.groups[group as usize];
        Some(GroupSpan {
            group,
            len: data.len,
            owned: data.owned.len(),
        })
    }

    /// Declares a group owning `owned` (named `name` in messages) and packs the
    /// entities that already hold every owned type.
    pub(crate) fn declare(
        &mut self,
        name: &'static str,
        owned: &[ComponentId],
        storages: &mut Storages,
    ) -> Result<(), Error> {
        let mut distinct: Vec<ComponentId> = Vec::with_capacity(owned.len());
        for &id in owned {
            if !distinct.contains(&id) {
                distinct.push(id);
            }
        }
        if distinct.len() < 2 {
            return Err(Error::GroupTooSmall { group: name });
        }
        for &id in &distinct {
            if let Some(other) = self.owner.get(id.index()).copied().flatten() {
                let other = &self.groups[other as usize];
                // Both lists are distinct, so equal lengths and containment mean equal sets.
                let same = other.owned.len() == distinct.len()
                    && distinct.iter().all(|id| other.owned.contains(id));
                if same {
                    return Ok(());
                }
                return Err(Error::GroupConflict {
                    group: name,
                    other: other.name,
                    component: storages.info(id).type_name(),
                });
            }
        }
        let index = u32::try_from(self.groups.len()).expect("fewer than 2^32 groups");
        for &id in &distinct {
            if self.owner.len() <= id.index() {
                self.owner.resize(id.index() + 1, None);
            }
            self.owner[id.index()] = Some(index);
        }
        self.groups.push(Group {
            owned: distinct.into_boxed_slice(),
            len: 0,
            name,
        });
        self.pack(index as usize, storages);
        Ok(())
    }

    /// Moves every entity that holds all of group `index`'s types into its prefix.
    fn pack(&mut self, index: usize, storages: &mut Storages) {
        let group = &self.groups[index];
        let smallest = group
            .owned
            .iter()
            .copied()
            .min_by_key(|&id| storages.erased_by_id(id).len())
            .expect("a group owns at least two types");
        let candidates: Vec<Entity> = storages.erased_by_id(smallest).entities().to_vec();
        for entity in candidates {
            self.on_insert_group(index, entity, storages);
        }
    }

    /// After `entity` gained the component with `id`: joins its group if it now
    /// holds every owned type.
    #[inline]
    pub(crate) fn on_insert(&mut self, id: ComponentId, entity: Entity, storages: &mut Storages) {
        if let Some(Some(group)) = self.owner.get(id.index()) {
            self.on_insert_group(*group as usize, entity, storages);
        }
    }

    fn on_insert_group(&mut self, index: usize, entity: Entity, storages: &mut Storages) {
        let group = &mut self.groups[index];
        let first = storages.erased_by_id(group.owned[0]);
        let Some(position) = first.dense_index(entity) else {
            return;
        };
        if position < group.len {
            return;
        }
        if !group
            .owned
            .iter()
            .all(|&id| storages.erased_by_id(id).contains(entity))
        {
            return;
        }
        for &id in group.owned.iter() {
            let set = storages.erased_by_id_mut(id);
            let at = set.dense_index(entity).expect("checked above");
            set.swap_dense(at, group.len);
        }
        group.len += 1;
    }

    /// Before `entity` loses the component with `id`: leaves its group if it is in it.
    #[inline]
    pub(crate) fn before_remove(
        &mut self,
        id: ComponentId,
        entity: Entity,
        storages: &mut Storages,
    ) {
        if let Some(Some(group)) = self.owner.get(id.index()) {
            self.leave(*group as usize, entity, storages);
        }
    }

    /// Before `entity` is despawned: leaves every group it is in.
    pub(crate) fn before_despawn(&mut self, entity: Entity, storages: &mut Storages) {
        for index in 0..self.groups.len() {
            self.leave(index, entity, storages);
        }
    }

    fn leave(&mut self, index: usize, entity: Entity, storages: &mut Storages) {
        let group = &mut self.groups[index];
        let first = storages.erased_by_id(group.owned[0]);
        match first.dense_index(entity) {
            Some(position) if position < group.len => {}
            _ => return,
        }
        let last = group.len - 1;
        for &id in group.owned.iter() {
            let set = storages.erased_by_id_mut(id);
            let at = set
                .dense_index(entity)
                .expect("a member holds every owned type");
            set.swap_dense(at, last);
        }
        group.len = last;
    }

    /// Empties every group's prefix, for `World::clear`.
    pub(crate) fn clear(&mut self) {
        for group in &mut self.groups {
            group.len = 0;
        }
    }

    /// Checks the invariants listed on the type.
    #[cfg(test)]
    pub(crate) fn assert_invariants(&self, storages: &Storages) {
        for group in &self.groups {
            let sets: Vec<_> = group
                .owned
                .iter()
                .map(|&id| storages.erased_by_id(id))
                .collect();
            for i in 0..group.len {
                let entity = sets[0].entities()[i];
                for set in &sets {
                    assert_eq!(set.entities()[i], entity, "group prefix out of line at {i}");
                }
            }
            for set in &sets {
                for &entity in &set.entities()[group.len..] {
                    assert!(
                        !sets.iter().all(|s| s.contains(entity)),
                        "{entity:?} holds every type of {} but is outside its prefix",
                        group.name
                    );
                }
            }
        }
    }
}
