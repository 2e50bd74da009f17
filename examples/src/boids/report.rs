//! The table printed at the end of a run.

use core::fmt;
use std::time::Duration;

use ecs_core::schedule::SystemStats;

use super::FlockStats;

/// How a run went: frame times, where they went, and what is left alive.
#[derive(Clone, Debug)]
pub struct Report {
    /// What ran: boids, search, threads, seed.
    pub title: String,
    /// Every frame's time, in order: the schedule's run, pictures excluded.
    pub frame_times: Vec<Duration>,
    /// The schedule's per-system timing.
    pub systems: Vec<SystemStats>,
    /// Entities alive at the end.
    pub entities: usize,
    /// The flock at the end.
    pub flock: FlockStats,
}

impl Report {
    /// The mean frame time; zero for no frames.
    pub fn mean(&self) -> Duration {
        let n = u32::try_from(self.frame_times.len()).unwrap_or(u32::MAX);
        if n == 0 {
            return Duration::ZERO;
        }
        self.frame_times.iter().sum::<Duration>() / n
    }

    /// The frame time that 99% of frames stay within (nearest rank).
    ///
    /// ```
    /// use std::time::Duration;
    /// use examples::boids::{FlockStats, Report};
    ///
    /// let report = Report {
    ///     title: String::new(),
    ///     frame_times: (1..=200).map(Duration::from_millis).collect(),
    ///     systems: Vec::new(),
    ///     entities: 0,
    ///     flock: FlockStats::default(),
    /// };
    /// assert_eq!(report.p99(), Duration::from_millis(198));
    /// ```
    pub fn p99(&self) -> Duration {
        let mut sorted = self.frame_times.clone();
        sorted.sort_unstable();
        let rank = (sorted.len() * 99).div_ceil(100);
        sorted
            .get(rank.saturating_sub(1))
            .copied()
            .unwrap_or_default()
    }
}

fn ms(d: Duration) -> String {
    format!("{:.3} ms", d.as_secs_f64() * 1e3)
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "{}", self.title)?;
        writeln!(f, "  frames           {}", self.frame_times.len())?;
        writeln!(f, "  frame time mean  {}", ms(self.mean()))?;
        writeln!(f, "  frame time p99   {}", ms(self.p99()))?;
        writeln!(f, "  entities alive   {}", self.entities)?;
        writeln!(f, "  flock            {}", self.flock)?;
        writeln!(f)?;
        let name_width = self
            .systems
            .iter()
            .map(|s| s.name.len())
            .max()
            .unwrap_or(0)
            .max("system".len());
        writeln!(
            f,
            "  {:name_width$}  {:10}  {:>11}  {:>11}  {:>6}",
            "system", "stage", "mean", "last", "runs"
        )?;
        for s in &self.systems {
            writeln!(
                f,
                "  {:name_width$}  {:10}  {:>11}  {:>11}  {:>6}",
                s.name,
                s.stage.to_string(),
                ms(s.mean),
                ms(s.last),
                s.runs
            )?;
        }
        Ok(())
    }
}
