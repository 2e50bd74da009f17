//! Stress run: 1,000,000 entities and 10,000,000 random operations against one world, checking
//! that memory stays bounded and that recycled slots leak neither pages nor free-list entries.
//!
//! ```sh
//! cargo run -p ecs-bench --release --bin stress          # 1,000,000 entities, 10,000,000 ops
//! cargo run -p ecs-bench --release --bin stress -- 100000 1000000 7   # entities, ops, seed
//! ```
//!
//! The operations (seeded xorshift, so a run repeats exactly) are a mix of spawn and despawn
//! that keeps the population within 1% of the target, insert (new or overwriting) and remove of
//! optional components (a POD, a `String`, a tag), lookups by live ids (each entity carries its
//! own id as a component, so a lookup that reaches the wrong entity is caught), and lookups,
//! inserts and despawns through recently despawned ids, which must all fail.
//!
//! The program shadows which optional components each slot holds (one byte per slot) and checks
//! every answer against it. Every 100,000 operations it checks `World::stats`:
//!
//! - `live + free + retired == slots`, `live` equals the shadow's count, nothing retired;
//! - `slots` equals the peak population (a freed slot is always reused before a new one is
//!   made: no free-list entries leak) and `free == slots - live`;
//! - stored components equal the shadow's per-type counts;
//! - sparse pages never exceed, per component type, the pages the highest index needs;
//! - heap bytes stay under twice what the peak contents need (capacity doubling), plus pages.
//!
//! Every 1,000,000 operations a query walks every entity and checks each id component. At the
//! end it prints the figures (peak heap bytes, peak RSS from `/proc/self/status` `VmHWM`, wall
//! times) and exits non-zero if any check failed.

use std::process::ExitCode;
use std::time::Instant;

use ecs_core::diagnostics::WorldStats;
use ecs_core::prelude::*;

/// Every entity's own id, to catch a lookup that lands on another entity.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Id(u64);

/// Required plain data.
#[derive(Component, Clone, Copy)]
struct Position {
    x: f32,
    y: f32,
}

/// Optional plain data.
#[derive(Component, Clone, Copy)]
struct Velocity {
    x: f32,
    y: f32,
}

/// Optional heap-owning data.
#[derive(Component, Clone)]
struct Name(String);

/// Optional tag.
#[derive(Component, Clone, Copy)]
struct Frozen;

/// Slots per sparse page (ecs-core's page size).
const PAGE: usize = 4096;

/// Component types the run uses.
const TYPES: usize = 5;

/// Bits of the shadow byte: which optional component a slot's entity holds.
const VEL: u8 = 1;
const NAME: u8 = 2;
const FROZEN: u8 = 4;

/// xorshift64*: small, fast, repeatable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (((self.next() >> 32) * n as u64) >> 32) as usize
    }
}

/// What the run knows about the world besides the world itself.
struct Shadow {
    /// Live entities, in no particular order (swap-removed on despawn).
    live: Vec<Entity>,
    /// Position of each slot's live entity in `live`, and its optional components.
    slot_pos: Vec<u32>,
    slot_bits: Vec<u8>,
    /// Recently despawned ids (a ring).
    dead: Vec<Entity>,
    dead_next: usize,
    /// Stored values per optional type: velocity, name, frozen.
    counts: [usize; 3],
    /// Highest population so far.
    peak_live: usize,
    /// Highest count so far per type: id, position, velocity, name, frozen.
    peak_counts: [usize; TYPES],
    failures: Vec<String>,
}

impl Shadow {
    fn fail(&mut self, message: String) {
        if self.failures.len() < 20 {
            eprintln!("FAILED: {message}");
        }
        self.failures.push(message);
    }

