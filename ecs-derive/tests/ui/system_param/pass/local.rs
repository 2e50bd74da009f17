// `Local` fields keep their values between runs, one per system.
use ecs_core::prelude::*;

#[derive(Default)]
struct Seen(Vec<(u32, u64)>);

#[derive(SystemParam)]
struct Counters<'w> {
    runs: Local<'w, u32>,
    total: Local<'w, u64>,
}

fn tick(mut c: Counters, mut seen: ResMut<Seen>) {
    *c.runs += 1;
    *c.total += u64::from(*c.runs);
    seen.0.push((*c.runs, *c.total));
}

fn main() -> Result<(), Error> {
    let mut world = World::new();
    world.insert_resource(Seen::default());
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, tick.named("a"))?;
    schedule.add_system(Stage::Last, tick.named("b"))?;
    schedule.run(&mut world)?;
    schedule.run(&mut world)?;
    assert_eq!(world.resource::<Seen>()?.0, [(1, 1), (1, 1), (2, 3), (2, 3)]);
    Ok(())
}
