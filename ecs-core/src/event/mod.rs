//! Events: values sent by one part of a game and read by others, each reader
//! seeing each event once, in send order.
//!
//! [`Events<E>`] is the store of one event type: a queue of the events not
//! dropped yet, numbered in send order, and the registrations of the readers
//! that hold events back. It lives in the world as a resource, created on
//! first use ([`World::send`](crate::World::send), or a schedule with an
//! [`EventReader`](crate::system::EventReader) or
//! [`EventWriter`](crate::system::EventWriter) of the type). An
//! [`EventCursor<E>`] is one reader's position in it.
//!
//! # How long an event lives
//!
//! Time is counted in frames. A frame ends at each
//! [`World::update_events`](crate::World::update_events), which
//! [`Schedule::run`](crate::Schedule::run) calls once, as its last step, so
//! a frame is one schedule run plus whatever was sent since the previous run
//! ended. An event sent during frame `k` is dropped at the end of the first
//! frame `j > k` by which every reader registered when it was sent has
//! *started a run after it was sent* (a run starts when the reader's system
//! fetches its params). It therefore lives through its own frame and the
//! next one at least (two frames), and longer while a reader has not run
//! since it was sent: a reader in a schedule that runs less often than the
//! one ending frames still sees every event.
//!
//! A reader is registered when its schedule prepares it, at the start of the
//! first run after the system was added; it starts at the first event of
//! that frame (events sent by `world.send` since the previous run included),
//! never at older ones. Removing the system (or dropping its schedule) ends
//! its registration. A reader that reads every run therefore sees every event
//! exactly once; one that skips reading on a run may find the events it
//! skipped dropped by its next.
//!
//! An observer's reader is registered only while its observer runs: an
//! observer runs when a component arrives or leaves, at no set time, and
//! one that stops firing must not keep every later event. For the frames
//! between its runs it holds nothing back, as a cursor outside any schedule:
//! it sees each event still stored when it runs (those of the last two
//! frames at least) once.

use core::fmt;
use core::iter::FusedIterator;
use core::marker::PhantomData;
use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::resource::Resources;
use crate::util::ShortName;

/// Numbers stores apart, so a cursor notices a store it was not registered with.
static NEXT_STORE_ID: AtomicU64 = AtomicU64::new(1);

/// The events of type `E` a world holds: every event not dropped yet, oldest
/// first. Sending one is a push; readers borrow them, never clone them.
///
/// A world makes its one `Events<E>` on first use; read it outside systems
/// with [`World::events`](crate::World::events). The [module
/// docs](crate::event) give the rule for how long an event lives.
///
/// ```
/// use ecs_core::prelude::*;
///
/// struct Hit(u32);
///
/// let mut world = World::new();
/// world.send(Hit(1));
/// world.send(Hit(2));
/// let events = world.events::<Hit>().unwrap();
/// assert_eq!(events.len(), 2);
/// assert_eq!(events.iter().map(|h| h.0).collect::<Vec<_>>(), [1, 2]);
/// ```
pub struct Events<E> {
    /// The events not dropped yet, oldest first; the first is number `start`.
    queue: VecDeque<E>,
    /// The number of the oldest stored event.
    start: u64,
    /// The number of the first event sent in the current frame.
    frame_start: u64,
    /// Per registered reader, the number of the first event sent after its
    /// latest run started. A reader writes only its own; the store reads
    /// them when a frame ends, with the world to itself.
    readers: Vec<Arc<AtomicU64>>,
    /// Tells this store apart from every other.
    id: u64,
    /// How many frames have ended.
    frames: u64,
}

impl<E> Events<E> {
    /// An empty store, at frame 0.
    pub(crate) fn new() -> Self {
        Self {
            queue: VecDeque::new(),
            start: 0,
            frame_start: 0,
            readers: Vec::new(),
            id: NEXT_STORE_ID.fetch_add(1, Ordering::Relaxed),
            frames: 0,
        }
    }

