//! Custom events triggered by the game: `world.trigger(event)` runs every
//! observer of the event's type at once, in registration order, then
//! applies their commands; `commands.trigger` and `DeferredWorld::trigger`
//! do the same where their commands apply.

use core::any::{TypeId, type_name};

use crate::error::Error;
use crate::observer::{Follows, ObserverId};
use crate::util::{PanicPayload, ShortName};

use super::super::component_hooks::DeferredWorld;
use super::super::{Commands, World};
use super::event::Event;
use super::{MAX_OBSERVER_DEPTH, ObserverCommands, ObserverFire};

impl World {
    /// Triggers `event`: every observer taking [`On<E>`](super::On) runs now,
    /// in registration order, each seeing what the ones before it changed in
    /// the event; then their commands apply, before `trigger` returns. An
    /// event nobody observes costs one lookup.
    ///
    /// Observers may trigger events in turn (through their commands); past
    /// [`MAX_OBSERVER_DEPTH`] nested levels the event is not dispatched and
    /// [`Error::EventRecursion`] is recorded with the observers' other
    /// errors ([`take_observer_errors`](Self::take_observer_errors)).
    ///
    /// # Panics
    /// A panic of an observer reaches the caller once the commands of this
    /// trigger's observers are dropped (the ids their spawns reserved
    /// despawned); the observers after it do not run.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Position(f32, f32);
    /// #[derive(Event)]
    /// struct Explosion { x: f32, y: f32, radius: f32 }
    ///
    /// let mut world = World::new();
    /// world.observe(|ev: On<Explosion>, mut commands: Commands, q: Query<(Entity, &Position)>| {
    ///     for (e, p) in q.iter() {
    ///         if (p.0 - ev.x).hypot(p.1 - ev.y) < ev.radius {
    ///             commands.despawn(e);
    ///         }
    ///     }
    /// });
    /// world.spawn(Position(1.0, 1.0));
    /// world.spawn(Position(9.0, 9.0));
    /// world.trigger(Explosion { x: 0.0, y: 0.0, radius: 5.0 });
    /// assert_eq!(world.len(), 1, "the far one survives");
    /// ```
    pub fn trigger<E: Event>(&mut self, mut event: E) {
        let index = &self.observers.registry.index;
        if !index.event_observers(TypeId::of::<E>()).is_empty() || index.any_scoped() {
            self.trigger_now(&mut event);
        }
    }

    /// Runs the observers of `event`, along its travel for an entity event,
    /// then applies their commands.
    #[inline(never)]
    fn trigger_now<E: Event>(&mut self, event: &mut E) {
        if self.observers.depth >= MAX_OBSERVER_DEPTH {
            self.observers.errors.push(Error::EventRecursion {
                event: ShortName(type_name::<E>()).to_string(),
                depth: self.observers.depth,
            });
            return;
        }
        let mut commands = ObserverCommands::default();
        let ran = self.walk(event, &mut commands);
        self.abandon_on_panic(ran, &mut commands);
        self.apply_observer_commands(commands);
    }

    /// Runs the observers of `event` everywhere, then, for an entity event,
    /// those on its target; and again at each entity it travels to, while
    /// its observers let it and its relationship leads somewhere. A walk
    /// longer than the world has entities went round a cycle, and stops.
    fn walk<E: Event>(
        &mut self,
        event: &mut E,
        commands: &mut ObserverCommands,
    ) -> Result<(), PanicPayload> {
        // The observers everywhere, listed once: none can come or go while
        // the walk runs (that takes `&mut World`, which only their commands
        // get, and those apply after it). A nested trigger finds the buffer
        // taken and lists into a new one.
        let mut everywhere = core::mem::take(&mut self.observers.scratch);
        everywhere.clear();
        let type_id = TypeId::of::<E>();
        everywhere.extend_from_slice(self.observers.registry.index.event_observers(type_id));
        let walked = self.walk_listed(event, &everywhere, commands);
        if self.observers.scratch.capacity() < everywhere.capacity() {
            everywhere.clear();
            self.observers.scratch = everywhere;
        }
        walked
    }

    /// [`walk`](Self::walk), with the observers everywhere listed.
    fn walk_listed<E: Event>(
        &mut self,
        event: &mut E,
        everywhere: &[ObserverId],
        commands: &mut ObserverCommands,
    ) -> Result<(), PanicPayload> {
        let follows = Follows::Event(TypeId::of::<E>());
        let original = event.current_target();
        let mut target = original;
        let mut steps = 0;
        loop {
            let mut fire = ObserverFire::event(&mut *event, target, original, E::AUTO_PROPAGATE);
            self.run_observers(|_, at| everywhere.get(at).copied(), &mut fire, commands)?;
            let Some(entity) = target else {
                return Ok(());
            };
            self.run_observers(
                |index, at| index.scoped_at(entity, follows, at),
                &mut fire,
                commands,
            )?;
            if !fire.propagates() {
                return Ok(());
            }
            let Some(next) = E::next_target(self, entity) else {
                return Ok(());
            };
            steps += 1;
            if steps > self.len() {
                return Ok(());
            }
            event.retarget(next);
            target = Some(next);
        }
    }
}

impl Commands<'_> {
    /// Records triggering `event` where the commands apply
    /// ([`World::trigger`]): from a system, at its stage's sync point.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Event)]
    /// struct WaveCleared(u32);
    /// #[derive(Default)]
    /// struct Cleared(Vec<u32>);
    ///
    /// fn referee(mut commands: Commands) {
    ///     commands.trigger(WaveCleared(1));
    /// }
    ///
    /// let mut world = World::new();
    /// world.init_resource::<Cleared>();
    /// world.observe(|ev: On<WaveCleared>, mut cleared: ResMut<Cleared>| cleared.0.push(ev.0));
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::Update, referee)?;
    /// schedule.run(&mut world)?;
    /// assert_eq!(world.resource::<Cleared>()?.0, [1]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn trigger<E: Event>(&mut self, event: E) {
        self.add(move |world| world.trigger(event));
    }
}

impl DeferredWorld<'_> {
    /// Records triggering `event` once the hook's call is done, with the
    /// hook's other commands ([`World::trigger`]).
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Event)]
    /// struct Armed(Entity);
    /// #[derive(Component)]
    /// #[component(on_add = announce)]
    /// struct Bomb;
    /// #[derive(Default)]
    /// struct ArmedBombs(Vec<Entity>);
    ///
    /// fn announce(mut world: DeferredWorld, ctx: HookContext) {
    ///     world.trigger(Armed(ctx.entity));
    /// }
    ///
    /// let mut world = World::new();
    /// world.init_resource::<ArmedBombs>();
    /// world.observe(|ev: On<Armed>, mut armed: ResMut<ArmedBombs>| armed.0.push(ev.0));
    /// let bomb = world.spawn(Bomb);
    /// assert_eq!(world.resource::<ArmedBombs>()?.0, [bomb]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn trigger<E: Event>(&mut self, event: E) {
        self.commands().trigger(event);
    }
}
