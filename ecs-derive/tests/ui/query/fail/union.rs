// `Query` cannot be derived for a union.
use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);

#[derive(Query)]
union Either<'w> {
    a: &'w Position,
    b: &'w Position,
}

fn main() {}
