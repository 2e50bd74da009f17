use ecs_core::prelude::*;

#[derive(Component)]
struct Health(i32);

fn main() {
    let mut world = World::new();
    // The trigger must come first: this observer starts with a query.
    world.observe(|health: Query<&Health>, trigger: OnAdd<Health>| {
        let _ = (health, trigger);
    });
}
