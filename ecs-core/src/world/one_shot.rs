//! One-shot systems: registered once with the world, run on demand
//! (`world.run_system(id)`) rather than every frame by a schedule.

use core::fmt;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Mutex;

use crate::error::Error;

use super::World;

/// The id of a system registered with [`World::register_system`]. Ids are
/// never reused: one whose system was unregistered stays unknown.
///
/// ```
/// use ecs_core::prelude::*;
///
/// let mut world = World::new();
/// let id: SystemId = world.register_system(|| {});
/// assert_eq!(id, id.clone());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct SystemId(u64);

impl fmt::Display for SystemId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// A system the world runs on demand: what
/// [`IntoOneShotSystem`] makes of anything a schedule accepts.
#[doc(hidden)]
pub trait OneShotSystem: Send {
    /// The system's name, for errors.
    fn name(&self) -> &str;

    /// Runs the system once, then applies its commands. Every way of
    /// running a one-shot system comes here, so each gets the same answer
    /// to a panic.
    ///
    /// # Errors
    /// The system could not run (its params could not be fetched), or the
    /// first of its commands that failed.
    ///
    /// # Panics
    /// A panic of the system goes on once the commands it recorded are
    /// dropped unapplied (each value once) and the ids its spawns reserved
    /// despawned, as a stage's after a panicking system; a panic of a
    /// command, once the commands before it applied and the rest are
    /// dropped, their spawns' ids despawned. Nothing of the run waits for
    /// the next one.
    fn run(&mut self, world: &mut World) -> Result<(), Error>;
}

/// What [`World::register_system`] accepts: every function, closure or
/// `System` a schedule accepts (implemented in `system/`).
#[doc(hidden)]
pub trait IntoOneShotSystem<Marker> {
    /// The system, ready to run on demand.
    fn into_one_shot(self) -> Box<dyn OneShotSystem>;
}

/// A registered system's place.
enum Slot {
    Ready(Box<dyn OneShotSystem>),
    /// Taken out while it runs; its name, for the error of a nested run.
    Running(String),
    Unregistered,
}

/// The world's one-shot systems, indexed by id. Kept as a resource (the
/// `Mutex` makes the boxes `Sync`; it is only ever reached through
/// `&mut World`, so it never blocks).
#[derive(Default)]
struct OneShotSystems(Mutex<Vec<Slot>>);

