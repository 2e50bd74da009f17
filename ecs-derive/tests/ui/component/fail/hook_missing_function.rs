// A hook that names no function is reported at its path.
use ecs_core::prelude::*;

#[derive(Component)]
#[component(on_remove = no_such_hook)]
struct Enemy;

fn main() {}