    fn add(&mut self, e: Entity, bits: u8) {
        let index = e.index() as usize;
        if index >= self.slot_pos.len() {
            self.slot_pos.resize(index + 1, u32::MAX);
            self.slot_bits.resize(index + 1, 0);
        }
        self.slot_pos[index] = self.live.len() as u32;
        self.slot_bits[index] = bits;
        self.live.push(e);
        for (i, bit) in [VEL, NAME, FROZEN].into_iter().enumerate() {
            if bits & bit != 0 {
                self.counts[i] += 1;
            }
        }
        self.peak_live = self.peak_live.max(self.live.len());
    }

    fn remove(&mut self, e: Entity) {
        let index = e.index() as usize;
        let pos = self.slot_pos[index] as usize;
        self.live.swap_remove(pos);
        if let Some(&moved) = self.live.get(pos) {
            self.slot_pos[moved.index() as usize] = pos as u32;
        }
        let bits = self.slot_bits[index];
        for (i, bit) in [VEL, NAME, FROZEN].into_iter().enumerate() {
            if bits & bit != 0 {
                self.counts[i] -= 1;
            }
        }
        self.slot_pos[index] = u32::MAX;
        self.slot_bits[index] = 0;
        if self.dead.len() < 1024 {
            self.dead.push(e);
        } else {
            self.dead[self.dead_next] = e;
            self.dead_next = (self.dead_next + 1) % self.dead.len();
        }
    }

    fn set_bit(&mut self, e: Entity, bit: u8, on: bool) {
        let bits = &mut self.slot_bits[e.index() as usize];
        let was = *bits & bit != 0;
        if was != on {
            *bits ^= bit;
            let i = bit.trailing_zeros() as usize;
            if on {
                self.counts[i] += 1;
            } else {
                self.counts[i] -= 1;
            }
        }
    }

    fn bits(&self, e: Entity) -> u8 {
        self.slot_bits[e.index() as usize]
    }

    fn note_peaks(&mut self) {
        let live = self.live.len();
        let current = [live, live, self.counts[0], self.counts[1], self.counts[2]];
        for (peak, now) in self.peak_counts.iter_mut().zip(current) {
            *peak = (*peak).max(now);
        }
    }
}

/// Random optional components for a new entity.
fn random_bits(rng: &mut Rng) -> u8 {
    (rng.next() >> 40) as u8 & (VEL | NAME | FROZEN)
}

fn spawn(world: &mut World, shadow: &mut Shadow, bits: u8, n: u64) -> Entity {
    let pos = Position {
        x: n as f32,
        y: 0.0,
    };
    let e = match bits {
        0 => world.spawn(pos),
        VEL => world.spawn((pos, Velocity { x: 1.0, y: 0.0 })),
        NAME => world.spawn((pos, Name(format!("n{n}")))),
        FROZEN => world.spawn((pos, Frozen)),
        b if b == VEL | NAME => {
            world.spawn((pos, Velocity { x: 1.0, y: 0.0 }, Name(format!("n{n}"))))
        }
        b if b == VEL | FROZEN => world.spawn((pos, Velocity { x: 1.0, y: 0.0 }, Frozen)),
        b if b == NAME | FROZEN => world.spawn((pos, Name(format!("n{n}")), Frozen)),
        _ => world.spawn((
            pos,
            Velocity { x: 1.0, y: 0.0 },
            Name(format!("n{n}")),
            Frozen,
        )),
    };
    world
        .insert(e, Id(e.to_bits()))
        .expect("a just-spawned entity is alive");
    shadow.add(e, bits);
    e
}

/// Peak and current resident set size in KiB, from `/proc/self/status`.
fn rss_kib() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse().ok())
            .unwrap_or(0)
    };
    (field("VmHWM:"), field("VmRSS:"))
}

