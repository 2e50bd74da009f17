// A param borrowed for `'static` instead of the struct's lifetime, alone or nested.
use ecs_core::prelude::*;

struct Time(f32);

#[derive(SystemParam)]
struct Clock<'w> {
    time: Res<'w, Time>,
}

#[derive(SystemParam)]
struct Physics<'w> {
    time: Res<'static, Time>,
    clock: Option<Clock<'static>>,
    commands: Commands<'w>,
}

fn main() {}
