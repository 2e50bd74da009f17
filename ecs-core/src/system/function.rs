//! Functions and closures whose arguments are all params, after an optional
//! input: systems (which return nothing or a `Result`), run conditions (which
//! return `bool`) and systems run on demand or piped (which take input and
//! return anything) share one call and one body that keeps the params' state.

use core::marker::PhantomData;

use std::borrow::Cow;

use crate::error::Error;
use crate::world::{SystemIn, SystemInput, SystemOutput, World};

use super::System;
use super::access::SystemAccess;
use super::config::function_name;
use super::param::{ParamItem, SystemParam, SystemWorld};
use super::typed::{Sealed, TypedSystem};

/// A function or closure whose arguments are all [`SystemParam`]s (up to
/// 16), after an optional input ([`In`](crate::world::In),
/// [`InRef`](crate::world::InRef), [`InMut`](crate::world::InMut)), whatever it
/// returns. `Marker` tells the impls for each arity apart; the compiler
/// infers it. [`SystemParamFunction`] and
/// [`ConditionFunction`](super::ConditionFunction) are this with no input and
/// the output fixed to `()` or a `Result`, and to `bool`.
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
    /// What the function takes before its params: `()` for nothing.
    type In: SystemInput + 'static;
    /// The params, as one tuple.
    type Param: SystemParam;
    /// What the function returns.
    type Output: 'static;

    /// Calls the function with its input and params.
    fn call(
        &mut self,
        input: SystemIn<'_, Self::In>,
        params: ParamItem<'_, Self::Param>,
    ) -> Self::Output;
}

