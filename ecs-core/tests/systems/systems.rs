//! Systems and schedules: the game loop's behaviour, end to end.

use ecs_core::AccessClash;
use ecs_core::prelude::*;
use ecs_core::schedule::CommandError;

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Position {
    x: f32,
    y: f32,
}
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Velocity {
    x: f32,
    y: f32,
}
#[derive(Component, Debug, PartialEq)]
struct Health(i32);
#[derive(Component)]
struct Frozen;
#[derive(Component)]
struct Player;

struct Time {
    dt: f32,
}
#[derive(Default)]
struct Score(u32);

#[derive(Query)]
struct Mover<'w> {
    pos: &'w mut Position,
    vel: &'w Velocity,
}

fn movement(mut movers: Query<Mover, Without<Frozen>>, time: Res<Time>) {
    for m in movers.iter_mut() {
        m.pos.x += m.vel.x * time.dt;
    }
}

fn reaper(q: Query<(Entity, &Health)>, mut commands: Commands, mut score: ResMut<Score>) {
    for (e, h) in q.iter() {
        if h.0 <= 0 {
            commands.despawn(e);
            score.0 += 1;
        }
    }
}

// A system declared as a typed struct of what it touches.
#[derive(SystemParam)]
struct Physics<'w> {
    movers: Query<'w, Mover<'w>, Without<Frozen>>,
    time: Res<'w, Time>,
}
fn physics(mut p: Physics) {
    for m in p.movers.iter_mut() {
        m.pos.x += m.vel.x * p.time.dt;
    }
}

fn spawner(mut commands: Commands, mut frame: Local<u32>) {
    *frame += 1;
    let e = commands.spawn((Position { x: 0., y: 0. }, Health(3)));
    commands.insert(e, Velocity { x: 1., y: 0. });
}

#[test]
fn a_game_loop_runs_a_frame() -> Result<(), Error> {
    let mut world = World::new();
    world.insert_resource(Time { dt: 1.0 / 60.0 });
    world.insert_resource(Score::default());
    let dying = world.spawn((Position { x: 0., y: 0. }, Health(0)));
    let frozen = world.spawn((
        Position { x: 0., y: 0. },
        Velocity { x: 60., y: 0. },
        Frozen,
    ));
    let moving = world.spawn((Position { x: 0., y: 0. }, Velocity { x: 60., y: 0. }));

    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, movement)?;
    schedule.add_system(Stage::Update, reaper.after("movement"))?;
    schedule.add_system(Stage::PreUpdate, spawner)?;
    schedule.add_system(Stage::PostUpdate, physics.named("physics"))?;
    schedule.add_system(Stage::Last, |world: &mut World| {
        world.insert_resource(Time { dt: 0.0 });
    })?;
    schedule.run(&mut world)?;
    schedule.remove_system("physics")?;

    assert!(!world.is_alive(dying));
    assert_eq!(world.resource::<Score>()?.0, 1);
    assert_eq!(world.get::<Position>(frozen)?.x, 0.0);
    // movement and then physics each moved it by 60 * dt.
    assert_eq!(world.get::<Position>(moving)?.x, 2.0);
    // The spawner's entity existed by Update, so both moved it too.
    let spawned: Vec<_> = world
        .query::<(&Position, &Velocity, &Health)>()
        .iter()
        .map(|(p, _, h)| (p.x, h.0))
        .collect();
    assert_eq!(spawned, [(2.0 / 60.0, 3)]);
    assert_eq!(
        world.resource::<Time>()?.dt,
        0.0,
        "the exclusive system ran last"
    );

    // Without physics, a second frame moves by one step only (dt is 0 now).
    assert!(!schedule.contains_system("physics"));
    world.insert_resource(Time { dt: 1.0 / 60.0 });
    schedule.run(&mut world)?;
    assert_eq!(world.get::<Position>(moving)?.x, 3.0);
    assert_eq!(world.resource::<Score>()?.0, 1);
    Ok(())
}

