//! schedule_many: 100 small systems in one stage over 10 component types.
//!
//! The types are the lettered f32 components `A` to `J` (indices 0 to 9).
//! 4,000 entities hold 2 or 3 of them each, spread so that each type is held
//! by exactly 1,000 entities (see [`types_of`]). System `i` (0 to 99) reads
//! type `i % 10` and writes type `(3 i + 1) % 10` ([`pair`]; the two are
//! never equal, since `2 i + 1` is odd), setting `w = (w + r) / 2` on every
//! entity that holds both: between 160 and 400 entities per system.
//!
//! Systems that write the same type, or where one reads what the other
//! writes, conflict. The result depends on the order of conflicting systems,
//! so every library runs them in the order they were added: ours, shipyard
//! and legion do that on their own; bevy and specs are given the orderings
//! explicitly ([`predecessors`]), as their users would have to.

use ecs_core::prelude::*;

use crate::components::{A, B, C, D, E, F, G, H, I, J, Scalar};
use crate::harness::{Bench, Contender, Workload};

/// Component types.
pub const TYPES: usize = 10;

/// Entities holding each type.
pub const PER_TYPE: usize = 1_000;

/// Entities in the world: 2,000 with two types, 2,000 with three.
pub const ENTITIES: usize = 4_000;

/// Systems per frame.
pub const SYSTEMS: usize = 100;

/// The schedule_many workload.
pub fn workload() -> Workload {
    Workload {
        name: "schedule_many",
        summary: "one frame of 100 small systems in one stage, each reading one of 10 component \
                  types and writing another (4,000 entities, 1,000 per type)",
        items: None,
        contenders: || {
            let list = vec![
                Contender::of::<Ideal>("ideal", "100 loops over index pairs into 10 plain Vecs"),
                Contender::of::<Ours<{ Mode::Default as u8 }>>(
                    "ours",
                    "Schedule::new (default threshold: each system is under it, so all inline)",
                ),
                Contender::of::<Ours<{ Mode::ThresholdZero as u8 }>>(
                    "ours_threshold_0",
                    "Schedule::new + set_parallel_threshold(0): every batch of 2+ on rayon",
                ),
                Contender::of::<Ours<{ Mode::SingleThreaded as u8 }>>(
                    "ours_single_threaded",
                    "Schedule::single_threaded",
                ),
                Contender::of::<OursByHand>(
                    "ours_by_hand",
                    "world.maintain_layout(), then 100 world.query().for_each by hand (no schedule)",
                ),
                Contender::of::<Ours<{ Mode::Optimized as u8 }>>(
                    "ours_optimized",
                    "Schedule::new, world.optimize_layout() once after setup",
                ),
                Contender::of::<OursByHand<true>>(
                    "ours_by_hand_optimized",
                    "100 world.query().for_each by hand, world.optimize_layout() once after setup",
                ),
            ];
            #[cfg(feature = "peers")]
            let list = [list, peers::contenders()].concat();
            list
        },
    }
}

/// The types entity `j` holds, as indices: in each block of 10 entities
/// (`k = j / 10`) the first type runs over all 10, the second is `d` further
/// on (`d` odd, cycling over 1, 3, 5, 7, 9 from block to block) and every
/// other block adds a third, `e` further on (`e` even, 2 to 8). Each block
/// therefore holds each type 2 or 3 times, and the 400 blocks each type 1,000
/// times. Odd distances are what the systems' pairs need (`(3 i + 1) - i` is
/// odd), so every system finds entities.
pub fn types_of(j: usize) -> impl Iterator<Item = usize> {
    let (k, first) = (j / 10, j % 10);
    let d = 2 * (k % 5) + 1;
    let e = 2 * ((k / 5) % 4) + 2;
    let third = (k % 2 == 1).then_some((first + e) % TYPES);
    [first, (first + d) % TYPES].into_iter().chain(third)
}

/// The starting value of type `t` on entity `j`.
pub fn value(j: usize, t: usize) -> f32 {
    1.0 + (j * TYPES + t) as f32 / 8.0
}

