// `Query` cannot be derived for an enum.
use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);

#[derive(Query)]
enum Either<'w> {
    A(&'w Position),
    B(Entity),
}

fn main() {}
