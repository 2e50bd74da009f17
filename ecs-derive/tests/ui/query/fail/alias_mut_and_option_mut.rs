// `&mut Position` and `Option<&mut Position>` alias too.
use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);

#[derive(Query)]
struct Twice<'w> {
    a: &'w mut Position,
    b: Option<&'w mut Position>,
}

fn main() {}
