//! Observers: functions that run when a component arrives on an entity, is
//! inserted, or leaves it, whichever call made the change.
//!
//! Additions are recorded by the structural funnel's observer hook and
//! dispatched once the call that made them is done; removals are announced
//! before the funnel runs, so observers still read what is leaving. Either
//! way the observers' commands apply before the call returns, or, when the
//! call panics after its change, before the panic goes on (see `dispatch`).

mod dispatch;
mod event;
mod input;
mod on;
mod trigger;
pub(in crate::world) use dispatch::DispatchOnUnwind;
pub use event::{EntityEvent, Event, relationship_target};
pub use input::{ObserverFire, ObserverInput};
pub use on::On;

use core::any::type_name;
use std::sync::Arc;

use crate::component::ComponentId;
use crate::entity::Entity;
use crate::error::Error;
use crate::observer::{Fired, Follows, ObserverId, ObserverRegistry, TriggerKind};
use crate::util::{ShortName, SyncCell};

use super::component_hooks::HookKind;
use super::{CommandQueue, EntityCommands, EntityMut, World};

/// How deep observers may trigger observers (an observer's commands firing
/// observers whose commands fire observers, ...) before the world stops
/// dispatching and reports [`Error::ObserverRecursion`].
///
/// ```
/// assert_eq!(ecs_core::MAX_OBSERVER_DEPTH, 64);
/// ```
pub const MAX_OBSERVER_DEPTH: usize = 64;

/// An observer made ready to run: what `World::observe` registers.
pub(crate) trait ObserverRunner: Send {
    /// Runs the observer once for `fire` (a structural event on an entity,
    /// or a custom event's value), with the world to itself, moving the
    /// commands it recorded into `deferred`.
    fn run(
        &mut self,
        world: &mut World,
        fire: &mut ObserverFire<'_>,
        deferred: &mut CommandQueue,
    ) -> Result<(), Error>;
}

/// An observer, made from a function by [`IntoObserver`], before it is
/// registered: the event it follows, and how to run it.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::observer::TriggerKind;
/// use ecs_core::IntoObserver;
///
/// #[derive(Component)]
/// struct Health(i32);
///
/// let observer = (|_: OnRemove<Health>| {}).into_observer()?;
/// assert_eq!(observer.kind(), Some(TriggerKind::Remove));
/// // The enclosing fn's name, then `{{closure}}`.
/// assert!(observer.name().ends_with("::{{closure}}"));
/// # Ok::<(), Error>(())
/// ```
pub struct Observer {
    kind: Option<TriggerKind>,
    follows: fn(&mut World) -> Follows,
    name: Arc<str>,
    runner: Box<dyn ObserverRunner>,
}

impl core::fmt::Debug for Observer {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Observer")
            .field("kind", &self.kind)
            .field("name", &self.name)
            .finish()
    }
}

impl Observer {
    /// An observer of what `I` follows, named after `F`, running `runner`.
    pub(crate) fn new<I: ObserverInput, F>(runner: Box<dyn ObserverRunner>) -> Self {
        Self {
            kind: I::KIND,
            follows: I::follows,
            name: Arc::from(observer_name(type_name::<F>())),
            runner,
        }
    }

    /// The structural event the observer follows, or `None` for an
    /// observer of a custom event ([`On<E>`]).
    pub fn kind(&self) -> Option<TriggerKind> {
        self.kind
    }

    /// The observer's name in errors: its function's name, or its closure's
    /// place.
    pub fn name(&self) -> &str {
        &self.name
    }
}

/// An observer's name from its function's type name: the function's own
/// name, or `owner::{{closure}}` for a closure inside `owner`.
pub(crate) fn observer_name(type_name: &str) -> String {
    match type_name.strip_suffix("::{{closure}}") {
        Some(owner) => format!("{}::{{{{closure}}}}", ShortName(owner)),
        None => ShortName(type_name).to_string(),
    }
}

/// Something [`World::observe`] takes: a function or closure whose first
/// argument is a trigger ([`OnAdd`](crate::observer::OnAdd),
/// [`OnInsert`](crate::observer::OnInsert),
/// [`OnRemove`](crate::observer::OnRemove), or [`On<E>`] for a custom event)
/// and whose other arguments are system params (up to 15). `Marker` tells the impls apart; the compiler
/// infers it.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::IntoObserver;
///
/// #[derive(Component)]
/// struct Health(i32);
///
/// fn is_observer<M>(_: impl IntoObserver<M>) {}
/// is_observer(|trigger: OnAdd<Health>, health: Query<&Health>, mut commands: Commands| {
///     if health.get(trigger.entity()).is_ok_and(|h| h.0 <= 0) {
///         commands.despawn(trigger.entity());
///     }
/// });
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` cannot be an observer",
    label = "not an observer",
    note = "an observer is a function or closure whose first argument is `OnAdd<T>`, \
            `OnInsert<T>`, `OnRemove<T>` or `On<E>` for an `#[derive(Event)]` type, and whose \
            other arguments are system params"
)]
pub trait IntoObserver<Marker>: Send + 'static {
    /// The observer, or [`Error::ConflictingAccess`] when two of its params
    /// touch the same type and one writes it.
    fn into_observer(self) -> Result<Observer, Error>;
}

