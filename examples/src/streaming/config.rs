//! What a run plays, and its command line.

/// What `--help` prints.
pub const USAGE: &str = "\
streaming: a loader thread builds each level in its own world while the game plays;
the game merges it in, unloads the old level and keeps the player and the score

usage: cargo run -p examples --example streaming -- [options]

options:
  --levels N   how many levels to play (default 3)
  --frames N   stop after this many frames at most (default 5000)
  --seed S     lays out the levels; the same seed gives the same run (default 1)
  --help       print this
";

/// What to play.
///
/// ```
/// use examples::streaming::{Command, Config};
///
/// let args = ["--levels", "5", "--seed=9"].map(String::from);
/// let Command::Run(config) = Config::parse(args)? else { panic!() };
/// assert_eq!(config, Config { levels: 5, seed: 9, ..Config::default() });
/// # Ok::<(), examples::streaming::CliError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Lays out the levels: the same seed, the same run.
    pub seed: u64,
    /// How many levels to play.
    pub levels: u32,
    /// The most frames to run.
    pub frames: u64,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            seed: 1,
            levels: 3,
            frames: 5000,
        }
    }
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Play.
    Run(Config),
    /// Print [`USAGE`] and stop.
    Help,
}

pub use crate::cli::CliError;
use crate::cli::{Args, unknown};

impl Config {
    /// Parses the arguments after the program name. Values follow their flag
    /// as the next argument or after `=`.
    ///
    /// # Errors
    /// An unknown flag, or a missing or malformed value.
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, CliError> {
        let mut config = Self::default();
        let mut args = Args::new(args);
        while let Some(flag) = args.next_flag() {
            match flag.name.as_str() {
                "--help" | "-h" => return Ok(Command::Help),
                "--levels" => config.levels = args.number(&flag)?,
                "--frames" => config.frames = args.number(&flag)?,
                "--seed" => config.seed = args.number(&flag)?,
                _ => return Err(unknown(&flag)),
            }
        }
        Ok(Command::Run(config))
    }
}
