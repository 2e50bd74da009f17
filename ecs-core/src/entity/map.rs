//! Ids across worlds: the map a merge returns, and how values that hold ids
//! rewrite them.

use core::num::NonZeroU32;
use std::collections::VecDeque;

use super::Entity;

/// Turns an entity id of one world into the id the same entity has in another.
///
/// [`EntityMap`] is the mapper a merge or a snapshot load uses; any
/// `FnMut(Entity) -> Entity` closure is one too.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::EntityMapper;
///
/// let mut world = World::new();
/// let (a, b) = (world.spawn(()), world.spawn(()));
/// let mut swap = |e: Entity| if e == a { b } else { a };
/// assert_eq!(swap.map_entity(a), b);
/// ```
pub trait EntityMapper {
    /// The id `entity` has after the move. An id the mapper does not know is
    /// returned unchanged.
    fn map_entity(&mut self, entity: Entity) -> Entity;
}

impl<F: FnMut(Entity) -> Entity> EntityMapper for F {
    #[inline]
    fn map_entity(&mut self, entity: Entity) -> Entity {
        self(entity)
    }
}

/// A value that holds entity ids and can rewrite them when its entities move
/// to another world ([`World::merge`](crate::World::merge), loading a snapshot
/// into a running world).
///
/// Implemented for `Entity`, and for `Option`, `Vec`, `VecDeque`, `Box`,
/// arrays and slices of any `MapEntities` type. `#[derive(MapEntities)]`
/// implements it for a struct or enum by mapping its fields marked
/// `#[entity]`; `#[derive(Component)]` does the same for the component's
/// own fields, so a component needs no separate impl.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(MapEntities)]
/// struct Route {
///     #[entity]
///     stops: Vec<Entity>,
///     length: f32,
/// }
///
/// #[derive(Component)]
/// struct Patrol {
///     #[entity]
///     route: Route,
///     #[entity]
///     leader: Option<Entity>,
/// }
///
/// let mut level = World::new();
/// let (a, b) = (level.spawn(()), level.spawn(()));
/// let guard = level.spawn(Patrol {
///     route: Route { stops: vec![a, b], length: 10.0 },
///     leader: Some(a),
/// });
///
/// let mut world = World::new();
/// world.spawn(()); // the main world's ids differ from the level's
/// let moved = world.merge(level);
/// let patrol = world.get::<Patrol>(moved.get(guard).unwrap())?;
/// let new_a = moved.get(a).unwrap();
/// assert_eq!(patrol.route.stops, [new_a, moved.get(b).unwrap()]);
/// assert_eq!(patrol.leader, Some(new_a));
/// # Ok::<(), Error>(())
/// ```
pub trait MapEntities {
    /// Replaces every entity id this value holds by `mapper`'s answer for it.
    fn map_entities<M: EntityMapper + ?Sized>(&mut self, mapper: &mut M);
}

impl MapEntities for Entity {
    #[inline]
    fn map_entities<M: EntityMapper + ?Sized>(&mut self, mapper: &mut M) {
        *self = mapper.map_entity(*self);
    }
}

impl<T: MapEntities> MapEntities for Option<T> {
    #[inline]
    fn map_entities<M: EntityMapper + ?Sized>(&mut self, mapper: &mut M) {
        if let Some(value) = self {
            value.map_entities(mapper);
        }
    }
}

impl<T: MapEntities> MapEntities for [T] {
    fn map_entities<M: EntityMapper + ?Sized>(&mut self, mapper: &mut M) {
        for value in self {
            value.map_entities(mapper);
        }
    }
}

impl<T: MapEntities, const N: usize> MapEntities for [T; N] {
    fn map_entities<M: EntityMapper + ?Sized>(&mut self, mapper: &mut M) {
        self.as_mut_slice().map_entities(mapper);
    }
}

impl<T: MapEntities> MapEntities for Vec<T> {
    fn map_entities<M: EntityMapper + ?Sized>(&mut self, mapper: &mut M) {
        self.as_mut_slice().map_entities(mapper);
    }
}

impl<T: MapEntities> MapEntities for VecDeque<T> {
    fn map_entities<M: EntityMapper + ?Sized>(&mut self, mapper: &mut M) {
        for value in self {
            value.map_entities(mapper);
        }
    }
}

impl<T: MapEntities + ?Sized> MapEntities for Box<T> {
    fn map_entities<M: EntityMapper + ?Sized>(&mut self, mapper: &mut M) {
        (**self).map_entities(mapper);
    }
}

/// Where each entity of a merged world went: its id there (old) and its id
/// here (new).
///
/// Lookups are one array index, by the old id's index, and check the old
/// version, so a stale id of the merged world maps to nothing.
///
/// ```
/// use ecs_core::prelude::*;
///
/// let mut level = World::new();
/// let door = level.spawn(());
/// let mut world = World::new();
/// world.spawn(());
/// let moved = world.merge(level);
/// assert_eq!(moved.len(), 1);
/// let new_door = moved.get(door).unwrap();
/// assert!(world.is_alive(new_door));
/// assert_eq!(moved.iter().collect::<Vec<_>>(), [(door, new_door)]);
/// ```
#[derive(Clone, Default)]
pub struct EntityMap {
    /// By the old id's index: the old version and the new id.
    slots: Vec<Option<(NonZeroU32, Entity)>>,
    len: usize,
}