    /// The number the next event sent will get.
    #[inline]
    fn end(&self) -> u64 {
        self.start + self.queue.len() as u64
    }

    /// Stores `event`, last.
    #[inline]
    pub(crate) fn send(&mut self, event: E) {
        self.queue.push_back(event);
    }

    /// Stores every event of `events`, in order.
    pub(crate) fn send_batch(&mut self, events: impl IntoIterator<Item = E>) {
        self.queue.extend(events);
    }

    /// How many events are stored: those not dropped yet, read or not.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Ping;
    ///
    /// let mut world = World::new();
    /// world.send_batch([Ping, Ping]);
    /// assert_eq!(world.events::<Ping>().unwrap().len(), 2);
    /// ```
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// Whether no event is stored.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Ping;
    ///
    /// let mut world = World::new();
    /// world.send(Ping);
    /// world.update_events();
    /// world.update_events(); // two frames later, with no reader holding it
    /// assert!(world.events::<Ping>().unwrap().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Every stored event, oldest first, whoever has read it.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Score(u32);
    ///
    /// let mut world = World::new();
    /// world.send_batch([Score(3), Score(4)]);
    /// let total: u32 = world.events::<Score>().unwrap().iter().map(|s| s.0).sum();
    /// assert_eq!(total, 7);
    /// ```
    pub fn iter(&self) -> impl DoubleEndedIterator<Item = &E> + ExactSizeIterator + '_ {
        self.queue.iter()
    }

    /// How many frames of this store have ended.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Ping;
    ///
    /// let mut world = World::new();
    /// world.send(Ping);
    /// world.update_events();
    /// assert_eq!(world.events::<Ping>().unwrap().frames(), 1);
    /// ```
    pub fn frames(&self) -> u64 {
        self.frames
    }

    /// How many readers hold events back: the registered readers whose
    /// systems are still in a schedule (as of the last frame end).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// struct Ping;
    ///
    /// let mut world = World::new();
    /// world.send(Ping);
    /// assert_eq!(world.events::<Ping>().unwrap().readers(), 0);
    /// ```
    pub fn readers(&self) -> usize {
        self.readers.len()
    }

    /// Ends a frame: drops the events sent before the frame that is ending
    /// that every registered reader has started a run past, and forgets the
    /// readers whose systems are gone.
    pub(crate) fn update(&mut self) {
        // Each cursor dropped (its system removed) leaves only this copy.
        self.readers.retain(|slot| Arc::strong_count(slot) > 1);
        // The readers ran on other threads; the schedule's join ordered
        // their writes before this `&mut self`.
        let ran_past = self
            .readers
            .iter()
            .map(|slot| slot.load(Ordering::Relaxed))
            .min()
            .unwrap_or(u64::MAX);
        let limit = ran_past.min(self.frame_start).clamp(self.start, self.end());
        let dropped = (limit - self.start) as usize;
        self.queue.drain(..dropped);
        self.start = limit;
        self.frame_start = self.end();
        self.frames += 1;
    }

    /// Registers `cursor` as a reader of this store, starting at the first
    /// event of the current frame, unless it already is one.
    pub(crate) fn register(&mut self, cursor: &mut EventCursor<E>) {
        if cursor.store != self.id {
            cursor.next = self.frame_start;
            cursor.store = self.id;
        } else if cursor.slot.is_some() {
            return;
        }
        // Until its first run, the reader holds back what it has not read.
        let slot = Arc::new(AtomicU64::new(cursor.from(self)));
        self.readers.push(Arc::clone(&slot));
        cursor.slot = Some(slot);
    }
}

impl<E> fmt::Debug for Events<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Events")
            .field("len", &self.queue.len())
            .field("first", &self.start)
            .field("readers", &self.readers.len())
            .field("frames", &self.frames)
            .finish()
    }
}

