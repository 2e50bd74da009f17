//! A solar system as a scene graph: a sun, planets orbiting it, moons
//! orbiting them, and a ship with turrets. Each body keeps a local
//! [`Transform`] (relative to its parent); every frame, orbits turn the
//! local transforms and [`propagate`] writes each body's
//! [`GlobalTransform`] down the tree, parents before children.
//!
//! ```
//! use examples::hierarchy::{SolarSystem, GlobalTransform};
//!
//! let mut system = SolarSystem::new();
//! system.run(10)?;
//! let moon = system.body("moon").unwrap();
//! let earth = system.body("earth").unwrap();
//! let (m, e) = (
//!     system.world().get::<GlobalTransform>(moon)?,
//!     system.world().get::<GlobalTransform>(earth)?,
//! );
//! let distance = ((m.x - e.x).powi(2) + (m.y - e.y).powi(2)).sqrt();
//! assert!((distance - 12.0).abs() < 1e-3, "the moon stays on its orbit around the earth");
//! # Ok::<(), ecs_core::Error>(())
//! ```

pub mod render;

use ecs_core::prelude::*;

/// A body's name, as the tree prints it.
///
/// ```
/// use examples::hierarchy::Name;
/// assert_eq!(format!("{:?}", Name("sun")), "Name(\"sun\")");
/// ```
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Name(pub &'static str);

/// Where a body sits relative to its parent, and how it is turned.
///
/// ```
/// use examples::hierarchy::Transform;
/// let t = Transform { x: 1.0, y: 0.0, angle: 0.0 };
/// assert_eq!(t.x, 1.0);
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct Transform {
    /// Offset from the parent, across.
    pub x: f32,
    /// Offset from the parent, down.
    pub y: f32,
    /// Turn relative to the parent, in radians.
    pub angle: f32,
}

/// Where a body sits in the world, written by [`propagate`].
///
/// ```
/// use examples::hierarchy::GlobalTransform;
/// assert_eq!(GlobalTransform::default().angle, 0.0);
/// ```
#[derive(Component, Clone, Copy, Debug, Default, PartialEq)]
pub struct GlobalTransform {
    /// Position across.
    pub x: f32,
    /// Position down.
    pub y: f32,
    /// Turn, in radians.
    pub angle: f32,
}

/// A circular orbit around the parent: the body's local transform follows
/// it every frame.
///
/// ```
/// use examples::hierarchy::Orbit;
/// let orbit = Orbit { radius: 10.0, speed: 1.0, phase: 0.0 };
/// assert_eq!(orbit.at(0.0), (10.0, 0.0));
/// ```
#[derive(Component, Clone, Copy, Debug, PartialEq)]
#[component(requires(Transform, GlobalTransform))]
pub struct Orbit {
    /// Distance from the parent.
    pub radius: f32,
    /// Radians per frame.
    pub speed: f32,
    /// The angle at frame 0.
    pub phase: f32,
}

impl Orbit {
    /// The offset from the parent at `frame`.
    ///
    /// ```
    /// use examples::hierarchy::Orbit;
    /// let (x, y) = Orbit { radius: 2.0, speed: 0.0, phase: std::f32::consts::FRAC_PI_2 }.at(5.0);
    /// assert!(x.abs() < 1e-6 && (y - 2.0).abs() < 1e-6);
    /// ```
    pub fn at(&self, frame: f32) -> (f32, f32) {
        let angle = self.phase + self.speed * frame;
        (self.radius * angle.cos(), self.radius * angle.sin())
    }
}

/// A body that turns on itself (the ship, and its turrets relative to it).
///
/// ```
/// use examples::hierarchy::Spin;
/// assert_eq!(Spin(0.5).0, 0.5);
/// ```
#[derive(Component, Clone, Copy, Debug, PartialEq)]
#[component(requires(Transform, GlobalTransform))]
pub struct Spin(pub f32);

/// The frame counter, a resource.
#[derive(Clone, Copy, Debug, Default)]
struct Frame(u32);

/// Moves each orbiting body along its orbit and turns each spinning one.
fn orbit(mut bodies: Query<(&Orbit, &mut Transform)>, frame: Res<Frame>) {
    let t = frame.0 as f32;
    for (orbit, transform) in bodies.iter_mut() {
        let (x, y) = orbit.at(t);
        transform.x = x;
        transform.y = y;
    }
}

/// Turns each spinning body by its speed.
fn spin(mut bodies: Query<(&Spin, &mut Transform)>) {
    for (spin, transform) in bodies.iter_mut() {
        transform.angle = (transform.angle + spin.0).rem_euclid(core::f32::consts::TAU);
    }
}

/// Writes every body's [`GlobalTransform`] from its parent's and its own
/// [`Transform`], each root first, then down its tree, parents before
/// children.
///
/// ```
/// use ecs_core::prelude::*;
/// use examples::hierarchy::{propagate, GlobalTransform, Transform};
///
/// let mut world = World::new();
/// let root = world.spawn((Transform { x: 5.0, y: 0.0, angle: std::f32::consts::FRAC_PI_2 }, GlobalTransform::default()));
/// let child = world.spawn((Transform { x: 1.0, y: 0.0, angle: 0.0 }, GlobalTransform::default(), ChildOf(root)));
/// propagate(&mut world);
/// let g = world.get::<GlobalTransform>(child)?;
/// assert!((g.x - 5.0).abs() < 1e-6 && (g.y - 1.0).abs() < 1e-6, "turned with its parent");
/// # Ok::<(), Error>(())
/// ```
pub fn propagate(world: &mut World) {
    let roots: Vec<(Entity, Transform)> = world
        .query::<(Entity, &Transform)>()
        .without::<ChildOf>()
        .iter()
        .map(|(e, t)| (e, *t))
        .collect();
    let mut stack: Vec<(Entity, GlobalTransform)> = Vec::new();
    for (root, local) in roots {
        let global = GlobalTransform {
            x: local.x,
            y: local.y,
            angle: local.angle,
        };
        stack.push((root, global));
        while let Some((entity, global)) = stack.pop() {
            if let Ok(slot) = world.get_mut::<GlobalTransform>(entity) {
                *slot = global;
            }
            let Ok(children) = world.get::<Children>(entity) else {
                continue;
            };
            let (sin, cos) = global.angle.sin_cos();
            for &child in children.iter() {
                let Ok(local) = world.get::<Transform>(child) else {
                    continue;
                };
                stack.push((
                    child,
                    GlobalTransform {
                        x: global.x + local.x * cos - local.y * sin,
                        y: global.y + local.x * sin + local.y * cos,
                        angle: global.angle + local.angle,
                    },
                ));
            }
        }
    }
}

/// Counts frames, last in the frame.
fn tick(mut frame: ResMut<Frame>) {
    frame.0 += 1;
}

/// The world, the schedule that moves it, and the sun at its root.
pub struct SolarSystem {
    world: World,
    schedule: Schedule,
    sun: Entity,
}

impl SolarSystem {
    /// The system at frame 0: the sun, three planets (two with moons), and
    /// a ship orbiting the third planet with two turrets.
    ///
    /// ```
    /// use examples::hierarchy::SolarSystem;
    /// let system = SolarSystem::new();
    /// assert_eq!(system.world().descendants(system.sun()).count(), 9);
    /// ```
    pub fn new() -> Self {
        let mut world = World::new();
        world.insert_resource(Frame::default());
        let ring = |radius: f32, speed: f32, phase: f32| Orbit {
            radius,
            speed,
            phase,
        };
        let sun = world.spawn((
            Name("sun"),
            Transform::default(),
            GlobalTransform::default(),
            children![
                (Name("mercury"), ring(40.0, 0.047, 0.0)),
                (
                    Name("earth"),
                    ring(80.0, 0.02, 1.0),
                    children![(Name("moon"), ring(12.0, 0.12, 0.0))]
                ),
                (
                    Name("jupiter"),
                    ring(130.0, 0.008, 2.5),
                    children![
                        (Name("io"), ring(18.0, 0.09, 0.0)),
                        (Name("europa"), ring(26.0, 0.06, 2.0)),
                        (
                            Name("ship"),
                            ring(36.0, -0.04, 4.0),
                            Spin(0.05),
                            children![
                                (
                                    Name("turret"),
                                    Transform {
                                        x: 3.0,
                                        y: 2.0,
                                        angle: 0.0
                                    },
                                    Spin(0.2)
                                ),
                                (
                                    Name("turret"),
                                    Transform {
                                        x: 3.0,
                                        y: -2.0,
                                        angle: 0.0
                                    },
                                    Spin(-0.2)
                                )
                            ]
                        )
                    ]
                ),
            ],
        ));
        let mut schedule = Schedule::new();
        schedule
            .add_systems(Stage::Update, (orbit, spin).chain())
            .expect("the systems are named once");
        schedule
            .add_system(Stage::PostUpdate, propagate)
            .expect("the system is named once");
        schedule
            .add_system(Stage::Last, tick)
            .expect("the system is named once");
        Self {
            world,
            schedule,
            sun,
        }
    }

    /// Runs `frames` frames.
    ///
    /// ```
    /// use examples::hierarchy::SolarSystem;
    /// let mut system = SolarSystem::new();
    /// system.run(3)?;
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn run(&mut self, frames: u32) -> Result<(), Error> {
        for _ in 0..frames {
            self.schedule.run(&mut self.world)?;
        }
        Ok(())
    }

    /// The world.
    ///
    /// ```
    /// use examples::hierarchy::SolarSystem;
    /// assert_eq!(SolarSystem::new().world().len(), 10);
    /// ```
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The root of the tree.
    ///
    /// ```
    /// use examples::hierarchy::{Name, SolarSystem};
    /// let system = SolarSystem::new();
    /// assert_eq!(system.world().get::<Name>(system.sun())?, &Name("sun"));
    /// # Ok::<(), ecs_core::Error>(())
    /// ```
    pub fn sun(&self) -> Entity {
        self.sun
    }

    /// The first body named `name`, if any.
    ///
    /// ```
    /// use examples::hierarchy::SolarSystem;
    /// assert!(SolarSystem::new().body("moon").is_some());
    /// ```
    pub fn body(&self, name: &str) -> Option<Entity> {
        core::iter::once(self.sun)
            .chain(self.world.descendants(self.sun))
            .find(|&e| self.world.get::<Name>(e).is_ok_and(|n| n.0 == name))
    }
}

impl Default for SolarSystem {
    fn default() -> Self {
        Self::new()
    }
}
