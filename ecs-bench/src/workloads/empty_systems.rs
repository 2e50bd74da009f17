//! empty_systems: one frame of 100 systems that take no params and do
//! nothing, all in one stage: what a scheduler costs per system when the
//! systems themselves cost nothing.
//!
//! The systems are 100 distinct functions (`empty::<0>` to `empty::<99>`),
//! so no library can tell them apart from real ones. Empty systems leave
//! nothing in the world to check, so the checksum is the number of systems
//! the library reports having run (ours: its stats) or holding.

use ecs_core::prelude::*;

use crate::harness::{Bench, Contender, Items, Workload};

/// Systems per frame.
pub const SYSTEMS: usize = 100;

/// The empty_systems workload.
pub fn workload() -> Workload {
    Workload {
        name: "empty_systems",
        summary: "one frame of 100 systems that take no params and do nothing, all in one stage",
        items: Some(Items {
            count: SYSTEMS,
            name: "system",
        }),
        contenders: || {
            let list = vec![
                Contender::of::<Ideal>("ideal", "100 calls through a Vec of fn pointers"),
                Contender::of::<Ours<true>>("ours", "Schedule::new, 100 systems in Update"),
                Contender::of::<Ours<false>>(
                    "ours_single_threaded",
                    "Schedule::single_threaded, 100 systems in Update",
                ),
            ];
            #[cfg(feature = "peers")]
            let list = [list, peers::contenders()].concat();
            list
        },
    }
}

/// The system, one function per `N`.
pub fn empty<const N: usize>() {}

/// Calls `$callback!(n)` for each `n` in `0..100`, as a const expression a
/// generic argument takes (`{ 10 * 3 + 4 }`), in increasing order.
macro_rules! for_each_system {
    ($callback:ident) => {
        $crate::workloads::empty_systems::for_each_system!(@tens $callback; 0 1 2 3 4 5 6 7 8 9);
    };
    (@tens $callback:ident; $($tens:literal)*) => {
        $( $crate::workloads::empty_systems::for_each_system!(@ones $callback; $tens; 0 1 2 3 4 5 6 7 8 9); )*
    };
    (@ones $callback:ident; $tens:literal; $($ones:literal)*) => {
        $( $callback!({ 10 * $tens + $ones }); )*
    };
}
pub(crate) use for_each_system;

/// The floor: a loop calling 100 functions through pointers the optimiser
/// cannot see through.
struct Ideal(Vec<fn()>);

impl Bench for Ideal {
    fn setup() -> Self {
        let mut systems: Vec<fn()> = Vec::with_capacity(SYSTEMS);
        macro_rules! add {
            ($n:tt) => {
                systems.push(empty::<$n>);
            };
        }
        for_each_system!(add);
        Self(systems)
    }

    fn run(&mut self) {
        for system in std::hint::black_box(&self.0) {
            system();
        }
    }

    fn checksum(&mut self) -> f64 {
        self.0.len() as f64
    }
}

/// Ours: the 100 systems in Update of a [`Schedule`], each named.
struct Ours<const PARALLEL: bool> {
    world: World,
    schedule: Schedule,
}

impl<const PARALLEL: bool> Bench for Ours<PARALLEL> {
    fn setup() -> Self {
        let mut schedule = if PARALLEL {
            Schedule::new()
        } else {
            Schedule::single_threaded()
        };
        macro_rules! add {
            ($n:tt) => {
                schedule
                    .add_system(Stage::Update, empty::<$n>.named(format!("empty_{}", $n)))
                    .expect("a new name");
            };
        }
        for_each_system!(add);
        Self {
            world: World::new(),
            schedule,
        }
    }

    fn run(&mut self) {
        self.schedule
            .run(&mut self.world)
            .expect("every system can run");
    }

    fn checksum(&mut self) -> f64 {
        let frames = self.schedule.frames();
        let stats = self.schedule.stats();
        stats.iter().filter(|s| s.runs == frames).count() as f64
    }
}

#[cfg(feature = "peers")]
mod peers;
