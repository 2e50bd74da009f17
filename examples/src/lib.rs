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

/// The README's Rust blocks, compiled and run as doctests so no example in it can rot.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeDoctests;
