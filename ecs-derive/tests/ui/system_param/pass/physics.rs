// A query and a resource grouped into one param, run in a schedule.
use ecs_core::prelude::*;

#[derive(Component)]
struct Position {
    x: f32,
}
#[derive(Component)]
struct Velocity {
    x: f32,
}
#[derive(Component)]
struct Frozen;
struct Time {
    dt: f32,
}

#[derive(Query)]
struct Mover<'w> {
    pos: &'w mut Position,
    vel: &'w Velocity,
}

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

fn main() -> Result<(), Error> {
    let mut world = World::new();
    world.insert_resource(Time { dt: 0.5 });
    let moving = world.spawn((Position { x: 1.0 }, Velocity { x: 4.0 }));
    let frozen = world.spawn((Position { x: 1.0 }, Velocity { x: 4.0 }, Frozen));
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::PostUpdate, physics.named("physics"))?;
    schedule.run(&mut world)?;
    assert_eq!(world.get::<Position>(moving)?.x, 3.0);
    assert_eq!(world.get::<Position>(frozen)?.x, 1.0);
    Ok(())
}
