// Despawning while a query iterates does not compile: the query borrows the world.
use ecs_core::prelude::*;

fn main() {
    let mut world = World::new();
    for e in world.query::<Entity>().iter() {
        world.despawn(e).unwrap();
    }
}
