//! Everything a game needs, in one import: `use ecs_core::prelude::*;`.
//!
//! ```
//! use ecs_core::prelude::*;
//!
//! #[derive(Component)]
//! struct Position(f32, f32);
//!
//! let mut world = World::new();
//! let e: Entity = world.spawn(Position(0.0, 0.0));
//! let _: Result<&Position, Error> = world.get::<Position>(e);
//! ```

pub use crate::change::Mut;
pub use crate::observer::{OnAdd, OnInsert, OnRemove};
pub use crate::query::{Added, Changed, Or, ReadOnlyQuery, With, Without};
pub use crate::schedule::{Schedule, Stage};
pub use crate::system::{EventReader, EventWriter, IntoSystem, Local, Res, ResMut, System};
pub use crate::{
    Bundle, Commands, Component, ComponentHook, ComponentHooks, DeferredWorld, Entity, EntityMap,
    EntityMut, EntityRef, Error, HookContext, HookKind, MapEntities, ObserverId, Query,
    SystemParam, World,
};