/// One reader's position in an [`Events<E>`]: which events it has read.
///
/// Every [`EventReader`](crate::system::EventReader) keeps one, registered
/// with its world's store. Made with [`new`](Self::new), it reads by hand
/// outside systems: it starts at the oldest stored event and, not being
/// registered, holds nothing back (events live two frames for it).
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::event::EventCursor;
///
/// struct Hit(u32);
///
/// let mut world = World::new();
/// let mut cursor = EventCursor::<Hit>::new();
/// world.send(Hit(1));
/// let events = world.events::<Hit>().unwrap();
/// assert_eq!(cursor.read(events).map(|h| h.0).collect::<Vec<_>>(), [1]);
/// assert_eq!(cursor.read(events).count(), 0, "each event once");
/// world.send(Hit(2));
/// let events = world.events::<Hit>().unwrap();
/// assert_eq!(cursor.len(events), 1);
/// ```
pub struct EventCursor<E> {
    /// The number of the next event to read.
    next: u64,
    /// The store `next` counts in (0: none yet).
    store: u64,
    /// The registration the store reads, for a reader of a schedule.
    slot: Option<Arc<AtomicU64>>,
    _event: PhantomData<fn() -> E>,
}

impl<E> Default for EventCursor<E> {
    fn default() -> Self {
        Self::new()
    }
}

impl<E> fmt::Debug for EventCursor<E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EventCursor")
            .field("next", &self.next)
            .field("registered", &self.slot.is_some())
            .finish()
    }
}

impl<E> EventCursor<E> {
    /// A cursor at the oldest stored event, registered with no store.
    ///
    /// ```
    /// # use ecs_core::event::EventCursor;
    /// struct Hit;
    /// let cursor = EventCursor::<Hit>::new();
    /// # let _ = cursor;
    /// ```
    pub const fn new() -> Self {
        Self {
            next: 0,
            store: 0,
            slot: None,
            _event: PhantomData,
        }
    }

    /// Where reading starts in `events`: the next unread event, or the
    /// oldest stored one if the unread ones were dropped.
    #[inline]
    fn from(&self, events: &Events<E>) -> u64 {
        self.next.clamp(events.start, events.end())
    }

    /// The unread events of `events`, oldest first; each one the iterator
    /// yields counts as read.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # use ecs_core::event::EventCursor;
    /// struct Hit(u32);
    ///
    /// let mut world = World::new();
    /// world.send_batch([Hit(1), Hit(2), Hit(3)]);
    /// let events = world.events::<Hit>().unwrap();
    /// let mut cursor = EventCursor::new();
    /// assert_eq!(cursor.read(events).next().map(|h| h.0), Some(1));
    /// let rest: Vec<u32> = cursor.read(events).map(|h| h.0).collect();
    /// assert_eq!(rest, [2, 3], "an event the iterator did not yield stays unread");
    /// ```
    pub fn read<'a>(&'a mut self, events: &'a Events<E>) -> EventIter<'a, E> {
        let from = self.from(events);
        self.next = from;
        let skip = (from - events.start) as usize;
        EventIter {
            events: events.queue.range(skip..),
            next: &mut self.next,
        }
    }

    /// How many events of `events` are unread.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # use ecs_core::event::EventCursor;
    /// struct Hit;
    ///
    /// let mut world = World::new();
    /// world.send(Hit);
    /// let cursor = EventCursor::new();
    /// assert_eq!(cursor.len(world.events::<Hit>().unwrap()), 1);
    /// ```
    pub fn len(&self, events: &Events<E>) -> usize {
        (events.end() - self.from(events)) as usize
    }

    /// Whether every event of `events` is read.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # use ecs_core::event::EventCursor;
    /// struct Hit;
    ///
    /// let mut world = World::new();
    /// world.send(Hit);
    /// let mut cursor = EventCursor::new();
    /// let events = world.events::<Hit>().unwrap();
    /// assert!(!cursor.is_empty(events));
    /// cursor.clear(events);
    /// assert!(cursor.is_empty(events));
    /// ```
    pub fn is_empty(&self, events: &Events<E>) -> bool {
        self.len(events) == 0
    }

