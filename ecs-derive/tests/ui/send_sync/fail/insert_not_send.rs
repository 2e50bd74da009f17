// A derived generic component instantiated with a non-`Send` type cannot be inserted.
use ecs_core::prelude::*;
use std::rc::Rc;

#[derive(Component)]
struct Wrap<T>(T);

fn main() {
    let mut world = World::new();
    let e = world.spawn(());
    world.insert(e, Wrap(Rc::new(1u8))).unwrap();
}
