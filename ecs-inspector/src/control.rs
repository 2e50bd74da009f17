//! Pause, step and resume: whether [`serve`](crate::Inspector::serve) holds
//! the game's next frame.

/// The game's pace as the page set it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Control {
    paused: bool,
    /// One frame granted while paused, not yet run.
    stepping: bool,
}

impl Control {
    /// Whether `serve` should wait for requests instead of returning.
    #[inline]
    pub(crate) fn holds(&self) -> bool {
        self.paused && !self.stepping
    }

    /// Called as `serve` starts: a granted step has run its frame.
    #[inline]
    pub(crate) fn frame_ran(&mut self) {
        self.stepping = false;
    }

    pub(crate) fn pause(&mut self) {
        self.paused = true;
    }

    pub(crate) fn resume(&mut self) {
        self.paused = false;
        self.stepping = false;
    }

    /// Grants one frame and pauses after it (pausing first, if running).
    pub(crate) fn step(&mut self) {
        self.paused = true;
        self.stepping = true;
    }

    pub(crate) fn is_paused(&self) -> bool {
        self.paused
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_step_releases_one_frame_then_holds_again() {
        let mut control = Control::default();
        assert!(!control.holds());
        control.pause();
        assert!(control.holds());
        control.step();
        assert!(!control.holds(), "the granted frame may run");
        control.frame_ran();
        assert!(control.holds(), "and the one after waits");
        control.resume();
        control.frame_ran();
        assert!(!control.holds() && !control.is_paused());
    }

    #[test]
    fn a_step_while_running_pauses_after_one_frame() {
        let mut control = Control::default();
        control.step();
        assert!(!control.holds());
        control.frame_ran();
        assert!(control.holds());
    }
}
