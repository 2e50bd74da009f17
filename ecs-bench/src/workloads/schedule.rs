//! schedule (ecs_bench_suite's): 10,000 entities each of (A, B), (A, B, C),
//! (A, B, C, D) and (A, B, C, E); three systems, run as one frame of each
//! library's scheduler: `ab` swaps A and B, `cd` swaps C and D, `ce` swaps C
//! and E. `ab` shares nothing with the other two, so a scheduler may run it
//! beside `cd`; `cd` and `ce` both write C, so they run one after the other
//! (they touch different entities, so their order does not change the result).

use core::mem::swap;

use ecs_core::prelude::*;

use crate::components::{A, B, C, D, E};
use crate::harness::{Bench, Contender, Workload};

/// Entities of each of the four kinds.
pub const PER_KIND: usize = 10_000;

/// The schedule workload.
pub fn workload() -> Workload {
    Workload {
        name: "schedule",
        summary: "one frame of 3 systems (swap A/B over 40,000 entities, C/D and C/E over 10,000 each) \
                  through each library's scheduler",
        items: None,
        contenders: || {
            let list = vec![
                Contender::of::<Ideal>("ideal", "three loops over plain Vecs"),
                Contender::of::<Ours<true>>(
                    "ours",
                    "Schedule::new (parallel), 3 systems in Update, query.for_each",
                ),
                Contender::of::<Ours<false>>(
                    "ours_single_threaded",
                    "Schedule::single_threaded, 3 systems in Update",
                ),
                Contender::of::<OursByHand>(
                    "ours_by_hand",
                    "three world.query().for_each by hand (no schedule)",
                ),
            ];
            #[cfg(feature = "peers")]
            let list = [list, peers::contenders()].concat();
            list
        },
    }
}

/// The first value of entity `i` of kind `kind`; each component adds its own
/// quarter so a swap changes the checksum.
fn base(kind: usize, i: usize) -> f32 {
    (kind * PER_KIND + i) as f32
}

/// Entity `i` of the (A, B) kind.
pub fn kind_ab(i: usize) -> (A, B) {
    let x = base(0, i);
    (A(x), B(x + 0.25))
}

/// Entity `i` of the (A, B, C) kind.
pub fn kind_abc(i: usize) -> (A, B, C) {
    let x = base(1, i);
    (A(x), B(x + 0.25), C(x + 0.5))
}

/// Entity `i` of the (A, B, C, D) kind.
pub fn kind_abcd(i: usize) -> (A, B, C, D) {
    let x = base(2, i);
    (A(x), B(x + 0.25), C(x + 0.5), D(x + 0.75))
}

/// Entity `i` of the (A, B, C, E) kind.
pub fn kind_abce(i: usize) -> (A, B, C, E) {
    let x = base(3, i);
    (A(x), B(x + 0.25), C(x + 0.5), E(x + 0.125))
}

/// The sum of some values, in f64.
fn total<'a>(values: impl Iterator<Item = &'a f32>) -> f64 {
    values.copied().map(f64::from).sum()
}

/// The checksum from the sums of each type's values, weighted so that any
/// swap left undone shows.
fn weighted(a: f64, b: f64, c: f64, d: f64, e: f64) -> f64 {
    a + 2.0 * b + 3.0 * c + 4.0 * d + 5.0 * e
}

/// Plain vectors: A and B of every entity, and (C, D) and (C, E) of the two
/// kinds that hold them; the C of the (A, B, C) kind is never touched.
struct Ideal {
    a: Vec<f32>,
    b: Vec<f32>,
    c_alone: Vec<f32>,
    cd: (Vec<f32>, Vec<f32>),
    ce: (Vec<f32>, Vec<f32>),
}

/// Swaps `x[i]` and `y[i]` for every `i`.
#[inline(never)]
fn swap_all(x: &mut [f32], y: &mut [f32]) {
    for (x, y) in x.iter_mut().zip(y) {
        swap(x, y);
    }
}

impl Bench for Ideal {
    fn setup() -> Self {
        let mut this = Self {
            a: Vec::new(),
            b: Vec::new(),
            c_alone: Vec::new(),
            cd: (Vec::new(), Vec::new()),
            ce: (Vec::new(), Vec::new()),
        };
        for i in 0..PER_KIND {
            let (a, b) = kind_ab(i);
            this.a.push(a.0);
            this.b.push(b.0);
        }
        for i in 0..PER_KIND {
            let (a, b, c) = kind_abc(i);
            this.a.push(a.0);
            this.b.push(b.0);
            this.c_alone.push(c.0);
        }
        for i in 0..PER_KIND {
            let (a, b, c, d) = kind_abcd(i);
            this.a.push(a.0);
            this.b.push(b.0);
            this.cd.0.push(c.0);
            this.cd.1.push(d.0);
        }
        for i in 0..PER_KIND {
            let (a, b, c, e) = kind_abce(i);
            this.a.push(a.0);
            this.b.push(b.0);
            this.ce.0.push(c.0);
            this.ce.1.push(e.0);
        }
        this
    }

