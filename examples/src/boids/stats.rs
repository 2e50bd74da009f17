//! What `collect_stats` learns about the flock each frame.

use core::fmt;

/// The flock at the end of the last frame.
///
/// ```
/// use examples::boids::{Config, Simulation};
///
/// let mut sim = Simulation::new(&Config::new(50, 1))?;
/// sim.step()?;
/// let stats = sim.flock_stats();
/// assert_eq!((stats.frame, stats.boids), (1, 50));
/// assert!(stats.min_speed <= stats.mean_speed && stats.mean_speed <= stats.max_speed);
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct FlockStats {
    /// Frames run so far.
    pub frame: u64,
    /// Boids alive.
    pub boids: usize,
    /// Their mean speed.
    pub mean_speed: f32,
    /// The slowest boid's speed.
    pub min_speed: f32,
    /// The fastest boid's speed.
    pub max_speed: f32,
    /// How much the flock heads one way: the length of the mean heading,
    /// 0 for headings all over the place, 1 for every boid flying in step.
    pub alignment: f32,
}

impl fmt::Display for FlockStats {
    /// `frame 60: 5000 boids, speed 1.20..3.00 (mean 2.41), alignment 0.12`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "frame {}: {} boids, speed {:.2}..{:.2} (mean {:.2}), alignment {:.2}",
            self.frame, self.boids, self.min_speed, self.max_speed, self.mean_speed, self.alignment
        )
    }
}