/// The bound on heap bytes: twice (capacity doubling) what the peak contents need, plus the
/// page table and pages.
fn heap_bound(shadow: &Shadow, stats: &WorldStats) -> usize {
    let sizes = [
        size_of::<Id>(),
        size_of::<Position>(),
        size_of::<Velocity>(),
        size_of::<Name>(),
        size_of::<Frozen>(),
    ];
    let dense: usize = shadow
        .peak_counts
        .iter()
        .zip(sizes)
        .map(|(n, size)| n * (size + size_of::<Entity>()))
        .sum();
    let slots = stats.entity_slots * (8 + 4);
    let pages = stats.sparse_pages * PAGE * 8 + TYPES * stats.entity_slots.div_ceil(PAGE) * 16;
    2 * (dense + slots) + pages + (1 << 20)
}

fn check_stats(world: &World, shadow: &mut Shadow, step: u64, heap_peak: &mut usize) {
    let s = world.stats();
    shadow.note_peaks();
    let live = shadow.live.len();
    let mut problems = Vec::new();
    if s.live_entities + s.free_slots + s.retired_slots != s.entity_slots {
        problems.push(format!("live + free + retired != slots: {s:?}"));
    }
    if s.live_entities != live {
        problems.push(format!("live {} != shadow {live}", s.live_entities));
    }
    if s.retired_slots != 0 {
        problems.push(format!("{} retired slots", s.retired_slots));
    }
    if s.entity_slots != shadow.peak_live {
        problems.push(format!(
            "slots {} != peak population {}: a free slot was not reused",
            s.entity_slots, shadow.peak_live
        ));
    }
    if s.free_slots != s.entity_slots - s.live_entities {
        problems.push(format!("free {} != slots - live", s.free_slots));
    }
    let components = 2 * live + shadow.counts.iter().sum::<usize>();
    if s.components != components {
        problems.push(format!(
            "components {} != shadow {components}",
            s.components
        ));
    }
    if s.component_types != TYPES {
        problems.push(format!("{} component types", s.component_types));
    }
    let max_pages = TYPES * s.entity_slots.div_ceil(PAGE);
    if s.sparse_pages > max_pages {
        problems.push(format!("{} sparse pages > {max_pages}", s.sparse_pages));
    }
    let bound = heap_bound(shadow, &s);
    if s.heap_bytes > bound {
        problems.push(format!("heap {} bytes > bound {bound}", s.heap_bytes));
    }
    *heap_peak = (*heap_peak).max(s.heap_bytes);
    for p in problems {
        shadow.fail(format!("step {step}: {p}"));
    }
}

