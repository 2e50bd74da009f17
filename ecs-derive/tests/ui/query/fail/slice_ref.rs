// A reference to a slice of components is not a fetch.
use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);

#[derive(Query)]
struct Many<'w> {
    all: &'w [Position],
}

fn main() {}
