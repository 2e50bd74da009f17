//! `--inspect ADDR`: the live inspector served beside the flock, and the
//! frame pacing that makes the run watchable.

use std::time::{Duration, Instant};

use ecs_inspector::Inspector;

use super::{BoxError, Simulation};

/// A frame's share of a second at 60 frames a second.
const FRAME: Duration = Duration::from_nanos(16_666_667);

/// The inspector, and when the next frame is due.
pub(crate) struct Inspecting {
    inspector: Inspector,
    next_frame: Instant,
}

impl Inspecting {
    /// Serves the inspector on `addr` (a loopback address) and prints the
    /// page's URL. The page may pause, step and resume the run and despawn
    /// entities: the demo is on this machine only.
    pub(crate) fn start(addr: &str) -> Result<Self, BoxError> {
        let inspector = Inspector::bind(addr)?.allow_writes();
        println!("inspector: {}", inspector.url());
        Ok(Self {
            inspector,
            next_frame: Instant::now(),
        })
    }

    /// Answers the page, then waits for the next frame's time.
    pub(crate) fn between_frames(&mut self, sim: &mut Simulation) {
        let (world, schedule) = sim.world_and_schedule();
        self.inspector.serve(world, schedule);
        self.next_frame += FRAME;
        let now = Instant::now();
        if self.next_frame > now {
            std::thread::sleep(self.next_frame - now);
        } else {
            // Behind (or held paused): start counting again from now.
            self.next_frame = now;
        }
    }
}
