//! Deferred changes: [`Commands`] records spawns, inserts, removals and
//! despawns into a [`CommandQueue`] while the world is borrowed (by a query,
//! or by systems running at once), and the queue applies them later, in the
//! order they were recorded.
//!
//! The queue lives in the world layer because applying it is a change of
//! structure, which goes through the world's funnel; systems reach it as the
//! `Commands` param.

use core::fmt;
use std::panic::{self, AssertUnwindSafe};

use crate::bundle::Bundle;
use crate::component::Component;
use crate::entity::{Entities, Entity};
use crate::error::Error;
use crate::util::DeferredPanic;

use super::World;
use super::command_bytes::CommandBytes;

/// A buffer of recorded changes, applied to a world in the order they were
/// recorded. Each system's [`Commands`] write to their own queue; the world
/// keeps one more for [`World::commands`].
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Health(i32);
///
/// let mut world = World::new();
/// let e = world.commands().spawn(Health(3));
/// assert!(!world.is_alive(e), "recorded, not applied yet");
/// assert!(world.flush().is_empty(), "no command failed");
/// assert_eq!(world.get::<Health>(e)?.0, 3);
/// # Ok::<(), Error>(())
/// ```
#[derive(Default)]
pub struct CommandQueue {
    /// Every command, a spawn, a despawn or any other call on the world,
    /// written in place in recording order.
    commands: CommandBytes,
    /// Names of systems to take out of the schedule once the frame ends.
    removals: Vec<String>,
}

impl fmt::Debug for CommandQueue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CommandQueue")
            .field("commands", &self.commands.len())
            .field("removals", &self.removals)
            .finish()
    }
}

impl CommandQueue {
    /// Whether no command or removal waits.
    pub(crate) fn is_empty(&self) -> bool {
        self.commands.is_empty() && self.removals.is_empty()
    }

    /// Applies every command to `world` in order, calling `failed` with the
    /// error of each one that could not apply (its entity died meanwhile);
    /// the rest still apply. Ids reserved by [`Commands::spawn`] become alive
    /// first. System removals stay queued for the schedule to take.
    ///
    /// # Panics
    /// Resumes the panic of a command once the commands after it are
    /// dropped unapplied and the entities of the spawns that did not apply
    /// (the panicking one included) are despawned: those were alive with
    /// nothing, or half a bundle, under ids nobody spawned.
    pub(crate) fn apply(&mut self, world: &mut World, mut failed: impl FnMut(Error)) {
        world.settle_reserved();
        // Drained, not taken: the buffer keeps its capacity for the next
        // frame's commands.
        let mut commands = self.commands.drain();
        let mut spawning = None;
        let applied = panic::catch_unwind(AssertUnwindSafe(|| {
            while let Some(command) = commands.next() {
                spawning = command.spawned();
                let result = command.run(world);
                spawning = None;
                if let Err(error) = result {
                    failed(error);
                }
            }
        }));
        if let Err(payload) = applied {
            let mut panics = DeferredPanic::default();
            panics.keep(Err(payload));
            let mut unmade: Vec<Entity> = spawning.into_iter().collect();
            unmade.extend(commands.spawned_rest());
            commands.drop_rest(&mut panics);
            for entity in unmade {
                // Its `OnRemove` observers may panic too; the first panic wins.
                panics.run(|| drop(world.despawn(entity)));
            }
            panics.resume();
        }
    }

    /// Drops every recorded command unapplied, every one even past panicking
    /// `Drop`s of the values they hold; the first such panic resumes.
    pub(crate) fn discard(&mut self) {
        self.removals.clear();
        self.commands.discard();
    }

    /// Drops every recorded command unapplied, as [`discard`](Self::discard)
    /// does, and despawns the entities its spawns reserved: once reserved
    /// ids settle they are alive, and would hold nothing. What an observer
    /// whose call is abandoned (or whose run panicked) recorded goes this way.
    pub(crate) fn abandon(&mut self, world: &mut World) {
        world.settle_reserved();
        let unmade: Vec<Entity> = self.commands.spawned().collect();
        let mut panics = DeferredPanic::default();
        panics.run(|| self.discard());
        for entity in unmade {
            panics.run(|| drop(world.despawn(entity)));
        }
        panics.resume();
    }

    /// The names of the systems to remove, leaving none queued.
    pub(crate) fn take_removals(&mut self) -> Vec<String> {
        core::mem::take(&mut self.removals)
    }

    /// Queues the removal of the systems `names`, after those queued already.
    pub(crate) fn add_removals(&mut self, mut names: Vec<String>) {
        self.removals.append(&mut names);
    }

