//! The error type of every fallible world operation.

use core::fmt;

use crate::component::Component;
use crate::entity::{DeadEntity, Entity};
use crate::util::ShortName;

/// What went wrong when a world was asked to do something with an entity.
///
/// Every variant names the entity as `Debug` prints it (`5v2`), and `Display`
/// says in plain words what happened.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component, Debug)]
/// struct Position(f32, f32);
///
/// let mut world = World::new();
/// let e = world.spawn(());
/// let err = world.get::<Position>(e).unwrap_err();
/// assert_eq!(err.to_string(), "entity 0v1 does not have component `Position`");
///
/// world.despawn(e)?;
/// assert_eq!(world.despawn(e).unwrap_err().to_string(), "entity 0v1 was despawned");
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// The entity existed in this world but has been despawned since.
    Despawned {
        /// The stale handle.
        entity: Entity,
    },
    /// This world never handed out the handle: it is from another world, or made up.
    NeverSpawned {
        /// The unknown handle.
        entity: Entity,
    },
    /// The entity is alive but does not hold the requested component.
    MissingComponent {
        /// The live entity.
        entity: Entity,
        /// The full type name of the missing component (`std::any::type_name`).
        component: &'static str,
    },
    /// The entity holds a component that a query excludes with `Without`.
    ExcludedComponent {
        /// The live entity.
        entity: Entity,
        /// The full type name of the excluded component.
        component: &'static str,
    },
    /// The entity does not pass a query filter such as `Or<(..)>`.
    FilteredOut {
        /// The live entity.
        entity: Entity,
        /// The full type name of the filter.
        filter: &'static str,
    },
    /// A group was declared with fewer than two distinct component types.
    GroupTooSmall {
        /// The type name of the declared group.
        group: &'static str,
    },
    /// A group was declared with a component type another group already owns.
    GroupConflict {
        /// The type name of the declared group.
        group: &'static str,
        /// The type name of the group that owns `component`.
        other: &'static str,
        /// The full type name of the component both groups want.
        component: &'static str,
    },
    /// `Query::slices` was asked of a query no group serves exactly.
    NotGrouped {
        /// The full type name of the query's fetch.
        query: &'static str,
    },
    /// `single` found no matching entity.
    NoMatch {
        /// The full type name of the query's fetch.
        query: &'static str,
    },
    /// `single` found more than one matching entity.
    MultipleMatches {
        /// The full type name of the query's fetch.
        query: &'static str,
    },
    /// The world holds no resource of the requested type.
    MissingResource {
        /// The full type name of the missing resource.
        resource: &'static str,
    },
}

impl Error {
    /// The entity the error is about, if it is about one.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// world.despawn(e)?;
    /// assert_eq!(world.despawn(e).unwrap_err().entity(), Some(e));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn entity(&self) -> Option<Entity> {
        match *self {
            Error::Despawned { entity }
            | Error::NeverSpawned { entity }
            | Error::MissingComponent { entity, .. }
            | Error::ExcludedComponent { entity, .. }
            | Error::FilteredOut { entity, .. } => Some(entity),
            Error::NoMatch { .. }
            | Error::MultipleMatches { .. }
            | Error::GroupTooSmall { .. }
            | Error::GroupConflict { .. }
            | Error::NotGrouped { .. }
            | Error::MissingResource { .. } => None,
        }
    }

    /// The error for a live `entity` that lacks a `T`.
    #[cold]
    pub(crate) fn missing<T: Component>(entity: Entity) -> Self {
        Error::MissingComponent {
            entity,
            component: core::any::type_name::<T>(),
        }
    }

    /// The error for a resource of type `R` the world does not hold.
    #[cold]
    pub(crate) fn missing_resource<R: 'static>() -> Self {
        Error::MissingResource {
            resource: core::any::type_name::<R>(),
        }
    }
}

impl From<DeadEntity> for Error {
    #[cold]
    fn from(dead: DeadEntity) -> Self {
        let entity = dead.entity;
        if dead.despawned {
            Error::Despawned { entity }
        } else {
            Error::NeverSpawned { entity }
        }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Despawned { entity } => write!(f, "entity {entity:?} was despawned"),
            Error::NeverSpawned { entity } => {
                write!(f, "entity {entity:?} was never spawned in this world")
            }
            Error::MissingComponent { entity, component } => write!(
                f,
                "entity {entity:?} does not have component `{}`",
                ShortName(component)
            ),
            Error::ExcludedComponent { entity, component } => write!(
                f,
                "entity {entity:?} has component `{}`, which the query excludes",
                ShortName(component)
            ),
            Error::FilteredOut { entity, filter } => write!(
                f,
                "entity {entity:?} does not pass the query filter `{}`",
                ShortName(filter)
            ),
            Error::GroupTooSmall { group } => write!(
                f,
                "the group `{}` needs at least two distinct component types",
                ShortName(group)
            ),
            Error::GroupConflict {
                group,
                other,
                component,
            } => write!(
                f,
                "cannot declare the group `{}`: `{}` is already owned by the group `{}`, \
                 and a component type can belong to one group only",
                ShortName(group),
                ShortName(component),
                ShortName(other)
            ),
            Error::NotGrouped { query } => write!(
                f,
                "the query `{}` is not served by a group: declare one with exactly its \
                 components (`world.group::<(A, B)>()`) and use no filter to get its slices",
                ShortName(query)
            ),
            Error::NoMatch { query } => {
                write!(f, "no entity matches the query `{}`", ShortName(query))
            }
            Error::MultipleMatches { query } => write!(
                f,
                "more than one entity matches the query `{}`, which expected exactly one",
                ShortName(query)
            ),
            Error::MissingResource { resource } => write!(
                f,
                "the world has no resource `{}`: add it with `world.insert_resource(..)`",
                ShortName(resource)
            ),
        }
    }
}

impl std::error::Error for Error {}
