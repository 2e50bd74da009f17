//! The arena: peers play a small shooter over UDP on 127.0.0.1 with rollback
//! (ggrs). Inputs come from a seeded script and the sockets drop and delay
//! packets on purpose, so predictions fail and the world is loaded back and
//! re-simulated. Each peer prints its frames, rollbacks, re-simulated frames
//! and its checksum at the last frame, which must be equal. `--help` lists
//! the options; the game is `examples::arena`, shared with the tests.

#![forbid(unsafe_code)]

use std::net::{Ipv4Addr, SocketAddr};
use std::process::ExitCode;

use examples::arena::{
    Command, Config, Finish, LocalRun, LossySocket, Mode, NetPeer, USAGE, run_local, run_peer,
    run_synctest,
};

fn main() -> ExitCode {
    let config = match Config::parse(std::env::args().skip(1)) {
        Ok(Command::Run(config)) => config,
        Ok(Command::Help) => {
            print!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            eprintln!("arena: {error}");
            return ExitCode::from(2);
        }
    };
    match play(&config) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(error) => {
            eprintln!("arena: {error}");
            ExitCode::FAILURE
        }
    }
}

/// Plays as `config` says; `Ok(false)` when the peers' checksums differ.
fn play(config: &Config) -> Result<bool, Box<dyn std::error::Error>> {
    match config.mode {
        Mode::SyncTest { players } => {
            println!(
                "arena sync test: {players} players, {} frames, each rolled back 7 frames and re-simulated",
                config.frames
            );
            let report = run_synctest(players, config.frames, 7, config.seed)?;
            println!("{}; final checksum {:#018x}", report.stats, report.checksum);
            Ok(true)
        }
        Mode::Local { players } => {
            println!(
                "arena: {players} peers on 127.0.0.1, {} frames at {} fps, {:.0} % of packets lost, {} frames of delay",
                config.frames,
                config.fps,
                config.loss * 100.0,
                config.delay_frames
            );
            let reports = run_local(&LocalRun {
                players,
                seed: config.seed,
                frames: config.frames,
                fps: config.fps,
                input_delay: config.input_delay,
                loss: config.loss,
                delay: config.delay(),
                timeout: config.timeout,
            })?;
            for report in &reports {
                println!("{report}");
            }
            let equal = reports.windows(2).all(|w| w[0].checksum == w[1].checksum);
            println!(
                "{}",
                if equal {
                    "final checksums are equal"
                } else {
                    "final checksums DIFFER"
                }
            );
            Ok(equal)
        }
        Mode::Remote {
            local_port,
            remote,
            handle,
        } => {
            let socket = LossySocket::bind(
                local_port,
                config.loss,
                config.delay(),
                config.seed ^ (handle as u64 + 1),
            )?;
            let local = SocketAddr::from((Ipv4Addr::LOCALHOST, local_port));
            println!("arena: peer {handle} on {local}, playing against {remote}");
            let report = run_peer(NetPeer {
                handle,
                remotes: vec![(1 - handle.min(1), remote)],
                socket,
                seed: config.seed,
                frames: config.frames,
                fps: config.fps,
                input_delay: config.input_delay,
                finish: Finish::Linger(std::time::Duration::from_secs(2)),
                timeout: config.timeout,
            })?;
            println!("{report}");
            println!("compare the checksum with the other peer's");
            Ok(true)
        }
    }
}
