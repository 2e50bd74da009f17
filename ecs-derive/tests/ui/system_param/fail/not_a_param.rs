// A field that is no system param: the trait's diagnostic says what params are.
use ecs_core::prelude::*;

struct Time(f32);

#[derive(SystemParam)]
struct Physics<'w> {
    time: Res<'w, Time>,
    count: u32,
}

fn main() {}
