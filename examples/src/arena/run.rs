//! Running the arena under a ggrs session: a sync test, which rolls back and
//! re-simulates every frame, and a peer-to-peer peer over UDP.

use core::fmt;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use ggrs::{DesyncDetection, GgrsError, GgrsEvent, PlayerType, SessionBuilder, SessionState};

use super::game::Arena;
use super::input::scripted;
use super::session::{ArenaConfig, Peer, Stats};
use super::socket::{LossySocket, PacketCounts};

/// Why a run stopped short.
#[derive(Debug)]
pub enum RunError {
    /// ggrs refused a call (a sync test's mismatched checksum among them).
    Ggrs(GgrsError),
    /// A frame failed.
    World(ecs_core::Error),
    /// Two peers saved different checksums for one frame.
    Desync {
        /// The frame.
        frame: i32,
        /// This peer's checksum.
        local: u128,
        /// The other peer's.
        remote: u128,
    },
    /// A peer went silent before the run was done.
    Disconnected(SocketAddr),
    /// The run took longer than its time limit.
    TimedOut {
        /// The frame this peer was at.
        frame: i32,
        /// The last frame whose every input it had.
        confirmed: i32,
    },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Ggrs(error) => write!(f, "the session refused: {error}"),
            RunError::World(error) => write!(f, "a frame failed: {error}"),
            RunError::Desync {
                frame,
                local,
                remote,
            } => write!(
                f,
                "desync at frame {frame}: checksum {local:#x} here, {remote:#x} at the other peer"
            ),
            RunError::Disconnected(addr) => write!(f, "the peer at {addr} disconnected"),
            RunError::TimedOut { frame, confirmed } => write!(
                f,
                "out of time at frame {frame}, with inputs confirmed up to frame {confirmed}"
            ),
        }
    }
}

impl std::error::Error for RunError {}

impl From<GgrsError> for RunError {
    fn from(error: GgrsError) -> Self {
        RunError::Ggrs(error)
    }
}

impl From<ecs_core::Error> for RunError {
    fn from(error: ecs_core::Error) -> Self {
        RunError::World(error)
    }
}

/// What a run ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Report {
    /// The ggrs handle of the peer (0 for a sync test).
    pub handle: usize,
    /// Frames, rollbacks, re-simulated frames.
    pub stats: Stats,
    /// The frame whose checksum is reported.
    pub frame: u32,
    /// The world's checksum at the start of `frame`, once every input
    /// before it was confirmed.
    pub checksum: u64,
    /// Packets the peer's socket was handed, and dropped on purpose.
    pub packets: (u64, u64),
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "peer {}: {}; {} of {} packets dropped; checksum at frame {}: {:#018x}",
            self.handle, self.stats, self.packets.1, self.packets.0, self.frame, self.checksum
        )
    }
}

/// Runs `frames` frames of a `players`-player arena under ggrs's
/// `SyncTestSession`, which saves every frame, loads the frame
/// `check_distance` back, re-simulates to the present and fails with a
/// mismatched checksum should any re-simulated frame differ.
///
/// ```
/// let report = examples::arena::run_synctest(2, 30, 4, 1)?;
/// assert_eq!(report.stats.frames, 30);
/// assert!(report.stats.resimulated > 0);
/// # Ok::<(), examples::arena::RunError>(())
/// ```
///
/// # Errors
/// [`RunError::Ggrs`] with `MismatchedChecksum` on a desync, or a frame's error.
pub fn run_synctest(
    players: usize,
    frames: u32,
    check_distance: usize,
    seed: u64,
) -> Result<Report, RunError> {
    let mut session = SessionBuilder::<ArenaConfig>::new()
        .with_num_players(players)?
        .with_check_distance(check_distance)
        .with_input_delay(2)
        .start_synctest_session()?;
    let mut peer = Peer::new(Arena::new(players as u8, seed)?);
    for frame in 0..frames {
        for handle in 0..players {
            session.add_local_input(handle, scripted(seed, handle, frame))?;
        }
        peer.handle(session.advance_frame()?)?;
    }
    Ok(Report {
        handle: 0,
        stats: peer.stats(),
        frame: frames,
        checksum: peer.arena().checksum(),
        packets: (0, 0),
    })
}

