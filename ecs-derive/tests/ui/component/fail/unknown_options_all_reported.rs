// Errors in several `#[component(...)]` attributes are all reported in one build.
use ecs_core::prelude::*;

#[derive(Component)]
#[component(storage = "dense")]
#[component(crate = 5)]
#[component(table)]
struct Position(f32, f32);

fn main() {}
