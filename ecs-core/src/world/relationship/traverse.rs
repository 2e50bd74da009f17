//! Walking a relationship's trees: down through target lists (depth first,
//! pre-order), up through relationships, from a world or a query.

use crate::entity::Entity;
use crate::query::{Query, QueryFilter};

use super::super::World;
use super::{ChildOf, Children, Relationship, RelationshipTarget};

/// The entities below a root, depth first, each before its own children,
/// siblings in list order; `lists` gives an entity's list.
fn descend<'a>(
    root: Entity,
    lists: impl Fn(Entity) -> Option<&'a [Entity]>,
) -> impl Iterator<Item = Entity> {
    let mut stack: Vec<Entity> = lists(root)
        .map(|list| list.iter().rev().copied().collect())
        .unwrap_or_default();
    core::iter::from_fn(move || {
        let next = stack.pop()?;
        if let Some(list) = lists(next) {
            stack.extend(list.iter().rev().copied());
        }
        Some(next)
    })
}

/// The entities above an entity, nearest first; `up` gives an entity's
/// target. The bound keeps a broken tree from looping.
fn ascend(
    start: Entity,
    bound: usize,
    up: impl Fn(Entity) -> Option<Entity>,
) -> impl Iterator<Item = Entity> {
    let mut at = start;
    let mut left = bound;
    core::iter::from_fn(move || {
        left = left.checked_sub(1)?;
        at = up(at)?;
        Some(at)
    })
}

impl World {
    /// Every entity below `root` in the scene graph (its children, theirs,
    /// and so on), depth first, each before its own children: the order to
    /// propagate anything down. Empty for an entity without children, or
    /// one that is not alive.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut world = World::new();
    /// let root = world.spawn(());
    /// let a = world.spawn(ChildOf(root));
    /// let a1 = world.spawn(ChildOf(a));
    /// let b = world.spawn(ChildOf(root));
    /// assert_eq!(world.descendants(root).collect::<Vec<_>>(), [a, a1, b]);
    /// ```
    pub fn descendants(&self, root: Entity) -> impl Iterator<Item = Entity> + '_ {
        self.descendants_through::<Children>(root)
    }

    /// The parent of `entity`, its parent, and so on up to the root.
    /// Empty for an entity without a parent, or one that is not alive.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut world = World::new();
    /// let root = world.spawn(());
    /// let mid = world.spawn(ChildOf(root));
    /// let leaf = world.spawn(ChildOf(mid));
    /// assert_eq!(world.ancestors(leaf).collect::<Vec<_>>(), [mid, root]);
    /// ```
    pub fn ancestors(&self, entity: Entity) -> impl Iterator<Item = Entity> + '_ {
        self.ancestors_through::<ChildOf>(entity)
    }

    /// As [`descendants`](Self::descendants), down the target lists `T` of
    /// any relationship.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// #[relationship(target = Followers)]
    /// struct Follows(#[entity] Entity);
    /// #[derive(Component)]
    /// #[relationship_target(relationship = Follows)]
    /// struct Followers(Vec<Entity>);
    ///
    /// let mut world = World::new();
    /// let star = world.spawn(());
    /// let fan = world.spawn(Follows(star));
    /// let fan_of_fan = world.spawn(Follows(fan));
    /// let all: Vec<_> = world.descendants_through::<Followers>(star).collect();
    /// assert_eq!(all, [fan, fan_of_fan]);
    /// ```
    pub fn descendants_through<T: RelationshipTarget>(
        &self,
        root: Entity,
    ) -> impl Iterator<Item = Entity> + '_ {
        descend(root, move |entity| {
            self.get::<T>(entity).ok().map(RelationshipTarget::sources)
        })
    }

    /// As [`ancestors`](Self::ancestors), up the relationship `R`.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut world = World::new();
    /// let root = world.spawn(());
    /// let leaf = world.spawn(ChildOf(root));
    /// assert_eq!(world.ancestors_through::<ChildOf>(leaf).collect::<Vec<_>>(), [root]);
    /// ```
    pub fn ancestors_through<R: Relationship>(
        &self,
        entity: Entity,
    ) -> impl Iterator<Item = Entity> + '_ {
        ascend(entity, self.len(), move |at| {
            self.get::<R>(at).ok().map(Relationship::target)
        })
    }
}

impl<'w, 'a, T: RelationshipTarget, F: QueryFilter> Query<'w, &'a T, F> {
    /// Every entity below `root` through the lists this query reads
    /// (`Query<&Children>`), depth first, each before its own children, as
    /// [`World::descendants`] gives them. An entity the query does not
    /// match (its filter refuses it) has no children here.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut world = World::new();
    /// let root = world.spawn(());
    /// let a = world.spawn(ChildOf(root));
    /// let a1 = world.spawn(ChildOf(a));
    /// let query = world.query::<&Children>();
    /// assert_eq!(query.iter_descendants(root).collect::<Vec<_>>(), [a, a1]);
    /// ```
    pub fn iter_descendants(&self, root: Entity) -> impl Iterator<Item = Entity> + '_ {
        descend(root, move |entity| {
            self.get(entity).ok().map(RelationshipTarget::sources)
        })
    }
}

impl<'w, 'a, R: Relationship, F: QueryFilter> Query<'w, &'a R, F> {
    /// The entities above `entity` through the relationship this query
    /// reads (`Query<&ChildOf>`), nearest first, as [`World::ancestors`]
    /// gives them.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut world = World::new();
    /// let root = world.spawn(());
    /// let mid = world.spawn(ChildOf(root));
    /// let leaf = world.spawn(ChildOf(mid));
    /// let query = world.query::<&ChildOf>();
    /// assert_eq!(query.iter_ancestors(leaf).collect::<Vec<_>>(), [mid, root]);
    /// ```
    pub fn iter_ancestors(&self, entity: Entity) -> impl Iterator<Item = Entity> + '_ {
        ascend(entity, usize::MAX, move |at| {
            self.get(at).ok().map(Relationship::target)
        })
    }
}