/// When a peer that has its checksum stops.
#[derive(Clone, Debug)]
pub enum Finish {
    /// Peers in one process: each counts itself done here, and all stop
    /// once every one of the given number is, so none leaves while another
    /// still needs its packets.
    Together(Arc<AtomicUsize>, usize),
    /// A peer in its own process: it keeps running this long after it is
    /// done, resending what the other may still need.
    Linger(Duration),
}

/// One peer of a peer-to-peer arena.
pub struct NetPeer {
    /// Its ggrs handle.
    pub handle: usize,
    /// Every other peer's handle and address.
    pub remotes: Vec<(usize, SocketAddr)>,
    /// Its socket.
    pub socket: LossySocket,
    /// Seeds the arena and the input script; equal on every peer.
    pub seed: u64,
    /// The frame whose checksum the run reports.
    pub frames: u32,
    /// Frames per second.
    pub fps: u32,
    /// Frames between an input and the frame it applies to.
    pub input_delay: usize,
    /// When to stop once done.
    pub finish: Finish,
    /// The most the run may take.
    pub timeout: Duration,
}

/// Runs one peer until every input before frame `frames` is confirmed and
/// the world's checksum at that frame is known, then as long as `finish`
/// says. Desync detection is on: peers compare checksums every frame.
///
/// # Errors
/// A desync, a disconnect before the end, running out of time, or a
/// session or frame error.
pub fn run_peer(options: NetPeer) -> Result<Report, RunError> {
    let NetPeer {
        handle,
        remotes,
        socket,
        seed,
        frames,
        fps,
        input_delay,
        finish,
        timeout,
    } = options;
    let players = remotes.len() + 1;
    let counts: Arc<PacketCounts> = socket.counts();
    let mut builder = SessionBuilder::<ArenaConfig>::new()
        .with_num_players(players)?
        .with_input_delay(input_delay)
        .with_desync_detection_mode(DesyncDetection::On { interval: 1 })
        .with_disconnect_timeout(Duration::from_secs(3))
        .with_fps(fps as usize)?
        .add_player(PlayerType::Local, handle)?;
    for &(remote, addr) in &remotes {
        builder = builder.add_player(PlayerType::Remote(addr), remote)?;
    }
    let mut session = builder.start_p2p_session(socket)?;
    let mut peer = Peer::new(Arena::new(players as u8, seed)?);

    let frame_time = Duration::from_secs_f64(1.0 / f64::from(fps));
    let started = Instant::now();
    let mut next_frame = started;
    let mut done_at: Option<Instant> = None;
    let target = i32::try_from(frames).expect("fewer than 2^31 frames");
    loop {
        if started.elapsed() > timeout {
            return Err(RunError::TimedOut {
                frame: session.current_frame(),
                confirmed: session.confirmed_frame(),
            });
        }
        session.poll_remote_clients();
        for event in session.events() {
            match event {
                GgrsEvent::DesyncDetected {
                    frame,
                    local_checksum,
                    remote_checksum,
                    ..
                } => {
                    return Err(RunError::Desync {
                        frame,
                        local: local_checksum,
                        remote: remote_checksum,
                    });
                }
                GgrsEvent::Disconnected { addr } if done_at.is_none() => {
                    return Err(RunError::Disconnected(addr));
                }
                GgrsEvent::WaitRecommendation { skip_frames } => {
                    next_frame += frame_time * skip_frames;
                }
                _ => {}
            }
        }
        let have_checksum = session.confirmed_frame() >= target
            && session.current_frame() > target
            && peer.checksum_at(frames).is_some();
        if have_checksum && done_at.is_none() {
            done_at = Some(Instant::now());
            if let Finish::Together(done, _) = &finish {
                done.fetch_add(1, Ordering::SeqCst);
            }
        }
        if let Some(at) = done_at {
            let stop = match &finish {
                Finish::Together(done, of) => done.load(Ordering::SeqCst) >= *of,
                Finish::Linger(linger) => at.elapsed() >= *linger,
            };
            if stop {
                break;
            }
        }
        let now = Instant::now();
        if session.current_state() != SessionState::Running || now < next_frame {
            std::thread::sleep(
                Duration::from_millis(1)
                    .min(next_frame.saturating_duration_since(now))
                    .max(Duration::from_micros(200)),
            );
            continue;
        }
        // Behind by more than a few frames (a slow machine): catch up from now.
        next_frame = (next_frame + frame_time).max(now - frame_time * 4);
        let frame = u32::try_from(session.current_frame()).expect("frames count from 0");
        session.add_local_input(handle, scripted(seed, handle, frame))?;
        match session.advance_frame() {
            Ok(requests) => peer.handle(requests)?,
            // Too far ahead of the other peer: wait for its inputs.
            Err(GgrsError::PredictionThreshold) => {}
            Err(error) => return Err(error.into()),
        }
    }
    Ok(Report {
        handle,
        stats: peer.stats(),
        frame: frames,
        checksum: peer.checksum_at(frames).expect("known once done"),
        packets: (counts.sent(), counts.dropped()),
    })
}

