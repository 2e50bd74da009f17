#![doc = include_str!("../../README.md")]
//!
//! ## Crate map
//!
//! - [`World`]: entities and their components; every operation on an entity.
//! - [`Entity`]: a versioned id; stale ids are errors, never aliases.
//! - [`Component`] and `#[derive(Component)]`: what can be stored.
//! - [`Bundle`]: what `spawn` takes.
//! - [`Error`]: what went wrong, in words.

// Lets the derive macros' `::ecs_core::...` paths resolve inside this crate too.
#[allow(
    unused_extern_crates,
    reason = "used by derive-generated code in this crate's tests"
)]
extern crate self as ecs_core;

mod bundle;
mod component;
mod deferred_panic;
mod entity;
mod entity_ref;
mod error;
mod group;
mod macros;
mod placement;
pub mod prelude;
pub mod query;
mod sparse_index;
mod sparse_set;
mod stats;
mod storage;
mod world;

pub use bundle::Bundle;
pub use component::{Component, ComponentId, ComponentInfo};
pub use ecs_derive::{Component, Query};
pub use entity::Entity;
pub use entity_ref::{EntityMut, EntityRef};
pub use error::Error;
pub use query::Query;
pub use stats::WorldStats;
pub use world::World;

/// Proof, checked at compile time, that worlds and ids cross threads.
const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<World>();
    assert_send_sync::<Entity>();
    assert_send_sync::<Error>();
};
