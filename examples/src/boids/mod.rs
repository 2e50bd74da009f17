//! Boids: a flock on the ecs. Each boid steers by its flockmates within a
//! perception radius (separation, alignment, cohesion), flees predators and
//! swerves around obstacles, on a world that wraps at the edges.
//!
//! A uniform grid with cells as wide as that radius is rebuilt every frame,
//! so a boid looks at the 3 x 3 cells around it rather than the whole flock;
//! [`Search::Naive`] tests every pair instead, to show the difference. The
//! grid holds copies of every boid's position and velocity, and steering
//! reads only those, so a frame's result does not depend on the order or
//! the threads the boids are visited on.
//!
//! ```
//! use examples::boids::{Config, Simulation};
//!
//! let mut sim = Simulation::new(&Config::new(200, 1))?;
//! for _ in 0..10 {
//!     sim.step()?;
//! }
//! let params = sim.params().clone();
//! for (_, pos, vel) in sim.boids() {
//!     assert!((0.0..params.width).contains(&pos.x) && (0.0..params.height).contains(&pos.y));
//!     assert!(vel.length() <= params.max_speed * (1.0 + 1e-6));
//! }
//! # Ok::<(), ecs_core::Error>(())
//! ```

pub mod cli;
mod components;
mod grid;
mod inspect;
mod params;
mod progress;
mod render;
mod report;
mod rng;
mod run;
mod sim;
mod stats;
pub mod systems;
mod vec2;

pub use components::{Acceleration, Boid, Obstacle, Position, Predator, SpeedLimits, Velocity};
pub use grid::Grid;
pub use params::{Params, wrapped_delta};
pub use progress::Progress;
pub use render::{GifWriter, Scene, write_png};
pub use report::Report;
pub use rng::SplitMix64;
pub use run::run;
pub use sim::{Config, Search, Simulation};
pub use stats::FlockStats;
pub use vec2::Vec2;

/// Any error of the demo: the world's, a file's, an encoder's.
pub type BoxError = Box<dyn std::error::Error + Send + Sync>;
