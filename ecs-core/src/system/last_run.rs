//! When a system last ran, in change ticks: what its `Added` and `Changed`
//! filters compare against.

use crate::change::RunTicks;

/// The tick of a system's last completed run, and what its first run sees.
///
/// A system's first run compares against tick 0 by default, so it sees every
/// tracked component added or changed before it as news; a system made with
/// [`IntoSystem::ignore_earlier_changes`](super::IntoSystem::ignore_earlier_changes)
/// starts from the tick of its first run instead, and sees nothing that
/// happened before it.
///
/// One word, read by every run: the tick of the last run, 0 before a first
/// run that sees earlier changes, or [`NOT_RUN`] before one that does not.
#[derive(Clone, Copy, Debug)]
pub(crate) struct LastRun(u64);

/// A system that has not run and ignores what happened before its first
/// run. No run takes this tick and goes on: the counter cannot advance past
/// it.
const NOT_RUN: u64 = u64::MAX;

impl LastRun {
    /// A system that has not run yet.
    pub(crate) fn new(sees_earlier_changes: bool) -> Self {
        Self(if sees_earlier_changes { 0 } else { NOT_RUN })
    }

    /// The ticks of a run that takes the tick `this_run`.
    #[inline]
    pub(crate) fn ticks(&self, this_run: u64) -> RunTicks {
        let last_run = if self.0 == NOT_RUN {
            // Every tick handed out before this one is older than the run.
            this_run - 1
        } else {
            self.0
        };
        RunTicks { last_run, this_run }
    }

    /// Records that the run at `this_run` completed.
    #[inline]
    pub(crate) fn ran(&mut self, this_run: u64) {
        self.0 = this_run;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_first_run_sees_everything_unless_told_otherwise_and_later_runs_see_since_the_last() {
        let mut all = LastRun::new(true);
        assert_eq!(all.ticks(5).last_run, 0);
        all.ran(5);
        assert_eq!(
            all.ticks(9),
            RunTicks {
                last_run: 5,
                this_run: 9
            }
        );

        let mut fresh = LastRun::new(false);
        assert_eq!(fresh.ticks(5).last_run, 4);
        fresh.ran(5);
        assert_eq!(fresh.ticks(9).last_run, 5);
    }
}
