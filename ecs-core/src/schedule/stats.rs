//! Per-system timing: what `schedule.stats()` reports.

use core::fmt;
use core::time::Duration;

use super::Stage;

/// Run times of one system, kept by its schedule.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Timing {
    pub(crate) last: Duration,
    pub(crate) total: Duration,
    pub(crate) runs: u64,
}

impl Timing {
    pub(crate) fn record(&mut self, took: Duration) {
        self.last = took;
        self.total += took;
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
/// schedule.run(&mut world)?;
/// let stats = schedule.stats();
/// assert_eq!((stats[0].name.as_str(), stats[0].runs), ("tick", 2));
/// assert_eq!(stats[0].stage, Stage::Update);
/// assert!(stats[0].mean <= stats[0].last * 2 + std::time::Duration::from_millis(1));
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct SystemStats {
    /// The system's name.
    pub name: String,
    /// Its stage.
    pub stage: Stage,
    /// How long its last run took.
    pub last: Duration,
    /// Its mean run time over every run.
    pub mean: Duration,
    /// How many times it ran.
    pub runs: u64,
}

impl SystemStats {
    pub(crate) fn new(name: &str, stage: &Stage, timing: Timing) -> Self {
        let runs = u32::try_from(timing.runs).unwrap_or(u32::MAX).max(1);
        Self {
            name: name.to_owned(),
            stage: stage.clone(),
            last: timing.last,
            mean: timing.total / runs,
            runs: timing.runs,
        }
    }
}

impl fmt::Display for SystemStats {
    /// One line: `Update/movement: 12 runs, last 1.2ms, mean 1.1ms`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}/{}: {} runs, last {:?}, mean {:?}",
            self.stage, self.name, self.runs, self.last, self.mean
        )
    }
}
