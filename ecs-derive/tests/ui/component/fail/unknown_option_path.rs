// An unknown multi-segment option is named in full (`a::b`).
use ecs_core::prelude::*;

#[derive(Component)]
#[component(a::b)]
struct Position(f32, f32);

fn main() {}
