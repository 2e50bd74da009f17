//! The tunables of the simulation, as one resource.

use super::Vec2;

/// Sizes, radii and weights, read by every system. Units are world units and
/// frames: a speed of 2 is 2 units a frame.
///
/// ```
/// use examples::boids::Params;
///
/// let params = Params::for_flock(5000);
/// assert!(params.width > 1000.0 && params.width == params.height);
/// assert!(params.min_speed < params.max_speed);
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// The world's width; x wraps around in `[0, width)`.
    pub width: f32,
    /// The world's height; y wraps around in `[0, height)`.
    pub height: f32,
    /// How far a boid sees its flockmates; also the grid's cell size.
    pub perception: f32,
    /// Closer than this, flockmates push each other apart.
    pub separation: f32,
    /// The weight of keeping apart from close flockmates.
    pub separation_weight: f32,
    /// The weight of matching the flockmates' mean velocity.
    pub alignment_weight: f32,
    /// The weight of moving toward the flockmates' centre.
    pub cohesion_weight: f32,
    /// The speed a boid drifts back to when nothing hurries or slows it.
    pub cruise_speed: f32,
    /// How quickly it drifts back: the share of the gap closed per frame.
    pub cruise_weight: f32,
    /// The most flocking may change a boid's velocity in one frame.
    pub max_force: f32,
    /// The slowest a boid flies.
    pub min_speed: f32,
    /// The fastest a boid flies.
    pub max_speed: f32,
    /// Boids closer than this to a predator flee it.
    pub flee_radius: f32,
    /// How hard a boid next to a predator flees.
    pub flee_weight: f32,
    /// Movers closer than this to an obstacle's edge steer away from it.
    pub avoid_margin: f32,
    /// How hard a mover at an obstacle's edge turns away.
    pub avoid_weight: f32,
    /// The most a predator may change its velocity in one frame.
    pub predator_force: f32,
}

impl Params {
    /// Values for a flock of `boids`: the world grows with the flock so that
    /// the density, and so the work per boid, stays the same.
    pub fn for_flock(boids: usize) -> Self {
        // About 16 x 16 units of sky per boid.
        let side = (16.0 * (boids.max(1) as f32).sqrt()).max(200.0);
        Self {
            width: side,
            height: side,
            perception: 24.0,
            separation: 8.0,
            separation_weight: 0.5,
            alignment_weight: 0.08,
            cohesion_weight: 0.006,
            cruise_speed: 2.0,
            cruise_weight: 0.02,
            max_force: 0.08,
            min_speed: 1.2,
            max_speed: 3.0,
            flee_radius: 80.0,
            flee_weight: 0.35,
            avoid_margin: 28.0,
            avoid_weight: 0.5,
            predator_force: 0.06,
        }
    }

    /// The world's size as a vector.
    pub fn size(&self) -> Vec2 {
        Vec2::new(self.width, self.height)
    }
}

/// The shortest way from `from` to `to` on a world that wraps around: each
/// component is taken across the edge when that is shorter. Every distance
/// in the simulation goes through this, so the grid and the naive search
/// agree to the bit.
///
/// ```
/// use examples::boids::{Vec2, wrapped_delta};
///
/// let size = Vec2::new(100.0, 100.0);
/// let d = wrapped_delta(Vec2::new(95.0, 50.0), Vec2::new(5.0, 50.0), size);
/// assert_eq!(d, Vec2::new(10.0, 0.0));
/// ```
pub fn wrapped_delta(from: Vec2, to: Vec2, size: Vec2) -> Vec2 {
    Vec2::new(
        wrap_axis(to.x - from.x, size.x),
        wrap_axis(to.y - from.y, size.y),
    )
}

fn wrap_axis(d: f32, size: f32) -> f32 {
    if d > 0.5 * size {
        d - size
    } else if d < -0.5 * size {
        d + size
    } else {
        d
    }
}