#[test]
fn names_are_unique_per_schedule() {
    fn tick() {}
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, tick).unwrap();
    let err = schedule.add_system(Stage::Last, tick).unwrap_err();
    assert_eq!(
        err,
        Error::DuplicateSystem {
            system: "tick".into()
        }
    );
    schedule
        .add_system(Stage::Last, tick.named("tock"))
        .unwrap();
}

/// Closures from one function share a name: the schedule numbers the second
/// and third (`#2`, `#3`) instead of refusing them, while a name given with
/// `named` stays unique.
#[test]
fn closures_of_one_function_are_numbered() -> Result<(), Error> {
    let mut world = World::new();
    world.insert_resource(Score(0));
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, |mut s: ResMut<Score>| s.0 += 1)?;
    schedule.add_system(Stage::Update, |mut s: ResMut<Score>| s.0 += 10)?;
    schedule.add_systems(
        Stage::Last,
        (
            |mut s: ResMut<Score>| s.0 += 100,
            (|mut s: ResMut<Score>| s.0 += 1000).named("thousand"),
        ),
    )?;
    let base = "closures_of_one_function_are_numbered::{{closure}}";
    for name in [base.to_string(), format!("{base}#2"), format!("{base}#3")] {
        assert!(schedule.contains_system(&name), "{name} is in the schedule");
    }
    schedule.run(&mut world)?;
    assert_eq!(world.resource::<Score>()?.0, 1111, "all four ran once");
    let err = schedule
        .add_system(Stage::Update, (|| {}).named("thousand"))
        .unwrap_err();
    assert_eq!(
        err,
        Error::DuplicateSystem {
            system: "thousand".into()
        }
    );
    assert_eq!(
        format!("{err:?}"),
        err.to_string(),
        "an error's Debug is its sentence"
    );
    Ok(())
}

#[test]
fn conflicting_params_are_rejected_naming_system_params_and_type() {
    fn twice(_: ResMut<Score>, _: ResMut<Score>) {}
    let mut schedule = Schedule::new();
    let err = schedule.add_system(Stage::Update, twice).unwrap_err();
    let Error::ConflictingAccess {
        system,
        first,
        second,
        type_name,
        ..
    } = &err
    else {
        panic!("expected a conflict, got {err}");
    };
    assert_eq!(
        (system.as_str(), first.as_str(), second.as_str()),
        ("twice", "ResMut<Score>", "ResMut<Score>")
    );
    assert!(type_name.ends_with("Score"));

    fn read_and_write(_: Query<&Position>, _: Query<(&mut Position, &Velocity)>) {}
    assert!(matches!(
        schedule.add_system(Stage::Update, read_and_write),
        Err(Error::ConflictingAccess { .. })
    ));
    fn world_and_writer(_: &World, _: ResMut<Score>) {}
    assert!(matches!(
        schedule.add_system(Stage::Update, world_and_writer),
        Err(Error::ConflictingAccess { .. })
    ));
    // Disjoint filters inside one system are fine.
    fn split(_: Query<&mut Position, With<Player>>, _: Query<&mut Position, Without<Player>>) {}
    schedule.add_system(Stage::Update, split).unwrap();
}

#[test]
fn missing_resource_is_an_error_naming_system_and_type_and_the_frame_goes_on() {
    fn needs_time(_: Res<Time>) {}
    fn counts(mut score: ResMut<Score>) {
        score.0 += 1;
    }
    let mut world = World::new();
    world.insert_resource(Score::default());
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, needs_time).unwrap();
    schedule.add_system(Stage::Last, counts).unwrap();
    let err = schedule.run(&mut world).unwrap_err();
    let Error::InSystem { system, error } = &err else {
        panic!("expected InSystem, got {err}");
    };
    assert_eq!(system, "needs_time");
    assert!(matches!(**error, Error::MissingResource { resource } if resource.ends_with("Time")));
    assert_eq!(
        world.resource::<Score>().unwrap().0,
        1,
        "later stages still ran"
    );

    fn optional(time: Option<Res<Time>>, mut score: ResMut<Score>) {
        score.0 += if time.is_some() { 10 } else { 100 };
    }
    schedule.remove_system("needs_time").unwrap();
    schedule.add_system(Stage::Update, optional).unwrap();
    schedule.run(&mut world).unwrap();
    assert_eq!(world.resource::<Score>().unwrap().0, 102);
}

