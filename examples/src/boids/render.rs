//! Pictures of the flock: a frame drawn with tiny-skia, written as PNG or
//! appended to a GIF.

use std::fs::File;
use std::io::BufWriter;
use std::path::Path;

use ecs_core::prelude::*;
use tiny_skia::{Color, FillRule, LineCap, Paint, PathBuilder, Pixmap, Stroke, Transform};

use super::{Boid, Obstacle, Params, Position, Predator, Vec2, Velocity};

/// Speeds are drawn in this many shades, one path each: a few fills in all
/// rather than one per boid.
const SHADES: usize = 16;

/// What a frame shows, copied out of the world.
///
/// ```
/// use examples::boids::{Config, Scene, Simulation};
///
/// let sim = Simulation::new(&Config::new(20, 3))?;
/// let scene = Scene::capture(sim.world())?;
/// assert_eq!(scene.boids.len(), 20);
/// let pixmap = scene.draw(64);
/// assert_eq!((pixmap.width(), pixmap.height()), (64, 64));
/// # Ok::<(), ecs_core::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Scene {
    /// The world's size.
    pub size: Vec2,
    /// The flock's speed range, which the colours span.
    pub speeds: (f32, f32),
    /// How near a predator boids start to flee: drawn around each.
    pub flee_radius: f32,
    /// Each boid's position and velocity.
    pub boids: Vec<(Vec2, Vec2)>,
    /// Each predator's position and velocity.
    pub predators: Vec<(Vec2, Vec2)>,
    /// Each obstacle's centre and radius.
    pub obstacles: Vec<(Vec2, f32)>,
}

impl Scene {
    /// Copies what a picture needs from `world`.
    ///
    /// # Errors
    /// If the world has no [`Params`] resource.
    pub fn capture(world: &World) -> Result<Self, Error> {
        let params = world.resource::<Params>()?;
        Ok(Self {
            size: params.size(),
            speeds: (params.min_speed, params.max_speed),
            flee_radius: params.flee_radius,
            boids: world
                .query_ref::<(&Position, &Velocity)>()
                .with::<Boid>()
                .iter()
                .map(|(p, v)| (p.0, v.0))
                .collect(),
            predators: world
                .query_ref::<(&Position, &Velocity)>()
                .with::<Predator>()
                .iter()
                .map(|(p, v)| (p.0, v.0))
                .collect(),
            obstacles: world
                .query_ref::<(&Position, &Obstacle)>()
                .iter()
                .map(|(p, o)| (p.0, o.radius))
                .collect(),
        })
    }

    /// Draws the scene `width` pixels wide, as tall as the world's aspect
    /// asks: dots with a tick along the heading, blue when slow through
    /// teal to yellow when fast, on a dark sky; obstacles grey, predators red
    /// with their fleeing range.
    pub fn draw(&self, width: u32) -> Pixmap {
        let width = width.max(1);
        let scale = width as f32 / self.size.x.max(1.0);
        let height = ((self.size.y * scale).round() as u32).max(1);
        let mut pixmap = Pixmap::new(width, height).expect("a non-empty picture");
        pixmap.fill(Color::from_rgba8(10, 13, 22, 255));
        let at = |p: Vec2| p * scale;
        // Dots grow a little with the picture, but stay dots.
        let dot = (1.1 * width as f32 / 800.0).clamp(0.9, 1.6);

        let mut rocks = PathBuilder::new();
        for &(centre, radius) in &self.obstacles {
            let c = at(centre);
            rocks.push_circle(c.x, c.y, radius * scale);
        }
        if let Some(path) = rocks.finish() {
            fill(&mut pixmap, &path, Color::from_rgba8(44, 52, 70, 255));
            stroke(
                &mut pixmap,
                &path,
                Color::from_rgba8(96, 110, 140, 255),
                1.5,
            );
        }

        let (slow, fast) = self.speeds;
        let mut dots: Vec<PathBuilder> = (0..SHADES).map(|_| PathBuilder::new()).collect();
        let mut ticks: Vec<PathBuilder> = (0..SHADES).map(|_| PathBuilder::new()).collect();
        for &(pos, vel) in &self.boids {
            let t = ((vel.length() - slow) / (fast - slow).max(f32::EPSILON)).clamp(0.0, 1.0);
            let shade = ((t * SHADES as f32) as usize).min(SHADES - 1);
            let p = at(pos);
            dots[shade].push_circle(p.x, p.y, dot);
            let tip = p + vel.normalized() * (dot * 3.5);
            ticks[shade].move_to(p.x, p.y);
            ticks[shade].line_to(tip.x, tip.y);
        }
        for (shade, (dots, ticks)) in dots.into_iter().zip(ticks).enumerate() {
            let colour = speed_colour((shade as f32 + 0.5) / SHADES as f32);
            if let Some(path) = dots.finish() {
                fill(&mut pixmap, &path, colour);
            }
            if let Some(path) = ticks.finish() {
                stroke(&mut pixmap, &path, colour, dot * 0.8);
            }
        }

        for &(pos, vel) in &self.predators {
            let p = at(pos);
            let mut range = PathBuilder::new();
            range.push_circle(p.x, p.y, self.flee_radius * scale);
            if let Some(path) = range.finish() {
                stroke(&mut pixmap, &path, Color::from_rgba8(255, 80, 70, 70), 1.0);
            }
            let mut body = PathBuilder::new();
            body.push_circle(p.x, p.y, dot * 3.0);
            if let Some(path) = body.finish() {
                fill(&mut pixmap, &path, Color::from_rgba8(255, 70, 60, 255));
            }
            let mut tick = PathBuilder::new();
            let tip = p + vel.normalized() * (dot * 8.0);
            tick.move_to(p.x, p.y);
            tick.line_to(tip.x, tip.y);
            if let Some(path) = tick.finish() {
                stroke(
                    &mut pixmap,
                    &path,
                    Color::from_rgba8(255, 70, 60, 255),
                    dot * 1.5,
                );
            }
        }
        pixmap
    }
}

