//! Systems with input and output: `In`, `InRef` and `InMut` handed over by
//! `run_system_with`; `pipe` and `map` making one system of several, whose
//! access is the union of its parts'; `run_system_once`; and one-shot
//! systems registered, run and unregistered through commands.

use std::num::ParseIntError;
use std::sync::{Arc, Mutex};

use ecs_core::prelude::*;
use ecs_core::schedule::ErrorHandler;

#[derive(Component, Debug, PartialEq)]
struct Enemy(u32);

struct Message(&'static str);

#[derive(Default)]
struct Log(Vec<String>);

fn parse(msg: Res<Message>) -> Result<usize, ParseIntError> {
    msg.0.parse()
}

fn report(In(result): In<Result<usize, ParseIntError>>, mut log: ResMut<Log>) {
    log.0.push(format!("{result:?}"));
}

fn world_saying(message: &'static str) -> World {
    let mut world = World::new();
    world.insert_resource(Message(message));
    world.init_resource::<Log>();
    world
}

#[test]
fn each_kind_of_input_reaches_its_system_and_the_output_comes_back() -> Result<(), Error> {
    let mut world = World::new();
    world.spawn_batch([Enemy(3), Enemy(5)]);

    let strongest = world.register_system(|In(floor): In<u32>, q: Query<&Enemy>| {
        q.iter().map(|e| e.0).filter(|&hp| hp > floor).max()
    });
    assert_eq!(world.run_system_with(strongest, 0)?, Some(5));
    assert_eq!(world.run_system_with(strongest, 5)?, None);

    let named = world.register_system(|InRef(name): InRef<str>, q: Query<&Enemy>| {
        format!("{name}: {}", q.iter().count())
    });
    assert_eq!(world.run_system_with(named, "goblins")?, "goblins: 2");

    let collect = world.register_system(|InMut(out): InMut<Vec<u32>>, q: Query<&Enemy>| {
        out.extend(q.iter().map(|e| e.0));
    });
    let mut hp = vec![1];
    world.run_system_with(collect, &mut hp)?;
    hp.sort_unstable();
    assert_eq!(hp, [1, 3, 5], "the caller's vector, extended in place");
    Ok(())
}

#[test]
fn a_pipe_hands_the_first_part_s_output_to_the_second() -> Result<(), Error> {
    for (message, logged) in [("42", "Ok(42)"), ("forty-two", "Err(ParseIntError")] {
        let mut world = world_saying(message);
        let mut schedule = Schedule::new();
        schedule.add_system(Stage::Update, parse.pipe(report))?;
        schedule.run(&mut world)?;
        schedule.run(&mut world)?;
        let log = &world.resource::<Log>()?.0;
        assert_eq!(log.len(), 2, "one entry per frame");
        assert!(log[0].starts_with(logged), "{log:?}");
    }
    Ok(())
}

/// The pipe is scheduled with what both parts touch: a system writing the
/// first part's input and one writing the second part's output each
/// conflict with it.
#[test]
fn a_pipe_touches_the_union_of_its_parts() -> Result<(), Error> {
    fn rewrite(mut msg: ResMut<Message>) {
        msg.0 = "7";
    }
    fn clear(mut log: ResMut<Log>) {
        log.0.clear();
    }
    fn unrelated(_: Query<&Enemy>) {}

    let mut schedule = Schedule::new();
    schedule.add_systems(
        Stage::Update,
        (parse.pipe(report), rewrite, clear, unrelated),
    )?;
    let why = schedule.explain()?;
    let stage = why.stage(Stage::Update).unwrap();
    let mut with_pipe: Vec<&str> = stage
        .conflicts
        .iter()
        .filter_map(|o| match (o.first.as_str(), o.second.as_str()) {
            ("parse.pipe(report)", other) | (other, "parse.pipe(report)") => Some(other),
            _ => None,
        })
        .collect();
    with_pipe.sort_unstable();
    assert_eq!(with_pipe, ["clear", "rewrite"]);
    Ok(())
}

/// Each part may touch what the other touches (they never hold their
/// params at once), but a clash inside one part refuses the pipe by name.
#[test]
fn a_clash_inside_a_part_refuses_the_pipe_and_a_clash_between_parts_does_not() {
    fn bump(mut log: ResMut<Log>) -> usize {
        log.0.push("bump".into());
        log.0.len()
    }
    fn read_twice(In(_): In<usize>, _: Res<Log>, _: ResMut<Log>) {}

    let mut world = world_saying("1");
    let mut schedule = Schedule::new();
    let error = schedule
        .add_system(Stage::Update, bump.pipe(read_twice))
        .unwrap_err();
    assert!(
        matches!(&error, Error::ConflictingAccess { system, .. } if system == "bump.pipe(read_twice)"),
        "{error}"
    );

    let sequential =
        world.register_system(bump.pipe(|In(n): In<usize>, log: Res<Log>| (n, log.0.len())));
    assert_eq!(world.run_system(sequential).unwrap(), (1, 1));
}

#[test]
fn a_pipe_ending_in_an_err_goes_to_the_error_handler_by_its_name() -> Result<(), Error> {
    fn check(In(result): In<Result<usize, ParseIntError>>) -> Result<(), String> {
        let n = result.map_err(|e| format!("not a number: {e}"))?;
        if n > 10 {
            Ok(())
        } else {
            Err(format!("{n} is too small"))
        }
    }
    let mut world = world_saying("4");
    let mut schedule = Schedule::new();
    schedule.set_error_handler(ErrorHandler::ignore);
    schedule.add_system(Stage::Update, parse.pipe(check))?;
    schedule.run(&mut world)?;
    let errors = schedule.system_errors();
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].system(), "parse.pipe(check)");
    assert_eq!(errors[0].error().to_string(), "4 is too small");
    Ok(())
}

