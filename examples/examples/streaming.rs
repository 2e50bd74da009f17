//! Level streaming: a loader thread builds each level in its own world while
//! the game plays; the game merges it in, unloads the old level and keeps the
//! player and the score. `--help` lists the options; the game itself is
//! `examples::streaming`, shared with the tests.

#![forbid(unsafe_code)]

use std::process::ExitCode;

use examples::streaming::{Command, Config, Game, USAGE};

fn main() -> ExitCode {
    let config = match Config::parse(std::env::args().skip(1)) {
        Ok(Command::Run(config)) => config,
        Ok(Command::Help) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            eprintln!("streaming: {error}");
            return ExitCode::from(2);
        }
    };
    match play(&config) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("streaming: {error}");
            ExitCode::FAILURE
        }
    }
}

fn play(config: &Config) -> Result<(), ecs_core::Error> {
    println!(
        "streaming {} levels (seed {}): each is built on a loader thread while the one before plays",
        config.levels, config.seed
    );
    let mut game = Game::new(config)?;
    while !game.is_finished() {
        let log = game.step()?;
        if !log.is_quiet() {
            println!("{log}");
        }
    }
    println!("{}", game.summary());
    Ok(())
}
