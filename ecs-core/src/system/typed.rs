//! Systems with an input and an output of their own types: what a function
//! of params becomes before it is scheduled, run on demand, or piped
//! (`a.pipe(b)`, `a.map(f)`); and the adapter that schedules one whose input
//! is `()` and whose output a schedule understands.

use std::borrow::Cow;

use crate::error::{BoxedError, Error};
use crate::world::{In, SystemIn, SystemInput, SystemOutput, World};

use super::access::SystemAccess;
use super::config::{IntoSystem, SystemConfig, config};
use super::erased::{AnySystem, RunOutcome};
use super::function::{FunctionSystem, ParamFunction};
use super::param::SystemWorld;
use super::pipe::{Map, Pipe};

/// Keeps [`TypedSystem`] to the crate's own systems: the schedule trusts
/// what one says it touches.
#[doc(hidden)]
pub trait Sealed {}

/// A system whose input and output are types: a function of params (with
/// an [`In`], [`InRef`](crate::world::InRef) or [`InMut`](crate::world::InMut)
/// first if it takes input), or a [`pipe`](IntoTypedSystem::pipe) or
/// [`map`](IntoTypedSystem::map) of such systems. Made by
/// [`IntoTypedSystem`]; a game names it in bounds, never implements it.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::system::TypedSystem;
///
/// fn parse(text: Res<Text>) -> Option<u32> { text.0.parse().ok() }
/// struct Text(String);
///
/// let system = parse.into_typed();
/// let _: &dyn TypedSystem<In = (), Out = Option<u32>> = &system;
/// assert_eq!(system.name(), "parse");
/// ```
pub trait TypedSystem: Sealed + Send + 'static {
    /// What the system takes before its params: `()` for nothing.
    type In: SystemInput + 'static;
    /// What the system returns.
    type Out: 'static;

    /// The system's name: its function's, or its parts' for a pipe.
    fn name(&self) -> Cow<'static, str>;

    /// What the system's params read and write.
    #[doc(hidden)]
    fn access(&self) -> &SystemAccess;

    /// Readies the world for the params before a run.
    #[doc(hidden)]
    fn prepare(&mut self, world: &mut World);

    /// Whether [`prepare`](Self::prepare) may have anything to do.
    #[doc(hidden)]
    fn prepares(&self) -> bool;

    /// Runs the system once with `input`.
    ///
    /// # Safety
    /// As [`AnySystem::run`]: `world` was made for this run, no system whose
    /// access conflicts with this one's runs meanwhile, and this one's
    /// access has no clash.
    #[doc(hidden)]
    unsafe fn run_with(
        &mut self,
        input: SystemIn<'_, Self::In>,
        world: SystemWorld<'_>,
    ) -> Result<Self::Out, Error>;

    /// Applies what the system deferred (its commands).
    #[doc(hidden)]
    fn apply(
        &mut self,
        world: &mut World,
        failed: &mut dyn FnMut(Error),
        removals: &mut Vec<String>,
    );

    /// Drops what the system deferred, unapplied.
    #[doc(hidden)]
    fn discard(&mut self);

    /// Whether [`apply`](Self::apply) and [`discard`](Self::discard) may
    /// have anything to do.
    #[doc(hidden)]
    fn defers(&self) -> bool;
}

/// What can become a [`TypedSystem`]: a function or closure of params (with
/// input first or none, returning anything), or a typed system already.
/// Brings [`pipe`](Self::pipe) and [`map`](Self::map).
///
/// ```
/// use ecs_core::prelude::*;
///
/// struct Message(&'static str);
/// #[derive(Default)]
/// struct Log(Vec<String>);
///
/// fn parse(msg: Res<Message>) -> Result<usize, std::num::ParseIntError> { msg.0.parse() }
/// fn report(In(result): In<Result<usize, std::num::ParseIntError>>, mut log: ResMut<Log>) {
///     log.0.push(format!("{result:?}"));
/// }
///
/// let mut world = World::new();
/// world.insert_resource(Message("42"));
/// world.init_resource::<Log>();
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, parse.pipe(report))?;
/// schedule.run(&mut world)?;
/// assert_eq!(world.resource::<Log>()?.0, ["Ok(42)"]);
/// # Ok::<(), Error>(())
/// ```
pub trait IntoTypedSystem<Marker>: Sized {
    /// The system made.
    type System: TypedSystem;

    /// Makes the system.
    fn into_typed(self) -> Self::System;

    /// One system that runs `self`, then `next` with what `self` returned
    /// as its [`In`]. It touches what both touch (the union of their
    /// access; the two never hold their params at once, so one may write
    /// what the other reads), runs where one of them would, and applies
    /// both's commands at its end: `self`'s are not yet applied when `next`
    /// runs. Named `first.pipe(next)` unless [`named`](IntoSystem::named).
    ///
    /// A param of `next` that skips its system (a [`Single`](super::Single)
    /// with no match) skips the whole pipe, after `self` ran; an error
    /// fetching either's params is the pipe's.
    fn pipe<B, BMarker>(self, next: B) -> Pipe<Self::System, B::System>
    where
        B: IntoTypedSystem<BMarker>,
        B::System: TypedSystem<In = In<<Self::System as TypedSystem>::Out>>,
    {
        Pipe::new(self.into_typed(), next.into_typed())
    }

