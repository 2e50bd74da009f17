//! The arena: a small shooter played over the network with rollback, through
//! the `ggrs` crate (GGPO-style peer-to-peer sessions).
//!
//! Each peer runs the same [`Arena`] (a world and a `Schedule`); inputs come
//! from a seeded [`input::scripted`] script; a [`LossySocket`] on 127.0.0.1
//! drops and delays a share of the packets so predictions fail and rollbacks
//! really happen. [`Peer`] carries out ggrs's requests: a `WorldState` saved
//! per frame by a `PersistRegistry`, loaded back on a rollback, with its
//! checksum for desync detection. [`run_synctest`] runs ggrs's sync test;
//! [`run_peer`] one networked peer; [`run_local`] several on threads.

mod config;
mod game;
pub mod input;
mod run;
mod session;
mod socket;

pub use config::{Command, Config, Mode, USAGE};
pub use game::{
    Arena, ArenaRng, Bullet, FULL_HEALTH, FrameCount, HALF_SIZE, Health, Inputs, Lifetime, Player,
    Position, TRAIL_FRAMES, Velocity, corner, rollback_registry,
};
pub use run::{Finish, LocalRun, NetPeer, Report, RunError, run_local, run_peer, run_synctest};
pub use session::{ArenaConfig, Peer, Stats};
pub use socket::{LossySocket, PacketCounts};

pub use crate::cli::CliError;
