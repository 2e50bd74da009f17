// A type that forgot `#[derive(Component)]` can be neither spawned nor read.
use ecs_core::prelude::*;

struct Position(f32, f32);

fn main() {
    let mut world = World::new();
    let e = world.spawn(Position(0.0, 0.0));
    let _ = world.get::<Position>(e);
}
