// A param written without the struct's lifetime: the error says to write `Res<'w, Time>`.
use ecs_core::prelude::*;

struct Time(f32);

#[derive(SystemParam)]
struct Physics<'w> {
    commands: Commands<'w>,
    time: Res<Time>,
}

fn main() {}
