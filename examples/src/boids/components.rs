//! What the flock's entities are made of.
//!
//! Boids, predators and obstacles share `Position`; only movers have
//! `Velocity` and `Acceleration`. Tags (`Boid`, `Predator`) store nothing and
//! exist so queries can pick one kind of mover, and so the scheduler can see
//! that two systems never touch the same entities.

use ecs_core::prelude::*;

use super::Vec2;

/// Where an entity is, in world units; kept inside the world by `wrap`.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct Position(pub Vec2);

/// How far a mover goes each frame, in world units.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct Velocity(pub Vec2);

/// The steering of the current frame: every steering system adds to it, and
/// `integrate` turns it into velocity and clears it. Kept apart from
/// `Velocity` so steering reads this frame's velocities, not half-updated ones.
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct Acceleration(pub Vec2);

/// Marks a member of the flock.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Boid;

/// Marks a hunter: it chases the nearest boid, and boids flee it.
#[derive(Component, Clone, Copy, Debug, Default)]
pub struct Predator;

/// A round rock that movers steer around.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Obstacle {
    /// Its radius, in world units.
    pub radius: f32,
}

/// A mover's own speed range, in place of the flock's
/// ([`Params::min_speed`](super::Params::min_speed) and
/// [`max_speed`](super::Params::max_speed)): predators are faster than boids.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct SpeedLimits {
    /// The slowest it may go.
    pub min: f32,
    /// The fastest it may go.
    pub max: f32,
}
