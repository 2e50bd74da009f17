//! One-shot systems: registered once with the world, run on demand
//! (`world.run_system(id)`) rather than every frame by a schedule, with an
//! input ([`In`], [`InRef`], [`InMut`]) and an output of their own.

mod input;
mod output;

use core::any::Any;
use core::fmt;
use core::hash::{Hash, Hasher};
use core::marker::PhantomData;
use std::collections::HashMap;
use std::panic::{self, AssertUnwindSafe};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::error::{Error, SystemError};

use super::{Commands, World};

pub use input::{In, InMut, InRef, SystemIn, SystemInput};
pub use output::SystemOutput;

/// The id of a system registered with [`World::register_system`], typed by
/// what the system takes (`I`: `()`, [`In<T>`], [`InRef<T>`], [`InMut<T>`])
/// and returns (`O`), so that [`World::run_system_with`] hands it the right
/// input and gives back its output. Ids are unique across every world of
/// the process and never reused: one whose system was unregistered stays
/// unknown, and so does one from another world.
///
/// ```
/// use ecs_core::prelude::*;
///
/// let mut world = World::new();
/// let id: SystemId = world.register_system(|| {});
/// let double: SystemId<In<i32>, i32> = world.register_system(|In(x): In<i32>| x * 2);
/// assert_eq!(id, id.clone());
/// assert_ne!(id.to_string(), double.to_string());
/// ```
pub struct SystemId<I = (), O = ()> {
    id: u64,
    _types: PhantomData<fn(I) -> O>,
}

/// Where the next [`SystemId`] comes from: one counter for the process, so
/// that commands can hand out ids before their world has the system, and an
/// id is never mistaken for another world's.
static NEXT_SYSTEM_ID: AtomicU64 = AtomicU64::new(0);

impl<I, O> SystemId<I, O> {
    /// A fresh id, never handed out before.
    fn fresh() -> Self {
        Self {
            id: NEXT_SYSTEM_ID.fetch_add(1, Ordering::Relaxed),
            _types: PhantomData,
        }
    }

    /// The number that names the id in errors ([`Error::UnknownSystemId`]).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut world = World::new();
    /// let id = world.register_system(|| {});
    /// world.unregister_system(id)?;
    /// assert_eq!(world.run_system(id), Err(Error::UnknownSystemId { id: id.index() }));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn index(self) -> u64 {
        self.id
    }

    fn unknown(self) -> Error {
        Error::UnknownSystemId { id: self.id }
    }
}

impl<I, O> Clone for SystemId<I, O> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<I, O> Copy for SystemId<I, O> {}

impl<I, O> PartialEq for SystemId<I, O> {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl<I, O> Eq for SystemId<I, O> {}

impl<I, O> PartialOrd for SystemId<I, O> {
    fn partial_cmp(&self, other: &Self) -> Option<core::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl<I, O> Ord for SystemId<I, O> {
    fn cmp(&self, other: &Self) -> core::cmp::Ordering {
        self.id.cmp(&other.id)
    }
}

impl<I, O> Hash for SystemId<I, O> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.id.hash(state);
    }
}

impl<I, O> fmt::Debug for SystemId<I, O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SystemId({})", self.id)
    }
}

impl<I, O> fmt::Display for SystemId<I, O> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.id)
    }
}

/// A system the world runs on demand, taking `I` and returning `O`: what
/// [`IntoOneShotSystem`] makes of a system (implemented in `system/`).
#[doc(hidden)]
pub trait OneShotSystem<I: SystemInput = (), O = ()>: Send {
    /// The system's name, for errors.
    fn name(&self) -> &str;

