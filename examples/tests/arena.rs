//! The arena under ggrs: the sync test over 600 frames, two peers over
//! lossy loopback UDP, and both against the same frames run offline.
//! Every run is bounded: the networked one by its own time limit.

use std::collections::BTreeSet;
use std::time::Duration;

use ecs_core::prelude::*;
use examples::arena::input::scripted;
use examples::arena::{
    Arena, Command, Config, LocalRun, Mode, TRAIL_FRAMES, run_local, run_synctest,
};

/// The checksum of the world at the start of frame `frames` when every
/// player follows the script from the start, each input applying
/// `input_delay` frames after it is given (ggrs's input delay; the first
/// frames get the default input, 0).
fn offline_checksum(players: u8, seed: u64, frames: u32, input_delay: u32) -> u64 {
    let mut arena = Arena::new(players, seed).unwrap();
    for frame in 0..frames {
        let inputs: Vec<u8> = (0..usize::from(players))
            .map(|handle| {
                frame
                    .checked_sub(input_delay)
                    .map_or(0, |given| scripted(seed, handle, given))
            })
            .collect();
        arena.advance(&inputs).unwrap();
    }
    arena.checksum()
}

fn live(world: &mut World) -> BTreeSet<Entity> {
    world.query::<Entity>().iter().collect()
}

#[test]
fn every_frame_spawns_and_despawns_entities() {
    let seed = 3;
    let mut arena = Arena::new(2, seed).unwrap();
    for frame in 0..60 {
        let before = live(&mut arena.world);
        let inputs = [scripted(seed, 0, frame), scripted(seed, 1, frame)];
        arena.advance(&inputs).unwrap();
        let after = live(&mut arena.world);
        assert!(
            after.difference(&before).next().is_some(),
            "frame {frame} spawns"
        );
        if frame >= u32::from(TRAIL_FRAMES) {
            assert!(
                before.difference(&after).next().is_some(),
                "frame {frame} despawns"
            );
        }
    }
}

/// ggrs's `SyncTestSession` loads the frame 7 back every frame, runs the
/// frames again and compares their checksums with the first run's: any
/// difference fails the advance with `MismatchedChecksum`.
#[test]
fn sync_test_600_frames_never_mismatches() {
    let seed = 11;
    let report = run_synctest(2, 600, 7, seed).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(report.stats.frames, 600);
    assert!(report.stats.rollbacks > 500, "{}", report.stats);
    assert_eq!(report.stats.resimulated, report.stats.rollbacks * 7);
    assert_eq!(report.checksum, offline_checksum(2, seed, 600, 2));
}

#[test]
fn two_peers_over_lossy_loopback_reach_the_same_checksum() {
    let run = LocalRun {
        players: 2,
        seed: 21,
        frames: 240,
        fps: 240,
        input_delay: 1,
        loss: 0.1,
        delay: Duration::from_millis(12),
        timeout: Duration::from_secs(60),
    };
    let reports = run_local(&run).unwrap_or_else(|error| panic!("{error}"));
    assert_eq!(reports.len(), 2);
    assert_eq!(reports[0].checksum, reports[1].checksum);
    assert_eq!(
        reports[0].checksum,
        offline_checksum(2, run.seed, run.frames, 1)
    );
    for report in &reports {
        assert!(report.packets.1 > 0, "packets were dropped: {report}");
        assert!(report.stats.frames >= u64::from(run.frames), "{report}");
    }
    assert!(
        reports.iter().any(|report| report.stats.rollbacks > 0),
        "mispredictions rolled back: {reports:?}"
    );
}

#[test]
fn the_command_line_says_what_is_wrong() {
    let parse = |args: &[&str]| Config::parse(args.iter().map(|s| s.to_string()));
    assert!(matches!(
        parse(&["--players", "3"]),
        Ok(Command::Run(Config {
            mode: Mode::Local { players: 3 },
            ..
        }))
    ));
    let err = parse(&["--loss", "1.5"]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "--loss wants a share from 0 to 1, not 1.5 (see --help)"
    );
    let err = parse(&["--local-port", "7000"]).unwrap_err();
    assert!(
        err.to_string()
            .contains("--local-port and --remote go together"),
        "{err}"
    );
    let Ok(Command::Run(config)) = parse(&["--local-port", "7001", "--remote", "127.0.0.1:7000"])
    else {
        panic!("a valid command line");
    };
    assert!(
        matches!(config.mode, Mode::Remote { handle: 1, .. }),
        "the higher port is player 1"
    );
}

/// The same frames on a pool of one thread and on a pool of four: the same
/// checksum, frame by frame.
#[test]
fn the_checksum_is_the_same_on_one_thread_and_many() {
    let seed = 8;
    let checksums = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut arena = Arena::new(3, seed).unwrap();
            (0..120)
                .map(|frame| {
                    let inputs: Vec<u8> = (0..3).map(|h| scripted(seed, h, frame)).collect();
                    arena.advance(&inputs).unwrap();
                    arena.checksum()
                })
                .collect::<Vec<u64>>()
        })
    };
    assert_eq!(checksums(1), checksums(4));
}
