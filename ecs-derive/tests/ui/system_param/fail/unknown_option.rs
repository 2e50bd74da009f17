// An unknown option, and a `crate` option that is not a string: both reported.
use ecs_core::prelude::*;

struct Time(f32);

#[derive(SystemParam)]
#[system_param(exclusive, crate = ecs_core)]
struct Physics<'w> {
    time: Res<'w, Time>,
}

fn main() {}
