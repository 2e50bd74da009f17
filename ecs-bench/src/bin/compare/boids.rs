//! The "Boids frame time" section's numbers: one frame of the boids demo's
//! grid version per size, on one thread and on all cores. Ours only; no peer
//! runs the demo.
//!
//! Each size times one warmed-up flock. Like the workloads, each thread count
//! is calibrated to a frame count that fills a sample, then the samples
//! alternate between the two (each round starting with the other), so drift
//! hits both alike; a frame's time is the median over the samples.

use std::fmt::Write as _;

use ecs_bench::boids::{Flock, SIZES, Threads, WARM_UP_FRAMES};

use crate::report::{format_seconds, thousands, three_digits};
use crate::sampling::{Settings, quantile};

/// One flock size's frame times.
pub struct BoidsResult {
    /// Boids in the flock.
    pub boids: usize,
    /// Threads of the all-cores pool.
    pub threads: usize,
    /// Samples per thread count.
    pub samples: usize,
    /// Median seconds per frame on one thread.
    pub one_thread: f64,
    /// Median seconds per frame on all cores.
    pub all_cores: f64,
}

impl BoidsResult {
    /// How many times faster all cores run a frame than one thread.
    pub fn speed_up(&self) -> f64 {
        self.one_thread / self.all_cores
    }
}

/// The most samples a size takes: a 100,000-boid frame on one thread takes
/// tens of milliseconds, so the larger flocks take fewer and the section
/// stays within about half a minute on two cores.
fn sample_cap(boids: usize) -> usize {
    if boids <= 5_000 {
        40
    } else if boids <= 20_000 {
        25
    } else {
        12
    }
}

/// Times every size of [`SIZES`], printing progress to stderr.
pub fn measure(settings: Settings) -> Vec<BoidsResult> {
    eprintln!(
        "boids: one frame of the grid version, after {WARM_UP_FRAMES} frames of warm-up, on 1 \
         and {} threads",
        Threads::AllCores.count()
    );
    SIZES
        .into_iter()
        .map(|boids| {
            let result = measure_one(boids, settings);
            eprintln!(
                "  {:>7} boids  {:>9} one thread  {:>9} all cores  {}x",
                thousands(boids),
                format_seconds(result.one_thread),
                format_seconds(result.all_cores),
                three_digits(result.speed_up()),
            );
            result
        })
        .collect()
}

fn measure_one(boids: usize, settings: Settings) -> BoidsResult {
    let mut flock = Flock::new(boids);
    let frames = Threads::BOTH.map(|threads| {
        // One frame's time, already past the warm-up, sets the sample's length.
        let one = flock.run(threads, 1).as_secs_f64();
        ((settings.sample_time.as_secs_f64() / one.max(1e-9)).round() as u64).max(1)
    });
    let samples = settings.samples.min(sample_cap(boids));
    let mut per_frame = [Vec::with_capacity(samples), Vec::with_capacity(samples)];
    for round in 0..samples {
        for offset in 0..2 {
            let index = (round + offset) % 2;
            let elapsed = flock.run(Threads::BOTH[index], frames[index]);
            per_frame[index].push(elapsed.as_secs_f64() / frames[index] as f64);
        }
    }
    let [one_thread, all_cores] = per_frame.map(|mut times| {
        times.sort_by(f64::total_cmp);
        quantile(&times, 0.5)
    });
    BoidsResult {
        boids,
        threads: Threads::AllCores.count(),
        samples,
        one_thread,
        all_cores,
    }
}

/// The report's section, or nothing if the section did not run.
pub fn section(out: &mut String, results: &[BoidsResult], settings: Settings) {
    let Some(first) = results.first() else {
        return;
    };
    let threads = first.threads;
    let samples: Vec<String> = results.iter().map(|r| r.samples.to_string()).collect();
    let _ = writeln!(
        out,
        "## Boids frame time\n\n\
         One frame of the boids demo's grid version (`cargo run --release -p examples --example \
         boids`: steering through the spatial grid, two predators, seven obstacles), its own \
         code in `examples::boids`. **Ours only**: no peer runs this demo, so there are no other \
         libraries and no ratios here. Each size is one flock from seed 1, run for \
         {WARM_UP_FRAMES} frames before any is timed so the boids have gathered into flocks. \
         *One thread* runs the frame in a rayon pool of one thread (the demo's `--threads 1`); \
         *all cores* in a pool of {threads} threads, one per core the machine table counts. The \
         two alternate on the same flock, in samples of about {} ms (one frame at least): {} \
         samples each for the sizes in order; times are the median per frame. *Speed-up* is one thread's time over all \
         cores'.\n\n\
         | boids | one thread, ms per frame | all {threads} cores, ms per frame | speed-up |\n\
         |---:|---:|---:|---:|",
        settings.sample_time.as_millis(),
        samples.join(" / "),
    );
    for r in results {
        let _ = writeln!(
            out,
            "| {} | {} | {} | {}x |",
            thousands(r.boids),
            three_digits(r.one_thread * 1e3),
            three_digits(r.all_cores * 1e3),
            three_digits(r.speed_up()),
        );
    }
    let _ = writeln!(out);
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_section_has_a_row_per_size_and_nothing_when_skipped() {
        let settings = Settings {
            samples: 80,
            sample_time: Duration::from_millis(25),
        };
        let mut out = String::new();
        section(&mut out, &[], settings);
        assert!(out.is_empty());

        let result = BoidsResult {
            boids: 20_000,
            threads: 2,
            samples: 25,
            one_thread: 0.018,
            all_cores: 0.01,
        };
        section(&mut out, &[result], settings);
        assert!(out.starts_with("## Boids frame time\n"), "{out}");
        assert!(out.contains("| 20,000 | 18.0 | 10.0 | 1.80x |"), "{out}");
        assert!(out.contains("all 2 cores"), "{out}");
    }
}
