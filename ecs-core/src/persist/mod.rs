//! Persistence: the component and resource types a game saves for rollback,
//! hashes for its checksum and writes into snapshots, registered once in
//! one [`PersistRegistry`].
//!
//! - **Rollback** (`.rollback()` and its hashed forms):
//!   [`PersistRegistry::save`] copies the allocator and the registered
//!   storages and resources into a [`WorldState`] every frame,
//!   [`PersistRegistry::restore`] puts one back exactly, and
//!   [`PersistRegistry::checksum`] / [`WorldState::checksum`] compare worlds
//!   across peers, the same on every machine ([`ChecksumHasher`]).
//! - **Snapshots** (`.snapshot()`, feature `serde`):
//!   [`PersistRegistry::snapshot`] is a `Snapshot` to serialize with any
//!   serde format; [`PersistRegistry::world_from_snapshot`] builds a fresh
//!   world with every id preserved (versions included, so old handles stay
//!   valid, and the next spawns get the ids the saved world would have
//!   handed out); [`PersistRegistry::load_snapshot`] loads into a running
//!   world with fresh ids, as `World::merge` does, rewriting `#[entity]`
//!   fields, and returns where each entity went.
//!
//! ```
//! use ecs_core::prelude::*;
//!
//! #[derive(Component, Clone, Hash, Debug, PartialEq)]
//! struct Position { x: i32, y: i32 }
//! #[derive(Component, Clone, Debug, PartialEq)]
//! struct Target { #[entity] entity: Entity }
//!
//! let mut registry = PersistRegistry::new();
//! registry.register::<Position>("game::Position").rollback_hashed();
//! registry.register::<Target>("game::Target").rollback();
//!
//! let mut world = World::new();
//! let a = world.spawn(Position { x: 1, y: 2 });
//! let b = world.spawn(Target { entity: a });
//!
//! // Saved in memory, put back exactly: the same ids, the same values.
//! let saved = registry.save(&world);
//! world.despawn(a)?;
//! assert_ne!(registry.checksum(&world), saved.checksum());
//! registry.restore(&mut world, &saved)?;
//! assert_eq!(world.get::<Position>(a)?, &Position { x: 1, y: 2 });
//! assert_eq!(world.get::<Target>(b)?.entity, a);
//! assert_eq!(registry.checksum(&world), saved.checksum());
//! # Ok::<(), Error>(())
//! ```
//!
//! With feature `serde`, the same registrations add `.snapshot()`; the
//! examples of [`PersistRegistry::snapshot`], `world_from_snapshot` and
//! `load_snapshot` write and read one.

mod registry;
mod rollback;
#[cfg(feature = "serde")]
mod snapshot;

pub use registry::{
    ComponentRegistration, PersistRegistry, RelationshipRegistration, ResourceRegistration,
};
pub use rollback::{ChecksumHasher, WorldState};
#[cfg(feature = "serde")]
pub use snapshot::Snapshot;