    /// Marks every event of `events` read, without looking at them.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// # use ecs_core::event::EventCursor;
    /// struct Hit;
    ///
    /// let mut world = World::new();
    /// world.send(Hit);
    /// let mut cursor = EventCursor::new();
    /// cursor.clear(world.events::<Hit>().unwrap());
    /// world.send(Hit);
    /// assert_eq!(cursor.read(world.events::<Hit>().unwrap()).count(), 1);
    /// ```
    pub fn clear(&mut self, events: &Events<E>) {
        self.next = events.end();
    }

    /// Ends the cursor's registration: from the next frame end on, it holds
    /// nothing back, as a cursor outside any schedule. An observer's reader
    /// lets go after each run, for an observer runs at no set time and may
    /// never run again.
    pub(crate) fn release(&mut self) {
        // The store forgets a registration once it holds the only copy.
        self.slot = None;
    }

    /// Begins a run of the reader's system: a cursor of another store
    /// starts at its current frame, and the registration records that this
    /// run started after every event stored now.
    ///
    /// Takes `&self` of the store: readers of one type run at once, each
    /// writing only its own registration.
    #[inline]
    pub(crate) fn begin_run(&mut self, events: &Events<E>) {
        if self.store != events.id {
            // Prepared for another store (or not at all): start at this
            // one's current frame, as a new reader would.
            self.next = events.frame_start;
            self.store = events.id;
            self.slot = None;
        }
        if let Some(slot) = &self.slot {
            slot.store(events.end(), Ordering::Relaxed);
        }
    }
}

/// The unread events of a reader, oldest first: what
/// [`EventReader::read`](crate::system::EventReader::read) and
/// [`EventCursor::read`] return. Each event it yields counts as read.
///
/// ```
/// # use ecs_core::prelude::*;
/// # use ecs_core::event::{EventCursor, EventIter};
/// struct Hit(u32);
///
/// let mut world = World::new();
/// world.send_batch([Hit(1), Hit(2)]);
/// let mut cursor = EventCursor::new();
/// let events = world.events::<Hit>().unwrap();
/// let iter: EventIter<'_, Hit> = cursor.read(events);
/// assert_eq!(iter.len(), 2);
/// ```
pub struct EventIter<'a, E> {
    events: std::collections::vec_deque::Iter<'a, E>,
    next: &'a mut u64,
}

impl<'a, E> Iterator for EventIter<'a, E> {
    type Item = &'a E;

    #[inline]
    fn next(&mut self) -> Option<&'a E> {
        let event = self.events.next()?;
        *self.next += 1;
        Some(event)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        self.events.size_hint()
    }
}

impl<E> ExactSizeIterator for EventIter<'_, E> {}

impl<E> FusedIterator for EventIter<'_, E> {}

impl<E> fmt::Debug for EventIter<'_, E> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EventIter")
            .field("unread", &self.events.len())
            .finish()
    }
}

/// Ends a frame of one event type's store, if the resources hold it.
type UpdateFn = fn(&mut Resources);

/// Describes one event type's store, if the resources hold it.
type DescribeFn = fn(&Resources) -> Option<EventType>;

/// What the registry keeps per event type.
#[derive(Clone, Copy)]
struct Registered {
    /// The `TypeId` of the store, `Events<E>`, as the resources key it.
    type_id: core::any::TypeId,
    update: UpdateFn,
    describe: DescribeFn,
}

/// Per event type a world has a store of, how to end a frame of it.
#[derive(Default)]
pub(crate) struct EventRegistry {
    registered: Vec<Registered>,
}

