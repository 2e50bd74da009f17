//! The game clock: [`Time`], a resource the schedule advances once per frame,
//! with the fixed-step accumulator that `Stage::FixedUpdate` runs from.

use core::time::Duration;
use std::time::Instant;

/// How many fixed steps one frame runs at most unless told otherwise
/// ([`Time::set_max_steps`]): past it, whole steps are dropped.
pub const DEFAULT_MAX_STEPS: u32 = 8;

/// Where the clock's time comes from.
#[derive(Clone, Copy, Debug)]
enum Clock {
    /// The wall clock: each frame lasts from the previous frame's start.
    Real { last: Option<Instant> },
    /// Only what [`Time::advance_by`] added: tests and replays.
    Manual { pending: Duration },
}

/// The game clock, as a resource: the frame's delta, the time since the
/// first frame, and the fixed step `Stage::FixedUpdate` runs at.
///
/// A [`Schedule`](crate::Schedule) advances the world's `Time` at the start
/// of each [`run`](crate::Schedule::run) (and adds `Time::default()` first
/// when it has `FixedUpdate` systems and the world has no `Time`). The time
/// since the last frame goes into an accumulator; `FixedUpdate` then runs
/// once per whole step it holds, at most [`max_steps`](Self::max_steps)
/// times, and what is left is the [`overstep`](Self::overstep). Steps past
/// the cap are dropped and reported by [`dropped`](Self::dropped), so a slow
/// frame never starts a spiral of ever longer catch-ups.
///
/// While `FixedUpdate` runs, [`delta`](Self::delta) is the fixed step and
/// [`elapsed`](Self::elapsed) the fixed clock's time; everywhere else they
/// are the frame's.
///
/// The clock is the wall clock until [`advance_by`](Self::advance_by) is
/// called: from then on only what it adds passes, which makes frames
/// reproducible in tests and replays.
///
/// ```
/// use core::time::Duration;
/// use ecs_core::prelude::*;
///
/// #[derive(Default)]
/// struct Steps(u32);
/// fn physics(mut steps: ResMut<Steps>, time: Res<Time>) {
///     assert_eq!(time.delta(), Duration::from_millis(10));
///     steps.0 += 1;
/// }
///
/// let mut world = World::new();
/// world.init_resource::<Steps>();
/// world.insert_resource(Time::fixed_step(0.010));
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::FixedUpdate, physics)?;
/// world.resource_mut::<Time>()?.advance_by(Duration::from_millis(25));
/// schedule.run(&mut world)?;
/// assert_eq!(world.resource::<Steps>()?.0, 2, "two whole steps in 25 ms");
/// assert_eq!(world.resource::<Time>()?.overstep(), Duration::from_millis(5));
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Time {
    clock: Clock,
    delta: Duration,
    elapsed: Duration,
    step: Duration,
    overstep: Duration,
    fixed_elapsed: Duration,
    max_steps: u32,
    dropped: Duration,
    total_dropped: Duration,
    /// Whether `FixedUpdate` is running: `delta` and `elapsed` answer for
    /// the fixed clock.
    in_fixed_step: bool,
}

impl Default for Time {
    /// A wall clock with a fixed step of 1/64 s.
    fn default() -> Self {
        Self::fixed_step(1.0 / 64.0)
    }
}

impl Time {
    /// A wall clock whose `FixedUpdate` runs every `seconds`.
    ///
    /// # Panics
    /// If `seconds` is not a positive, finite number of seconds.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let time = Time::fixed_step(1.0 / 60.0);
    /// assert!((time.fixed_delta_secs() - 1.0 / 60.0).abs() < 1e-6);
    /// ```
    pub fn fixed_step(seconds: f64) -> Self {
        assert!(
            seconds.is_finite() && seconds > 0.0,
            "a fixed step must be a positive number of seconds, not {seconds}"
        );
        Self {
            clock: Clock::Real { last: None },
            delta: Duration::ZERO,
            elapsed: Duration::ZERO,
            step: Duration::from_secs_f64(seconds),
            overstep: Duration::ZERO,
            fixed_elapsed: Duration::ZERO,
            max_steps: DEFAULT_MAX_STEPS,
            dropped: Duration::ZERO,
            total_dropped: Duration::ZERO,
            in_fixed_step: false,
        }
    }

