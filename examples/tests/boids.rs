//! The boids simulation keeps its promises: boids stay in the world at legal
//! speeds, a run is the same on one thread and on many, the grid finds
//! exactly the neighbours the naive search finds, pictures decode, and a
//! paused flock holds still.

use ecs_core::prelude::*;
use examples::boids::{Boid, Config, Grid, STEP, Scene, Search, SimState, Simulation, Vec2};

const BOIDS: usize = 300;
const FRAMES: usize = 30;

fn run(config: &Config, schedule: Schedule, frames: usize) -> Simulation {
    let mut sim = Simulation::with_schedule(config, schedule).expect("the systems fit");
    for _ in 0..frames {
        sim.step().expect("a frame runs");
    }
    sim
}

#[test]
fn boids_stay_in_the_world_at_legal_speeds_and_none_is_lost() {
    let config = Config::new(BOIDS, 11);
    let sim = run(&config, Schedule::new(), FRAMES);
    let params = sim.params();
    let boids = sim.boids();
    assert_eq!(boids.len(), BOIDS);
    assert_eq!(sim.world().query_ref::<&Boid>().iter().count(), BOIDS);
    assert_eq!(sim.flock_stats().frame, FRAMES as u64);
    // Scaling a vector to a length is exact to a few ulps, no better.
    let slack = 1e-5;
    for (e, pos, vel) in boids {
        assert!(
            (0.0..params.width).contains(&pos.x) && (0.0..params.height).contains(&pos.y),
            "{e:?} left the world: {pos:?}"
        );
        let speed = vel.length();
        assert!(
            speed >= params.min_speed * (1.0 - slack) && speed <= params.max_speed * (1.0 + slack),
            "{e:?} flies at {speed}, outside [{}, {}]",
            params.min_speed,
            params.max_speed
        );
    }
}

/// Positions and velocities as bits: equal only if identical.
fn fingerprint(sim: &Simulation) -> Vec<(Entity, [u32; 4])> {
    sim.boids()
        .into_iter()
        .map(|(e, p, v)| (e, [p.x, p.y, v.x, v.y].map(f32::to_bits)))
        .collect()
}

#[test]
fn the_same_seed_gives_the_same_flock_on_one_thread_and_on_many() {
    let config = Config::new(BOIDS, 5);
    let alone = run(&config, Schedule::single_threaded(), FRAMES);
    // Four threads even on a smaller machine, so parts really interleave.
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .expect("a pool");
    let together = pool.install(|| {
        let mut schedule = Schedule::new();
        schedule.set_parallel_threshold(0);
        run(&config, schedule, FRAMES)
    });
    assert!(
        together.schedule().parallel_batches() > 0,
        "some systems ran at once"
    );
    assert_eq!(fingerprint(&alone), fingerprint(&together));

    let other_seed = run(&Config::new(BOIDS, 6), Schedule::single_threaded(), FRAMES);
    assert_ne!(fingerprint(&alone), fingerprint(&other_seed));
}

#[test]
fn the_grid_finds_exactly_the_neighbours_the_naive_search_finds() {
    let config = Config::new(BOIDS, 9);
    // A few frames in, so flocks have formed and cells are crowded.
    let sim = run(&config, Schedule::single_threaded(), 20);
    let grid = sim.world().resource::<Grid>().expect("the grid resource");
    assert_eq!(grid.len(), BOIDS);
    let (cols, rows) = grid.dimensions();
    assert!(cols >= 3 && rows >= 3, "a real grid, {cols} x {rows}");
    let mut pairs = 0;
    for &e in grid.entities() {
        let near = grid.neighbours(e);
        assert_eq!(near, grid.neighbours_naive(e), "the neighbours of {e:?}");
        pairs += near.len();
    }
    assert!(pairs > BOIDS, "boids have neighbours: {pairs} pairs");
}

#[test]
fn the_grid_wraps_around_every_edge() {
    let mut world = World::new();
    let ids: Vec<Entity> = (0..6).map(|_| world.spawn(())).collect();
    let mut grid = Grid::new(Vec2::new(100.0, 60.0), 10.0);
    grid.rebuild([
        (ids[0], Vec2::new(0.5, 0.5), Vec2::ZERO),
        (ids[1], Vec2::new(99.5, 59.5), Vec2::ZERO), // the opposite corner
        (ids[2], Vec2::new(0.5, 55.0), Vec2::ZERO),  // across the top edge
        (ids[3], Vec2::new(95.0, 0.5), Vec2::ZERO),  // across the left edge
        (ids[4], Vec2::new(50.0, 30.0), Vec2::ZERO), // far away
        (ids[5], Vec2::new(10.6, 0.5), Vec2::ZERO),  // just out of reach
    ]);
    assert_eq!(grid.neighbours(ids[0]), [ids[1], ids[2], ids[3]]);
    for &e in &ids {
        assert_eq!(grid.neighbours(e), grid.neighbours_naive(e));
    }
}

#[test]
fn naive_and_grid_runs_both_keep_the_flock() {
    let naive = Config {
        search: Search::Naive,
        ..Config::new(100, 3)
    };
    let sim = run(&naive, Schedule::new(), 5);
    assert_eq!(sim.boids().len(), 100);
    let names: Vec<String> = sim.schedule().stats().into_iter().map(|s| s.name).collect();
    assert!(names.iter().any(|n| n == "steer"), "{names:?}");
}

#[test]
fn the_png_renderer_writes_a_png_that_decodes() {
    let sim = run(&Config::new(BOIDS, 2), Schedule::new(), 2);
    let scene = Scene::capture(sim.world()).expect("the world has params");
    assert_eq!(scene.boids.len(), BOIDS);
    assert_eq!(scene.predators.len(), 2);
    assert!(!scene.obstacles.is_empty());

    let path = std::env::temp_dir().join(format!("boids-test-{}.png", std::process::id()));
    examples::boids::write_png(&scene.draw(160), &path).expect("the PNG is written");
    let bytes = std::fs::read(&path).expect("the PNG is there");
    std::fs::remove_file(&path).ok();
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let decoded = tiny_skia::Pixmap::decode_png(&bytes).expect("a valid PNG");
    assert_eq!((decoded.width(), decoded.height()), (160, 160));
    // Something besides the sky was drawn.
    let sky = decoded.pixel(0, 0).expect("a pixel");
    assert!(decoded.pixels().iter().any(|&p| p != sky));
}

#[test]
fn a_paused_flock_holds_still_and_resumes_where_it_stopped() {
    let config = Config::new(BOIDS, 3);
    let paused = Config {
        pause_at: Some(4),
        resume_at: Some(7),
        ..config.clone()
    };
    // Frames 4, 5 and 6 hold still: ten frames with the pause move the
    // flock as far as seven without it.
    let with_pause = run(&paused, Schedule::new(), 10);
    let without = run(&config, Schedule::new(), 7);
    assert_eq!(fingerprint(&with_pause), fingerprint(&without));
    assert_eq!(
        with_pause.flock_stats().frame,
        10,
        "paused frames still count"
    );
    assert_eq!(
        **with_pause.world().resource::<State<SimState>>().unwrap(),
        SimState::Running
    );
    let stats = with_pause.schedule().stats();
    let integrate = stats.iter().find(|s| s.name == "integrate").unwrap();
    assert_eq!((integrate.runs, integrate.skipped), (7, 3));
    let time = with_pause.world().resource::<Time>().unwrap();
    assert_eq!(time.elapsed(), STEP * 10, "the fixed clock ran on");
}