impl OneShotSystems {
    fn slots(&mut self) -> &mut Vec<Slot> {
        self.0
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl World {
    /// Registers `system` to run when asked ([`run_system`](Self::run_system))
    /// rather than every frame: a function of params, a `&mut World`
    /// closure, or a [`System`](crate::system::System). Its `Local`s and
    /// change-detection horizon persist between runs.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Debris;
    ///
    /// fn explode(mut commands: Commands) {
    ///     commands.spawn_batch((0..3).map(|_| Debris));
    /// }
    ///
    /// let mut world = World::new();
    /// let explode = world.register_system(explode);
    /// world.run_system(explode)?;
    /// world.run_system(explode)?;
    /// assert_eq!(world.query::<&Debris>().iter().count(), 6);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn register_system<M>(&mut self, system: impl IntoOneShotSystem<M>) -> SystemId {
        let system = system.into_one_shot();
        self.init_resource::<OneShotSystems>();
        let slots = self.one_shots().slots();
        slots.push(Slot::Ready(system));
        SystemId(slots.len() as u64 - 1)
    }

    /// Runs the system registered as `id` once, with the world to itself,
    /// and applies its commands before returning.
    ///
    /// # Errors
    /// [`Error::UnknownSystemId`] for an id this world never gave or has
    /// unregistered; [`Error::SystemAlreadyRunning`] when the system is
    /// running (it asked for itself); [`Error::InSystem`] when its params
    /// could not be fetched; the first of its commands that failed (the
    /// others still apply).
    ///
    /// # Panics
    /// A panic of the system reaches the caller once the commands it
    /// recorded are dropped unapplied (each value once) and the ids its
    /// spawns reserved despawned, never left alive and empty; a panic of
    /// one of its commands, once the commands before it applied and the
    /// rest are dropped, their spawns' ids despawned. Either way the system
    /// stays registered, and its next run applies only its own commands.
    /// The same holds wherever the run was asked for: a command, an
    /// exclusive system.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use std::panic::{AssertUnwindSafe, catch_unwind};
    ///
    /// #[derive(Component)]
    /// struct Debris;
    /// #[derive(Default)]
    /// struct Spawned(Vec<Entity>);
    ///
    /// fn explode(mut commands: Commands, mut spawned: ResMut<Spawned>) {
    ///     spawned.0.push(commands.spawn(Debris));
    ///     if spawned.0.len() == 1 {
    ///         panic!("the first run fails");
    ///     }
    /// }
    ///
    /// let mut world = World::new();
    /// world.init_resource::<Spawned>();
    /// let explode = world.register_system(explode);
    /// assert!(catch_unwind(AssertUnwindSafe(|| world.run_system(explode))).is_err());
    /// world.flush();
    /// let first = world.resource::<Spawned>()?.0[0];
    /// assert!(!world.is_alive(first), "its reserved id is released");
    /// world.run_system(explode)?;
    /// assert_eq!(world.query::<&Debris>().iter().count(), 1, "the second run's only");
    /// # Ok::<(), Error>(())
    /// ```
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// struct Missing;
    /// fn needs(_: Res<Missing>) {}
    ///
    /// let mut world = World::new();
    /// let id = world.register_system(needs);
    /// assert_eq!(
    ///     world.run_system(id).unwrap_err().to_string(),
    ///     "system `needs` could not run: the world has no resource `Missing`: \
    ///      add it with `world.insert_resource(..)`"
    /// );
    /// ```
    pub fn run_system(&mut self, id: SystemId) -> Result<(), Error> {
        let unknown = Error::UnknownSystemId { id: id.0 };
        let Some(systems) = self.data.resources.get_mut::<OneShotSystems>() else {
            return Err(unknown);
        };
        let Some(slot) = systems.slots().get_mut(id.0 as usize) else {
            return Err(unknown);
        };
        let mut system = match core::mem::replace(slot, Slot::Unregistered) {
            Slot::Ready(system) => system,
            Slot::Running(name) => {
                *slot = Slot::Running(name.clone());
                return Err(Error::SystemAlreadyRunning { system: name });
            }
            Slot::Unregistered => return Err(unknown),
        };
        *slot = Slot::Running(system.name().to_owned());
        let result = panic::catch_unwind(AssertUnwindSafe(|| system.run(self)));
        // Back in its place, unless it unregistered itself meanwhile.
        if let Some(slot) = self
            .one_shots_if_any()
            .and_then(|s| s.get_mut(id.0 as usize))
            && matches!(slot, Slot::Running(_))
        {
            *slot = Slot::Ready(system);
        }
        result.unwrap_or_else(|payload| panic::resume_unwind(payload))
    }

    /// Forgets the system registered as `id`, dropping it and its state.
    ///
    /// # Errors
    /// [`Error::UnknownSystemId`] for an id this world never gave or has
    /// unregistered already.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut world = World::new();
    /// let id = world.register_system(|| {});
    /// world.unregister_system(id)?;
    /// assert_eq!(
    ///     world.run_system(id).unwrap_err(),
    ///     Error::UnknownSystemId { id: 0 }
    /// );
    /// # Ok::<(), Error>(())
    /// ```
    pub fn unregister_system(&mut self, id: SystemId) -> Result<(), Error> {
        let slot = self
            .one_shots_if_any()
            .and_then(|slots| slots.get_mut(id.0 as usize))
            .filter(|slot| !matches!(slot, Slot::Unregistered))
            .ok_or(Error::UnknownSystemId { id: id.0 })?;
        *slot = Slot::Unregistered;
        Ok(())
    }

    fn one_shots(&mut self) -> &mut OneShotSystems {
        self.data
            .resources
            .get_mut::<OneShotSystems>()
            .expect("initialised by the caller")
    }

    fn one_shots_if_any(&mut self) -> Option<&mut Vec<Slot>> {
        Some(self.data.resources.get_mut::<OneShotSystems>()?.slots())
    }
}
