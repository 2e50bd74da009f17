// An `EntityMut` holds the world exclusively: another thread cannot read the world while the
// handle is alive.
use ecs_core::prelude::*;

#[derive(Component)]
struct Health(i32);

fn main() {
    let mut world = World::new();
    let e = world.spawn(Health(1));
    let mut handle = world.entity_mut(e).unwrap();
    std::thread::scope(|s| {
        s.spawn(|| world.get::<Health>(e).map(|h| h.0));
    });
    handle.get_mut::<Health>().unwrap().0 += 1;
}
