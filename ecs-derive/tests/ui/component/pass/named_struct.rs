// A struct with named fields derives `Component` and round-trips through a world.
use ecs_core::prelude::*;

#[derive(Component, Debug, PartialEq)]
struct Position {
    x: f32,
    y: f32,
}

fn main() {
    let mut world = World::new();
    let e = world.spawn(Position { x: 1.0, y: 2.0 });
    assert_eq!(
        world.get::<Position>(e).unwrap(),
        &Position { x: 1.0, y: 2.0 }
    );
}
