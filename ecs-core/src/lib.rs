//! A sparse-set Entity-Component-System for Rust games. Components are plain
//! structs with `#[derive(Component)]`; each type lives in its own sparse set,
//! so adding and removing a component is O(1) and never moves another type's
//! data, and entities are versioned ids that stay dead once despawned.
//!
//! ```
//! use ecs_core::prelude::*;
//!
//! #[derive(Component, Clone, Copy, Debug, PartialEq)]
//! struct Position { x: f32, y: f32 }
//!
//! #[derive(Component, Clone, Copy)]
//! struct Velocity { x: f32, y: f32 }
//!
//! fn movement(mut q: Query<(&mut Position, &Velocity)>) {
//!     for (pos, vel) in q.iter_mut() {
//!         pos.x += vel.x;
//!         pos.y += vel.y;
//!     }
//! }
//!
//! # fn main() -> Result<(), ecs_core::Error> {
//! let mut world = World::new();
//! let e = world.spawn((Position { x: 0.0, y: 0.0 }, Velocity { x: 1.0, y: 2.0 }));
//!
//! let mut schedule = Schedule::new();
//! schedule.add_system(Stage::Update, movement)?;
//! schedule.run(&mut world);
//! assert_eq!(*world.get::<Position>(e)?, Position { x: 1.0, y: 2.0 });
//!
//! world.despawn(e)?;
//! assert!(world.get::<Position>(e).is_err()); // a stale id is an error, never another entity
//! # Ok(())
//! # }
//! ```
//!
//! The repository's README and its guide (`docs/guide/`) walk through every
//! concept with examples that run as tests.
//!
//! ## Crate map
//!
//! What a game names, all of it in [`prelude`] unless said otherwise:
//!
//! - **The world**: [`World`] (entities and their components, resources,
//!   events, every operation on an entity), [`Entity`] (a versioned id: stale
//!   ids are errors, never aliases), [`EntityRef`] / [`EntityMut`] (handles),
//!   [`View`] / [`ViewMut`] (one type's storage for a loop), [`Error`] (what
//!   went wrong, in words).
//! - **Data**: [`Component`] and `#[derive(Component)]` (what can be stored),
//!   [`Bundle`] (what `spawn` takes), [`MapEntities`] and `#[entity]` fields
//!   (ids that follow [`World::merge`] and snapshot loads).
//! - **Queries**: [`Query`](struct@Query) and `#[derive(Query)]`; fetches `&T`, `&mut T`
//!   (yielding [`Mut`](change::Mut) for a type with `#[component(track_changes)]`),
//!   `Option<..>`, [`Entity`]; filters [`With`](query::With),
//!   [`Without`](query::Without), [`Or`](query::Or), [`Added`](query::Added),
//!   [`Changed`](query::Changed); [`ReadOnlyQuery`](query::ReadOnlyQuery).
//! - **Systems**: [`Schedule`] and [`Stage`]; params [`Res`](system::Res),
//!   [`ResMut`](system::ResMut), [`Local`](system::Local), [`Commands`],
//!   [`EventReader`](system::EventReader), [`EventWriter`](system::EventWriter),
//!   `&World`, and `#[derive(SystemParam)]`; [`System`](system::System) for a
//!   system that keeps state.
//! - **The frame**: ordering by value and in sets (`.after(f)`, `.chain()`,
//!   `in_set`), run conditions ([`Condition`](system::Condition), `run_if`),
//!   states ([`States`], [`State`](state::State), [`NextState`](state::NextState),
//!   [`OnEnter`](schedule::OnEnter) / [`OnExit`](schedule::OnExit)),
//!   [`Time`](time::Time) and `Stage::FixedUpdate`, one-shot systems
//!   ([`World::run_system`]), and the params [`ParamSet`](system::ParamSet),
//!   [`Single`](system::Single), [`RemovedComponents`](system::RemovedComponents).
//! - **Reacting to change**: [`event`]s ([`World::send`]); [`observer`]s
//!   ([`World::observe`] with [`OnAdd`](observer::OnAdd),
//!   [`OnInsert`](observer::OnInsert), [`OnRemove`](observer::OnRemove));
//!   component hooks ([`ComponentHooks`]: `#[component(on_add = f, ...)]`,
//!   run with a [`DeferredWorld`] and a [`HookContext`]).
//! - **Relationships**: [`ChildOf`] / [`Children`] and `children![..]`, custom
//!   pairs with `#[relationship]` / `#[relationship_target]` ([`Relationship`],
//!   [`RelationshipTarget`]), [`World::descendants`] / [`World::ancestors`];
//!   required components (`#[component(requires(..))]`); copies with
//!   [`World::clone_entity`] and [`World::clone_entity_recursive`] ([`CloneReport`]).
//! - **Worlds that travel** and **multiplayer**: [`World::merge`], and
//!   [`persist`]: one [`PersistRegistry`](persist::PersistRegistry) of the
//!   types a game saves every frame for rollback (restored exactly, hashed
//!   the same on every machine) and, with feature `serde`, writes into
//!   snapshots.
//! - **Looking inside**: [`World::inspect`], [`World::inspect_all`] and
//!   [`World::stats`], whose reports live in [`diagnostics`]; the numbers
//!   the library tunes itself by are in [`tuning`].

