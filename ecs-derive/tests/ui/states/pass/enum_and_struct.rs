// A state enum, as a game writes one, and a struct state: both derive and drive a world.
use ecs_core::prelude::*;

#[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
enum GameState {
    #[default]
    Menu,
    Playing,
}

#[derive(States, Clone, PartialEq, Eq, Hash, Debug, Default)]
struct Level(u32);

fn main() {
    let mut world = World::new();
    world.init_state::<GameState>();
    world.init_state::<Level>();
    assert_eq!(*world.resource::<State<GameState>>().unwrap().get(), GameState::Menu);
    let _ = GameState::Playing;
}
