//! Ticks: the world's counter, and the pair of ticks one reader works with.

use core::fmt;
use core::sync::atomic::{AtomicU64, Ordering};

/// A point in a world's history of changes.
///
/// Ticks come from one 64-bit counter per world, which every system run and
/// every change made through the world advances by one. Tick 0 comes before
/// every change. A `u64` does not wrap in any real lifetime: a world that
/// advanced its counter once every nanosecond would need 584 years to use it
/// up. Should it ever reach the end, the world panics with a message rather
/// than wrap, so an old tick never reads as new.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// #[component(track_changes)]
/// struct Score(u32);
///
/// let mut world = World::new();
/// let before = world.change_tick();
/// world.spawn(Score(0));
/// assert!(world.change_tick() > before);
/// assert_eq!(ecs_core::change::Tick::ZERO.get(), 0);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Tick(u64);

impl Tick {
    /// The tick before every change: a query compared against it sees every
    /// tracked component as added and changed.
    ///
    /// ```
    /// use ecs_core::change::Tick;
    /// assert_eq!(Tick::ZERO, Tick::default());
    /// ```
    pub const ZERO: Tick = Tick(0);

    /// The tick as a number.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// let world = World::new();
    /// assert_eq!(world.change_tick().get(), 0, "a new world has made no change");
    /// ```
    #[inline]
    pub const fn get(self) -> u64 {
        self.0
    }

    /// The tick numbered `tick`; meant for ticks saved earlier with
    /// [`get`](Self::get).
    ///
    /// ```
    /// use ecs_core::change::Tick;
    /// assert_eq!(Tick::new(7).get(), 7);
    /// ```
    #[inline]
    pub const fn new(tick: u64) -> Tick {
        Tick(tick)
    }
}

impl fmt::Debug for Tick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Tick({})", self.0)
    }
}

/// The ticks one reader works with: changes newer than `last_run` are news
/// to it, and what it writes is stamped `this_run`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RunTicks {
    pub(crate) last_run: u64,
    pub(crate) this_run: u64,
}

/// A world's change counter: the newest tick handed out.
///
/// Advanced through `&mut` for changes made through the world, and
/// atomically through `&` by the schedule, whose systems of one batch each
/// take a tick while they share the world.
#[derive(Default)]
pub(crate) struct ChangeClock(AtomicU64);

/// Why the counter cannot move on.
const EXHAUSTED: &str = "the world's change tick reached u64::MAX and cannot advance without \
                         wrapping; counting one tick per nanosecond takes 584 years to get \
                         there, so the tick was set by hand (`World::set_change_tick`)";

impl ChangeClock {
    /// The newest tick handed out.
    #[inline]
    pub(crate) fn current(&self) -> u64 {
        self.0.load(Ordering::Relaxed)
    }

    /// Hands out the next tick.
    ///
    /// # Panics
    /// If the counter is at `u64::MAX`.
    #[inline]
    pub(crate) fn advance(&mut self) -> u64 {
        let tick = self.0.get_mut();
        *tick = tick.checked_add(1).expect(EXHAUSTED);
        *tick
    }

    /// Hands out the next tick through a shared borrow; every caller gets a
    /// tick of its own.
    ///
    /// # Panics
    /// If the counter is at `u64::MAX`.
    #[inline]
    pub(crate) fn advance_shared(&self) -> u64 {
        let previous = self
            .0
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |t| t.checked_add(1))
            .expect(EXHAUSTED);
        previous + 1
    }

    /// Hands out the next tick through a shared borrow, for a caller that
    /// knows no other thread advances the counter meanwhile (systems run one
    /// after another on the thread that holds the world): a plain read and
    /// write instead of [`advance_shared`](Self::advance_shared)'s locked
    /// instruction, which costs about as much as an empty system. Two racing
    /// callers could be handed one tick twice; nothing worse.
    ///
    /// # Panics
    /// If the counter is at `u64::MAX`.
    #[inline]
    pub(crate) fn advance_alone(&self) -> u64 {
        let tick = self
            .0
            .load(Ordering::Relaxed)
            .checked_add(1)
            .expect(EXHAUSTED);
        self.0.store(tick, Ordering::Relaxed);
        tick
    }

    /// Moves the counter to `tick`, which must not be behind it.
    ///
    /// # Panics
    /// If `tick` is older than the newest tick handed out: values stamped
    /// since would then look newer than later writes.
    pub(crate) fn set(&mut self, tick: u64) {
        let current = self.0.get_mut();
        assert!(
            tick >= *current,
            "the change tick can only move forward: it is {current}, and {tick} is older"
        );
        *current = tick;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_way_of_advancing_hands_out_each_tick_once() {
        let mut clock = ChangeClock::default();
        assert_eq!(clock.current(), 0);
        assert_eq!(clock.advance(), 1);
        assert_eq!(clock.advance_shared(), 2);
        assert_eq!(clock.advance_alone(), 3);
        assert_eq!(clock.advance(), 4);
        assert_eq!(clock.current(), 4);
    }

    #[test]
    #[should_panic(expected = "cannot advance without wrapping")]
    fn advancing_past_the_end_panics() {
        let mut clock = ChangeClock::default();
        clock.set(u64::MAX);
        clock.advance();
    }

    #[test]
    #[should_panic(expected = "cannot advance without wrapping")]
    fn advancing_past_the_end_through_a_shared_borrow_panics() {
        let mut clock = ChangeClock::default();
        clock.set(u64::MAX);
        clock.advance_shared();
    }

    #[test]
    #[should_panic(expected = "cannot advance without wrapping")]
    fn advancing_past_the_end_alone_panics() {
        let mut clock = ChangeClock::default();
        clock.set(u64::MAX);
        clock.advance_alone();
    }

    #[test]
    #[should_panic(expected = "can only move forward")]
    fn the_counter_never_moves_back() {
        let mut clock = ChangeClock::default();
        clock.set(10);
        clock.set(9);
    }
}