    /// One system that runs `self` and hands what it returned to `f`, a
    /// plain function (no params): to turn an output into another, or
    /// into what a schedule accepts (`.map(drop)`, `.map(Result::err)`).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// fn count(q: Query<Entity>) -> usize { q.iter().count() }
    ///
    /// let mut world = World::new();
    /// world.spawn_batch([(), ()]);
    /// assert_eq!(world.run_system_once(count.map(|n| n * 10))?, 20);
    /// # Ok::<(), Error>(())
    /// ```
    fn map<T, F>(self, f: F) -> Map<Self::System, F>
    where
        F: FnMut(<Self::System as TypedSystem>::Out) -> T + Send + 'static,
        T: 'static,
    {
        Map::new(self.into_typed(), f)
    }
}

/// Marks the [`IntoTypedSystem`] impl for a typed system.
#[doc(hidden)]
pub enum TypedMarker {}

impl<M: 'static, F: ParamFunction<M>> IntoTypedSystem<M> for F {
    type System = FunctionSystem<M, F>;

    fn into_typed(self) -> Self::System {
        FunctionSystem::new(self)
    }
}

impl<A: TypedSystem, B: TypedSystem<In = In<A::Out>>> IntoTypedSystem<TypedMarker> for Pipe<A, B> {
    type System = Self;

    fn into_typed(self) -> Self {
        self
    }
}

impl<S, F, T> IntoTypedSystem<TypedMarker> for Map<S, F>
where
    S: TypedSystem,
    F: FnMut(S::Out) -> T + Send + 'static,
    T: 'static,
{
    type System = Self;

    fn into_typed(self) -> Self {
        self
    }
}

/// Marks the [`IntoSystem`] impl for pipes and maps.
#[doc(hidden)]
pub enum PipedMarker {}

impl<A, B> IntoSystem<PipedMarker> for Pipe<A, B>
where
    A: TypedSystem<In = ()>,
    B: TypedSystem<In = In<A::Out>, Out: SystemOutput>,
{
    fn into_config(self) -> SystemConfig {
        scheduled(self)
    }
}

impl<S, F, T> IntoSystem<PipedMarker> for Map<S, F>
where
    S: TypedSystem<In = ()>,
    F: FnMut(S::Out) -> T + Send + 'static,
    T: SystemOutput,
{
    fn into_config(self) -> SystemConfig {
        scheduled(self)
    }
}

/// `system` configured for a schedule, named after it.
pub(crate) fn scheduled<S: TypedSystem<In = (), Out: SystemOutput>>(system: S) -> SystemConfig {
    let name = system.name();
    config(Box::new(Returning::new(system)), name)
}

/// A typed system taking nothing and returning what a schedule understands
/// (`()` or a `Result`), as the executor runs every system: its output
/// turned into a [`RunOutcome`], an error kept until the schedule takes it.
pub(crate) struct Returning<S> {
    system: S,
    /// The error its last run returned, until the schedule takes it.
    failure: Option<BoxedError>,
}

impl<S> Returning<S> {
    pub(crate) fn new(system: S) -> Self {
        Self {
            system,
            failure: None,
        }
    }

    /// Keeps the error a run returned for the schedule: out of line, as
    /// runs seldom fail.
    #[cold]
    #[inline(never)]
    fn fail(&mut self, error: BoxedError) -> RunOutcome {
        self.failure = Some(error);
        RunOutcome::Failed
    }
}

impl<S: TypedSystem<In = (), Out: SystemOutput>> AnySystem for Returning<S> {
    fn access(&self) -> &SystemAccess {
        self.system.access()
    }

    #[inline]
    unsafe fn run(&mut self, world: SystemWorld<'_>) -> Result<RunOutcome, Error> {
        // SAFETY: this function's contract is `run_with`'s: `world` was made
        // for this run, nothing conflicting with this system runs meanwhile,
        // and its access has no clash.
        match unsafe { self.system.run_with((), world) } {
            Ok(output) => Ok(match output.into_failure() {
                None => RunOutcome::Ran,
                Some(error) => self.fail(error),
            }),
            Err(Error::SkipSystem { .. }) => Ok(RunOutcome::Skipped),
            Err(error) => Err(error),
        }
    }

    fn prepare(&mut self, world: &mut World) {
        self.system.prepare(world);
    }

    fn prepares(&self) -> bool {
        self.system.prepares()
    }

    fn apply(
        &mut self,
        world: &mut World,
        failed: &mut dyn FnMut(Error),
        removals: &mut Vec<String>,
    ) {
        self.system.apply(world, failed, removals);
    }

    fn discard(&mut self) {
        self.system.discard();
    }

    fn take_failure(&mut self) -> Option<BoxedError> {
        self.failure.take()
    }

    fn defers(&self) -> bool {
        self.system.defers()
    }
}