#[test]
fn an_optional_res_mut_writes_the_resource_when_present_and_skips_when_absent() {
    fn bump(score: Option<ResMut<Score>>) {
        if let Some(mut score) = score {
            score.0 += 1;
        }
    }
    let mut world = World::new();
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, bump).unwrap();
    schedule.run(&mut world).unwrap();
    assert!(world.resource::<Score>().is_err(), "nothing inserted it");
    world.insert_resource(Score(5));
    schedule.run(&mut world).unwrap();
    schedule.run(&mut world).unwrap();
    assert_eq!(world.resource::<Score>().unwrap().0, 7);
}

#[test]
fn stages_run_in_order_and_custom_stages_sit_where_asked() -> Result<(), Error> {
    #[derive(Default)]
    struct Trace(Vec<&'static str>);
    let mut schedule = Schedule::new();
    schedule.add_stage_after(Stage::Update, "physics")?;
    schedule.add_stage_before(Stage::First, "input")?;
    for (stage, label) in [
        (Stage::Last, "last"),
        (Stage::custom("physics"), "physics"),
        (Stage::Update, "update"),
        (Stage::custom("input"), "input"),
        (Stage::First, "first"),
        (Stage::PostUpdate, "post"),
        (Stage::PreUpdate, "pre"),
    ] {
        schedule.add_system(
            stage,
            (move |mut t: ResMut<Trace>| t.0.push(label)).named(label),
        )?;
    }
    let mut world = World::new();
    world.insert_resource(Trace::default());
    schedule.run(&mut world)?;
    assert_eq!(
        world.resource::<Trace>()?.0,
        ["input", "first", "pre", "update", "physics", "post", "last"]
    );
    assert!(matches!(
        schedule.add_stage_after(Stage::Update, "physics"),
        Err(Error::DuplicateStage { .. })
    ));
    assert!(matches!(
        schedule.add_system("nowhere", || {}),
        Err(Error::UnknownStage { .. })
    ));
    Ok(())
}

#[test]
fn orderings_override_registration_order_and_cycles_name_every_system() {
    #[derive(Default)]
    struct Trace(Vec<&'static str>);
    fn a(mut t: ResMut<Trace>) {
        t.0.push("a");
    }
    fn b(mut t: ResMut<Trace>) {
        t.0.push("b");
    }
    fn c(mut t: ResMut<Trace>) {
        t.0.push("c");
    }
    let mut world = World::new();
    world.insert_resource(Trace::default());
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, a.after("c")).unwrap();
    schedule.add_system(Stage::Update, b).unwrap();
    schedule.add_system(Stage::Update, c.before("b")).unwrap();
    schedule.run(&mut world).unwrap();
    assert_eq!(world.resource::<Trace>().unwrap().0, ["c", "a", "b"]);

    let mut cyclic = Schedule::new();
    cyclic.add_system(Stage::Update, a.after("c")).unwrap();
    cyclic.add_system(Stage::Update, b.after("a")).unwrap();
    cyclic.add_system(Stage::Update, c.after("b")).unwrap();
    let err = cyclic.run(&mut world).unwrap_err();
    let Error::SystemCycle { stage, systems } = &err else {
        panic!("expected a cycle, got {err}");
    };
    assert_eq!(stage, "Update");
    let mut sorted = systems.clone();
    sorted.sort();
    assert_eq!(sorted, ["a", "b", "c"]);
    assert!(
        err.to_string()
            .starts_with("the systems of stage `Update` are ordered in a cycle: ")
    );
    assert_eq!(world.resource::<Trace>().unwrap().0.len(), 3, "nothing ran");

    let mut dangling = Schedule::new();
    dangling
        .add_system(Stage::Update, a.after("ghost"))
        .unwrap();
    assert_eq!(
        dangling.run(&mut world).unwrap_err().to_string(),
        "system `a` is ordered against `ghost`, but stage `Update` has no system of that name"
    );
}

#[test]
fn remove_system_from_inside_a_frame_takes_effect_after_it() {
    #[derive(Default)]
    struct Runs(u32, u32);
    fn once(mut runs: ResMut<Runs>, mut commands: Commands) {
        runs.0 += 1;
        commands.remove_system("once");
        commands.remove_system("later");
    }
    fn later(mut runs: ResMut<Runs>) {
        runs.1 += 1;
    }
    let mut world = World::new();
    world.insert_resource(Runs::default());
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, once).unwrap();
    schedule.add_system(Stage::Last, later).unwrap();
    schedule.run(&mut world).unwrap();
    // Both ran in the frame that asked, Last included.
    assert_eq!(
        (
            world.resource::<Runs>().unwrap().0,
            world.resource::<Runs>().unwrap().1
        ),
        (1, 1)
    );
    for _ in 0..3 {
        schedule.run(&mut world).unwrap();
    }
    assert_eq!(
        (
            world.resource::<Runs>().unwrap().0,
            world.resource::<Runs>().unwrap().1
        ),
        (1, 1)
    );
    assert!(!schedule.contains_system("once") && !schedule.contains_system("later"));

    // An unknown name is a failed command of the system that asked.
    fn typo(mut commands: Commands) {
        commands.remove_system("no such system");
    }
    schedule.add_system(Stage::Update, typo).unwrap();
    schedule.run(&mut world).unwrap();
    assert_eq!(
        schedule.command_errors(),
        [CommandError {
            system: "typo".into(),
            error: Error::UnknownSystem {
                system: "no such system".into()
            }
        }]
    );
}

