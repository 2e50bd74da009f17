// A query struct without a lifetime parameter: the error says to write `struct Mover<'w>`.
use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);

#[derive(Query)]
struct Mover {
    pos: &'static Position,
}

fn main() {}