/// The types system `i` reads and writes.
pub fn pair(i: usize) -> (usize, usize) {
    (i % TYPES, (3 * i + 1) % TYPES)
}

/// Whether systems `i` and `j` conflict: one writes what the other reads or writes.
pub fn conflict(i: usize, j: usize) -> bool {
    let ((ri, wi), (rj, wj)) = (pair(i), pair(j));
    wi == wj || wi == rj || ri == wj
}

/// The earlier systems `i` must run after so that every pair of conflicting
/// systems runs in the order they were added: the last writer of what `i`
/// writes, the readers of it since then, and the last writer of what `i`
/// reads. Every other earlier conflict follows from these.
pub fn predecessors(i: usize) -> Vec<usize> {
    let (read, write) = pair(i);
    let last_writer = |t: usize| (0..i).rev().find(|&j| pair(j).1 == t);
    let mut before = Vec::new();
    let since = last_writer(write).map_or(0, |w| w + 1);
    before.extend(last_writer(write));
    before.extend((since..i).filter(|&j| pair(j).0 == write));
    before.extend(last_writer(read));
    before.sort_unstable();
    before.dedup();
    before
}

/// One entity's update by a system that reads `R` and writes `W`.
#[inline]
fn mix<R: Scalar, W: Scalar>(r: &R, w: &mut W) {
    *w.value_mut() = (w.value() + r.value()) * 0.5;
}

/// Checks that the types the macro gave system `i` are the ones [`pair`] says.
fn check_pair<R: Scalar, W: Scalar>(i: usize) {
    assert_eq!(
        (R::INDEX, W::INDEX),
        pair(i),
        "system {i}: the table of for_each_system is wrong"
    );
}

/// Calls `$callback!(i, R, W)` for each system `i` in `0..100` in order, `i`
/// as a const expression a generic argument takes (`{ 10 * 3 + 4 }`), `R` and
/// `W` the types it reads and writes. The pair of `i` depends on `i % 10`
/// only; [`check_pair`] checks the table against [`pair`].
macro_rules! for_each_system {
    ($callback:ident) => {
        $crate::workloads::schedule_many::for_each_system!(@tens $callback; 0 1 2 3 4 5 6 7 8 9);
    };
    (@tens $callback:ident; $($tens:literal)*) => {
        $( $crate::workloads::schedule_many::for_each_system!(@pairs $callback; $tens); )*
    };
    (@pairs $callback:ident; $tens:literal) => {
        $callback!({ 10 * $tens }, $crate::components::A, $crate::components::B);
        $callback!({ 10 * $tens + 1 }, $crate::components::B, $crate::components::E);
        $callback!({ 10 * $tens + 2 }, $crate::components::C, $crate::components::H);
        $callback!({ 10 * $tens + 3 }, $crate::components::D, $crate::components::A);
        $callback!({ 10 * $tens + 4 }, $crate::components::E, $crate::components::D);
        $callback!({ 10 * $tens + 5 }, $crate::components::F, $crate::components::G);
        $callback!({ 10 * $tens + 6 }, $crate::components::G, $crate::components::J);
        $callback!({ 10 * $tens + 7 }, $crate::components::H, $crate::components::C);
        $callback!({ 10 * $tens + 8 }, $crate::components::I, $crate::components::F);
        $callback!({ 10 * $tens + 9 }, $crate::components::J, $crate::components::I);
    };
}
pub(crate) use for_each_system;

/// Evaluates `$body` with `$T` standing for the type of index `$t`.
macro_rules! with_type {
    ($t:expr, $T:ident => $body:expr) => {
        match $t {
            0 => {
                type $T = A;
                $body
            }
            1 => {
                type $T = B;
                $body
            }
            2 => {
                type $T = C;
                $body
            }
            3 => {
                type $T = D;
                $body
            }
            4 => {
                type $T = E;
                $body
            }
            5 => {
                type $T = F;
                $body
            }
            6 => {
                type $T = G;
                $body
            }
            7 => {
                type $T = H;
                $body
            }
            8 => {
                type $T = I;
                $body
            }
            9 => {
                type $T = J;
                $body
            }
            t => unreachable!("no type {t}"),
        }
    };
}