    /// Runs the system once with `input`, then applies its commands. Every
    /// way of running a one-shot system comes here, so each gets the same
    /// answer to a panic.
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
    fn run(&mut self, input: SystemIn<'_, I>, world: &mut World) -> Result<O, Error>;
}

/// What [`World::register_system`], [`World::run_system_once`] and
/// [`Commands::register_system`] accept: a function or closure of params,
/// with an input as its first argument or none, returning anything; a pipe
/// (`a.pipe(b)`) or map (`a.map(f)`) of those; a `&mut World` closure; a
/// [`System`](crate::system::System) type; or a system configured with
/// `run_if`. `In` and `Out` are what it takes and returns.
///
/// ```
/// use ecs_core::prelude::*;
///
/// /// Runs any system that counts something, once.
/// fn count_with<M>(world: &mut World, counter: impl IntoOneShotSystem<M, In = (), Out = usize>)
///     -> Result<usize, Error>
/// {
///     world.run_system_once(counter)
/// }
///
/// #[derive(Component)]
/// struct Enemy;
///
/// let mut world = World::new();
/// world.spawn_batch([Enemy, Enemy, Enemy]);
/// assert_eq!(count_with(&mut world, |q: Query<&Enemy>| q.iter().count())?, 3);
/// # Ok::<(), Error>(())
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot run as a one-shot system",
    label = "not a system",
    note = "a one-shot system is a function or closure whose arguments are all system params, \
            after an optional `In<T>`, `InRef<T>` or `InMut<T>`, returning anything; a pipe or map \
            of those; a closure taking `&mut World`; or a type that implements `System`"
)]
pub trait IntoOneShotSystem<Marker>: Sized {
    /// What the system takes as its first argument (`()` for nothing).
    type In: SystemInput + 'static;
    /// What the system returns.
    type Out: 'static;

    /// The system, ready to run on demand.
    #[doc(hidden)]
    fn into_one_shot(self) -> Box<dyn OneShotSystem<Self::In, Self::Out>>;
}

/// A registered system and its name (kept apart, for the error of a
/// nested run while the system is out running).
struct Entry {
    name: String,
    /// A `Box<dyn OneShotSystem<I, O>>` for the id's `I` and `O`; `None`
    /// while it runs.
    system: Option<Box<dyn Any + Send>>,
}

/// The world's one-shot systems, by id. Kept as a resource (the `Mutex`
/// makes the boxes `Sync`; it is only ever reached through `&mut World`,
/// so it never blocks).
#[derive(Default)]
struct OneShotSystems(Mutex<HashMap<u64, Entry>>);

impl OneShotSystems {
    fn entries(&mut self) -> &mut HashMap<u64, Entry> {
        self.0
            .get_mut()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl World {
    /// Registers `system` to run when asked ([`run_system`](Self::run_system),
    /// [`run_system_with`](Self::run_system_with)) rather than every frame:
    /// a function of params (taking an [`In`], [`InRef`] or [`InMut`] first
    /// if it wants input, and returning anything), a pipe of those, a
    /// `&mut World` closure, or a [`System`](crate::system::System). Its
    /// `Local`s and change-detection horizon persist between runs.
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
    pub fn register_system<M, S: IntoOneShotSystem<M>>(
        &mut self,
        system: S,
    ) -> SystemId<S::In, S::Out> {
        let id = SystemId::fresh();
        self.insert_one_shot(id, system.into_one_shot());
        id
    }

    /// Keeps `system` under `id`, which nothing holds yet.
    fn insert_one_shot<I: SystemInput + 'static, O: 'static>(
        &mut self,
        id: SystemId<I, O>,
        system: Box<dyn OneShotSystem<I, O>>,
    ) {
        self.init_resource::<OneShotSystems>();
        let entry = Entry {
            name: system.name().to_owned(),
            system: Some(Box::new(system)),
        };
        self.one_shots().insert(id.id, entry);
    }

    /// Runs the system registered as `id` once, with the world to itself,
    /// applies its commands, and returns what the system returned (a system
    /// returning `Result` gives its `Result` back, inside this one).
    ///
    /// # Errors
    /// [`Error::UnknownSystemId`] for an id this world does not hold (never
    /// given, unregistered, another world's, or registered by a command not
    /// applied yet); [`Error::SystemAlreadyRunning`] when the system is
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
    pub fn run_system<O: 'static>(&mut self, id: SystemId<(), O>) -> Result<O, Error> {
        self.run_system_with(id, ())
    }

    /// Runs the system registered as `id` once with `input` (a value for an
    /// [`In<T>`] system, a borrow for [`InRef<T>`] and [`InMut<T>`]), as
    /// [`run_system`](Self::run_system) does, and returns its output.
    ///
    /// # Errors
    /// As [`run_system`](Self::run_system).
    ///
    /// # Panics
    /// As [`run_system`](Self::run_system).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health(u32);
    ///
    /// fn heal(In(amount): In<u32>, mut q: Query<&mut Health>) -> u32 {
    ///     q.iter_mut().map(|mut h| { h.0 += amount; h.0 }).sum()
    /// }
    ///
    /// let mut world = World::new();
    /// world.spawn_batch([Health(1), Health(2)]);
    /// let heal = world.register_system(heal);
    /// assert_eq!(world.run_system_with(heal, 10)?, 23);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn run_system_with<I: SystemInput + 'static, O: 'static>(
        &mut self,
        id: SystemId<I, O>,
        input: SystemIn<'_, I>,
    ) -> Result<O, Error> {
        let entry = self
            .one_shots_if_any()
            .and_then(|entries| entries.get_mut(&id.id))
            .ok_or(id.unknown())?;
        let Some(mut system) = entry.system.take() else {
            return Err(Error::SystemAlreadyRunning {
                system: entry.name.clone(),
            });
        };
        let typed = system
            .downcast_mut::<Box<dyn OneShotSystem<I, O>>>()
            .expect("a system id's types are those of the system it was made for");
        let result = panic::catch_unwind(AssertUnwindSafe(|| typed.run(input, self)));
        // Back in its place, unless it unregistered itself meanwhile.
        if let Some(entry) = self
            .one_shots_if_any()
            .and_then(|entries| entries.get_mut(&id.id))
        {
            entry.system = Some(system);
        }
        result.unwrap_or_else(|payload| panic::resume_unwind(payload))
    }

