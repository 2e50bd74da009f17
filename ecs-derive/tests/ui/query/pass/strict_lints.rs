//! The derive's output, read-only twin included, triggers no warning and needs no docs of its own.
#![deny(warnings)]
#![deny(missing_docs)]
#![deny(clippy::pedantic)]

/// Queries of a game.
pub mod game {
    use ecs_core::prelude::*;

    /// Where an entity is.
    #[derive(Component)]
    pub struct Position(pub f32);

    /// How fast it moves.
    #[derive(Component)]
    pub struct Velocity(pub f32);

    /// What moves, and how fast.
    #[derive(Query)]
    pub struct Mover<'w> {
        /// The entity moved.
        pub entity: Entity,
        /// Written each step.
        pub pos: &'w mut Position,
        /// Read each step.
        pub vel: &'w Velocity,
    }

    /// A read-only view of positions.
    #[derive(Query)]
    pub struct Viewer<'w>(pub &'w Position);

    /// A private query whose twin's fields are never read.
    #[derive(Query)]
    struct Private<'w> {
        pos: &'w mut Position,
    }

    /// Moves every entity by its velocity.
    pub fn step(world: &mut World) {
        for m in world.query::<Mover>().iter_mut() {
            m.pos.0 += m.vel.0;
        }
        for p in world.query::<Private>().iter_mut() {
            p.pos.0 += 0.0;
        }
    }
}

fn main() {
    use game::{Mover, MoverReadOnly, Position, Velocity, Viewer};
    let mut world = ecs_core::World::new();
    let e = world.spawn((Position(1.0), Velocity(2.0)));
    game::step(&mut world);
    let query = world.query::<Mover>();
    let twin: MoverReadOnly<'_> = query.get(e).unwrap();
    assert_eq!((twin.entity, twin.pos.0, twin.vel.0), (e, 3.0, 2.0));
    let viewers = world.query_ref::<Viewer>();
    let Viewer(p) = viewers.get(e).unwrap();
    assert!((p.0 - 3.0).abs() < f32::EPSILON);
}