#[test]
fn map_turns_an_output_into_another() -> Result<(), Error> {
    fn count(q: Query<&Enemy>) -> usize {
        q.iter().count()
    }
    let mut world = World::new();
    world.spawn_batch([Enemy(1), Enemy(2), Enemy(3)]);
    assert_eq!(world.run_system_once(count.map(|n| n * 10))?, 30);
    let failed = world.run_system_once(parse.map(|r| r.is_err()));
    assert!(
        matches!(&failed, Err(Error::InSystem { system, .. }) if system.starts_with("parse.map(")),
        "no `Message` to fetch: {failed:?}"
    );
    world.insert_resource(Message("x"));
    assert!(world.run_system_once(parse.map(|r| r.is_err()))?);
    Ok(())
}

/// bevy's `system_piping.rs`: a parse result handed to a handler, results
/// logged at three levels through `map`, and an output dropped. The log is
/// what its console shows.
#[test]
fn bevy_system_piping_scenario_logs_what_its_console_shows() -> Result<(), Error> {
    #[derive(Default)]
    struct Data(Option<String>);

    let console: Arc<Mutex<Vec<String>>> = Arc::default();
    let level = |name: &'static str, console: &Arc<Mutex<Vec<String>>>| {
        let console = Arc::clone(console);
        move |result: Result<usize, String>| {
            let line = match result {
                Ok(n) => format!("{name}: {n}"),
                Err(e) => format!("{name}: {e}"),
            };
            console.lock().unwrap().push(line);
        }
    };
    fn parse_message(msg: Res<Message>) -> Result<usize, String> {
        msg.0.parse().map_err(|e: ParseIntError| e.to_string())
    }
    fn parse_error_message(_: Res<Message>) -> Result<usize, String> {
        "I am not a number"
            .parse()
            .map_err(|e: ParseIntError| e.to_string())
    }
    fn data_pipe(data: Res<Data>) -> Result<usize, String> {
        data.0
            .as_deref()
            .map(str::len)
            .ok_or_else(|| "no data".to_owned())
    }
    fn warning_pipe(msg: Res<Message>) -> Result<usize, String> {
        Err(format!("message {} is a warning", msg.0))
    }
    fn handler(In(result): In<Result<usize, String>>, mut log: ResMut<Log>) {
        log.0.push(match result {
            Ok(value) => format!("parsed message: {value}"),
            Err(err) => format!("encountered an error: {err}"),
        });
    }

    let mut world = world_saying("42");
    world.insert_resource(Data(Some("data".into())));
    let mut schedule = Schedule::single_threaded();
    schedule.add_systems(
        Stage::Update,
        (
            parse_message.pipe(handler),
            data_pipe.map(level("info", &console)),
            parse_error_message.map(level("warn", &console)),
            warning_pipe.map(level("error", &console)),
            parse_message.map(drop),
        )
            .chain(),
    )?;
    schedule.run(&mut world)?;
    assert_eq!(world.resource::<Log>()?.0, ["parsed message: 42"]);
    assert_eq!(
        *console.lock().unwrap(),
        [
            "info: 4",
            "warn: invalid digit found in string",
            "error: message 42 is a warning"
        ]
    );
    Ok(())
}

#[test]
fn run_system_once_builds_runs_and_drops() -> Result<(), Error> {
    let mut world = World::new();
    world.spawn_batch([Enemy(1), Enemy(2), Enemy(3)]);
    assert_eq!(
        world.run_system_once(|q: Query<&Enemy>| q.iter().count())?,
        3
    );
    let total = world.run_system_once_with(
        |In(bonus): In<u32>, q: Query<&Enemy>| q.iter().map(|e| e.0 + bonus).sum::<u32>(),
        10,
    )?;
    assert_eq!(total, 36);
    world.run_system_once(|mut commands: Commands| {
        commands.spawn(Enemy(4));
    })?;
    assert_eq!(
        world.query::<&Enemy>().iter().count(),
        4,
        "its commands applied"
    );
    Ok(())
}

