// A hook of the wrong shape is reported where the type names it.
use ecs_core::prelude::*;

fn takes_the_world(_: &mut World) {}

#[derive(Component)]
#[component(on_insert = takes_the_world)]
struct Enemy;

fn main() {}
