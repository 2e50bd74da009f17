//! Run conditions: read-only systems returning `bool` that decide, each
//! frame, whether the system they guard runs (`.run_if(cond)`).

use std::borrow::Cow;

use crate::component::Component;
use crate::entity::Entity;
use crate::error::Error;
use crate::query::{Query, With};
use crate::state::{State, States};
use crate::world::World;

use super::access::SystemAccess;
use super::config::function_name;
use super::event::EventReader;
use super::function::{FunctionSystem, ParamFunction};
use super::last_run::LastRun;
use super::param::SystemWorld;
use super::res::Res;

/// A function or closure whose arguments are all
/// [`SystemParam`](super::SystemParam)s and which
/// returns `bool`: a run condition. `Marker` tells the impls for each arity
/// apart; the compiler infers it.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::system::ConditionFunction;
///
/// struct Score(u32);
///
/// fn is_condition<M>(_: impl ConditionFunction<M>) {}
/// is_condition(|score: Res<Score>| score.0 > 10);
/// ```
pub trait ConditionFunction<Marker>: ParamFunction<Marker, In = (), Output = bool> {}

impl<Marker, F: ParamFunction<Marker, In = (), Output = bool>> ConditionFunction<Marker> for F {}

/// A condition with its params' state, ready to be asked.
pub(crate) trait AnyCondition: Send {
    /// How `explain` names the condition.
    fn name(&self) -> String;

    /// What the condition reads.
    fn access(&self) -> &SystemAccess;

    /// Readies the world for the condition's params before a frame.
    fn prepare(&mut self, world: &mut World);

    /// Asks the condition, with the ticks of the run it guards.
    ///
    /// # Safety
    /// As [`AnySystem::run`](super::AnySystem::run): `world` was made for
    /// this run, and no system whose access conflicts with the condition's
    /// runs meanwhile.
    unsafe fn evaluate(&mut self, world: SystemWorld<'_>) -> Result<bool, Error>;
}

/// A run condition ready for [`run_if`](super::IntoSystem::run_if): any
/// [`Condition`], boxed. Combine them with [`and`](Condition::and),
/// [`or`](Condition::or) and [`not`].
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::system::RunCondition;
///
/// struct Paused;
/// let running: RunCondition = not(resource_exists::<Paused>);
/// assert_eq!(running.name(), "not(resource_exists<Paused>)");
/// ```
pub struct RunCondition(Box<dyn AnyCondition>);

impl RunCondition {
    /// How `explain` names the condition.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use ecs_core::system::Condition;
    ///
    /// fn always() -> bool { true }
    /// assert_eq!(always.into_condition().name(), "always");
    /// ```
    pub fn name(&self) -> String {
        self.0.name()
    }

    /// What the condition reads.
    pub(crate) fn access(&self) -> &SystemAccess {
        self.0.access()
    }

    pub(crate) fn into_inner(self) -> Box<dyn AnyCondition> {
        self.0
    }

    pub(crate) fn from_inner(inner: Box<dyn AnyCondition>) -> Self {
        Self(inner)
    }
}

impl core::fmt::Debug for RunCondition {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_tuple("RunCondition").field(&self.0.name()).finish()
    }
}

/// Anything [`run_if`](super::IntoSystem::run_if) accepts: a function or
/// closure of read-only params returning `bool` (the built-in ones:
/// [`resource_exists`], [`resource_changed`], [`resource_added`],
/// [`on_event`], [`in_state`], [`any_with_component`]), or a combination.
///
/// A condition is asked right before its system would run, on the same
/// thread; its reads are scheduled with the system's. It keeps its own
/// change-detection horizon: `resource_changed::<R>` is true when `R`
/// changed since the condition was last asked.
///
/// ```
/// use ecs_core::prelude::*;
///
/// struct Score(u32);
/// #[derive(Default)]
/// struct Saves(u32);
///
/// fn autosave(mut saves: ResMut<Saves>) { saves.0 += 1; }
///
/// let mut world = World::new();
/// world.insert_resource(Score(0));
/// world.init_resource::<Saves>();
/// let mut schedule = Schedule::new();
/// schedule.add_system(
///     Stage::Update,
///     autosave.run_if(resource_changed::<Score>.and(|s: Res<Score>| s.0 > 5)),
/// )?;
/// schedule.run(&mut world)?;
/// assert_eq!(world.resource::<Saves>()?.0, 0, "changed, but not above 5");
/// world.resource_mut::<Score>()?.0 = 9;
/// schedule.run(&mut world)?;
/// schedule.run(&mut world)?;
/// assert_eq!(world.resource::<Saves>()?.0, 1, "once: unchanged since");
/// # Ok::<(), Error>(())
/// ```
pub trait Condition<Marker>: Sized {
    /// The condition, boxed.
    fn into_condition(self) -> RunCondition;

