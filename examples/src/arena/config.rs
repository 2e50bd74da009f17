//! What a run plays, and its command line.

use std::net::SocketAddr;
use std::time::Duration;

use crate::cli::{Args, CliError, unknown};

/// What `--help` prints.
pub const USAGE: &str = "\
arena: a small shooter played by peers over UDP on 127.0.0.1 with rollback (ggrs);
inputs come from a seeded script, and the sockets drop and delay packets on purpose

usage: cargo run --release -p examples --example arena -- [options]

options:
  --players N        peers in this process, one thread each (default 2)
  --local-port P     play one peer in this process, on 127.0.0.1:P ...
  --remote ADDR      ... against the peer at ADDR (run the mirror in another shell)
  --handle H         this peer's player number with --local-port (default: 0 for
                     the lower port of the two, else 1)
  --frames N         report each peer's checksum at frame N (default 600)
  --fps N            frames per second (default 60)
  --loss F           share of packets each socket drops, 0 to 1 (default 0.1)
  --delay N          frames each socket holds a packet back (default 3)
  --input-delay N    frames between an input and the frame it applies to (default 1)
  --seed S           seeds the arena, the inputs and the losses (default 1)
  --timeout S        give up after S seconds (default 120)
  --synctest         run ggrs's sync test instead: every frame rolled back and
                     re-simulated, checksums compared
  --help             print this
";

/// Where the peers run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Every peer in this process, on its own thread.
    Local {
        /// How many.
        players: usize,
    },
    /// One peer here, the other in another process.
    Remote {
        /// This peer's port on 127.0.0.1.
        local_port: u16,
        /// The other peer's address.
        remote: SocketAddr,
        /// This peer's handle (the other has the other one).
        handle: usize,
    },
    /// ggrs's sync test, in this process.
    SyncTest {
        /// How many players.
        players: usize,
    },
}

/// What to play.
///
/// ```
/// use examples::arena::{Command, Config, Mode};
///
/// let args = ["--local-port", "7000", "--remote", "127.0.0.1:7001", "--loss=0.2"].map(String::from);
/// let Command::Run(config) = Config::parse(args)? else { panic!() };
/// assert_eq!(config.loss, 0.2);
/// assert!(matches!(config.mode, Mode::Remote { handle: 0, .. }));
/// # Ok::<(), examples::arena::CliError>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// Where the peers run.
    pub mode: Mode,
    /// The frame whose checksum each peer reports.
    pub frames: u32,
    /// Frames per second.
    pub fps: u32,
    /// The share of packets dropped.
    pub loss: f64,
    /// Frames a packet is held back.
    pub delay_frames: u32,
    /// Frames between an input and the frame it applies to.
    pub input_delay: usize,
    /// Seeds everything random.
    pub seed: u64,
    /// The most a run may take.
    pub timeout: Duration,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            mode: Mode::Local { players: 2 },
            frames: 600,
            fps: 60,
            loss: 0.1,
            delay_frames: 3,
            input_delay: 1,
            seed: 1,
            timeout: Duration::from_secs(120),
        }
    }
}

/// What the command line asks for.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Play.
    Run(Config),
    /// Print [`USAGE`] and stop.
    Help,
}

impl Config {
    /// Parses the arguments after the program name.
    ///
    /// # Errors
    /// An unknown flag, a missing or malformed value, a loss outside 0 to 1,
    /// or `--local-port` without `--remote` (or the reverse).
    pub fn parse(args: impl IntoIterator<Item = String>) -> Result<Command, CliError> {
        let mut config = Self::default();
        let mut args = Args::new(args);
        let mut players: usize = 2;
        let mut local_port: Option<u16> = None;
        let mut remote: Option<SocketAddr> = None;
        let mut handle: Option<usize> = None;
        let mut synctest = false;
        while let Some(flag) = args.next_flag() {
            match flag.name.as_str() {
                "--help" | "-h" => return Ok(Command::Help),
                "--players" => players = args.positive(&flag)?,
                "--local-port" => local_port = Some(args.number(&flag)?),
                "--remote" => {
                    let value = args.value(&flag)?;
                    let addr = value.parse().map_err(|_| {
                        CliError::new(format!(
                            "--remote wants an address like 127.0.0.1:7001, not `{value}`"
                        ))
                    })?;
                    remote = Some(addr);
                }
                "--handle" => handle = Some(args.number(&flag)?),
                "--frames" => config.frames = args.positive(&flag)?,
                "--fps" => config.fps = args.positive(&flag)?,
                "--loss" => config.loss = args.number(&flag)?,
                "--delay" => config.delay_frames = args.number(&flag)?,
                "--input-delay" => config.input_delay = args.number(&flag)?,
                "--seed" => config.seed = args.number(&flag)?,
                "--timeout" => config.timeout = Duration::from_secs(args.positive(&flag)?),
                "--synctest" => synctest = true,
                _ => return Err(unknown(&flag)),
            }
        }
        if !(0.0..=1.0).contains(&config.loss) {
            return Err(CliError::new(format!(
                "--loss wants a share from 0 to 1, not {}",
                config.loss
            )));
        }
        config.mode = match (local_port, remote, synctest) {
            (_, _, true) => Mode::SyncTest { players },
            (Some(local_port), Some(remote), false) => Mode::Remote {
                local_port,
                remote,
                handle: handle.unwrap_or(usize::from(local_port > remote.port())),
            },
            (None, None, false) => Mode::Local { players },
            _ => {
                return Err(CliError::new(
                    "--local-port and --remote go together, one peer per process",
                ));
            }
        };
        Ok(Command::Run(config))
    }

    /// How long a socket holds a packet back: `delay_frames` frames.
    pub fn delay(&self) -> Duration {
        Duration::from_secs_f64(f64::from(self.delay_frames) / f64::from(self.fps))
    }
}
