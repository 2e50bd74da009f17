//! Pausing the flock: a `Paused` state entered and left at given frames
//! (`--pause-at N`, `--resume-at M`), and the fixed clock the flock moves by.

use core::time::Duration;

use ecs_core::prelude::*;

/// How long one fixed step of the flock lasts: the demo runs at 60 steps a
/// second, and a boid's velocity is the distance it covers in one step.
pub const STEP: Duration = Duration::from_nanos(1_000_000_000 / 60);

/// Whether the flock moves. Every flocking system runs only while
/// `Running`; the frame still runs (and counts) while `Paused`.
#[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum SimState {
    /// The flock moves.
    #[default]
    Running,
    /// The flock holds still.
    Paused,
}

/// The frames at which the flock pauses and resumes, and the frames so far.
///
/// ```
/// use examples::boids::{Config, SimState, Simulation};
/// use ecs_core::prelude::*;
///
/// let config = Config { pause_at: Some(2), resume_at: Some(4), ..Config::new(50, 1) };
/// let mut sim = Simulation::new(&config)?;
/// let mut states = Vec::new();
/// for _ in 0..5 {
///     sim.step()?;
///     states.push(**sim.world().resource::<State<SimState>>()?);
/// }
/// use SimState::*;
/// assert_eq!(states, [Running, Paused, Paused, Running, Running]);
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PausePlan {
    /// The frame (counted from 1) that starts paused.
    pub pause_at: Option<u64>,
    /// The first frame that moves again.
    pub resume_at: Option<u64>,
    /// The frames started so far.
    frame: u64,
}

impl PausePlan {
    /// A plan pausing at `pause_at` and resuming at `resume_at`.
    ///
    /// ```
    /// use examples::boids::PausePlan;
    /// assert_eq!(PausePlan::new(Some(3), None).pause_at, Some(3));
    /// ```
    pub fn new(pause_at: Option<u64>, resume_at: Option<u64>) -> Self {
        Self {
            pause_at,
            resume_at,
            frame: 0,
        }
    }
}

/// Counts the frame and asks for the state its plan gives it; runs in
/// `First`, so the switch applies this very frame (right after `PreUpdate`).
pub fn follow_pause_plan(mut plan: ResMut<PausePlan>, mut next: ResMut<NextState<SimState>>) {
    plan.frame += 1;
    if plan.pause_at == Some(plan.frame) {
        next.set(SimState::Paused);
    }
    if plan.resume_at == Some(plan.frame) {
        next.set(SimState::Running);
    }
}
