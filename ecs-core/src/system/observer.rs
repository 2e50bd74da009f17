//! Functions and closures as observers: a trigger first, then system params.

use core::marker::PhantomData;
use std::panic::{self, AssertUnwindSafe};

use crate::change::RunTicks;
use crate::error::{Error, SystemError};
use crate::world::{
    CommandQueue, IntoObserver, Observer, ObserverFire, ObserverInput, ObserverRunner,
    SystemOutput, World, observer_name,
};

use super::access::SystemAccess;
use super::condition::{AnyCondition, Condition, RunCondition};
use super::last_run::LastRun;
use super::param::{ParamItem, SystemParam, SystemWorld};

/// A function or closure whose first argument is a trigger
/// ([`OnAdd`](crate::observer::OnAdd), [`OnInsert`](crate::observer::OnInsert),
/// [`OnRemove`](crate::observer::OnRemove), or [`On<E>`](crate::On) for a
/// custom event) and whose others are
/// [`SystemParam`]s (up to 15), returning nothing or a `Result<(), E>`
/// ([`SystemOutput`]), callable as an observer. An `Err` is recorded as
/// [`Error::ObserverFailed`] with the observer's name, beside its other
/// errors ([`World::take_observer_errors`]). `Marker` tells the impls for
/// each arity apart; the compiler infers it.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::system::ObserverFunction;
///
/// #[derive(Component)]
/// struct Health(i32);
///
/// fn is_observer<M>(_: impl ObserverFunction<M>) {}
/// is_observer(|trigger: OnRemove<Health>, q: Query<&Health>, mut commands: Commands| {
///     let _ = (trigger.entity(), q.iter().count());
///     commands.spawn(());
/// });
/// ```
pub trait ObserverFunction<Marker>: Send + 'static {
    /// The trigger, the first argument (`OnAdd<T>`, ..., `On<E>`).
    type Trigger: ObserverInput;
    /// The other params, as one tuple.
    type Param: SystemParam;
    /// What the function returns: `()` or a `Result<(), E>`.
    type Output: SystemOutput;

    /// Calls the function with its trigger and params.
    fn call(
        &mut self,
        trigger: <Self::Trigger as ObserverInput>::Item<'_>,
        params: ParamItem<'_, Self::Param>,
    ) -> Self::Output;
}

macro_rules! observer_function {
    ($(($param:ident, $arg:ident)),*) => {
        #[allow(
            non_snake_case,
            clippy::unused_unit,
            unused_variables,
            clippy::too_many_arguments,
            reason = "bindings are named after type parameters; the empty tuple binds nothing; \
                      an observer of 15 params is called with 16 arguments"
        )]
        impl<Func, E: ObserverInput, Out: SystemOutput, $($param: SystemParam),*>
            ObserverFunction<fn(E, $($param,)*) -> Out> for Func
        where
            Func: Send + 'static,
            for<'a> &'a mut Func: FnMut(E, $($param),*) -> Out
                + FnMut(E::Item<'_>, $(ParamItem<'_, $param>),*) -> Out,
        {
            type Trigger = E;
            type Param = ($($param,)*);
            type Output = Out;

            #[inline]
            fn call(
                &mut self,
                trigger: E::Item<'_>,
                params: ParamItem<'_, ($($param,)*)>,
            ) -> Out {
                // A plain generic function pins the argument types, which a
                // call on `&mut Func` alone leaves ambiguous.
                #[inline(always)]
                #[allow(clippy::too_many_arguments, reason = "a trigger and up to 15 params")]
                fn call_inner<E, Out, $($param),*>(
                    mut f: impl FnMut(E, $($param),*) -> Out,
                    trigger: E,
                    $($arg: $param),*
                ) -> Out {
                    f(trigger, $($arg),*)
                }
                let ($($arg,)*) = params;
                call_inner(self, trigger, $($arg),*)
            }
        }
    };
}

crate::util::macros::all_tuple_pairs!(observer_function:
    (P14, p14), (P13, p13), (P12, p12), (P11, p11), (P10, p10), (P9, p9), (P8, p8),
    (P7, p7), (P6, p6), (P5, p5), (P4, p4), (P3, p3), (P2, p2), (P1, p1), (P0, p0));

/// An [`ObserverFunction`] with its params' state, and the tick of its last
/// run, which its `Added` / `Changed` filters compare against like a
/// system's (its first run sees everything from before it).
struct FunctionObserver<Marker, F: ObserverFunction<Marker>> {
    function: F,
    state: <F::Param as SystemParam>::State,
    last_run: LastRun,
    /// The run conditions, every one asked before each run.
    conditions: Vec<Box<dyn AnyCondition>>,
    /// The observer's name, for the error it returns.
    name: String,
    _marker: PhantomData<fn() -> Marker>,
}