/// A runner, kept where only `&mut` reaches it, so the world stays `Sync`.
type Stored = SyncCell<(Arc<str>, Box<dyn ObserverRunner>)>;

/// Who recorded a queue of commands, for the errors of its failed commands.
pub(in crate::world) enum Recorder {
    /// The observer of this name.
    Observer(Arc<str>),
    /// The `hook` of the component type of this short name.
    Hook { component: Arc<str>, hook: HookKind },
}

/// Commands the observers and hooks of one call on the world recorded,
/// each queue with who recorded it.
#[derive(Default)]
pub(in crate::world) struct ObserverCommands(Vec<(Recorder, CommandQueue)>);

impl ObserverCommands {
    /// Adds the commands `recorder` recorded.
    pub(in crate::world) fn push(&mut self, recorder: Recorder, queue: CommandQueue) {
        self.0.push((recorder, queue));
    }
}

/// Every observer of a world, the events recorded for them, how deep
/// observers are triggering observers now, and what went wrong.
#[derive(Default)]
pub(crate) struct Observers {
    pub(in crate::world) registry: ObserverRegistry<Stored>,
    /// Additions the funnel's hook recorded during the current call.
    pub(in crate::world) fired: Vec<Fired>,
    /// How many levels of observers' and hooks' commands are applying now.
    pub(in crate::world) depth: usize,
    /// What observers and hooks met, until `take_observer_errors`.
    pub(in crate::world) errors: Vec<Error>,
    /// A buffer for the ids of the observers one trigger runs, reused
    /// (a nested trigger finds it taken and makes its own).
    pub(in crate::world) scratch: Vec<ObserverId>,
}

impl Observers {
    /// Whether any observer follows removals at all: when none does, a
    /// removal takes the funnel's path alone.
    #[inline]
    pub(in crate::world) fn follow_removals(&self) -> bool {
        self.registry.index.follows_any(TriggerKind::Remove)
    }

    /// Whether any observer follows component `id` arriving or leaving.
    #[inline]
    pub(in crate::world) fn follow_component(&self, id: ComponentId) -> bool {
        TriggerKind::ALL
            .into_iter()
            .any(|kind| self.registry.index.follows(kind, id))
    }

    /// Whether an observer follows component `id` leaving (`OnRemove`).
    #[inline]
    pub(in crate::world) fn follow_removals_of(&self, id: ComponentId) -> bool {
        self.follow_removals() && self.registry.index.follows(TriggerKind::Remove, id)
    }

    /// Records that a command `recorder` recorded failed with `error`.
    fn failed(&mut self, recorder: &Recorder, error: Error) {
        if let Error::ObserverFailed(_) = error {
            // The observer's own `Err`, which names it already.
            self.errors.push(error);
            return;
        }
        let error = Box::new(error);
        self.errors.push(match recorder {
            Recorder::Observer(name) => Error::InObserver {
                observer: name.to_string(),
                error,
            },
            Recorder::Hook { component, hook } => Error::InHook {
                component: component.to_string(),
                hook: hook.name(),
                error,
            },
        });
    }
}