    /// True when both are; `other` is asked only when this one is true.
    fn and<M>(self, other: impl Condition<M>) -> RunCondition {
        combine(self.into_condition(), other.into_condition(), Combine::And)
    }

    /// True when either is; `other` is asked only when this one is false.
    fn or<M>(self, other: impl Condition<M>) -> RunCondition {
        combine(self.into_condition(), other.into_condition(), Combine::Or)
    }
}

/// Marks the [`Condition`] impl for [`RunCondition`].
#[doc(hidden)]
pub enum BoxedMarker {}

impl Condition<BoxedMarker> for RunCondition {
    fn into_condition(self) -> RunCondition {
        self
    }
}

impl<M: 'static, F: ConditionFunction<M>> Condition<M> for F {
    fn into_condition(self) -> RunCondition {
        named_condition(self, function_name(core::any::type_name::<F>()))
    }
}

/// `function` as a condition named `name`.
fn named_condition<M: 'static, F: ConditionFunction<M>>(
    function: F,
    name: impl Into<Cow<'static, str>>,
) -> RunCondition {
    RunCondition(Box::new(FunctionCondition {
        body: FunctionSystem::new(function),
        name: name.into(),
        last_run: LastRun::new(true),
    }))
}

/// A [`ConditionFunction`] with its params' state and its own horizon.
struct FunctionCondition<M, F: ConditionFunction<M>> {
    body: FunctionSystem<M, F>,
    name: Cow<'static, str>,
    last_run: LastRun,
}

impl<M: 'static, F: ConditionFunction<M>> AnyCondition for FunctionCondition<M, F> {
    fn name(&self) -> String {
        self.name.to_string()
    }

    fn access(&self) -> &SystemAccess {
        self.body.access()
    }

    fn prepare(&mut self, world: &mut World) {
        self.body.prepare(world);
    }

    unsafe fn evaluate(&mut self, world: SystemWorld<'_>) -> Result<bool, Error> {
        let this_run = world.ticks().this_run;
        let world = world.since(self.last_run.ticks(this_run).last_run);
        // SAFETY: `world` was made for this run and nothing conflicting with
        // the condition's access runs meanwhile (this function's contract);
        // the condition's access was checked for clashes when its system
        // was added.
        let answer = unsafe { self.body.call((), world)? };
        self.last_run.ran(this_run);
        Ok(answer)
    }
}

#[derive(Clone, Copy)]
enum Combine {
    And,
    Or,
}

/// Two conditions asked in order, the second only when the first does not
/// decide.
struct Combined {
    first: Box<dyn AnyCondition>,
    second: Box<dyn AnyCondition>,
    how: Combine,
    access: SystemAccess,
}

fn combine(first: RunCondition, second: RunCondition, how: Combine) -> RunCondition {
    let mut access = first.0.access().clone();
    access.extend_for_scheduling(second.0.access());
    RunCondition(Box::new(Combined {
        first: first.0,
        second: second.0,
        how,
        access,
    }))
}

impl AnyCondition for Combined {
    fn name(&self) -> String {
        let word = match self.how {
            Combine::And => "and",
            Combine::Or => "or",
        };
        format!("({} {word} {})", self.first.name(), self.second.name())
    }

    fn access(&self) -> &SystemAccess {
        &self.access
    }

    fn prepare(&mut self, world: &mut World) {
        self.first.prepare(world);
        self.second.prepare(world);
    }

    unsafe fn evaluate(&mut self, world: SystemWorld<'_>) -> Result<bool, Error> {
        // SAFETY: both conditions' accesses are part of this one's, which
        // the caller keeps apart from every conflicting system.
        let first = unsafe { self.first.evaluate(world)? };
        match (self.how, first) {
            (Combine::And, false) => Ok(false),
            (Combine::Or, true) => Ok(true),
            // SAFETY: the second condition's access is part of this one's,
            // which the caller keeps apart from every conflicting system;
            // the first condition's params, dropped by now, hold nothing.
            _ => unsafe { self.second.evaluate(world) },
        }
    }
}