    /// Lets `by` pass before the next frame, and stops following the wall
    /// clock: from now on a frame lasts exactly what was added since the
    /// last one (zero if nothing was).
    ///
    /// ```
    /// use core::time::Duration;
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// world.insert_resource(Time::default());
    /// let mut schedule = Schedule::new();
    /// world.resource_mut::<Time>()?.advance_by(Duration::from_millis(16));
    /// schedule.run(&mut world)?;
    /// assert_eq!(world.resource::<Time>()?.delta(), Duration::from_millis(16));
    /// schedule.run(&mut world)?;
    /// assert_eq!(world.resource::<Time>()?.delta(), Duration::ZERO, "nothing added");
    /// assert_eq!(world.resource::<Time>()?.elapsed(), Duration::from_millis(16));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn advance_by(&mut self, by: Duration) {
        let pending = match self.clock {
            Clock::Manual { pending } => pending,
            Clock::Real { .. } => Duration::ZERO,
        };
        self.clock = Clock::Manual {
            pending: pending + by,
        };
    }

    /// Whether the clock is the manual one [`advance_by`](Self::advance_by) drives.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let mut time = Time::default();
    /// assert!(!time.is_manual());
    /// time.advance_by(core::time::Duration::ZERO);
    /// assert!(time.is_manual());
    /// ```
    pub fn is_manual(&self) -> bool {
        matches!(self.clock, Clock::Manual { .. })
    }

    /// The time this frame covers, or the fixed step inside `FixedUpdate`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// assert_eq!(Time::default().delta(), core::time::Duration::ZERO, "no frame yet");
    /// ```
    pub fn delta(&self) -> Duration {
        if self.in_fixed_step {
            self.step
        } else {
            self.delta
        }
    }

    /// [`delta`](Self::delta) in seconds.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// assert_eq!(Time::default().delta_secs(), 0.0);
    /// ```
    pub fn delta_secs(&self) -> f32 {
        self.delta().as_secs_f32()
    }

    /// The time since the first frame, or the fixed clock's time (whole
    /// steps run) inside `FixedUpdate`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// assert_eq!(Time::default().elapsed(), core::time::Duration::ZERO);
    /// ```
    pub fn elapsed(&self) -> Duration {
        if self.in_fixed_step {
            self.fixed_elapsed
        } else {
            self.elapsed
        }
    }

    /// [`elapsed`](Self::elapsed) in seconds.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// assert_eq!(Time::default().elapsed_secs(), 0.0);
    /// ```
    pub fn elapsed_secs(&self) -> f64 {
        self.elapsed().as_secs_f64()
    }

    /// The fixed step.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// assert_eq!(Time::fixed_step(0.5).fixed_delta(), core::time::Duration::from_millis(500));
    /// ```
    pub fn fixed_delta(&self) -> Duration {
        self.step
    }

    /// The fixed step in seconds.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// assert_eq!(Time::fixed_step(0.5).fixed_delta_secs(), 0.5);
    /// ```
    pub fn fixed_delta_secs(&self) -> f32 {
        self.step.as_secs_f32()
    }

    /// The time the accumulator holds short of a whole step: how far the
    /// frame is past the last fixed step (for interpolating what is drawn).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// assert_eq!(Time::default().overstep(), core::time::Duration::ZERO);
    /// ```
    pub fn overstep(&self) -> Duration {
        self.overstep
    }

    /// [`overstep`](Self::overstep) as a fraction of the fixed step, in `0.0..1.0`.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// assert_eq!(Time::default().overstep_fraction(), 0.0);
    /// ```
    pub fn overstep_fraction(&self) -> f64 {
        self.overstep.as_secs_f64() / self.step.as_secs_f64()
    }

    /// The most fixed steps one frame runs.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// assert_eq!(Time::default().max_steps(), ecs_core::time::DEFAULT_MAX_STEPS);
    /// ```
    pub fn max_steps(&self) -> u32 {
        self.max_steps
    }

    /// Sets the most fixed steps one frame runs; whole steps past it are
    /// dropped (see [`dropped`](Self::dropped)).
    ///
    /// ```
    /// use core::time::Duration;
    /// # use ecs_core::prelude::*;
    /// let mut world = World::new();
    /// let mut time = Time::fixed_step(0.010);
    /// time.set_max_steps(3);
    /// time.advance_by(Duration::from_millis(55));
    /// world.insert_resource(time);
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::FixedUpdate, || {})?;
    /// schedule.run(&mut world)?;
    /// let time = world.resource::<Time>()?;
    /// assert_eq!(time.dropped(), Duration::from_millis(20), "2 of 5 steps dropped");
    /// assert_eq!(time.overstep(), Duration::from_millis(5));
    /// # Ok::<(), Error>(())
    /// ```
    pub fn set_max_steps(&mut self, steps: u32) {
        self.max_steps = steps;
    }

    /// The time the last frame dropped from the accumulator because it held
    /// more than [`max_steps`](Self::max_steps) whole steps: zero unless the
    /// game fell behind.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// assert_eq!(Time::default().dropped(), core::time::Duration::ZERO);
    /// ```
    pub fn dropped(&self) -> Duration {
        self.dropped
    }

    /// The time dropped over every frame so far.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// assert_eq!(Time::default().total_dropped(), core::time::Duration::ZERO);
    /// ```
    pub fn total_dropped(&self) -> Duration {
        self.total_dropped
    }

    /// Starts a frame at `now`: moves the clock on and fills the
    /// accumulator. Returns how many fixed steps the frame runs.
    pub(crate) fn begin_frame(&mut self, now: Instant) -> u32 {
        self.in_fixed_step = false;
        self.delta = match &mut self.clock {
            Clock::Real { last } => {
                let delta = last.map_or(Duration::ZERO, |last| now.saturating_duration_since(last));
                *last = Some(now);
                delta
            }
            Clock::Manual { pending } => core::mem::take(pending),
        };
        self.elapsed += self.delta;
        self.overstep += self.delta;
        let whole = self.overstep.as_nanos() / self.step.as_nanos();
        let steps = whole.min(u128::from(self.max_steps));
        let dropped_steps = u32::try_from(whole - steps).unwrap_or(u32::MAX);
        self.dropped = self.step.saturating_mul(dropped_steps);
        self.overstep = self.overstep.saturating_sub(self.dropped);
        self.total_dropped += self.dropped;
        u32::try_from(steps).expect("capped by a u32")
    }

    /// Starts one fixed step: takes it from the accumulator and moves the
    /// fixed clock on; `delta` and `elapsed` answer for the fixed clock
    /// until [`end_fixed_steps`](Self::end_fixed_steps).
    pub(crate) fn begin_fixed_step(&mut self) {
        self.overstep = self.overstep.saturating_sub(self.step);
        self.fixed_elapsed += self.step;
        self.in_fixed_step = true;
    }

    /// Back to the frame's clock after the fixed steps.
    pub(crate) fn end_fixed_steps(&mut self) {
        self.in_fixed_step = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_accumulator_runs_whole_steps_and_keeps_the_rest() {
        let mut time = Time::fixed_step(0.010);
        let now = Instant::now();
        time.advance_by(Duration::from_millis(25));
        assert_eq!(time.begin_frame(now), 2);
        for _ in 0..2 {
            time.begin_fixed_step();
        }
        assert_eq!(time.delta(), Duration::from_millis(10));
        assert_eq!(time.elapsed(), Duration::from_millis(20));
        time.end_fixed_steps();
        assert_eq!(time.delta(), Duration::from_millis(25));
        assert_eq!(time.overstep(), Duration::from_millis(5));
        time.advance_by(Duration::from_millis(5));
        assert_eq!(time.begin_frame(now), 1, "5 + 5 ms make a step");
    }

    #[test]
    fn the_wall_clock_measures_from_the_last_frame() {
        let mut time = Time::fixed_step(1.0);
        let start = Instant::now();
        assert_eq!(time.begin_frame(start), 0);
        assert_eq!(time.delta(), Duration::ZERO, "the first frame has no past");
        time.begin_frame(start + Duration::from_millis(1500));
        assert_eq!(time.delta(), Duration::from_millis(1500));
        assert_eq!(time.overstep(), Duration::from_millis(1500));
    }

    #[test]
    fn steps_past_the_cap_are_dropped_and_reported() {
        let mut time = Time::fixed_step(0.010);
        time.set_max_steps(2);
        time.advance_by(Duration::from_millis(47));
        assert_eq!(time.begin_frame(Instant::now()), 2);
        assert_eq!(time.dropped(), Duration::from_millis(20));
        assert_eq!(time.overstep(), Duration::from_millis(27));
        time.advance_by(Duration::ZERO);
        time.begin_frame(Instant::now());
        assert_eq!(time.dropped(), Duration::ZERO);
        assert_eq!(time.total_dropped(), Duration::from_millis(20));
    }
}