// Lets the derive macros' `::ecs_core::...` paths resolve inside this crate too.
#[allow(
    unused_extern_crates,
    reason = "used by derive-generated code in this crate's tests"
)]
extern crate self as ecs_core;

// Layers, lowest first. A module imports only from its own layer's siblings
// listed before it and from lower layers, never from a higher one
// (`tests/world/layers.rs` checks this; ARCHITECTURE.md draws it):
//
//   1. util                      panic collection, short names, TypeId hashing, macros
//      tuning                    the numbers the library tunes itself by
//   2. entity, change, component ids and the allocator; change ticks and `Mut`;
//                                Component, ids, info, masks
//      observer                  observer ids, triggers, the index by event
//   3. error                     the error type, in words
//   4. storage, resource, event  sparse index, sparse set, type-erased storages;
//                                one value per type beside the entities; event
//                                stores, reader cursors, the frame-end registry
//      state, time               game states (`State`, `NextState`); the clock
//   5. bundle, group             what spawn takes; owning groups
//   6. view, access              WorldView, the one door to a world's data; access sets
//   7. query                     fetches, filters, plans, iteration
//   8. world                     World: entity operations, the structural transaction
//                                with its hooks, commands, and every other `impl World`
//   9. persist                   one registry of the types a game persists: rollback
//                                (saved, restored, hashed) and snapshots (feature `serde`)
//  10. system                    params, function / exclusive / `System` systems, access
//  11. schedule                  stages, ordering, the executor, stats, explain
//  12. diagnostics, prelude      what a world, query or schedule reports about itself;
//                                the one import a game needs
mod util;

pub mod tuning;

mod entity;

pub mod change;
mod component;

pub mod observer;

mod error;

mod resource;
mod storage;

pub mod event;
pub mod state;
pub mod time;

mod bundle;
mod group;

mod access;
#[doc(hidden)]
pub mod view;

pub mod query;

mod world;

pub mod persist;

pub mod system;

pub mod schedule;

pub mod diagnostics;
pub mod prelude;

/// What `#[derive(Component)]`'s generated code names; not part of the API.
#[doc(hidden)]
pub mod __private {
    pub use crate::component::{
        CloneProbe, DebugProbe, RequirementVisitor, ViaClone, ViaDebug, WithoutClone, WithoutDebug,
    };
    pub use crate::world::declared_hooks;
    pub use crate::world::{
        ListKey, relationship_on_insert, relationship_on_replace, target_on_insert,
        target_on_replace,
    };
}

pub use bundle::Bundle;
pub use component::{Component, ComponentId, ComponentInfo, TrackedComponent};
pub use ecs_derive::{Component, EntityEvent, Event, MapEntities, Query, States, SystemParam};
pub use entity::{Entity, EntityMap, EntityMapper, MapEntities};
pub use error::{AccessClash, BoxedError, Error, SystemError};
pub use observer::ObserverId;
pub use query::Query;
pub use schedule::{Schedule, Stage};
pub use state::States;
#[doc(hidden)]
pub use world::relationship_target;
pub use world::{
    ChildOf, Children, CloneReport, Commands, ComponentHook, ComponentHooks, DeferredWorld,
    EntityCommands, EntityMut, EntityRef, FromWorld, HookContext, HookKind, IntoObserver, Observer,
    On, Relationship, RelationshipTarget, SpawnChildren, SystemId, View, ViewMut, World,
};
pub use world::{EntityEvent, Event};
// Plumbing a game does not name: what generated code and the crate's own
// types need, public for them and kept off the front page.
#[doc(hidden)]
pub use entity::EntityMapIter;
#[doc(hidden)]
pub use world::{
    CommandQueue, IntoOneShotSystem, MAX_OBSERVER_DEPTH, ObserverFire, ObserverInput, OneShotSystem,
};

/// Proof, checked at compile time, that worlds and ids cross threads.
const _: () = {
    const fn assert_send_sync<T: Send + Sync>() {}
    assert_send_sync::<World>();
    assert_send_sync::<Entity>();
    assert_send_sync::<Error>();
    const fn assert_send<T: Send>() {}
    assert_send::<Schedule>();
};
