//! change_detection for the peer libraries (the `peers` feature): bevy_ecs,
//! whose components always carry change ticks.
//!
//! bevy's own `Component` derive reads `#[component(...)]` too and rejects
//! ours, so bevy gets its own two types, of the same shape.

use super::*;
use bevy_ecs::prelude::{Changed, IntoScheduleConfigs, Query, ResMut};

/// [`super::Health`], as a bevy component.
#[derive(bevy_ecs::component::Component, Clone, Copy, Debug, PartialEq)]
struct Health(f32);

/// [`super::Slot`], as a bevy component.
#[derive(bevy_ecs::component::Component, Clone, Copy, Debug, PartialEq)]
struct Slot(u32);

pub(super) fn contenders() -> Vec<Contender> {
    vec![Contender::of::<Bevy>(
        "bevy",
        "Schedule (single-threaded): writer then reader, Query<&Health, Changed<Health>>",
    )]
}

fn writer(mut q: Query<(&Slot, &mut Health)>, mut frame: ResMut<Frame>) {
    let now = frame.0;
    q.iter_mut().for_each(|(slot, mut health)| {
        if written(slot.0, now) {
            health.0 += 1.0;
        }
    });
    frame.0 += 1;
}

fn reader(changed: Query<&Health, Changed<Health>>, mut seen: ResMut<Seen>) {
    let mut now = Seen::default();
    for health in changed.iter() {
        now.count += 1;
        now.sum += f64::from(health.0);
    }
    *seen = now;
}

/// A bevy `Schedule` running the writer, then the reader.
struct Bevy {
    world: bevy_ecs::world::World,
    schedule: bevy_ecs::schedule::Schedule,
}

impl Bench for Bevy {
    fn setup() -> Self {
        let mut world = bevy_ecs::world::World::new();
        world.spawn_batch((0..ENTITIES as u32).map(|i| (Slot(i), Health(0.0))));
        world.insert_resource(Frame::default());
        world.insert_resource(Seen::default());
        let mut schedule = bevy_ecs::schedule::Schedule::default();
        schedule.set_executor(bevy_ecs::schedule::SingleThreadedExecutor::new());
        schedule.add_systems((writer, reader).chain());
        schedule.run(&mut world);
        Self { world, schedule }
    }

    fn run(&mut self) {
        self.schedule.run(&mut self.world);
    }

    fn checksum(&mut self) -> f64 {
        self.world.resource::<Seen>().checksum()
    }
}
