//! The game loop: a [`Schedule`] of systems in [`Stage`]s, run once per frame.
//!
//! Inside a stage, systems whose access does not conflict run at the same
//! time on rayon's thread pool; conflicting ones run in the order they were
//! added (or as `.after` / `.before` say). Each system records its commands
//! into its own buffer, and the buffers apply at the end of the stage in
//! system order. A parallel run is therefore observably identical to a
//! single-threaded one: same component values, same entity ids, same
//! command order, on every machine, which a lockstep game can rely on.

mod build;
mod error_handler;
mod executor;
mod explain;
mod frame;
mod order;
mod stage;
mod stats;
mod transition;

use core::fmt;
use std::borrow::Cow;

use crate::error::Error;
use crate::system::{AnySystem, IntoSystem, LastRun, SetConfig};
use crate::tuning::{DEFAULT_PARALLEL_THRESHOLD, PARALLEL_MIN_RUN, TIMED_EVERY};
use crate::world::{ReservationLane, World};

pub use crate::error::SystemError;
pub use error_handler::ErrorHandler;
pub use explain::{Explanation, Overlap, StageExplanation};
pub use stage::{IntoStage, Stage, StateKey};
pub use stats::SystemStats;
pub use transition::{OnEnter, OnExit};

use order::{Node, SetNode, StagePlan};
use stats::{Calibration, Timing, ticks};

/// A command that failed when its system's buffer applied (its entity died
/// meanwhile), with the system that recorded it.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Health(i32);
///
/// fn reaper(q: Query<(Entity, &Health)>, mut commands: Commands) {
///     for (e, _) in q.iter() {
///         commands.despawn(e);
///         commands.despawn(e); // the second finds it gone
///     }
/// }
///
/// let mut world = World::new();
/// world.spawn(Health(0));
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, reaper)?;
/// schedule.run(&mut world)?; // the frame completes
/// let failed = schedule.command_errors();
/// assert_eq!(failed.len(), 1);
/// assert_eq!(failed[0].to_string(), "a command of `reaper` failed: entity 0v1 was despawned");
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct CommandError {
    /// The system whose command failed.
    pub system: String,
    /// Why it failed.
    pub error: Error,
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "a command of `{}` failed: {}", self.system, self.error)
    }
}

impl std::error::Error for CommandError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// One system in its stage, with what the executor keeps about it.
///
/// Invariant: `system`'s access has no clash between its params
/// ([`Schedule::add_system`] refuses such a system), which running it needs.
pub(crate) struct SystemSlot {
    pub(crate) name: Cow<'static, str>,
    after: Vec<Cow<'static, str>>,
    before: Vec<Cow<'static, str>>,
    /// The names of `after` followed without a sync point.
    unsynced_after: Vec<Cow<'static, str>>,
    sets: Vec<Cow<'static, str>>,
    pub(crate) system: Box<dyn AnySystem>,
    pub(crate) timing: Timing,
    /// This run's reservation numbers for spawns.
    pub(crate) lane: ReservationLane,
    /// Whether the system reserves ids while it runs (it has `Commands`):
    /// its access says so once, read here every frame without a virtual call.
    pub(crate) reserves_ids: bool,
    /// Whether the system's params may defer anything (`Commands`): a sync
    /// point applies, and a panic discards, only the buffers of those that do.
    pub(crate) defers: bool,
    /// The change tick of the system's last run.
    pub(crate) last_run: LastRun,
}

/// One stage and its systems, in registration order.
struct StageSlot {
    stage: Stage,
    /// How explanations name the stage (a state stage with its value).
    label: String,
    systems: Vec<SystemSlot>,
    /// The configured sets, by name, in configuration order.
    sets: Vec<(Cow<'static, str>, SetConfig)>,
    /// The plan for the systems as they are; `None` after any change.
    plan: Option<StagePlan>,
}

impl StageSlot {
    fn new(stage: Stage, label: String) -> Self {
        Self {
            stage,
            label,
            systems: Vec::new(),
            sets: Vec::new(),
            plan: None,
        }
    }

