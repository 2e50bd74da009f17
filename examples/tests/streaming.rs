//! The streaming demo keeps its promises: every `#[entity]` reference of a
//! level points into that same level after the merge, unloading leaves
//! nothing of the old level but what is tagged `DontDestroyOnLoad`, the
//! player keeps its id through every load, doors open exactly when their
//! switch is pressed, the score adds up, and a seed replays the same run.

use ecs_core::prelude::*;
use examples::streaming::{
    BuiltLevel, Config, DOOR_POINTS, DontDestroyOnLoad, Door, Exit, FrameLog, Game, Happening,
    Level, LevelRoot, Open, Patrol, Player, Pressed, SPOTTED_PENALTY, Score, Switch, Waypoint,
};

const SEED: u64 = 11;
const LEVELS: u32 = 4;

fn config() -> Config {
    Config {
        seed: SEED,
        levels: LEVELS,
        frames: 100_000,
    }
}

/// The level an entity belongs to; panics for one that has none.
fn level_of(world: &World, entity: Entity) -> u32 {
    world
        .get::<Level>(entity)
        .unwrap_or_else(|e| panic!("{entity} has no level: {e}"))
        .0
}

/// Every reference a level's components hold names a live entity of the
/// right kind in the same level.
fn assert_references_hold(world: &World, level: u32) {
    let mut doors = 0;
    for (door, d) in world.query_ref::<(Entity, &Door)>().iter() {
        doors += 1;
        assert_eq!(
            level_of(world, door),
            level,
            "door {door} of an unloaded level"
        );
        if let Some(switch) = d.switch {
            assert!(
                world.contains::<Switch>(switch),
                "door {door}: {switch} is no live switch"
            );
            assert_eq!(
                level_of(world, switch),
                level,
                "door {door}: switch {switch}"
            );
        }
    }
    assert!(doors > 0, "level {level} has doors");

    let mut guards = 0;
    for (guard, patrol) in world.query_ref::<(Entity, &Patrol)>().iter() {
        guards += 1;
        assert!(
            (3..=6).contains(&patrol.route.len()),
            "guard {guard}: {patrol:?}"
        );
        assert!(patrol.next < patrol.route.len());
        for &stop in &patrol.route {
            assert!(
                world.contains::<Waypoint>(stop),
                "guard {guard}: {stop} is no live waypoint"
            );
            assert_eq!(
                level_of(world, stop),
                level,
                "guard {guard}: waypoint {stop}"
            );
        }
    }
    assert!(guards > 0, "level {level} has guards");

    let (root_id, root) = world
        .query_ref::<(Entity, &LevelRoot)>()
        .single()
        .expect("one level root");
    assert_eq!((root.number, level_of(world, root_id)), (level, level));
    let (last, switches) = root.tour.split_last().expect("a tour");
    assert_eq!(*last, root.exit);
    assert!(world.contains::<Exit>(root.exit));
    assert_eq!(level_of(world, root.exit), level);
    for &switch in switches {
        assert!(
            world.contains::<Switch>(switch),
            "tour stop {switch} is no live switch"
        );
        assert_eq!(level_of(world, switch), level);
    }
}

/// Nothing lives but the kept entities and the current level's.
fn assert_only_current_level_lives(world: &World, level: u32, kept: &[Entity]) {
    let dont_destroy: Vec<Entity> = world
        .query_ref::<Entity>()
        .with::<DontDestroyOnLoad>()
        .iter()
        .collect();
    assert_eq!(dont_destroy, kept);
    for entity in world
        .query_ref::<Entity>()
        .without::<DontDestroyOnLoad>()
        .iter()
    {
        assert_eq!(
            level_of(world, entity),
            level,
            "{entity} outlived its level"
        );
    }
}

/// A door is open exactly when its switch is pressed; sealed doors stay shut.
fn assert_doors_follow_switches(world: &World) {
    for (door, d) in world.query_ref::<(Entity, &Door)>().iter() {
        let pressed = d.switch.is_some_and(|s| world.contains::<Pressed>(s));
        assert_eq!(world.contains::<Open>(door), pressed, "door {door} ({d:?})");
    }
}

