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
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Component, Clone, Serialize, Deserialize, Debug, PartialEq)]
//! struct Position { x: f32, y: f32 }
//! #[derive(Component, Clone, Serialize, Deserialize, Debug, PartialEq)]
//! struct Target { #[entity] entity: Entity }
//!
//! let mut registry = PersistRegistry::new();
//! registry.register::<Position>("game::Position").rollback().snapshot();
//! registry.register::<Target>("game::Target").rollback().snapshot();
//!
//! let mut world = World::new();
//! let a = world.spawn(Position { x: 1.0, y: 2.0 });
//! let b = world.spawn(Target { entity: a });
//!
//! // Rollback: saved in memory, put back exactly.
//! let saved = registry.save(&world);
//! world.despawn(a)?;
//! registry.restore(&mut world, &saved)?;
//! assert_eq!(world.get::<Position>(a)?, &Position { x: 1.0, y: 2.0 });
//!
//! // Snapshots: into a fresh world, the same ids.
//! let bytes = postcard::to_allocvec(&registry.snapshot(&world)).unwrap();
//! let copy = registry.world_from_snapshot(&mut postcard::Deserializer::from_bytes(&bytes))?;
//! assert_eq!(copy.get::<Target>(b)?.entity, a);
//!
//! // Into a running world: fresh ids, references rewritten.
//! let mut running = World::new();
//! running.spawn(());
//! let moved = registry.load_snapshot(&mut running, &mut postcard::Deserializer::from_bytes(&bytes))?;
//! let (new_a, new_b) = (moved.get(a).unwrap(), moved.get(b).unwrap());
//! assert_eq!(running.get::<Target>(new_b)?.entity, new_a);
//!
//! // Broken input is an error, and the world is untouched.
//! let broken = &bytes[..bytes.len() - 1];
//! assert!(registry.load_snapshot(&mut running, &mut postcard::Deserializer::from_bytes(broken)).is_err());
//! assert_eq!(running.len(), 3);
//! # Ok::<(), Error>(())
//! ```

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
