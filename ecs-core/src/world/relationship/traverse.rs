//! Walking a relationship's trees: down through target lists (depth first,
//! pre-order), up through relationships, from a world or a query.

use core::any::TypeId;

use crate::entity::Entity;
use crate::error::Error;
use crate::query::{Query, QueryFilter};
use crate::storage::Storages;

use super::super::World;
use super::{ChildOf, Children, Relationship, RelationshipTarget};

/// The entities below a root, depth first, each before its own children,
/// siblings in list order; `lists` gives an entity's list.
///
/// `bound` is how many entities hold the relationship: in a forest no
/// root has more descendants, so the walk stops there even if something
/// ever broke the forest into a loop (which every load and insert refuses).
fn descend<'a>(
    root: Entity,
    bound: usize,
    lists: impl Fn(Entity) -> Option<&'a [Entity]>,
) -> impl Iterator<Item = Entity> {
    let mut stack: Vec<Entity> = lists(root)
        .map(|list| list.iter().rev().copied().collect())
        .unwrap_or_default();
    let mut left = bound;
    core::iter::from_fn(move || {
        left = left.checked_sub(1)?;
        let next = stack.pop()?;
        if let Some(list) = lists(next) {
            stack.extend(list.iter().rev().copied());
        }
        Some(next)
    })
}

/// The entities above an entity, nearest first; `up` gives an entity's
/// target. `bound` is how many entities hold the relationship: no chain in
/// a forest is longer, so a broken tree cannot loop.
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
        if at == start {
            // Back where the walk began: a loop, which a forest never has.
            left = 0;
            return None;
        }
        Some(at)
    })
}

/// How many entities hold `R`: the most any walk along `R` can visit.
fn holders<R: Relationship>(storages: &Storages) -> usize {
    storages.len_of(TypeId::of::<R>())
}

/// One entity of a subtree, as [`World::subtree`] lists it.
#[derive(Clone, Copy, Debug)]
pub(in crate::world) struct TreeNode {
    pub(in crate::world) entity: Entity,
    /// The position of the entity's parent in the list (0 for the root
    /// itself).
    pub(in crate::world) parent: usize,
    /// Levels below the root (the root is 0).
    pub(in crate::world) depth: usize,
}

impl World {
    /// The subtree under `root` through the target lists `T`: the root
    /// first, then depth first, each entity before its own children,
    /// siblings in list order. Linear in the entities listed.
    ///
    /// Fails with [`Error::RelationshipCycle`], naming an entity of the loop
    /// and the one whose list holds it, when the walk meets more entities
    /// than hold the relationship: only a loop makes that many.
    pub(in crate::world) fn subtree<T: RelationshipTarget>(
        &self,
        root: Entity,
    ) -> Result<Vec<TreeNode>, Error> {
        let bound = holders::<T::Relationship>(&self.data.storages);
        let mut nodes: Vec<TreeNode> = Vec::new();
        let mut stack = vec![TreeNode {
            entity: root,
            parent: 0,
            depth: 0,
        }];
        while let Some(node) = stack.pop() {
            if nodes.len() > bound {
                return Err(Error::RelationshipCycle {
                    entity: node.entity,
                    target: nodes[node.parent].entity,
                    relationship: core::any::type_name::<T::Relationship>(),
                });
            }
            let at = nodes.len();
            nodes.push(node);
            if let Ok(list) = self.get::<T>(node.entity) {
                // Last child first on the stack, so the first is walked first.
                stack.extend(list.sources().iter().rev().map(|&child| TreeNode {
                    entity: child,
                    parent: at,
                    depth: node.depth + 1,
                }));
            }
        }
        Ok(nodes)
    }

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
        let bound = holders::<T::Relationship>(&self.data.storages);
        descend(root, bound, move |entity| {
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
        let bound = holders::<R>(&self.data.storages);
        ascend(entity, bound, move |at| {
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
        let bound = holders::<T::Relationship>(self.view().storages());
        descend(root, bound, move |entity| {
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
        let bound = holders::<R>(self.view().storages());
        ascend(entity, bound, move |at| {
            self.get(at).ok().map(Relationship::target)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(index: u32) -> Entity {
        Entity::from_bits(1 << 32 | u64::from(index)).unwrap()
    }

    #[test]
    fn a_walk_down_a_loop_stops_at_its_bound() {
        // 0 lists 1, 1 lists 0: a loop no world should hold.
        let lists = [[e(1)], [e(0)]];
        let walked: Vec<Entity> =
            descend(e(0), 5, |at| Some(&lists[at.index() as usize][..])).collect();
        assert_eq!(walked, [e(1), e(0), e(1), e(0), e(1)]);
    }

    #[test]
    fn a_walk_up_a_loop_stops_where_it_began_or_at_its_bound() {
        let up = |at: Entity| Some(e((at.index() + 1) % 3));
        assert_eq!(ascend(e(0), 10, up).collect::<Vec<_>>(), [e(1), e(2)]);
        // A loop that does not pass the start: 0 -> 1 -> 2 -> 1 -> ...
        let up = |at: Entity| {
            Some(if at.index() == 2 {
                e(1)
            } else {
                e(at.index() + 1)
            })
        };
        assert_eq!(ascend(e(0), 4, up).count(), 4);
    }

    #[test]
    fn a_subtree_walk_of_a_looping_hierarchy_is_an_error_naming_the_loop() {
        let mut world = World::new();
        let root = world.spawn(());
        let a = world.spawn(ChildOf(root));
        let b = world.spawn(ChildOf(a));
        // Only a broken world loops: give `b` a list holding `a`, below
        // every check, so `a` lists `b` and `b` lists `a`.
        let list = Children::from_sources(vec![a], super::super::ListKey::KEY);
        let set = world.data.storages.get_mut::<Children>().unwrap();
        set.push_new(b, list, 0);
        let err = world.subtree::<Children>(root).unwrap_err();
        match err {
            Error::RelationshipCycle { entity, target, .. } => {
                assert!([a, b].contains(&entity) && [a, b].contains(&target));
            }
            other => panic!("expected a cycle, got {other}"),
        }
        assert!(world.descendants(root).count() <= world.len());
    }
}