/// `$sum::<T>($world)` summed over the 10 types.
macro_rules! sum_types {
    ($sum:ident($world:expr)) => {
        $sum::<A>($world)
            + $sum::<B>($world)
            + $sum::<C>($world)
            + $sum::<D>($world)
            + $sum::<E>($world)
            + $sum::<F>($world)
            + $sum::<G>($world)
            + $sum::<H>($world)
            + $sum::<I>($world)
            + $sum::<J>($world)
    };
}

/// Ten plain vectors, one per type, and per system the pairs of indices
/// (into the read type's vector, into the written one's) of the entities it
/// updates.
struct Ideal {
    values: Vec<Vec<f32>>,
    pairs: Vec<Vec<(u32, u32)>>,
}

impl Bench for Ideal {
    fn setup() -> Self {
        let mut values = vec![Vec::new(); TYPES];
        // Per entity, where each of its types' values sits in `values`.
        let mut slots = vec![[None; TYPES]; ENTITIES];
        for (j, slots) in slots.iter_mut().enumerate() {
            for t in types_of(j) {
                slots[t] = Some(values[t].len() as u32);
                values[t].push(value(j, t));
            }
        }
        let pairs = (0..SYSTEMS)
            .map(|i| {
                let (r, w) = pair(i);
                slots
                    .iter()
                    .filter_map(|slots| Some((slots[r]?, slots[w]?)))
                    .collect()
            })
            .collect();
        Self { values, pairs }
    }

    fn run(&mut self) {
        for (i, pairs) in self.pairs.iter().enumerate() {
            let (r, w) = pair(i);
            for &(ri, wi) in pairs {
                let x = self.values[r][ri as usize];
                let y = &mut self.values[w][wi as usize];
                *y = (*y + x) * 0.5;
            }
        }
    }

    fn checksum(&mut self) -> f64 {
        self.values.iter().flatten().copied().map(f64::from).sum()
    }
}

/// How ours runs the schedule.
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
enum Mode {
    /// `Schedule::new()` as it comes.
    Default,
    /// `Schedule::new()` with a parallel threshold of 0.
    ThresholdZero,
    /// `Schedule::single_threaded()`.
    SingleThreaded,
    /// `Schedule::new()` over a world whose layout was optimized once.
    Optimized,
}

/// System `N`: `w = (w + r) / 2` over the entities with both types.
fn ours_mix<R: Scalar + Component, W: Scalar + Component, const N: usize>(
    mut q: Query<(&R, &mut W)>,
) {
    q.for_each(|(r, mut w)| mix(r, &mut *w));
}

/// Ours: the 100 systems in Update of a [`Schedule`].
struct Ours<const MODE: u8> {
    world: World,
    schedule: Schedule,
}

/// Our world: each entity spawned empty, then given its types one by one
/// (as every library's setup does).
fn ours_world() -> World {
    let mut world = World::new();
    for j in 0..ENTITIES {
        let e = world.spawn(());
        for t in types_of(j) {
            with_type!(t, T => {
                world.insert(e, T::new(value(j, t))).expect("alive");
            });
        }
    }
    world
}

/// The checksum of our world.
fn ours_checksum(world: &World) -> f64 {
    fn sum<T: Scalar + Component>(world: &World) -> f64 {
        world
            .query_ref::<&T>()
            .iter()
            .map(|x| f64::from(x.value()))
            .sum()
    }
    sum_types!(sum(world))
}

