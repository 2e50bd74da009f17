// An empty `crate` string is not a path: the error says so and shows what to write.
use ecs_core::prelude::*;

#[derive(Component)]
#[component(crate = "")]
struct Position(f32, f32);

fn main() {}
