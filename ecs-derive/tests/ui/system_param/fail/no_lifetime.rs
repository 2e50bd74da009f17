// A param struct without a lifetime parameter: the error says to write `struct Physics<'w>`.
use ecs_core::prelude::*;

struct Time(f32);

#[derive(SystemParam)]
struct Physics {
    time: Res<'static, Time>,
}

fn main() {}
