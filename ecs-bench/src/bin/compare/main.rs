//! The side-by-side comparison: every workload for every library, in one
//! process, interleaved; writes `BENCHMARKS.md` and one chart per workload
//! under `docs/benchmarks/`.
//!
//! ```sh
//! cargo run -p ecs-bench --release --features peers --bin compare
//! cargo run -p ecs-bench --release --features peers --bin compare -- --only simple_iter,memory
//! cargo run -p ecs-bench --release --features peers --bin compare -- --only boids --out /tmp/boids
//! ```
//!
//! Options: `--samples N` (per contender, default 80), `--sample-ms N` (time
//! one sample aims at, default 25), `--only a,b` (those sections only, by
//! workload name, `memory` or `boids`; prints the report instead of writing
//! it, unless `--out` is given), `--out DIR` (where the report and charts go,
//! default the workspace root). Progress goes to stderr.
//!
//! Besides the workloads and memory, a full run times the boids demo's frames
//! (`boids.rs`): ours only, as no peer runs the demo.

mod boids;
mod chart;
mod counting_alloc;
mod machine;
mod report;
mod sampling;
mod targets;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use ecs_bench::workloads::{self, memory};

use counting_alloc::CountingAlloc;
use report::{MemoryResult, Results, WorkloadResult, format_ratio, format_seconds, three_digits};
use sampling::Settings;

#[global_allocator]
static ALLOCATOR: CountingAlloc = CountingAlloc;

/// What the command line asked for.
struct Options {
    settings: Settings,
    only: Option<Vec<String>>,
    out: PathBuf,
    out_given: bool,
}

impl Options {
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Self, String> {
        let mut options = Self {
            settings: Settings {
                samples: 80,
                sample_time: Duration::from_millis(25),
            },
            only: None,
            out: Path::new(env!("CARGO_MANIFEST_DIR"))
                .parent()
                .expect("ecs-bench sits in the workspace")
                .to_path_buf(),
            out_given: false,
        };
        while let Some(arg) = args.next() {
            let mut value = || args.next().ok_or(format!("{arg} needs a value"));
            match arg.as_str() {
                "--samples" => options.settings.samples = number(&value()?)?.max(1),
                "--sample-ms" => {
                    options.settings.sample_time = Duration::from_millis(number(&value()?)? as u64)
                }
                "--only" => options.only = Some(value()?.split(',').map(str::to_owned).collect()),
                "--out" => {
                    options.out = PathBuf::from(value()?);
                    options.out_given = true;
                }
                _ => {
                    return Err(format!(
                        "unknown argument {arg}; see the doc comment of src/bin/compare/main.rs"
                    ));
                }
            }
        }
        Ok(options)
    }

    /// Whether the workload called `name` should run.
    fn wants(&self, name: &str) -> bool {
        self.only
            .as_ref()
            .is_none_or(|only| only.iter().any(|o| o == name))
    }
}

fn number(text: &str) -> Result<usize, String> {
    text.parse().map_err(|_| format!("not a number: {text}"))
}