    /// Makes `system` a one-shot system, runs it once, and drops it with its
    /// state: for a system a game runs once, or seldom enough that keeping
    /// it registered is not worth an id.
    ///
    /// # Errors
    /// As [`run_system`](Self::run_system), but for the id errors.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Enemy;
    ///
    /// let mut world = World::new();
    /// world.spawn_batch([Enemy, Enemy, Enemy]);
    /// assert_eq!(world.run_system_once(|q: Query<&Enemy>| q.iter().count())?, 3);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn run_system_once<M, S: IntoOneShotSystem<M, In = ()>>(
        &mut self,
        system: S,
    ) -> Result<S::Out, Error> {
        self.run_system_once_with(system, ())
    }

    /// [`run_system_once`](Self::run_system_once) for a system that takes
    /// input: runs it once with `input` and drops it.
    ///
    /// # Errors
    /// As [`run_system`](Self::run_system), but for the id errors.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut world = World::new();
    /// let sum = world.run_system_once_with(|InRef(xs): InRef<[i32]>| xs.iter().sum::<i32>(), &[1, 2, 3][..])?;
    /// assert_eq!(sum, 6);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn run_system_once_with<M, S: IntoOneShotSystem<M>>(
        &mut self,
        system: S,
        input: SystemIn<'_, S::In>,
    ) -> Result<S::Out, Error> {
        system.into_one_shot().run(input, self)
    }

    /// Forgets the system registered as `id`, dropping it and its state.
    ///
    /// # Errors
    /// [`Error::UnknownSystemId`] for an id this world does not hold (never
    /// given, another world's, or unregistered already).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut world = World::new();
    /// let id = world.register_system(|| {});
    /// world.unregister_system(id)?;
    /// assert_eq!(
    ///     world.run_system(id).unwrap_err(),
    ///     Error::UnknownSystemId { id: id.index() }
    /// );
    /// # Ok::<(), Error>(())
    /// ```
    pub fn unregister_system<I, O>(&mut self, id: SystemId<I, O>) -> Result<(), Error> {
        self.one_shots_if_any()
            .and_then(|entries| entries.remove(&id.id))
            .map(drop)
            .ok_or(id.unknown())
    }

    /// Runs `id` for a command: a system's `Err` becomes
    /// [`Error::SystemFailed`], and a skip is no error.
    fn run_reporting<I: SystemInput + 'static, O: SystemOutput>(
        &mut self,
        id: SystemId<I, O>,
        input: SystemIn<'_, I>,
    ) -> Result<(), Error> {
        let output = match self.run_system_with(id, input) {
            Err(Error::SkipSystem { .. }) => return Ok(()),
            ran => ran?,
        };
        let Some(error) = output.into_failure() else {
            return Ok(());
        };
        let name = self
            .one_shots_if_any()
            .and_then(|entries| entries.get(&id.id))
            .map_or_else(|| id.to_string(), |entry| entry.name.clone());
        Err(Error::SystemFailed(SystemError::new(name, None, error)))
    }

    fn one_shots(&mut self) -> &mut HashMap<u64, Entry> {
        self.data
            .resources
            .get_mut::<OneShotSystems>()
            .expect("initialised by the caller")
            .entries()
    }

    fn one_shots_if_any(&mut self) -> Option<&mut HashMap<u64, Entry>> {
        Some(self.data.resources.get_mut::<OneShotSystems>()?.entries())
    }
}

