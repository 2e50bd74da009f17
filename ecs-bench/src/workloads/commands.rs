//! commands: 1,000 spawns of (Position, Velocity), applied, then 1,000
//! despawns of those entities, applied, all through each library's deferred
//! command buffer. The world ends each run as it began (empty), so every run
//! does the same work.
//!
//! The checksum is the number of entities the last run spawned plus a
//! million for each of them still alive: 1,000 when the spawns and the
//! despawns both happened.

use ecs_core::prelude::*;

use crate::components::{Position, Velocity, moving};
use crate::harness::{Bench, Contender, Items, Workload};

/// Spawns per run (and despawns: as many).
pub const SPAWNS: usize = 1_000;

/// The commands workload.
pub fn workload() -> Workload {
    Workload {
        name: "commands",
        summary: "1,000 spawns of (Position, Velocity) through deferred commands, applied, then \
                  1,000 despawns of them, applied: 2,000 commands",
        items: Some(Items {
            count: 2 * SPAWNS,
            name: "command",
        }),
        contenders: || {
            let list = vec![
                Contender::of::<Ideal>(
                    "ideal",
                    "a Vec of command enums applied to a slab of two Vecs",
                ),
                Contender::of::<Ours>(
                    "ours",
                    "Schedule: a system with Commands in Update spawns, one in PostUpdate despawns",
                ),
                Contender::of::<OursWorld>(
                    "ours_world_commands",
                    "world.commands() + world.flush(), twice",
                ),
            ];
            #[cfg(feature = "peers")]
            let list = [list, peers::contenders()].concat();
            list
        },
    }
}

/// The checksum from the number spawned and how many of them live.
fn tally(spawned: usize, alive: usize) -> f64 {
    spawned as f64 + 1e6 * alive as f64
}

/// A command of the ideal buffer.
enum Command {
    Spawn(Position, Velocity),
    Despawn(u32),
}

/// The floor: commands recorded as enums in a Vec, applied to a slab (two
/// Vecs of values, a liveness flag, and a free list).
#[derive(Default)]
struct Ideal {
    queue: Vec<Command>,
    positions: Vec<Position>,
    velocities: Vec<Velocity>,
    alive: Vec<bool>,
    free: Vec<u32>,
    spawned: Vec<u32>,
}

impl Ideal {
    fn apply(&mut self) {
        for command in self.queue.drain(..) {
            match command {
                Command::Spawn(p, v) => {
                    let slot = match self.free.pop() {
                        Some(slot) => {
                            let at = slot as usize;
                            (self.positions[at], self.velocities[at]) = (p, v);
                            self.alive[at] = true;
                            slot
                        }
                        None => {
                            self.positions.push(p);
                            self.velocities.push(v);
                            self.alive.push(true);
                            (self.alive.len() - 1) as u32
                        }
                    };
                    self.spawned.push(slot);
                }
                Command::Despawn(slot) => {
                    self.alive[slot as usize] = false;
                    self.free.push(slot);
                }
            }
        }
    }
}

impl Bench for Ideal {
    fn setup() -> Self {
        Self::default()
    }

    fn run(&mut self) {
        self.spawned.clear();
        for i in 0..SPAWNS {
            let (p, v) = moving(i);
            self.queue.push(Command::Spawn(p, v));
        }
        self.apply();
        for i in 0..self.spawned.len() {
            self.queue.push(Command::Despawn(self.spawned[i]));
        }
        self.apply();
    }

    fn checksum(&mut self) -> f64 {
        let alive = self
            .spawned
            .iter()
            .filter(|&&slot| self.alive[slot as usize])
            .count();
        tally(self.spawned.len(), alive)
    }
}

/// The entities the last frame spawned, for the despawning system.
#[derive(Default)]
struct Spawned(Vec<Entity>);

fn spawn_system(mut commands: Commands, mut spawned: ResMut<Spawned>) {
    spawned.0.clear();
    for i in 0..SPAWNS {
        spawned.0.push(commands.spawn(moving(i)));
    }
}

fn despawn_system(mut commands: Commands, spawned: Res<Spawned>) {
    for &e in &spawned.0 {
        commands.despawn(e);
    }
}

/// The checksum of ours, from the world and the ids.
fn ours_tally(world: &World, spawned: &[Entity]) -> f64 {
    let alive = spawned.iter().filter(|&&e| world.is_alive(e)).count();
    tally(spawned.len(), alive)
}

/// Ours through systems: `Commands` in a system of Update spawns (applied at
/// the end of Update), `Commands` in a system of PostUpdate despawns.
struct Ours {
    world: World,
    schedule: Schedule,
}

impl Bench for Ours {
    fn setup() -> Self {
        let mut world = World::new();
        world.insert_resource(Spawned::default());
        let mut schedule = Schedule::new();
        schedule
            .add_system(Stage::Update, spawn_system)
            .expect("params that do not clash");
        schedule
            .add_system(Stage::PostUpdate, despawn_system)
            .expect("params that do not clash");
        Self { world, schedule }
    }

    fn run(&mut self) {
        self.schedule
            .run(&mut self.world)
            .expect("every system can run");
        debug_assert!(self.schedule.command_errors().is_empty());
    }

    fn checksum(&mut self) -> f64 {
        let spawned = &self.world.resource::<Spawned>().expect("inserted").0;
        ours_tally(&self.world, spawned)
    }
}

/// Ours outside systems: the world's own command queue.
struct OursWorld {
    world: World,
    spawned: Vec<Entity>,
}

impl Bench for OursWorld {
    fn setup() -> Self {
        Self {
            world: World::new(),
            spawned: Vec::with_capacity(SPAWNS),
        }
    }

    fn run(&mut self) {
        self.spawned.clear();
        let mut commands = self.world.commands();
        for i in 0..SPAWNS {
            self.spawned.push(commands.spawn(moving(i)));
        }
        let failed = self.world.flush();
        debug_assert!(failed.is_empty());
        let mut commands = self.world.commands();
        for &e in &self.spawned {
            commands.despawn(e);
        }
        let failed = self.world.flush();
        debug_assert!(failed.is_empty());
    }

    fn checksum(&mut self) -> f64 {
        ours_tally(&self.world, &self.spawned)
    }
}

#[cfg(feature = "peers")]
mod peers;