#[test]
fn commands_register_run_and_unregister_systems() -> Result<(), Error> {
    #[derive(Default)]
    struct Ids(Option<SystemId<In<u32>>>);

    fn arm(mut commands: Commands, mut ids: ResMut<Ids>) {
        let spawn = commands.register_system(|In(hp): In<u32>, mut commands: Commands| {
            commands.spawn(Enemy(hp));
        });
        commands.run_system_with(spawn, 7);
        ids.0 = Some(spawn);
    }

    let mut world = World::new();
    world.init_resource::<Ids>();
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, arm)?;
    schedule.run(&mut world)?;
    let spawn = world.resource::<Ids>()?.0.unwrap();
    assert_eq!(
        world.query::<&Enemy>().iter().collect::<Vec<_>>(),
        [&Enemy(7)]
    );

    world.run_system_with(spawn, 9)?;
    assert_eq!(world.query::<&Enemy>().iter().count(), 2);

    let mut commands = world.commands();
    commands.unregister_system(spawn);
    commands.run_system_with(spawn, 11);
    let failed = world.flush();
    assert_eq!(failed, [Error::UnknownSystemId { id: spawn.index() }]);
    assert_eq!(world.query::<&Enemy>().iter().count(), 2);

    let unit = world.register_system(|mut commands: Commands| {
        commands.spawn(Enemy(1));
    });
    world.commands().run_system(unit);
    assert_eq!(world.flush(), []);
    assert_eq!(world.query::<&Enemy>().iter().count(), 3);
    Ok(())
}

/// Ids are the process's: one world's id is unknown to another.
#[test]
fn an_id_from_another_world_is_unknown() {
    let mut first = World::new();
    let mut second = World::new();
    let id = first.register_system(|| 1);
    let other = second.register_system(|| 2);
    assert_ne!(id, other);
    assert_eq!(
        second.run_system(id),
        Err(Error::UnknownSystemId { id: id.index() })
    );
    assert_eq!(first.run_system(id), Ok(1));
}

#[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
enum GameState {
    #[default]
    Playing,
}

struct Levels(Vec<&'static str>);
struct Arena;

#[derive(Debug)]
struct LevelError(&'static str);

impl std::fmt::Display for LevelError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no level named {}", self.0)
    }
}

impl std::error::Error for LevelError {}

fn load_level(mut commands: Commands, levels: Res<Levels>) -> Result<(), LevelError> {
    let level = levels
        .0
        .iter()
        .find(|&&l| l == "intro")
        .ok_or(LevelError("intro"))?;
    commands.spawn_batch((0..level.len() as u32).map(Enemy));
    Ok(())
}

/// A game's fallible, piped, grouped and one-shot systems in one schedule,
/// written as a game writes them.
#[test]
fn a_game_s_fallible_piped_grouped_and_one_shot_systems_run_together() -> Result<(), Error> {
    fn spawn_wave(mut log: ResMut<Log>) {
        log.0.push("wave".into());
    }
    fn move_ships(mut log: ResMut<Log>) {
        log.0.push("move".into());
    }
    fn collide(mut log: ResMut<Log>) {
        log.0.push("collide".into());
    }
    fn referee(mut log: ResMut<Log>) {
        log.0.push("referee".into());
    }

    let mut world = world_saying("12");
    world.insert_resource(Levels(vec!["intro"]));
    world.init_state::<GameState>();
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Startup, load_level)?;
    schedule.add_system(Stage::Update, parse.pipe(report).before("wave"))?;
    schedule.add_systems(
        Stage::Update,
        (spawn_wave.named("wave"), move_ships, collide)
            .chain()
            .run_if(in_state(GameState::Playing)),
    )?;
    schedule.add_system(Stage::Update, referee.in_set("combat").after(collide))?;
    schedule.configure_set(Stage::Update, "combat", run_if(resource_exists::<Arena>))?;
    schedule.set_error_handler(ErrorHandler::warn);
    schedule.run(&mut world)?;
    assert_eq!(
        world.query::<&Enemy>().iter().count(),
        5,
        "the intro level's"
    );
    assert_eq!(
        world.resource::<Log>()?.0,
        ["Ok(12)", "wave", "move", "collide"]
    );
    world.insert_resource(Arena);
    schedule.run(&mut world)?;
    assert_eq!(
        world.resource::<Log>()?.0[4..],
        ["Ok(12)", "wave", "move", "collide", "referee"]
    );

    let double = world.register_system(|In(x): In<i32>| x * 2);
    assert_eq!(world.run_system_with(double, 21)?, 42);
    assert_eq!(
        world.run_system_once(|q: Query<&Enemy>| q.iter().count())?,
        5
    );
    let explode = world.register_system(|mut commands: Commands, q: Query<Entity>| {
        for e in q.iter() {
            commands.despawn(e);
        }
    });
    world.commands().run_system(explode);
    assert_eq!(world.flush(), []);
    assert_eq!(world.query::<&Enemy>().iter().count(), 0);
    Ok(())
}
