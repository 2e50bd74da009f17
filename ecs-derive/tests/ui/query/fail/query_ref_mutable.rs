// A query that writes cannot go through `query_ref`, which only lends the world for reading.
use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);

#[derive(Query)]
struct Mover<'w> {
    pos: &'w mut Position,
}

fn main() {
    let world = World::new();
    let _ = world.query_ref::<Mover>();
}
