//! Level streaming: a loader thread builds each level in a `World` of its
//! own while the game plays the current one; the game then unloads the old
//! level, keeping what is tagged [`DontDestroyOnLoad`] (the player, the
//! score keeper), and merges the new one with
//! [`World::merge`](ecs_core::World::merge).
//!
//! A level's entities point at each other through `#[entity]` fields: a
//! [`Door`] at its [`Switch`], a guard's [`Patrol`] at its [`Waypoint`]s,
//! the [`LevelRoot`] at the stops of the player's tour and the [`Exit`].
//! The merge gives every entity a fresh id and rewrites those fields, so the
//! references hold in the running world.
//!
//! ```
//! use ecs_core::prelude::*;
//! use examples::streaming::{Config, Door, Game, Happening, Switch};
//!
//! let mut game = Game::new(&Config { levels: 2, seed: 4, ..Config::default() })?;
//! let mut loads = 0;
//! while !game.is_finished() {
//!     let log = game.step()?;
//!     loads += log.happenings.iter().filter(|h| matches!(h, Happening::LevelLoaded { .. })).count();
//!     let world = game.world();
//!     for door in world.query_ref::<&Door>().iter() {
//!         assert!(door.switch.is_none_or(|s| world.contains::<Switch>(s)));
//!     }
//! }
//! assert_eq!(loads, 2);
//! # Ok::<(), Error>(())
//! ```

mod components;
mod config;
mod game;
mod journal;
mod level;
mod loader;
mod pos;
pub mod systems;

pub use components::{
    Alerted, Coin, DontDestroyOnLoad, Door, Exit, Level, LevelRoot, Open, Patrol, Player, Pressed,
    Score, Switch, Waypoint,
};
pub use config::{CliError, Command, Config, USAGE};
pub use game::{Game, Summary};
pub use journal::{DOOR_POINTS, FrameLog, Happening, Journal, SPOTTED_PENALTY};
pub use level::{BuiltLevel, HEIGHT, WIDTH};
pub use loader::Loader;
pub use pos::Pos;
