//! The derive's output triggers no warning and needs no docs of its own.
#![deny(warnings)]
#![deny(missing_docs)]
#![deny(clippy::pedantic)]

/// Components of a game.
pub mod game {
    use ecs_core::prelude::*;

    /// Where an entity is.
    #[derive(Component, Debug, PartialEq)]
    pub struct Position {
        /// Horizontal coordinate.
        pub x: f32,
    }

    /// A documented generic component.
    #[derive(Component)]
    pub struct Boxed<T>(pub T);
}

fn main() {
    let mut world = ecs_core::World::new();
    let e = world.spawn((game::Position { x: 1.0 }, game::Boxed(2u8)));
    assert_eq!(
        world.get::<game::Position>(e).unwrap(),
        &game::Position { x: 1.0 }
    );
    assert_eq!(world.get::<game::Boxed<u8>>(e).unwrap().0, 2);
}
