//! Run conditions: the built-in ones, closures, `not` / `and` / `or`; a
//! skipped system keeps its change-detection horizon; conditions only read;
//! every `run_if` of a system is asked each frame, even after one said no
//! (bevy's `run_conditions.rs` timer prints in frames 8 and 9).

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use ecs_core::prelude::*;

#[derive(Default)]
struct Runs(u32);

struct Flag;

#[derive(Default)]
struct Score(u32);

struct Ping;

#[derive(Component)]
#[component(track_changes)]
struct Health(i32);

fn count(mut runs: ResMut<Runs>) {
    runs.0 += 1;
}

/// Runs a schedule with `count` guarded by `condition` once after each
/// step, returning the running total after each.
fn totals<M>(
    condition: impl Condition<M>,
    steps: &[&dyn Fn(&mut World)],
) -> Result<Vec<u32>, Error> {
    let mut world = World::new();
    world.init_resource::<Runs>();
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, count.run_if(condition))?;
    let mut out = Vec::new();
    for step in steps {
        step(&mut world);
        schedule.run(&mut world)?;
        out.push(world.resource::<Runs>()?.0);
    }
    Ok(out)
}

fn nothing(_: &mut World) {}

fn a(mut runs: ResMut<Runs>) {
    runs.0 += 1;
}

fn b(mut runs: ResMut<Runs>) {
    runs.0 += 10;
}

fn c(mut runs: ResMut<Runs>) {
    runs.0 += 100;
}

/// A counter, and a condition that says `answer` and counts each time it
/// is asked.
fn counted(answer: bool) -> (Arc<AtomicU32>, impl Fn(Res<Runs>) -> bool + Clone) {
    let asked = Arc::new(AtomicU32::new(0));
    let counter = Arc::clone(&asked);
    let condition = move |_: Res<Runs>| {
        counter.fetch_add(1, Ordering::Relaxed);
        answer
    };
    (asked, condition)
}

#[test]
fn resource_exists_follows_the_resource() -> Result<(), Error> {
    let insert: &dyn Fn(&mut World) = &|w| {
        w.insert_resource(Flag);
    };
    let remove: &dyn Fn(&mut World) = &|w| {
        w.remove_resource::<Flag>().unwrap();
    };
    assert_eq!(
        totals(
            resource_exists::<Flag>,
            &[&nothing, insert, &nothing, remove]
        )?,
        [0, 1, 2, 2]
    );
    Ok(())
}

#[test]
fn resource_changed_and_added_see_writes_since_they_were_last_asked() -> Result<(), Error> {
    let insert: &dyn Fn(&mut World) = &|w| {
        w.init_resource::<Score>();
    };
    let write: &dyn Fn(&mut World) = &|w| w.resource_mut::<Score>().unwrap().0 += 1;
    let steps = [&nothing, insert, &nothing, write, &nothing, write];
    assert_eq!(
        totals(resource_changed::<Score>, &steps)?,
        [0, 1, 1, 2, 2, 3]
    );
    assert_eq!(totals(resource_added::<Score>, &steps)?, [0, 1, 1, 1, 1, 1]);
    Ok(())
}

#[test]
fn on_event_is_true_once_per_unseen_event() -> Result<(), Error> {
    let send: &dyn Fn(&mut World) = &|w| w.send(Ping);
    assert_eq!(
        totals(on_event::<Ping>, &[&nothing, send, &nothing, send])?,
        [0, 1, 1, 2]
    );
    Ok(())
}

#[test]
fn any_with_component_follows_the_entities() -> Result<(), Error> {
    let spawn: &dyn Fn(&mut World) = &|w| {
        w.spawn(Health(1));
    };
    let clear: &dyn Fn(&mut World) = &|w| w.clear();
    assert_eq!(
        totals(
            any_with_component::<Health>,
            &[&nothing, spawn, &nothing, clear]
        )?,
        [0, 1, 2, 2]
    );
    Ok(())
}

#[test]
fn closures_not_and_or_combine() -> Result<(), Error> {
    let flag: &dyn Fn(&mut World) = &|w| {
        w.insert_resource(Flag);
    };
    let unflag: &dyn Fn(&mut World) = &|w| {
        w.remove_resource::<Flag>().unwrap();
    };
    let steps = [&nothing, flag, unflag];
    assert_eq!(totals(not(resource_exists::<Flag>), &steps)?, [1, 1, 2]);
    let small = |runs: Res<Runs>| runs.0 < 1;
    assert_eq!(
        totals(resource_exists::<Flag>.or(small), &steps)?,
        [1, 2, 2]
    );
    assert_eq!(
        totals(resource_exists::<Flag>.and(|| true), &steps)?,
        [0, 1, 1]
    );
    assert_eq!(totals(|| false, &steps)?, [0, 0, 0]);
    Ok(())
}

