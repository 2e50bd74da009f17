//! The arena itself: players steer and shoot, sparks fly and fade, bullets
//! hit. One `Schedule` runs a frame; a `PersistRegistry` saves, restores and
//! hashes everything the frame reads, so any frame can be loaded and
//! re-simulated to the same world.

use ecs_core::persist::ChecksumHasher;
use ecs_core::prelude::*;

use super::input::{DOWN, FIRE, LEFT, RIGHT, UP};

/// Half the arena's width: positions wrap around at `±HALF_SIZE`.
pub const HALF_SIZE: f32 = 50.0;

/// How long a trail mark lives: every player leaves one per frame, so from
/// this frame on every frame spawns and despawns entities.
pub const TRAIL_FRAMES: u16 = 4;

/// A player's health when it spawns, and again after it is knocked out.
pub const FULL_HEALTH: i32 = 10;

/// Where an entity is.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Position {
    /// Left to right.
    pub x: f32,
    /// Bottom to top.
    pub y: f32,
}

/// How far an entity moves per frame.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Velocity {
    /// Left to right.
    pub x: f32,
    /// Bottom to top.
    pub y: f32,
}

/// A player, by its ggrs handle.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Player(pub u8);

/// A player's health.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Health(pub i32);

/// Frames left before the entity despawns.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Lifetime(pub u16);

/// A bullet, and who fired it.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bullet {
    /// The handle of the player who fired it: it never hits them.
    pub owner: u8,
}

/// The frame number: how many frames ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FrameCount(pub u32);

/// The arena's own random numbers (splitmix64), saved and restored with the
/// world, so re-simulated frames draw the same numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ArenaRng(pub u64);

impl ArenaRng {
    /// The next number.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number in `[-1, 1)`.
    fn unit(&mut self) -> f32 {
        (self.next_u64() >> 40) as f32 / (1u64 << 23) as f32 - 1.0
    }
}

/// This frame's input of every player, by handle. Set before each frame from
/// what the session hands over, so it is not saved with the world.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Inputs(pub Vec<u8>);

fn hash_position(p: &Position, hasher: &mut ChecksumHasher) {
    hasher.write_f32(p.x);
    hasher.write_f32(p.y);
}

fn hash_velocity(v: &Velocity, hasher: &mut ChecksumHasher) {
    hasher.write_f32(v.x);
    hasher.write_f32(v.y);
}

/// Input bits to a velocity.
fn steer(inputs: Res<Inputs>, mut players: Query<(&Player, &mut Velocity)>) {
    for (player, velocity) in players.iter_mut() {
        let bits = inputs.0.get(usize::from(player.0)).copied().unwrap_or(0);
        let axis = |minus: u8, plus: u8| f32::from(bits & plus != 0) - f32::from(bits & minus != 0);
        velocity.x = axis(LEFT, RIGHT) * 0.75;
        velocity.y = axis(DOWN, UP) * 0.75;
    }
}

/// Players holding fire shoot along their velocity; every frame, each player
/// also leaves a trail mark, which lives [`TRAIL_FRAMES`], and throws off a
/// spark in a random direction, which lives a random while.
fn shoot(
    inputs: Res<Inputs>,
    players: Query<(&Player, &Position, &Velocity)>,
    mut rng: ResMut<ArenaRng>,
    mut commands: Commands,
) {
    for (player, position, velocity) in players.iter() {
        let bits = inputs.0.get(usize::from(player.0)).copied().unwrap_or(0);
        if bits & FIRE != 0 {
            let (dx, dy) = if velocity.x == 0.0 && velocity.y == 0.0 {
                (1.0, 0.0)
            } else {
                (velocity.x, velocity.y)
            };
            commands.spawn((
                *position,
                Velocity {
                    x: dx * 2.0,
                    y: dy * 2.0,
                },
                Bullet { owner: player.0 },
                Lifetime(40),
            ));
        }
        commands.spawn((
            *position,
            Velocity { x: 0.0, y: 0.0 },
            Lifetime(TRAIL_FRAMES),
        ));
        let spark = Velocity {
            x: rng.unit(),
            y: rng.unit(),
        };
        let life = 3 + (rng.next_u64() % 12) as u16;
        commands.spawn((*position, spark, Lifetime(life)));
    }
}

/// Everything moves; positions wrap around the arena's edges.
fn movement(mut movers: Query<(&mut Position, &Velocity)>) {
    let wrap = |v: f32| {
        if v > HALF_SIZE {
            v - 2.0 * HALF_SIZE
        } else if v < -HALF_SIZE {
            v + 2.0 * HALF_SIZE
        } else {
            v
        }
    };
    for (position, velocity) in movers.iter_mut() {
        position.x = wrap(position.x + velocity.x);
        position.y = wrap(position.y + velocity.y);
    }
}

/// Lifetimes run down; what reaches zero despawns.
fn age(mut aging: Query<(Entity, &mut Lifetime)>, mut commands: Commands) {
    for (entity, lifetime) in aging.iter_mut() {
        lifetime.0 = lifetime.0.saturating_sub(1);
        if lifetime.0 == 0 {
            commands.despawn(entity);
        }
    }
}

