// A `crate` string with a space is not a path: the error says so at the string.
use ecs_core::prelude::*;

#[derive(Component)]
#[component(crate = "my ecs")]
struct Position(f32, f32);

fn main() {}
