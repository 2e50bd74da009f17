// `&mut Position` and `&Position` in two fields alias: caught at compile time, at the second field.
use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);

#[derive(Query)]
struct Twice<'w> {
    a: &'w mut Position,
    b: &'w Position,
}

fn main() {}
