//! `Time` and `Stage::FixedUpdate`: a manual clock, whole steps run per
//! frame, the cap that drops time and says so, and `Stage::Startup`.

use core::time::Duration;

use ecs_core::prelude::*;

#[derive(Default)]
struct Steps(Vec<(Duration, Duration)>);

/// Records what the clock says inside a fixed step: (delta, elapsed).
fn physics(time: Res<Time>, mut steps: ResMut<Steps>) {
    steps.0.push((time.delta(), time.elapsed()));
}

fn world(step_ms: u64) -> World {
    let mut world = World::new();
    world.init_resource::<Steps>();
    world.insert_resource(Time::fixed_step(step_ms as f64 / 1000.0));
    world
}

fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

#[test]
fn fixed_update_runs_once_per_whole_step_with_the_fixed_clock() -> Result<(), Error> {
    let mut world = world(10);
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::FixedUpdate, physics)?;
    let mut per_frame = Vec::new();
    for advance in [25, 5, 0, 31] {
        world.resource_mut::<Time>()?.advance_by(ms(advance));
        schedule.run(&mut world)?;
        per_frame.push(core::mem::take(&mut world.resource_mut::<Steps>()?.0).len());
    }
    assert_eq!(per_frame, [2, 1, 0, 3]);
    let time = world.resource::<Time>()?;
    assert_eq!(
        time.elapsed(),
        ms(61),
        "outside FixedUpdate: the frame clock"
    );
    assert_eq!(time.delta(), ms(31));
    assert_eq!(time.overstep(), ms(1));
    assert!((time.overstep_fraction() - 0.1).abs() < 1e-9);
    Ok(())
}

#[test]
fn inside_a_step_delta_is_the_step_and_elapsed_the_fixed_clock() -> Result<(), Error> {
    let mut world = world(10);
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::FixedUpdate, physics)?;
    world.resource_mut::<Time>()?.advance_by(ms(35));
    schedule.run(&mut world)?;
    assert_eq!(
        world.resource::<Steps>()?.0,
        [(ms(10), ms(10)), (ms(10), ms(20)), (ms(10), ms(30))]
    );
    Ok(())
}

#[test]
fn the_cap_drops_whole_steps_and_reports_them() -> Result<(), Error> {
    let mut world = world(10);
    world.resource_mut::<Time>()?.set_max_steps(4);
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::FixedUpdate, physics)?;
    world.resource_mut::<Time>()?.advance_by(ms(1_003));
    schedule.run(&mut world)?;
    assert_eq!(world.resource::<Steps>()?.0.len(), 4);
    let time = world.resource::<Time>()?;
    assert_eq!(time.dropped(), ms(960));
    assert_eq!(time.overstep(), ms(3));
    world.resource_mut::<Time>()?.advance_by(ms(10));
    schedule.run(&mut world)?;
    let time = world.resource::<Time>()?;
    assert_eq!(time.dropped(), Duration::ZERO, "caught up");
    assert_eq!(time.total_dropped(), ms(960));
    Ok(())
}

#[test]
fn a_schedule_with_fixed_systems_adds_a_clock_when_the_world_has_none() -> Result<(), Error> {
    let mut world = World::new();
    world.init_resource::<Steps>();
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::FixedUpdate, physics)?;
    schedule.run(&mut world)?;
    let time = world.resource::<Time>()?;
    assert!(!time.is_manual());
    assert_eq!(time.fixed_delta(), Duration::from_secs_f64(1.0 / 64.0));
    let mut without = World::new();
    Schedule::new().run(&mut without)?;
    assert!(
        !without.contains_resource::<Time>(),
        "no fixed systems, no clock"
    );
    Ok(())
}

#[test]
fn the_wall_clock_moves_without_advance_by() -> Result<(), Error> {
    let mut world = World::new();
    world.insert_resource(Time::default());
    let mut schedule = Schedule::new();
    schedule.run(&mut world)?;
    assert_eq!(
        world.resource::<Time>()?.delta(),
        Duration::ZERO,
        "first frame"
    );
    std::thread::sleep(ms(2));
    schedule.run(&mut world)?;
    assert!(world.resource::<Time>()?.delta() >= ms(2));
    Ok(())
}

#[test]
fn startup_runs_once_before_every_other_stage() -> Result<(), Error> {
    #[derive(Default)]
    struct Trace(Vec<&'static str>);
    fn setup(mut t: ResMut<Trace>) {
        t.0.push("setup");
    }
    fn first(mut t: ResMut<Trace>) {
        t.0.push("first");
    }
    let mut world = World::new();
    world.init_resource::<Trace>();
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::First, first)?;
    schedule.add_system(Stage::Startup, setup)?;
    for _ in 0..3 {
        schedule.run(&mut world)?;
    }
    assert_eq!(
        world.resource::<Trace>()?.0,
        ["setup", "first", "first", "first"]
    );
    Ok(())
}
