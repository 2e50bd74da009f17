//! Resource change detection: `Res::is_changed` / `is_added`, `ResMut`
//! marking on write (and not on read), `world.resource_mut` marking.

use ecs_core::prelude::*;

#[derive(Default)]
struct Score(u32);

#[derive(Default)]
struct Seen(Vec<(bool, bool)>);

fn watch(score: Res<Score>, mut seen: ResMut<Seen>) {
    seen.0.push((score.is_added(), score.is_changed()));
}

#[test]
fn res_sees_insertions_and_writes_since_its_last_run() -> Result<(), Error> {
    let mut world = World::new();
    world.init_resource::<Seen>();
    world.init_resource::<Score>();
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, watch)?;
    schedule.run(&mut world)?;
    schedule.run(&mut world)?;
    world.resource_mut::<Score>()?.0 = 3;
    schedule.run(&mut world)?;
    world.insert_resource(Score(0));
    schedule.run(&mut world)?;
    assert_eq!(
        world.resource::<Seen>()?.0,
        [(true, true), (false, false), (false, true), (true, true)]
    );
    Ok(())
}

#[test]
fn res_mut_marks_only_when_written() -> Result<(), Error> {
    #[derive(Default)]
    struct Frame(u32);
    fn read_only(score: ResMut<Score>, mut frame: ResMut<Frame>) {
        frame.0 += 1;
        let _ = score.0; // read through Deref: not a change
    }
    fn write_on_odd(mut score: ResMut<Score>, frame: Res<Frame>) {
        if frame.0 % 2 == 1 {
            score.0 += 1;
        }
    }
    fn quiet(mut score: ResMut<Score>) {
        score.bypass_change_detection().0 += 100;
    }
    let mut world = World::new();
    world.init_resource::<Seen>();
    world.init_resource::<Frame>();
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::PreUpdate, read_only)?;
    schedule.add_system(Stage::PreUpdate, write_on_odd.after(read_only))?;
    schedule.add_system(Stage::PreUpdate, quiet.after(write_on_odd))?;
    schedule.add_system(Stage::Update, watch)?;
    world.init_resource::<Score>();
    for _ in 0..4 {
        schedule.run(&mut world)?;
    }
    assert_eq!(
        world.resource::<Seen>()?.0,
        [(true, true), (false, false), (false, true), (false, false)]
    );
    assert_eq!(world.resource::<Score>()?.0, 402);
    Ok(())
}

#[test]
fn a_writer_marks_the_change_for_systems_later_in_its_frame() -> Result<(), Error> {
    fn write(mut score: ResMut<Score>) {
        score.0 += 1;
    }
    struct Go;
    let mut world = World::new();
    world.init_resource::<Seen>();
    world.init_resource::<Score>();
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, watch)?;
    schedule.add_system(Stage::First, write.run_if(resource_exists::<Go>))?;
    schedule.run(&mut world)?;
    world.insert_resource(Go);
    schedule.run(&mut world)?;
    world.remove_resource::<Go>()?;
    schedule.run(&mut world)?;
    assert_eq!(
        world.resource::<Seen>()?.0,
        [(true, true), (false, true), (false, false)]
    );
    Ok(())
}