fn main() -> ExitCode {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|a| {
            a.parse()
                .expect("usage: stress [entities] [operations] [seed]")
        })
        .collect();
    let target = args.first().copied().unwrap_or(1_000_000) as usize;
    let ops = args.get(1).copied().unwrap_or(10_000_000);
    let seed = args.get(2).copied().unwrap_or(0x5eed_1234_abcd_0001);
    let mut rng = Rng(seed | 1);
    let started = Instant::now();

    let mut world = World::new();
    let mut shadow = Shadow {
        live: Vec::with_capacity(target + target / 50),
        slot_pos: Vec::new(),
        slot_bits: Vec::new(),
        dead: Vec::new(),
        dead_next: 0,
        counts: [0; 3],
        peak_live: 0,
        peak_counts: [0; TYPES],
        failures: Vec::new(),
    };
    let mut heap_peak = 0;

    // Populate: one batch for the required components (aligned storages), then the rest.
    let ids = world.spawn_batch((0..target).map(|i| {
        (
            Position {
                x: i as f32,
                y: 0.0,
            },
            Id(0),
        )
    }));
    for &e in &ids {
        *world.get_mut::<Id>(e).expect("alive") = Id(e.to_bits());
        let bits = random_bits(&mut rng);
        if bits & VEL != 0 {
            world.insert(e, Velocity { x: 1.0, y: 0.0 }).expect("alive");
        }
        if bits & NAME != 0 {
            world
                .insert(e, Name(format!("n{}", e.index())))
                .expect("alive");
        }
        if bits & FROZEN != 0 {
            world.insert(e, Frozen).expect("alive");
        }
        shadow.add(e, bits);
    }
    drop(ids);
    let populated = started.elapsed();
    check_stats(&world, &mut shadow, 0, &mut heap_peak);
    let heap_after_populate = world.stats().heap_bytes;
    let mut heap_first_half = 0;

    let ops_started = Instant::now();
    let (low, high) = (target - target / 100, target + target / 100);
    let mut counts = [0u64; 8];
    for step in 1..=ops {
        let roll = rng.below(100);
        match roll {
            // spawn / despawn, 20% each, pulled back inside [target - 1%, target + 1%]
            0..=39 => {
                let live = shadow.live.len();
                let spawn_it = if live <= low {
                    true
                } else if live >= high {
                    false
                } else {
                    roll < 20
                };
                if spawn_it || live == 0 {
                    let bits = random_bits(&mut rng);
                    spawn(&mut world, &mut shadow, bits, step);
                    counts[0] += 1;
                } else {
                    let e = shadow.live[rng.below(live)];
                    if let Err(err) = world.despawn(e) {
                        shadow.fail(format!("step {step}: despawn({e:?}) failed: {err}"));
                    }
                    shadow.remove(e);
                    counts[1] += 1;
                }
            }
            // insert (new or overwrite) of an optional component, 20%
            40..=59 if !shadow.live.is_empty() => {
                let e = shadow.live[rng.below(shadow.live.len())];
                let had = shadow.bits(e);
                let (bit, replaced) = match rng.below(3) {
                    0 => (
                        VEL,
                        world
                            .insert(e, Velocity { x: 2.0, y: 1.0 })
                            .map(|o| o.is_some()),
                    ),
                    1 => (
                        NAME,
                        world
                            .insert(e, Name(format!("r{step}")))
                            .map(|o| o.is_some()),
                    ),
                    _ => (FROZEN, world.insert(e, Frozen).map(|o| o.is_some())),
                };
                if replaced != Ok(had & bit != 0) {
                    shadow.fail(format!(
                        "step {step}: insert on {e:?} answered {replaced:?}"
                    ));
                }
                shadow.set_bit(e, bit, true);
                counts[2] += 1;
            }
            // remove of an optional component, 20%
            60..=79 if !shadow.live.is_empty() => {
                let e = shadow.live[rng.below(shadow.live.len())];
                let had = shadow.bits(e);
                let (bit, removed) = match rng.below(3) {
                    0 => (VEL, world.remove::<Velocity>(e).map(drop)),
                    1 => (NAME, world.remove::<Name>(e).map(drop)),
                    _ => (FROZEN, world.remove::<Frozen>(e).map(drop)),
                };
                if removed.is_ok() != (had & bit != 0) {
                    shadow.fail(format!("step {step}: remove on {e:?} answered {removed:?}"));
                }
                shadow.set_bit(e, bit, false);
                counts[3] += 1;
            }
            // lookups through live ids, 17%
            80..=96 if !shadow.live.is_empty() => {
                let e = shadow.live[rng.below(shadow.live.len())];
                let bits = shadow.bits(e);
                let id = world.get::<Id>(e).map(|id| id.0);
                if id != Ok(e.to_bits()) {
                    shadow.fail(format!("step {step}: get::<Id>({e:?}) = {id:?}"));
                }
                let has = [
                    world.contains::<Velocity>(e),
                    world.get::<Name>(e).is_ok_and(|n| !n.0.is_empty()),
                    world.contains::<Frozen>(e),
                ];
                let expected = [bits & VEL != 0, bits & NAME != 0, bits & FROZEN != 0];
                if has != expected {
                    shadow.fail(format!(
                        "step {step}: {e:?} holds {has:?}, expected {expected:?}"
                    ));
                }
                counts[4] += 1;
            }
            // stale ids, 3%: every API must refuse them
            _ if !shadow.dead.is_empty() => {
                let e = shadow.dead[rng.below(shadow.dead.len())];
                let stale = Err(Error::Despawned { entity: e });
                let answers = (
                    world.get::<Id>(e).map(|_| ()),
                    world.insert(e, Frozen).map(|_| ()),
                    world.despawn(e),
                    world.is_alive(e) || world.contains::<Position>(e),
                );
                if answers != (stale.clone(), stale.clone(), stale, false) {
                    shadow.fail(format!("step {step}: stale {e:?} answered {answers:?}"));
                }
                counts[5] += 1;
            }
            _ => counts[6] += 1,
        }
        if step % 100_000 == 0 {
            check_stats(&world, &mut shadow, step, &mut heap_peak);
            if step <= ops / 2 {
                heap_first_half = heap_peak;
            }
        }
        if step % 1_000_000 == 0 {
            let mut seen = 0usize;
            let mut wrong = 0usize;
            world
                .query::<(Entity, &Id, &mut Position, Option<&Velocity>)>()
                .for_each(|(e, id, p, v)| {
                    seen += 1;
                    wrong += usize::from(id.0 != e.to_bits());
                    if let Some(v) = v {
                        p.x += v.x;
                        p.y += v.y;
                    }
                });
            if seen != shadow.live.len() || wrong != 0 {
                shadow.fail(format!(
                    "step {step}: query saw {seen} entities ({wrong} with a wrong id), expected {}",
                    shadow.live.len()
                ));
            }
        }
    }
    let ops_time = ops_started.elapsed();
    check_stats(&world, &mut shadow, ops, &mut heap_peak);
    let end_stats = world.stats();
    let (hwm_kib, rss_kib_now) = rss_kib();

    // Clearing releases every entity but keeps the memory for reuse.
    let clear_started = Instant::now();
    world.clear();
    let cleared = world.stats();
    if cleared.live_entities != 0
        || cleared.components != 0
        || cleared.free_slots != end_stats.entity_slots
    {
        shadow.fail(format!("after clear: {cleared:?}"));
    }
    drop(world);
    let teardown = clear_started.elapsed();

    println!("stress: seed {seed:#x}, {target} entities, {ops} operations");
    println!(
        "  ops: {} spawn, {} despawn, {} insert, {} remove, {} live lookups, {} stale-id probes",
        counts[0], counts[1], counts[2], counts[3], counts[4], counts[5]
    );
    println!(
        "  end: {} live, {} slots ({} free, {} retired), peak population {}, \
         {} components, {} sparse pages",
        end_stats.live_entities,
        end_stats.entity_slots,
        end_stats.free_slots,
        end_stats.retired_slots,
        shadow.peak_live,
        end_stats.components,
        end_stats.sparse_pages
    );
    println!(
        "  heap_bytes: {:.1} MiB after populating, peak {:.1} MiB (first half {:.1} MiB), \
         end {:.1} MiB",
        heap_after_populate as f64 / 1048576.0,
        heap_peak as f64 / 1048576.0,
        heap_first_half as f64 / 1048576.0,
        end_stats.heap_bytes as f64 / 1048576.0
    );
    println!(
        "  peak RSS (VmHWM) {:.1} MiB, RSS at end {:.1} MiB",
        hwm_kib as f64 / 1024.0,
        rss_kib_now as f64 / 1024.0
    );
    println!(
        "  wall: populate {:.2} s, {} ops {:.2} s ({:.0} ns/op), clear + drop {:.2} s, \
         total {:.2} s",
        populated.as_secs_f64(),
        ops,
        ops_time.as_secs_f64(),
        ops_time.as_nanos() as f64 / ops.max(1) as f64,
        teardown.as_secs_f64(),
        started.elapsed().as_secs_f64()
    );
    if shadow.failures.is_empty() {
        println!("stress: all invariants held");
        ExitCode::SUCCESS
    } else {
        println!("stress: {} invariant violations", shadow.failures.len());
        ExitCode::FAILURE
    }
}