impl EventRegistry {
    /// Remembers to end frames of `Events<E>`, once per type.
    pub(crate) fn register<E: Send + Sync + 'static>(&mut self) {
        let type_id = core::any::TypeId::of::<Events<E>>();
        if !self.knows(type_id) {
            self.registered.push(Registered {
                type_id,
                update: update::<E>,
                describe: describe::<E>,
            });
        }
    }

    fn knows(&self, type_id: core::any::TypeId) -> bool {
        self.registered.iter().any(|r| r.type_id == type_id)
    }

    /// Remembers to end frames of the stores `other` knows whose types are
    /// in `adopted` (the resources a merge moved here).
    pub(crate) fn adopt(&mut self, other: &EventRegistry, adopted: &[core::any::TypeId]) {
        for registered in &other.registered {
            if adopted.contains(&registered.type_id) && !self.knows(registered.type_id) {
                self.registered.push(*registered);
            }
        }
    }

    /// Ends a frame of every store in `resources`.
    pub(crate) fn update_all(&self, resources: &mut Resources) {
        for registered in &self.registered {
            (registered.update)(resources);
        }
    }

    /// Every registered event type whose store `resources` hold, in
    /// registration order.
    pub(crate) fn describe(&self, resources: &Resources) -> Vec<EventType> {
        self.registered
            .iter()
            .filter_map(|registered| (registered.describe)(resources))
            .collect()
    }
}

/// Ends a frame of the `Events<E>` in `resources`, if it is still there.
fn update<E: Send + Sync + 'static>(resources: &mut Resources) {
    if let Some(events) = resources.get_mut::<Events<E>>() {
        events.update();
    }
}

/// The `Events<E>` in `resources`, described, if it is still there.
fn describe<E: Send + Sync + 'static>(resources: &Resources) -> Option<EventType> {
    let events = resources.get::<Events<E>>()?;
    let type_name = core::any::type_name::<E>();
    Some(EventType {
        name: ShortName(type_name).to_string(),
        type_name,
        queued: events.len(),
    })
}

/// One event type of a world, from
/// [`World::event_types`](crate::World::event_types).
///
/// ```
/// use ecs_core::prelude::*;
///
/// struct Ping;
///
/// let mut world = World::new();
/// world.send(Ping);
/// let ping = &world.event_types()[0];
/// assert_eq!((ping.name.as_str(), ping.queued), ("Ping", 1));
/// assert!(ping.type_name.ends_with("::Ping"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct EventType {
    /// The event type's name without module paths.
    pub name: String,
    /// Its full name, as `std::any::type_name` gives it.
    pub type_name: &'static str,
    /// Events in the store now: sent this frame or the one before and not
    /// dropped yet.
    pub queued: usize,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(cursor: &mut EventCursor<u32>, events: &Events<u32>) -> Vec<u32> {
        cursor.read(events).copied().collect()
    }

    #[test]
    fn unread_events_live_two_frames() {
        let mut events = Events::new();
        events.send(1);
        events.update();
        assert_eq!(events.len(), 1);
        events.send(2);
        events.update();
        assert_eq!(events.iter().copied().collect::<Vec<_>>(), [2]);
        events.update();
        assert!(events.is_empty());
        let mut late = EventCursor::new();
        events.send(3);
        assert_eq!(numbers(&mut late, &events), [3]);
    }

    #[test]
    fn a_registered_reader_holds_events_until_it_runs_past_them() {
        let mut events = Events::new();
        let mut reader = EventCursor::new();
        events.register(&mut reader);
        events.send(1);
        for _ in 0..5 {
            events.update();
        }
        assert_eq!(events.len(), 1, "the reader has not run since");
        reader.begin_run(&events);
        assert_eq!(numbers(&mut reader, &events), [1]);
        events.update();
        assert!(events.is_empty());
        drop(reader);
        events.send(2);
        events.update();
        events.update();
        assert!(events.is_empty() && events.readers() == 0);
    }

    #[test]
    fn a_new_reader_starts_at_the_current_frame() {
        let mut events = Events::new();
        events.send(1);
        events.update();
        events.send(2);
        let mut reader = EventCursor::new();
        events.register(&mut reader);
        reader.begin_run(&events);
        assert_eq!(numbers(&mut reader, &events), [2]);
    }
}
