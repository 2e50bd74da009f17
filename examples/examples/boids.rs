//! Boids: a flock of thousands on the ecs, with a spatial grid, predators
//! and obstacles. `--help` lists the options; the simulation itself is
//! `examples::boids`, shared with the tests.

#![forbid(unsafe_code)]

use std::process::ExitCode;

use examples::boids::cli::{Command, Options, USAGE};

fn main() -> ExitCode {
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(Command::Run(options)) => options,
        Ok(Command::Help) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            eprintln!("boids: {error}");
            return ExitCode::from(2);
        }
    };
    match examples::boids::run(&options) {
        Ok(report) => {
            print!("{report}");
            if let Some(path) = &options.png {
                println!("wrote {}", path.display());
            }
            if let Some(path) = &options.gif {
                println!("wrote {}", path.display());
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("boids: {error}");
            ExitCode::FAILURE
        }
    }
}
