//! Timing a workload's contenders side by side: each is calibrated to a run
//! count that fills a sample, then the samples go round-robin over the
//! contenders, starting one further along each round, so drift (heat, other
//! processes) hits every library alike.

use std::time::Duration;

use ecs_bench::harness::{Contender, Prepared};

/// How long to sample.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Samples per contender.
    pub samples: usize,
    /// The time one sample aims at.
    pub sample_time: Duration,
}

/// One contender's times, per run, over all samples.
pub struct Timing {
    /// Who ran.
    pub contender: Contender,
    /// Seconds per run, one entry per sample, sorted.
    pub per_run: Vec<f64>,
    /// How the contender's world was laid out after the runs, where it says.
    pub layout: Option<String>,
}

impl Timing {
    /// The median seconds per run.
    pub fn median(&self) -> f64 {
        quantile(&self.per_run, 0.5)
    }

    /// The interquartile range over the median: how much the samples spread.
    pub fn spread(&self) -> f64 {
        (quantile(&self.per_run, 0.75) - quantile(&self.per_run, 0.25)) / self.median()
    }
}

/// The `q` quantile of sorted `values`, interpolated.
pub fn quantile(values: &[f64], q: f64) -> f64 {
    let position = q * (values.len() - 1) as f64;
    let (low, high) = (position.floor() as usize, position.ceil() as usize);
    values[low] + (values[high] - values[low]) * (position - low as f64)
}

/// Times every prepared contender with `settings`.
pub fn sample(prepared: &mut [Prepared], settings: Settings) -> Vec<Timing> {
    let runs: Vec<u64> = prepared
        .iter_mut()
        .map(|p| calibrate(p, settings.sample_time))
        .collect();
    let mut per_run = vec![Vec::with_capacity(settings.samples); prepared.len()];
    for round in 0..settings.samples {
        for offset in 0..prepared.len() {
            let index = (round + offset) % prepared.len();
            let elapsed = prepared[index].bench.time(runs[index]);
            per_run[index].push(elapsed.as_secs_f64() / runs[index] as f64);
        }
    }
    prepared
        .iter_mut()
        .zip(per_run)
        .map(|(p, mut times)| {
            times.sort_by(f64::total_cmp);
            Timing {
                contender: p.contender,
                per_run: times,
                layout: p.bench.layout(),
            }
        })
        .collect()
}

/// The run count whose time is close to `target`, found by growing it from
/// one; the runs spent finding it also warm the caches up.
fn calibrate(prepared: &mut Prepared, target: Duration) -> u64 {
    let mut runs = 1u64;
    loop {
        let elapsed = prepared.bench.time(runs);
        if elapsed >= target / 8 || runs >= 1 << 30 {
            let scale = target.as_secs_f64() / elapsed.as_secs_f64().max(1e-9);
            return ((runs as f64 * scale).round() as u64).max(1);
        }
        runs *= 8;
    }
}

#[cfg(test)]
mod tests {
    use super::quantile;

    #[test]
    fn quantiles_interpolate() {
        let values = [1.0, 2.0, 3.0, 4.0];
        assert_eq!(quantile(&values, 0.5), 2.5);
        assert_eq!(quantile(&values, 0.0), 1.0);
        assert_eq!(quantile(&values, 1.0), 4.0);
        assert_eq!(quantile(&[7.0], 0.5), 7.0);
    }
}
