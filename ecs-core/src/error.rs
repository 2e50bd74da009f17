//! The error type of every fallible world operation.

use core::fmt;
use std::sync::Arc;

use crate::component::Component;
use crate::entity::{DeadEntity, Entity};
use crate::observer::ObserverId;
use crate::util::ShortName;

/// Where the clash of an [`Error::ConflictingAccess`] lies: what can fix it
/// differs.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::AccessClash;
///
/// struct Score(u32);
/// fn twice(_: ResMut<Score>, _: Res<Score>) {}
///
/// let err = Schedule::new().add_system(Stage::Update, twice).unwrap_err();
/// assert!(matches!(err, Error::ConflictingAccess { clash: AccessClash::Resource, .. }));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AccessClash {
    /// Two queries reach the component: filters no entity passes both of
    /// (`With<T>` in one, `Without<T>` in the other) set them apart.
    Queries,
    /// Two params reach one resource (an event store included); no filter
    /// sets them apart.
    Resource,
    /// One param reads the whole world (`&World`) and the other writes.
    WorldRead,
    /// One query fetches the type twice, one of them mutably (`first` and
    /// `second` of the error both name that query).
    WithinQuery {
        /// Whether its first fetch of the type writes (`&mut T`) or reads.
        first_writes: bool,
        /// Whether its second fetch writes.
        second_writes: bool,
    },
}

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
///
/// `Debug` shows the same words as `Display`, so a `main` that returns
/// `Result<(), Error>` and fails prints a sentence, not a variant:
///
/// ```
/// # use ecs_core::prelude::*;
/// let mut world = World::new();
/// let e = world.spawn(());
/// world.despawn(e)?;
/// let err = world.despawn(e).unwrap_err();
/// assert_eq!(format!("{err:?}"), err.to_string());
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, PartialEq, Eq)]
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
    /// A system ran and returned an `Err`: a one-shot run's error (a
    /// schedule hands its systems' errors to its error handler instead).
    SystemFailed(SystemError),
    /// An observer ran and returned an `Err`; its
    /// [`system`](SystemError::system) is the observer's name. Recorded
    /// with the world's other observer errors
    /// ([`World::take_observer_errors`](crate::World::take_observer_errors)).
    ObserverFailed(SystemError),
    /// A system could not run: `error` says why (a missing resource, most often).
    InSystem {
        /// The system's name.
        system: String,
        /// What went wrong.
        error: Box<Error>,
    },
    /// A schedule already has a system of this name.
    DuplicateSystem {
        /// The name used twice.
        system: String,
    },
    /// No system of this name is in the schedule.
    UnknownSystem {
        /// The name asked for.
        system: String,
    },
    /// A system is ordered `after` or `before` a name no system of its stage has.
    UnknownOrdering {
        /// The system that names the other.
        system: String,
        /// The name no system of the stage has.
        missing: String,
        /// The stage.
        stage: String,
    },
    /// The `after` / `before` orderings of a stage's systems form a cycle.
    SystemCycle {
        /// The stage.
        stage: String,
        /// Every system in the cycle, each ordered after the one before it.
        systems: Vec<String>,
    },
    /// Two params of one system (or observer) touch the same type where at
    /// least one writes, or one query fetches a type twice, once mutably.
    ConflictingAccess {
        /// The system, or the observer.
        system: String,
        /// Whether `system` names an observer.
        observer: bool,
        /// The first param, as written (`Query<&mut Position>`).
        first: String,
        /// The second param (the same as `first` for a clash inside one
        /// query).
        second: String,
        /// The full type name of the component or resource both touch.
        type_name: &'static str,
        /// Where the clash lies, which decides what can fix it.
        clash: AccessClash,
    },
    /// No stage of this name is in the schedule.
    UnknownStage {
        /// The stage asked for.
        stage: String,
    },
    /// A schedule already has a stage of this name.
    DuplicateStage {
        /// The name used twice.
        stage: String,
    },
    /// No observer has this id: it was removed, or belongs to another world.
    UnknownObserver {
        /// The stale id.
        observer: ObserverId,
    },
    /// An observer could not run (a missing resource), or one of its
    /// commands failed: `error` says why.
    InObserver {
        /// The observer's name.
        observer: String,
        /// What went wrong.
        error: Box<Error>,
    },
    /// Observers triggered observers deeper than the world allows, so the
    /// observers of `trigger` on `entity` did not run.
    ObserverRecursion {
        /// The event that was not dispatched (`OnAdd<Health>`).
        trigger: String,
        /// The entity it happened to.
        entity: Entity,
        /// The nesting limit it reached.
        depth: usize,
    },
    /// Observers triggered custom events through their commands
    /// [`MAX_OBSERVER_DEPTH`](crate::MAX_OBSERVER_DEPTH) levels deep: the
    /// event at the limit was not dispatched.
    EventRecursion {
        /// The event's type, without its path.
        event: String,
        /// The nesting limit it reached.
        depth: usize,
    },
    /// A component type was given a second hook of one kind: a type has at
    /// most one `on_add`, one `on_insert`, and so on.
    HookAlreadySet {
        /// The component type's short name.
        component: String,
        /// The hook given twice (`on_add`, ...).
        hook: &'static str,
    },
    /// A component type's hooks were to change while entities hold it:
    /// those entities' values would leave through hooks they never arrived
    /// through.
    HooksInUse {
        /// The component type's short name.
        component: String,
        /// How many entities hold one.
        holders: usize,
    },
    /// One of a hook's commands failed: `error` says why.
    InHook {
        /// The component type's short name.
        component: String,
        /// The hook (`on_add`, ...).
        hook: &'static str,
        /// What went wrong.
        error: Box<Error>,
    },
    /// Hooks and observers triggered each other deeper than the world
    /// allows, so the `hook` of `component` on `entity` did not run.
    HookRecursion {
        /// The component type's short name.
        component: String,
        /// The hook that did not run (`on_add`, ...).
        hook: &'static str,
        /// The entity it was to run for.
        entity: Entity,
        /// The nesting limit it reached.
        depth: usize,
    },
    /// A snapshot could not be loaded: it is malformed, truncated, or
    /// contradicts itself (`reason` says how, naming the type or entity);
    /// the world it was loaded into is unchanged.
    Snapshot {
        /// What is wrong with the snapshot, in words.
        reason: String,
    },
    /// A [`PersistRegistry`](crate::persist::PersistRegistry) already has a
    /// type registered under this name.
    PersistNameTaken {
        /// The name asked for twice.
        name: &'static str,
        /// The full type name of the type that has it.
        registered: &'static str,
    },
    /// A [`PersistRegistry`](crate::persist::PersistRegistry) already has
    /// this type (as a component, or as a resource), under the name given.
    PersistTypeRegistered {
        /// The full type name of the type registered twice.
        type_name: &'static str,
        /// The name it is registered under.
        name: &'static str,
    },
    /// A snapshot was asked for a type name its registry does not write
    /// into snapshots.
    UnknownSnapshotName {
        /// The name asked for.
        name: String,
    },
    /// A saved world state does not fit the rollback registry asked to
    /// restore it (`reason` says which type); the world is unchanged.
    Rollback {
        /// What does not fit, in words, naming the type.
        reason: String,
    },
    /// A system is ordered against a system of another stage: orderings
    /// hold between the systems of one stage.
    OrderingAcrossStages {
        /// The system that names the other.
        system: String,
        /// Its stage.
        stage: String,
        /// The system it names.
        other: String,
        /// The stage that system is in.
        other_stage: String,
    },
    /// A run condition writes: conditions only read, so that asking one
    /// changes nothing.
    WritingCondition {
        /// The system the condition guards.
        system: String,
        /// The condition's name.
        condition: String,
        /// What it writes: the param and the full type name.
        param: &'static str,
        /// The full type name it writes.
        type_name: &'static str,
    },
    /// No one-shot system has this id: it was unregistered, or belongs to
    /// another world.
    UnknownSystemId {
        /// The id asked for.
        id: u64,
    },
    /// A one-shot system was asked to run while it was running (from one of
    /// its own commands, or a system it ran).
    SystemAlreadyRunning {
        /// The system's name.
        system: String,
    },
    /// A param found the world not as its system needs it to run, which is
    /// no fault (a [`Single`](crate::system::Single) that matched no entity,
    /// or several): the schedule skips the system for the frame and counts
    /// it in [`SystemStats::skipped`](crate::schedule::SystemStats::skipped).
    SkipSystem {
        /// Why.
        reason: Box<Error>,
    },
    /// One call was given the same entity twice where each must be distinct
    /// (`get_many_mut`).
    RepeatedEntity {
        /// The entity given twice.
        entity: Entity,
    },
    /// A relationship would close a loop: `target` is `entity` itself or
    /// one of the entities that point at `entity` through the same
    /// relationship, directly or further down. Nothing changed.
    RelationshipCycle {
        /// The entity that was to get the relationship.
        entity: Entity,
        /// The entity it was to point at.
        target: Entity,
        /// The relationship's type (`ChildOf`, ...).
        relationship: &'static str,
    },
    /// An entity could not be cloned: the types of some of its components do
    /// not implement `Clone`. Nothing changed.
    NotCloneable {
        /// The entity to clone.
        entity: Entity,
        /// The short names of the component types that cannot be copied.
        components: Vec<String>,
    },
    /// Component types require each other in a loop
    /// (`#[component(requires(..))]`), found when the first of them was
    /// inserted or spawned: nothing changed.
    RequirementCycle {
        /// The types around the loop, the first repeated at the end.
        cycle: Vec<&'static str>,
    },
    /// A relationship's target list (`Children`, ...) was given by hand:
    /// the world keeps it, from the relationships that point at the entity.
    RelationshipTargetByHand {
        /// The entity that was to get it.
        entity: Entity,
        /// The target list's type.
        component: &'static str,
        /// The relationship that fills it.
        relationship: &'static str,
    },
    /// One side of a relationship was registered alone in a
    /// [`PersistRegistry`](crate::persist::PersistRegistry): a restore or a
    /// load would put that side back and leave the other pointing at
    /// entities of another frame or world (or drop it).
    /// `PersistRegistry::register_relationship` registers both sides together.
    PersistOneSide {
        /// The type registered alone (`ChildOf`, `Children`, ...).
        component: &'static str,
        /// The relationship it belongs to.
        relationship: &'static str,
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
            | Error::FilteredOut { entity, .. }
            | Error::ObserverRecursion { entity, .. }
            | Error::HookRecursion { entity, .. } => Some(entity),
            Error::NoMatch { .. }
            | Error::MultipleMatches { .. }
            | Error::GroupTooSmall { .. }
            | Error::GroupConflict { .. }
            | Error::NotGrouped { .. }
            | Error::MissingResource { .. }
            | Error::DuplicateSystem { .. }
            | Error::UnknownSystem { .. }
            | Error::UnknownOrdering { .. }
            | Error::SystemCycle { .. }
            | Error::ConflictingAccess { .. }
            | Error::UnknownStage { .. }
            | Error::DuplicateStage { .. }
            | Error::UnknownObserver { .. }
            | Error::HookAlreadySet { .. }
            | Error::HooksInUse { .. }
            | Error::Snapshot { .. }
            | Error::PersistNameTaken { .. }
            | Error::PersistTypeRegistered { .. }
            | Error::UnknownSnapshotName { .. }
            | Error::Rollback { .. }
            | Error::PersistOneSide { .. }
            | Error::OrderingAcrossStages { .. }
            | Error::WritingCondition { .. }
            | Error::UnknownSystemId { .. }
            | Error::SystemAlreadyRunning { .. }
            | Error::RequirementCycle { .. }
            | Error::SystemFailed(_)
            | Error::ObserverFailed(_)
            | Error::EventRecursion { .. } => None,
            Error::RepeatedEntity { entity }
            | Error::RelationshipCycle { entity, .. }
            | Error::RelationshipTargetByHand { entity, .. }
            | Error::NotCloneable { entity, .. } => Some(entity),
            Error::InSystem { ref error, .. }
            | Error::InObserver { ref error, .. }
            | Error::InHook { ref error, .. }
            | Error::SkipSystem { reason: ref error } => error.entity(),
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

/// The words of `Display`: what `fn main() -> Result<(), Error>` prints when
/// it fails, and what `unwrap` and `expect` show.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
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
            Error::InSystem { system, error } => {
                write!(f, "system `{system}` could not run: {error}")
            }
            Error::SystemFailed(failure) => fmt::Display::fmt(failure, f),
            Error::ObserverFailed(failure) => write!(
                f,
                "observer `{}` failed: {}",
                failure.system(),
                failure.error()
            ),
            Error::DuplicateSystem { system } => write!(
                f,
                "the schedule already has a system named `{system}`: \
                 give one of them another name with `.named(..)`"
            ),
            Error::UnknownSystem { system } => {
                write!(f, "the schedule has no system named `{system}`")
            }
            Error::UnknownOrdering {
                system,
                missing,
                stage,
            } => write!(
                f,
                "system `{system}` is ordered against `{missing}`, \
                 but stage `{stage}` has no system of that name"
            ),
            Error::SystemCycle { stage, systems } => {
                write!(f, "the systems of stage `{stage}` are ordered in a cycle: ")?;
                for system in systems {
                    write!(f, "`{system}` -> ")?;
                }
                match systems.first() {
                    Some(first) => write!(f, "`{first}`"),
                    None => Ok(()),
                }
            }
            Error::ConflictingAccess {
                system,
                observer,
                first,
                second,
                type_name,
                clash,
            } => {
                let who = if *observer { "observer" } else { "system" };
                let type_name = ShortName(type_name);
                if let AccessClash::WithinQuery {
                    first_writes,
                    second_writes,
                } = *clash
                {
                    let fetch = |writes| if writes { "&mut " } else { "&" };
                    return write!(
                        f,
                        "{who} `{system}` cannot take `{first}`: it fetches `{type_name}` \
                         twice, as `{}{type_name}` and `{}{type_name}`, and one of them writes. \
                         Fetch it once, as `&mut {type_name}`",
                        fetch(first_writes),
                        fetch(second_writes),
                    );
                }
                write!(
                    f,
                    "{who} `{system}` cannot take both `{first}` and `{second}`: "
                )?;
                match clash {
                    AccessClash::Queries => write!(
                        f,
                        "both reach `{type_name}` and at least one writes it. Merge them into \
                         one param, or make their filters disjoint (`With<T>` in one, \
                         `Without<T>` in the other)"
                    ),
                    AccessClash::Resource => write!(
                        f,
                        "both reach the resource `{type_name}` and at least one writes it. \
                         Merge them into one param"
                    ),
                    AccessClash::WorldRead => write!(
                        f,
                        "`&World` reads every component and resource, and the other writes \
                         `{type_name}`. Read through `&World` alone, or take `&mut World` as \
                         the only param"
                    ),
                    AccessClash::WithinQuery { .. } => Ok(()),
                }
            }
            Error::UnknownStage { stage } => write!(
                f,
                "the schedule has no stage named `{stage}`: add it with \
                 `schedule.add_stage_after(..)` or `add_stage_before(..)`"
            ),
            Error::DuplicateStage { stage } => {
                write!(f, "the schedule already has a stage named `{stage}`")
            }
            Error::UnknownObserver { observer } => write!(
                f,
                "no observer has the id {observer:?}: it was removed with `unobserve`, \
                 or it belongs to another world"
            ),
            Error::InObserver { observer, error } => {
                write!(f, "observer `{observer}` failed: {error}")
            }
            Error::HookAlreadySet { component, hook } => write!(
                f,
                "component `{component}` already has an `{hook}` hook: a type has at most \
                 one hook of each kind"
            ),
            Error::HooksInUse { component, holders } => write!(
                f,
                "the hooks of component `{component}` cannot change once entities hold it \
                 ({holders} {}): register them before the first `{component}` arrives",
                if *holders == 1 { "does" } else { "do" }
            ),
            Error::InHook {
                component,
                hook,
                error,
            } => write!(f, "the `{hook}` hook of `{component}` failed: {error}"),
            Error::HookRecursion {
                component,
                hook,
                entity,
                depth,
            } => write!(
                f,
                "the `{hook}` hook of `{component}` on entity {entity:?} did not run: hooks \
                 and observers triggered each other {depth} levels deep, the limit (a hook \
                 probably re-triggers itself through its commands)"
            ),
            Error::ObserverRecursion {
                trigger,
                entity,
                depth,
            } => write!(
                f,
                "the observers of `{trigger}` on entity {entity:?} did not run: observers \
                 triggered observers {depth} levels deep, the limit (an observer probably \
                 re-triggers itself through its commands)"
            ),
            Error::EventRecursion { event, depth } => write!(
                f,
                "the observers of the event `{event}` did not run: observers triggered events \
                 {depth} levels deep, the limit (an observer probably re-triggers its own event \
                 through its commands)"
            ),
            Error::RelationshipCycle {
                entity,
                target,
                relationship,
            } if entity == target => write!(
                f,
                "entity {entity:?} cannot have the relationship `{}` to itself",
                ShortName(relationship)
            ),
            Error::RelationshipCycle {
                entity,
                target,
                relationship,
            } => write!(
                f,
                "entity {entity:?} cannot have the relationship `{rel}` to {target:?}: \
                 {target:?} already reaches {entity:?} through `{rel}`, which would make a cycle",
                rel = ShortName(relationship)
            ),
            Error::NotCloneable { entity, components } => write!(
                f,
                "entity {entity:?} cannot be cloned: {} `{}` {} not implement `Clone` \
                 (a generic type needs `#[component(clone)]`); `clone_entity_report` \
                 copies the rest",
                if components.len() == 1 {
                    "component"
                } else {
                    "components"
                },
                components.join("`, `"),
                if components.len() == 1 { "does" } else { "do" }
            ),
            Error::RequirementCycle { cycle } => {
                f.write_str("component requirements form a cycle: ")?;
                for (i, name) in cycle.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" requires ")?;
                    }
                    write!(f, "`{}`", ShortName(name))?;
                }
                Ok(())
            }
            Error::RelationshipTargetByHand {
                entity,
                component,
                relationship,
            } => write!(
                f,
                "component `{}` cannot be given to entity {entity:?} by hand: the world keeps \
                 it from the `{rel}` relationships that point at the entity; insert `{rel}` \
                 on those entities instead",
                ShortName(component),
                rel = ShortName(relationship)
            ),
            Error::PersistOneSide {
                component,
                relationship,
            } => write!(
                f,
                "component `{}` cannot be registered alone: it is one side of the \
                 relationship `{rel}`, and a restore or load of one side would leave the other \
                 pointing at entities of another frame or world; register both with \
                 `register_relationship::<{rel}>(..)`",
                ShortName(component),
                rel = ShortName(relationship)
            ),
            Error::Snapshot { reason } => write!(f, "the snapshot cannot be loaded: {reason}"),
            Error::Rollback { reason } => {
                write!(f, "the saved world state cannot be restored: {reason}")
            }
            Error::PersistNameTaken { name, registered } => write!(
                f,
                "the name `{name}` is already registered for `{}`: \
                 each name stands for one type",
                ShortName(registered)
            ),
            Error::PersistTypeRegistered { type_name, name } => write!(
                f,
                "`{}` is already registered as `{name}`: a type is registered once, \
                 with every capability it needs, and keeps one name so that snapshots \
                 find it again",
                ShortName(type_name)
            ),
            Error::UnknownSnapshotName { name } => write!(
                f,
                "the registry writes no component or resource named `{name}` into snapshots \
                 (a type is written once registered with `.snapshot()`)"
            ),
            Error::OrderingAcrossStages {
                system,
                stage,
                other,
                other_stage,
            } => write!(
                f,
                "system `{system}` of stage `{stage}` is ordered against `{other}`, which is in \
                 stage `{other_stage}`: orderings hold between systems of one stage"
            ),
            Error::WritingCondition {
                system,
                condition,
                param,
                type_name,
            } => write!(
                f,
                "the run condition `{condition}` of system `{system}` writes `{}` through `{}`: \
                 a run condition may only read",
                ShortName(type_name),
                ShortName::param(param)
            ),
            Error::UnknownSystemId { id } => write!(
                f,
                "no one-shot system has id {id}: it was unregistered, belongs to another world, \
                 or the command registering it has not applied yet"
            ),
            Error::SystemAlreadyRunning { system } => write!(
                f,
                "the one-shot system `{system}` was asked to run while it runs"
            ),
            Error::SkipSystem { reason } => write!(f, "{reason}; the system does not run"),
            Error::RepeatedEntity { entity } => write!(
                f,
                "entity {entity} is given twice where each must be a different entity"
            ),
        }
    }
}