#[test]
fn in_state_follows_the_state() -> Result<(), Error> {
    #[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
    enum Mode {
        #[default]
        Menu,
        Playing,
    }
    let start: &dyn Fn(&mut World) = &|w| {
        w.init_state::<Mode>();
    };
    let play: &dyn Fn(&mut World) = &|w| {
        w.resource_mut::<NextState<Mode>>()
            .unwrap()
            .set(Mode::Playing)
    };
    assert_eq!(
        totals(in_state(Mode::Playing), &[&nothing, start, play, &nothing])?,
        [0, 0, 1, 2],
        "false before the state exists; the switch applies before Update"
    );
    Ok(())
}

#[test]
fn a_skipped_system_keeps_its_change_detection_horizon() -> Result<(), Error> {
    #[derive(Default)]
    struct Seen(Vec<i32>);
    fn watch(added: Query<&Health, Added<Health>>, mut seen: ResMut<Seen>) {
        seen.0.extend(added.iter().map(|h| h.0));
    }
    let mut world = World::new();
    world.init_resource::<Seen>();
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, watch.run_if(resource_exists::<Flag>))?;
    world.insert_resource(Flag);
    world.spawn(Health(1));
    schedule.run(&mut world)?;
    world.remove_resource::<Flag>()?;
    world.spawn(Health(2));
    schedule.run(&mut world)?; // skipped
    world.spawn(Health(3));
    schedule.run(&mut world)?; // skipped
    world.insert_resource(Flag);
    schedule.run(&mut world)?;
    let mut seen = world.resource::<Seen>()?.0.clone();
    seen.sort_unstable();
    assert_eq!(
        seen,
        [1, 2, 3],
        "the run after the skips sees what they missed"
    );
    let stats = schedule.stats();
    assert_eq!((stats[0].runs, stats[0].skipped), (2, 2));
    assert!(
        stats[0].to_string().ends_with(", 2 skipped"),
        "{}",
        stats[0]
    );
    Ok(())
}

#[test]
fn a_condition_that_writes_is_refused_when_added() {
    fn sneaky(mut score: ResMut<Score>) -> bool {
        score.0 += 1;
        true
    }
    let mut schedule = Schedule::new();
    let error = schedule
        .add_system(Stage::Update, count.run_if(sneaky))
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "the run condition `sneaky` of system `count` writes `Score` through `ResMut<Score>`: \
         a run condition may only read"
    );
    let error = schedule
        .add_system(Stage::Update, count.run_if(|_: Commands| true))
        .unwrap_err();
    assert!(matches!(error, Error::WritingCondition { .. }));
}

#[test]
fn a_condition_reading_what_its_system_writes_is_allowed_and_scheduled_with_it() -> Result<(), Error>
{
    fn add(mut score: ResMut<Score>) {
        score.0 += 1;
    }
    fn bump(mut score: ResMut<Score>) {
        score.0 += 10;
    }
    let mut world = World::new();
    world.init_resource::<Score>();
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, add.run_if(|s: Res<Score>| s.0 < 3))?;
    schedule.add_system(Stage::Update, bump.run_if(|s: Res<Score>| s.0 == 3))?;
    let why = schedule.explain()?;
    let update = why.stage(Stage::Update).unwrap();
    assert_eq!(update.batches.len(), 2, "both touch the score");
    for _ in 0..5 {
        schedule.run(&mut world)?;
    }
    assert_eq!(world.resource::<Score>()?.0, 13);
    Ok(())
}

/// A system's separate `run_if`s are each asked every frame it is reached,
/// even after an earlier one said no: a condition that counts frames in a
/// `Local` keeps counting. (The system runs only when all say yes.)
#[test]
fn every_run_if_is_asked_even_after_a_no() -> Result<(), Error> {
    let mut world = World::new();
    world.init_resource::<Runs>();
    let mut schedule = Schedule::new();
    let never = |_: Res<Runs>| false;
    let asked = Arc::new(AtomicU32::new(0));
    let seen_by_test = Arc::clone(&asked);
    let counting = move |mut seen: Local<u32>| {
        *seen += 1;
        asked.store(*seen, Ordering::Relaxed);
        true
    };
    schedule.add_system(Stage::Update, count.run_if(never).run_if(counting))?;
    for _ in 0..5 {
        schedule.run(&mut world)?;
    }
    assert_eq!(
        world.resource::<Runs>()?.0,
        0,
        "the first condition said no"
    );
    assert_eq!(
        seen_by_test.load(Ordering::Relaxed),
        5,
        "the second was asked every frame, its Local counting"
    );
    Ok(())
}

