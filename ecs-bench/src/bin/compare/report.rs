//! BENCHMARKS.md: the tables, the machine, how to reproduce.

use std::fmt::Write as _;
use std::time::Duration;

use ecs_bench::harness::{Items, Workload};
pub use ecs_bench::text::thousands;
use ecs_bench::workloads::memory;

use crate::boids::{self, BoidsResult};
use crate::machine::Machine;
use crate::sampling::{Settings, Timing};

/// The command that regenerates the report.
pub const COMMAND: &str = "cargo run -p ecs-bench --release --features peers --bin compare";

/// One workload's outcome.
pub struct WorkloadResult {
    /// What ran.
    pub workload: Workload,
    /// Each contender's times, in the workload's contender order.
    pub timings: Vec<Timing>,
}

impl WorkloadResult {
    /// The plain `ours` contender's median.
    pub fn ours(&self) -> f64 {
        self.median_of("ours").expect("every workload has `ours`")
    }

    /// The median of the contender called `name`.
    pub fn median_of(&self, name: &str) -> Option<f64> {
        self.timings
            .iter()
            .find(|t| t.contender.name == name)
            .map(Timing::median)
    }

    /// The fastest contender among those `pick` selects.
    fn fastest(&self, pick: impl Fn(&str) -> bool) -> Option<&Timing> {
        self.timings
            .iter()
            .filter(|t| pick(t.contender.name))
            .min_by(|a, b| a.median().total_cmp(&b.median()))
    }

    /// Our fastest path (`ours`, `ours_grouped`, ..), baselines left out.
    pub fn best_ours(&self) -> &Timing {
        self.fastest(|name| is_ours(name) && !is_baseline(name))
            .expect("every workload has `ours`")
    }

    /// The fastest peer, if peers ran.
    pub fn best_peer(&self) -> Option<&Timing> {
        self.fastest(|name| !is_ours(name) && name != "ideal")
    }
}

/// Whether a contender of ours is a baseline beside the workload rather
/// than a path through it (merge's `ours_baseline_spawn`: the same entities
/// spawned, not merged): shown, never the summary's fastest path.
pub fn is_baseline(name: &str) -> bool {
    name.starts_with("ours_baseline_")
}

/// Whether a contender is one of ours.
pub fn is_ours(name: &str) -> bool {
    name == "ours" || name.starts_with("ours_")
}

/// One library's memory figure.
pub struct MemoryResult {
    /// Who.
    pub name: &'static str,
    /// How the world was filled.
    pub path: &'static str,
    /// Net heap bytes the world holds.
    pub bytes: isize,
    /// The same world's heap bytes by structure, where the library says.
    pub structures: memory::Structures,
}

impl MemoryResult {
    /// Heap bytes per entity.
    pub fn per_entity(&self) -> f64 {
        self.bytes as f64 / memory::ENTITIES as f64
    }
}

/// Everything one run of the compare binary found.
pub struct Results {
    /// Where it ran.
    pub machine: Machine,
    /// How long it sampled.
    pub settings: Settings,
    /// The timed workloads.
    pub workloads: Vec<WorkloadResult>,
    /// The memory figures.
    pub memory: Vec<MemoryResult>,
    /// The boids demo's frame times, one per flock size.
    pub boids: Vec<BoidsResult>,
    /// How long building, checking and sampling took.
    pub wall_time: Duration,
}

/// A time, with three significant digits and a unit that fits.
pub fn format_seconds(seconds: f64) -> String {
    let (value, unit) = if seconds < 1e-6 {
        (seconds * 1e9, "ns")
    } else if seconds < 1e-3 {
        (seconds * 1e6, "µs")
    } else if seconds < 1.0 {
        (seconds * 1e3, "ms")
    } else {
        (seconds, "s")
    };
    format!("{} {unit}", three_digits(value))
}

/// `value` with three significant digits (for values from 1 to 999).
pub fn three_digits(value: f64) -> String {
    if value >= 100.0 {
        format!("{value:.0}")
    } else if value >= 10.0 {
        format!("{value:.1}")
    } else {
        format!("{value:.2}")
    }
}

