// A generic component instantiated with a non-`Send` type cannot be spawned.
use ecs_core::prelude::*;

#[derive(Component)]
struct Wrap<T>(T);

fn main() {
    let mut world = World::new();
    world.spawn(Wrap(std::rc::Rc::new(1u8)));
}