    /// Moves every command and removal of `other` after this queue's own.
    pub(crate) fn append(&mut self, other: &mut CommandQueue) {
        self.commands.append(&mut other.commands);
        self.removals.append(&mut other.removals);
    }
}

/// Records changes to a world for later: the one way to spawn, insert,
/// remove or despawn from inside a system, or while a query borrows the world.
///
/// A system takes `mut commands: Commands` as a param; the commands apply at
/// the end of its stage, in system order. Outside systems,
/// [`World::commands`] records into the world's own queue, applied by
/// [`World::flush`].
///
/// [`spawn`](Self::spawn) returns the new entity's id at once, so later
/// commands can use it; the entity becomes alive when the commands apply.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Health(i32);
/// #[derive(Component)]
/// struct Burning;
///
/// let mut world = World::new();
/// let a = world.spawn(Health(0));
/// let b = world.spawn(Health(5));
/// let mut commands = world.commands();
/// commands.despawn(a);
/// let c = commands.spawn(Health(9));
/// commands.insert(c, Burning);
/// commands.remove::<Health>(b);
/// assert!(world.flush().is_empty());
/// assert!(!world.is_alive(a));
/// assert!(world.contains::<Burning>(c) && !world.contains::<Health>(b));
/// ```
pub struct Commands<'w> {
    queue: &'w mut CommandQueue,
    entities: &'w Entities,
    /// Where a system's spawns take their reservation numbers; `None` takes
    /// the next number, for commands outside systems.
    lane: Option<&'w ReservationLane>,
}

/// The reservation numbers one system's spawns use during one run.
///
/// Each system of a batch that has `Commands` gets a block of numbers of its
/// own, as long as its spawns in its last run (`block..block + cap`), and
/// past every block the batch's overflow rows, striped across those systems:
/// the system at `index` of `stride` takes `overflow + index + stride * k`
/// for its `k`-th spawn past its block. The numbers a system gets therefore
/// depend on the schedule and on earlier frames alone, never on which thread
/// reserved first, so a parallel run spawns the same ids as a
/// single-threaded one; and a system that spawns as many as last time uses
/// its block exactly, leaving no number unused. A system without `Commands`
/// gets the default lane, which numbers nothing.
#[derive(Debug, Default)]
pub(crate) struct ReservationLane {
    block: u32,
    cap: u32,
    overflow: u32,
    index: u32,
    stride: u32,
    used: core::sync::atomic::AtomicU32,
}

/// Where the lanes of one batch take their numbers from.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LaneLayout {
    /// The first number of the batch.
    pub(crate) base: u32,
    /// The sum of the lanes' blocks: the overflow rows start past them.
    pub(crate) blocks: u32,
    /// How many lanes share the overflow rows.
    pub(crate) stride: u32,
}

impl ReservationLane {
    /// The lane at `index` of `layout`, whose block starts `offset` past
    /// the batch's first number and holds `cap` numbers; its overflow rows
    /// follow `layout`'s blocks and stride (see
    /// [`set_overflow`](Self::set_overflow) when those are known later).
    pub(crate) fn new(layout: LaneLayout, index: u32, offset: u32, cap: u32) -> Self {
        Self {
            block: layout.base + offset,
            cap,
            overflow: layout.base + layout.blocks,
            index,
            stride: layout.stride,
            used: core::sync::atomic::AtomicU32::new(0),
        }
    }

    /// Moves the lane's overflow rows past every block of `layout`, once
    /// all the batch's blocks are known.
    pub(crate) fn set_overflow(&mut self, layout: LaneLayout) {
        self.overflow = layout.base + layout.blocks;
        self.stride = layout.stride;
    }

    /// How many numbers of the lane the run used.
    pub(crate) fn used(&mut self) -> u32 {
        *self.used.get_mut()
    }

    /// How many numbers the lane's block holds.
    pub(crate) fn cap(&self) -> u32 {
        self.cap
    }

    /// How many overflow rows the run used (spawns past the block).
    pub(crate) fn overflow_rows(&mut self) -> u32 {
        self.used().saturating_sub(self.cap)
    }

    /// The reservation number of the lane's `n`-th spawn.
    pub(crate) fn number(&self, n: u32) -> u32 {
        assert!(
            self.stride > 0,
            "a system without a `Commands` param reserved an entity id: its batch numbered \
             no spawns for it"
        );
        if n < self.cap {
            return self.block + n;
        }
        (n - self.cap)
            .checked_mul(self.stride)
            .and_then(|offset| offset.checked_add(self.overflow + self.index))
            .expect("the world has used up all 2^32 entity indices")
    }

