//! Snapshots (feature `serde`): save a whole world, or chosen component
//! types, with any serde format, and load it back.
//!
//! - [`SnapshotRegistry`] names the component and resource types a snapshot
//!   holds, each under a stable name (`"game::Position"`), so a snapshot
//!   survives a recompile and a rename of the type.
//! - `world.snapshot(&registry)` is a [`Snapshot`]: serialize it with any
//!   serde format (JSON, postcard, ...). It keeps the allocator's state, so a
//!   world restored from it hands out exactly the ids the original would
//!   have next: rollback replays the same frames to the same ids.
//! - `World::from_snapshot(&registry, deserializer)` builds a fresh world
//!   with every id preserved (versions included, so old handles stay valid).
//! - `world.load_snapshot(&registry, deserializer)` loads into a running
//!   world: entities get fresh ids, as in `World::merge`, fields marked
//!   `#[entity]` are rewritten, observers see `OnAdd`, and the returned
//!   [`EntityMap`](crate::EntityMap) says where each entity went.
//!
//! Each column is written and read by code made for its component type: in
//! a binary format its values are one byte string in postcard's wire format
//! (see [`Snapshot`] for the layout), in a human-readable one a sequence
//! whose writes are recorded once per column and played into the format.
//!
//! Loading checks everything before any world changes: truncated, corrupted
//! or crafted input gives [`Error::Snapshot`](crate::Error::Snapshot), never
//! a panic, and the world loaded into is left exactly as it was. No buffer
//! is sized by a length the input states.
//!
//! ```
//! use ecs_core::prelude::*;
//! use ecs_core::snapshot::SnapshotRegistry;
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Component, Serialize, Deserialize, Debug, PartialEq)]
//! struct Position { x: f32, y: f32 }
//! #[derive(Component, Serialize, Deserialize, Debug, PartialEq)]
//! struct Target { #[entity] entity: Entity }
//!
//! let mut registry = SnapshotRegistry::new();
//! registry.register::<Position>("game::Position").register::<Target>("game::Target");
//!
//! let mut world = World::new();
//! let a = world.spawn(Position { x: 1.0, y: 2.0 });
//! let b = world.spawn(Target { entity: a });
//! let bytes = postcard::to_allocvec(&world.snapshot(&registry)).unwrap();
//!
//! // Into a fresh world: the same ids.
//! let copy = World::from_snapshot(&registry, &mut postcard::Deserializer::from_bytes(&bytes))?;
//! assert_eq!(copy.get::<Position>(a)?, &Position { x: 1.0, y: 2.0 });
//! assert_eq!(copy.get::<Target>(b)?.entity, a);
//!
//! // Into a running world: fresh ids, references rewritten.
//! let mut running = World::new();
//! running.spawn(());
//! let moved = running.load_snapshot(&registry, &mut postcard::Deserializer::from_bytes(&bytes))?;
//! let (new_a, new_b) = (moved.get(a).unwrap(), moved.get(b).unwrap());
//! assert_eq!(running.get::<Target>(new_b)?.entity, new_a);
//!
//! // Broken input is an error, and the world is untouched.
//! let broken = &bytes[..bytes.len() - 1];
//! assert!(running.load_snapshot(&registry, &mut postcard::Deserializer::from_bytes(broken)).is_err());
//! assert_eq!(running.len(), 3);
//! # Ok::<(), Error>(())
//! ```

mod capped;
mod failure;
mod fields;
mod load;
mod packed;
mod registry;
mod save;
mod tape;

pub(crate) use load::{Loaded, load};
pub use registry::SnapshotRegistry;
pub use save::Snapshot;

/// The layout version written first in every snapshot; a snapshot of
/// another version is refused rather than misread.
const FORMAT_VERSION: u32 = 1;