impl World {
    /// Registers `observer`, which runs every time its trigger's event
    /// happens to a component of its type, on any path: `World` methods,
    /// `spawn_batch`, entity handles, commands.
    ///
    /// - `OnAdd<T>`: a `T` arrived on an entity that held none.
    /// - `OnInsert<T>`: a `T` was inserted, arriving or replacing one.
    /// - `OnRemove<T>`: a `T` is leaving (`remove`, `despawn`, `clear`);
    ///   the observer runs before it leaves and can still read it.
    ///
    /// The observer takes the same params as a system (queries, resources,
    /// `Commands`, `&World`, ...), with the world to itself. Its commands
    /// apply right after the call that triggered it, before that call
    /// returns, so the caller sees what observers did. Observers of one
    /// event run in registration order; the events of one call are
    /// dispatched in the order they happened (for a bundle, component by
    /// component, `OnAdd` before `OnInsert`), after the whole call is done.
    ///
    /// Observers may trigger observers (their commands are calls like any
    /// other); past [`MAX_OBSERVER_DEPTH`] nested levels the world stops
    /// dispatching and records [`Error::ObserverRecursion`]. A failed
    /// command of an observer, or an observer whose params cannot be
    /// fetched, is recorded as [`Error::InObserver`]; see
    /// [`take_observer_errors`](Self::take_observer_errors).
    ///
    /// A component type nobody observes pays nothing for observers.
    ///
    /// # Panics
    /// When two params of the observer conflict (see
    /// [`try_observe`](Self::try_observe), which returns the error instead).
    /// A panic inside an observer reaches the caller of the call that
    /// triggered it: the change that call made stays made (a removal the
    /// observer ran before does not happen), the remaining observers of
    /// that call do not run and the commands observers recorded in it are
    /// dropped; an id one of their spawns reserved is despawned, never left
    /// alive and empty. When the call itself panics after its change (a
    /// `Drop` of a replaced or removed value, a batch's iterator), its
    /// observers still run and their commands apply, before the panic
    /// reaches the caller: never during a later, unrelated call.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health(i32);
    /// #[derive(Component)]
    /// struct Burning;
    /// #[derive(Default)]
    /// struct Log(Vec<Entity>);
    ///
    /// let mut world = World::new();
    /// world.insert_resource(Log::default());
    /// let id = world.observe(|trigger: OnAdd<Health>, mut commands: Commands| {
    ///     commands.insert(trigger.entity(), Burning);
    /// });
    /// world.observe(|trigger: OnRemove<Health>, mut log: ResMut<Log>| log.0.push(trigger.entity()));
    ///
    /// let e = world.spawn(Health(10));
    /// assert!(world.contains::<Burning>(e));
    /// world.despawn(e)?;
    /// assert_eq!(world.resource::<Log>()?.0, [e]);
    /// world.unobserve(id)?;
    /// let f = world.spawn(Health(1));
    /// assert!(!world.contains::<Burning>(f));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn observe<M>(&mut self, observer: impl IntoObserver<M>) -> ObserverId {
        self.try_observe(observer)
            .unwrap_or_else(|error| panic!("{error}"))
    }

    /// As [`observe`](Self::observe), returning [`Error::ConflictingAccess`]
    /// instead of panicking when two of the observer's params conflict.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// let error = world
    ///     .try_observe(|_: OnAdd<Health>, _: Query<&mut Health>, _: Query<&Health>| {})
    ///     .unwrap_err();
    /// assert!(error.to_string().contains("cannot take both"));
    /// ```
    pub fn try_observe<M>(&mut self, observer: impl IntoObserver<M>) -> Result<ObserverId, Error> {
        let Observer {
            follows,
            name,
            runner,
            ..
        } = observer.into_observer()?;
        let follows = follows(self);
        Ok(self
            .observers
            .registry
            .insert(follows, None, SyncCell::new((name, runner))))
    }

    /// Registers `observer` on the live `entity` alone.
    fn observe_on<M>(
        &mut self,
        entity: Entity,
        observer: impl IntoObserver<M>,
    ) -> Result<ObserverId, Error> {
        let Observer {
            follows,
            name,
            runner,
            ..
        } = observer.into_observer()?;
        self.data.entities.check(entity)?;
        let follows = follows(self);
        Ok(self
            .observers
            .registry
            .insert(follows, Some(entity), SyncCell::new((name, runner))))
    }

    /// Forgets the observers registered on `entity`, which is gone.
    #[inline]
    pub(in crate::world) fn forget_observers_of(&mut self, entity: Entity) {
        if self.observers.registry.index.any_scoped() {
            for id in self.observers.registry.index.scoped_on(entity) {
                self.observers.registry.remove(id);
            }
        }
    }

    /// Forgets every observer registered on one entity: the entities are
    /// gone.
    pub(in crate::world) fn forget_scoped_observers(&mut self) {
        if self.observers.registry.index.any_scoped() {
            for id in self.observers.registry.index.all_scoped() {
                self.observers.registry.remove(id);
            }
        }
    }

    /// [`observe`](Self::observe), by the name bevy gives it.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Event)]
    /// struct Ping;
    ///
    /// let mut world = World::new();
    /// world.add_observer(|_: On<Ping>| {});
    /// assert_eq!(world.observer_count(), 1);
    /// ```
    pub fn add_observer<M>(&mut self, observer: impl IntoObserver<M>) -> ObserverId {
        self.observe(observer)
    }

    /// Removes the observer `id`; it never runs again. An observer may
    /// remove itself (through `commands.add`), or any other.
    ///
    /// # Errors
    /// [`Error::UnknownObserver`] when `id` was removed already or belongs to
    /// another world.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// let id = world.observe(|_: OnInsert<Health>| panic!("never runs"));
    /// world.unobserve(id)?;
    /// world.spawn(Health(1));
    /// assert_eq!(
    ///     world.unobserve(id).unwrap_err(),
    ///     Error::UnknownObserver { observer: id }
    /// );
    /// # Ok::<(), Error>(())
    /// ```
    pub fn unobserve(&mut self, id: ObserverId) -> Result<(), Error> {
        match self.observers.registry.remove(id) {
            Some(_) => Ok(()),
            None => Err(Error::UnknownObserver { observer: id }),
        }
    }

    /// How many observers the world has.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// world.observe(|_: OnAdd<Health>| {});
    /// assert_eq!(world.observer_count(), 1);
    /// ```
    pub fn observer_count(&self) -> usize {
        self.observers.registry.len()
    }

    /// The errors observers met since the last call, oldest first, leaving
    /// none: failed commands and params that could not be fetched
    /// ([`Error::InObserver`]), and recursion cut short
    /// ([`Error::ObserverRecursion`]). [`Schedule::run`](crate::Schedule::run)
    /// moves them into its [`command_errors`](crate::Schedule::command_errors).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// world.observe(|trigger: OnAdd<Health>, mut commands: Commands| {
    ///     commands.despawn(trigger.entity());
    ///     commands.despawn(trigger.entity());
    /// });
    /// world.spawn(Health(1));
    /// let errors = world.take_observer_errors();
    /// assert_eq!(errors.len(), 1);
    /// assert!(errors[0].to_string().ends_with("failed: entity 0v1 was despawned"));
    /// assert!(world.take_observer_errors().is_empty());
    /// ```
    pub fn take_observer_errors(&mut self) -> Vec<Error> {
        core::mem::take(&mut self.observers.errors)
    }
}