impl std::error::Error for Error {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Error::InSystem { error, .. }
            | Error::InObserver { error, .. }
            | Error::InHook { error, .. } => Some(error.as_ref()),
            Error::SystemFailed(failure) | Error::ObserverFailed(failure) => Some(failure),
            _ => None,
        }
    }
}

/// Any error a fallible system returns, boxed: what `?` converts into from
/// any `std::error::Error + Send + Sync`, a `String` or a `&str`.
pub type BoxedError = Box<dyn std::error::Error + Send + Sync + 'static>;

/// A system's run that returned an `Err`: which system, in which frame of
/// its schedule (none for a one-shot run), and the error it returned.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::SystemError;
///
/// fn fails() -> Result<(), String> {
///     Err("the level file is empty".into())
/// }
///
/// let mut world = World::new();
/// let mut schedule = Schedule::new();
/// schedule.set_error_handler(ErrorHandler::ignore);
/// schedule.add_system(Stage::Update, fails)?;
/// schedule.run(&mut world)?;
/// let error: &SystemError = &schedule.system_errors()[0];
/// assert_eq!((error.system(), error.frame()), ("fails", Some(0)));
/// assert_eq!(error.to_string(), "system `fails` failed in frame 0: the level file is empty");
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone)]
pub struct SystemError {
    system: String,
    frame: Option<u64>,
    error: Arc<dyn std::error::Error + Send + Sync + 'static>,
}

