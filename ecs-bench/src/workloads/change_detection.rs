//! change_detection: 100,000 entities with a tracked `Health`; each frame a
//! writer looks at every one and writes 10 % of them (a different tenth each
//! frame), then a reader visits the entities whose `Health` changed since its
//! last run and sums them. Both run as systems of a schedule.
//!
//! Setup runs one frame, so the reader's first run (which sees every entity
//! as added) is behind it: a timed run is the steady state, 10,000 changes.

use ecs_core::prelude::*;

use crate::harness::{Bench, Contender, Workload};

/// Entities in the world.
pub const ENTITIES: usize = 100_000;

/// One in this many entities is written per frame.
pub const WRITE_EVERY: u32 = 10;

/// The change_detection workload.
pub fn workload() -> Workload {
    Workload {
        name: "change_detection",
        summary: "100,000 tracked entities, 10 % written per frame, a system reading `Changed`",
        items: None,
        contenders: || {
            let list = vec![
                Contender::of::<Ideal>("ideal", "a Vec of values beside a Vec of changed ticks"),
                Contender::of::<Ours>(
                    "ours",
                    "Schedule: Query<(&Slot, &mut Health)> writes through Mut, \
                     Query<&Health, Changed<Health>> reads",
                ),
            ];
            #[cfg(feature = "peers")]
            let list = [list, peers::contenders()].concat();
            list
        },
    }
}

/// The tracked component: written by 10 % of the entities each frame.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
#[component(track_changes)]
pub struct Health(pub f32);

/// Which entity this is, `0..ENTITIES`: picks the tenth written each frame.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Slot(pub u32);

/// Whether the entity in slot `slot` is written in frame `frame`.
#[inline]
fn written(slot: u32, frame: u32) -> bool {
    (slot + frame).is_multiple_of(WRITE_EVERY)
}

/// What the reader saw in its last run: how many changed values, their sum.
#[derive(Default, Clone, Copy)]
#[cfg_attr(feature = "peers", derive(bevy_ecs::resource::Resource))]
pub struct Seen {
    count: u32,
    sum: f64,
}

impl Seen {
    fn checksum(self) -> f64 {
        f64::from(self.count) * 1e9 + self.sum
    }
}

/// The frame number, advanced by the writer.
#[derive(Default, Clone, Copy)]
#[cfg_attr(feature = "peers", derive(bevy_ecs::resource::Resource))]
pub struct Frame(u32);

/// Values and changed ticks in plain vectors, with the reader's last tick.
struct Ideal {
    values: Vec<f32>,
    changed: Vec<u64>,
    tick: u64,
    last_read: u64,
    frame: u32,
    seen: Seen,
}

impl Ideal {
    fn frame(&mut self) {
        self.tick += 1;
        let (frame, tick) = (self.frame, self.tick);
        for ((slot, value), changed) in (0..).zip(&mut self.values).zip(&mut self.changed) {
            if written(slot, frame) {
                *value += 1.0;
                *changed = tick;
            }
        }
        self.frame += 1;
        self.tick += 1;
        let mut seen = Seen::default();
        for (value, &changed) in self.values.iter().zip(&self.changed) {
            if changed > self.last_read {
                seen.count += 1;
                seen.sum += f64::from(*value);
            }
        }
        self.last_read = self.tick;
        self.seen = seen;
    }
}

impl Bench for Ideal {
    fn setup() -> Self {
        let mut ideal = Self {
            values: vec![0.0; ENTITIES],
            changed: vec![1; ENTITIES],
            tick: 1,
            last_read: 0,
            frame: 0,
            seen: Seen::default(),
        };
        ideal.frame();
        ideal
    }

    fn run(&mut self) {
        self.frame();
    }

    fn checksum(&mut self) -> f64 {
        self.seen.checksum()
    }
}

fn ours_writer(mut q: Query<(&Slot, &mut Health)>, mut frame: ResMut<Frame>) {
    let now = frame.0;
    q.for_each(|(slot, mut health)| {
        if written(slot.0, now) {
            health.0 += 1.0;
        }
    });
    frame.0 += 1;
}

fn ours_reader(changed: Query<&Health, Changed<Health>>, mut seen: ResMut<Seen>) {
    let mut now = Seen::default();
    for health in changed.iter() {
        now.count += 1;
        now.sum += f64::from(health.0);
    }
    *seen = now;
}

/// Ours: the writer and the reader in Update, the reader after the writer.
struct Ours {
    world: World,
    schedule: Schedule,
}

impl Bench for Ours {
    fn setup() -> Self {
        let mut world = World::new();
        world.spawn_batch((0..ENTITIES as u32).map(|i| (Slot(i), Health(0.0))));
        world.insert_resource(Frame::default());
        world.insert_resource(Seen::default());
        let mut schedule = Schedule::new();
        schedule
            .add_system(Stage::Update, ours_writer.named("writer"))
            .expect("a new schedule");
        schedule
            .add_system(Stage::Update, ours_reader.after("writer"))
            .expect("a new schedule");
        schedule.run(&mut world).expect("the resources exist");
        Self { world, schedule }
    }

    fn run(&mut self) {
        self.schedule
            .run(&mut self.world)
            .expect("the resources exist");
    }

    fn checksum(&mut self) -> f64 {
        self.world
            .resource::<Seen>()
            .expect("inserted in setup")
            .checksum()
    }
}

#[cfg(feature = "peers")]
mod peers;