/// `text` with its first letter upper-case.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    chars
        .next()
        .map(|first| first.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// A ratio as `1.23x`.
pub fn format_ratio(ratio: f64) -> String {
    format!("{ratio:.2}x")
}

/// The chart file of a workload, relative to the report.
pub fn chart_path(name: &str) -> String {
    format!("docs/benchmarks/{name}.png")
}

/// The hand-written explanation of the targets this ECS misses, kept beside the code.
const MISSES: &str = include_str!("misses.md");

/// The whole report.
pub fn render(results: &Results) -> String {
    let mut out = String::new();
    header(&mut out, results);
    summary(&mut out, results);
    crate::targets::section(&mut out, results);
    out.push_str(MISSES);
    for result in &results.workloads {
        workload_section(&mut out, result);
    }
    memory_section(&mut out, &results.memory);
    boids::section(&mut out, &results.boids, results.settings);
    footer(&mut out);
    out
}

fn header(out: &mut String, results: &Results) {
    let m = &results.machine;
    let s = &results.settings;
    let _ = writeln!(
        out,
        "# Benchmarks: ecs-core beside the other Rust ECS libraries\n\n\
         Generated by the compare binary; rerun it rather than editing this file:\n\n\
         ```sh\n{COMMAND}\n```\n\n\
         Every workload runs for every library in one process. Each library is calibrated to a run \
         count that takes about {} ms, then {} samples go round-robin over the libraries (each round \
         starting one library further on), so drift hits all of them alike. Times are the median \
         time of one run over those samples; *spread* is the interquartile range over the median.\n\n\
         **Ratio** is a library's median divided by `ours`' median: `ours` is 1.00x, **below 1.00x \
         the library is faster than ours, above 1.00x it is slower**. `ideal` is the same work on \
         plain `Vec`s with no ECS: the hardware's limit. Differences under ~10 % are noise. Each \
         library takes its own fastest idiomatic path, named in the *path* column; `_grouped` and \
         `_contiguous` rows are a library's group or slice path beside its plain one.\n",
        s.sample_time.as_millis(),
        s.samples,
    );
    let _ = writeln!(
        out,
        "| machine | |\n|---|---|\n| CPU | {} |\n| cores (available parallelism) | {} |\n\
         | OS | {} |\n| compiler | {} |\n| profile | release (`[profile.release]` of the workspace) |\n\
         | libraries | {} |\n| date (UTC) | {} |\n| load average at start (1 min) | {} |\n\
         | wall time of this run | {:.0} s |\n",
        m.cpu,
        m.cores,
        m.os,
        m.rustc,
        env!("ECS_BENCH_PEER_VERSIONS"),
        m.date,
        m.load_at_start,
        results.wall_time.as_secs_f64(),
    );
}

fn summary(out: &mut String, results: &Results) {
    let _ = writeln!(
        out,
        "## Summary\n\n\
         Our fastest path against the fastest peer's; the last column is ours over theirs, so \
         **below 1.00x we win, above 1.00x we lose**.\n\n\
         | workload | ideal | ours | ours, fastest path | fastest peer | ours (fastest) / peer (fastest) |\n\
         |---|---:|---:|---|---|---:|"
    );
    for result in &results.workloads {
        let best = result.best_ours();
        let (peer, versus) = match result.best_peer() {
            Some(peer) => (
                format!("{} {}", peer.contender.name, format_seconds(peer.median())),
                format_ratio(best.median() / peer.median()),
            ),
            None => ("–".into(), "–".into()),
        };
        let _ = writeln!(
            out,
            "| [{name}](#{name}) | {} | {} | {} {} | {peer} | {versus} |",
            result
                .median_of("ideal")
                .map_or_else(|| "–".into(), format_seconds),
            format_seconds(result.ours()),
            best.contender.name,
            format_seconds(best.median()),
            name = result.workload.name,
        );
    }
    let _ = writeln!(out);
}

fn workload_section(out: &mut String, result: &WorkloadResult) {
    let name = result.workload.name;
    let items = result.workload.items;
    let (per_header, per_rule) = match items {
        Some(items) => (format!(" per {} |", items.name), "---:|"),
        None => (String::new(), ""),
    };
    let _ = writeln!(
        out,
        "## {name}\n\n{}.\n\n![{name}]({})\n\n\
         | library | path | median |{per_header} ratio to ours | spread |\n\
         |---|---|---:|{per_rule}---:|---:|",
        capitalized(result.workload.summary),
        chart_path(name),
    );
    let ours = result.ours();
    for timing in &result.timings {
        let label = if is_ours(timing.contender.name) {
            format!("**{}**", timing.contender.name)
        } else {
            timing.contender.name.to_owned()
        };
        let per = items.map_or_else(String::new, |items| {
            format!(" {} |", format_seconds(per_item(timing.median(), items)))
        });
        let _ = writeln!(
            out,
            "| {label} | {} | {} |{per} {} | {:.0} % |",
            timing.contender.path,
            format_seconds(timing.median()),
            format_ratio(timing.median() / ours),
            timing.spread() * 100.0,
        );
    }
    let _ = writeln!(out);
    let layouts: Vec<_> = result
        .timings
        .iter()
        .filter_map(|t| Some((t.contender.name, t.layout.as_deref()?)))
        .collect();
    if !layouts.is_empty() {
        let _ = writeln!(out, "Layout after the runs:\n");
        for (name, layout) in layouts {
            let _ = writeln!(out, "- **{name}**: {layout}");
        }
        let _ = writeln!(out);
    }
}

/// The time of one item of a run that takes `seconds` and is made of `items`.
pub fn per_item(seconds: f64, items: Items) -> f64 {
    seconds / items.count as f64
}

fn memory_section(out: &mut String, memory: &[MemoryResult]) {
    let Some(ours) = memory.iter().find(|m| m.name == "ours") else {
        return;
    };
    let ideal = memory.iter().find(|m| m.name == "ideal").unwrap_or(ours);
    let _ = writeln!(
        out,
        "## memory\n\n\
         Net heap bytes a world holds for {} entities with Transform, Position, Rotation and \
         Velocity ({} bytes of components each), filled with the batch spawn and counted by a \
         counting global allocator (each world built once untimed first, so one-time global \
         set-up is not counted). Lower is better; ratios as above: below 1.00x the library uses \
         less memory than ours.\n\n\
         ![memory]({})\n\n\
         | library | path | bytes per entity | ratio to ours | ratio to ideal |\n\
         |---|---|---:|---:|---:|",
        thousands(memory::ENTITIES),
        memory::PAYLOAD_BYTES,
        chart_path("memory"),
    );
    for m in memory {
        let _ = writeln!(
            out,
            "| {} | {} | {:.1} | {} | {} |",
            if m.name == "ours" { "**ours**" } else { m.name },
            m.path,
            m.per_entity(),
            format_ratio(m.per_entity() / ours.per_entity()),
            format_ratio(m.per_entity() / ideal.per_entity()),
        );
    }
    let _ = writeln!(out);
    structures_table(out, ours);
}

/// Where our bytes go, structure by structure, per entity.
fn structures_table(out: &mut String, ours: &MemoryResult) {
    if ours.structures.is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "Ours by structure (`World::stats().heap`: capacity, so it can differ slightly from the \
         allocator's count):\n\n\
         | structure | bytes per entity |\n\
         |---|---:|"
    );
    let per_entity = |bytes: usize| bytes as f64 / memory::ENTITIES as f64;
    for &(name, bytes) in &ours.structures {
        let _ = writeln!(out, "| {name} | {:.1} |", per_entity(bytes));
    }
    let total = ours.structures.iter().map(|&(_, bytes)| bytes).sum();
    let _ = writeln!(out, "| **total** | **{:.1}** |\n", per_entity(total));
}

