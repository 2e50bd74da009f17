// While a query borrows the world mutably, no other thread can be handed the world, not even a
// shared reference to read it: the borrow checker rejects the scoped thread.
use ecs_core::prelude::*;

#[derive(Component)]
struct Health(i32);

fn main() {
    let mut world = World::new();
    world.spawn(Health(1));
    let mut query = world.query::<&mut Health>();
    std::thread::scope(|s| {
        s.spawn(|| world.len());
    });
    query.iter_mut().for_each(|h| h.0 += 1);
}
