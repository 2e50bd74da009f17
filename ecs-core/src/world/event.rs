//! The world's events: sending outside systems, reading the store, and
//! ending a frame by hand for a game without a schedule.

use crate::event::Events;

use super::World;

impl World {
    /// Sends `event`: every [`EventReader<E>`](crate::system::EventReader)
    /// sees it once, on its next run. Makes the world's
    /// [`Events<E>`] on first use.
    ///
    /// An event is any `Send + Sync + 'static` value; it is stored, never
    /// cloned, and dropped by the rule of the [`event`](crate::event) module.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// struct Health(i32);
    /// struct Hit { target: Entity, damage: i32 }
    ///
    /// fn damage(mut hits: EventReader<Hit>, mut health: Query<&mut Health>) {
    ///     for hit in hits.read() {
    ///         if let Ok(h) = health.get_mut(hit.target) {
    ///             h.0 -= hit.damage;
    ///         }
    ///     }
    /// }
    ///
    /// let mut world = World::new();
    /// let e = world.spawn(Health(10));
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::Update, damage)?;
    /// world.send(Hit { target: e, damage: 5 });
    /// schedule.run(&mut world)?;
    /// assert_eq!(world.get::<Health>(e)?.0, 5);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn send<E: Send + Sync + 'static>(&mut self, event: E) {
        self.init_events::<E>().send(event);
    }

    /// Sends every event of `events`, in order.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Note(&'static str);
    ///
    /// let mut world = World::new();
    /// world.send_batch([Note("a"), Note("b")]);
    /// assert_eq!(world.events::<Note>().unwrap().len(), 2);
    /// ```
    pub fn send_batch<E: Send + Sync + 'static>(&mut self, events: impl IntoIterator<Item = E>) {
        self.init_events::<E>().send_batch(events);
    }

    /// The world's store of `E` events, or `None` if none was ever sent or
    /// read. Read it with an [`EventCursor`](crate::event::EventCursor) to see
    /// each event once outside systems.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Ping;
    ///
    /// let mut world = World::new();
    /// assert!(world.events::<Ping>().is_none());
    /// world.send(Ping);
    /// assert_eq!(world.events::<Ping>().map(|e| e.len()), Some(1));
    /// ```
    pub fn events<E: Send + Sync + 'static>(&self) -> Option<&Events<E>> {
        self.data.resources.get::<Events<E>>()
    }

    /// Ends a frame of every event store: drops the events the
    /// [`event`](crate::event) module's rule lets go.
    /// [`Schedule::run`](crate::Schedule::run) calls it as its last step; a
    /// game without a schedule calls it once per frame.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Ping;
    ///
    /// let mut world = World::new();
    /// world.send(Ping);
    /// world.update_events(); // the frame it was sent in ends
    /// assert_eq!(world.events::<Ping>().unwrap().len(), 1);
    /// world.update_events(); // and the next
    /// assert_eq!(world.events::<Ping>().unwrap().len(), 0);
    /// ```
    pub fn update_events(&mut self) {
        self.events.update_all(&mut self.data.resources);
    }

    /// The world's store of `E` events, made (and registered for frame
    /// ends) if there is none.
    pub(crate) fn init_events<E: Send + Sync + 'static>(&mut self) -> &mut Events<E> {
        if !self.data.resources.contains::<Events<E>>() {
            self.data.resources.insert(Events::<E>::new());
            self.events.register::<E>();
        }
        self.data
            .resources
            .get_mut::<Events<E>>()
            .expect("inserted above")
    }
}
