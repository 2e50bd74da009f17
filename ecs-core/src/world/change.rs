//! The world's change counter: `change_tick`, and moving it by hand in tests.

use crate::change::Tick;

use super::World;

impl World {
    /// The newest change tick the world has handed out: everything written
    /// so far has this tick or an older one, everything written later a
    /// newer one.
    ///
    /// Keep it to ask later what changed since: a query's
    /// [`changed_since`](crate::Query::changed_since) makes its
    /// [`Added`](crate::query::Added) and [`Changed`](crate::query::Changed)
    /// filters compare against it. Inside systems this is done for you:
    /// each system compares against its own last run.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component)]
    /// #[component(track_changes)]
    /// struct Health(i32);
    ///
    /// let mut world = World::new();
    /// let old = world.spawn(Health(1));
    /// let since = world.change_tick();
    /// let new = world.spawn(Health(2));
    /// let added = world.query_filtered::<Entity, Added<Health>>().changed_since(since);
    /// assert_eq!(added.iter().collect::<Vec<_>>(), [new]);
    /// # let _ = old;
    /// ```
    #[inline]
    pub fn change_tick(&self) -> Tick {
        Tick::new(self.data.clock.current())
    }

    /// Moves the change counter forward to `tick`, for tests of what happens
    /// near the end of the counter's range.
    ///
    /// # Panics
    /// If `tick` is older than [`change_tick`](Self::change_tick): values
    /// stamped since would look newer than later writes.
    ///
    /// ```
    /// use ecs_core::change::Tick;
    /// use ecs_core::prelude::*;
    ///
    /// let mut world = World::new();
    /// world.set_change_tick(Tick::new(u64::MAX - 10));
    /// assert_eq!(world.change_tick().get(), u64::MAX - 10);
    /// ```
    #[doc(hidden)]
    pub fn set_change_tick(&mut self, tick: Tick) {
        self.data.clock.set(tick.get());
    }

    /// Hands out a new tick through a shared borrow: one per system run,
    /// while the systems of a batch share the world.
    #[inline]
    pub(crate) fn advance_change_tick(&self) -> u64 {
        self.data.clock.advance_shared()
    }

    /// Hands out a new tick through a shared borrow, for systems run one
    /// after another on the thread that holds the world exclusively: no
    /// other thread advances the clock meanwhile, so no locked instruction
    /// is needed.
    #[inline]
    pub(crate) fn advance_change_tick_alone(&self) -> u64 {
        self.data.clock.advance_alone()
    }
}