    fn reserve(&self, entities: &Entities) -> Entity {
        let n = self
            .used
            .fetch_add(1, core::sync::atomic::Ordering::Relaxed);
        entities.reserve_nth(self.number(n))
    }
}

impl fmt::Debug for Commands<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.queue.fmt(f)
    }
}

impl<'w> Commands<'w> {
    /// Commands recording into `queue`, reserving ids from `entities`
    /// through `lane`, or in call order without one.
    pub(crate) fn new(
        queue: &'w mut CommandQueue,
        entities: &'w Entities,
        lane: Option<&'w ReservationLane>,
    ) -> Self {
        Self {
            queue,
            entities,
            lane,
        }
    }

    /// How many commands this buffer holds, not yet applied.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// world.commands().spawn(());
    /// assert_eq!(world.commands().len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.queue.commands.len()
    }

    /// Whether this buffer holds no command and no system removal.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// assert!(world.commands().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Reserves an entity and records giving it `bundle`. The id is valid at
    /// once for later commands; the entity is alive once the commands apply.
    ///
    /// Reserving is safe from many systems at once: each gets its own id.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32);
    ///
    /// let mut world = World::new();
    /// let e = world.commands().spawn(Position(1.0));
    /// world.flush();
    /// assert_eq!(world.get::<Position>(e)?.0, 1.0);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn spawn<B: Bundle + Send + 'static>(&mut self, bundle: B) -> Entity {
        let entity = match self.lane {
            Some(lane) => lane.reserve(self.entities),
            None => self.entities.reserve_one(),
        };
        self.queue
            .commands
            .push(Some(entity), move |world: &mut World| {
                world.insert_bundle(entity, bundle)
            });
        entity
    }

    /// Records giving `entity` the component `value`, replacing one it holds.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Frozen;
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// world.commands().insert(e, Frozen);
    /// world.flush();
    /// assert!(world.contains::<Frozen>(e));
    /// ```
    pub fn insert<T: Component>(&mut self, entity: Entity, value: T) {
        self.add_fallible(move |world| world.insert(entity, value).map(drop));
    }

    /// Records giving `entity` every component of `bundle`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Position(f32);
    /// #[derive(Component)]
    /// struct Velocity(f32);
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// world.commands().insert_bundle(e, (Position(0.0), Velocity(1.0)));
    /// world.flush();
    /// assert!(world.contains::<Position>(e) && world.contains::<Velocity>(e));
    /// ```
    pub fn insert_bundle<B: Bundle + Send + 'static>(&mut self, entity: Entity, bundle: B) {
        self.add_fallible(move |world| world.insert_bundle(entity, bundle));
    }

    /// Records taking `entity`'s `T` away (and dropping it). An entity
    /// without a `T` is an error, reported like any failed command.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Frozen;
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Frozen);
    /// world.commands().remove::<Frozen>(e);
    /// world.flush();
    /// assert!(!world.contains::<Frozen>(e));
    /// ```
    pub fn remove<T: Component>(&mut self, entity: Entity) {
        self.queue.commands.push(None, move |world: &mut World| {
            world.remove::<T>(entity).map(drop)
        });
    }

    /// Records despawning `entity`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// world.commands().despawn(e);
    /// world.flush();
    /// assert!(!world.is_alive(e));
    /// ```
    pub fn despawn(&mut self, entity: Entity) {
        self.queue
            .commands
            .push(None, move |world: &mut World| world.despawn(entity));
    }

    /// Records storing the resource `resource`, replacing one of its type.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Level(u32);
    ///
    /// let mut world = World::new();
    /// world.commands().insert_resource(Level(2));
    /// world.flush();
    /// assert_eq!(world.resource::<Level>()?.0, 2);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn insert_resource<R: Send + Sync + 'static>(&mut self, resource: R) {
        self.add(move |world| drop(world.insert_resource(resource)));
    }

    /// Records taking the resource `R` out of the world (and dropping it).
    /// A world without one reports [`Error::MissingResource`] as a failed command.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Level(u32);
    ///
    /// let mut world = World::new();
    /// world.insert_resource(Level(1));
    /// world.commands().remove_resource::<Level>();
    /// assert!(world.flush().is_empty());
    /// assert!(!world.contains_resource::<Level>());
    /// ```
    pub fn remove_resource<R: Send + Sync + 'static>(&mut self) {
        self.add_fallible(|world| world.remove_resource::<R>().map(drop));
    }

    /// Records any change as a call on the world, run in order with the other
    /// commands.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// #[derive(Component)]
    /// struct Enemy;
    ///
    /// let mut world = World::new();
    /// world.commands().add(|world: &mut World| {
    ///     world.spawn_batch((0..3).map(|_| Enemy));
    /// });
    /// world.flush();
    /// assert_eq!(world.len(), 3);
    /// ```
    pub fn add(&mut self, call: impl FnOnce(&mut World) + Send + 'static) {
        self.add_fallible(move |world| {
            call(world);
            Ok(())
        });
    }

    /// Records removing the system `name` from the schedule that runs this
    /// frame, once the frame ends: it runs to the end of this frame, and never
    /// after. A name no system has is reported by the schedule as a failed command.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// fn once(mut commands: Commands) {
    ///     commands.remove_system("once");
    /// }
    ///
    /// let mut world = World::new();
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::Update, once)?;
    /// schedule.run(&mut world)?;
    /// assert!(!schedule.contains_system("once"));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn remove_system(&mut self, name: impl Into<String>) {
        self.queue.removals.push(name.into());
    }

    pub(super) fn add_fallible(
        &mut self,
        call: impl FnOnce(&mut World) -> Result<(), Error> + Send + 'static,
    ) {
        self.queue.commands.push(None, call);
    }
}

