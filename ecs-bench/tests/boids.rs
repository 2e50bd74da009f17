//! The boids frames the bench and the compare binary time: a flock builds,
//! warms up and keeps every boid whichever pool runs it.

use ecs_bench::boids::{Flock, Threads, WARM_UP_FRAMES};
use examples::boids::Boid;

#[test]
fn one_thread_is_one_and_all_cores_is_at_least_that() {
    assert_eq!(Threads::One.count(), 1);
    assert!(Threads::AllCores.count() >= 1);
    assert_ne!(Threads::One.name(), Threads::AllCores.name());
}

#[test]
fn a_flock_runs_on_either_pool_and_keeps_its_boids() {
    let boids = 200;
    let mut flock = Flock::new(boids);
    assert_eq!(flock.simulation().flock_stats().frame, WARM_UP_FRAMES);
    for threads in Threads::BOTH {
        flock.run(threads, 2);
    }
    let sim = flock.simulation();
    assert_eq!(sim.flock_stats().frame, WARM_UP_FRAMES + 4);
    assert_eq!(sim.world().query_ref::<&Boid>().iter().count(), boids);
}
