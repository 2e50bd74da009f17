// A hook option without a function is refused at its name.
use ecs_core::prelude::*;

#[derive(Component)]
#[component(on_despawn)]
struct Enemy;

fn main() {}