    fn run(&mut self) {
        swap_all(&mut self.a, &mut self.b);
        swap_all(&mut self.cd.0, &mut self.cd.1);
        swap_all(&mut self.ce.0, &mut self.ce.1);
    }

    fn checksum(&mut self) -> f64 {
        let c = total(self.c_alone.iter()) + total(self.cd.0.iter()) + total(self.ce.0.iter());
        weighted(
            total(self.a.iter()),
            total(self.b.iter()),
            c,
            total(self.cd.1.iter()),
            total(self.ce.1.iter()),
        )
    }
}

fn ab(mut q: Query<(&mut A, &mut B)>) {
    q.for_each(|(a, b)| swap(&mut a.0, &mut b.0));
}

fn cd(mut q: Query<(&mut C, &mut D)>) {
    q.for_each(|(c, d)| swap(&mut c.0, &mut d.0));
}

fn ce(mut q: Query<(&mut C, &mut E)>) {
    q.for_each(|(c, e)| swap(&mut c.0, &mut e.0));
}

/// Ours: the three systems in one stage of a [`Schedule`], parallel (the
/// default, `ab` beside `cd`) or single-threaded.
struct Ours<const PARALLEL: bool> {
    world: World,
    schedule: Schedule,
}

/// Our world of the four kinds.
fn ours_world() -> World {
    let mut world = World::new();
    world.spawn_batch((0..PER_KIND).map(kind_ab));
    world.spawn_batch((0..PER_KIND).map(kind_abc));
    world.spawn_batch((0..PER_KIND).map(kind_abcd));
    world.spawn_batch((0..PER_KIND).map(kind_abce));
    world
}

/// The checksum of our world.
fn ours_checksum(world: &World) -> f64 {
    weighted(
        total(world.query_ref::<&A>().iter().map(|x| &x.0)),
        total(world.query_ref::<&B>().iter().map(|x| &x.0)),
        total(world.query_ref::<&C>().iter().map(|x| &x.0)),
        total(world.query_ref::<&D>().iter().map(|x| &x.0)),
        total(world.query_ref::<&E>().iter().map(|x| &x.0)),
    )
}

impl<const PARALLEL: bool> Bench for Ours<PARALLEL> {
    fn setup() -> Self {
        let world = ours_world();
        let mut schedule = if PARALLEL {
            Schedule::new()
        } else {
            Schedule::single_threaded()
        };
        for system in [ab.into_config(), cd.into_config(), ce.into_config()] {
            schedule
                .add_system(Stage::Update, system)
                .expect("the systems' params do not clash");
        }
        Self { world, schedule }
    }

    fn run(&mut self) {
        self.schedule
            .run(&mut self.world)
            .expect("every system can run");
    }

    fn checksum(&mut self) -> f64 {
        ours_checksum(&self.world)
    }

    fn layout(&mut self) -> Option<String> {
        Some(ours_layout(&mut self.world))
    }
}

/// The layout line of our world: the three systems' queries, by hand.
fn ours_layout(world: &mut World) -> String {
    let stats = [
        world.query::<(&mut A, &mut B)>().match_stats(),
        world.query::<(&mut C, &mut D)>().match_stats(),
        world.query::<(&mut C, &mut E)>().match_stats(),
    ];
    crate::layout::describe(world, stats.into_iter().flatten())
}

/// Ours without a schedule: the three queries by hand, as hecs and sparsey
/// run them. The difference from `ours` is what the schedule costs.
struct OursByHand(World);

impl Bench for OursByHand {
    fn setup() -> Self {
        Self(ours_world())
    }

    fn run(&mut self) {
        let world = &mut self.0;
        world
            .query::<(&mut A, &mut B)>()
            .for_each(|(a, b)| swap(&mut a.0, &mut b.0));
        world
            .query::<(&mut C, &mut D)>()
            .for_each(|(c, d)| swap(&mut c.0, &mut d.0));
        world
            .query::<(&mut C, &mut E)>()
            .for_each(|(c, e)| swap(&mut c.0, &mut e.0));
    }

    fn checksum(&mut self) -> f64 {
        ours_checksum(&self.0)
    }

    fn layout(&mut self) -> Option<String> {
        Some(ours_layout(&mut self.0))
    }
}

#[cfg(feature = "peers")]
mod peers;
