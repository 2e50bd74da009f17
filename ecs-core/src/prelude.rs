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
pub use crate::children;
pub use crate::observer::{OnAdd, OnInsert, OnRemove};
pub use crate::persist::{PersistRegistry, WorldState};
pub use crate::query::{Added, Changed, Or, ReadOnlyQuery, With, Without};
pub use crate::schedule::{ErrorHandler, OnEnter, OnExit, Schedule, Stage};
pub use crate::state::{NextState, State};
pub use crate::system::{
    Condition, EventReader, EventWriter, In, InMut, InRef, IntoOneShotSystem, IntoSystem,
    IntoSystemConfigs, IntoTypedSystem, Local, ObserverRunIf, ParamSet, RemovedComponents, Res,
    ResMut, Single, System, after, any_with_component, before, in_state, not, on_event,
    resource_added, resource_changed, resource_exists, run_if,
};
pub use crate::time::Time;
pub use crate::{
    Bundle, ChildOf, Children, Commands, Component, ComponentHook, ComponentHooks, DeferredWorld,
    Entity, EntityEvent, EntityMap, EntityMut, EntityRef, Error, Event, FromWorld, HookContext,
    HookKind, MapEntities, ObserverId, On, Query, Relationship, RelationshipTarget, States,
    SystemId, SystemParam, World,
};
