// Every mistake inside one attribute is reported, not just the first.
use ecs_core::prelude::*;

#[derive(Component)]
#[component(storage = "dense", sparse, crate = 5)]
struct Position(f32, f32);

fn main() {}
