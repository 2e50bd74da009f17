//! Sync points from orderings: where a system with params that defer
//! (`Commands`) is ordered before another of its stage, by `chain`,
//! `after`, `before` or a set's ordering, its commands apply before the
//! second runs; `chain_ignore_deferred` opts out; `explain` lists each
//! inserted sync point, and the fewest are inserted.

use ecs_core::prelude::*;

#[derive(Component)]
struct Marker;

#[derive(Default)]
struct Seen(Vec<usize>);

fn trigger(mut commands: Commands) {
    commands.spawn(Marker);
}

fn evaluate(q: Query<&Marker>, mut seen: ResMut<Seen>) {
    seen.0.push(q.iter().count());
}

fn quiet(_: Query<&Marker>) {}

/// Runs two frames of `schedule` and returns what `evaluate` saw in each.
fn seen_over_two_frames(mut schedule: Schedule) -> Result<Vec<usize>, Error> {
    let mut world = World::new();
    world.init_resource::<Seen>();
    schedule.run(&mut world)?;
    schedule.run(&mut world)?;
    Ok(world.resource::<Seen>()?.0.clone())
}

/// Adds systems to a schedule one way or another.
type AddSystems = dyn Fn(&mut Schedule) -> Result<(), Error>;

fn sync_points(schedule: &Schedule) -> Vec<usize> {
    let why = schedule.explain().unwrap();
    why.stage(Stage::Update).unwrap().sync_points.clone()
}

#[test]
fn every_kind_of_ordering_applies_the_first_system_s_commands_before_the_second()
-> Result<(), Error> {
    let chained = |s: &mut Schedule| s.add_systems(Stage::Update, (trigger, evaluate).chain());
    let ordered_after = |s: &mut Schedule| {
        s.add_system(Stage::Update, evaluate.after(trigger))?;
        s.add_system(Stage::Update, trigger)
    };
    let before = |s: &mut Schedule| {
        s.add_system(Stage::Update, evaluate)?;
        s.add_system(Stage::Update, trigger.before(evaluate))
    };
    let by_sets = |s: &mut Schedule| {
        s.add_system(Stage::Update, evaluate.in_set("judge"))?;
        s.add_system(Stage::Update, trigger.in_set("act"))?;
        s.configure_set(Stage::Update, "judge", after("act"))
    };
    let ways: [(&str, &AddSystems); 4] = [
        ("chain", &chained),
        ("after", &ordered_after),
        ("before", &before),
        ("sets", &by_sets),
    ];
    for (way, add) in ways {
        let mut schedule = Schedule::new();
        add(&mut schedule)?;
        assert_eq!(sync_points(&schedule), [1], "{way}");
        assert_eq!(
            seen_over_two_frames(schedule)?,
            [1, 2],
            "{way}: seen in the same frame"
        );
    }
    Ok(())
}

#[test]
fn chain_ignore_deferred_leaves_the_commands_to_the_stage_s_end() -> Result<(), Error> {
    let mut schedule = Schedule::new();
    schedule.add_systems(Stage::Update, (trigger, evaluate).chain_ignore_deferred())?;
    assert_eq!(sync_points(&schedule), Vec::<usize>::new());
    let why = schedule.explain()?;
    assert_eq!(
        why.stage(Stage::Update).unwrap().order,
        ["trigger", "evaluate"]
    );
    assert_eq!(seen_over_two_frames(schedule)?, [0, 1], "one frame late");
    Ok(())
}

/// Without an ordering there is no sync point, even between batches: the
/// commands apply at the stage's end, as before.
#[test]
fn unordered_systems_get_no_sync_point() -> Result<(), Error> {
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, trigger)?;
    schedule.add_system(Stage::Update, evaluate)?;
    assert_eq!(sync_points(&schedule), Vec::<usize>::new());
    assert_eq!(seen_over_two_frames(schedule)?, [0, 1]);
    Ok(())
}

/// An ordering after a system that defers nothing needs no sync point, an
/// exclusive system already is one, and one sync point serves every
/// ordering that spans it.
#[test]
fn the_fewest_sync_points_are_inserted() -> Result<(), Error> {
    fn spawn_more(mut commands: Commands) {
        commands.spawn(Marker);
    }
    let mut schedule = Schedule::new();
    schedule.add_systems(Stage::Update, (quiet, evaluate).chain())?;
    assert_eq!(
        sync_points(&schedule),
        Vec::<usize>::new(),
        "quiet defers nothing"
    );

    let mut schedule = Schedule::new();
    schedule.add_systems(
        Stage::Update,
        (trigger, |_: &mut World| {}, evaluate).chain(),
    )?;
    assert_eq!(
        sync_points(&schedule),
        Vec::<usize>::new(),
        "the exclusive system is one"
    );
    assert_eq!(seen_over_two_frames(schedule)?, [1, 2]);

    // trigger and spawn_more run at once; evaluate follows both: one point.
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, trigger)?;
    schedule.add_system(Stage::Update, spawn_more)?;
    schedule.add_system(Stage::Update, evaluate.after(trigger).after(spawn_more))?;
    let why = schedule.explain()?;
    let stage = why.stage(Stage::Update).unwrap();
    assert_eq!(
        stage.batches,
        [vec!["trigger", "spawn_more"], vec!["evaluate"]]
    );
    assert_eq!(stage.sync_points, [1]);
    assert_eq!(seen_over_two_frames(schedule)?, [2, 4]);
    Ok(())
}

/// A chain of three systems that each defer gets a point before each
/// follower, and each sees all the commands before it.
#[test]
fn a_chain_of_spawners_sees_each_link_s_commands() -> Result<(), Error> {
    fn count_then_spawn(q: Query<&Marker>, mut commands: Commands, mut seen: ResMut<Seen>) {
        seen.0.push(q.iter().count());
        commands.spawn(Marker);
    }
    let mut schedule = Schedule::new();
    schedule.add_systems(
        Stage::Update,
        (
            count_then_spawn.named("first"),
            count_then_spawn.named("second"),
            count_then_spawn.named("third"),
        )
            .chain(),
    )?;
    assert_eq!(sync_points(&schedule), [1, 2]);
    assert_eq!(
        schedule.explain()?.to_string(),
        "stage Update: 3 systems\n  batch 1 (alone): first\n  sync point: commands so far apply\n  \
         batch 2 (alone): second\n  sync point: commands so far apply\n  batch 3 (alone): third\n  \
         `first` and `second` cannot overlap: both reach the resource `Seen` (both write)\n  \
         `first` and `third` cannot overlap: both reach the resource `Seen` (both write)\n  \
         `second` and `third` cannot overlap: both reach the resource `Seen` (both write)\n"
    );
    assert_eq!(seen_over_two_frames(schedule)?, [0, 1, 2, 3, 4, 5]);
    Ok(())
}