impl EntityMut<'_> {
    /// Registers `observer` on this entity alone: it runs for events aimed
    /// at the entity ([`EntityEvent`]s, and `OnAdd<T>` / `OnInsert<T>` /
    /// `OnRemove<T>` on it), after the observers of every entity, in
    /// registration order. It goes when the entity is despawned;
    /// [`World::unobserve`] removes it before.
    ///
    /// # Panics
    /// When two of the observer's params conflict, or the entity is gone
    /// (see [`try_observe`](Self::try_observe), which returns the error).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health(u32);
    /// #[derive(EntityEvent)]
    /// struct Damage { entity: Entity, amount: u32 }
    ///
    /// fn take_damage(ev: On<Damage>, mut q: Query<&mut Health>) {
    ///     if let Ok(mut health) = q.get_mut(ev.entity()) {
    ///         health.0 = health.0.saturating_sub(ev.amount);
    ///     }
    /// }
    ///
    /// let mut world = World::new();
    /// let knight = world.spawn(Health(50));
    /// let squire = world.spawn(Health(20));
    /// world.entity_mut(knight)?.observe(take_damage);
    /// world.trigger(Damage { entity: knight, amount: 15 });
    /// world.trigger(Damage { entity: squire, amount: 15 });   // nobody watches the squire
    /// assert_eq!(world.get::<Health>(knight)?.0, 35);
    /// assert_eq!(world.get::<Health>(squire)?.0, 20);
    /// world.despawn(knight)?;
    /// assert_eq!(world.observer_count(), 0, "its observer went with it");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn observe<M>(&mut self, observer: impl IntoObserver<M>) -> ObserverId {
        self.try_observe(observer)
            .unwrap_or_else(|error| panic!("{error}"))
    }

    /// As [`observe`](Self::observe), returning the error instead of
    /// panicking: [`Error::ConflictingAccess`] for params that conflict,
    /// [`Error::Despawned`] (or another liveness error) when the entity is
    /// gone.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(EntityEvent)]
    /// struct Poke { entity: Entity }
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(());
    /// let mut handle = world.entity_mut(e)?;
    /// assert!(handle.try_observe(|_: On<Poke>| {}).is_ok());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn try_observe<M>(&mut self, observer: impl IntoObserver<M>) -> Result<ObserverId, Error> {
        let entity = self.id();
        self.home_world()?.observe_on(entity, observer)
    }
}

impl EntityCommands<'_, '_> {
    /// Records registering `observer` on this entity alone
    /// ([`EntityMut::observe`]), where the commands apply; an entity gone by
    /// then, or params that conflict, make a failed command.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(EntityEvent)]
    /// struct Poke { entity: Entity }
    /// #[derive(Default)]
    /// struct Pokes(u32);
    ///
    /// let mut world = World::new();
    /// world.init_resource::<Pokes>();
    /// let mut commands = world.commands();
    /// let e = commands.spawn(());
    /// commands.entity(e).observe(|_: On<Poke>, mut n: ResMut<Pokes>| n.0 += 1);
    /// world.flush();
    /// world.trigger(Poke { entity: e });
    /// assert_eq!(world.resource::<Pokes>()?.0, 1);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn observe<M>(&mut self, observer: impl IntoObserver<M>) -> &mut Self {
        let entity = self.id();
        self.recorder()
            .add_fallible(move |world| world.observe_on(entity, observer).map(drop));
        self
    }
}
