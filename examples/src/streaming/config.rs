//! What a run plays, and its command line.

use core::fmt;

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

/// A command line that does not parse, with what was wrong.
///
/// ```
/// use examples::streaming::Config;
///
/// let err = Config::parse(["--levels".to_owned()]).unwrap_err();
/// assert_eq!(err.to_string(), "--levels wants a value (see --help)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CliError(String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (see --help)", self.0)
    }
}

impl std::error::Error for CliError {}

impl Config {
    /// Parses the arguments after the program name. Values follow their flag
    /// as the next argument or after `=`.
    ///
    /// # Errors
    /// An unknown flag, or a missing or malformed value.
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, CliError> {
        let mut config = Self::default();
        let mut args = args.into_iter();
        while let Some(arg) = args.next() {
            let (flag, inline) = match arg.split_once('=') {
                Some((flag, value)) if flag.starts_with("--") => {
                    (flag.to_owned(), Some(value.to_owned()))
                }
                _ => (arg, None),
            };
            let mut value = || {
                inline
                    .clone()
                    .or_else(|| args.next())
                    .ok_or_else(|| CliError(format!("{flag} wants a value")))
            };
            match flag.as_str() {
                "--help" | "-h" => return Ok(Command::Help),
                "--levels" => config.levels = number(&flag, &value()?)?,
                "--frames" => config.frames = number(&flag, &value()?)?,
                "--seed" => config.seed = number(&flag, &value()?)?,
                _ => return Err(CliError(format!("unknown argument `{flag}`"))),
            }
        }
        Ok(Command::Run(config))
    }
}

fn number<T: core::str::FromStr>(flag: &str, value: &str) -> Result<T, CliError> {
    value
        .replace('_', "")
        .parse()
        .map_err(|_| CliError(format!("{flag} wants a number, not `{value}`")))
}
