//! The derive's output triggers no warning and needs no docs of its own.
#![deny(warnings)]
#![deny(missing_docs)]
#![deny(clippy::pedantic)]

/// Systems of a game.
pub mod game {
    use ecs_core::prelude::*;

    /// Where an entity is.
    #[derive(Component)]
    pub struct Position(pub f32);

    /// Seconds per frame.
    pub struct Time(pub f32);

    /// What a mover needs.
    #[derive(SystemParam)]
    pub struct Movement<'w> {
        /// What moves.
        pub positions: Query<'w, &'w mut Position>,
        /// How long a frame is.
        pub time: Res<'w, Time>,
    }

    /// Moves everything.
    pub fn step(mut m: Movement) {
        for p in m.positions.iter_mut() {
            p.0 += m.time.0;
        }
    }
}

fn main() {
    use ecs_core::prelude::*;
    let mut world = World::new();
    world.insert_resource(game::Time(1.0));
    let e = world.spawn(game::Position(0.0));
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, game::step).unwrap();
    schedule.run(&mut world).unwrap();
    assert!((world.get::<game::Position>(e).unwrap().0 - 1.0).abs() < f32::EPSILON);
}
