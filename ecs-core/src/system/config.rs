//! How a system enters a schedule: anything `IntoSystem`, with a name, its
//! orderings (`.named`, `.after`, `.before`, `.in_set`), its run conditions
//! (`.run_if`) and what its first run sees (`.ignore_earlier_changes`).

use std::borrow::Cow;

use crate::world::World;

use super::System;
use super::condition::{Condition, RunCondition};
use super::erased::AnySystem;
use super::exclusive::ExclusiveSystem;
use super::function::{FunctionSystem, RunMethod, SystemParamFunction};
use super::ordering::SystemName;
use super::typed::{Returning, scheduled};

/// A system ready to be added to a schedule: the system itself, its name,
/// and the names of the systems of its stage it must run after or before.
///
/// Made by the methods of [`IntoSystem`]: `movement.named("walk")`,
/// `reaper.after("movement")`.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::system::SystemConfig;
///
/// fn movement() {}
///
/// let config: SystemConfig = movement.named("walk").before("render");
/// assert!(format!("{config:?}").contains("walk"));
/// ```
pub struct SystemConfig {
    pub(crate) system: Box<dyn AnySystem>,
    pub(crate) name: Cow<'static, str>,
    pub(crate) after: Vec<Cow<'static, str>>,
    pub(crate) before: Vec<Cow<'static, str>>,
    /// The names of `after` the system follows without a sync point: their
    /// commands need not apply before it runs (`chain_ignore_deferred`).
    pub(crate) unsynced_after: Vec<Cow<'static, str>>,
    /// Whether a chain orders the system after the one before it in its
    /// group: `Some(true)` with a sync point between them, `Some(false)`
    /// without. Resolved to a name when the group is added, once a second
    /// closure of one function has its own name (`#2`).
    pub(crate) chained: Option<bool>,
    /// The sets the system belongs to.
    pub(crate) sets: Vec<Cow<'static, str>>,
    /// The conditions that must all hold for a run.
    pub(crate) conditions: Vec<RunCondition>,
    /// Whether the first run's `Added` and `Changed` see what happened before it.
    pub(crate) sees_earlier_changes: bool,
    /// Whether the name is a closure's, not given: a schedule numbers a
    /// second one (`main::{{closure}}#2`) rather than refuse it.
    pub(crate) anonymous: bool,
}

impl core::fmt::Debug for SystemConfig {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("SystemConfig")
            .field("name", &self.name)
            .field("after", &self.after)
            .field("before", &self.before)
            .field("sets", &self.sets)
            .field("conditions", &self.conditions)
            .field("sees_earlier_changes", &self.sees_earlier_changes)
            .finish_non_exhaustive()
    }
}

/// What a schedule accepts as a system: a function or closure whose
/// arguments are system params, a closure taking `&mut World`, a type that
/// implements [`System`], or one of these already configured.
///
/// Every system has a name: a function's own name, a closure's enclosing
/// function followed by `{{closure}}` (numbered `#2`, `#3`, ... where its
/// schedule already has one of that name), a `System`'s
/// [`name`](System::name), or the one given with [`named`](Self::named).
///
/// ```
/// use ecs_core::prelude::*;
///
/// fn movement() {}
/// fn reaper() {}
///
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, reaper.after("movement"))?;
/// schedule.add_system(Stage::Update, movement)?;
/// schedule.add_system(Stage::Update, (|| {}).named("idle").before("movement"))?;
/// let order = schedule.explain()?.stage(Stage::Update).unwrap().order.clone();
/// assert_eq!(order, ["idle", "movement", "reaper"]);
/// # Ok::<(), Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a system",
    label = "not a system",
    note = "a system is a function or closure whose arguments are all system params (`Res`, \
            `ResMut`, `Query`, `Commands`, ...) and which returns `()` or `Result<(), E>` for an \
            `E` that converts into `Box<dyn Error + Send + Sync>`; a closure taking `&mut World`, \
            or a type that implements `System`, is one too; a function that returns something \
            else is scheduled through `.pipe(system)` or `.map(..)`"
)]
pub trait IntoSystem<Marker>: Sized {
    /// The system with its name and orderings.
    fn into_config(self) -> SystemConfig;

