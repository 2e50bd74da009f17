// Aliasing inside one tuple field is caught as well.
use ecs_core::prelude::*;

#[derive(Component)]
struct A(f32);

#[derive(Query)]
struct Twice<'w> {
    pair: (&'w mut A, &'w A),
}

fn main() {}
