//! What a world, a query or a schedule reports about itself: entities and
//! their components as text, the kinds of things a world holds, memory and
//! layout, cached matches, system timings and the schedule's plan. Tools (the
//! inspector, a debug overlay, a test) name these types; a game's systems
//! rarely do, so they stay out of the prelude.
//!
//! ```
//! use ecs_core::diagnostics::{EntityInspection, WorldStats};
//! use ecs_core::prelude::*;
//!
//! #[derive(Component, Debug)]
//! struct Health(i32);
//!
//! let mut world = World::new();
//! let e = world.spawn(Health(3));
//! let inspection: EntityInspection = world.inspect(e)?;
//! assert!(inspection.to_string().contains("Health(3)"));
//! let stats: WorldStats = world.stats();
//! assert_eq!(stats.live_entities, 1);
//! # Ok::<(), Error>(())
//! ```

pub use crate::query::MatchStats;
pub use crate::schedule::{Explanation, Overlap, StageExplanation, SystemStats};
pub use crate::world::{
    ComponentInspection, ComponentType, EntityInspection, HeapBreakdown, HeldComponent,
    LayoutStats, ObserverEntry, StorageLayout, TreeInspection, WorldInspection, WorldStats,
};