impl Commands<'_> {
    /// Records running the system registered as `id` once, where the
    /// commands apply. An error of the run, or the `Err` a fallible system
    /// returned ([`Error::SystemFailed`]), is reported as a failed command;
    /// a system whose [`Single`](crate::system::Single) matched nothing is
    /// skipped quietly, as in a schedule.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Debris;
    ///
    /// let mut world = World::new();
    /// let explode = world.register_system(|mut commands: Commands| {
    ///     commands.spawn(Debris);
    /// });
    /// let misfire = world.register_system(|| Err::<(), _>("no fuse"));
    /// world.commands().run_system(explode);
    /// world.commands().run_system(misfire);
    /// let failed = world.flush();
    /// assert_eq!(world.query::<&Debris>().iter().count(), 1);
    /// assert_eq!(failed[0].to_string(), "system `main::{{closure}}` failed: no fuse");
    /// ```
    pub fn run_system<O: SystemOutput>(&mut self, id: SystemId<(), O>) {
        self.add_fallible(move |world| world.run_reporting(id, ()));
    }

    /// Records running the system registered as `id` once with `input`,
    /// where the commands apply, reporting its errors as
    /// [`run_system`](Self::run_system) does.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Default)]
    /// struct Score(u32);
    ///
    /// let mut world = World::new();
    /// world.init_resource::<Score>();
    /// let add = world.register_system(|In(points): In<u32>, mut score: ResMut<Score>| {
    ///     score.0 += points;
    /// });
    /// world.commands().run_system_with(add, 5);
    /// world.flush();
    /// assert_eq!(world.resource::<Score>()?.0, 5);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn run_system_with<I, O>(&mut self, id: SystemId<I, O>, input: SystemIn<'static, I>)
    where
        I: SystemInput + 'static,
        O: SystemOutput,
        SystemIn<'static, I>: Send,
    {
        self.add_fallible(move |world| world.run_reporting(id, input));
    }

    /// Registers `system` where the commands apply, and returns its id now,
    /// so that the same commands (or later ones) can run it. Running the
    /// id before the commands apply finds no system.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Debris;
    ///
    /// let mut world = World::new();
    /// let mut commands = world.commands();
    /// let explode = commands.register_system(|mut commands: Commands| {
    ///     commands.spawn(Debris);
    /// });
    /// commands.run_system(explode);
    /// commands.run_system(explode);
    /// world.flush();
    /// assert_eq!(world.query::<&Debris>().iter().count(), 2);
    /// ```
    pub fn register_system<M, S: IntoOneShotSystem<M>>(
        &mut self,
        system: S,
    ) -> SystemId<S::In, S::Out> {
        let id = SystemId::fresh();
        let system = system.into_one_shot();
        self.add_fallible(move |world| {
            world.insert_one_shot(id, system);
            Ok(())
        });
        id
    }

    /// Records forgetting the system registered as `id`, where the commands
    /// apply; an id the world does not hold then is reported as a failed
    /// command.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut world = World::new();
    /// let id = world.register_system(|| {});
    /// world.commands().unregister_system(id);
    /// assert!(world.flush().is_empty());
    /// assert!(world.run_system(id).is_err());
    /// ```
    pub fn unregister_system<I: 'static, O: 'static>(&mut self, id: SystemId<I, O>) {
        self.add_fallible(move |world| world.unregister_system(id));
    }
}
