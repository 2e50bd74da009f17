//! Functions and closures whose arguments are all params: systems (which
//! return nothing) and run conditions (which return `bool`) share one call
//! and one body that keeps the params' state.

use core::marker::PhantomData;

use crate::error::{BoxedError, Error};
use crate::world::World;

use super::System;
use super::access::SystemAccess;
use super::erased::{AnySystem, RunOutcome};
use super::output::SystemOutput;
use super::param::{ParamItem, SystemParam, SystemWorld};

/// A function or closure whose arguments are all [`SystemParam`]s (up to
/// 16), whatever it returns. `Marker` tells the impls for each arity apart;
/// the compiler infers it. [`SystemParamFunction`] and
/// [`ConditionFunction`](super::ConditionFunction) are this with the output
/// fixed to `()` and to `bool`.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::system::ParamFunction;
///
/// struct Score(u32);
///
/// fn returns<M, F: ParamFunction<M, Output = u32>>(_: F) {}
/// returns(|score: Res<Score>| score.0 * 2);
/// ```
pub trait ParamFunction<Marker>: Send + 'static {
    /// The params, as one tuple.
    type Param: SystemParam;
    /// What the function returns.
    type Output;

    /// Calls the function with its params.
    fn call(&mut self, params: ParamItem<'_, Self::Param>) -> Self::Output;
}

macro_rules! param_function {
    ($(($param:ident, $arg:ident)),*) => {
        #[allow(
            non_snake_case,
            clippy::unused_unit,
            unused_variables,
            clippy::too_many_arguments,
            reason = "bindings are named after type parameters; the empty tuple binds nothing; \
                      a function of 16 params is called with 16 arguments"
        )]
        impl<Func, Out, $($param: SystemParam),*> ParamFunction<fn($($param,)*) -> Out> for Func
        where
            Func: Send + 'static,
            for<'a> &'a mut Func:
                FnMut($($param),*) -> Out + FnMut($(ParamItem<'_, $param>),*) -> Out,
        {
            type Param = ($($param,)*);
            type Output = Out;

            #[inline]
            fn call(&mut self, params: ParamItem<'_, ($($param,)*)>) -> Out {
                // A plain generic function pins the argument types, which a
                // call on `&mut Func` alone leaves ambiguous.
                #[inline(always)]
                #[allow(clippy::too_many_arguments, reason = "one argument per param, up to 16")]
                fn call_inner<Out, $($param),*>(
                    mut f: impl FnMut($($param),*) -> Out,
                    $($arg: $param),*
                ) -> Out {
                    f($($arg),*)
                }
                let ($($arg,)*) = params;
                call_inner(self, $($arg),*)
            }
        }
    };
}

crate::util::macros::all_tuple_pairs!(param_function:
    (P15, p15), (P14, p14), (P13, p13), (P12, p12), (P11, p11), (P10, p10), (P9, p9), (P8, p8),
    (P7, p7), (P6, p6), (P5, p5), (P4, p4), (P3, p3), (P2, p2), (P1, p1), (P0, p0));

/// A function or closure whose arguments are all [`SystemParam`]s (up to
/// 16) and which returns nothing or a `Result<(), E>` ([`SystemOutput`]),
/// callable as a system. `Marker` tells the
/// impls for each arity apart; the compiler infers it.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::system::SystemParamFunction;
///
/// #[derive(Component)]
/// struct Position(f32);
///
/// fn is_system<M>(_: impl SystemParamFunction<M>) {}
/// is_system(|q: Query<&Position>, mut commands: Commands| {
///     for _ in q.iter() {
///         commands.spawn(());
///     }
/// });
/// ```
pub trait SystemParamFunction<Marker>: ParamFunction<Marker, Output: SystemOutput> {}

impl<Marker, F: ParamFunction<Marker, Output: SystemOutput>> SystemParamFunction<Marker> for F {}

/// Marks the [`ParamFunction`] impl of [`RunMethod`].
pub(crate) enum RunMethodMarker {}

/// A [`System`] type seen as a function of its params: its `run` method.
pub(crate) struct RunMethod<S>(pub(crate) S);

impl<S: System> ParamFunction<RunMethodMarker> for RunMethod<S> {
    type Param = S::Params;
    type Output = ();

    #[inline]
    fn call(&mut self, params: ParamItem<'_, S::Params>) {
        self.0.run(params);
    }
}

/// A [`ParamFunction`] with its params' state and what they touch: the body
/// of every function system, `System` type and run condition.
pub(crate) struct FunctionSystem<Marker, F: ParamFunction<Marker>> {
    function: F,
    state: <F::Param as SystemParam>::State,
    access: SystemAccess,
    /// The error its last run returned, until the schedule takes it.
    failure: Option<BoxedError>,
    _marker: PhantomData<fn() -> Marker>,
}

impl<Marker: 'static, F: ParamFunction<Marker>> FunctionSystem<Marker, F> {
    pub(crate) fn new(function: F) -> Self {
        let mut access = SystemAccess::new();
        let state = F::Param::init(&mut access);
        Self {
            function,
            state,
            access,
            failure: None,
            _marker: PhantomData,
        }
    }

    /// What the params read and write.
    pub(crate) fn access(&self) -> &SystemAccess {
        &self.access
    }

    /// Fetches the params and calls the function.
    ///
    /// # Safety
    /// As [`AnySystem::run`]: `world` was made for this run, and no system
    /// whose access conflicts with this one's runs meanwhile.
    #[inline]
    pub(crate) unsafe fn call(&mut self, world: SystemWorld<'_>) -> Result<F::Output, Error> {
        // SAFETY: `world` was made for this run, no system conflicting with
        // this one's access runs meanwhile, and that access (every param's,
        // registered in `new`) has no clash: this function's contract, and
        // what `fetch` requires.
        let params = unsafe { F::Param::fetch(&mut self.state, world)? };
        Ok(self.function.call(params))
    }

    /// Readies the world for the params before a frame.
    pub(crate) fn prepare(&mut self, world: &mut World) {
        F::Param::prepare(&mut self.state, world);
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

impl<Marker: 'static, F: ParamFunction<Marker, Output: SystemOutput>> AnySystem
    for FunctionSystem<Marker, F>
{
    fn access(&self) -> &SystemAccess {
        &self.access
    }

    #[inline]
    unsafe fn run(&mut self, world: SystemWorld<'_>) -> Result<RunOutcome, Error> {
        // SAFETY: this function's contract is `call`'s: `world` was made for
        // this run and nothing conflicting with this system runs meanwhile.
        match unsafe { self.call(world) } {
            Ok(output) => Ok(match output.into_failure() {
                None => RunOutcome::Ran,
                Some(error) => self.fail(error),
            }),
            Err(Error::SkipSystem { .. }) => Ok(RunOutcome::Skipped),
            Err(error) => Err(error),
        }
    }

    fn prepare(&mut self, world: &mut World) {
        FunctionSystem::prepare(self, world);
    }

    fn apply(
        &mut self,
        world: &mut World,
        failed: &mut dyn FnMut(Error),
        removals: &mut Vec<String>,
    ) {
        F::Param::apply(&mut self.state, world, failed, removals);
    }

    fn discard(&mut self) {
        F::Param::discard(&mut self.state);
    }

    fn take_failure(&mut self) -> Option<BoxedError> {
        self.failure.take()
    }

    fn defers(&self) -> bool {
        F::Param::DEFERS
    }

    fn prepares(&self) -> bool {
        F::Param::PREPARES
    }
}
