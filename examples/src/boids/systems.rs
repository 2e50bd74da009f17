//! The systems of one frame, in the order the schedule runs them:
//! `follow_pause_plan` (First); then, once per fixed step and only while the
//! flock is `Running`, `build_grid`, `steer` or `steer_naive`, `chase`,
//! `flee`, `avoid_obstacles`, `integrate`, `wrap` (FixedUpdate);
//! `collect_stats` (Last).
//!
//! Steering systems only add to `Acceleration`; `integrate` alone moves
//! anything. So every steering decision of a frame sees the same world, the
//! one the grid copied.

use ecs_core::prelude::*;

use super::{
    Acceleration, Boid, FlockStats, Grid, Obstacle, Params, Position, Predator, SpeedLimits, Vec2,
    Velocity, wrapped_delta,
};

/// What flocking reads and writes for one boid.
#[derive(Query)]
pub struct Flocker<'w> {
    /// The boid, to tell it apart from its neighbours in the snapshot.
    pub entity: Entity,
    /// Where it is.
    pub pos: &'w Position,
    /// Where it is going.
    pub vel: &'w Velocity,
    /// Where the flock pulls it.
    pub acc: &'w mut Acceleration,
}

/// What integration moves: anything with a velocity, at the flock's speeds
/// unless it has its own.
#[derive(Query)]
pub struct Body<'w> {
    /// Moved by the velocity.
    pub pos: &'w mut Position,
    /// Changed by the acceleration, then clamped.
    pub vel: &'w mut Velocity,
    /// Used up.
    pub acc: &'w mut Acceleration,
    /// Its own speed range; the flock's when absent.
    pub limits: Option<&'w SpeedLimits>,
}

/// Copies every boid into the grid. Runs first, so every later system reads
/// one consistent picture of the flock.
pub fn build_grid(
    mut grid: ResMut<Grid>,
    boids: Query<(Entity, &Position, &Velocity), With<Boid>>,
) {
    grid.rebuild(boids.iter().map(|(e, p, v)| (e, p.0, v.0)));
}

/// Separation, alignment and cohesion, with flockmates from the 3 x 3 grid
/// cells around each boid. Each boid reads only the snapshot and writes only
/// its own acceleration, so the boids are split over every thread.
pub fn steer(mut boids: Query<Flocker, With<Boid>>, grid: Res<Grid>, params: Res<Params>) {
    let (grid, params) = (&*grid, &*params);
    boids.par_for_each(|b| {
        let mut flock = Flock::default();
        grid.for_each_neighbour(b.pos.0, b.entity, |slot, delta, d2| {
            flock.add(grid.velocities()[slot], delta, d2, params);
        });
        b.acc.0 += flock.steering(b.vel.0, params);
    });
}

/// [`steer`] with every boid tested against every other: the O(n²) search
/// the grid replaces (`--naive`).
pub fn steer_naive(mut boids: Query<Flocker, With<Boid>>, grid: Res<Grid>, params: Res<Params>) {
    let (grid, params) = (&*grid, &*params);
    boids.par_for_each(|b| {
        let mut flock = Flock::default();
        grid.for_each_neighbour_naive(b.pos.0, b.entity, |slot, delta, d2| {
            flock.add(grid.velocities()[slot], delta, d2, params);
        });
        b.acc.0 += flock.steering(b.vel.0, params);
    });
}

/// What a boid sees of its flockmates, summed.
#[derive(Default)]
struct Flock {
    count: u32,
    velocity: Vec2,
    offset: Vec2,
    push: Vec2,
}

impl Flock {
    #[inline]
    fn add(&mut self, velocity: Vec2, delta: Vec2, distance_squared: f32, params: &Params) {
        self.count += 1;
        self.velocity += velocity;
        self.offset += delta;
        // Two boids on the same spot have no direction to part in.
        if distance_squared < params.separation * params.separation && distance_squared > 0.0 {
            // Inverse distance: gentle at the edge, strong up close.
            self.push -= delta / distance_squared;
        }
    }

    fn steering(&self, velocity: Vec2, params: &Params) -> Vec2 {
        // Averaging headings shortens them, so boids match their
        // flockmates' heading at cruising speed, not the shrunken mean;
        // and alone, drift back to cruising speed.
        let cruise =
            (velocity.normalized() * params.cruise_speed - velocity) * params.cruise_weight;
        if self.count == 0 {
            return cruise.limit(params.max_force);
        }
        let n = self.count as f32;
        let heading = (self.velocity / n).normalized();
        let align = (heading * params.cruise_speed - velocity) * params.alignment_weight;
        let cohere = (self.offset / n) * params.cohesion_weight;
        let separate = self.push * params.separation_weight;
        (align + cohere + separate + cruise).limit(params.max_force)
    }
}

/// What a predator's chase reads and writes.
#[derive(Query)]
pub struct Hunter<'w> {
    /// Where it is.
    pub pos: &'w Position,
    /// Where it is going.
    pub vel: &'w Velocity,
    /// Where the chase pulls it.
    pub acc: &'w mut Acceleration,
    /// Its own top speed; the flock's when absent.
    pub limits: Option<&'w SpeedLimits>,
}

