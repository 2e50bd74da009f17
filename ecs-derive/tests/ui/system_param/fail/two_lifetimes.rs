// A param struct with two lifetime parameters: the error points at the second.
use ecs_core::prelude::*;

struct Time(f32);

#[derive(SystemParam)]
struct Physics<'w, 's> {
    time: Res<'w, Time>,
    name: &'s str,
}

fn main() {}
