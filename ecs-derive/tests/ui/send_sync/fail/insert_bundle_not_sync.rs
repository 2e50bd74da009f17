// A bundle containing a non-`Sync` value cannot be inserted, nor through an `EntityMut`.
use ecs_core::prelude::*;
use std::cell::Cell;

#[derive(Component)]
struct Wrap<T>(T);

#[derive(Component)]
struct Position(f32);

fn main() {
    let mut world = World::new();
    let e = world.spawn(());
    world.insert_bundle(e, (Position(0.0), Wrap(Cell::new(1u8)))).unwrap();
    world.entity_mut(e).unwrap().insert(Wrap(Cell::new(2u8)));
}