    /// Names the system `name`, for orderings, removal, stats and errors.
    fn named(self, name: impl Into<Cow<'static, str>>) -> SystemConfig {
        let mut config = self.into_config();
        config.name = name.into();
        config.anonymous = false;
        config
    }

    /// Runs the system after `other`, a system or set of the same stage:
    /// named (`"movement"`), or the system function itself (`movement`).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// fn movement() {}
    /// fn collide() {}
    ///
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::Update, collide.after(movement))?;
    /// schedule.add_system(Stage::Update, movement)?;
    /// let why = schedule.explain()?;
    /// assert_eq!(why.stage(Stage::Update).unwrap().order, ["movement", "collide"]);
    /// # Ok::<(), Error>(())
    /// ```
    fn after<M>(self, other: impl SystemName<M>) -> SystemConfig {
        let mut config = self.into_config();
        config.after.push(other.system_name());
        config
    }

    /// Runs the system before `other`, a system or set of the same stage,
    /// named or given as the function itself.
    fn before<M>(self, other: impl SystemName<M>) -> SystemConfig {
        let mut config = self.into_config();
        config.before.push(other.system_name());
        config
    }

    /// Puts the system in the set `set` of its stage: orderings naming the
    /// set, and the set's own ([`Schedule::configure_set`](crate::Schedule::configure_set)),
    /// apply to it. A system may be in several sets.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// fn collide() {}
    /// fn physics() {}
    ///
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::Update, collide.in_set("combat"))?;
    /// schedule.add_system(Stage::Update, physics.before("combat"))?;
    /// let why = schedule.explain()?;
    /// assert_eq!(why.stage(Stage::Update).unwrap().order, ["physics", "collide"]);
    /// # Ok::<(), Error>(())
    /// ```
    fn in_set(self, set: impl Into<Cow<'static, str>>) -> SystemConfig {
        let mut config = self.into_config();
        config.sets.push(set.into());
        config
    }

    /// Runs the system only in frames where `condition` holds; given
    /// several times, every condition must hold (asked in order, stopping
    /// at the first "no"). A skipped system keeps its change-detection
    /// horizon: its next run sees every change since its last run.
    ///
    /// # Errors
    /// [`Schedule::add_system`](crate::Schedule::add_system) refuses a
    /// condition that writes ([`Error::WritingCondition`](crate::Error::WritingCondition)).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// struct Score(u32);
    /// #[derive(Default)]
    /// struct Cheers(u32);
    ///
    /// fn cheer(mut cheers: ResMut<Cheers>) { cheers.0 += 1; }
    ///
    /// let mut world = World::new();
    /// world.insert_resource(Score(3));
    /// world.init_resource::<Cheers>();
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::Update, cheer.run_if(|s: Res<Score>| s.0 >= 10))?;
    /// schedule.run(&mut world)?;
    /// world.resource_mut::<Score>()?.0 = 10;
    /// schedule.run(&mut world)?;
    /// assert_eq!(world.resource::<Cheers>()?.0, 1);
    /// assert_eq!(schedule.stats()[0].skipped, 1);
    /// # Ok::<(), Error>(())
    /// ```
    fn run_if<M>(self, condition: impl Condition<M>) -> SystemConfig {
        let mut config = self.into_config();
        config.conditions.push(condition.into_condition());
        config
    }

    /// Makes the system's first run see nothing as added or changed: its
    /// [`Added`](crate::query::Added) and [`Changed`](crate::query::Changed)
    /// filters start from the tick of that run.
    ///
    /// By default a system's first run compares against tick 0, so every
    /// tracked component that exists when it first runs counts as added and
    /// changed; later runs see what happened since the run before.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// #[component(track_changes)]
    /// struct Health(i32);
    /// #[derive(Default)]
    /// struct Seen(Vec<Entity>);
    ///
    /// fn watch(added: Query<Entity, Added<Health>>, mut seen: ResMut<Seen>) {
    ///     seen.0.extend(added.iter());
    /// }
    ///
    /// let mut world = World::new();
    /// world.insert_resource(Seen::default());
    /// world.spawn(Health(1)); // before the first run
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::Update, watch.ignore_earlier_changes())?;
    /// schedule.run(&mut world)?;
    /// assert!(world.resource::<Seen>()?.0.is_empty());
    /// let late = world.spawn(Health(2));
    /// schedule.run(&mut world)?;
    /// assert_eq!(world.resource::<Seen>()?.0, [late]);
    /// # Ok::<(), Error>(())
    /// ```
    fn ignore_earlier_changes(self) -> SystemConfig {
        let mut config = self.into_config();
        config.sees_earlier_changes = false;
        config
    }
}

