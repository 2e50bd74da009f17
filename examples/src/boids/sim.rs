//! A world of boids and the schedule that moves it: what the demo, the tests
//! and a bench each build.

use ecs_core::prelude::*;

use super::systems::{
    avoid_obstacles, build_grid, chase, collect_stats, flee, integrate, steer, steer_naive, wrap,
};
use super::{
    Acceleration, Boid, FlockStats, Grid, Obstacle, Params, Position, Predator, SpeedLimits,
    SplitMix64, Vec2, Velocity,
};

/// How a boid finds its flockmates.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Search {
    /// The 3 x 3 cells of the spatial grid around it: O(n) a frame.
    #[default]
    Grid,
    /// Every other boid: O(n²) a frame.
    Naive,
}

/// What to simulate.
///
/// ```
/// use examples::boids::{Config, Search};
///
/// let config = Config { search: Search::Naive, ..Config::new(300, 42) };
/// assert_eq!((config.boids, config.seed), (300, 42));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Config {
    /// How many boids.
    pub boids: usize,
    /// Lays out the world: the same seed, the same run.
    pub seed: u64,
    /// How many predators.
    pub predators: usize,
    /// How many obstacles.
    pub obstacles: usize,
    /// How flockmates are found.
    pub search: Search,
    /// Sizes and weights.
    pub params: Params,
}

impl Config {
    /// `boids` boids from `seed`, with two predators, seven obstacles, the
    /// grid search and [`Params::for_flock`].
    pub fn new(boids: usize, seed: u64) -> Self {
        Self {
            boids,
            seed,
            predators: 2,
            obstacles: 7,
            search: Search::Grid,
            params: Params::for_flock(boids),
        }
    }
}

/// A world of boids and its schedule.
///
/// ```
/// use examples::boids::{Config, Simulation};
///
/// let mut sim = Simulation::new(&Config::new(100, 7))?;
/// for _ in 0..3 {
///     sim.step()?;
/// }
/// assert_eq!(sim.boids().len(), 100);
/// # Ok::<(), ecs_core::Error>(())
/// ```
pub struct Simulation {
    world: World,
    schedule: Schedule,
}

impl Simulation {
    /// The world of `config`, run by a parallel [`Schedule::new`].
    ///
    /// # Errors
    /// Only if a system cannot be added, which would be a bug here.
    pub fn new(config: &Config) -> Result<Self, Error> {
        Self::with_schedule(config, Schedule::new())
    }

    /// The world of `config`, its systems added to `schedule`: a
    /// [`Schedule::single_threaded`] one, or one with its own threshold.
    ///
    /// # Errors
    /// If a system cannot be added: `schedule` already has one of the same
    /// name.
    pub fn with_schedule(config: &Config, mut schedule: Schedule) -> Result<Self, Error> {
        let mut world = World::new();
        populate(&mut world, config);
        add_systems(&mut schedule, config.search)?;
        Ok(Self { world, schedule })
    }

    /// Runs one frame.
    ///
    /// # Errors
    /// As [`Schedule::run`]; none here, where every resource is present.
    pub fn step(&mut self) -> Result<(), Error> {
        self.schedule.run(&mut self.world)
    }

    /// The world, to read.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The world, to change between frames.
    pub fn world_mut(&mut self) -> &mut World {
        &mut self.world
    }

    /// The schedule: its [`stats`](Schedule::stats) say where the time went.
    pub fn schedule(&self) -> &Schedule {
        &self.schedule
    }

    /// The world to change and the schedule to read, at once: what a tool
    /// that looks into the game between frames takes.
    pub fn world_and_schedule(&mut self) -> (&mut World, &Schedule) {
        (&mut self.world, &self.schedule)
    }

    /// The parameters in force.
    pub fn params(&self) -> &Params {
        self.world
            .resource::<Params>()
            .expect("the simulation inserts its params")
    }

    /// The flock as of the last frame's `collect_stats`.
    pub fn flock_stats(&self) -> FlockStats {
        self.world
            .resource::<FlockStats>()
            .map_or_else(|_| FlockStats::default(), |s| *s)
    }

