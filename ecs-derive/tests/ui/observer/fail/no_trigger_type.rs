use ecs_core::prelude::*;

struct Health(i32);

fn main() {
    let mut world = World::new();
    // `Health` is not a component, so `OnAdd<Health>` is no trigger.
    world.observe(|trigger: OnAdd<Health>| {
        let _ = trigger;
    });
}
