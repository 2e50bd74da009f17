// `crate` given twice, in one attribute or across two, is an error at the second value.
use ecs_core::prelude::*;

#[derive(Component)]
#[component(crate = "ecs_core", crate = "ecs_core")]
struct InOne;

#[derive(Component)]
#[component(crate = "ecs_core")]
#[component(crate = "ecs_core")]
struct AcrossTwo;

fn main() {}
