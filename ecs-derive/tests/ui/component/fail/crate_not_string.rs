// `crate` takes a string literal holding a path, not an integer.
use ecs_core::prelude::*;

#[derive(Component)]
#[component(crate = 5)]
struct Position(f32, f32);

fn main() {}