#[test]
fn commands_apply_at_stage_end_in_system_order_and_failures_are_listed() {
    #[derive(Default)]
    struct Seen(Vec<usize>);
    fn first(q: Query<Entity, With<Health>>, mut commands: Commands) {
        for e in q.iter() {
            commands.insert(e, Health(1));
            commands.despawn(e);
        }
    }
    fn second(q: Query<Entity, With<Health>>, mut commands: Commands) {
        for e in q.iter() {
            commands.insert(e, Health(2));
        }
    }
    fn count(q: Query<&Health>, mut seen: ResMut<Seen>) {
        seen.0.push(q.iter().count());
    }
    let mut world = World::new();
    world.insert_resource(Seen::default());
    let e = world.spawn(Health(0));
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, first).unwrap();
    schedule.add_system(Stage::Update, second).unwrap();
    schedule.add_system(Stage::Update, count).unwrap();
    schedule
        .add_system(Stage::PostUpdate, count.named("count_after"))
        .unwrap();
    schedule.run(&mut world).unwrap();
    assert_eq!(
        world.resource::<Seen>().unwrap().0,
        [1, 0],
        "applied at the end of Update"
    );
    assert!(!world.is_alive(e));
    assert_eq!(
        schedule.command_errors(),
        [CommandError {
            system: "second".into(),
            error: Error::Despawned { entity: e }
        }]
    );
    schedule.run(&mut world).unwrap();
    assert!(schedule.command_errors().is_empty(), "errors are per frame");
}

#[test]
fn spawned_ids_are_usable_at_once_and_distinct_across_systems() {
    #[derive(Default)]
    struct Made(Vec<Entity>);
    fn make(mut commands: Commands, mut made: ResMut<Made>) {
        for i in 0..3 {
            let e = commands.spawn(Health(i));
            commands.insert(e, Frozen);
            made.0.push(e);
        }
    }
    fn make_more(mut commands: Commands) {
        for _ in 0..5 {
            commands.spawn(Player);
        }
    }
    let mut world = World::new();
    world.insert_resource(Made::default());
    let old = world.spawn(());
    world.despawn(old).unwrap();
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, make).unwrap();
    schedule.add_system(Stage::Update, make_more).unwrap();
    schedule.run(&mut world).unwrap();
    let made = world.resource::<Made>().unwrap().0.clone();
    for (i, &e) in made.iter().enumerate() {
        assert_eq!(world.get::<Health>(e).unwrap().0, i as i32);
        assert!(world.contains::<Frozen>(e));
    }
    assert_eq!(world.len(), 8, "3 + 5, and no empty holes left alive");
    assert_eq!(world.query::<&Player>().iter().count(), 5);
}

