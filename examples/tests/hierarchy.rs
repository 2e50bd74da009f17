//! The solar system example: its tree, its propagation, and its picture.

use ecs_core::prelude::*;
use examples::hierarchy::render::{Trails, write_png};
use examples::hierarchy::{GlobalTransform, Name, SolarSystem};

fn distance(world: &World, a: Entity, b: Entity) -> f32 {
    let (a, b) = (
        world.get::<GlobalTransform>(a).unwrap(),
        world.get::<GlobalTransform>(b).unwrap(),
    );
    ((a.x - b.x).powi(2) + (a.y - b.y).powi(2)).sqrt()
}

#[test]
fn every_body_keeps_its_distance_to_its_parent_frame_after_frame() -> Result<(), Error> {
    let mut system = SolarSystem::new();
    let world_parent =
        |system: &SolarSystem, e: Entity| system.world().get::<ChildOf>(e).unwrap().parent();
    let bodies: Vec<Entity> = system.world().descendants(system.sun()).collect();
    let mut expected = Vec::new();
    for &body in &bodies {
        let parent = world_parent(&system, body);
        let radius = match system.world().get::<examples::hierarchy::Orbit>(body) {
            Ok(orbit) => orbit.radius,
            Err(_) => 13f32.sqrt(), // a turret, fixed on its ship at (3, ±2)
        };
        expected.push((body, parent, radius));
    }
    for _ in 0..50 {
        system.run(7)?;
        for &(body, parent, radius) in &expected {
            let d = distance(system.world(), body, parent);
            assert!(
                (d - radius).abs() < 1e-2,
                "{body:?}: {d} from its parent, not {radius}"
            );
        }
    }
    Ok(())
}

#[test]
fn the_tree_prints_one_indented_line_per_body() -> Result<(), Error> {
    let system = SolarSystem::new();
    let text = system.world().inspect_tree(system.sun())?.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 10);
    let indents: Vec<usize> = lines
        .iter()
        .map(|l| l.len() - l.trim_start().len())
        .collect();
    assert_eq!(indents, [0, 2, 2, 4, 2, 4, 4, 4, 6, 6]);
    assert!(lines[3].contains("Name(\"moon\")"), "{}", lines[3]);
    assert!(!text.contains("ChildOf") && !text.contains("Children"));
    assert_eq!(system.world().get::<Name>(system.sun())?, &Name("sun"));
    Ok(())
}

#[test]
fn the_picture_is_a_png_of_every_orbit() -> Result<(), Box<dyn std::error::Error + Send + Sync>> {
    let mut system = SolarSystem::new();
    let trails = Trails::record(&mut system, 20)?;
    assert_eq!(trails.len(), 10);
    let path = std::env::temp_dir().join(format!("hierarchy-{}.png", std::process::id()));
    write_png(&trails.draw(96), &path)?;
    let bytes = std::fs::read(&path)?;
    std::fs::remove_file(&path)?;
    assert_eq!(&bytes[1..4], b"PNG");
    Ok(())
}
