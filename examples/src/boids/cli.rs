//! The demo's command line, parsed by hand: a dozen flags do not need a
//! dependency.

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
  --inspect ADDR   serve the live inspector on ADDR (e.g. 127.0.0.1:7878) and print its URL;
                   the run is then paced at 60 frames a second and lasts until stopped,
                   unless --frames says otherwise
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
    /// `--inspect`: the address to serve the inspector on.
    pub inspect: Option<String>,
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
            inspect: None,
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

pub use crate::cli::CliError;
use crate::cli::{Args, unknown};

impl Options {
    /// Parses the arguments after the program name. Values follow their flag
    /// as the next argument or after `=`.
    ///
    /// # Errors
    /// An unknown flag, a missing or malformed value, or a zero where it
    /// makes no sense (`--threads 0`, `--gif-every 0`, `--size 0`).
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, CliError> {
        let mut options = Self::default();
        let mut args = Args::new(args);
        let mut frames_given = false;
        while let Some(flag) = args.next_flag() {
            frames_given |= flag.name == "--frames";
            match flag.name.as_str() {
                "--help" | "-h" => return Ok(Command::Help),
                "--naive" => options.naive = true,
                "--boids" => options.boids = args.number(&flag)?,
                "--frames" => options.frames = args.number(&flag)?,
                "--seed" => options.seed = args.number(&flag)?,
                "--threads" => options.threads = Some(args.positive(&flag)?),
                "--png" => options.png = Some(args.value(&flag)?.into()),
                "--gif" => options.gif = Some(args.value(&flag)?.into()),
                "--gif-every" => options.gif_every = args.positive(&flag)?,
                "--size" => options.size = Some(args.positive(&flag)?),
                "--inspect" => options.inspect = Some(args.value(&flag)?),
                _ => return Err(unknown(&flag)),
            }
        }
        if options.inspect.is_some() && !frames_given {
            options.frames = u64::MAX;
        }
        Ok(Command::Run(options))
    }
}