impl World {
    /// Commands recording into the world's own queue, for changes decided
    /// while the world cannot be changed directly; [`flush`](World::flush)
    /// applies them.
    ///
    /// An id from [`Commands::spawn`] is never handed out to anyone else:
    /// any change of structure (a `spawn`, a `despawn`, a schedule's `run`)
    /// first makes the reserved entities alive, empty until `flush` gives
    /// them their components.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// world.spawn(Health(0));
    /// world.spawn(Health(4));
    /// let dead: Vec<Entity> = world
    ///     .query::<(Entity, &Health)>()
    ///     .iter()
    ///     .filter(|(_, h)| h.0 <= 0)
    ///     .map(|(e, _)| e)
    ///     .collect();
    /// let mut commands = world.commands();
    /// for e in dead {
    ///     commands.despawn(e);
    /// }
    /// world.flush();
    /// assert_eq!(world.len(), 1);
    /// ```
    pub fn commands(&mut self) -> Commands<'_> {
        Commands::new(&mut self.commands, &self.data.entities, None)
    }

    /// Applies every command recorded through [`World::commands`], in order
    /// (and any they record in turn), and returns the errors of those that failed (their entity died
    /// meanwhile); the rest applied. System removals stay queued until a
    /// schedule runs.
    ///
    /// # Panics
    /// With the panic of a command, once the commands before it have
    /// applied and those after it are dropped unapplied; an id a spawn
    /// that did not apply reserved is despawned, not left alive and empty.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// world.commands().despawn(e);
    /// world.commands().despawn(e);
    /// let failed = world.flush();
    /// assert_eq!(failed.len(), 1);
    /// assert_eq!(failed[0].to_string(), "entity 0v1 was despawned");
    /// ```
    pub fn flush(&mut self) -> Vec<Error> {
        let mut failed = Vec::new();
        // A command may record more commands; they apply in the same flush.
        while !self.commands.commands.is_empty() {
            let mut queue = CommandQueue {
                commands: core::mem::take(&mut self.commands.commands),
                removals: Vec::new(),
            };
            queue.apply(self, |error| failed.push(error));
        }
        failed
    }

    /// Makes the ids reserved by [`Commands::spawn`] alive, with no
    /// components yet, so that commands naming them apply; `made` gets each
    /// with its reservation number, in that order. The numbers in `unused` (ascending),
    /// which nobody was given, spend no slot and no version (see
    /// `Entities::settle_except`).
    pub(crate) fn settle_reserved_except(&mut self, unused: &[u32], made: impl FnMut(u32, Entity)) {
        self.transaction().settle_reserved_except(unused, made);
    }

    /// Makes every id reserved by [`Commands::spawn`] alive, with no
    /// components yet, so that commands naming them apply.
    pub(crate) fn settle_reserved(&mut self) {
        self.transaction().settle_reserved_except(&[], |_, _| {});
    }

    /// How many reservation numbers are claimed and not yet settled.
    pub(crate) fn reserved_count(&self) -> u32 {
        self.data.entities.reserved_count()
    }

    /// Claims every reservation number below `end` (see `Entities::claim_reserved`).
    pub(crate) fn claim_reserved(&self, end: u32) {
        self.data.entities.claim_reserved(end);
    }

    /// The world queue's pending system removals, leaving none queued.
    pub(crate) fn take_system_removals(&mut self) -> Vec<String> {
        self.commands.take_removals()
    }
}