#[test]
fn world_commands_apply_on_flush() {
    let mut world = World::new();
    let e = world.commands().spawn(Health(3));
    world.commands().insert(e, Frozen);
    assert!(!world.is_alive(e));
    // A plain spawn meanwhile never takes the reserved id.
    let other = world.spawn(Health(9));
    assert_ne!(other, e);
    assert!(world.flush().is_empty());
    assert_eq!(world.get::<Health>(e).unwrap().0, 3);
    assert!(world.contains::<Frozen>(e));
}

#[test]
fn stats_count_runs_per_system() {
    fn a() {}
    fn b() {}
    let mut world = World::new();
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, a).unwrap();
    schedule.add_system(Stage::Last, b).unwrap();
    for _ in 0..4 {
        schedule.run(&mut world).unwrap();
    }
    let stats = schedule.stats();
    let summary: Vec<_> = stats
        .iter()
        .map(|s| (s.name.as_str(), s.stage, s.runs))
        .collect();
    assert_eq!(summary, [("a", Stage::Update, 4), ("b", Stage::Last, 4)]);
    assert_eq!(schedule.frames(), 4);
}

#[test]
fn explain_names_each_overlap_and_the_batches() {
    fn movement(_: Query<&mut Position>) {}
    fn physics(_: Query<(&mut Position, &Velocity)>) {}
    fn players(_: Query<&mut Position, With<Player>>) {}
    fn others(_: Query<&mut Position, Without<Player>>) {}
    fn audio() {}
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, players).unwrap();
    schedule.add_system(Stage::Update, others).unwrap();
    schedule.add_system(Stage::Update, audio).unwrap();
    schedule.add_system(Stage::Update, movement).unwrap();
    schedule.add_system(Stage::Update, physics).unwrap();
    let why = schedule.explain().unwrap();
    let update = why.stage(Stage::Update).unwrap();
    assert_eq!(
        update.order,
        ["players", "others", "audio", "movement", "physics"]
    );
    assert_eq!(
        update.batches,
        [
            vec!["players", "others", "audio"],
            vec!["movement"],
            vec!["physics"]
        ]
    );
    let pairs: Vec<_> = update
        .conflicts
        .iter()
        .map(|o| (o.first.as_str(), o.second.as_str()))
        .collect();
    assert_eq!(
        pairs,
        [
            ("players", "movement"),
            ("others", "movement"),
            ("players", "physics"),
            ("others", "physics"),
            ("movement", "physics")
        ]
    );
    assert!(
        why.to_string().contains(
            "`movement` and `physics` cannot overlap: both reach `Position` (both write)"
        )
    );
}

#[test]
fn exclusive_systems_see_earlier_commands_and_run_alone() {
    fn spawn_one(mut commands: Commands) {
        commands.spawn(Health(1));
    }
    #[derive(Default)]
    struct Seen(usize);
    let mut world = World::new();
    world.insert_resource(Seen::default());
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, spawn_one).unwrap();
    schedule
        .add_system(Stage::Update, |world: &mut World| {
            let n = world.query::<&Health>().iter().count();
            world.resource_mut::<Seen>().unwrap().0 = n;
            world.spawn(Health(2));
        })
        .unwrap();
    schedule
        .add_system(Stage::Update, spawn_one.named("spawn_two"))
        .unwrap();
    schedule.run(&mut world).unwrap();
    assert_eq!(world.resource::<Seen>().unwrap().0, 1);
    assert_eq!(world.len(), 3);
    let why = schedule.explain().unwrap();
    assert_eq!(why.stage(Stage::Update).unwrap().batches.len(), 3);
}