/// How peers run in one process, each on its own thread and its own
/// [`LossySocket`] on a free port of 127.0.0.1.
#[derive(Clone, Debug, PartialEq)]
pub struct LocalRun {
    /// How many peers (and players).
    pub players: usize,
    /// Seeds the arena, the input script and the sockets' losses.
    pub seed: u64,
    /// The frame whose checksum each peer reports.
    pub frames: u32,
    /// Frames per second.
    pub fps: u32,
    /// Frames between an input and the frame it applies to.
    pub input_delay: usize,
    /// The share of packets each socket drops.
    pub loss: f64,
    /// How long each socket holds a packet back.
    pub delay: Duration,
    /// The most the run may take.
    pub timeout: Duration,
}

/// Runs every peer of `run` at once, one thread each, and returns their
/// reports by handle.
///
/// ```
/// use examples::arena::{LocalRun, run_local};
/// use std::time::Duration;
///
/// let reports = run_local(&LocalRun {
///     players: 2,
///     seed: 5,
///     frames: 20,
///     fps: 200,
///     input_delay: 0,
///     loss: 0.0,
///     delay: Duration::ZERO,
///     timeout: Duration::from_secs(30),
/// })?;
/// assert_eq!(reports[0].checksum, reports[1].checksum);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
///
/// # Errors
/// A socket that cannot be bound, or the first peer's error.
pub fn run_local(run: &LocalRun) -> Result<Vec<Report>, Box<dyn std::error::Error>> {
    let sockets = (0..run.players)
        .map(|handle| LossySocket::bind(0, run.loss, run.delay, run.seed ^ (handle as u64 + 1)))
        .collect::<Result<Vec<_>, _>>()?;
    let addrs: Vec<SocketAddr> = sockets.iter().map(LossySocket::local_addr).collect();
    let done = Arc::new(AtomicUsize::new(0));
    let peers: Vec<_> = sockets
        .into_iter()
        .enumerate()
        .map(|(handle, socket)| {
            let options = NetPeer {
                handle,
                remotes: (0..run.players)
                    .filter(|&other| other != handle)
                    .map(|other| (other, addrs[other]))
                    .collect(),
                socket,
                seed: run.seed,
                frames: run.frames,
                fps: run.fps,
                input_delay: run.input_delay,
                finish: Finish::Together(Arc::clone(&done), run.players),
                timeout: run.timeout,
            };
            std::thread::spawn(move || run_peer(options))
        })
        .collect();
    let mut reports = Vec::new();
    for peer in peers {
        let report = peer.join().map_err(|_| "a peer's thread panicked")??;
        reports.push(report);
    }
    Ok(reports)
}