    /// Every boid's entity, position and velocity, by entity id: a
    /// comparable picture of the flock.
    pub fn boids(&self) -> Vec<(Entity, Vec2, Vec2)> {
        let mut boids: Vec<_> = self
            .world
            .query_ref::<(Entity, &Position, &Velocity)>()
            .with::<Boid>()
            .iter()
            .map(|(e, p, v)| (e, p.0, v.0))
            .collect();
        boids.sort_unstable_by_key(|(e, ..)| *e);
        boids
    }
}

fn add_systems(schedule: &mut Schedule, search: Search) -> Result<(), Error> {
    schedule.add_system(Stage::PreUpdate, build_grid)?;
    // Both steering searches go by one name, so the orderings below hold
    // for either.
    match search {
        Search::Grid => schedule.add_system(Stage::Update, steer)?,
        Search::Naive => schedule.add_system(Stage::Update, steer_naive.named("steer"))?,
    }
    schedule.add_system(Stage::Update, chase)?;
    // Each adds to the acceleration the ones before it left, so their order
    // is part of the result: fixed here rather than left to registration.
    schedule.add_system(Stage::Update, flee.after("steer"))?;
    schedule.add_system(Stage::Update, avoid_obstacles.after("flee").after("chase"))?;
    schedule.add_system(Stage::PostUpdate, integrate)?;
    schedule.add_system(Stage::PostUpdate, wrap.after("integrate"))?;
    schedule.add_system(Stage::Last, collect_stats)
}

/// Obstacles first (boids must not start inside one), then predators, then
/// the flock, every number drawn from one generator in a fixed order.
fn populate(world: &mut World, config: &Config) {
    let params = &config.params;
    let mut rng = SplitMix64::new(config.seed);
    let size = params.size();

    let mut rocks: Vec<(Vec2, f32)> = Vec::new();
    let side = size.x.min(size.y);
    for _ in 0..config.obstacles {
        // A few tries for a spot clear of the others; a crowded world just
        // gets fewer rocks.
        for _ in 0..32 {
            let radius = rng.range(0.03, 0.06) * side;
            let margin = radius + params.avoid_margin;
            let centre = Vec2::new(
                rng.range(margin, size.x - margin),
                rng.range(margin, size.y - margin),
            );
            let clear = rocks
                .iter()
                .all(|&(c, r)| (c - centre).length() > r + radius + 2.0 * params.avoid_margin);
            if clear {
                rocks.push((centre, radius));
                break;
            }
        }
    }
    world.spawn_batch(
        rocks
            .iter()
            .map(|&(centre, radius)| (Position(centre), Obstacle { radius })),
    );

    let free_spot = |rng: &mut SplitMix64| loop {
        let p = Vec2::new(rng.range(0.0, size.x), rng.range(0.0, size.y));
        if rocks.iter().all(|&(c, r)| (p - c).length() > r) {
            return p;
        }
    };
    let heading = |rng: &mut SplitMix64, speed: f32| {
        let angle = rng.range(0.0, core::f32::consts::TAU);
        Vec2::new(angle.cos(), angle.sin()) * speed
    };

    let predators: Vec<_> = (0..config.predators)
        .map(|_| {
            let limits = SpeedLimits {
                min: params.min_speed,
                max: params.max_speed * 1.1,
            };
            let pos = free_spot(&mut rng);
            let vel = heading(&mut rng, limits.max);
            (
                Position(pos),
                Velocity(vel),
                Acceleration::default(),
                Predator,
                limits,
            )
        })
        .collect();
    world.spawn_batch(predators);

    let boids: Vec<_> = (0..config.boids)
        .map(|_| {
            let pos = free_spot(&mut rng);
            let speed = rng.range(params.min_speed, params.max_speed);
            let vel = heading(&mut rng, speed);
            (Position(pos), Velocity(vel), Acceleration::default(), Boid)
        })
        .collect();
    world.spawn_batch(boids);

    world.insert_resource(Grid::new(size, params.perception));
    world.insert_resource(params.clone());
    world.insert_resource(FlockStats::default());
}
