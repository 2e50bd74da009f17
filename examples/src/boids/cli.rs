//! The demo's command line, parsed by hand: a dozen flags do not need a
//! dependency.

use core::fmt;
use std::path::PathBuf;

/// What `--help` prints.
pub const USAGE: &str = "\
boids: a flock on the ecs, with a spatial grid, predators and obstacles

usage: cargo run --release -p examples --example boids -- [options]

options:
  --boids N        how many boids (default 5000)
  --frames N       how many frames to run (default 600)
  --seed S         lays out the world; the same seed gives the same run (default 1)
  --threads N      run on a pool of N threads (default: one per core)
  --png FILE       write the last frame as a PNG
  --gif FILE       write every k-th frame as an animated GIF
  --gif-every K    the k of --gif (default 4)
  --size PX        picture width in pixels (default 800 for PNG, 480 for GIF)
  --naive          find flockmates by testing every pair, O(n^2), not through the grid
  --help           print this
";

/// The demo's settings.
///
/// ```
/// use examples::boids::cli::{Command, Options};
///
/// let args = ["--boids", "300", "--naive", "--gif=out.gif"];
/// let Command::Run(options) = Options::parse(args.map(String::from))? else { panic!() };
/// assert_eq!((options.boids, options.frames, options.naive), (300, 600, true));
/// assert_eq!(options.gif.as_deref(), Some("out.gif".as_ref()));
/// # Ok::<(), examples::boids::cli::CliError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// `--boids`.
    pub boids: usize,
    /// `--frames`.
    pub frames: u64,
    /// `--seed`.
    pub seed: u64,
    /// `--threads`; `None` leaves rayon's global pool, one thread a core.
    pub threads: Option<usize>,
    /// `--png`.
    pub png: Option<PathBuf>,
    /// `--gif`.
    pub gif: Option<PathBuf>,
    /// `--gif-every`.
    pub gif_every: u64,
    /// `--size`; `None` picks by format.
    pub size: Option<u32>,
    /// `--naive`.
    pub naive: bool,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            boids: 5000,
            frames: 600,
            seed: 1,
            threads: None,
            png: None,
            gif: None,
            gif_every: 4,
            size: None,
            naive: false,
        }
    }
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Run the simulation.
    Run(Options),
    /// Print [`USAGE`] and stop.
    Help,
}

/// A command line that does not parse, with what was wrong.
///
/// ```
/// use examples::boids::cli::Options;
///
/// let err = Options::parse(["--boids".to_owned(), "many".to_owned()]).unwrap_err();
/// assert_eq!(err.to_string(), "--boids wants a number, not `many` (see --help)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CliError(String);

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} (see --help)", self.0)
    }
}

impl std::error::Error for CliError {}

impl Options {
    /// Parses the arguments after the program name. Values follow their flag
    /// as the next argument or after `=`.
    ///
    /// # Errors
    /// An unknown flag, a missing or malformed value, or a zero where it
    /// makes no sense (`--threads 0`, `--gif-every 0`, `--size 0`).
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, CliError> {
        let mut options = Self::default();
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
                "--naive" => options.naive = true,
                "--boids" => options.boids = number(&flag, &value()?)?,
                "--frames" => options.frames = number(&flag, &value()?)?,
                "--seed" => options.seed = number(&flag, &value()?)?,
                "--threads" => options.threads = Some(positive(&flag, &value()?)?),
                "--png" => options.png = Some(value()?.into()),
                "--gif" => options.gif = Some(value()?.into()),
                "--gif-every" => options.gif_every = positive(&flag, &value()?)?,
                "--size" => options.size = Some(positive(&flag, &value()?)?),
                _ => return Err(CliError(format!("unknown argument `{flag}`"))),
            }
        }
        Ok(Command::Run(options))
    }
}

fn number<T: core::str::FromStr>(flag: &str, value: &str) -> Result<T, CliError> {
    value
        .replace('_', "")
        .parse()
        .map_err(|_| CliError(format!("{flag} wants a number, not `{value}`")))
}

fn positive<T: core::str::FromStr + PartialEq + Default>(
    flag: &str,
    value: &str,
) -> Result<T, CliError> {
    let n: T = number(flag, value)?;
    if n == T::default() {
        return Err(CliError(format!("{flag} must be at least 1")));
    }
    Ok(n)
}
