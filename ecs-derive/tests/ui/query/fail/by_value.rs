// Components named by value: each error covers the whole type and says to borrow it.
use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);

mod physics {
    #[derive(ecs_core::Component)]
    pub struct Velocity(pub f32);
}

#[derive(Query)]
struct Mover<'w> {
    pos: Position,
    vel: physics::Velocity,
    other: &'w Position,
}

fn main() {}
