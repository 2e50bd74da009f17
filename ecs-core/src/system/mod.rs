//! Systems: functions, closures and types that run against a world every
//! frame, each declaring what it reads and writes through its params.
//!
//! A system is a function whose arguments are [`SystemParam`]s
//! ([`Query`](struct@crate::Query), [`Res`], [`ResMut`], `Option<Res<R>>`,
//! [`Commands`](crate::Commands), [`Local`], `&World`, tuples, and
//! `#[derive(SystemParam)]` structs), a closure taking `&mut World` (an
//! exclusive system, which runs alone), or a type implementing [`System`].
//! What each param touches is computed when the system is added to a
//! [`Schedule`](crate::Schedule), which runs systems that touch nothing in
//! common at the same time.

// What each file owns (ARCHITECTURE.md keeps the summary): `SystemParam` (`param.rs`: queries,
// each keeping its storages between runs, `Commands`, `&World`, tuples, the `prepare` hook the
// schedule calls with `&mut World` before a frame for systems whose params declare `PREPARES`, and
// `defer`, which moves an observer's commands out unapplied; `observer.rs`: functions and closures
// as observers, `IntoObserver` implemented for them; `res.rs`: `Res`, `ResMut`, with `is_changed`
// / `is_added`; `local.rs`: `Local`; `event.rs`: `EventReader`, `EventWriter`; `single.rs`:
// `Single`, which skips its system unless one entity matches; `param_set.rs`: `ParamSet`, members
// checked against the other params but not one another; `removed.rs`: `RemovedComponents`, an
// event reader over a log an `OnRemove<T>` observer writes, registered by the param's `prepare`),
// `SystemAccess` and `Conflict` (`access.rs`), function systems (`function.rs`), exclusive systems
// (`exclusive.rs`), the `System` trait (`mod.rs`), `IntoSystem` and `SystemConfig` (`config.rs`,
// with `ignore_earlier_changes`, `in_set`, `run_if`), what orderings name and group
// (`ordering.rs`: `SystemName`, which orders by a function value; `IntoSystemConfigs` for tuples,
// `chain`; `SetConfig`, `after`, `before`), run conditions (`condition.rs`: `Condition`,
// `RunCondition`, the built-in conditions, `not` / `and` / `or`, each keeping its own horizon;
// `conditional.rs`: the wrapper a system gets only when it has conditions, which skips without
// moving the system's horizon), one-shot systems (`one_shot.rs`: `IntoOneShotSystem` for typed systems,
// `&mut World` closures, `System` types and configured systems, one runner for all; a panicking
// run's commands dropped and ids released by `erased.rs`'s `release_reserved`, the cleanup the
// executor uses), typed systems (`typed.rs`: `TypedSystem`, sealed, with its input and output
// types; `IntoTypedSystem` with `pipe` and `map`; `Returning`, the adapter that schedules one
// taking nothing and returning `()` or a `Result`), pipes and maps (`pipe.rs`: `Pipe`, whose
// access is its parts' union, `Map`), `LastRun` (`last_run.rs`: a system's last-run
// tick), the one erased shape the executor runs (`erased.rs`, whose `run` says whether the system
// ran or was skipped)

mod access;
mod condition;
mod conditional;
mod config;
mod erased;
mod event;
mod exclusive;
mod function;
mod last_run;
mod local;
mod observer;
mod one_shot;
mod ordering;
mod param;
mod param_set;
mod pipe;
mod removed;
mod res;
mod shared_condition;
mod single;
mod typed;

use std::borrow::Cow;

use crate::util::ShortName;

pub use crate::access::AccessMode;
pub use crate::world::On;
pub use crate::world::{
    In, InMut, InRef, IntoOneShotSystem, SystemId, SystemIn, SystemInput, SystemOutput,
};
pub use access::{Conflict, SystemAccess};
#[doc(hidden)]
pub use condition::BoxedMarker;
pub use condition::{
    Condition, ConditionFunction, RunCondition, any_with_component, in_state, not, on_event,
    resource_added, resource_changed, resource_exists,
};
#[doc(hidden)]
pub use config::{ConfiguredMarker, ExclusiveMarker, FunctionMarker, SystemMarker};
pub use config::{IntoSystem, SystemConfig};
pub use event::{EventReader, EventWriter};
pub use function::FunctionSystem;
#[doc(hidden)]
pub use function::{HasInput, ParamFunction, SystemParamFunction};
pub use local::Local;
#[doc(hidden)]
pub use observer::{ConditionalMarker, ObserverFunction};
pub use observer::{ConditionalObserver, ObserverRunIf};
#[doc(hidden)]
pub use ordering::NameMarker;
pub use ordering::{
    IntoSystemConfigs, SetConfig, SystemConfigs, SystemName, after, before, run_if,
};
#[doc(hidden)]
pub use param::{DiscardEach, SystemWorld};
pub use param::{ParamItem, SystemParam};
pub use param_set::ParamSet;
pub use pipe::{Map, Pipe};
#[doc(hidden)]
pub use removed::Removed;
pub use removed::RemovedComponents;
pub use res::{Res, ResMut};
pub use single::Single;
pub use typed::{IntoTypedSystem, TypedSystem};
#[doc(hidden)]
pub use typed::{PipedMarker, Sealed, TypedMarker};

pub(crate) use conditional::Conditional;
pub(crate) use erased::{AnySystem, RunOutcome, discard_past_panics, drop_unapplied};
pub(crate) use last_run::LastRun;
pub(crate) use shared_condition::SharedCondition;

/// A system that keeps its state in `self`: implement it for a type, and add
/// a value of the type to a schedule like a function.
///
/// `Params` names what `run` takes, with `'static` standing for the world
/// borrow of each run (a tuple for several params); `run` receives them as
/// [`ParamItem<'_, Self::Params>`].
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::system::{ParamItem, System};
///
/// #[derive(Component)]
/// struct Enemy;
/// struct Wave(u32);
///
/// /// Spawns a wave of enemies whenever the last one is cleared.
/// struct Waves {
///     size: usize,
///     spawned: u32,
/// }
///
/// impl System for Waves {
///     type Params = (Query<'static, &'static Enemy>, Commands<'static>, ResMut<'static, Wave>);
///
///     fn run(&mut self, (enemies, mut commands, mut wave): ParamItem<'_, Self::Params>) {
///         if enemies.is_empty() {
///             for _ in 0..self.size {
///                 commands.spawn(Enemy);
///             }
///             self.spawned += 1;
///             wave.0 = self.spawned;
///         }
///     }
/// }
///
/// let mut world = World::new();
/// world.insert_resource(Wave(0));
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, Waves { size: 3, spawned: 0 })?;
/// schedule.run(&mut world)?;
/// schedule.run(&mut world)?; // the wave is alive: nothing new
/// assert_eq!(world.len(), 3);
/// assert_eq!(world.resource::<Wave>()?.0, 1);
/// assert!(schedule.contains_system("Waves"));
/// # Ok::<(), Error>(())
/// ```
pub trait System: Send + 'static {
    /// The params `run` takes, with `'static` for the world borrow.
    type Params: SystemParam;

    /// Runs the system once.
    fn run(&mut self, params: ParamItem<'_, Self::Params>);

    /// The system's name in its schedule: by default the type's name
    /// without its module path.
    fn name(&self) -> Cow<'static, str> {
        Cow::Owned(ShortName(core::any::type_name::<Self>()).to_string())
    }
}