#[test]
fn a_system_type_keeps_state_in_self() {
    use ecs_core::system::{ParamItem, System};
    struct Counter {
        seen: usize,
    }
    impl System for Counter {
        type Params = (Query<'static, &'static Health>, ResMut<'static, Score>);
        fn run(&mut self, (q, mut score): ParamItem<'_, Self::Params>) {
            self.seen += q.iter().count();
            score.0 = self.seen as u32;
        }
    }
    let mut world = World::new();
    world.insert_resource(Score::default());
    world.spawn(Health(1));
    world.spawn(Health(2));
    let mut schedule = Schedule::new();
    schedule
        .add_system(Stage::Update, Counter { seen: 0 })
        .unwrap();
    schedule.run(&mut world).unwrap();
    schedule.run(&mut world).unwrap();
    assert_eq!(world.resource::<Score>().unwrap().0, 4);
    assert!(schedule.contains_system("Counter"));
}

#[test]
fn sixteen_params_make_a_system() {
    #[allow(
        clippy::too_many_arguments,
        reason = "the widest system the schedule takes"
    )]
    fn wide(
        _: Res<Time>,
        _: Res<Score>,
        _: Local<u8>,
        _: Local<u16>,
        _: Local<u32>,
        _: Local<u64>,
        _: Query<&Position>,
        _: Query<&Velocity>,
        _: Query<&Health>,
        _: Query<Entity>,
        _: Commands,
        _: Option<Res<Time>>,
        _: Local<i8>,
        _: Local<i16>,
        _: Local<i32>,
        mut last: Local<i64>,
    ) {
        *last += 1;
    }
    let mut world = World::new();
    world.insert_resource(Time { dt: 0.0 });
    world.insert_resource(Score::default());
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, wide).unwrap();
    schedule.run(&mut world).unwrap();
}

#[test]
fn the_game_loop_example_runs_verbatim() -> Result<(), Error> {
    let mut world = World::new();
    world.insert_resource(Time { dt: 1.0 / 60.0 });
    world.insert_resource(Score::default());

    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, movement)?; // named "movement"
    schedule.add_system(Stage::Update, reaper.after("movement"))?;
    schedule.add_system(Stage::PreUpdate, spawner)?;
    schedule.add_system(Stage::PostUpdate, physics.named("physics"))?;
    schedule.add_system(
        Stage::Last,
        |_world: &mut World| { /* exclusive: runs alone */ },
    )?;
    schedule.run(&mut world)?; // one frame
    schedule.remove_system("physics")?;
    assert_eq!(world.resource::<Score>()?.0, 0);
    // The spawner's entity got its velocity and moved in Update and PostUpdate.
    let (p, h) = world.query::<(&Position, &Health)>().single()?;
    assert_eq!((p.x, h.0), (2.0 / 60.0, 3));
    Ok(())
}

/// A command of `world.commands()` that panics during `flush`: the commands before it applied,
/// and the spawns after it (and a spawn that itself panics) leave no entity alive.
#[test]
fn a_panicking_command_in_flush_leaves_no_entity_of_a_spawn_that_did_not_apply() {
    /// Panics when `OnAdd` fires for it.
    #[derive(Component)]
    struct Fuse;
    let mut world = World::new();
    world.observe(|_: OnAdd<Fuse>| panic!("fuse lit"));
    let kept = world.commands().spawn(Health(1));
    world.commands().add(|_| panic!("command boom"));
    let lost = world.commands().spawn(Health(2));
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| world.flush()));
    assert_eq!(
        caught.unwrap_err().downcast_ref::<&str>(),
        Some(&"command boom")
    );
    assert_eq!(world.get::<Health>(kept).map(|h| h.0), Ok(1));
    assert!(!world.is_alive(lost), "{lost:?} is alive with nothing");
    assert_eq!(world.len(), 1);

    let half = world.commands().spawn((Health(3), Fuse));
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| world.flush()));
    assert_eq!(
        caught.unwrap_err().downcast_ref::<&str>(),
        Some(&"fuse lit")
    );
    assert!(
        !world.is_alive(half),
        "a spawn that panicked is not applied"
    );
    assert_eq!(world.len(), 1);
    assert!(world.flush().is_empty());
}