#[test]
fn references_survive_every_merge_and_unloading_keeps_only_dont_destroy_on_load() {
    let mut game = Game::new(&config()).unwrap();
    let (player, keeper) = (game.player(), game.score_keeper());
    let mut previous_level: Vec<Entity> = Vec::new();
    let mut loads = Vec::new();
    while !game.is_finished() {
        let alive_before = game.world().len();
        let log = game.step().unwrap();
        let world = game.world();
        for happening in &log.happenings {
            if let &Happening::LevelLoaded {
                number,
                merged,
                despawned,
            } = happening
            {
                loads.push(number);
                assert_eq!(merged, BuiltLevel::new(SEED, number).world.len());
                assert_eq!(
                    despawned,
                    alive_before - 2,
                    "all but the player and the keeper"
                );
                assert_eq!(despawned, previous_level.len());
                for &old in &previous_level {
                    assert!(
                        !world.is_alive(old),
                        "{old} of level {} survived",
                        number - 1
                    );
                }
            }
        }
        let level = game.level();
        assert_references_hold(world, level);
        assert_only_current_level_lives(world, level, &[player, keeper]);
        assert_doors_follow_switches(world);
        assert!(world.contains::<Player>(player), "the player keeps its id");
        assert!(world.contains::<Score>(keeper), "the keeper keeps its id");
        previous_level = world
            .query_ref::<Entity>()
            .without::<DontDestroyOnLoad>()
            .iter()
            .collect();
    }
    assert_eq!(loads, [1, 2, 3, 4]);
    assert_eq!(game.level(), LEVELS);
}

#[test]
fn every_level_is_played_through_and_the_score_adds_up() {
    let mut game = Game::new(&config()).unwrap();
    let (mut score, mut exits, mut doors) = (0u32, Vec::new(), 0);
    while !game.is_finished() {
        for happening in game.step().unwrap().happenings {
            let (expected, reported) = match happening {
                Happening::DoorOpened { score: s, .. } => {
                    doors += 1;
                    (score + DOOR_POINTS, s)
                }
                Happening::CoinPicked { value, score: s } => (score + value, s),
                Happening::Spotted { score: s, .. } => (score.saturating_sub(SPOTTED_PENALTY), s),
                Happening::ExitReached { number } => {
                    exits.push(number);
                    continue;
                }
                Happening::LevelLoaded { .. } => continue,
            };
            assert_eq!(reported, expected);
            score = reported;
        }
    }
    assert_eq!(exits, [1, 2, 3, 4]);
    assert_eq!(game.score(), score);
    // Every switch of every level is on the tour and opens one door.
    let switches: usize = (1..=LEVELS)
        .map(|n| {
            BuiltLevel::new(SEED, n)
                .world
                .query_ref::<&Switch>()
                .iter()
                .count()
        })
        .sum();
    assert_eq!(doors, switches);
}

/// The printed log, the final world as text, and the summary.
fn replay(config: &Config) -> (Vec<String>, String, String) {
    let mut game = Game::new(config).unwrap();
    let mut lines = Vec::new();
    while !game.is_finished() {
        let log: FrameLog = game.step().unwrap();
        if !log.is_quiet() {
            lines.push(log.to_string());
        }
    }
    let world = game.world().inspect_all().to_string();
    (lines, world, game.summary().to_string())
}

#[test]
fn a_seed_replays_the_same_run() {
    let first = replay(&config());
    assert_eq!(first, replay(&config()));
    assert!(first.0.len() > 20, "{:?}", first.0);
    assert_ne!(
        first.0,
        replay(&Config {
            seed: SEED + 1,
            ..config()
        })
        .0
    );
}

#[test]
fn the_frame_bound_stops_a_run_mid_level_and_the_loader_winds_down() {
    let mut game = Game::new(&Config {
        frames: 30,
        ..config()
    })
    .unwrap();
    let mut frames = 0;
    while !game.is_finished() {
        game.step().unwrap();
        frames += 1;
    }
    assert_eq!((frames, game.frame(), game.level()), (30, 30, 1));
    assert!(
        game.step().unwrap().is_quiet(),
        "a finished game runs nothing"
    );
    assert_eq!(game.frame(), 30);
    // Dropping the game while the loader waits to hand over level 2 must
    // not hang: the loader sees the channel close and returns.
    drop(game);
}

#[test]
fn no_levels_no_frames() {
    let game = Game::new(&Config {
        levels: 0,
        ..config()
    })
    .unwrap();
    assert!(game.is_finished());
    assert_eq!(game.world().len(), 2, "the player and the score keeper");
}
