//! Frames of the boids demo's grid simulation (`examples::boids`), the very
//! code `cargo run --release -p examples --example boids` runs: what the
//! `boids` criterion bench and the compare binary's "Boids frame time"
//! section both time.
//!
//! One thread means what the demo's `--threads 1` means: the frame runs inside
//! a rayon pool of one thread, so the schedule runs its systems one by one
//! and every `par_for_each` stays on that thread. All cores is a pool of one
//! thread per available core.

use std::time::{Duration, Instant};

use examples::boids::{Config, Search, Simulation};
use rayon::{ThreadPool, ThreadPoolBuilder};

/// The flock sizes timed.
pub const SIZES: [usize; 3] = [5_000, 20_000, 100_000];

/// The seed every flock is laid out from, the demo's default.
pub const SEED: u64 = 1;

/// Frames run before any is timed. From a random start the boids gather
/// into flocks, and a crowded grid cell costs more than a sparse one: a
/// frame's time rises for the first few hundred frames (about 1.7x at 5,000
/// and 20,000 boids) and then levels off, up to the noise, around here. The
/// frames after that are the ones a running demo spends its time on.
pub const WARM_UP_FRAMES: u64 = 300;

/// How many threads a frame runs on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Threads {
    /// One thread, as `--threads 1`.
    One,
    /// One thread per available core, as the demo's default.
    AllCores,
}

impl Threads {
    /// Both, in report order.
    pub const BOTH: [Self; 2] = [Self::One, Self::AllCores];

    /// How many threads that is on this machine.
    pub fn count(self) -> usize {
        match self {
            Self::One => 1,
            Self::AllCores => std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }

    /// A short name for bench ids: `one_thread`, `all_cores`.
    pub fn name(self) -> &'static str {
        match self {
            Self::One => "one_thread",
            Self::AllCores => "all_cores",
        }
    }
}

/// A warmed-up flock of the grid version and a pool for each [`Threads`].
/// The flock is one simulation whichever pool runs it: a frame's result does
/// not depend on the threads, so both are timed on the same flock.
pub struct Flock {
    sim: Simulation,
    one: ThreadPool,
    all: ThreadPool,
}

impl Flock {
    /// `boids` boids from [`SEED`] with the grid search, after
    /// [`WARM_UP_FRAMES`] frames on all cores.
    ///
    /// # Panics
    /// If a pool cannot be built or the simulation cannot be set up: the
    /// bench cannot run at all then.
    pub fn new(boids: usize) -> Self {
        let config = Config {
            search: Search::Grid,
            ..Config::new(boids, SEED)
        };
        let pool = |threads: Threads| {
            ThreadPoolBuilder::new()
                .num_threads(threads.count())
                .build()
                .expect("a rayon pool")
        };
        let mut flock = Self {
            sim: Simulation::new(&config).expect("the boids systems fit one schedule"),
            one: pool(Threads::One),
            all: pool(Threads::AllCores),
        };
        flock.run(Threads::AllCores, WARM_UP_FRAMES);
        flock
    }

    /// Runs `frames` frames on `threads` and returns the time they took. The
    /// clock runs inside the pool, so handing the work to it is not timed.
    ///
    /// # Panics
    /// If a frame fails, which the demo's systems never do.
    pub fn run(&mut self, threads: Threads, frames: u64) -> Duration {
        let pool = match threads {
            Threads::One => &self.one,
            Threads::AllCores => &self.all,
        };
        let sim = &mut self.sim;
        pool.install(|| {
            let start = Instant::now();
            for _ in 0..frames {
                sim.step().expect("a boids frame runs");
            }
            start.elapsed()
        })
    }

    /// The simulation, to look at between runs.
    pub fn simulation(&self) -> &Simulation {
        &self.sim
    }
}
