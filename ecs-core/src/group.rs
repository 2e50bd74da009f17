//! Owning groups: component types whose common holders sit packed at the front
//! of every one of their storages, in the same order.

use crate::bundle::Bundle;
use crate::component::ComponentId;
use crate::entity::Entity;
use crate::error::Error;
use crate::storage::Storages;
use crate::world::World;

/// Where a group's packed prefix is, as a query sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GroupSpan {
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
/// `pub` only so the sealed bundle trait can name it; the module is private.
///
/// Invariants, for every group:
/// - for `i < len`, every owned storage holds the same entity at dense position
///   `i`, and that entity holds every owned type;
/// - no entity at a position `>= len` of an owned storage holds every owned type;
/// - a component type is owned by at most one group.
#[derive(Default)]
pub struct Groups {
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

impl World {
    /// Declares an owning group: the entities holding every type in `G` (a tuple of
    /// component types) are kept packed at the front of each of those types'
    /// storages, in the same order.
    ///
    /// A query that requires those types then reads them as plain zipped
    /// arrays, with no per-entity lookup and no alignment check, and
    /// [`Query::slices`](crate::Query::slices) hands out the arrays themselves.
    /// The price is paid on structural changes: adding or removing a grouped
    /// type swaps the entity into or out of the packed part of each storage.
    ///
    /// Declaring the same group again does nothing. A component type can belong
    /// to one group only: declaring a group that shares a type with another is
    /// [`Error::GroupConflict`], naming both groups. Fewer than two distinct
    /// types is [`Error::GroupTooSmall`].
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Clone, Copy)]
    /// struct Position(f32);
    /// #[derive(Component, Clone, Copy)]
    /// struct Velocity(f32);
    /// #[derive(Component)]
    /// struct Health(u32);
    ///
    /// let mut world = World::new();
    /// world.group::<(Position, Velocity)>()?;
    /// world.spawn_batch((0..100).map(|i| (Position(i as f32), Velocity(1.0))));
    /// world.spawn(Position(-1.0)); // outside the group: no velocity
    ///
    /// let mut movers = world.query::<(&mut Position, &Velocity)>();
    /// let (positions, velocities) = movers.slices()?;
    /// for (p, v) in positions.iter_mut().zip(velocities) {
    ///     p.0 += v.0;
    /// }
    /// assert_eq!(positions.len(), 100);
    ///
    /// let err = world.group::<(Velocity, Health)>().unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "cannot declare the group `(Velocity, Health)`: `Velocity` is already owned by \
    ///      the group `(Position, Velocity)`, and a component type can belong to one group only"
    /// );
    /// # Ok::<(), Error>(())
    /// ```
    pub fn group<G: Bundle>(&mut self) -> Result<(), Error> {
        let (bundles, placement) = self.split();
        let ids = &bundles.of::<G>(placement.storages).ids;
        placement
            .groups
            .declare(core::any::type_name::<G>(), ids, placement.storages)
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;

    #[derive(Component, Debug, PartialEq)]
    struct A(u32);
    #[derive(Component, Debug, PartialEq)]
    struct B(u32);
    #[derive(Component, Debug, PartialEq)]
    struct C(u32);

    /// Declaring a group packs the entities that already hold every owned type.
    #[test]
    fn declaring_packs_existing_members() {
        let mut world = World::new();
        let mut members = Vec::new();
        for i in 0..50 {
            match i % 3 {
                0 => members.push(world.spawn((A(i), B(i)))),
                1 => drop(world.spawn(A(i))),
                _ => drop(world.spawn(B(i))),
            }
        }
        world.group::<(A, B)>().unwrap();
        world.assert_invariants();
        let span = world
            .groups()
            .span(world.storages().id_of::<A>().unwrap())
            .unwrap();
        assert_eq!(span.len, members.len());
    }

    /// Every structural change keeps the prefix packed and aligned.
    #[test]
    fn structural_changes_keep_the_invariants() {
        let mut world = World::new();
        world.group::<(A, B)>().unwrap();
        let ids: Vec<_> = (0..60).map(|i| world.spawn((A(i), B(i), C(i)))).collect();
        world.assert_invariants();
        for (n, &e) in ids.iter().enumerate() {
            match n % 5 {
                0 => drop(world.remove::<A>(e).unwrap()),
                1 => drop(world.remove::<C>(e).unwrap()),
                2 => world.despawn(e).unwrap(),
                3 => drop(world.remove::<B>(e).unwrap()),
                _ => {}
            }
            world.assert_invariants();
        }
        let alive: Vec<_> = ids.iter().copied().filter(|&e| world.is_alive(e)).collect();
        for e in alive {
            world.insert(e, A(1)).unwrap();
            world.insert(e, B(1)).unwrap();
            world.assert_invariants();
        }
        world.clear();
        world.assert_invariants();
        world.spawn((A(0), B(0)));
        world.assert_invariants();
    }
}
