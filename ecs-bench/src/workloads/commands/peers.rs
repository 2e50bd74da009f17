//! commands for the peer libraries (the `peers` feature) that have a deferred
//! command buffer. shipyard 0.11 and sparsey 0.13 have none (their changes
//! are immediate, through `&mut World` or an exclusive view), so they have
//! no row.

use super::*;
use bevy_ecs::schedule::IntoScheduleConfigs;
use specs::{Builder, WorldExt};

pub(super) fn contenders() -> Vec<Contender> {
    vec![
        Contender::of::<Hecs>(
            "hecs",
            "CommandBuffer (world.reserve_entity + insert, despawn), run_on",
        ),
        Contender::of::<Bevy>(
            "bevy",
            "Schedule: (spawn, despawn).chain() systems with Commands, ApplyDeferred between",
        ),
        Contender::of::<BevyWorld>(
            "bevy_world_commands",
            "world.commands() + world.flush(), twice",
        ),
        Contender::of::<Specs>(
            "specs",
            "LazyUpdate::create_entity + maintain, Entities::delete + maintain",
        ),
        Contender::of::<Legion>("legion", "CommandBuffer push / remove, flush"),
    ]
}

struct Hecs {
    world: hecs::World,
    buffer: hecs::CommandBuffer,
    spawned: Vec<hecs::Entity>,
}

impl Bench for Hecs {
    fn setup() -> Self {
        Self {
            world: hecs::World::new(),
            buffer: hecs::CommandBuffer::new(),
            spawned: Vec::with_capacity(SPAWNS),
        }
    }

    fn run(&mut self) {
        self.spawned.clear();
        for i in 0..SPAWNS {
            let e = self.world.reserve_entity();
            self.buffer.insert(e, moving(i));
            self.spawned.push(e);
        }
        self.buffer.run_on(&mut self.world);
        for &e in &self.spawned {
            self.buffer.despawn(e);
        }
        self.buffer.run_on(&mut self.world);
    }

    fn checksum(&mut self) -> f64 {
        let alive = self
            .spawned
            .iter()
            .filter(|&&e| self.world.contains(e))
            .count();
        tally(self.spawned.len(), alive)
    }
}

#[derive(bevy_ecs::resource::Resource, Default)]
struct BevySpawned(Vec<bevy_ecs::entity::Entity>);

fn bevy_spawn(
    mut commands: bevy_ecs::system::Commands,
    mut spawned: bevy_ecs::system::ResMut<BevySpawned>,
) {
    spawned.0.clear();
    for i in 0..SPAWNS {
        spawned.0.push(commands.spawn(moving(i)).id());
    }
}

fn bevy_despawn(
    mut commands: bevy_ecs::system::Commands,
    spawned: bevy_ecs::system::Res<BevySpawned>,
) {
    for &e in &spawned.0 {
        commands.entity(e).despawn();
    }
}

/// The checksum of a bevy world.
fn bevy_tally(world: &bevy_ecs::world::World, spawned: &[bevy_ecs::entity::Entity]) -> f64 {
    let alive = spawned
        .iter()
        .filter(|&&e| world.get_entity(e).is_ok())
        .count();
    tally(spawned.len(), alive)
}

struct Bevy {
    world: bevy_ecs::world::World,
    schedule: bevy_ecs::schedule::Schedule,
}

impl Bench for Bevy {
    fn setup() -> Self {
        bevy_tasks::ComputeTaskPool::get_or_init(bevy_tasks::TaskPool::default);
        let mut world = bevy_ecs::world::World::new();
        world.insert_resource(BevySpawned::default());
        let mut schedule = bevy_ecs::schedule::Schedule::default();
        schedule.add_systems((bevy_spawn, bevy_despawn).chain());
        Self { world, schedule }
    }

    fn run(&mut self) {
        self.schedule.run(&mut self.world);
    }

    fn checksum(&mut self) -> f64 {
        let spawned = &self.world.resource::<BevySpawned>().0;
        bevy_tally(&self.world, spawned)
    }
}

struct BevyWorld {
    world: bevy_ecs::world::World,
    spawned: Vec<bevy_ecs::entity::Entity>,
}

impl Bench for BevyWorld {
    fn setup() -> Self {
        Self {
            world: bevy_ecs::world::World::new(),
            spawned: Vec::with_capacity(SPAWNS),
        }
    }

    fn run(&mut self) {
        self.spawned.clear();
        let mut commands = self.world.commands();
        for i in 0..SPAWNS {
            self.spawned.push(commands.spawn(moving(i)).id());
        }
        self.world.flush();
        let mut commands = self.world.commands();
        for &e in &self.spawned {
            commands.entity(e).despawn();
        }
        self.world.flush();
    }

    fn checksum(&mut self) -> f64 {
        bevy_tally(&self.world, &self.spawned)
    }
}

struct Specs {
    world: specs::World,
    spawned: Vec<specs::Entity>,
}

impl Bench for Specs {
    fn setup() -> Self {
        let mut world = specs::World::new();
        world.register::<Position>();
        world.register::<Velocity>();
        Self {
            world,
            spawned: Vec::with_capacity(SPAWNS),
        }
    }

    fn run(&mut self) {
        self.spawned.clear();
        {
            let entities = self.world.entities();
            let lazy = self.world.read_resource::<specs::LazyUpdate>();
            for i in 0..SPAWNS {
                let (p, v) = moving(i);
                let e = lazy.create_entity(&entities).with(p).with(v).build();
                self.spawned.push(e);
            }
        }
        self.world.maintain();
        {
            let entities = self.world.entities();
            for &e in &self.spawned {
                entities.delete(e).expect("alive");
            }
        }
        self.world.maintain();
    }

    fn checksum(&mut self) -> f64 {
        let alive = self
            .spawned
            .iter()
            .filter(|&&e| self.world.is_alive(e))
            .count();
        tally(self.spawned.len(), alive)
    }
}

struct Legion {
    world: legion::World,
    resources: legion::Resources,
    buffer: legion::systems::CommandBuffer,
    spawned: Vec<legion::Entity>,
}

impl Bench for Legion {
    fn setup() -> Self {
        let world = legion::World::default();
        let buffer = legion::systems::CommandBuffer::new(&world);
        Self {
            world,
            resources: legion::Resources::default(),
            buffer,
            spawned: Vec::with_capacity(SPAWNS),
        }
    }

    fn run(&mut self) {
        self.spawned.clear();
        for i in 0..SPAWNS {
            self.spawned.push(self.buffer.push(moving(i)));
        }
        self.buffer.flush(&mut self.world, &mut self.resources);
        for &e in &self.spawned {
            self.buffer.remove(e);
        }
        self.buffer.flush(&mut self.world, &mut self.resources);
    }

    fn checksum(&mut self) -> f64 {
        let alive = self
            .spawned
            .iter()
            .filter(|&&e| self.world.contains(e))
            .count();
        tally(self.spawned.len(), alive)
    }
}
