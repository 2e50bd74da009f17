// A generic query struct still needs the world lifetime.
use ecs_core::prelude::*;

#[derive(Query)]
struct Mover<T: Component> {
    pos: &'static T,
}

fn main() {}
