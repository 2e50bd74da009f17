//! Runnable examples of `ecs-core`. Run one with
//! `cargo run --release -p examples --example <name>`; the sources are in `examples/examples/`.
//!
//! The larger demos keep their simulation here, in the library, so tests and
//! benches can run the very code the demo runs: [`boids`], [`streaming`],
//! the [`arena`] (rollback networking over ggrs), the [`hierarchy`] (a solar system as a scene graph), and the [`tour`] that
//! `examples/tour.rs` prints.

#![forbid(unsafe_code)]

pub mod arena;
pub mod boids;
mod cli;
pub mod hierarchy;
pub mod streaming;
pub mod tour;

/// The README's Rust blocks, compiled and run as doctests so no example in it can rot; the
/// guide's chapters below are included the same way, one item each.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;

/// The guide on entities, components, views and resources.
#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/entities.md")]
pub struct GuideEntities;

/// The guide on queries: fetches, filters, derived and prepared queries.
#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/queries.md")]
pub struct GuideQueries;

/// The guide on systems, the schedule and the frame.
#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/systems.md")]
pub struct GuideSystems;

/// The guide on events, observers, hooks and required components.
#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/events-and-observers.md")]
pub struct GuideEventsAndObservers;

/// The guide on relationships: `ChildOf` / `Children` and a game's own pairs.
#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/relationships.md")]
pub struct GuideRelationships;

/// The guide on change detection of components and resources.
#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/change-detection.md")]
pub struct GuideChangeDetection;

/// The guide on merging worlds, snapshots and cloning entities.
#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/worlds-that-travel.md")]
pub struct GuideWorldsThatTravel;

/// The guide on rollback: save, restore and checksum.
#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/multiplayer.md")]
pub struct GuideMultiplayer;

/// The guide on the inspector: binding it, and what it shows.
#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/inspector.md")]
pub struct GuideInspector;

/// The guide on performance: groups, layout and cached matches.
#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/performance.md")]
pub struct GuidePerformance;

/// The guide on reliability (shell blocks and tables; no Rust block yet).
#[cfg(doctest)]
#[doc = include_str!("../../docs/guide/reliability.md")]
pub struct GuideReliability;
