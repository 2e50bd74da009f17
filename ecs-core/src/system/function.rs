//! Functions and closures as systems: each argument is a param.

use core::marker::PhantomData;

use crate::error::Error;
use crate::world::World;

use super::access::SystemAccess;
use super::erased::{AnySystem, RunOutcome};
use super::param::{ParamItem, SystemParam, SystemWorld};

/// A function or closure whose arguments are all [`SystemParam`]s (up to
/// 16), callable as a system. `Marker` tells the impls for each arity apart;
/// the compiler infers it.
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
pub trait SystemParamFunction<Marker>: Send + 'static {
    /// The params, as one tuple.
    type Param: SystemParam;

    /// Calls the function with its params.
    fn call(&mut self, params: ParamItem<'_, Self::Param>);
}

macro_rules! function_system {
    ($(($param:ident, $arg:ident)),*) => {
        #[allow(
            non_snake_case,
            clippy::unused_unit,
            unused_variables,
            clippy::too_many_arguments,
            reason = "bindings are named after type parameters; the empty tuple binds nothing; \
                      a function of 16 params is called with 16 arguments"
        )]
        impl<Func, $($param: SystemParam),*> SystemParamFunction<fn($($param,)*)> for Func
        where
            Func: Send + 'static,
            for<'a> &'a mut Func: FnMut($($param),*) + FnMut($(ParamItem<'_, $param>),*),
        {
            type Param = ($($param,)*);

            #[inline]
            fn call(&mut self, params: ParamItem<'_, ($($param,)*)>) {
                // A plain generic function pins the argument types, which a
                // call on `&mut Func` alone leaves ambiguous.
                #[inline(always)]
                #[allow(clippy::too_many_arguments, reason = "one argument per param, up to 16")]
                fn call_inner<$($param),*>(mut f: impl FnMut($($param),*), $($arg: $param),*) {
                    f($($arg),*)
                }
                let ($($arg,)*) = params;
                call_inner(self, $($arg),*)
            }
        }
    };
}

crate::util::macros::all_tuple_pairs!(function_system:
    (P15, p15), (P14, p14), (P13, p13), (P12, p12), (P11, p11), (P10, p10), (P9, p9), (P8, p8),
    (P7, p7), (P6, p6), (P5, p5), (P4, p4), (P3, p3), (P2, p2), (P1, p1), (P0, p0));

/// A [`SystemParamFunction`] with its params' state.
pub(crate) struct FunctionSystem<Marker, F: SystemParamFunction<Marker>> {
    function: F,
    state: <F::Param as SystemParam>::State,
    access: SystemAccess,
    _marker: PhantomData<fn() -> Marker>,
}

impl<Marker: 'static, F: SystemParamFunction<Marker>> FunctionSystem<Marker, F> {
    pub(crate) fn new(function: F) -> Self {
        let mut access = SystemAccess::new();
        let state = F::Param::init(&mut access);
        Self {
            function,
            state,
            access,
            _marker: PhantomData,
        }
    }
}

impl<Marker: 'static, F: SystemParamFunction<Marker>> AnySystem for FunctionSystem<Marker, F> {
    fn access(&self) -> &SystemAccess {
        &self.access
    }

    #[inline]
    unsafe fn run(&mut self, world: SystemWorld<'_>) -> Result<RunOutcome, Error> {
        // SAFETY: `world` was made for this run, no system conflicting with
        // this one's access runs meanwhile, and that access (every param's,
        // registered in `new`) has no clash: this function's contract, and
        // what `fetch` requires.
        let params = match unsafe { F::Param::fetch(&mut self.state, world) } {
            Ok(params) => params,
            Err(Error::SkipSystem { .. }) => return Ok(RunOutcome::Skipped),
            Err(error) => return Err(error),
        };
        self.function.call(params);
        Ok(RunOutcome::Ran)
    }

    fn prepare(&mut self, world: &mut World) {
        F::Param::prepare(&mut self.state, world);
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
}
