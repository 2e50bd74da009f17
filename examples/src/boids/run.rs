//! The demo's driver: the command line's run, frame by frame, with progress,
//! pictures and the closing report.

use std::time::Instant;

use super::cli::Options;
use super::inspect::Inspecting;
use super::{
    BoxError, Config, GifWriter, Obstacle, Progress, Report, Scene, Search, Simulation, write_png,
};

/// Runs the simulation `options` describe and returns its report. With
/// `--threads`, everything runs inside a pool of that many threads: the
/// schedule and `par_for_each` use whatever pool they are called from.
///
/// # Errors
/// If the pool cannot be built, or a picture cannot be written.
pub fn run(options: &Options) -> Result<Report, BoxError> {
    match options.threads {
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()?
            .install(|| run_here(options)),
        None => run_here(options),
    }
}

fn run_here(options: &Options) -> Result<Report, BoxError> {
    let config = Config {
        search: if options.naive {
            Search::Naive
        } else {
            Search::Grid
        },
        ..Config::new(options.boids, options.seed)
    };
    let mut sim = Simulation::new(&config)?;
    let mut gif = match &options.gif {
        Some(path) => {
            let width = options.size.unwrap_or(480);
            let first = Scene::capture(sim.world())?.draw(width);
            let mut gif =
                GifWriter::create(path, first.width(), first.height(), gif_delay(options))?;
            gif.push(&first)?;
            Some((gif, width))
        }
        None => None,
    };

    let mut inspecting = options
        .inspect
        .as_deref()
        .map(Inspecting::start)
        .transpose()?;
    let progress = Progress::new(options.frames);
    let mut frame_times =
        Vec::with_capacity(usize::try_from(options.frames.min(1 << 16)).unwrap_or(0));
    for frame in 1..=options.frames {
        let started = Instant::now();
        sim.step()?;
        let took = started.elapsed();
        frame_times.push(took);
        progress.frame(&sim.flock_stats(), took);
        if let Some(inspecting) = &mut inspecting {
            inspecting.between_frames(&mut sim);
        }
        if let Some((gif, width)) = &mut gif
            && frame % options.gif_every == 0
        {
            gif.push(&Scene::capture(sim.world())?.draw(*width))?;
        }
    }
    progress.finish();

    if let Some(path) = &options.png {
        let picture = Scene::capture(sim.world())?.draw(options.size.unwrap_or(800));
        write_png(&picture, path)?;
    }
    Ok(Report {
        title: format!(
            "boids: {} boids, {} predators, {} obstacles, {} search, {} threads, seed {}",
            config.boids,
            config.predators,
            sim.world().query_ref::<&Obstacle>().iter().count(),
            match config.search {
                Search::Grid => "grid",
                Search::Naive => "naive O(n^2)",
            },
            rayon::current_num_threads(),
            config.seed,
        ),
        frame_times,
        systems: sim.schedule().stats(),
        entities: sim.world().len(),
        flock: sim.flock_stats(),
    })
}

/// The GIF plays at the simulation's 60 frames a second: each picture
/// stands for `gif_every` frames, in the hundredths of a second GIF counts.
fn gif_delay(options: &Options) -> u16 {
    let hundredths = (options.gif_every as f64 * 100.0 / 60.0).round();
    (hundredths as u16).max(2)
}
