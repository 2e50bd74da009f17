//! The numbers the library tunes itself by: when the layout is re-sorted,
//! how often systems are timed, and when a system is worth another thread.
//! A game reads them to understand what it measures, and passes its own
//! values where a setter takes one
//! ([`Schedule::set_parallel_threshold`](crate::Schedule::set_parallel_threshold)).
//!
//! ```
//! use ecs_core::tuning::{DEFAULT_PARALLEL_THRESHOLD, MIN_LAYOUT_DEBT};
//! # use ecs_core::prelude::*;
//!
//! let mut schedule = Schedule::new();
//! schedule.set_parallel_threshold(DEFAULT_PARALLEL_THRESHOLD * 4); // cheap systems, big worlds
//! assert_eq!(MIN_LAYOUT_DEBT, 1_024);
//! ```

use core::time::Duration;

/// The fewest signature changes at which
/// [`World::maintain_layout`](crate::World::maintain_layout) sorts the
/// layout, so a small world is not re-sorted every few changes.
///
/// ```
/// assert_eq!(ecs_core::tuning::MIN_LAYOUT_DEBT, 1_024);
/// ```
pub const MIN_LAYOUT_DEBT: u64 = 1_024;

/// Systems run on the calling thread are timed one frame in this many: a
/// counter reading costs about as much as an empty system, and the times
/// only steer which systems are worth another thread and what
/// [`Schedule::stats`](crate::Schedule::stats) reports as last and mean.
/// Run counts stay exact. Systems handed to other threads, and exclusive
/// ones, are timed every run.
///
/// ```
/// assert_eq!(ecs_core::tuning::TIMED_EVERY, 8);
/// ```
pub const TIMED_EVERY: u64 = 8;

/// Below this many entities of estimated work, a system that has not run yet
/// runs on the calling thread rather than being handed to another: waking a
/// thread costs more than a few thousand cheap updates.
///
/// ```
/// use ecs_core::tuning::DEFAULT_PARALLEL_THRESHOLD;
/// # use ecs_core::prelude::*;
///
/// let mut schedule = Schedule::new();
/// schedule.set_parallel_threshold(DEFAULT_PARALLEL_THRESHOLD * 4); // cheap systems, big worlds
/// ```
pub const DEFAULT_PARALLEL_THRESHOLD: usize = 16_384;

/// Once a system has run, its last run time decides instead: below this, it
/// runs on the calling thread.
///
/// ```
/// use ecs_core::tuning::PARALLEL_MIN_RUN;
///
/// assert_eq!(PARALLEL_MIN_RUN.as_micros(), 50);
/// ```
pub const PARALLEL_MIN_RUN: Duration = Duration::from_micros(50);
