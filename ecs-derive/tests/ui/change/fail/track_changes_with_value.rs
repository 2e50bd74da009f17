// `track_changes` is a flag: a value is reported at the option.
use ecs_core::prelude::*;

#[derive(Component)]
#[component(track_changes = true)]
struct Health(i32);

fn main() {}