fn footer(out: &mut String) {
    let _ = writeln!(
        out,
        "## Notes\n\n\
         - Workloads follow [ecs_bench_suite](https://github.com/rust-gamedev/ecs_bench_suite) \
         where it defines one (simple_insert, simple_iter, frag_iter, heavy_compute, add_remove, \
         schedule); random_get, despawn_churn, big_iter, empty_systems, schedule_many, commands and \
         memory are this project's. The code is in \
         `ecs-bench/src/workloads/`, one module per workload and one small implementation per \
         library; after setup and one run, every library's checksum must equal `ideal`'s, so no \
         contender skips work.\n\
         - All six peers build with this compiler and are included; none was dropped. Each is \
         built with its default features off plus what the workloads need: hecs `std`; \
         bevy_ecs `std`, `multi_threaded` (its parallel queries run on bevy_tasks' \
         ComputeTaskPool); shipyard `std`, `parallel`, `proc`; sparsey `std`, `parallel`; \
         specs `parallel` (every component in a `VecStorage`); legion `parallel`. Parallel \
         iteration uses rayon's global pool everywhere but in bevy.\n\
         - schedule, empty_systems, schedule_many and commands run through each library's \
         scheduler (bevy's `Schedule`, shipyard's workloads, specs' `Dispatcher`, legion's \
         `Schedule`) and deferred command buffer. hecs and sparsey have no scheduler, so they run \
         the same queries by hand, as `ours_by_hand` does; shipyard and sparsey have no command \
         buffer, so they have no commands row. In schedule_many the result depends on the order of \
         conflicting systems: ours, shipyard and legion keep the order the systems were added in, \
         bevy and specs are given that order explicitly (system sets, dependencies). The \
         `_single_threaded` rows are the same schedule on the calling thread alone.\n\
         - The same rows as criterion benches: `cargo bench -p ecs-bench --bench compare \
         --features peers` (ours and ideal only without the feature); the boids frames: \
         `cargo bench -p ecs-bench --bench boids`."
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_read_well() {
        assert_eq!(thousands(100_000), "100,000");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000_000), "1,000,000");
        assert_eq!(format_seconds(3.6e-8), "36.0 ns");
        assert_eq!(format_seconds(0.000_312), "312 µs");
        assert_eq!(format_seconds(0.001_41), "1.41 ms");
        assert_eq!(format_ratio(0.954), "0.95x");
        assert_eq!(capitalized("a new world"), "A new world");
    }
}
