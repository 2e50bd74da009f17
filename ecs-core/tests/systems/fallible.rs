//! Systems that return `Result`: an `Err` goes to the schedule's error handler
//! with the system's name and the frame, is listed in `system_errors`, counted
//! in `stats()`, and stops nothing else; the system still ran (its commands
//! apply, its change horizon moves); a one-shot run hands the error back.

use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use ecs_core::SystemError;
use ecs_core::prelude::*;

#[derive(Default)]
struct Ammo(u32);

#[derive(Default)]
struct Fired(u32);

#[derive(Component)]
struct Shell;

#[derive(Component)]
#[component(track_changes)]
struct Heat(u32);

#[derive(Debug)]
struct Jammed;

impl std::fmt::Display for Jammed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("the gun jammed")
    }
}

impl std::error::Error for Jammed {}

/// Fires while there is ammunition; spawns a shell through its commands
/// before it finds the magazine empty, so its commands apply either way.
fn fire(mut ammo: ResMut<Ammo>, mut commands: Commands) -> Result<(), String> {
    commands.spawn(Shell);
    ammo.0 = ammo.0.checked_sub(1).ok_or("out of ammunition")?;
    Ok(())
}

fn count(mut fired: ResMut<Fired>) {
    fired.0 += 1;
}

fn jam() -> Result<(), Jammed> {
    Err(Jammed)
}

fn world_with_ammo(rounds: u32) -> World {
    let mut world = World::new();
    world.insert_resource(Ammo(rounds));
    world.init_resource::<Fired>();
    world
}

#[test]
fn an_err_is_listed_with_its_system_and_frame_and_the_frame_goes_on() -> Result<(), Error> {
    let mut world = world_with_ammo(1);
    let mut schedule = Schedule::new();
    schedule.set_error_handler(ErrorHandler::ignore);
    schedule.add_systems(Stage::Update, (fire, count.after(fire)))?;
    schedule.run(&mut world)?;
    assert!(schedule.system_errors().is_empty());
    schedule.run(&mut world)?;
    schedule.run(&mut world)?;
    let errors: Vec<(&str, Option<u64>, String)> = schedule
        .system_errors()
        .iter()
        .map(|e| (e.system(), e.frame(), e.error().to_string()))
        .collect();
    assert_eq!(
        errors,
        [("fire", Some(2), "out of ammunition".to_string())],
        "the last frame's only"
    );
    assert_eq!(
        world.resource::<Fired>()?.0,
        3,
        "the system after it ran every frame"
    );
    assert_eq!(
        world.query::<&Shell>().iter().count(),
        3,
        "a failing run's commands apply"
    );
    let stats = &schedule.stats()[0];
    assert_eq!(
        (stats.name.as_str(), stats.runs, stats.failed),
        ("fire", 3, 2)
    );
    assert!(stats.to_string().ends_with(", 2 failed"), "{stats}");
    Ok(())
}

static SEEN: Mutex<Vec<String>> = Mutex::new(Vec::new());

fn record(error: &SystemError) {
    SEEN.lock().unwrap().push(error.to_string());
}

/// The handler hears of each failing system once per frame, with its first
/// error, while `system_errors` lists every one: here `jam` runs in two
/// fixed steps of one frame.
#[test]
fn the_handler_hears_each_failing_system_once_per_frame() -> Result<(), Error> {
    let mut world = World::new();
    let mut schedule = Schedule::new();
    schedule.set_error_handler(record);
    schedule.add_system(Stage::FixedUpdate, jam)?;
    world.insert_resource(Time::fixed_step(0.01));
    world
        .resource_mut::<Time>()?
        .advance_by(std::time::Duration::from_millis(25));
    schedule.run(&mut world)?;
    assert_eq!(
        schedule.system_errors().len(),
        2,
        "two fixed steps, two errors"
    );
    assert!(
        schedule.system_errors()[0]
            .downcast_ref::<Jammed>()
            .is_some()
    );
    assert_eq!(
        *SEEN.lock().unwrap(),
        ["system `jam` failed in frame 0: the gun jammed"]
    );
    Ok(())
}

#[test]
#[should_panic(expected = "system `jam` failed in frame 0: the gun jammed")]
fn the_panic_handler_panics_with_the_error_s_words() {
    let mut world = World::new();
    let mut schedule = Schedule::new();
    schedule.set_error_handler(ErrorHandler::panic);
    schedule.add_system(Stage::Update, jam).unwrap();
    let _ = schedule.run(&mut world);
}

