//! Per-system timing: what `schedule.stats()` reports.

use core::fmt;
use core::time::Duration;

use super::Stage;

/// A reading of the cheapest monotonic counter at hand: the time-stamp
/// counter on x86-64 (about 10 ns to read, where `Instant::now` can cost
/// 50 ns in a virtual machine, which would double the cost of a small
/// system), elsewhere (and under miri, which cannot run `rdtsc`)
/// nanoseconds since the first reading.
#[inline(always)]
pub(crate) fn ticks() -> u64 {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        // SAFETY: `rdtsc` exists on every x86-64 processor and only reads a counter.
        unsafe { core::arch::x86_64::_rdtsc() }
    }
    #[cfg(any(not(target_arch = "x86_64"), miri))]
    {
        static EPOCH: std::sync::OnceLock<std::time::Instant> = std::sync::OnceLock::new();
        let epoch = *EPOCH.get_or_init(std::time::Instant::now);
        u64::try_from(epoch.elapsed().as_nanos()).unwrap_or(u64::MAX)
    }
}

/// Converts ticks to time: every frame is timed both ways, and the ratio of
/// the sums calibrates every system's ticks.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Calibration {
    nanos: u128,
    ticks: u128,
}

impl Calibration {
    pub(crate) fn add(&mut self, took: Duration, ticks: u64) {
        self.nanos += took.as_nanos();
        self.ticks += u128::from(ticks);
    }

    /// How many ticks `duration` takes, once a frame has been timed.
    pub(crate) fn ticks_for(&self, duration: Duration) -> Option<u64> {
        if self.nanos == 0 {
            return None;
        }
        let ticks = duration.as_nanos() * self.ticks / self.nanos;
        Some(u64::try_from(ticks).unwrap_or(u64::MAX))
    }

    pub(crate) fn duration(&self, ticks: u64) -> Duration {
        if self.ticks == 0 {
            return Duration::ZERO;
        }
        let nanos = u128::from(ticks) * self.nanos / self.ticks;
        Duration::from_nanos(u64::try_from(nanos).unwrap_or(u64::MAX))
    }
}

/// Run times of one system in ticks, kept by its schedule.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Timing {
    /// The ticks of the last timed run.
    pub(crate) last: u64,
    /// The ticks of every timed run, summed.
    pub(crate) total: u64,
    /// Every time the executor called the system, skipped runs included.
    pub(crate) runs: u64,
    /// The calls that were timed: every one on another thread or exclusive,
    /// and, on the calling thread, those of one frame in [`TIMED_EVERY`](crate::tuning::TIMED_EVERY).
    pub(crate) timed: u64,
    /// The calls a run condition (or a `Single` finding no one entity) skipped.
    pub(crate) skipped: u64,
    /// The runs that returned an `Err`.
    pub(crate) failed: u64,
}

impl Timing {
    #[inline]
    pub(crate) fn record(&mut self, ticks: u64) {
        self.last = ticks;
        self.total = self.total.saturating_add(ticks);
        self.runs += 1;
        self.timed += 1;
    }

    /// Counts a call that was not timed.
    #[inline]
    pub(crate) fn count(&mut self) {
        self.runs += 1;
    }
}

/// How one system of a schedule has run: its name, stage, last and mean run
/// time, and how many times it ran.
///
/// ```
/// use ecs_core::prelude::*;
///
/// fn tick() {}
///
/// let mut world = World::new();
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, tick)?;
/// schedule.run(&mut world)?;
/// let stats = schedule.stats();
/// assert_eq!((stats[0].name.as_str(), stats[0].runs), ("tick", 1));
/// assert_eq!(stats[0].stage, Stage::Update);
/// assert_eq!(stats[0].mean, stats[0].last, "after one run, its time is the mean");
/// schedule.run(&mut world)?;
/// assert_eq!(schedule.stats()[0].runs, 2);
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SystemStats {
    /// The system's name.
    pub name: String,
    /// Its stage.
    pub stage: Stage,
    /// Its stage's name as shown: a state stage's with its value
    /// (`OnEnter(GameState::Playing)`).
    pub stage_label: String,
    /// How long its last timed run took (see [`TIMED_EVERY`](crate::tuning::TIMED_EVERY): a system
    /// run on the calling thread is timed one frame in that many, the first
    /// frame included).
    pub last: Duration,
    /// Its mean run time over its timed runs.
    pub mean: Duration,
    /// How many times it ran.
    pub runs: u64,
    /// How many times its frame came and it did not run: a run condition
    /// said no, or a [`Single`](crate::system::Single) param did not find
    /// exactly one entity.
    pub skipped: u64,
    /// How many of its runs returned an `Err` (each handed to the
    /// schedule's error handler).
    pub failed: u64,
}

impl SystemStats {
    pub(crate) fn new(
        name: &str,
        stage: &Stage,
        stage_label: &str,
        timing: Timing,
        clock: &Calibration,
    ) -> Self {
        Self {
            name: name.to_owned(),
            stage: *stage,
            stage_label: stage_label.to_owned(),
            last: clock.duration(timing.last),
            mean: clock.duration(timing.total / timing.timed.max(1)),
            runs: timing.runs - timing.skipped,
            skipped: timing.skipped,
            failed: timing.failed,
        }
    }
}

impl fmt::Display for SystemStats {
    /// One line: `Update/movement: 12 runs, last 1.2ms, mean 1.1ms`, with
    /// `, 3 skipped` when a condition skipped some.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}: {} runs, last {:?}, mean {:?}",
            self.stage_label, self.name, self.runs, self.last, self.mean
        )?;
        if self.skipped > 0 {
            write!(f, ", {} skipped", self.skipped)?;
        }
        if self.failed > 0 {
            write!(f, ", {} failed", self.failed)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::prelude::*;

    use crate::tuning::TIMED_EVERY;

    fn idle() {}

    #[test]
    fn inline_systems_are_timed_one_frame_in_timed_every_and_counted_every_frame() {
        let mut world = World::new();
        let mut schedule = Schedule::single_threaded();
        schedule.add_system(Stage::Update, idle).expect("new");
        let frames = 2 * TIMED_EVERY + 3;
        for _ in 0..frames {
            schedule.run(&mut world).expect("runs");
        }
        let timing = schedule
            .all_stages()
            .flat_map(|stage| &stage.systems)
            .map(|slot| slot.timing)
            .next()
            .expect("one system");
        assert_eq!(timing.runs, frames);
        assert_eq!(
            timing.timed,
            3,
            "frames 0, {TIMED_EVERY} and {}",
            2 * TIMED_EVERY
        );
        assert_eq!(schedule.stats()[0].runs, frames);
    }
}
