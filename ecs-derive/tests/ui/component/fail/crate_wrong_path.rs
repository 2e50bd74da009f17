// The `crate` path is what the generated impl names: a wrong one fails at the string.
use ecs_core::prelude::*;

#[derive(Component)]
#[component(crate = "not_ecs")]
struct Position(f32, f32);

fn main() {}
