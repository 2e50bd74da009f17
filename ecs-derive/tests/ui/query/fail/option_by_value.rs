// `Option<Position>` names the component by value: the error says `Option<&'w Position>`.
use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);

#[derive(Query)]
struct Mover<'w> {
    pos: Option<Position>,
    other: &'w Position,
}

fn main() {}