/// Marks the [`ParamFunction`] impls for functions that take input.
#[doc(hidden)]
pub enum HasInput {}

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
        impl<Func, Out: 'static, $($param: SystemParam),*> ParamFunction<fn($($param,)*) -> Out>
            for Func
        where
            Func: Send + 'static,
            for<'a> &'a mut Func:
                FnMut($($param),*) -> Out + FnMut($(ParamItem<'_, $param>),*) -> Out,
        {
            type In = ();
            type Param = ($($param,)*);
            type Output = Out;

            #[inline]
            fn call(&mut self, (): (), params: ParamItem<'_, ($($param,)*)>) -> Out {
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

macro_rules! input_function {
    ($(($param:ident, $arg:ident)),*) => {
        #[allow(
            non_snake_case,
            unused_variables,
            clippy::too_many_arguments,
            reason = "bindings are named after type parameters; the input alone binds no param; \
                      a function of 16 params is called with 17 arguments"
        )]
        impl<Func, Input, Out: 'static, $($param: SystemParam),*>
            ParamFunction<(HasInput, fn(Input, $($param,)*) -> Out)> for Func
        where
            Func: Send + 'static,
            Input: SystemInput + 'static,
            for<'a> &'a mut Func: FnMut(Input, $($param),*) -> Out
                + FnMut(Input::Param<'_>, $(ParamItem<'_, $param>),*) -> Out,
        {
            type In = Input;
            type Param = ($($param,)*);
            type Output = Out;

            #[inline]
            fn call(
                &mut self,
                input: SystemIn<'_, Input>,
                params: ParamItem<'_, ($($param,)*)>,
            ) -> Out {
                #[inline(always)]
                #[allow(clippy::too_many_arguments, reason = "the input and one argument per param")]
                fn call_inner<Input, Out, $($param),*>(
                    mut f: impl FnMut(Input, $($param),*) -> Out,
                    input: Input,
                    $($arg: $param),*
                ) -> Out {
                    f(input, $($arg),*)
                }
                let ($($arg,)*) = params;
                call_inner(self, Input::wrap(input), $($arg),*)
            }
        }
    };
}

crate::util::macros::all_tuple_pairs!(input_function:
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
pub trait SystemParamFunction<Marker>:
    ParamFunction<Marker, In = (), Output: SystemOutput>
{
}

impl<Marker, F: ParamFunction<Marker, In = (), Output: SystemOutput>> SystemParamFunction<Marker>
    for F
{
}

/// Marks the [`ParamFunction`] impl of [`RunMethod`].
pub(crate) enum RunMethodMarker {}

/// A [`System`] type seen as a function of its params: its `run` method.
pub(crate) struct RunMethod<S>(pub(crate) S);

impl<S: System> ParamFunction<RunMethodMarker> for RunMethod<S> {
    type In = ();
    type Param = S::Params;
    type Output = ();

    #[inline]
    fn call(&mut self, (): (), params: ParamItem<'_, S::Params>) {
        self.0.run(params);
    }
}

/// A function of params with its params' state and what they touch: the
/// body of every function system, `System` type and run condition, and the
/// [`TypedSystem`] a function becomes ([`IntoTypedSystem`](super::IntoTypedSystem)).
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::system::{FunctionSystem, TypedSystem};
///
/// fn count(q: Query<Entity>) -> usize { q.iter().count() }
///
/// let system: FunctionSystem<_, _> = count.into_typed();
/// assert_eq!(system.name(), "count");
/// ```
pub struct FunctionSystem<Marker, F: ParamFunction<Marker>> {
    function: F,
    state: <F::Param as SystemParam>::State,
    access: SystemAccess,
    name: Cow<'static, str>,
    _marker: PhantomData<fn() -> Marker>,
}

impl<Marker: 'static, F: ParamFunction<Marker>> FunctionSystem<Marker, F> {
    /// The function as a system named after it (`movement`,
    /// `main::{{closure}}`).
    pub(crate) fn new(function: F) -> Self {
        Self::named(function, function_name(core::any::type_name::<F>()))
    }

    pub(crate) fn named(function: F, name: Cow<'static, str>) -> Self {
        let mut access = SystemAccess::new();
        let state = F::Param::init(&mut access);
        Self {
            function,
            state,
            access,
            name,
            _marker: PhantomData,
        }
    }

    /// What the params read and write.
    pub(crate) fn access(&self) -> &SystemAccess {
        &self.access
    }

    /// Fetches the params and calls the function with `input`.
    ///
    /// # Safety
    /// As [`AnySystem::run`](super::AnySystem::run): `world` was made for
    /// this run, and no system whose access conflicts with this one's runs
    /// meanwhile.
    #[inline]
    pub(crate) unsafe fn call(
        &mut self,
        input: SystemIn<'_, F::In>,
        world: SystemWorld<'_>,
    ) -> Result<F::Output, Error> {
        // SAFETY: `world` was made for this run, no system conflicting with
        // this one's access runs meanwhile, and that access (every param's,
        // registered in `new`) has no clash: this function's contract, and
        // what `fetch` requires.
        let params = unsafe { F::Param::fetch(&mut self.state, world)? };
        Ok(self.function.call(input, params))
    }

    /// Readies the world for the params before a frame.
    pub(crate) fn prepare(&mut self, world: &mut World) {
        F::Param::prepare(&mut self.state, world);
    }
}

impl<Marker: 'static, F: ParamFunction<Marker>> Sealed for FunctionSystem<Marker, F> {}

impl<Marker: 'static, F: ParamFunction<Marker>> TypedSystem for FunctionSystem<Marker, F> {
    type In = F::In;
    type Out = F::Output;

    fn name(&self) -> Cow<'static, str> {
        self.name.clone()
    }

    fn access(&self) -> &SystemAccess {
        &self.access
    }

    fn prepare(&mut self, world: &mut World) {
        FunctionSystem::prepare(self, world);
    }

    fn prepares(&self) -> bool {
        F::Param::PREPARES
    }

    #[inline]
    unsafe fn run_with(
        &mut self,
        input: SystemIn<'_, F::In>,
        world: SystemWorld<'_>,
    ) -> Result<F::Output, Error> {
        // SAFETY: this function's contract is `call`'s: `world` was made for
        // this run and nothing conflicting with this system runs meanwhile.
        unsafe { self.call(input, world) }
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

    fn defers(&self) -> bool {
        F::Param::DEFERS
    }
}
