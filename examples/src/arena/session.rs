//! The glue between ggrs and the arena: the session's types, and what each of
//! its requests does to the world (save a `WorldState`, load one, run a frame).

use core::fmt;
use std::net::SocketAddr;

use ecs_core::prelude::*;
use ggrs::{GgrsRequest, InputStatus};

use super::game::Arena;

/// The arena's ggrs types: a byte of input per player, the last input
/// repeated as the prediction, a [`WorldState`] per saved frame, UDP addresses.
pub struct ArenaConfig;

impl ggrs::Config for ArenaConfig {
    type Input = u8;
    type InputPredictor = ggrs::PredictRepeatLast;
    type State = WorldState;
    type Address = SocketAddr;
}

/// What a peer did: frames run forward, rollbacks (loads), and frames run
/// again after a load.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Frames run for the first time.
    pub frames: u64,
    /// Times the world was loaded back to an earlier frame.
    pub rollbacks: u64,
    /// Frames run again after a load.
    pub resimulated: u64,
}

impl fmt::Display for Stats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} frames, {} rollbacks, {} frames re-simulated",
            self.frames, self.rollbacks, self.resimulated
        )
    }
}

/// An arena driven by a ggrs session's requests, keeping the checksum of
/// every frame it saved (the last save of each frame wins, as a rollback
/// saves the frames it runs again).
///
/// ```
/// use examples::arena::{Arena, ArenaConfig, Peer};
/// use ggrs::SessionBuilder;
///
/// let mut session = SessionBuilder::<ArenaConfig>::new()
///     .with_num_players(1)?
///     .with_check_distance(2)
///     .start_synctest_session()?;
/// let mut peer = Peer::new(Arena::new(1, 3)?);
/// for frame in 0..10 {
///     session.add_local_input(0, (frame % 3) as u8)?;
///     peer.handle(session.advance_frame()?)?;
/// }
/// assert_eq!(peer.arena().frame(), 10);
/// assert!(peer.stats().rollbacks > 0);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Peer {
    arena: Arena,
    stats: Stats,
    checksums: Vec<Option<u64>>,
    inputs: Vec<u8>,
}

impl Peer {
    /// A peer running `arena`.
    pub fn new(arena: Arena) -> Self {
        Self {
            arena,
            stats: Stats::default(),
            checksums: Vec::new(),
            inputs: Vec::new(),
        }
    }

    /// Carries out ggrs's requests in order: saves states, loads them back,
    /// runs frames with the inputs given (a disconnected player's as 0).
    ///
    /// # Errors
    /// A frame's error, or a load of a state this arena did not save.
    ///
    /// # Panics
    /// If ggrs asks to load a frame it never had saved.
    pub fn handle(&mut self, requests: Vec<GgrsRequest<ArenaConfig>>) -> Result<(), Error> {
        // After a load, every frame run is a frame run again, but for the
        // last of the list: the new frame the call was made for.
        let mut advances_left = requests
            .iter()
            .filter(|request| matches!(request, GgrsRequest::AdvanceFrame { .. }))
            .count();
        let mut replaying = false;
        for request in requests {
            match request {
                GgrsRequest::SaveGameState { cell, frame } => {
                    let state = self.arena.save();
                    let checksum = state.checksum();
                    let at = usize::try_from(frame).expect("ggrs saves frames from 0 on");
                    if self.checksums.len() <= at {
                        self.checksums.resize(at + 1, None);
                    }
                    self.checksums[at] = Some(checksum);
                    cell.save(frame, Some(state), Some(u128::from(checksum)));
                }
                GgrsRequest::LoadGameState { cell, .. } => {
                    let state = cell.data().expect("ggrs loads only frames it saved");
                    self.arena.load(&state)?;
                    self.stats.rollbacks += 1;
                    replaying = true;
                }
                GgrsRequest::AdvanceFrame { inputs } => {
                    self.inputs.clear();
                    self.inputs.extend(inputs.iter().map(|&(input, status)| {
                        if status == InputStatus::Disconnected {
                            0
                        } else {
                            input
                        }
                    }));
                    self.arena.advance(&self.inputs)?;
                    advances_left -= 1;
                    if replaying && advances_left > 0 {
                        self.stats.resimulated += 1;
                    } else {
                        self.stats.frames += 1;
                    }
                }
            }
        }
        Ok(())
    }

    /// The arena.
    pub fn arena(&self) -> &Arena {
        &self.arena
    }

    /// What the peer did so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The checksum of the world at the start of `frame`, as last saved.
    pub fn checksum_at(&self, frame: u32) -> Option<u64> {
        self.checksums.get(frame as usize).copied().flatten()
    }
}
