//! Event params: `EventWriter<E>` sends events of type `E`, `EventReader<E>`
//! reads each one once.
//!
//! Both reach the world's [`Events<E>`] store as a resource: a writer
//! registers a write of it, a reader only a read, so readers of one type run
//! at once and a writer is ordered with them like any conflict. A reader's
//! position lives in its own state; what the store needs to know of it (how
//! far it has run) is an atomic the reader alone writes.

use core::any::type_name;
use core::fmt;

use crate::access::AccessMode;
use crate::error::Error;
use crate::event::{EventCursor, EventIter, Events};
use crate::world::{CommandQueue, World};

use super::access::SystemAccess;
use super::param::{SystemParam, SystemWorld};

/// A system param that sends events of type `E`: any `Send + Sync + 'static`
/// value. Sending is a push onto the world's [`Events<E>`]; each
/// [`EventReader<E>`] sees each event once.
///
/// Two writers of one type conflict (both write its store), so they run one
/// after the other, in registration order or as `.after` / `.before` say;
/// writers of different types run at once.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Enemy;
/// #[derive(Component)]
/// struct Health(i32);
/// struct Hit { target: Entity, damage: i32 }
///
/// fn shooter(mut hits: EventWriter<Hit>, targets: Query<Entity, With<Enemy>>) {
///     for t in targets.iter() {
///         hits.send(Hit { target: t, damage: 1 });
///     }
/// }
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
/// let e = world.spawn((Enemy, Health(3)));
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, shooter)?;
/// schedule.add_system(Stage::Update, damage)?; // after `shooter`: same frame
/// schedule.run(&mut world)?;
/// schedule.run(&mut world)?;
/// assert_eq!(world.get::<Health>(e)?.0, 1);
/// # Ok::<(), Error>(())
/// ```
pub struct EventWriter<'w, E: Send + Sync + 'static> {
    events: &'w mut Events<E>,
}

impl<E: Send + Sync + 'static> EventWriter<'_, E> {
    /// Sends `event`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Log(&'static str);
    ///
    /// fn hello(mut log: EventWriter<Log>) {
    ///     log.send(Log("hello"));
    /// }
    ///
    /// let mut world = World::new();
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::Update, hello)?;
    /// schedule.run(&mut world)?;
    /// assert_eq!(world.events::<Log>().unwrap().iter().next().unwrap().0, "hello");
    /// # Ok::<(), Error>(())
    /// ```
    #[inline]
    pub fn send(&mut self, event: E) {
        self.events.send(event);
    }

    /// Sends every event of `events`, in order.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Tick(u32);
    ///
    /// fn ticks(mut out: EventWriter<Tick>) {
    ///     out.send_batch((0..3).map(Tick));
    /// }
    ///
    /// let mut world = World::new();
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::Update, ticks)?;
    /// schedule.run(&mut world)?;
    /// assert_eq!(world.events::<Tick>().unwrap().len(), 3);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn send_batch(&mut self, events: impl IntoIterator<Item = E>) {
        self.events.send_batch(events);
    }
}

impl<E: Send + Sync + 'static> fmt::Debug for EventWriter<'_, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EventWriter")
            .field("events", &self.events)
            .finish()
    }
}

/// A system param that reads events of type `E`: each event once, in send
/// order.
///
/// A reader sees every event sent since its previous run: by systems that
/// ran after it last frame, by systems before it this frame, and by
/// [`World::send`] in between. A reader added to a schedule starts at the
/// events of the frame it joins (`world.send`s since the previous frame
/// ended included), never older ones. Events are borrowed from the world's
/// [`Events<E>`], never cloned; the [`event`](crate::event) module gives
/// the rule for how long they are kept. Read (or [`clear`](Self::clear))
/// on every run: events a reader has run past without reading may be
/// dropped before its next run.
///
/// ```
/// use ecs_core::prelude::*;
///
/// struct Shout(&'static str);
/// #[derive(Default)]
/// struct Heard(Vec<&'static str>);
///
/// fn listen(mut shouts: EventReader<Shout>, mut heard: ResMut<Heard>) {
///     for shout in shouts.read() {
///         heard.0.push(shout.0);
///     }
/// }
///
/// let mut world = World::new();
/// world.insert_resource(Heard::default());
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, listen)?;
/// world.send(Shout("hey"));
/// schedule.run(&mut world)?;
/// world.send(Shout("ho"));
/// schedule.run(&mut world)?;
/// schedule.run(&mut world)?;
/// assert_eq!(world.resource::<Heard>()?.0, ["hey", "ho"]);
/// # Ok::<(), Error>(())
/// ```
pub struct EventReader<'w, E: Send + Sync + 'static> {
    cursor: &'w mut EventCursor<E>,
    events: &'w Events<E>,
}

