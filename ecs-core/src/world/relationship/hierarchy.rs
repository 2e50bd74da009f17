//! The scene graph: [`ChildOf`] on a child, [`Children`] on its parent, and
//! [`SpawnChildren`] (what `children![..]` makes) to spawn a subtree at once.

use core::cmp::Ordering;
use core::fmt;
use core::ops::Deref;

use crate::Component;
use crate::bundle::Bundle;
use crate::entity::Entity;

use super::super::{DeferredWorld, HookContext, World};

/// The parent of an entity: the relationship a scene graph is made of.
/// The parent's [`Children`] lists it.
///
/// Inserting it checks the parent first: a dead parent is the usual
/// dead-entity error, and the entity itself or one of its descendants is
/// [`Error::RelationshipCycle`](crate::Error::RelationshipCycle); either
/// way nothing changes. Inserting it again re-parents the entity, both
/// lists following. `Children` is linked: despawning a parent despawns its
/// whole subtree.
///
/// ```
/// use ecs_core::prelude::*;
///
/// let mut world = World::new();
/// let ship = world.spawn(());
/// let turret = world.spawn(ChildOf(ship));
/// assert_eq!(world.get::<ChildOf>(turret)?.parent(), ship);
/// assert!(world.insert(ship, ChildOf(turret)).is_err(), "a cycle");
/// world.despawn(ship)?;
/// assert!(!world.is_alive(turret));
/// # Ok::<(), Error>(())
/// ```
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[relationship(target = Children)]
pub struct ChildOf(#[entity] pub Entity);

impl ChildOf {
    /// The parent entity.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut world = World::new();
    /// let parent = world.spawn(());
    /// assert_eq!(ChildOf(parent).parent(), parent);
    /// ```
    #[inline]
    pub fn parent(&self) -> Entity {
        self.0
    }
}

/// The children of an entity, kept by the world from their [`ChildOf`]:
/// it arrives with the first child and leaves with the last, and it cannot
/// be inserted by hand.
///
/// Children are listed in the order they became children until one
/// leaves; the last child then takes its place, so that a child leaves in
/// O(1) however many siblings it has. [`sort_by`](Self::sort_by) and
/// [`sort_by_key`](Self::sort_by_key) put them in an order of your choice.
///
/// ```
/// use ecs_core::prelude::*;
///
/// let mut world = World::new();
/// let parent = world.spawn(());
/// let [a, b, c] = [(); 3].map(|()| world.spawn(ChildOf(parent)));
/// assert_eq!(world.get::<Children>(parent)?.as_slice(), &[a, b, c]);
/// world.despawn(a)?;
/// assert_eq!(world.get::<Children>(parent)?.as_slice(), &[c, b]);
/// world.get_mut::<Children>(parent)?.sort_by_key(|e| e.index());
/// assert_eq!(world.get::<Children>(parent)?.as_slice(), &[b, c]);
/// # Ok::<(), Error>(())
/// ```
#[derive(Component, Clone, Debug, PartialEq, Eq, Hash)]
#[relationship_target(relationship = ChildOf, linked_spawn)]
pub struct Children(Vec<Entity>);

impl Children {
    /// The children, in the order described on the type.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut world = World::new();
    /// let parent = world.spawn(());
    /// let child = world.spawn(ChildOf(parent));
    /// assert_eq!(world.get::<Children>(parent)?.as_slice(), &[child]);
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn as_slice(&self) -> &[Entity] {
        &self.0
    }

    /// Orders the children by `compare` (a stable sort). The order holds
    /// until a child leaves or arrives.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut world = World::new();
    /// let parent = world.spawn(());
    /// let a = world.spawn(ChildOf(parent));
    /// let b = world.spawn(ChildOf(parent));
    /// world.get_mut::<Children>(parent)?.sort_by(|x, y| y.cmp(x));
    /// assert_eq!(world.get::<Children>(parent)?.as_slice(), &[b, a]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn sort_by(&mut self, compare: impl FnMut(&Entity, &Entity) -> Ordering) {
        self.0.sort_by(compare);
    }

    /// Orders the children by the key `key` gives each (a stable sort).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut world = World::new();
    /// let parent = world.spawn(());
    /// let a = world.spawn(ChildOf(parent));
    /// let b = world.spawn(ChildOf(parent));
    /// world.get_mut::<Children>(parent)?.sort_by_key(|e| core::cmp::Reverse(e.index()));
    /// assert_eq!(world.get::<Children>(parent)?.as_slice(), &[b, a]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn sort_by_key<K: Ord>(&mut self, key: impl FnMut(&Entity) -> K) {
        self.0.sort_by_key(key);
    }
}

