// `u32` is not a fetch: the message comes from `QueryData`'s `on_unimplemented`.
use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);

fn main() {
    let mut world = World::new();
    let _ = world.query::<(&Position, u32)>();
}