/// A run that failed still ran: the next run's `Changed` sees only what
/// happened since.
#[test]
fn a_failing_run_moves_its_change_horizon() -> Result<(), Error> {
    static CHANGED: AtomicUsize = AtomicUsize::new(0);
    fn watch(q: Query<&Heat, Changed<Heat>>) -> Result<(), Jammed> {
        CHANGED.store(q.iter().count(), Ordering::Relaxed);
        Err(Jammed)
    }
    let mut world = World::new();
    let hot = world.spawn(Heat(1));
    world.spawn(Heat(2));
    let mut schedule = Schedule::new();
    schedule.set_error_handler(ErrorHandler::ignore);
    schedule.add_system(Stage::Update, watch)?;
    schedule.run(&mut world)?;
    assert_eq!(
        CHANGED.load(Ordering::Relaxed),
        2,
        "both are new to its first run"
    );
    world.get_mut::<Heat>(hot)?.0 += 1;
    schedule.run(&mut world)?;
    assert_eq!(
        CHANGED.load(Ordering::Relaxed),
        1,
        "only what changed since the failed run"
    );
    Ok(())
}

/// A system with a run condition fails the same way, and a closure may
/// return `Result` too.
#[test]
fn conditions_and_closures_return_results() -> Result<(), Error> {
    let mut world = world_with_ammo(0);
    let mut schedule = Schedule::new();
    schedule.set_error_handler(ErrorHandler::ignore);
    schedule.add_system(Stage::Update, fire.run_if(resource_exists::<Ammo>))?;
    schedule.add_system(
        Stage::Update,
        (|fired: Res<Fired>| -> Result<(), std::num::TryFromIntError> {
            u8::try_from(fired.0 + 300).map(drop)
        })
        .named("narrow"),
    )?;
    schedule.run(&mut world)?;
    let mut failed: Vec<&str> = schedule
        .system_errors()
        .iter()
        .map(|e| e.system())
        .collect();
    failed.sort_unstable();
    assert_eq!(failed, ["fire", "narrow"]);
    Ok(())
}

/// A one-shot run hands the system's `Result` back to its caller, its
/// commands applied; run by a command, the error is a failed command in
/// words, with the system's name; a configured one-shot system (whose output
/// type is erased) returns it as `Error::SystemFailed`.
#[test]
fn a_one_shot_run_returns_the_error() -> Result<(), Error> {
    let mut world = world_with_ammo(0);
    let id = world.register_system(fire);
    assert_eq!(world.run_system(id)?, Err("out of ammunition".to_owned()));
    assert_eq!(world.query::<&Shell>().iter().count(), 1);

    world.commands().run_system(id);
    let failed = world.flush();
    assert_eq!(failed.len(), 1);
    assert_eq!(
        failed[0].to_string(),
        "system `fire` failed: out of ammunition"
    );
    let Error::SystemFailed(failure) = &failed[0] else {
        panic!("not a system's error: {}", failed[0]);
    };
    assert_eq!((failure.system(), failure.frame()), ("fire", None));
    assert_eq!(world.query::<&Shell>().iter().count(), 2);

    let configured = world.register_system(fire.run_if(|| true));
    let error = world.run_system(configured).unwrap_err();
    assert_eq!(error.to_string(), "system `fire` failed: out of ammunition");
    Ok(())
}

/// An observer may return `Result` too: its `Err` is recorded with its name
/// among the world's observer errors (the observer ran: its commands apply
/// and its horizon moves), and a schedule lists it with the frame's command
/// errors.
#[test]
fn an_observer_s_err_is_recorded_with_its_name() -> Result<(), Error> {
    fn refuse_empty(
        t: OnAdd<Shell>,
        ammo: Res<Ammo>,
        mut commands: Commands,
    ) -> Result<(), String> {
        commands.entity(t.entity()).insert(Heat(1));
        if ammo.0 == 0 {
            return Err(format!("shell {} fired with no ammunition", t.entity()));
        }
        Ok(())
    }
    let mut world = world_with_ammo(0);
    world.observe(refuse_empty);
    let shell = world.spawn(Shell);
    assert_eq!(world.get::<Heat>(shell)?.0, 1, "its commands applied");
    let errors = world.take_observer_errors();
    assert_eq!(errors.len(), 1);
    assert_eq!(
        errors[0].to_string(),
        format!("observer `refuse_empty` failed: shell {shell} fired with no ammunition")
    );
    let Error::ObserverFailed(failure) = &errors[0] else {
        panic!("not an observer's error: {}", errors[0]);
    };
    assert_eq!(failure.system(), "refuse_empty");

    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, |mut commands: Commands| {
        commands.spawn(Shell);
    })?;
    schedule.run(&mut world)?;
    let listed = schedule.command_errors();
    assert_eq!(listed.len(), 1);
    assert_eq!(listed[0].system, "observers");
    assert!(matches!(listed[0].error, Error::ObserverFailed(_)));

    world.resource_mut::<Ammo>()?.0 = 5;
    world.spawn(Shell);
    assert!(world.take_observer_errors().is_empty());
    Ok(())
}
