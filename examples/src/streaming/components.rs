//! What the player, the score keeper and a level's entities are made of.
//!
//! The components that point at other entities mark those fields
//! `#[entity]`, so a merge rewrites them to the ids the entities get in the
//! running world.

use ecs_core::prelude::*;

/// The one player. It outlives every level.
#[derive(Component, Debug)]
pub struct Player;

/// Kept when a level is unloaded: everything else goes with its level.
#[derive(Component, Debug)]
pub struct DontDestroyOnLoad;

/// The points scored so far, on the score-keeper entity.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score(pub u32);

/// The level an entity was built for: every entity a loader makes carries
/// its level's number.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level(pub u32);

/// A pressure plate the player steps on.
#[derive(Component, Debug)]
pub struct Switch;

/// A switch that has been stepped on.
#[derive(Component, Debug)]
pub struct Pressed;

/// A door, and the switch that opens it; `None` is a sealed door that no
/// switch opens.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Door {
    /// The switch, an entity of the same level.
    #[entity]
    pub switch: Option<Entity>,
}

/// A door that has opened.
#[derive(Component, Debug)]
pub struct Open;

/// A point of a patrol route.
#[derive(Component, Debug)]
pub struct Waypoint;

/// A guard walking its route, waypoint after waypoint, round and round.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct Patrol {
    /// The waypoints, entities of the same level.
    #[entity]
    pub route: Vec<Entity>,
    /// Which waypoint the guard walks to now.
    pub next: usize,
}

/// A guard that has spotted the player: it costs points once, not on every
/// frame it walks beside the player.
#[derive(Component, Debug)]
pub struct Alerted;

/// A coin lying on a tile, worth its value when the player steps there.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Coin(pub u32);

/// The tile that ends the level.
#[derive(Component, Debug)]
pub struct Exit;

/// One per level: where the player starts and the way it walks, every
/// switch in turn, then the exit.
#[derive(Component, Clone, Debug, PartialEq, Eq)]
pub struct LevelRoot {
    /// The level's number, from 1.
    pub number: u32,
    /// Where the player stands when the level begins.
    pub start: super::Pos,
    /// The player's way through the level: switches, then the exit.
    #[entity]
    pub tour: Vec<Entity>,
    /// The exit, the last stop of the tour.
    #[entity]
    pub exit: Entity,
    /// Which stop of the tour the player walks to now.
    pub next: usize,
}
