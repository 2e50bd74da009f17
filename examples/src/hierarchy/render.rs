//! The orbits as a picture: each body's path over the frames run, and the
//! bodies where they end, written as a PNG.

use std::path::Path;

use ecs_core::prelude::*;
use tiny_skia::{Color, Paint, PathBuilder, Pixmap, Stroke, Transform as Affine};

use super::{GlobalTransform, Name, SolarSystem};

/// Each body's world positions, one per frame, recorded as the system runs.
///
/// ```
/// use examples::hierarchy::{SolarSystem, render::Trails};
///
/// let mut system = SolarSystem::new();
/// let trails = Trails::record(&mut system, 5)?;
/// assert_eq!(trails.len(), 10);
/// assert_eq!(trails.draw(64).width(), 64);
/// # Ok::<(), ecs_core::Error>(())
/// ```
pub struct Trails {
    bodies: Vec<(&'static str, Vec<(f32, f32)>)>,
}

impl Trails {
    /// Runs `system` for `frames` frames, recording where every body of the
    /// tree is after each.
    pub fn record(system: &mut SolarSystem, frames: u32) -> Result<Self, Error> {
        let order: Vec<Entity> = core::iter::once(system.sun())
            .chain(system.world().descendants(system.sun()))
            .collect();
        let mut bodies: Vec<(&'static str, Vec<(f32, f32)>)> = order
            .iter()
            .map(|&e| Ok((system.world().get::<Name>(e)?.0, Vec::new())))
            .collect::<Result<_, Error>>()?;
        for _ in 0..frames {
            system.run(1)?;
            for (&e, (_, path)) in order.iter().zip(&mut bodies) {
                let g = system.world().get::<GlobalTransform>(e)?;
                path.push((g.x, g.y));
            }
        }
        Ok(Self { bodies })
    }

    /// How many bodies were recorded.
    pub fn len(&self) -> usize {
        self.bodies.len()
    }

    /// Whether no body was recorded.
    pub fn is_empty(&self) -> bool {
        self.bodies.is_empty()
    }

    /// The picture, `size` pixels square: paths in each body's colour, the
    /// bodies as dots where they end.
    pub fn draw(&self, size: u32) -> Pixmap {
        let mut pixmap = Pixmap::new(size, size).expect("a non-empty picture");
        pixmap.fill(Color::from_rgba8(8, 10, 24, 255));
        let reach = self
            .bodies
            .iter()
            .flat_map(|(_, path)| path.iter())
            .fold(1.0f32, |m, &(x, y)| m.max(x.abs()).max(y.abs()));
        let scale = size as f32 / 2.0 / (reach * 1.08);
        let centre = size as f32 / 2.0;
        let at = |(x, y): (f32, f32)| (centre + x * scale, centre + y * scale);
        for (name, path) in &self.bodies {
            let colour = colour_of(name);
            let mut line = PathBuilder::new();
            for (i, &point) in path.iter().enumerate() {
                let (x, y) = at(point);
                if i == 0 {
                    line.move_to(x, y);
                } else {
                    line.line_to(x, y);
                }
            }
            if let Some(line) = line.finish() {
                let mut faded = colour;
                faded.set_alpha(0.45);
                let stroke = Stroke {
                    width: 1.0,
                    ..Stroke::default()
                };
                pixmap.stroke_path(&line, &paint(faded), &stroke, Affine::identity(), None);
            }
            if let Some(&last) = path.last() {
                let (x, y) = at(last);
                let radius = if *name == "sun" { 7.0 } else { 2.5 };
                if let Some(dot) = PathBuilder::from_circle(x, y, radius) {
                    pixmap.fill_path(
                        &dot,
                        &paint(colour),
                        tiny_skia::FillRule::Winding,
                        Affine::identity(),
                        None,
                    );
                }
            }
        }
        pixmap
    }
}

fn colour_of(name: &str) -> Color {
    match name {
        "sun" => Color::from_rgba8(255, 200, 60, 255),
        "earth" => Color::from_rgba8(80, 150, 255, 255),
        "moon" => Color::from_rgba8(200, 200, 210, 255),
        "jupiter" => Color::from_rgba8(230, 150, 90, 255),
        "ship" | "turret" => Color::from_rgba8(120, 255, 140, 255),
        _ => Color::from_rgba8(190, 170, 255, 255),
    }
}

fn paint(colour: Color) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color(colour);
    paint.anti_alias = true;
    paint
}

/// Writes `pixmap` to `path` as a PNG.
///
/// # Errors
/// If the file cannot be written or the picture encoded.
pub fn write_png(pixmap: &Pixmap, path: &Path) -> Result<(), crate::boids::BoxError> {
    std::fs::write(path, pixmap.encode_png()?)?;
    Ok(())
}
