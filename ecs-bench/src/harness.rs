//! What the criterion benches and the compare binary share: a workload is a list
//! of contenders, one per library (and per path, where a library has several),
//! each building its world once and then running the timed operation.

use std::hint::black_box;
use std::time::{Duration, Instant};

/// One library's implementation of one workload.
pub trait Bench: 'static {
    /// Builds the world the runs work on. Not timed.
    fn setup() -> Self
    where
        Self: Sized;

    /// Whether each run needs [`prepare`](Self::prepare) first: a workload
    /// whose operation consumes its input (a staging world to merge).
    const PREPARES: bool = false;

    /// Untimed work before each run, when [`PREPARES`](Self::PREPARES).
    fn prepare(&mut self) {}

    /// The timed operation, once.
    fn run(&mut self);

    /// A figure of the state the runs left, computed through the library
    /// (a count, a sum of components). After setup and one run it must equal
    /// the `ideal` contender's, which proves the work was done.
    fn checksum(&mut self) -> f64;

    /// For this ECS's contenders, a line on how the world is laid out for
    /// the workload's queries after the runs ([`crate::layout::describe`]);
    /// the report prints it under the workload's table.
    fn layout(&mut self) -> Option<String> {
        None
    }
}

/// A [`Bench`] behind a pointer: one dynamic call per sample, then a loop
/// monomorphised for the library.
pub trait Timed {
    /// Runs the operation `iters` times and returns the time they took.
    fn time(&mut self, iters: u64) -> Duration;

    /// See [`Bench::checksum`].
    fn checksum(&mut self) -> f64;

    /// See [`Bench::layout`].
    fn layout(&mut self) -> Option<String>;
}

impl<B: Bench> Timed for B {
    fn time(&mut self, iters: u64) -> Duration {
        if B::PREPARES {
            // Only the runs are timed; the clock is read twice per run, which
            // is noise beside a run that needs its own input.
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                self.prepare();
                let start = Instant::now();
                self.run();
                black_box(&mut *self);
                total += start.elapsed();
            }
            return total;
        }
        let start = Instant::now();
        for _ in 0..iters {
            self.run();
            // The optimiser must assume every run's writes are read.
            black_box(&mut *self);
        }
        start.elapsed()
    }

    fn checksum(&mut self) -> f64 {
        Bench::checksum(self)
    }

    fn layout(&mut self) -> Option<String> {
        Bench::layout(self)
    }
}

/// One entry of a workload: a library, the path it takes, and how to build it.
#[derive(Clone, Copy)]
pub struct Contender {
    /// The name in reports: the library, plus the variant (`sparsey_grouped`).
    pub name: &'static str,
    /// What the code does, in a few words (`spawn_batch + query.for_each`).
    pub path: &'static str,
    build: fn() -> Box<dyn Timed>,
}

impl Contender {
    /// The contender that runs `B`.
    pub fn of<B: Bench>(name: &'static str, path: &'static str) -> Self {
        fn build<B: Bench>() -> Box<dyn Timed> {
            Box::new(B::setup())
        }
        Self {
            name,
            path,
            build: build::<B>,
        }
    }

    /// Builds the contender's world, ready to run.
    pub fn build(&self) -> Box<dyn Timed> {
        (self.build)()
    }
}

/// What one run is made of, when it is many of one thing (100 systems, 2,000
/// commands): the report then gives the time per item beside the time per run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Items {
    /// How many items one run does.
    pub count: usize,
    /// What an item is, singular (`system`, `command`).
    pub name: &'static str,
}

/// A workload: what it measures, and who runs it.
#[derive(Clone, Copy)]
pub struct Workload {
    /// Short name, used for bench groups, report sections and chart files.
    pub name: &'static str,
    /// What one run does, in a sentence.
    pub summary: &'static str,
    /// What one run is made of, if it is many of one thing.
    pub items: Option<Items>,
    /// The contenders: `ideal` first, then `ours`, then the peers (with the
    /// `peers` feature).
    pub contenders: fn() -> Vec<Contender>,
}

/// A contender built, run once and checked: ready to time.
pub struct Prepared {
    /// Who it is.
    pub contender: Contender,
    /// Its world.
    pub bench: Box<dyn Timed>,
}

impl Workload {
    /// The contender every other is checked against: the first, `ideal`.
    pub fn reference(&self) -> Contender {
        (self.contenders)()[0]
    }

    /// The contender called `name`, so a bench can time one library's code
    /// without building the others.
    ///
    /// # Panics
    /// If the workload has no contender by that name.
    pub fn contender(&self, name: &str) -> Contender {
        (self.contenders)()
            .into_iter()
            .find(|contender| contender.name == name)
            .unwrap_or_else(|| panic!("{}: no contender named `{name}`", self.name))
    }

    /// Builds every contender, runs each once, and checks each checksum
    /// against the first contender's (`ideal`).
    ///
    /// # Panics
    /// If a checksum differs: that library's code does not do the workload.
    pub fn prepare(&self) -> Vec<Prepared> {
        self.prepare_each(|_| {})
    }

    /// [`prepare`](Self::prepare), calling `progress` with each contender's
    /// name before building it.
    pub fn prepare_each(&self, mut progress: impl FnMut(&Contender)) -> Vec<Prepared> {
        let mut prepared: Vec<Prepared> = Vec::new();
        let mut reference = None;
        for contender in (self.contenders)() {
            progress(&contender);
            let (one, checksum) = self.prepare_one(contender, reference);
            reference.get_or_insert(checksum);
            prepared.push(one);
        }
        prepared
    }

    /// Builds `contender`, runs it once and returns it with its checksum, after
    /// checking that against `reference` (the `ideal` contender's), if given.
    ///
    /// # Panics
    /// If the checksums differ.
    pub fn prepare_one(&self, contender: Contender, reference: Option<f64>) -> (Prepared, f64) {
        let mut bench = contender.build();
        bench.time(1);
        let checksum = bench.checksum();
        if let Some(expected) = reference {
            assert!(
                agrees(checksum, expected),
                "{}: {} left checksum {checksum}, ideal left {expected}",
                self.name,
                contender.name,
            );
        }
        (Prepared { contender, bench }, checksum)
    }
}

/// Whether two checksums agree, allowing for rounding in a different order.
fn agrees(a: f64, b: f64) -> bool {
    a == b || (a - b).abs() <= 1e-6 * a.abs().max(b.abs())
}
