//! A live inspector for a running [`ecs_core`] world, served over HTTP from
//! the game's own process: a page for a browser (plain HTML, JavaScript and
//! CSS compiled in, so it works offline) and JSON endpoints behind each of
//! its views, for scripts.
//!
//! ```no_run
//! use ecs_core::prelude::*;
//! use ecs_inspector::Inspector;
//!
//! # fn main() -> Result<(), Box<dyn std::error::Error>> {
//! let mut world = World::new();
//! let mut schedule = Schedule::new();
//! let mut inspector = Inspector::bind("127.0.0.1:7878")?;      // starts a server thread
//! loop {
//!     schedule.run(&mut world)?;
//!     inspector.serve(&mut world, &schedule);                   // answers pending requests, bounded time
//! }
//! # }
//! ```
//!
//! - The page shows the world (entity count, component types, how many
//!   entities hold each and their bytes), an entity table filtered by
//!   components and paged, one entity with every component's value, the
//!   schedule (stages, batches, why pairs cannot overlap), per-system
//!   timings as a live chart, and the event types and observers.
//! - Reading only, unless the game starts it with
//!   [`allow_writes`](Inspector::allow_writes): then the page can pause,
//!   step and resume the game, despawn entities and edit
//!   [`editable`](Inspector::editable) components, always between frames,
//!   inside [`serve`](Inspector::serve).
//! - Loopback addresses only, unless the game names another with
//!   [`bind_exposed`](Inspector::bind_exposed); requests bounded in size,
//!   rate and time ([`Limits`]); a malformed or hostile request gets a 4xx
//!   that says why; `serve` keeps to its time budget however slow the
//!   clients are.
//!
//! The crate has no `unsafe` code.

#![forbid(unsafe_code)]

mod answer;
mod control;
mod edit;
mod error;
mod http;
mod inspector;
mod job;
mod limits;
mod page;
mod route;

pub use error::InspectorError;
pub use inspector::{DEFAULT_BUDGET, Inspector};
pub use limits::Limits;