/// Each kind of clash between params gets advice that can fix it: filters only where two queries
/// clash, the two fetches named where one query clashes with itself, and `&World` explained.
#[test]
fn conflicting_access_messages_fit_the_clash() {
    fn message<M>(system: impl IntoSystem<M>) -> String {
        Schedule::new()
            .add_system(Stage::Update, system)
            .unwrap_err()
            .to_string()
    }
    fn queries(_: Query<&mut Position>, _: Query<&Position>) {}
    assert_eq!(
        message(queries),
        "system `queries` cannot take both `Query<&mut Position>` and `Query<&Position>`: both \
         reach `Position` and at least one writes it. Merge them into one param, or make their \
         filters disjoint (`With<T>` in one, `Without<T>` in the other)"
    );
    fn resource(_: ResMut<Score>, _: Res<Score>) {}
    assert_eq!(
        message(resource),
        "system `resource` cannot take both `ResMut<Score>` and `Res<Score>`: both reach the \
         resource `Score` and at least one writes it. Merge them into one param"
    );
    fn world_then_writer(_: &World, _: Query<&mut Position>) {}
    assert_eq!(
        message(world_then_writer),
        "system `world_then_writer` cannot take both `&World` and `Query<&mut Position>`: \
         `&World` reads every component and resource, and the other writes `Position`. Read \
         through `&World` alone, or take `&mut World` as the only param"
    );
    fn writer_then_world(_: ResMut<Score>, _: &World) {}
    assert_eq!(
        message(writer_then_world),
        "system `writer_then_world` cannot take both `ResMut<Score>` and `&World`: `&World` \
         reads every component and resource, and the other writes `Score`. Read through \
         `&World` alone, or take `&mut World` as the only param"
    );
    fn itself(_: Query<(&mut Position, &Velocity, &Position)>) {}
    let err = Schedule::new()
        .add_system(Stage::Update, itself)
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "system `itself` cannot take `Query<(&mut Position, &Velocity, &Position)>`: it fetches \
         `Position` twice, as `&mut Position` and `&Position`, and one of them writes. Fetch \
         it once, as `&mut Position`"
    );
    assert!(matches!(
        err,
        Error::ConflictingAccess {
            clash: AccessClash::WithinQuery {
                first_writes: true,
                second_writes: false
            },
            ..
        }
    ));
}

/// How often a sync point asked [`CountsApply`] params to apply, by whether
/// they declared that they defer.
#[derive(Default, Debug, PartialEq)]
struct ApplyCalls {
    deferring: u32,
    quiet: u32,
}

/// A param with nothing to fetch whose `apply` counts its calls; `DEFERS`
/// is what it declares.
struct CountsApply<const DEFERS: bool>;

// SAFETY: registers nothing and reaches nothing of the world in `fetch`.
unsafe impl<const D: bool> ecs_core::system::SystemParam for CountsApply<D> {
    const DEFERS: bool = D;

    type State = ();
    type Item<'w> = CountsApply<D>;

    fn init(_: &mut ecs_core::system::SystemAccess) {}

    unsafe fn fetch<'w>(
        _: &'w mut (),
        _: ecs_core::system::SystemWorld<'w>,
    ) -> Result<Self, Error> {
        Ok(CountsApply)
    }

    fn apply(_: &mut (), world: &mut World, _: &mut dyn FnMut(Error), _: &mut Vec<String>) {
        let calls = world.resource_mut::<ApplyCalls>().unwrap();
        if D {
            calls.deferring += 1;
        } else {
            calls.quiet += 1;
        }
    }
}

/// A derived param deferring through one of its fields.
#[derive(SystemParam)]
struct Spawner<'w> {
    commands: Commands<'w>,
    counts: CountsApply<true>,
}

