//! Relationships: a component on one entity (the *source*) that points at
//! another (the *target*), and a list on the target of every source that
//! points at it, kept in step by the world.
//!
//! [`ChildOf`] / [`Children`] is the one a scene graph needs; a game
//! declares its own pairs with the same derive:
//!
//! ```
//! use ecs_core::prelude::*;
//!
//! #[derive(Component)]
//! #[relationship(target = Followers)]
//! struct Follows(#[entity] Entity);
//!
//! #[derive(Component)]
//! #[relationship_target(relationship = Follows)]
//! struct Followers(Vec<Entity>);
//!
//! let mut world = World::new();
//! let star = world.spawn(());
//! let fan = world.spawn(Follows(star));
//! assert_eq!(world.get::<Followers>(star)?.sources(), &[fan]);
//! world.despawn(star)?; // no `linked_spawn`: the fan stays, without `Follows`
//! assert!(world.is_alive(fan) && !world.contains::<Follows>(fan));
//! # Ok::<(), Error>(())
//! ```
//!
//! Both sides are ordinary components: storages, queries, hooks and
//! observers treat them as any other. What keeps them whole:
//!
//! - every insert of a relationship through the world's methods, entity
//!   handles, typed views, spawns and commands is checked first
//!   (`check.rs`): a dead target, the entity itself, or a cycle is an error
//!   and nothing changes; a snapshot's columns, which arrive whole, are
//!   checked for loops before any world takes them (`acyclic.rs`);
//! - the relationship's `on_insert` and `on_replace` hooks add the source to
//!   its target's list and take it out again (`hooks.rs`), so every path
//!   that adds or removes components, despawns, clears, merges or loads
//!   keeps the pair;
//! - the target list's own hooks hand its sources on when it leaves: with
//!   `linked_spawn` they are despawned with it, else they lose the
//!   relationship;
//! - a target list cannot be given by hand (its field is private to its
//!   module, and the world refuses it from inserts and spawns).
//!
//! Removing one source is O(1): the world remembers each source's place in
//! its target's list (`slots.rs`) and fills the hole with the last source.

#[cfg(feature = "serde")]
mod acyclic;
mod check;
mod hierarchy;
mod hooks;
mod slots;
mod traverse;

use crate::component::Component;
use crate::entity::Entity;

#[cfg(feature = "serde")]
pub(in crate::world) use acyclic::find_relationship_cycle;
pub use hierarchy::{ChildOf, Children, SpawnChildren};
pub use hooks::{
    relationship_on_insert, relationship_on_replace, target_on_insert, target_on_replace,
};
pub(in crate::world) use slots::RelationshipSlots;
pub(in crate::world) use traverse::TreeNode;

/// A component that points its entity at another: `#[derive(Component)]`
/// with `#[relationship(target = List)]` on a struct of one `Entity` field
/// implements it, with the hooks that keep `List` on the target in step.
///
/// Each entity has at most one value of a relationship type, so the
/// sources of one target form a tree: inserting a relationship whose
/// target is the entity itself, or one of the entities that reach it
/// through the same relationship, fails with
/// [`Error::RelationshipCycle`](crate::Error::RelationshipCycle).
///
/// ```
/// use ecs_core::prelude::*;
///
/// let mut world = World::new();
/// let ship = world.spawn(());
/// let turret = world.spawn(ChildOf(ship));
/// assert_eq!(world.get::<ChildOf>(turret)?.target(), ship);
/// assert_eq!(ChildOf::from_target(ship), ChildOf(ship));
/// # Ok::<(), Error>(())
/// ```
pub trait Relationship: Component {
    /// The list the target holds of its sources.
    type Target: RelationshipTarget<Relationship = Self>;

    /// The entity this value points at.
    fn target(&self) -> Entity;

    /// A value pointing at `target`.
    fn from_target(target: Entity) -> Self;
}

/// The list a relationship's target holds of the entities that point at it:
/// `#[derive(Component)]` with `#[relationship_target(relationship = R)]`
/// on a struct of one private `Vec<Entity>` field implements it.
///
/// The world keeps it: it appears on an entity when the first source points
/// at it and leaves with the last, and it cannot be inserted by hand.
/// Its order is the order the sources arrived in until one leaves; the
/// last source then takes the leaver's place, so a removal costs O(1).
///
/// With `#[relationship_target(relationship = R, linked_spawn)]`, despawning
/// the target despawns its sources (and theirs, down the tree); without,
/// the sources lose their relationship and stay.
///
/// ```
/// use ecs_core::prelude::*;
///
/// let mut world = World::new();
/// let ship = world.spawn(());
/// let turret = world.spawn(ChildOf(ship));
/// assert_eq!(world.get::<Children>(ship)?.sources(), &[turret]);
/// assert!(Children::LINKED_SPAWN);
/// # Ok::<(), Error>(())
/// ```
pub trait RelationshipTarget: Component {
    /// The relationship whose sources this lists.
    type Relationship: Relationship<Target = Self>;

    /// Whether despawning the target despawns its sources too.
    const LINKED_SPAWN: bool;

    /// The entities that point here, in the order described on the trait.
    fn sources(&self) -> &[Entity];

    /// The list itself, for the world's hooks only: the [`ListKey`] it asks
    /// for cannot be made outside this crate.
    #[doc(hidden)]
    fn sources_mut(&mut self, key: ListKey) -> &mut Vec<Entity>;

    /// A list holding `sources`, for the world's hooks only.
    #[doc(hidden)]
    fn from_sources(sources: Vec<Entity>, key: ListKey) -> Self;
}

/// What the world hands a target list's hidden methods: the proof that the
/// caller is the world's own relationship code. It has no public
/// constructor, so no game can reach a list's entities to change them.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub struct ListKey(());

impl ListKey {
    /// The key, for this module's hooks.
    pub(super) const KEY: ListKey = ListKey(());
}
