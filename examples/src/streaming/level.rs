//! Building one level in a world of its own, as a loader thread does.

use ecs_core::prelude::*;

use super::{Coin, Door, Exit, Level, LevelRoot, Patrol, Pos, Switch, Waypoint};
use crate::boids::SplitMix64;

/// The level grid's width in tiles.
pub const WIDTH: i32 = 32;
/// The level grid's height in tiles.
pub const HEIGHT: i32 = 20;

/// A level built in its own world, ready to merge into the running one.
pub struct BuiltLevel {
    /// The level's number, from 1.
    pub number: u32,
    /// The level's entities, and nothing else.
    pub world: World,
    /// The level's [`LevelRoot`] entity, an id of `world`.
    pub root: Entity,
}

impl BuiltLevel {
    /// Builds level `number` of the run started from `seed`: the same pair
    /// always gives the same level.
    ///
    /// Switches, the doors they open (and two sealed ones), guards on patrol
    /// routes of three to six waypoints, coins, an exit and the level's root:
    /// a few hundred entities, each tagged with [`Level`]. Later levels have
    /// more guards.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use examples::streaming::{BuiltLevel, Door, Switch};
    ///
    /// let level = BuiltLevel::new(7, 1);
    /// assert!(level.world.len() > 200);
    /// let world = &level.world;
    /// for door in world.query_ref::<&Door>().iter() {
    ///     assert!(door.switch.is_none_or(|s| world.contains::<Switch>(s)));
    /// }
    /// ```
    pub fn new(seed: u64, number: u32) -> Self {
        let mut rng = SplitMix64::new(seed ^ u64::from(number).wrapping_mul(0xa076_1d64_78bd_642f));
        let mut world = World::new();
        let tag = Level(number);

        let switches: Vec<Entity> = (0..rng.below(4) + 6)
            .map(|_| world.spawn((Switch, rng.tile(), tag)))
            .collect();
        // Every switch opens one door; two more doors are sealed.
        for &switch in &switches {
            world.spawn((
                Door {
                    switch: Some(switch),
                },
                rng.tile(),
                tag,
            ));
        }
        for _ in 0..2 {
            world.spawn((Door { switch: None }, rng.tile(), tag));
        }

        for _ in 0..24 + 4 * number {
            let route: Vec<Entity> = (0..rng.below(4) + 3)
                .map(|_| world.spawn((Waypoint, rng.tile(), tag)))
                .collect();
            let start = *world.get::<Pos>(route[0]).expect("just spawned");
            world.spawn((Patrol { route, next: 1 }, start, tag));
        }

        for _ in 0..40 {
            let value = rng.below(5) as u32 + 1;
            world.spawn((Coin(value), rng.tile(), tag));
        }

        let exit = world.spawn((Exit, rng.tile(), tag));
        let mut tour = switches;
        tour.push(exit);
        let root = world.spawn((
            LevelRoot {
                number,
                start: rng.tile(),
                tour,
                exit,
                next: 0,
            },
            tag,
        ));
        Self {
            number,
            world,
            root,
        }
    }
}

/// Picking tiles and counts from the seeded generator.
trait LevelRng {
    /// A number in `0..n`.
    fn below(&mut self, n: u64) -> u64;
    /// A tile anywhere on the grid.
    fn tile(&mut self) -> Pos;
}

impl LevelRng for SplitMix64 {
    fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n
    }

    fn tile(&mut self) -> Pos {
        let x = self.below(WIDTH as u64) as i32;
        let y = self.below(HEIGHT as u64) as i32;
        Pos::new(x, y)
    }
}