fn main() -> ExitCode {
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(options) => options,
        Err(message) => {
            eprintln!("compare: {message}");
            return ExitCode::FAILURE;
        }
    };
    let start = Instant::now();
    let machine = machine::Machine::detect();
    let workloads = run_workloads(&options);
    let memory = if options.wants("memory") {
        measure_memory()
    } else {
        Vec::new()
    };
    let boids = if options.wants("boids") {
        boids::measure(options.settings)
    } else {
        Vec::new()
    };
    let results = Results {
        machine,
        settings: options.settings,
        workloads,
        memory,
        boids,
        wall_time: start.elapsed(),
    };
    eprintln!("done in {:.0} s", results.wall_time.as_secs_f64());
    if options.only.is_some() && !options.out_given {
        println!("{}", report::render(&results));
        return ExitCode::SUCCESS;
    }
    match write(&results, &options.out) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("compare: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Builds, checks and samples each selected workload in turn, one at a time
/// so only one workload's worlds are in memory.
fn run_workloads(options: &Options) -> Vec<WorkloadResult> {
    let selected: Vec<_> = workloads::all()
        .into_iter()
        .filter(|w| options.wants(w.name))
        .collect();
    let mut results = Vec::new();
    for (index, workload) in selected.iter().enumerate() {
        eprintln!(
            "[{}/{}] {}: {}",
            index + 1,
            selected.len(),
            workload.name,
            workload.summary
        );
        let mut prepared =
            workload.prepare_each(|c| eprintln!("  building and checking {}", c.name));
        eprintln!("  sampling");
        let timings = sampling::sample(&mut prepared, options.settings);
        drop(prepared);
        let result = WorkloadResult {
            workload: *workload,
            timings,
        };
        let ours = result.ours();
        for timing in &result.timings {
            let per = workload.items.map_or_else(String::new, |items| {
                format!(
                    "  ({} per {})",
                    format_seconds(report::per_item(timing.median(), items)),
                    items.name
                )
            });
            eprintln!(
                "  {:<22} {:>10}  {}{per}",
                timing.contender.name,
                format_seconds(timing.median()),
                format_ratio(timing.median() / ours)
            );
        }
        results.push(result);
    }
    results
}

/// Each library's net heap bytes for the memory world.
fn measure_memory() -> Vec<MemoryResult> {
    eprintln!("memory: {} entities with 4 components", memory::ENTITIES);
    memory::contenders()
        .into_iter()
        .map(|contender| {
            // The first build pays for one-time global set-up; measure the second.
            drop(contender.build());
            let (world, bytes) = CountingAlloc::measure(|| contender.build());
            drop(world);
            let result = MemoryResult {
                name: contender.name,
                path: contender.path,
                bytes,
                structures: contender.structures(),
            };
            eprintln!(
                "  {:<16} {:>8.1} bytes per entity",
                result.name,
                result.per_entity()
            );
            result
        })
        .collect()
}

/// Writes BENCHMARKS.md and the charts under `root`.
fn write(results: &Results, root: &Path) -> Result<(), String> {
    let charts = root.join("docs/benchmarks");
    std::fs::create_dir_all(&charts).map_err(|e| format!("{}: {e}", charts.display()))?;
    for result in &results.workloads {
        draw_workload(result, root)?;
    }
    draw_memory(&results.memory, root)?;
    let path = root.join("BENCHMARKS.md");
    std::fs::write(&path, report::render(results))
        .map_err(|e| format!("{}: {e}", path.display()))?;
    eprintln!("wrote {} and its charts", path.display());
    Ok(())
}

/// A unit that suits times up to `longest` seconds: its name and its size.
fn time_unit(longest: f64) -> (&'static str, f64) {
    if longest < 1e-6 {
        ("ns", 1e-9)
    } else if longest < 1e-3 {
        ("µs", 1e-6)
    } else {
        ("ms", 1e-3)
    }
}

fn draw_workload(result: &WorkloadResult, root: &Path) -> Result<(), String> {
    let longest = result
        .timings
        .iter()
        .map(|t| t.median())
        .fold(0.0, f64::max);
    let (unit, size) = time_unit(longest);
    let ours = result.ours();
    let bars: Vec<chart::Bar> = result
        .timings
        .iter()
        .map(|t| chart::Bar {
            name: t.contender.name.to_owned(),
            value: t.median() / size,
            label: format!(
                "{} {unit}   {}",
                three_digits(t.median() / size),
                format_ratio(t.median() / ours)
            ),
        })
        .collect();
    let name = result.workload.name;
    chart::draw(
        &root.join(report::chart_path(name)),
        &format!("{name}: median time per run (lower is better)"),
        &format!("{unit} per run; ratio to ours"),
        &bars,
    )
}

fn draw_memory(memory: &[MemoryResult], root: &Path) -> Result<(), String> {
    let Some(ours) = memory.iter().find(|m| m.name == "ours") else {
        return Ok(());
    };
    let bars: Vec<chart::Bar> = memory
        .iter()
        .map(|m| chart::Bar {
            name: m.name.to_owned(),
            value: m.per_entity(),
            label: format!(
                "{:.1} B   {}",
                m.per_entity(),
                format_ratio(m.per_entity() / ours.per_entity())
            ),
        })
        .collect();
    chart::draw(
        &root.join(report::chart_path("memory")),
        &format!(
            "memory: heap bytes per entity, {} entities",
            report::thousands(memory::ENTITIES)
        ),
        "bytes per entity; ratio to ours",
        &bars,
    )
}
