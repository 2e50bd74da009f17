// `#[system_param(crate = "...")]` names the core crate through a re-export.
mod engine {
    pub use ecs_core as ecs;
}

use ecs_core::prelude::*;

struct Time(f32);

#[derive(SystemParam)]
#[system_param(crate = "engine::ecs")]
struct Clock<'w> {
    time: Res<'w, Time>,
}

fn read(clock: Clock) {
    assert_eq!(clock.time.0, 0.25);
}

fn main() -> Result<(), Error> {
    let mut world = World::new();
    world.insert_resource(Time(0.25));
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, read)?;
    schedule.run(&mut world)
}