impl Deref for Children {
    type Target = [Entity];

    #[inline]
    fn deref(&self) -> &[Entity] {
        &self.0
    }
}

impl<'a> IntoIterator for &'a Children {
    type Item = &'a Entity;
    type IntoIter = core::slice::Iter<'a, Entity>;

    #[inline]
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter()
    }
}

#[cfg(feature = "serde")]
mod serde_impls {
    //! `ChildOf` as its parent's id, `Children` as the list of ids, so both
    //! can be registered for snapshots.

    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    use super::{ChildOf, Children};
    use crate::entity::Entity;

    impl Serialize for ChildOf {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            self.0.serialize(serializer)
        }
    }

    impl<'de> Deserialize<'de> for ChildOf {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            Entity::deserialize(deserializer).map(ChildOf)
        }
    }

    impl Serialize for Children {
        fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
            self.0.serialize(serializer)
        }
    }

    impl<'de> Deserialize<'de> for Children {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            Vec::<Entity>::deserialize(deserializer).map(Children)
        }
    }
}

/// Spawns one child under the parent it is given.
type ChildSpawner = Box<dyn FnOnce(&mut World, Entity) + Send + Sync>;

/// Children to spawn under the entity this arrives on: what
/// [`children!`](crate::children) makes. Once it arrives, each bundle is
/// spawned with [`ChildOf`] the entity, in order, before the call that
/// spawned the parent returns, and this component leaves again.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::SpawnChildren;
///
/// #[derive(Component)]
/// struct Name(&'static str);
///
/// let mut world = World::new();
/// let parent = world.spawn((Name("fleet"), SpawnChildren::new().with(Name("a")).with(Name("b"))));
/// assert_eq!(world.get::<Children>(parent)?.len(), 2);
/// assert!(!world.contains::<SpawnChildren>(parent));
/// # Ok::<(), Error>(())
/// ```
#[derive(Component, Default)]
#[component(on_add = spawn_children)]
pub struct SpawnChildren(Vec<ChildSpawner>);

impl SpawnChildren {
    /// No children yet.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use ecs_core::SpawnChildren;
    ///
    /// let mut world = World::new();
    /// let lonely = world.spawn(SpawnChildren::new());
    /// assert!(!world.contains::<Children>(lonely));
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a child made of `bundle`, after those added so far.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use ecs_core::SpawnChildren;
    ///
    /// #[derive(Component)]
    /// struct Wheel;
    ///
    /// let mut world = World::new();
    /// let car = world.spawn(SpawnChildren::new().with(Wheel).with(Wheel));
    /// assert_eq!(world.get::<Children>(car)?.len(), 2);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn with<B: Bundle>(mut self, bundle: B) -> Self {
        self.0
            .push(Box::new(move |world: &mut World, parent: Entity| {
                world.spawn((bundle, ChildOf(parent)));
            }));
        self
    }

    /// How many children are waiting to be spawned.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// assert_eq!(children![(), ()].len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether no child is waiting to be spawned.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// assert!(children![].is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl fmt::Debug for SpawnChildren {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SpawnChildren({} waiting)", self.0.len())
    }
}

/// `on_add` of [`SpawnChildren`]: once the parent is in place, its
/// children are spawned and the component leaves.
fn spawn_children(mut world: DeferredWorld, ctx: HookContext) {
    let parent = ctx.entity;
    let Ok(waiting) = world.get_mut::<SpawnChildren>(parent) else {
        return;
    };
    let spawners = core::mem::take(&mut waiting.0);
    world.commands().add(move |world: &mut World| {
        if !world.is_alive(parent) {
            return;
        }
        world.transaction().remove::<SpawnChildren>(parent);
        for spawn in spawners {
            spawn(world, parent);
        }
    });
}

/// Children to spawn with an entity: `children![bundle, bundle, ..]` makes
/// a [`SpawnChildren`] that, spawned or inserted on an entity, spawns each
/// bundle as a child of it, in order. Children may have children of their
/// own.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Name(&'static str);
///
/// let mut world = World::new();
/// let fleet = world.spawn((Name("fleet"), children![(Name("a"),), (Name("b"), children![(Name("c"),)])]));
/// let names: Vec<_> = world.descendants(fleet).map(|e| world.get::<Name>(e).unwrap().0).collect();
/// assert_eq!(names, ["a", "b", "c"]);
/// ```
#[macro_export]
macro_rules! children {
    [$($child:expr),* $(,)?] => {
        $crate::SpawnChildren::new()$(.with($child))*
    };
}
