// An unknown `#[component(...)]` option is rejected and the valid options are listed.
use ecs_core::prelude::*;

#[derive(Component)]
#[component(storage = "dense")]
struct Position(f32, f32);

fn main() {}
