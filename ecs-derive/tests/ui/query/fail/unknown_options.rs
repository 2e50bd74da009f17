// Every unknown or malformed `#[query(...)]` option is reported in one build.
use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);

#[derive(Query)]
#[query(read_only, filter = "With<Position>")]
#[query(crate = 5)]
#[query(mutable(yes))]
struct Mover<'w> {
    pos: &'w mut Position,
}

fn main() {}
