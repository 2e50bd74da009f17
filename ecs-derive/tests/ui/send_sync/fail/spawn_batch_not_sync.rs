// `spawn_batch` rejects bundles of a non-`Sync` component just like `spawn`.
use ecs_core::prelude::*;
use std::cell::RefCell;

#[derive(Component)]
struct Wrap<T>(T);

fn main() {
    let mut world = World::new();
    world.spawn_batch((0..3).map(|i| Wrap(RefCell::new(i))));
}