/// The opposite of a condition.
struct Not {
    inner: Box<dyn AnyCondition>,
}

impl AnyCondition for Not {
    fn name(&self) -> String {
        format!("not({})", self.inner.name())
    }

    fn access(&self) -> &SystemAccess {
        self.inner.access()
    }

    fn prepare(&mut self, world: &mut World) {
        self.inner.prepare(world);
    }

    unsafe fn evaluate(&mut self, world: SystemWorld<'_>) -> Result<bool, Error> {
        // SAFETY: the inner condition's access is this one's, which the
        // caller keeps apart from every conflicting system.
        Ok(!unsafe { self.inner.evaluate(world)? })
    }
}

/// True when `condition` is false.
///
/// ```
/// use ecs_core::prelude::*;
///
/// struct Paused;
/// #[derive(Default)]
/// struct Frames(u32);
///
/// let mut world = World::new();
/// world.init_resource::<Frames>();
/// let mut schedule = Schedule::new();
/// schedule.add_system(
///     Stage::Update,
///     (|mut f: ResMut<Frames>| f.0 += 1).run_if(not(resource_exists::<Paused>)),
/// )?;
/// schedule.run(&mut world)?;
/// world.insert_resource(Paused);
/// schedule.run(&mut world)?;
/// assert_eq!(world.resource::<Frames>()?.0, 1);
/// # Ok::<(), Error>(())
/// ```
pub fn not<M>(condition: impl Condition<M>) -> RunCondition {
    RunCondition(Box::new(Not {
        inner: condition.into_condition().0,
    }))
}

/// True while the world holds an `R`.
///
/// ```
/// use ecs_core::prelude::*;
///
/// struct Boss;
/// fn music() {}
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, music.run_if(resource_exists::<Boss>))?;
/// # Ok::<(), Error>(())
/// ```
pub fn resource_exists<R: Send + Sync + 'static>(resource: Option<Res<R>>) -> bool {
    resource.is_some()
}

/// True when `R` was inserted or written since the condition was last asked
/// (on its first asking: since the world was made). False without an `R`.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Default)]
/// struct Score(u32);
/// fn autosave() {}
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, autosave.run_if(resource_changed::<Score>))?;
/// # Ok::<(), Error>(())
/// ```
pub fn resource_changed<R: Send + Sync + 'static>(resource: Option<Res<R>>) -> bool {
    resource.is_some_and(|r| r.is_changed())
}

/// True when `R` was inserted since the condition was last asked. False
/// without an `R`.
///
/// ```
/// use ecs_core::prelude::*;
///
/// struct Level(u32);
/// fn load() {}
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, load.run_if(resource_added::<Level>))?;
/// # Ok::<(), Error>(())
/// ```
pub fn resource_added<R: Send + Sync + 'static>(resource: Option<Res<R>>) -> bool {
    resource.is_some_and(|r| r.is_added())
}

/// True when an `E` was sent that the condition has not seen yet.
///
/// ```
/// use ecs_core::prelude::*;
///
/// struct Explosion;
/// fn shake_camera() {}
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, shake_camera.run_if(on_event::<Explosion>))?;
/// # Ok::<(), Error>(())
/// ```
pub fn on_event<E: Send + Sync + 'static>(mut reader: EventReader<E>) -> bool {
    reader.read().count() > 0
}

/// True while the state machine `S` is at `value` (false before the world
/// has `S`).
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
/// enum GameState { #[default] Menu, Playing }
/// fn spawn_wave() {}
///
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, spawn_wave.run_if(in_state(GameState::Playing)))?;
/// let why = schedule.explain()?;
/// assert_eq!(
///     why.stage(Stage::Update).unwrap().conditions,
///     [("spawn_wave".to_string(), vec!["in_state(GameState::Playing)".to_string()])]
/// );
/// # Ok::<(), Error>(())
/// ```
pub fn in_state<S: States>(value: S) -> RunCondition {
    let name = format!(
        "in_state({}::{value:?})",
        crate::util::ShortName(core::any::type_name::<S>())
    );
    named_condition(
        move |state: Option<Res<State<S>>>| state.is_some_and(|state| *state.get() == value),
        name,
    )
}

/// True while some entity has a `T`.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Enemy;
/// fn battle_music() {}
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, battle_music.run_if(any_with_component::<Enemy>))?;
/// # Ok::<(), Error>(())
/// ```
pub fn any_with_component<T: Component>(query: Query<Entity, With<T>>) -> bool {
    !query.is_empty()
}