impl<const MODE: u8> Bench for Ours<MODE> {
    fn setup() -> Self {
        let mut world = ours_world();
        if MODE == Mode::Optimized as u8 {
            world.optimize_layout();
        }
        let mut schedule = if MODE == Mode::SingleThreaded as u8 {
            Schedule::single_threaded()
        } else {
            Schedule::new()
        };
        if MODE == Mode::ThresholdZero as u8 {
            schedule.set_parallel_threshold(0);
        }
        macro_rules! add {
            ($i:tt, $r:ty, $w:ty) => {
                check_pair::<$r, $w>($i);
                schedule
                    .add_system(
                        Stage::Update,
                        ours_mix::<$r, $w, $i>.named(format!("mix_{}", $i)),
                    )
                    .expect("a new name, params that do not clash");
            };
        }
        for_each_system!(add);
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

/// The layout line of our world: the 100 systems' queries, by hand (the
/// world keeps their matches as the systems keep theirs, over the same
/// storages).
fn ours_layout(world: &mut World) -> String {
    let mut stats = Vec::new();
    macro_rules! probe {
        ($i:tt, $r:ty, $w:ty) => {
            stats.extend(world.query::<(&$r, &mut $w)>().match_stats());
        };
    }
    for_each_system!(probe);
    crate::layout::describe(world, stats.into_iter())
}

/// System `i`'s work on our world, without a schedule.
fn by_hand_mix<R: Scalar + Component, W: Scalar + Component>(world: &mut World) {
    world
        .query::<(&R, &mut W)>()
        .for_each(|(r, mut w)| mix(r, &mut *w));
}

/// Ours without a schedule: the 100 queries by hand, in order, as hecs and
/// sparsey run them, after the once-per-frame `maintain_layout` a game that
/// runs its queries by hand calls (a schedule calls it itself). The
/// difference from `ours` is what the schedule costs. With `OPTIMIZED`, the
/// world's layout is optimized once after setup and never kept after.
struct OursByHand<const OPTIMIZED: bool = false>(World);

impl<const OPTIMIZED: bool> Bench for OursByHand<OPTIMIZED> {
    fn setup() -> Self {
        let mut world = ours_world();
        if OPTIMIZED {
            world.optimize_layout();
        }
        Self(world)
    }

    fn run(&mut self) {
        let world = &mut self.0;
        if !OPTIMIZED {
            world.maintain_layout();
        }
        macro_rules! run {
            ($i:tt, $r:ty, $w:ty) => {
                by_hand_mix::<$r, $w>(world);
            };
        }
        for_each_system!(run);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_type_is_held_by_1000_entities_of_2_or_3_types() {
        let mut held = [0; TYPES];
        for j in 0..ENTITIES {
            let types: Vec<usize> = types_of(j).collect();
            assert!((2..=3).contains(&types.len()), "entity {j}: {types:?}");
            let mut distinct = types.clone();
            distinct.sort_unstable();
            distinct.dedup();
            assert_eq!(distinct.len(), types.len(), "entity {j}: {types:?}");
            for t in types {
                held[t] += 1;
            }
        }
        assert_eq!(held, [PER_TYPE; TYPES]);
    }

    #[test]
    fn every_system_reads_and_writes_different_types_and_finds_entities() {
        for i in 0..SYSTEMS {
            let (r, w) = pair(i);
            assert_ne!(r, w);
            let found = (0..ENTITIES)
                .filter(|&j| types_of(j).any(|t| t == r) && types_of(j).any(|t| t == w))
                .count();
            assert!(found >= 100, "system {i} finds {found} entities");
        }
    }

    #[test]
    fn the_macro_table_matches_pair() {
        let mut seen = Vec::new();
        macro_rules! check {
            ($i:tt, $r:ty, $w:ty) => {
                check_pair::<$r, $w>($i);
                seen.push($i);
            };
        }
        for_each_system!(check);
        assert_eq!(seen, (0..SYSTEMS).collect::<Vec<_>>());
    }

    #[test]
    fn predecessors_order_every_conflicting_pair() {
        // The transitive closure of `predecessors` holds every earlier conflict.
        let mut before: Vec<Vec<bool>> = Vec::new();
        for i in 0..SYSTEMS {
            let mut mine = vec![false; SYSTEMS];
            for j in predecessors(i) {
                assert!(j < i && conflict(i, j), "{j} before {i}");
                mine[j] = true;
                for (k, &earlier) in before[j].iter().enumerate() {
                    mine[k] |= earlier;
                }
            }
            for j in (0..i).filter(|&j| conflict(i, j)) {
                assert!(mine[j], "{j} before {i} is not implied");
            }
            before.push(mine);
        }
    }
}