    fn plan(&self) -> Result<StagePlan, Error> {
        let nodes: Vec<Node<'_>> = self
            .systems
            .iter()
            .map(|slot| Node {
                name: &slot.name,
                after: &slot.after,
                before: &slot.before,
                unsynced_after: &slot.unsynced_after,
                sets: &slot.sets,
                access: slot.system.access(),
                defers: slot.defers,
            })
            .collect();
        let sets: Vec<SetNode<'_>> = self
            .sets
            .iter()
            .map(|(name, config)| SetNode {
                name,
                after: &config.after,
                before: &config.before,
            })
            .collect();
        let mut plan = order::plan(&self.label, &nodes, &sets)?;
        plan.defers_any = self.systems.iter().any(|slot| slot.defers);
        plan.preparing = (0..self.systems.len())
            .filter(|&i| self.systems[i].system.prepares())
            .collect();
        plan.reserving = (plan.batches.iter())
            .map(|batch| batch.iter().any(|&i| self.systems[i].reserves_ids))
            .collect();
        Ok(plan)
    }

    /// Whether a system or set of this stage has the name `name`.
    fn knows(&self, name: &str) -> bool {
        self.sets.iter().any(|(set, _)| set == name)
            || self
                .systems
                .iter()
                .any(|s| s.name == name || s.sets.iter().any(|set| set == name))
    }
}

/// Systems in stages, run once per [`run`](Schedule::run): a frame.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Position { x: f32 }
/// #[derive(Component)]
/// struct Velocity { x: f32 }
/// struct Time { dt: f32 }
///
/// fn movement(mut q: Query<(&mut Position, &Velocity)>, time: Res<Time>) {
///     for (p, v) in q.iter_mut() {
///         p.x += v.x * time.dt;
///     }
/// }
///
/// let mut world = World::new();
/// world.insert_resource(Time { dt: 0.5 });
/// let e = world.spawn((Position { x: 0.0 }, Velocity { x: 2.0 }));
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, movement)?;
/// schedule.run(&mut world)?;
/// assert_eq!(world.get::<Position>(e)?.x, 1.0);
/// # Ok::<(), Error>(())
/// ```
pub struct Schedule {
    /// The stages run in list order (every stage but the state stages).
    stages: Vec<StageSlot>,
    /// `OnEnter` / `OnExit` stages, made when a system is first added to one.
    state_stages: Vec<StageSlot>,
    /// Whether `Stage::Startup` has run.
    started: bool,
    parallel: bool,
    parallel_threshold: usize,
    /// Whether each frame starts with [`World::maintain_layout`].
    auto_layout: bool,
    command_errors: Vec<CommandError>,
    /// The errors systems returned in the last frame, in the order gathered.
    system_errors: Vec<SystemError>,
    /// Called once per failing system per frame, after the frame.
    error_handler: fn(&SystemError),
    frames: u64,
    parallel_batches: u64,
    /// Turns the systems' tick counts into time.
    clock: Calibration,
}

impl Default for Schedule {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut list = f.debug_map();
        for stage in self.stages.iter().chain(&self.state_stages) {
            let names: Vec<&str> = stage.systems.iter().map(|s| &*s.name).collect();
            list.entry(&stage.label, &names);
        }
        list.finish()
    }
}

impl Schedule {
    /// An empty schedule with the seven built-in stages, running
    /// non-conflicting systems at once where that pays.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let schedule = Schedule::new();
    /// assert_eq!(schedule.stages().count(), 7);
    /// ```
    pub fn new() -> Self {
        Self {
            stages: Stage::BUILT_IN
                .into_iter()
                .map(|stage| StageSlot::new(stage, stage.to_string()))
                .collect(),
            state_stages: Vec::new(),
            started: false,
            parallel: cfg!(feature = "parallel"),
            parallel_threshold: DEFAULT_PARALLEL_THRESHOLD,
            auto_layout: true,
            command_errors: Vec::new(),
            system_errors: Vec::new(),
            error_handler: ErrorHandler::warn,
            frames: 0,
            parallel_batches: 0,
            clock: Calibration::default(),
        }
    }

    /// An empty schedule that runs every system on the calling thread, one
    /// by one, with the same batches and order as [`new`](Self::new)'s: the
    /// same world comes out either way.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let schedule = Schedule::single_threaded();
    /// assert!(!schedule.is_parallel());
    /// ```
    pub fn single_threaded() -> Self {
        Self {
            parallel: false,
            ..Self::new()
        }
    }

    /// Whether systems may run at the same time.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// assert_eq!(Schedule::new().is_parallel(), cfg!(feature = "parallel"));
    /// ```
    pub fn is_parallel(&self) -> bool {
        self.parallel
    }

