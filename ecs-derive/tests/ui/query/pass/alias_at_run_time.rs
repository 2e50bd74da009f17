// Aliasing the derive cannot see (another path to the type, a nested query) panics when the query is built.
use ecs_core::prelude::*;
use std::panic::{AssertUnwindSafe, catch_unwind};

mod game {
    #[derive(ecs_core::Component)]
    pub struct Position(pub f32);
}
use game::Position;

#[derive(Query)]
struct TwoPaths<'w> {
    a: &'w mut Position,
    b: &'w game::Position,
}

#[derive(Query)]
struct Inner<'w> {
    pos: &'w Position,
}

#[derive(Query)]
struct Outer<'w> {
    pos: &'w mut Position,
    inner: Inner<'w>,
}

fn main() {
    std::panic::set_hook(Box::new(|_| {}));
    let mut world = World::new();
    world.spawn(Position(1.0));
    let message = |result: Result<(), Box<dyn std::any::Any + Send>>| {
        *result.unwrap_err().downcast::<String>().unwrap()
    };
    let two = message(catch_unwind(AssertUnwindSafe(|| {
        world.query::<TwoPaths>();
    })));
    assert!(two.contains("asks for `Position` mutably"), "{two}");
    let nested = message(catch_unwind(AssertUnwindSafe(|| {
        world.query::<Outer>();
    })));
    assert!(nested.contains("asks for `Position` mutably"), "{nested}");
}
