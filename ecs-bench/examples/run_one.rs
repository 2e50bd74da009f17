//! Runs one contender of one workload a given number of times and prints its
//! checksum: a fixed amount of work to count under `valgrind --tool=callgrind`,
//! whose instruction counts do not depend on what else the machine runs. For an
//! A/B of two builds on a busy machine, where wall-clock samples are noise.
//!
//! ```sh
//! cargo build -p ecs-bench --release --example run_one
//! valgrind --tool=callgrind --callgrind-out-file=/tmp/a.out \
//!     target/release/examples/run_one random_get ours 20
//! callgrind_annotate /tmp/a.out | head
//! ```
//!
//! The setup is counted too; run it with 0 runs to subtract it.

use std::process::ExitCode;

use ecs_bench::workloads;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [workload, contender, runs] = args.as_slice() else {
        eprintln!("usage: run_one WORKLOAD CONTENDER RUNS");
        return ExitCode::FAILURE;
    };
    let Ok(runs) = runs.parse::<u64>() else {
        eprintln!("RUNS must be a whole number, not `{runs}`");
        return ExitCode::FAILURE;
    };
    let all = workloads::all();
    let Some(workload) = all.iter().find(|w| w.name == workload.as_str()) else {
        let names: Vec<_> = all.iter().map(|w| w.name).collect();
        eprintln!("no workload `{workload}`; there are {}", names.join(", "));
        return ExitCode::FAILURE;
    };
    let mut bench = workload.contender(contender).build();
    bench.time(runs);
    println!(
        "{} {contender}: checksum {}",
        workload.name,
        bench.checksum()
    );
    ExitCode::SUCCESS
}