impl EntityMap {
    /// A map with room for old indices below `slots`.
    pub(crate) fn with_slots(slots: usize) -> Self {
        Self {
            slots: vec![None; slots],
            len: 0,
        }
    }

    /// Records that `old` became `new`. `old`'s index must be below the
    /// room the map was made with, and recorded at most once.
    pub(crate) fn insert(&mut self, old: Entity, new: Entity) {
        let slot = &mut self.slots[old.index() as usize];
        debug_assert!(slot.is_none(), "{old} mapped twice");
        *slot = Some((
            NonZeroU32::new(old.version()).expect("versions are never 0"),
            new,
        ));
        self.len += 1;
    }

    /// The new id of `old`, or `None` if `old` was not moved (it was not alive
    /// in the merged world, or is a stale version of an entity that was).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut level = World::new();
    /// let gone = level.spawn(());
    /// level.despawn(gone)?;
    /// let kept = level.spawn(()); // same index, next version
    /// let moved = World::new().merge(level);
    /// assert!(moved.get(kept).is_some());
    /// assert_eq!(moved.get(gone), None);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn get(&self, old: Entity) -> Option<Entity> {
        match self.slots.get(old.index() as usize) {
            Some(Some((version, new))) if version.get() == old.version() => Some(*new),
            _ => None,
        }
    }

    /// How many entities moved.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut level = World::new();
    /// level.spawn_batch((0..3).map(|_| ()));
    /// assert_eq!(World::new().merge(level).len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether no entity moved.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// assert!(World::new().merge(World::new()).is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Every `(old, new)` pair, in the order of the old ids' indices.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut level = World::new();
    /// let ids = level.spawn_batch((0..3).map(|_| ()));
    /// let moved = World::new().merge(level);
    /// let old: Vec<Entity> = moved.iter().map(|(old, _)| old).collect();
    /// assert_eq!(old, ids);
    /// ```
    pub fn iter(&self) -> EntityMapIter<'_> {
        EntityMapIter {
            slots: self.slots.iter().enumerate(),
        }
    }
}

impl core::fmt::Debug for EntityMap {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl EntityMapper for EntityMap {
    /// The new id of an entity that moved; any other id unchanged (it may
    /// name an entity of the target world on purpose).
    #[inline]
    fn map_entity(&mut self, entity: Entity) -> Entity {
        self.get(entity).unwrap_or(entity)
    }
}

impl EntityMapper for &EntityMap {
    #[inline]
    fn map_entity(&mut self, entity: Entity) -> Entity {
        self.get(entity).unwrap_or(entity)
    }
}

impl<'a> IntoIterator for &'a EntityMap {
    type Item = (Entity, Entity);
    type IntoIter = EntityMapIter<'a>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

/// The `(old, new)` pairs of an [`EntityMap`], in the order of the old ids' indices.
///
/// ```
/// use ecs_core::prelude::*;
///
/// let mut level = World::new();
/// level.spawn(());
/// let moved = World::new().merge(level);
/// for (old, new) in &moved {
///     assert_eq!((old.index(), new.index()), (0, 0));
/// }
/// ```
#[derive(Clone)]
pub struct EntityMapIter<'a> {
    slots: core::iter::Enumerate<core::slice::Iter<'a, Option<(NonZeroU32, Entity)>>>,
}

impl Iterator for EntityMapIter<'_> {
    type Item = (Entity, Entity);

    fn next(&mut self) -> Option<(Entity, Entity)> {
        self.slots.find_map(|(index, slot)| {
            let (version, new) = (*slot)?;
            Some((Entity::new(index as u32, version), new))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(index: u32, version: u32) -> Entity {
        Entity::new(index, NonZeroU32::new(version).unwrap())
    }

    #[test]
    fn get_checks_the_old_version_and_unknown_ids_map_to_themselves() {
        let mut map = EntityMap::with_slots(4);
        map.insert(e(2, 3), e(9, 1));
        assert_eq!(map.get(e(2, 3)), Some(e(9, 1)));
        assert_eq!(map.get(e(2, 2)), None);
        assert_eq!(map.get(e(1, 1)), None);
        assert_eq!(map.get(e(7, 1)), None, "beyond the slots");
        assert_eq!(map.map_entity(e(2, 2)), e(2, 2));
        assert_eq!(map.map_entity(e(2, 3)), e(9, 1));
        assert_eq!(map.len(), 1);
    }

    #[test]
    fn containers_map_every_id_they_hold() {
        let mut shift = |x: Entity| e(x.index() + 10, x.version());
        let mut values = (
            Some(e(0, 1)),
            vec![e(1, 1), e(2, 1)],
            [e(3, 1); 2],
            VecDeque::from([e(4, 1)]),
            Box::new(e(5, 1)),
            None::<Entity>,
        );
        values.0.map_entities(&mut shift);
        values.1.map_entities(&mut shift);
        values.2.map_entities(&mut shift);
        values.3.map_entities(&mut shift);
        values.4.map_entities(&mut shift);
        values.5.map_entities(&mut shift);
        assert_eq!(values.0, Some(e(10, 1)));
        assert_eq!(values.1, [e(11, 1), e(12, 1)]);
        assert_eq!(values.2, [e(13, 1); 2]);
        assert_eq!(values.3, [e(14, 1)]);
        assert_eq!(*values.4, e(15, 1));
        assert_eq!(values.5, None);
    }
}