impl<E: Send + Sync + 'static> EventReader<'_, E> {
    /// The events this reader has not read, oldest first; each one the
    /// iterator yields counts as read.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Hit(i32);
    ///
    /// fn total(mut hits: EventReader<Hit>, mut sum: ResMut<i32>) {
    ///     *sum += hits.read().map(|h| h.0).sum::<i32>();
    ///     assert_eq!(hits.read().count(), 0, "each event once");
    /// }
    ///
    /// let mut world = World::new();
    /// world.insert_resource(0i32);
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::Update, total)?;
    /// world.send_batch([Hit(2), Hit(3)]);
    /// schedule.run(&mut world)?;
    /// assert_eq!(*world.resource::<i32>()?, 5);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn read(&mut self) -> EventIter<'_, E> {
        self.cursor.read(self.events)
    }

    /// How many events this reader has not read.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Hit;
    ///
    /// fn count(hits: EventReader<Hit>, mut seen: ResMut<usize>) {
    ///     *seen = hits.len();
    /// }
    ///
    /// let mut world = World::new();
    /// world.insert_resource(0usize);
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::Update, count)?;
    /// world.send_batch([Hit, Hit]);
    /// schedule.run(&mut world)?;
    /// assert_eq!(*world.resource::<usize>()?, 2);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.cursor.len(self.events)
    }

    /// Whether this reader has read every event.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Quit;
    ///
    /// fn watch(quit: EventReader<Quit>, mut asked: ResMut<bool>) {
    ///     *asked |= !quit.is_empty();
    /// }
    ///
    /// let mut world = World::new();
    /// world.insert_resource(false);
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::Update, watch)?;
    /// schedule.run(&mut world)?;
    /// assert!(!*world.resource::<bool>()?);
    /// world.send(Quit);
    /// schedule.run(&mut world)?;
    /// assert!(*world.resource::<bool>()?);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Marks every unread event read, without looking at them.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Hit;
    ///
    /// fn skip(mut hits: EventReader<Hit>) {
    ///     hits.clear();
    ///     assert!(hits.is_empty());
    /// }
    ///
    /// let mut world = World::new();
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::Update, skip)?;
    /// world.send(Hit);
    /// schedule.run(&mut world)?;
    /// # Ok::<(), Error>(())
    /// ```
    pub fn clear(&mut self) {
        self.cursor.clear(self.events);
    }
}

impl<E: Send + Sync + 'static> fmt::Debug for EventReader<'_, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EventReader")
            .field("unread", &self.len())
            .finish()
    }
}

// SAFETY: registers a write of the `Events<E>` resource and writes nothing
// else; the pointer is the resource's root, and the caller keeps every
// other user of it apart while the item lives.
unsafe impl<E: Send + Sync + 'static> SystemParam for EventWriter<'_, E> {
    const DEFERS: bool = false;

    type State = ();
    type Item<'w> = EventWriter<'w, E>;

    fn init(access: &mut SystemAccess) {
        access.add_resource::<Events<E>>(type_name::<Self>(), AccessMode::Write);
    }

    fn prepare(_: &mut (), world: &mut World) {
        world.init_events::<E>();
    }

    #[inline]
    unsafe fn fetch<'w>(
        _: &'w mut (),
        world: SystemWorld<'w>,
    ) -> Result<EventWriter<'w, E>, Error> {
        let mut root = world
            .view()
            .resource_for_write::<Events<E>>()
            .ok_or_else(Error::missing_resource::<Events<E>>)?;
        // SAFETY: the cell lives while the world is borrowed for `'w`; this
        // param registered a write of `Events<E>`, so no other system and no
        // other param of this one reaches it during the run (fetch contract).
        let events = unsafe { root.as_mut() };
        Ok(EventWriter { events })
    }
}

// SAFETY: registers a read of the `Events<E>` resource and only reads it;
// the reader's registration is an atomic in the state this system owns.
unsafe impl<E: Send + Sync + 'static> SystemParam for EventReader<'_, E> {
    const DEFERS: bool = false;

    type State = EventCursor<E>;
    type Item<'w> = EventReader<'w, E>;

    fn init(access: &mut SystemAccess) -> EventCursor<E> {
        access.add_resource::<Events<E>>(type_name::<Self>(), AccessMode::Read);
        EventCursor::new()
    }

    fn prepare(cursor: &mut EventCursor<E>, world: &mut World) {
        world.init_events::<E>().register(cursor);
    }

    #[inline]
    unsafe fn fetch<'w>(
        cursor: &'w mut EventCursor<E>,
        world: SystemWorld<'w>,
    ) -> Result<EventReader<'w, E>, Error> {
        let events = world
            .view()
            .resource::<Events<E>>()
            .ok_or_else(Error::missing_resource::<Events<E>>)?;
        cursor.begin_run(events);
        Ok(EventReader { cursor, events })
    }

    /// An observer's reader holds nothing back between runs (see the
    /// [`event`](crate::event) module): it defers nothing, and lets go of its
    /// registration.
    fn defer(cursor: &mut EventCursor<E>, _: &mut CommandQueue) {
        cursor.release();
    }
}
