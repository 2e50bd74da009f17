// Two lifetime parameters: the error points at the second.
use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);
#[derive(Component)]
struct Velocity(f32);

#[derive(Query)]
struct Mover<'a, 'b> {
    pos: &'a mut Position,
    vel: &'b Velocity,
}

fn main() {}