/// Predators head for the nearest boid of the snapshot. `Without<Boid>`
/// proves to the scheduler that no entity is both, so `chase` runs beside
/// `steer` although both write `Acceleration`.
pub fn chase(
    mut predators: Query<Hunter, (With<Predator>, Without<Boid>)>,
    grid: Res<Grid>,
    params: Res<Params>,
) {
    let size = params.size();
    for hunter in predators.iter_mut() {
        let nearest = grid
            .positions()
            .iter()
            .map(|&p| wrapped_delta(hunter.pos.0, p, size))
            .min_by(|a, b| a.length_squared().total_cmp(&b.length_squared()));
        if let Some(delta) = nearest {
            let top_speed = hunter.limits.map_or(params.max_speed, |l| l.max);
            let desired = delta.normalized() * top_speed;
            hunter.acc.0 += (desired - hunter.vel.0).limit(params.predator_force);
        }
    }
}

/// Boids within reach of a predator turn away from it, harder the closer it
/// is. Not limited by `max_force`: panic beats manners.
pub fn flee(
    mut boids: Query<(&Position, &mut Acceleration), With<Boid>>,
    predators: Query<&Position, (With<Predator>, Without<Boid>)>,
    params: Res<Params>,
    mut hunters: Local<Vec<Vec2>>,
) {
    hunters.clear();
    hunters.extend(predators.iter().map(|p| p.0));
    if hunters.is_empty() {
        return;
    }
    let (hunters, params) = (&*hunters, &*params);
    let size = params.size();
    boids.par_for_each(|(pos, acc)| {
        for &hunter in hunters {
            let away = wrapped_delta(hunter, pos.0, size);
            let distance = away.length();
            if distance < params.flee_radius {
                let urgency = 1.0 - distance / params.flee_radius;
                acc.0 += away.normalized() * (params.flee_weight * urgency);
            }
        }
    });
}

/// Every mover near an obstacle is pushed out from its centre, more the
/// closer it is to the edge; one inside is pushed out at full strength.
pub fn avoid_obstacles(
    mut movers: Query<(&Position, &mut Acceleration), Without<Obstacle>>,
    obstacles: Query<(&Position, &Obstacle)>,
    params: Res<Params>,
    mut rocks: Local<Vec<(Vec2, f32)>>,
) {
    rocks.clear();
    rocks.extend(obstacles.iter().map(|(p, o)| (p.0, o.radius)));
    if rocks.is_empty() {
        return;
    }
    let (rocks, params) = (&*rocks, &*params);
    let size = params.size();
    movers.par_for_each(|(pos, acc)| {
        for &(centre, radius) in rocks {
            let out = wrapped_delta(centre, pos.0, size);
            let gap = out.length() - radius;
            if gap < params.avoid_margin {
                let closeness = (1.0 - gap.max(0.0) / params.avoid_margin).min(1.0);
                acc.0 += out.normalized() * (params.avoid_weight * closeness * closeness);
            }
        }
    });
}

/// Applies the step's acceleration, keeps the speed in range, and moves
/// by the velocity for the step's length of [`Time`].
pub fn integrate(mut bodies: Query<Body>, params: Res<Params>, time: Res<Time>) {
    let params = &*params;
    // Velocities are distances per step of `STEP`; a step of another
    // length moves in proportion.
    let steps = (time.delta().as_secs_f64() / super::STEP.as_secs_f64()) as f32;
    bodies.par_for_each(|body| {
        let (min, max) = body
            .limits
            .map_or((params.min_speed, params.max_speed), |l| (l.min, l.max));
        body.vel.0 = (body.vel.0 + body.acc.0).clamp_length(min, max);
        body.acc.0 = Vec2::ZERO;
        body.pos.0 += body.vel.0 * steps;
    });
}

/// Brings movers that left the world back in at the opposite edge: the
/// world is a torus, so there is no wall to pile up against.
pub fn wrap(mut movers: Query<&mut Position, Without<Obstacle>>, params: Res<Params>) {
    let (width, height) = (params.width, params.height);
    movers.for_each(|pos| {
        pos.0.x = wrap_into(pos.0.x, width);
        pos.0.y = wrap_into(pos.0.y, height);
    });
}

/// `x` moved into `[0, size)`. `rem_euclid` alone can return `size` itself
/// for a tiny negative `x` (the sum rounds up), which would leave the world.
fn wrap_into(x: f32, size: f32) -> f32 {
    let wrapped = x.rem_euclid(size);
    if wrapped < size { wrapped } else { 0.0 }
}

/// Sums up the flock once the frame is done: what the progress lines and
/// the summary report.
pub fn collect_stats(
    boids: Query<&Velocity, With<Boid>>,
    mut stats: ResMut<FlockStats>,
    mut frame: Local<u64>,
) {
    *frame += 1;
    let mut fresh = FlockStats {
        frame: *frame,
        min_speed: f32::INFINITY,
        ..FlockStats::default()
    };
    let mut heading = Vec2::ZERO;
    for vel in boids.iter() {
        let speed = vel.0.length();
        fresh.boids += 1;
        fresh.mean_speed += speed;
        fresh.min_speed = fresh.min_speed.min(speed);
        fresh.max_speed = fresh.max_speed.max(speed);
        heading += vel.0.normalized();
    }
    if fresh.boids > 0 {
        let n = fresh.boids as f32;
        fresh.mean_speed /= n;
        fresh.alignment = heading.length() / n;
    } else {
        fresh.min_speed = 0.0;
    }
    *stats = fresh;
}
