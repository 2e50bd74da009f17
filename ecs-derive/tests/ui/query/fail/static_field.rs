// A field borrowed for `'static` instead of the world lifetime would let an item outlive the world: rejected.
use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);
#[derive(Component)]
struct Velocity(f32);

#[derive(Query)]
struct Leak<'w> {
    pos: &'static Position,
    vel: Option<&'w mut Velocity>,
}

fn main() {}
