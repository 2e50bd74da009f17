//! A solar system as a scene graph: the sun, planets, moons and a ship
//! with turrets, each placed relative to its parent, world transforms
//! propagated down the tree every frame. Prints the tree
//! (`World::inspect_tree`) after the frames run; `--png PATH` draws the
//! orbits. The simulation is `examples/src/hierarchy/`.
//!
//! ```text
//! cargo run --release -p examples --example hierarchy -- --frames 600 --png docs/hierarchy.png
//! ```

#![forbid(unsafe_code)]

use examples::hierarchy::SolarSystem;
use examples::hierarchy::render::{Trails, write_png};

fn main() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let mut frames = 600u32;
    let mut png = None;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--frames" => {
                let value = args.next().ok_or("--frames wants a number")?;
                frames = value
                    .parse()
                    .map_err(|_| format!("--frames wants a number, not `{value}`"))?;
            }
            "--png" => png = Some(args.next().ok_or("--png wants a path")?),
            "--help" | "-h" => {
                println!("hierarchy [--frames N] [--png PATH]");
                return Ok(());
            }
            other => return Err(format!("unknown argument `{other}` (see --help)").into()),
        }
    }
    let mut system = SolarSystem::new();
    let trails = Trails::record(&mut system, frames)?;
    println!("after {frames} frames:");
    print!("{}", system.world().inspect_tree(system.sun())?);
    if let Some(path) = png {
        write_png(&trails.draw(480), path.as_ref())?;
        println!("wrote {path}");
    }
    Ok(())
}
