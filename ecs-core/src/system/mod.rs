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
mod removed;
mod res;
mod single;

use std::borrow::Cow;

use crate::util::ShortName;

pub use crate::access::AccessMode;
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
#[doc(hidden)]
pub use function::{ParamFunction, SystemParamFunction};
pub use local::Local;
#[doc(hidden)]
pub use observer::ObserverFunction;
#[doc(hidden)]
pub use ordering::NameMarker;
pub use ordering::{IntoSystemConfigs, SetConfig, SystemConfigs, SystemName, after, before};
#[doc(hidden)]
pub use param::{DiscardEach, SystemWorld};
pub use param::{ParamItem, SystemParam};
pub use param_set::ParamSet;
#[doc(hidden)]
pub use removed::Removed;
pub use removed::RemovedComponents;
pub use res::{Res, ResMut};
pub use single::Single;

pub(crate) use conditional::Conditional;
pub(crate) use erased::{AnySystem, RunOutcome, discard_past_panics, drop_unapplied};
pub(crate) use last_run::LastRun;

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
