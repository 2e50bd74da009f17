//! Tiles: where things stand, and one step of walking.

use ecs_core::prelude::*;

/// A tile of the level's grid. Everything that stands somewhere has one:
/// the player, guards, waypoints, switches, doors, coins, the exit.
///
/// ```
/// use examples::streaming::Pos;
///
/// let mut p = Pos::new(0, 0);
/// p.step_toward(Pos::new(2, -1));
/// assert_eq!(p, Pos::new(1, 0));
/// ```
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Pos {
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
}

impl Pos {
    /// The tile at column `x`, row `y`.
    pub const fn new(x: i32, y: i32) -> Self {
        Self { x, y }
    }

    /// Moves one tile toward `target`: along the columns first, then the
    /// rows, so a walk between two tiles is always the same path.
    pub fn step_toward(&mut self, target: Pos) {
        if self.x != target.x {
            self.x += (target.x - self.x).signum();
        } else {
            self.y += (target.y - self.y).signum();
        }
    }
}
