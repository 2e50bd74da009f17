//! The frame a game needs, as a game writes it: ordering by function value,
//! chains and sets, run conditions, states with `OnEnter` / `OnExit`, a
//! fixed-step clock, `Startup`, and one-shot systems, all in one schedule.

use core::time::Duration;

use ecs_core::prelude::*;

#[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
enum GameState {
    #[default]
    Menu,
    Playing,
    Paused,
}

#[derive(Default)]
struct Score(u32);

/// What ran, in order, across the frames.
#[derive(Default)]
struct Trace(Vec<&'static str>);

#[derive(Default)]
struct Saves(u32);

#[derive(Component)]
struct Ship;
#[derive(Component)]
struct Debris;

fn setup(mut commands: Commands, mut trace: ResMut<Trace>) {
    commands.spawn(Ship);
    trace.0.push("setup");
}
fn read_input(mut trace: ResMut<Trace>) {
    trace.0.push("read_input");
}
fn steer(mut trace: ResMut<Trace>) {
    trace.0.push("steer");
}
fn move_ships(mut trace: ResMut<Trace>) {
    trace.0.push("move_ships");
}
fn spawn_wave(mut trace: ResMut<Trace>, mut score: ResMut<Score>) {
    trace.0.push("spawn_wave");
    score.0 += 1;
}
fn autosave(mut saves: ResMut<Saves>) {
    saves.0 += 1;
}
fn physics(mut trace: ResMut<Trace>) {
    trace.0.push("physics");
}
fn physics_done(mut trace: ResMut<Trace>) {
    trace.0.push("physics_done");
}
fn reset_score(mut score: ResMut<Score>, mut trace: ResMut<Trace>) {
    score.0 = 0;
    trace.0.push("reset_score");
}
fn show_results(mut trace: ResMut<Trace>) {
    trace.0.push("show_results");
}
fn collide(mut trace: ResMut<Trace>) {
    trace.0.push("collide");
}
fn damage(mut trace: ResMut<Trace>) {
    trace.0.push("damage");
}
fn explode(mut commands: Commands) {
    commands.spawn_batch((0..3).map(|_| Debris));
}

fn frame(schedule: &mut Schedule, world: &mut World) -> Result<Vec<&'static str>, Error> {
    world
        .resource_mut::<Time>()?
        .advance_by(Duration::from_millis(20));
    schedule.run(world)?;
    Ok(core::mem::take(&mut world.resource_mut::<Trace>()?.0))
}

#[test]
fn a_frame_with_every_tool_compiles_and_behaves_as_written() -> Result<(), Error> {
    let mut world = World::new();
    world.init_resource::<Score>();
    world.init_resource::<Trace>();
    world.init_resource::<Saves>();
    world.init_state::<GameState>();
    world.insert_resource(Time::fixed_step(1.0 / 60.0));

    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Startup, setup)?;
    schedule.add_systems(Stage::Update, (read_input, steer, move_ships).chain())?;
    schedule.add_system(
        Stage::Update,
        spawn_wave
            .after(move_ships)
            .run_if(in_state(GameState::Playing)),
    )?;
    schedule.add_system(Stage::Update, autosave.run_if(resource_changed::<Score>))?;
    schedule.add_system(Stage::FixedUpdate, physics)?;
    schedule.add_system(OnEnter(GameState::Playing), reset_score)?;
    schedule.add_system(OnExit(GameState::Playing), show_results)?;
    schedule.add_systems(Stage::Update, (collide, damage).in_set("combat"))?;
    schedule.add_system(Stage::Update, physics_done.in_set("physics_done"))?;
    schedule.configure_set(Stage::Update, "combat", after("physics_done"))?;

    let explode = world.register_system(explode);
    world.run_system(explode)?;
    assert_eq!(world.query::<&Debris>().iter().count(), 3);

    // Frame 1: setup once; 20 ms hold one whole 1/60 s step; the menu
    // spawns no wave; the score was inserted, so autosave runs once.
    let trace = frame(&mut schedule, &mut world)?;
    assert_eq!(
        trace,
        [
            "setup",
            "physics",
            "read_input",
            "steer",
            "move_ships",
            "physics_done",
            "collide",
            "damage"
        ]
    );
    assert_eq!(world.query::<&Ship>().iter().count(), 1);
    assert_eq!(world.resource::<Saves>()?.0, 1);

    // Frame 2: the 3.3 ms left over and 20 ms more hold one step; the
    // switch to Playing runs its OnEnter before FixedUpdate.
    world
        .resource_mut::<NextState<GameState>>()?
        .set(GameState::Playing);
    let trace = frame(&mut schedule, &mut world)?;
    assert_eq!(
        trace,
        [
            "reset_score",
            "physics",
            "read_input",
            "steer",
            "move_ships",
            "spawn_wave",
            "physics_done",
            "collide",
            "damage"
        ]
    );
    assert_eq!(**world.resource::<State<GameState>>()?, GameState::Playing);
    assert_eq!(world.resource::<Score>()?.0, 1);
    assert_eq!(world.resource::<Saves>()?.0, 2, "reset and wave wrote it");

    // Frame 3: pausing leaves Playing: its OnExit runs, no wave spawns.
    world
        .resource_mut::<NextState<GameState>>()?
        .set(GameState::Paused);
    let trace = frame(&mut schedule, &mut world)?;
    assert_eq!(trace[0], "show_results");
    assert!(!trace.contains(&"spawn_wave"));
    assert!(!trace.contains(&"reset_score"));
    let saves = world.resource::<Saves>()?.0;
    frame(&mut schedule, &mut world)?;
    assert_eq!(
        world.resource::<Saves>()?.0,
        saves,
        "nothing wrote the score"
    );

    let why = schedule.explain()?;
    let update = why.stage(Stage::Update).expect("Update has systems");
    assert_eq!(
        update.conditions,
        [
            (
                "spawn_wave".to_string(),
                vec!["in_state(GameState::Playing)".to_string()]
            ),
            (
                "autosave".to_string(),
                vec!["resource_changed<Score>".to_string()]
            ),
        ]
    );
    Ok(())
}