impl<Marker: 'static, F: ObserverFunction<Marker>> ObserverRunner for FunctionObserver<Marker, F> {
    fn run(
        &mut self,
        world: &mut World,
        fire: &mut ObserverFire<'_>,
        deferred: &mut CommandQueue,
    ) -> Result<(), Error> {
        let Self {
            function,
            state,
            last_run,
            conditions,
            ..
        } = self;
        let ran = panic::catch_unwind(AssertUnwindSafe(|| {
            F::Param::prepare(state, world);
            let this_run = world.advance_change_tick();
            let ticks = last_run.ticks(this_run);
            if !conditions.is_empty() && !holds(conditions, world, ticks)? {
                return Ok(None);
            }
            // SAFETY: the world is borrowed exclusively for the whole run, and
            // the params' access was checked free of clashes when the observer
            // was made, so no two of them reach the same data where one writes.
            let params =
                match unsafe { F::Param::fetch(state, SystemWorld::new(world, None, ticks)) } {
                    Ok(params) => params,
                    // A `Single` that does not match one entity skips the
                    // observer, as it skips a system: no error.
                    Err(Error::SkipSystem { .. }) => return Ok(None),
                    Err(error) => return Err(error),
                };
            let output = function.call(F::Trigger::item(fire), params);
            last_run.ran(this_run);
            Ok(output.into_failure())
        }));
        // Whatever the run came to: what its params recorded leaves the
        // state (the caller drops it if the run panicked), and what they
        // hold between runs is let go.
        F::Param::defer(&mut self.state, deferred);
        match ran.unwrap_or_else(|payload| panic::resume_unwind(payload))? {
            None => Ok(()),
            Some(error) => Err(Error::ObserverFailed(SystemError::new(
                self.name.clone(),
                None,
                error,
            ))),
        }
    }
}

/// Asks every condition (each one, even after a no, as for systems) with
/// the world to itself; whether all said yes.
fn holds(
    conditions: &mut [Box<dyn AnyCondition>],
    world: &mut World,
    ticks: RunTicks,
) -> Result<bool, Error> {
    let mut all = true;
    for condition in conditions {
        condition.prepare(world);
        // SAFETY: the world is borrowed exclusively for the whole run, and
        // the condition only reads (checked when the observer was made), its
        // own params free of clashes: nothing else reaches the world
        // meanwhile.
        all &= unsafe { condition.evaluate(SystemWorld::new(world, None, ticks))? };
    }
    Ok(all)
}

impl<Marker: 'static, F: ObserverFunction<Marker>> IntoObserver<Marker> for F {
    fn into_observer(self) -> Result<Observer, Error> {
        observer(self, Vec::new())
    }
}

/// An observer with run conditions: made by
/// [`run_if`](ObserverRunIf::run_if) on an observer function; more
/// conditions chain with its own `run_if`. Every condition is asked before
/// each run (even after one said no); the observer runs when all say yes.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Event)]
/// struct Alarm;
/// struct Armed;
/// #[derive(Default)]
/// struct Rang(u32);
///
/// let mut world = World::new();
/// world.init_resource::<Rang>();
/// world.observe((|_: On<Alarm>, mut rang: ResMut<Rang>| rang.0 += 1).run_if(resource_exists::<Armed>));
/// world.trigger(Alarm);
/// world.insert_resource(Armed);
/// world.trigger(Alarm);
/// assert_eq!(world.resource::<Rang>()?.0, 1);
/// # Ok::<(), Error>(())
/// ```
pub struct ConditionalObserver<Marker, F> {
    function: F,
    conditions: Vec<RunCondition>,
    _marker: PhantomData<fn() -> Marker>,
}

impl<Marker, F> ConditionalObserver<Marker, F> {
    /// Adds a condition: the observer runs when every one holds.
    pub fn run_if<M>(mut self, condition: impl Condition<M>) -> Self {
        self.conditions.push(condition.into_condition());
        self
    }
}

/// Run conditions on observers: `world.observe(on_attack.run_if(cond))`.
pub trait ObserverRunIf<Marker>: ObserverFunction<Marker> + Sized {
    /// The observer, run only when `condition` holds (asked before each
    /// run, with its own change horizon); a condition that writes is
    /// refused when the observer is registered
    /// ([`Error::WritingCondition`]).
    fn run_if<M>(self, condition: impl Condition<M>) -> ConditionalObserver<Marker, Self> {
        ConditionalObserver {
            function: self,
            conditions: vec![condition.into_condition()],
            _marker: PhantomData,
        }
    }
}

impl<Marker, F: ObserverFunction<Marker>> ObserverRunIf<Marker> for F {}

/// Marks the [`IntoObserver`] impl for an observer with conditions.
#[doc(hidden)]
pub enum ConditionalMarker {}

impl<Marker: 'static, F: ObserverFunction<Marker>> IntoObserver<(ConditionalMarker, Marker)>
    for ConditionalObserver<Marker, F>
{
    fn into_observer(self) -> Result<Observer, Error> {
        observer(self.function, self.conditions)
    }
}

/// `function` as an observer guarded by `conditions`, or the error of a
/// clash among its params or a condition that writes.
fn observer<Marker: 'static, F: ObserverFunction<Marker>>(
    function: F,
    conditions: Vec<RunCondition>,
) -> Result<Observer, Error> {
    let mut access = SystemAccess::new();
    let state = F::Param::init(&mut access);
    let name = observer_name(core::any::type_name::<F>());
    if let Some(error) = access.clash_error(name.clone(), true) {
        return Err(error);
    }
    let mut guards = Vec::with_capacity(conditions.len());
    for condition in conditions {
        if let Some(error) = condition.access().clash_error(name.clone(), true) {
            return Err(error);
        }
        if let Some((param, type_name)) = condition.access().first_change() {
            return Err(Error::WritingCondition {
                system: name,
                condition: condition.name(),
                param,
                type_name,
            });
        }
        guards.push(condition.into_inner());
    }
    let runner = FunctionObserver {
        function,
        state,
        last_run: LastRun::new(true),
        conditions: guards,
        name,
        _marker: PhantomData,
    };
    Ok(Observer::new::<F::Trigger, F>(Box::new(runner)))
}