impl SystemError {
    pub(crate) fn new(system: String, frame: Option<u64>, error: BoxedError) -> Self {
        Self {
            system,
            frame,
            error: Arc::from(error),
        }
    }

    /// The name of the system that returned the error.
    pub fn system(&self) -> &str {
        &self.system
    }

    /// The frame of its schedule it ran in, counted from 0; `None` for a
    /// one-shot run.
    pub fn frame(&self) -> Option<u64> {
        self.frame
    }

    /// The error the system returned.
    pub fn error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        &*self.error
    }

    /// The error the system returned, if it is an `E`.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use std::num::ParseIntError;
    ///
    /// fn parse() -> Result<(), ParseIntError> {
    ///     "seven".parse::<u32>().map(drop)
    /// }
    ///
    /// let mut world = World::new();
    /// let mut schedule = Schedule::new();
    /// schedule.set_error_handler(ErrorHandler::ignore);
    /// schedule.add_system(Stage::Update, parse)?;
    /// schedule.run(&mut world)?;
    /// assert!(schedule.system_errors()[0].downcast_ref::<ParseIntError>().is_some());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn downcast_ref<E: std::error::Error + 'static>(&self) -> Option<&E> {
        self.error.downcast_ref::<E>()
    }
}

impl fmt::Display for SystemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.frame {
            Some(frame) => write!(
                f,
                "system `{}` failed in frame {frame}: {}",
                self.system, self.error
            ),
            None => write!(f, "system `{}` failed: {}", self.system, self.error),
        }
    }
}

/// The words of `Display`.
impl fmt::Debug for SystemError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// Two failures are equal when the same system failed in the same frame
/// with the same words (errors themselves have no equality).
impl PartialEq for SystemError {
    fn eq(&self, other: &Self) -> bool {
        self.system == other.system
            && self.frame == other.frame
            && self.error.to_string() == other.error.to_string()
    }
}

impl Eq for SystemError {}

impl std::error::Error for SystemError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.error)
    }
}