/// A condition on a group is asked once per frame for all its systems, by
/// the first one reached; `distributive_run_if` gives each its own, asked by
/// each.
#[test]
fn a_group_s_condition_is_asked_once_per_frame() -> Result<(), Error> {
    let asked = Arc::new(AtomicU32::new(0));
    let counter = Arc::clone(&asked);
    // True on odd frames, counted each time it is asked.
    let odd_frames = move |mut frame: Local<u32>| {
        counter.fetch_add(1, Ordering::Relaxed);
        *frame += 1;
        *frame % 2 == 1
    };
    let mut world = World::new();
    world.init_resource::<Runs>();
    let mut schedule = Schedule::new();
    schedule.add_systems(Stage::Update, (a, b, c).chain().run_if(odd_frames))?;
    for _ in 0..4 {
        schedule.run(&mut world)?;
    }
    assert_eq!(
        asked.load(Ordering::Relaxed),
        4,
        "once per frame, not once per system"
    );
    assert_eq!(
        world.resource::<Runs>()?.0,
        222,
        "all three ran in frames 1 and 3"
    );
    let explained = schedule.explain()?.to_string();
    assert!(explained.contains("(once for its group)"), "{explained}");

    let (asked, counting) = counted(true);
    let mut schedule = Schedule::new();
    schedule.add_systems(
        Stage::Update,
        (a, b, c).chain().distributive_run_if(counting),
    )?;
    schedule.run(&mut world)?;
    assert_eq!(asked.load(Ordering::Relaxed), 3, "each system asks its own");
    Ok(())
}

/// A set's condition guards every member, those added before it and after,
/// asked once per frame for the set, beside each member's own conditions
/// (all of them asked); a condition that writes is refused for a set too.
#[test]
fn a_set_s_condition_guards_its_members_once_per_frame() -> Result<(), Error> {
    let asked = Arc::new(AtomicU32::new(0));
    let counter = Arc::clone(&asked);
    let flag_up = move |flag: Option<Res<Flag>>| {
        counter.fetch_add(1, Ordering::Relaxed);
        flag.is_some()
    };
    let (own, counting) = counted(true);
    let mut world = World::new();
    world.init_resource::<Runs>();
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, a.in_set("gated").run_if(counting))?;
    schedule.configure_set(Stage::Update, "gated", run_if(flag_up))?;
    schedule.add_system(Stage::Update, b.in_set("gated").after(a))?;
    schedule.run(&mut world)?;
    assert_eq!(world.resource::<Runs>()?.0, 0, "no flag: neither ran");
    world.insert_resource(Flag);
    schedule.run(&mut world)?;
    assert_eq!(world.resource::<Runs>()?.0, 11, "the flag is up: both ran");
    assert_eq!(
        asked.load(Ordering::Relaxed),
        2,
        "once per frame for the set"
    );
    assert_eq!(
        own.load(Ordering::Relaxed),
        2,
        "a's own condition was asked every frame"
    );

    let err = schedule
        .configure_set(Stage::Update, "gated", run_if(|_: ResMut<Runs>| true))
        .unwrap_err();
    assert!(
        matches!(&err, Error::WritingCondition { system, .. } if system == "set gated"),
        "{err}"
    );
    Ok(())
}

/// bevy's `run_conditions.rs` timer: each condition keeps its own timer in a
/// `Local`, adding the frame's delta whenever it is asked. Guarded by
/// "2 s have passed" and "not 2.5 s have passed", with frames of 250 ms, the
/// message prints in frames 8 and 9 only: the second timer ran from the
/// first frame, though the first condition said no until frame 8.
#[test]
fn bevy_run_conditions_timer_prints_in_frames_8_and_9() -> Result<(), Error> {
    use std::time::Duration;

    #[derive(Default)]
    struct Printed(Vec<u32>);
    #[derive(Default)]
    struct Frame(u32);

    fn time_passed(seconds: f32) -> impl FnMut(Local<f32>, Res<Time>) -> bool + Clone {
        move |mut timer: Local<f32>, time: Res<Time>| {
            *timer += time.delta_secs();
            *timer >= seconds
        }
    }
    fn print_time_message(frame: Res<Frame>, mut printed: ResMut<Printed>) {
        printed.0.push(frame.0);
    }

    let mut world = World::new();
    world.insert_resource(Time::default());
    world.init_resource::<Printed>();
    world.init_resource::<Frame>();
    let mut schedule = Schedule::new();
    schedule.add_system(
        Stage::Update,
        print_time_message
            .run_if(time_passed(2.0))
            .run_if(not(time_passed(2.5))),
    )?;
    for frame in 1..=20 {
        world.resource_mut::<Frame>()?.0 = frame;
        world
            .resource_mut::<Time>()?
            .advance_by(Duration::from_millis(250));
        schedule.run(&mut world)?;
    }
    assert_eq!(world.resource::<Printed>()?.0, [8, 9]);
    Ok(())
}