/// Marks the [`IntoSystem`] impl for a configured system.
#[doc(hidden)]
pub enum ConfiguredMarker {}
/// Marks the [`IntoSystem`] impl for a `&mut World` closure.
#[doc(hidden)]
pub enum ExclusiveMarker {}
/// Marks the [`IntoSystem`] impl for a [`System`] type.
#[doc(hidden)]
pub enum SystemMarker {}
/// Marks the [`IntoSystem`] impl for a function of params.
#[doc(hidden)]
pub struct FunctionMarker<M>(core::marker::PhantomData<fn() -> M>);

impl IntoSystem<ConfiguredMarker> for SystemConfig {
    fn into_config(self) -> SystemConfig {
        self
    }
}

impl<M: 'static, F: SystemParamFunction<M>> IntoSystem<FunctionMarker<M>> for F {
    fn into_config(self) -> SystemConfig {
        scheduled(FunctionSystem::new(self))
    }
}

impl<F: FnMut(&mut World) + Send + 'static> IntoSystem<ExclusiveMarker> for F {
    fn into_config(self) -> SystemConfig {
        config(
            Box::new(ExclusiveSystem::new(self)),
            function_name(core::any::type_name::<F>()),
        )
    }
}

impl<S: System> IntoSystem<SystemMarker> for S {
    fn into_config(self) -> SystemConfig {
        let name = self.name();
        let system = FunctionSystem::named(RunMethod(self), name.clone());
        config(Box::new(Returning::new(system)), name)
    }
}

pub(crate) fn config(system: Box<dyn AnySystem>, name: Cow<'static, str>) -> SystemConfig {
    SystemConfig {
        system,
        anonymous: name.ends_with("{{closure}}"),
        name,
        after: Vec::new(),
        before: Vec::new(),
        unsynced_after: Vec::new(),
        chained: None,
        sets: Vec::new(),
        conditions: Vec::new(),
        sees_earlier_changes: true,
    }
}

/// A function's name from its type name: the last path segment
/// (`game::systems::movement` is `movement`); a closure keeps the function
/// it is in (`game::main::{{closure}}` is `main::{{closure}}`).
pub(crate) fn function_name(type_name: &'static str) -> Cow<'static, str> {
    // Generic arguments may hold paths of their own; only the part before
    // them names the function.
    let path_end = type_name.find('<').unwrap_or(type_name.len());
    let mut segments = type_name[..path_end].rsplit("::");
    let last = segments.next().unwrap_or(type_name);
    let start = if last.starts_with("{{closure") {
        match segments.next() {
            Some(parent) => parent.as_ptr() as usize - type_name.as_ptr() as usize,
            None => path_end - last.len(),
        }
    } else {
        path_end - last.len()
    };
    if path_end == type_name.len() {
        Cow::Borrowed(&type_name[start..])
    } else {
        let generics = crate::util::ShortName(&type_name[path_end..]);
        Cow::Owned(format!("{}{generics}", &type_name[start..path_end]))
    }
}

#[cfg(test)]
mod tests {
    use super::function_name;

    #[test]
    fn names_are_last_segments_and_closures_keep_their_function() {
        assert_eq!(function_name("game::systems::movement"), "movement");
        assert_eq!(function_name("movement"), "movement");
        assert_eq!(
            function_name("game::main::{{closure}}"),
            "main::{{closure}}"
        );
        assert_eq!(function_name("game::spawn<game::Enemy>"), "spawn<Enemy>");
    }
}
