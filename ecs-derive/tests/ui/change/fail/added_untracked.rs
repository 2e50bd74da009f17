// `Added<T>` on a type without `#[component(track_changes)]`, outside a system too.
use ecs_core::prelude::*;

#[derive(Component)]
struct Health(i32);

fn main() {
    let mut world = World::new();
    world.spawn(Health(1));
    let _ = world.query_filtered::<Entity, Added<Health>>().iter().count();
}
