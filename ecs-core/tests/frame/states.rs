//! States: `init_state`, `NextState` switching right after `PreUpdate`,
//! `OnExit` then `OnEnter` once per switch, `State<S>` change detection.

use ecs_core::prelude::*;

#[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
enum Game {
    #[default]
    Menu,
    Playing,
    Paused,
}

#[derive(Default)]
struct Trace(Vec<String>);

fn log(what: &'static str) -> impl FnMut(ResMut<Trace>) + Send + 'static {
    move |mut trace: ResMut<Trace>| trace.0.push(what.to_owned())
}

fn world() -> World {
    let mut world = World::new();
    world.init_resource::<Trace>();
    world.init_state::<Game>();
    world
}

fn take(world: &mut World) -> Vec<String> {
    core::mem::take(&mut world.resource_mut::<Trace>().unwrap().0)
}

fn schedule() -> Result<Schedule, Error> {
    let mut schedule = Schedule::new();
    for (state, enter, exit) in [
        (Game::Menu, "enter Menu", "exit Menu"),
        (Game::Playing, "enter Playing", "exit Playing"),
        (Game::Paused, "enter Paused", "exit Paused"),
    ] {
        schedule.add_system(OnEnter(state), log(enter).named(enter))?;
        schedule.add_system(OnExit(state), log(exit).named(exit))?;
    }
    schedule.add_system(Stage::PreUpdate, log("PreUpdate").named("pre"))?;
    schedule.add_system(Stage::Update, log("Update").named("update"))?;
    Ok(schedule)
}

#[test]
fn the_first_run_enters_the_first_value_after_pre_update() -> Result<(), Error> {
    let mut world = world();
    let mut schedule = schedule()?;
    schedule.run(&mut world)?;
    assert_eq!(take(&mut world), ["PreUpdate", "enter Menu", "Update"]);
    schedule.run(&mut world)?;
    assert_eq!(take(&mut world), ["PreUpdate", "Update"], "entered once");
    Ok(())
}

#[test]
fn a_switch_runs_exit_then_enter_once_and_a_repeat_switches_nothing() -> Result<(), Error> {
    let mut world = world();
    let mut schedule = schedule()?;
    schedule.run(&mut world)?;
    take(&mut world);
    world.resource_mut::<NextState<Game>>()?.set(Game::Paused);
    world.resource_mut::<NextState<Game>>()?.set(Game::Playing); // the last one wins
    schedule.run(&mut world)?;
    assert_eq!(
        take(&mut world),
        ["PreUpdate", "exit Menu", "enter Playing", "Update"]
    );
    assert_eq!(**world.resource::<State<Game>>()?, Game::Playing);
    world.resource_mut::<NextState<Game>>()?.set(Game::Playing);
    schedule.run(&mut world)?;
    assert_eq!(take(&mut world), ["PreUpdate", "Update"], "already there");
    Ok(())
}

#[test]
fn a_switch_asked_in_update_applies_next_frame_and_in_pre_update_this_frame() -> Result<(), Error> {
    fn pause_in_update(mut next: ResMut<NextState<Game>>, mut trace: ResMut<Trace>) {
        next.set(Game::Paused);
        trace.0.push("asked".into());
    }
    fn play_in_first(mut next: ResMut<NextState<Game>>) {
        next.set(Game::Playing);
    }
    let mut world = world();
    let mut schedule = schedule()?;
    schedule.add_system(Stage::Update, pause_in_update.run_if(in_state(Game::Menu)))?;
    schedule.run(&mut world)?;
    assert_eq!(
        take(&mut world),
        ["PreUpdate", "enter Menu", "Update", "asked"]
    );
    assert_eq!(**world.resource::<State<Game>>()?, Game::Menu, "not yet");
    schedule.run(&mut world)?;
    assert_eq!(
        take(&mut world),
        ["PreUpdate", "exit Menu", "enter Paused", "Update"]
    );
    schedule.add_system(Stage::First, play_in_first.run_if(in_state(Game::Paused)))?;
    schedule.run(&mut world)?;
    assert_eq!(
        take(&mut world),
        ["PreUpdate", "exit Paused", "enter Playing", "Update"],
        "asked in First: switched the same frame"
    );
    Ok(())
}

#[test]
fn state_is_a_resource_with_change_detection() -> Result<(), Error> {
    #[derive(Default)]
    struct Changes(Vec<bool>);
    fn watch(state: Res<State<Game>>, mut changes: ResMut<Changes>) {
        changes.0.push(state.is_changed());
    }
    let mut world = world();
    world.init_resource::<Changes>();
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, watch)?;
    schedule.run(&mut world)?;
    schedule.run(&mut world)?;
    world.resource_mut::<NextState<Game>>()?.set(Game::Playing);
    schedule.run(&mut world)?;
    schedule.run(&mut world)?;
    assert_eq!(world.resource::<Changes>()?.0, [true, false, true, false]);
    Ok(())
}

#[test]
fn insert_state_starts_over_and_explain_names_state_stages() -> Result<(), Error> {
    let mut world = world();
    let mut schedule = schedule()?;
    schedule.run(&mut world)?;
    world.insert_state(Game::Paused);
    take(&mut world);
    schedule.run(&mut world)?;
    assert_eq!(take(&mut world), ["PreUpdate", "enter Paused", "Update"]);
    let why = schedule.explain()?;
    let labels: Vec<&str> = why.stages.iter().map(|s| s.label.as_str()).collect();
    assert!(labels.contains(&"OnEnter(Game::Playing)"), "{labels:?}");
    assert!(labels.contains(&"OnExit(Game::Menu)"), "{labels:?}");
    assert!(
        why.to_string()
            .contains("stage OnEnter(Game::Paused): 1 system"),
        "{why}"
    );
    Ok(())
}