/// A bullet within reach of another player hurts it and is gone; a player
/// out of health starts again at its corner, healed.
fn hits(
    bullets: Query<(Entity, &Bullet, &Position, &Lifetime)>,
    mut players: Query<(&Player, &mut Position, &mut Health), Without<Bullet>>,
    mut commands: Commands,
) {
    let mut spent = Vec::new();
    for (player, position, health) in players.iter_mut() {
        for (bullet, shot, at, _) in bullets.iter() {
            let (dx, dy) = (at.x - position.x, at.y - position.y);
            if shot.owner != player.0 && dx * dx + dy * dy < 4.0 && !spent.contains(&bullet) {
                spent.push(bullet);
                health.0 -= 1;
            }
        }
        if health.0 <= 0 {
            health.0 = FULL_HEALTH;
            *position = corner(player.0);
        }
    }
    for bullet in spent {
        commands.despawn(bullet);
    }
}

/// The frame counter moves on.
fn tick(mut frame: ResMut<FrameCount>) {
    frame.0 += 1;
}

/// Where player `handle` starts.
pub fn corner(handle: u8) -> Position {
    let sign = |bit: u8| if handle & bit == 0 { -1.0 } else { 1.0 };
    Position {
        x: sign(1) * HALF_SIZE / 2.0,
        y: sign(2) * HALF_SIZE / 2.0,
    }
}

/// The registry that saves, restores and hashes everything a frame reads,
/// floats by their bits.
pub fn rollback_registry() -> PersistRegistry {
    let mut rollback = PersistRegistry::new();
    rollback
        .register::<Position>("arena::Position")
        .rollback_with_checksum(hash_position);
    rollback
        .register::<Velocity>("arena::Velocity")
        .rollback_with_checksum(hash_velocity);
    rollback
        .register::<Player>("arena::Player")
        .rollback_hashed();
    rollback
        .register::<Health>("arena::Health")
        .rollback_hashed();
    rollback
        .register::<Lifetime>("arena::Lifetime")
        .rollback_hashed();
    rollback
        .register::<Bullet>("arena::Bullet")
        .rollback_hashed();
    rollback
        .register_resource::<FrameCount>("arena::FrameCount")
        .rollback_hashed();
    rollback
        .register_resource::<ArenaRng>("arena::ArenaRng")
        .rollback_hashed();
    rollback
}

/// A world, the frame's schedule, and the rollback registry.
///
/// ```
/// use examples::arena::Arena;
///
/// let mut arena = Arena::new(2, 7)?;
/// let start = arena.save();
/// arena.advance(&[0b1_0001, 0])?;
/// assert_eq!(arena.frame(), 1);
/// arena.load(&start)?;
/// assert_eq!((arena.frame(), arena.checksum()), (0, start.checksum()));
/// # Ok::<(), ecs_core::Error>(())
/// ```
pub struct Arena {
    /// The world the frames run on.
    pub world: World,
    schedule: Schedule,
    rollback: PersistRegistry,
}

impl Arena {
    /// An arena with `players` players at their corners, its random numbers
    /// seeded with `seed`.
    ///
    /// # Errors
    /// Only if the schedule cannot be built, which would be a bug here.
    pub fn new(players: u8, seed: u64) -> Result<Self, Error> {
        let mut world = World::new();
        world.insert_resource(FrameCount(0));
        world.insert_resource(ArenaRng(seed));
        world.insert_resource(Inputs(vec![0; usize::from(players)]));
        for handle in 0..players {
            world.spawn((
                Player(handle),
                corner(handle),
                Velocity { x: 0.0, y: 0.0 },
                Health(FULL_HEALTH),
            ));
        }
        let mut schedule = Schedule::new();
        schedule.add_system(Stage::Update, steer)?;
        schedule.add_system(Stage::Update, shoot.after("steer"))?;
        schedule.add_system(Stage::Update, movement.after("shoot"))?;
        schedule.add_system(Stage::Update, age)?;
        schedule.add_system(Stage::Update, tick)?;
        schedule.add_system(Stage::PostUpdate, hits)?;
        Ok(Self {
            world,
            schedule,
            rollback: rollback_registry(),
        })
    }

    /// Runs one frame with these inputs, one per player by handle.
    ///
    /// # Errors
    /// A system's or a command's error, which would be a bug here.
    pub fn advance(&mut self, inputs: &[u8]) -> Result<(), Error> {
        self.world
            .resource_mut::<Inputs>()?
            .0
            .clone_from_slice(inputs);
        self.schedule.run(&mut self.world)
    }

    /// The world as it is now, in memory.
    pub fn save(&self) -> WorldState {
        self.rollback.save(&self.world)
    }

    /// Puts the world back as `state` holds it.
    ///
    /// # Errors
    /// When `state` was saved by another registry.
    pub fn load(&mut self, state: &WorldState) -> Result<(), Error> {
        self.rollback.restore(&mut self.world, state)
    }

    /// The world's checksum, as peers compare it.
    pub fn checksum(&self) -> u64 {
        self.rollback.checksum(&self.world)
    }

    /// How many frames ran.
    pub fn frame(&self) -> u32 {
        self.world
            .resource::<FrameCount>()
            .map_or(0, |frame| frame.0)
    }

    /// How many entities are alive: players, bullets and sparks.
    pub fn len(&self) -> usize {
        self.world.len()
    }

    /// Whether no entity is alive (never, once players spawned).
    pub fn is_empty(&self) -> bool {
        self.world.is_empty()
    }
}