    /// Sets how many entities of estimated work (the entities its queries
    /// drive, summed) a system that has not run yet needs before it is
    /// handed to another thread; once it has run, its last run time decides
    /// ([`PARALLEL_MIN_RUN`]). A batch runs in parallel only when two or more
    /// of its systems are heavy; lighter systems run on the calling thread.
    /// 0 hands every system of a batch of two or more to the pool.
    /// Results never depend on it: only the threads used do.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut schedule = Schedule::new();
    /// schedule.set_parallel_threshold(0);
    /// ```
    pub fn set_parallel_threshold(&mut self, entities: usize) {
        self.parallel_threshold = entities;
    }

    /// Whether each frame starts with
    /// [`world.maintain_layout()`](World::maintain_layout), which re-sorts
    /// the storages by signature once enough entities have changed since the
    /// last pass, so the systems' queries keep reading long zipped runs.
    /// On by default. Turn it off for a game that depends on the order in
    /// which a query visits entities, or that sorts at moments of its own
    /// choosing with [`World::optimize_layout`].
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Velocity(f32);
    ///
    /// let mut world = World::new();
    /// for i in 0..2_000 {
    ///     let e = world.spawn(Position(0.0));
    ///     if i % 2 == 0 {
    ///         world.insert(e, Velocity(1.0))?;
    ///     }
    /// }
    /// let mut schedule = Schedule::new();
    /// schedule.set_auto_layout(false);
    /// schedule.run(&mut world)?;
    /// assert!(!world.layout_stats().is_optimized(), "left as it was");
    /// schedule.set_auto_layout(true);
    /// schedule.run(&mut world)?;
    /// assert!(world.layout_stats().is_optimized());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn set_auto_layout(&mut self, on: bool) -> &mut Self {
        self.auto_layout = on;
        self
    }

    /// Adds `system` to `stage`.
    ///
    /// # Errors
    /// [`Error::ConflictingAccess`] if two of its params reach the same
    /// component or resource and one writes it, [`Error::DuplicateSystem`] if
    /// the schedule has a system of that name, [`Error::UnknownStage`] if it
    /// has no such stage.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// fn heal(_: Query<&mut Health>, _: Query<&Health>) {}
    ///
    /// let mut schedule = Schedule::new();
    /// let err = schedule.add_system(Stage::Update, heal).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "system `heal` cannot take both `Query<&mut Health>` and `Query<&Health>`: both \
    ///      reach `Health` and at least one writes it. Merge them into one param, or make \
    ///      their filters disjoint (`With<T>` in one, `Without<T>` in the other)"
    /// );
    /// ```
    pub fn add_system<M>(
        &mut self,
        stage: impl IntoStage,
        system: impl IntoSystem<M>,
    ) -> Result<(), Error> {
        let label = stage.label();
        self.add_configs(stage.into_stage(), label, vec![system.into_config()])
    }

    fn all_stages(&self) -> impl Iterator<Item = &StageSlot> {
        self.stages.iter().chain(&self.state_stages)
    }

    fn all_stages_mut(&mut self) -> impl Iterator<Item = &mut StageSlot> {
        self.stages.iter_mut().chain(&mut self.state_stages)
    }

    /// The slot of `stage`: a listed one, or a state stage, made on first use.
    fn stage_slot(&mut self, stage: Stage, label: String) -> Result<&mut StageSlot, Error> {
        if stage.is_listed() {
            return self.stage_mut(&stage);
        }
        let at = match self.state_stages.iter().position(|s| s.stage == stage) {
            Some(at) => at,
            None => {
                self.state_stages.push(StageSlot::new(stage, label));
                self.state_stages.len() - 1
            }
        };
        Ok(&mut self.state_stages[at])
    }

    /// Takes the system `name` out of the schedule; its state (`Local`s,
    /// unapplied commands) is dropped. From inside a frame, use
    /// [`Commands::remove_system`](crate::Commands::remove_system).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// fn tick() {}
    ///
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::Update, tick)?;
    /// schedule.remove_system("tick")?;
    /// assert_eq!(
    ///     schedule.remove_system("tick").unwrap_err().to_string(),
    ///     "the schedule has no system named `tick`"
    /// );
    /// # Ok::<(), Error>(())
    /// ```
    pub fn remove_system(&mut self, name: &str) -> Result<(), Error> {
        for stage in self.all_stages_mut() {
            if let Some(at) = stage.systems.iter().position(|s| s.name == name) {
                stage.systems.remove(at);
                stage.plan = None;
                return Ok(());
            }
        }
        Err(Error::UnknownSystem {
            system: name.to_owned(),
        })
    }

    /// Whether the schedule has a system named `name`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// fn tick() {}
    ///
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::Update, tick)?;
    /// assert!(schedule.contains_system("tick") && !schedule.contains_system("tock"));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn contains_system(&self, name: &str) -> bool {
        self.all_stages()
            .any(|stage| stage.systems.iter().any(|s| s.name == name))
    }

    /// Adds the stage `name` to run right after `existing`.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut schedule = Schedule::new();
    /// schedule.add_stage_after(Stage::Update, "physics")?;
    /// schedule.add_stage_before("physics", "broad_phase")?;
    /// let names: Vec<String> = schedule.stages().map(|s| s.to_string()).collect();
    /// assert_eq!(
    ///     names,
    ///     ["Startup", "First", "PreUpdate", "FixedUpdate", "Update", "broad_phase", "physics",
    ///      "PostUpdate", "Last"]
    /// );
    /// fn collide() {}
    /// schedule.add_system("physics", collide)?;
    /// # Ok::<(), Error>(())
    /// ```
    pub fn add_stage_after(
        &mut self,
        existing: impl Into<Stage>,
        name: impl Into<Stage>,
    ) -> Result<(), Error> {
        self.insert_stage(existing.into(), name.into(), 1)
    }

    /// Adds the stage `name` to run right before `existing`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut schedule = Schedule::new();
    /// schedule.add_stage_before(Stage::First, "input")?;
    /// assert_eq!(schedule.stages().nth(1), Some(&Stage::custom("input")), "after Startup");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn add_stage_before(
        &mut self,
        existing: impl Into<Stage>,
        name: impl Into<Stage>,
    ) -> Result<(), Error> {
        self.insert_stage(existing.into(), name.into(), 0)
    }

    fn insert_stage(&mut self, existing: Stage, stage: Stage, offset: usize) -> Result<(), Error> {
        if self.stages.iter().any(|s| s.stage == stage) || !stage.is_listed() {
            return Err(Error::DuplicateStage {
                stage: stage.name().to_owned(),
            });
        }
        let at = self.stage_index(&existing)?;
        self.stages
            .insert(at + offset, StageSlot::new(stage, stage.to_string()));
        Ok(())
    }

    /// The stages, in run order.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let schedule = Schedule::new();
    /// assert_eq!(schedule.stages().last(), Some(&Stage::Last));
    /// ```
    pub fn stages(&self) -> impl Iterator<Item = &Stage> {
        self.stages.iter().map(|slot| &slot.stage)
    }

    fn stage_index(&self, stage: &Stage) -> Result<usize, Error> {
        self.stages
            .iter()
            .position(|slot| slot.stage == *stage)
            .ok_or_else(|| Error::UnknownStage {
                stage: stage.name().to_owned(),
            })
    }

    fn stage_mut(&mut self, stage: &Stage) -> Result<&mut StageSlot, Error> {
        let at = self.stage_index(stage)?;
        Ok(&mut self.stages[at])
    }

    /// Runs one frame: every stage in order, each ending with its systems'
    /// commands applied; then the systems asked to be removed during the
    /// frame are removed, and the frame ends for the world's events
    /// ([`World::update_events`]).
    ///
    /// # Errors
    /// A cycle in a stage's orderings, or an ordering naming no system of
    /// its stage: nothing runs. A system whose params cannot be fetched (a
    /// missing resource): that system does not run, the rest of the frame
    /// does, and the first such error is returned, naming the system.
    /// Failed commands are not errors of `run`: see
    /// [`command_errors`](Self::command_errors).
    ///
    /// The frame starts with
    /// [`world.maintain_layout()`](World::maintain_layout) unless
    /// [`set_auto_layout(false)`](Self::set_auto_layout) turned it off: the
    /// order in which queries visit entities may change between frames.
    ///
    /// # Panics
    /// A panic in a system reaches the caller after the other systems of its
    /// batch finish and the world is left consistent: the commands its stage
    /// recorded since the last exclusive system are dropped unapplied (each
    /// value dropped once), the entities they reserved are despawned, and no
    /// later stage runs that frame. A panic in a command while the stage's
    /// commands apply reaches the caller once the buffers not applied yet
    /// are dropped, so none of them applies to a later frame. The schedule
    /// runs again next frame.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Default)]
    /// struct Frames(u32);
    /// fn count(mut f: ResMut<Frames>) { f.0 += 1; }
    ///
    /// let mut world = World::new();
    /// world.insert_resource(Frames::default());
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::Update, count)?;
    /// for _ in 0..3 {
    ///     schedule.run(&mut world)?;
    /// }
    /// assert_eq!(world.resource::<Frames>()?.0, 3);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn run(&mut self, world: &mut World) -> Result<(), Error> {
        for stage in self.stages.iter_mut().chain(&mut self.state_stages) {
            if stage.plan.is_none() {
                stage.plan = Some(stage.plan()?);
            }
        }
        self.command_errors.clear();
        if self.auto_layout {
            world.maintain_layout();
        }
        // The time is read before the ticks here and after them at the end, so
        // the frame's time spans its ticks: the calibration may understate
        // ticks per nanosecond (when the thread is descheduled between two
        // readings), never overstate them, and a system that ran for
        // `PARALLEL_MIN_RUN` is never taken for one that ran for less.
        let (started, started_ticks) = (std::time::Instant::now(), ticks());
        let fixed_steps = frame::advance_time(world, self.has_fixed_systems(), started);
        // Event params make their stores and register their readers.
        for stage in self.stages.iter_mut().chain(&mut self.state_stages) {
            let plan = stage.plan.as_ref().expect("planned above");
            for &i in &plan.preparing {
                stage.systems[i].system.prepare(world);
            }
        }
        // Ids reserved through `world.commands()` become alive now, so every
        // reservation during the frame belongs to a system.
        world.settle_reserved();
        let mut frame = frame::Frame {
            options: executor::Options {
                parallel: self.parallel,
                threshold: self.parallel_threshold,
                min_run_ticks: self.clock.ticks_for(PARALLEL_MIN_RUN),
                timed: self.frames.is_multiple_of(TIMED_EVERY),
            },
            first_error: None,
            failures: Vec::new(),
            removals: Vec::new(),
            parallel_batches: 0,
        };
        let first_run = !self.started;
        self.started = true;
        for at in 0..self.stages.len() {
            let stage = self.stages[at].stage;
            match stage {
                Stage::Startup if !first_run => {}
                Stage::FixedUpdate => {
                    let slot = &mut self.stages[at];
                    frame.run_fixed_steps(slot, world, fixed_steps, &mut self.command_errors);
                }
                _ => frame.run_stage(&mut self.stages[at], world, &mut self.command_errors),
            }
            if stage == Stage::PreUpdate {
                frame.switch_states(&mut self.state_stages, world, &mut self.command_errors);
            }
        }
        self.parallel_batches += frame.parallel_batches;
        let first_error = frame.first_error;
        self.system_errors = (frame.failures.into_iter())
            .map(|(system, error)| SystemError::new(system, Some(self.frames), error))
            .collect();
        let mut removals = frame.removals;
        for name in world.take_system_removals() {
            removals.push((String::from("World::commands"), name));
        }
        for (requester, name) in removals {
            if let Err(error) = self.remove_system(&name) {
                self.command_errors.push(CommandError {
                    system: requester,
                    error,
                });
            }
        }
        // What observers met during the frame is reported with the commands.
        for error in world.take_observer_errors() {
            self.command_errors.push(CommandError {
                system: String::from("observers"),
                error,
            });
        }
        // The frame ends for the world's events; removed readers no longer
        // hold any back.
        world.update_events();
        self.frames += 1;
        let took_ticks = ticks().saturating_sub(started_ticks);
        self.clock.add(started.elapsed(), took_ticks);
        self.handle_system_errors();
        first_error.map_or(Ok(()), Err)
    }

    /// Hands the frame's first error of each failing system to the handler.
    fn handle_system_errors(&self) {
        for (at, error) in self.system_errors.iter().enumerate() {
            let first = !self.system_errors[..at]
                .iter()
                .any(|earlier| earlier.system() == error.system());
            if first {
                (self.error_handler)(error);
            }
        }
    }

    /// Sets what the schedule does with an error a system returns:
    /// [`ErrorHandler::warn`] (the default: written to stderr),
    /// [`ErrorHandler::panic`], [`ErrorHandler::ignore`], or a function of
    /// yours. It is called after each frame, once per system that failed in
    /// it, with that system's first error; the frame itself runs to its end.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut schedule = Schedule::new();
    /// schedule.set_error_handler(ErrorHandler::ignore);
    /// schedule.set_error_handler(|error| eprintln!("[game] {error}"));
    /// ```
    pub fn set_error_handler(&mut self, handler: fn(&SystemError)) {
        self.error_handler = handler;
    }

    /// The errors systems returned in the last frame, each with the
    /// system's name and the frame, in the order the stages gathered them
    /// (every one, where the handler saw each system's first).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// struct Ammo(u32);
    ///
    /// fn fire(mut ammo: ResMut<Ammo>) -> Result<(), String> {
    ///     ammo.0 = ammo.0.checked_sub(1).ok_or("out of ammunition")?;
    ///     Ok(())
    /// }
    ///
    /// let mut world = World::new();
    /// world.insert_resource(Ammo(1));
    /// let mut schedule = Schedule::new();
    /// schedule.set_error_handler(ErrorHandler::ignore);
    /// schedule.add_system(Stage::Update, fire)?;
    /// schedule.run(&mut world)?;
    /// assert!(schedule.system_errors().is_empty(), "one round left");
    /// schedule.run(&mut world)?;
    /// let errors: Vec<String> = schedule.system_errors().iter().map(|e| e.to_string()).collect();
    /// assert_eq!(errors, ["system `fire` failed in frame 1: out of ammunition"]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn system_errors(&self) -> &[SystemError] {
        &self.system_errors
    }

    /// Whether `Stage::FixedUpdate` has systems.
    fn has_fixed_systems(&self) -> bool {
        self.stages
            .iter()
            .any(|s| s.stage == Stage::FixedUpdate && !s.systems.is_empty())
    }

    /// The commands of the last frame that failed, with the systems that
    /// recorded them, in the order they applied.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let mut schedule = Schedule::new();
    /// schedule.run(&mut world)?;
    /// assert!(schedule.command_errors().is_empty());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn command_errors(&self) -> &[CommandError] {
        &self.command_errors
    }

    /// Per system, in stage and run order: name, stage, last and mean run
    /// time, and run count.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// fn a() {}
    /// fn b() {}
    ///
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::Last, a)?;
    /// schedule.add_system(Stage::First, b)?;
    /// let names: Vec<String> = schedule.stats().into_iter().map(|s| s.name).collect();
    /// assert_eq!(names, ["b", "a"], "in stage order");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn stats(&self) -> Vec<SystemStats> {
        let mut stats = Vec::new();
        for stage in self.all_stages() {
            let order: Vec<usize> = match &stage.plan {
                Some(plan) => plan.order.clone(),
                None => (0..stage.systems.len()).collect(),
            };
            for i in order {
                let slot = &stage.systems[i];
                stats.push(SystemStats::new(
                    &slot.name,
                    &stage.stage,
                    &stage.label,
                    slot.timing,
                    &self.clock,
                ));
            }
        }
        stats
    }

    /// How many frames have run.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let mut schedule = Schedule::new();
    /// schedule.run(&mut world)?;
    /// assert_eq!(schedule.frames(), 1);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// How many batches have run with systems on more than one thread, over
    /// every frame: how a test on any machine checks that a schedule
    /// really spreads its work.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let schedule = Schedule::new();
    /// assert_eq!(schedule.parallel_batches(), 0);
    /// ```
    pub fn parallel_batches(&self) -> u64 {
        self.parallel_batches
    }

    /// Per stage with systems: the order, the batches of systems that may
    /// run at once, and why each pair that may not overlap may not.
    ///
    /// # Errors
    /// As [`run`](Self::run) for orderings: a cycle, or a name no system has.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// fn a() {}
    ///
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::Update, a.after("missing"))?;
    /// assert!(matches!(schedule.explain(), Err(Error::UnknownOrdering { .. })));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn explain(&self) -> Result<Explanation, Error> {
        let mut stages = Vec::new();
        for stage in self.all_stages() {
            if stage.systems.is_empty() {
                continue;
            }
            let plan = stage.plan()?;
            let name = |i: usize| stage.systems[i].name.to_string();
            let conditions = plan
                .order
                .iter()
                .filter_map(|&i| {
                    let conditions = stage.systems[i].system.conditions();
                    (!conditions.is_empty()).then(|| (name(i), conditions))
                })
                .collect();
            stages.push(StageExplanation {
                stage: stage.stage,
                label: stage.label.clone(),
                conditions,
                order: plan.order.iter().map(|&i| name(i)).collect(),
                batches: plan
                    .batches
                    .iter()
                    .map(|batch| batch.iter().map(|&i| name(i)).collect())
                    .collect(),
                sync_points: (0..plan.batches.len())
                    .filter(|&b| plan.sync_before[b])
                    .collect(),
                conflicts: plan
                    .conflicts
                    .into_iter()
                    .map(|(first, second, reason)| Overlap {
                        first: name(first),
                        second: name(second),
                        reason,
                    })
                    .collect(),
            });
        }
        Ok(Explanation { stages })
    }
}
