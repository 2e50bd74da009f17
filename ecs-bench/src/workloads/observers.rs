//! observers: events a game triggers for its observers, with no structural
//! change involved.
//!
//! - `trigger_global`: 100 triggers of one event that 100 observers (100
//!   distinct functions) watch, each adding the event's value to a
//!   resource: 10,000 observer runs.
//! - `trigger_chain`: 1,000 triggers of an entity event aimed at the leaf of
//!   a 10-deep `ChildOf` chain, travelling up to the root, where the one
//!   observer (on the root alone) adds the event's damage to a resource.
//!
//! The checksum is the resource's sum over the last run, which each run
//! starts from zero.

use ecs_core::prelude::*;

use crate::harness::{Bench, Contender, Items, Workload};
use crate::workloads::empty_systems::for_each_system;

/// Triggers per run of `trigger_global`.
pub const GLOBAL_TRIGGERS: usize = 100;
/// Observers of the global event.
pub const OBSERVERS: usize = 100;
/// Triggers per run of `trigger_chain`.
pub const CHAIN_TRIGGERS: usize = 1_000;
/// Entities in the chain, the root included.
pub const DEPTH: usize = 10;

/// The trigger_global workload.
pub fn global() -> Workload {
    Workload {
        name: "trigger_global",
        summary: "100 triggers of an event 100 observers watch, each adding the event's value \
                  to a resource",
        items: Some(Items {
            count: GLOBAL_TRIGGERS * OBSERVERS,
            name: "observer run",
        }),
        contenders: || {
            let list = vec![
                Contender::of::<IdealGlobal>("ideal", "100 fn pointers called per event"),
                Contender::of::<OursGlobal>("ours", "world.observe x100, world.trigger"),
            ];
            #[cfg(feature = "peers")]
            let list = [list, peers::global()].concat();
            list
        },
    }
}

/// The trigger_chain workload.
pub fn chain() -> Workload {
    Workload {
        name: "trigger_chain",
        summary: "1,000 triggers of an entity event aimed at the leaf of a 10-deep ChildOf \
                  chain, propagating to the root, whose one observer adds its damage",
        items: Some(Items {
            count: CHAIN_TRIGGERS,
            name: "trigger",
        }),
        contenders: || {
            let list = vec![
                Contender::of::<IdealChain>(
                    "ideal",
                    "a parent index walked up, a per-node optional fn pointer",
                ),
                Contender::of::<OursChain>(
                    "ours",
                    "EntityEvent (propagate, auto_propagate), entity_mut(root).observe",
                ),
            ];
            #[cfg(feature = "peers")]
            let list = [list, peers::chain()].concat();
            list
        },
    }
}

/// The global event: a value observers add up.
#[derive(Event)]
pub struct Ping(pub u64);

/// What the observers add up.
#[derive(Default)]
pub struct Sum(pub u64);

/// The observer, one function per `N`.
fn add<const N: usize>(ping: On<Ping>, mut sum: ResMut<Sum>) {
    sum.0 = sum.0.wrapping_add(ping.0 + N as u64);
}

/// An ideal observer: adds what it hears to the sum.
type Observer = fn(u64, &mut u64);

/// What observer `N` adds for an event of value `value`.
fn added<const N: usize>(value: u64, sum: &mut u64) {
    *sum = sum.wrapping_add(value + N as u64);
}

struct IdealGlobal {
    observers: Vec<Observer>,
    sum: u64,
}

impl Bench for IdealGlobal {
    fn setup() -> Self {
        let mut observers: Vec<Observer> = Vec::with_capacity(OBSERVERS);
        macro_rules! observe {
            ($n:tt) => {
                observers.push(added::<$n>);
            };
        }
        for_each_system!(observe);
        Self { observers, sum: 0 }
    }

    fn run(&mut self) {
        self.sum = 0;
        for value in 0..GLOBAL_TRIGGERS as u64 {
            for observer in std::hint::black_box(&self.observers) {
                observer(value, &mut self.sum);
            }
        }
    }

    fn checksum(&mut self) -> f64 {
        self.sum as f64
    }
}

struct OursGlobal(World);

impl Bench for OursGlobal {
    fn setup() -> Self {
        let mut world = World::new();
        world.init_resource::<Sum>();
        macro_rules! observe {
            ($n:tt) => {
                world.observe(add::<$n>);
            };
        }
        for_each_system!(observe);
        Self(world)
    }

    fn run(&mut self) {
        self.0.resource_mut::<Sum>().expect("inserted").0 = 0;
        for value in 0..GLOBAL_TRIGGERS as u64 {
            self.0.trigger(Ping(value));
        }
    }

    fn checksum(&mut self) -> f64 {
        self.0.resource::<Sum>().expect("inserted").0 as f64
    }
}

/// The entity event: a hit on the chain's leaf, travelling to its root.
#[derive(EntityEvent)]
#[entity_event(propagate, auto_propagate)]
pub struct Hit {
    entity: Entity,
    damage: u64,
}

struct IdealChain {
    /// Each node's parent; the root (0) has none.
    parents: Vec<Option<usize>>,
    /// The observer on each node: the root's alone.
    observers: Vec<Option<Observer>>,
    sum: u64,
}

/// The root's observer.
fn absorb(damage: u64, sum: &mut u64) {
    *sum = sum.wrapping_add(damage);
}

impl Bench for IdealChain {
    fn setup() -> Self {
        let parents = (0..DEPTH).map(|i| i.checked_sub(1)).collect();
        let mut observers = vec![None; DEPTH];
        observers[0] = Some(absorb as Observer);
        Self {
            parents,
            observers,
            sum: 0,
        }
    }

    fn run(&mut self) {
        self.sum = 0;
        let parents = std::hint::black_box(&self.parents);
        for damage in 0..CHAIN_TRIGGERS as u64 {
            let mut at = Some(DEPTH - 1);
            while let Some(node) = at {
                if let Some(observer) = self.observers[node] {
                    observer(damage, &mut self.sum);
                }
                at = parents[node];
            }
        }
    }

    fn checksum(&mut self) -> f64 {
        self.sum as f64
    }
}

struct OursChain {
    world: World,
    leaf: Entity,
}

impl Bench for OursChain {
    fn setup() -> Self {
        let mut world = World::new();
        world.init_resource::<Sum>();
        let root = world.spawn(());
        let mut leaf = root;
        for _ in 1..DEPTH {
            leaf = world.spawn(ChildOf(leaf));
        }
        world
            .entity_mut(root)
            .expect("spawned")
            .observe(|hit: On<Hit>, mut sum: ResMut<Sum>| {
                sum.0 = sum.0.wrapping_add(hit.damage);
            });
        Self { world, leaf }
    }

    fn run(&mut self) {
        self.world.resource_mut::<Sum>().expect("inserted").0 = 0;
        for damage in 0..CHAIN_TRIGGERS as u64 {
            self.world.trigger(Hit {
                entity: self.leaf,
                damage,
            });
        }
    }

    fn checksum(&mut self) -> f64 {
        self.world.resource::<Sum>().expect("inserted").0 as f64
    }
}

#[cfg(feature = "peers")]
mod peers;