/// Blue (0) through teal to warm yellow (1).
fn speed_colour(t: f32) -> Color {
    const STOPS: [(f32, [f32; 3]); 3] = [
        (0.0, [70.0, 110.0, 255.0]),
        (0.5, [60.0, 215.0, 200.0]),
        (1.0, [255.0, 215.0, 90.0]),
    ];
    let (lo, hi) = if t < 0.5 {
        (STOPS[0], STOPS[1])
    } else {
        (STOPS[1], STOPS[2])
    };
    let f = (t - lo.0) / (hi.0 - lo.0);
    let mix = |i: usize| (lo.1[i] + (hi.1[i] - lo.1[i]) * f).round() as u8;
    Color::from_rgba8(mix(0), mix(1), mix(2), 255)
}

fn paint(colour: Color) -> Paint<'static> {
    let mut paint = Paint::default();
    paint.set_color(colour);
    paint.anti_alias = true;
    paint
}

fn fill(pixmap: &mut Pixmap, path: &tiny_skia::Path, colour: Color) {
    pixmap.fill_path(
        path,
        &paint(colour),
        FillRule::Winding,
        Transform::identity(),
        None,
    );
}

fn stroke(pixmap: &mut Pixmap, path: &tiny_skia::Path, colour: Color, width: f32) {
    let stroke = Stroke {
        width,
        line_cap: LineCap::Round,
        ..Stroke::default()
    };
    pixmap.stroke_path(path, &paint(colour), &stroke, Transform::identity(), None);
}

/// Writes `pixmap` to `path` as a PNG.
///
/// # Errors
/// If the file cannot be written or the picture encoded.
pub fn write_png(pixmap: &Pixmap, path: &Path) -> Result<(), super::BoxError> {
    std::fs::write(path, pixmap.encode_png()?)?;
    Ok(())
}

/// An animated GIF being written, one frame at a time, looping forever.
///
/// ```no_run
/// use examples::boids::{Config, GifWriter, Scene, Simulation};
///
/// let mut sim = Simulation::new(&Config::new(200, 1))?;
/// let mut gif = GifWriter::create("flock.gif".as_ref(), 240, 240, 7)?;
/// for _ in 0..30 {
///     sim.step()?;
///     gif.push(&Scene::capture(sim.world())?.draw(240))?;
/// }
/// # Ok::<(), Box<dyn std::error::Error + Send + Sync>>(())
/// ```
pub struct GifWriter {
    encoder: gif::Encoder<BufWriter<File>>,
    size: (u16, u16),
    delay: u16,
}

impl GifWriter {
    /// Starts a `width` x `height` GIF at `path`, showing each frame for
    /// `delay` hundredths of a second.
    ///
    /// # Errors
    /// If the file cannot be created, or the size does not fit a GIF (65535
    /// pixels a side).
    pub fn create(
        path: &Path,
        width: u32,
        height: u32,
        delay: u16,
    ) -> Result<Self, super::BoxError> {
        let size = (u16::try_from(width)?, u16::try_from(height)?);
        let file = BufWriter::new(File::create(path)?);
        let mut encoder = gif::Encoder::new(file, size.0, size.1, &[])?;
        encoder.set_repeat(gif::Repeat::Infinite)?;
        Ok(Self {
            encoder,
            size,
            delay,
        })
    }

    /// Appends `pixmap`, which must have the GIF's size.
    ///
    /// # Errors
    /// If the frame cannot be written, or its size is not the GIF's.
    pub fn push(&mut self, pixmap: &Pixmap) -> Result<(), super::BoxError> {
        let (width, height) = self.size;
        if (pixmap.width(), pixmap.height()) != (u32::from(width), u32::from(height)) {
            return Err(format!(
                "a {}x{} frame does not fit a {width}x{height} GIF",
                pixmap.width(),
                pixmap.height()
            )
            .into());
        }
        // Every pixel is opaque, so tiny-skia's premultiplied RGBA is plain RGBA.
        let mut rgba = pixmap.data().to_vec();
        // Speed 10: NeuQuant's palette is near its best, at a fraction of the time of 1.
        let mut frame = gif::Frame::from_rgba_speed(width, height, &mut rgba, 10);
        frame.delay = self.delay;
        self.encoder.write_frame(&frame)?;
        Ok(())
    }
}