/// A sync point applies the params that defer (alone, in a tuple or a
/// derived struct) every frame, and never calls `apply` for a system none
/// of whose params defers.
#[test]
fn sync_points_apply_only_systems_whose_params_defer() {
    let mut world = World::new();
    world.insert_resource(ApplyCalls::default());
    let mut schedule = Schedule::new();
    schedule
        .add_system(Stage::Update, (|_: CountsApply<false>| {}).named("quiet"))
        .unwrap();
    schedule
        .add_system(
            Stage::Update,
            (|_: (Query<&Health>, CountsApply<false>)| {}).named("quiet_in_tuple"),
        )
        .unwrap();
    schedule
        .add_system(
            Stage::Update,
            (|_: CountsApply<true>| {}).named("deferring"),
        )
        .unwrap();
    schedule
        .add_system(
            Stage::Update,
            (|_: (CountsApply<false>, CountsApply<true>)| {}).named("mixed_tuple"),
        )
        .unwrap();
    schedule
        .add_system(
            Stage::Update,
            (|mut spawner: Spawner| {
                let CountsApply = spawner.counts;
                spawner.commands.spawn(Health(1));
            })
            .named("spawner"),
        )
        .unwrap();
    for _ in 0..3 {
        schedule.run(&mut world).unwrap();
    }
    // The tuple of a quiet and a deferring param applies both.
    assert_eq!(
        *world.resource::<ApplyCalls>().unwrap(),
        ApplyCalls {
            deferring: 3 * 3,
            quiet: 3,
        }
    );
    assert_eq!(world.query::<&Health>().iter().count(), 3);
}

/// How often a frame asked [`CountsPrepare`] params to prepare, by whether
/// they declared that they prepare.
#[derive(Default, Debug, PartialEq)]
struct PrepareCalls {
    preparing: u32,
    quiet: u32,
}

/// A param with nothing to fetch whose `prepare` counts its calls;
/// `PREPARES` is what it declares.
struct CountsPrepare<const PREPARES: bool>;

// SAFETY: registers nothing and reaches nothing of the world in `fetch`.
unsafe impl<const P: bool> ecs_core::system::SystemParam for CountsPrepare<P> {
    const DEFERS: bool = false;
    const PREPARES: bool = P;

    type State = ();
    type Item<'w> = CountsPrepare<P>;

    fn init(_: &mut ecs_core::system::SystemAccess) {}

    fn prepare(_: &mut (), world: &mut World) {
        let calls = world.resource_mut::<PrepareCalls>().unwrap();
        if P {
            calls.preparing += 1;
        } else {
            calls.quiet += 1;
        }
    }

    unsafe fn fetch<'w>(
        _: &'w mut (),
        _: ecs_core::system::SystemWorld<'w>,
    ) -> Result<Self, Error> {
        Ok(CountsPrepare)
    }
}

/// A derived param preparing through one of its fields.
#[derive(SystemParam)]
struct Prepared<'w> {
    health: Query<'w, &'static Health>,
    counts: CountsPrepare<true>,
}

/// A frame prepares the params that prepare (alone, in a tuple, in a
/// derived struct, and behind a run condition) once per frame, in every
/// stage, and never calls `prepare` for a system none of whose params
/// prepares.
#[test]
fn frames_prepare_only_systems_whose_params_prepare() {
    let mut world = World::new();
    world.insert_resource(PrepareCalls::default());
    let mut schedule = Schedule::new();
    schedule
        .add_system(Stage::Update, (|_: CountsPrepare<false>| {}).named("quiet"))
        .unwrap();
    schedule
        .add_system(
            Stage::Update,
            (|_: (Query<&Health>, CountsPrepare<false>)| {}).named("quiet_in_tuple"),
        )
        .unwrap();
    schedule
        .add_system(
            Stage::PreUpdate,
            (|_: CountsPrepare<true>| {}).named("preparing"),
        )
        .unwrap();
    schedule
        .add_system(
            Stage::Update,
            (|_: (CountsPrepare<false>, CountsPrepare<true>)| {}).named("mixed_tuple"),
        )
        .unwrap();
    schedule
        .add_system(
            Stage::PostUpdate,
            (|prepared: Prepared| {
                let CountsPrepare = prepared.counts;
                assert_eq!(prepared.health.iter().count(), 0);
            })
            .named("derived"),
        )
        .unwrap();
    schedule
        .add_system(
            Stage::Update,
            (|_: CountsPrepare<true>| {})
                .named("guarded")
                .run_if(|| false),
        )
        .unwrap();
    for _ in 0..3 {
        schedule.run(&mut world).unwrap();
    }
    // The tuple of a quiet and a preparing param prepares both; a system a
    // run condition skips is prepared all the same.
    assert_eq!(
        *world.resource::<PrepareCalls>().unwrap(),
        PrepareCalls {
            preparing: 4 * 3,
            quiet: 3,
        }
    );
}
