//! Change filters over worlds large enough that walks decide whole chunks
//! of 64 entities at once: every query shape a `Changed<T>` walk takes
//! (driving from the tracked storage or from another, with `With`,
//! `Without` and `Or` beside it, through `next`, `fold`, a walk stopped
//! part-way and finished by `fold`, and `par_for_each`), from systems (each
//! since its own last run) and from the world (since a kept tick), checked
//! against a model that numbers every change and knows no ticks.
//!
//! Structural change between frames (removals, despawns, re-inserts, new
//! spawns) breaks the storages' order, so walks meet aligned runs, runs at
//! an offset, and stretches they must probe.
//!
//! `ECS_MODEL_CASES` sets the number of generated cases (default 48).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex};

use ecs_core::change::Tick;
use ecs_core::prelude::*;
use ecs_testkit::strategy::cases_from_env;
use proptest::collection::vec;
use proptest::prelude::*;

#[derive(Component, Debug, Clone, Copy, PartialEq)]
#[component(track_changes)]
struct Hp(u16);

/// Held by some entities: the condition that keeps them apart in filters.
#[derive(Component, Debug, Clone, Copy, PartialEq)]
struct Shield;

#[derive(Debug, Clone)]
enum Op {
    /// Spawn this many entities in one batch, every `n`-th with a `Shield`.
    SpawnBatch(u16, u8),
    /// Write `Hp` through `World::get_mut` on every entity whose position
    /// among the live ones is `offset` modulo `step`.
    WriteEvery(u8, u8),
    /// Look at an entity's `Hp` through `Mut` without writing.
    Look(usize),
    Remove(usize),
    Insert(usize, u16),
    Despawn(usize),
    ToggleShield(usize),
    Frame,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        1 => (1u16..200, 1u8..6).prop_map(|(n, every)| Op::SpawnBatch(n, every)),
        4 => (1u8..12, 0u8..12).prop_map(|(step, offset)| Op::WriteEvery(step, offset)),
        1 => any::<usize>().prop_map(Op::Look),
        2 => any::<usize>().prop_map(Op::Remove),
        2 => (any::<usize>(), 0u16..50).prop_map(|(n, v)| Op::Insert(n, v)),
        2 => any::<usize>().prop_map(Op::Despawn),
        1 => any::<usize>().prop_map(Op::ToggleShield),
        4 => Just(Op::Frame),
    ]
}

/// What the systems of one frame saw, by name, each list sorted.
type Seen = Arc<Mutex<BTreeMap<&'static str, Vec<Entity>>>>;

fn record(seen: &Seen, name: &'static str, mut entities: Vec<Entity>) {
    entities.sort();
    let previous = seen.lock().unwrap().insert(name, entities);
    assert!(previous.is_none(), "{name} ran twice in one frame");
}

/// The names of the readers, and which entities each keeps: whether it
/// requires a shield, refuses one, or keeps shielded entities whatever
/// changed (`Or`).
const READERS: [(&str, Keep); 5] = [
    ("next", Keep::Changed),
    ("fold_unshielded", Keep::ChangedWithout),
    ("part_then_fold_shielded", Keep::ChangedWith),
    ("from_shields", Keep::ChangedWith),
    ("or_shielded", Keep::ChangedOrShielded),
];

#[derive(Clone, Copy, Debug)]
enum Keep {
    Changed,
    ChangedWithout,
    ChangedWith,
    ChangedOrShielded,
}

impl Keep {
    fn keeps(self, changed: bool, shielded: bool) -> bool {
        match self {
            Keep::Changed => changed,
            Keep::ChangedWithout => changed && !shielded,
            Keep::ChangedWith => changed && shielded,
            Keep::ChangedOrShielded => changed || shielded,
        }
    }
}

type UnshieldedChanges<'w, 'a> = Query<'w, (Entity, &'a Hp), (Changed<Hp>, Without<Shield>)>;
type ChangedOrShielded<'w, 'a> = Query<'w, (Entity, &'a Hp), Or<(Changed<Hp>, With<Shield>)>>;

fn schedule(seen: &Seen) -> Schedule {
    let mut s = Schedule::new();
    let s0 = Arc::clone(seen);
    // The writer bumps every value it sees changed that is a multiple of
    // four: a write through a `Mut` of the very query whose filter decided
    // it, after its chunk was decided.
    s.add_system(
        Stage::Update,
        (move |mut q: Query<(Entity, &mut Hp), Changed<Hp>>| {
            let mut found = Vec::new();
            for (e, mut hp) in q.iter_mut() {
                found.push(e);
                if hp.0.is_multiple_of(4) {
                    hp.0 += 1;
                }
            }
            record(&s0, "writer", found);
        })
        .named("writer"),
    )
    .unwrap();
    let s1 = Arc::clone(seen);
    s.add_system(
        Stage::PostUpdate,
        (move |q: Query<Entity, Changed<Hp>>| {
            record(&s1, "next", q.iter().collect());
        })
        .named("next"),
    )
    .unwrap();
    let s2 = Arc::clone(seen);
    s.add_system(
        Stage::PostUpdate,
        (move |mut q: UnshieldedChanges<'_, '_>| {
            let mut found = Vec::new();
            q.for_each(|(e, _)| found.push(e));
            record(&s2, "fold_unshielded", found);
        })
        .named("fold_unshielded"),
    )
    .unwrap();
    let s3 = Arc::clone(seen);
    s.add_system(
        Stage::PostUpdate,
        (move |q: Query<Entity, (With<Shield>, Changed<Hp>)>| {
            let mut walk = q.iter();
            let mut found: Vec<Entity> = walk.by_ref().take(3).collect();
            found = walk.fold(found, |mut found, e| {
                found.push(e);
                found
            });
            record(&s3, "part_then_fold_shielded", found);
        })
        .named("part_then_fold_shielded"),
    )
    .unwrap();
    let s4 = Arc::clone(seen);
    s.add_system(
        Stage::PostUpdate,
        (move |q: Query<(Entity, &Shield), Changed<Hp>>| {
            record(&s4, "from_shields", q.iter().map(|(e, _)| e).collect());
        })
        .named("from_shields"),
    )
    .unwrap();
    let s5 = Arc::clone(seen);
    s.add_system(
        Stage::PostUpdate,
        (move |q: ChangedOrShielded<'_, '_>| {
            record(&s5, "or_shielded", q.iter().map(|(e, _)| e).collect());
        })
        .named("or_shielded"),
    )
    .unwrap();
    s
}

/// The reference: every change numbered from one counter, as the world
/// numbers ticks, and each reader's number at its last run.
#[derive(Default)]
struct Model {
    live: Vec<Entity>,
    hp: BTreeMap<Entity, u16>,
    /// The number of the latest change of each entity's `Hp`.
    changed_at: BTreeMap<Entity, u64>,
    shielded: BTreeMap<Entity, bool>,
    counter: u64,
    writer_ran: u64,
    readers_ran: u64,
}

impl Model {
    fn nth(&self, n: usize) -> Option<Entity> {
        (!self.live.is_empty()).then(|| self.live[n % self.live.len()])
    }

    fn tick(&mut self) -> u64 {
        self.counter += 1;
        self.counter
    }

    fn changed_since(&self, since: u64) -> impl Iterator<Item = Entity> + '_ {
        self.changed_at
            .iter()
            .filter(move |(_, at)| **at > since)
            .map(|(&e, _)| e)
    }

    /// One frame: the writer, then every reader, each seeing what changed
    /// since its own last run.
    fn frame(&mut self) -> BTreeMap<&'static str, Vec<Entity>> {
        let run = self.tick();
        let seen: Vec<Entity> = self.changed_since(self.writer_ran).collect();
        let mut reports = BTreeMap::from([("writer", seen.clone())]);
        for e in seen {
            let hp = self.hp.get_mut(&e).unwrap();
            if hp.is_multiple_of(4) {
                *hp += 1;
                self.changed_at.insert(e, run);
            }
        }
        self.writer_ran = run;
        let run = self.tick();
        for (name, keep) in READERS {
            let kept = self
                .hp
                .keys()
                .filter(|e| {
                    let changed = self.changed_at[e] > self.readers_ran;
                    keep.keeps(changed, self.shielded[e])
                })
                .copied()
                .collect();
            reports.insert(name, kept);
        }
        self.readers_ran = run;
        reports
    }
}

/// The world's own walks since a kept tick, in every shape, against the
/// model's changes since the matching number.
fn check_world_walks(world: &mut World, since: Tick, model: &Model, since_number: u64) {
    let expected: Vec<Entity> = model.changed_since(since_number).collect();
    let mut by_next: Vec<Entity> = world
        .query_filtered::<Entity, Changed<Hp>>()
        .changed_since(since)
        .iter()
        .collect();
    by_next.sort();
    assert_eq!(by_next, expected, "next over the world");

    let mut by_fold = Vec::new();
    world
        .query_filtered::<(Entity, &mut Hp), Changed<Hp>>()
        .changed_since(since)
        .for_each(|(e, _)| by_fold.push(e));
    by_fold.sort();
    assert_eq!(by_fold, expected, "fold over the world, with Mut items");

    let query = world
        .query_filtered::<Entity, (Changed<Hp>, Without<Shield>)>()
        .changed_since(since);
    let mut walk = query.iter();
    let mut part: Vec<Entity> = walk.by_ref().take(5).collect();
    part = walk.fold(part, |mut part, e| {
        part.push(e);
        part
    });
    part.sort();
    let unshielded: Vec<Entity> = expected
        .iter()
        .copied()
        .filter(|e| !model.shielded[e])
        .collect();
    assert_eq!(part, unshielded, "a walk stopped part-way, then folded");

    #[cfg(feature = "parallel")]
    {
        let total = std::sync::atomic::AtomicU64::new(0);
        world
            .query_filtered::<&Hp, Changed<Hp>>()
            .changed_since(since)
            .par_for_each(|hp| {
                total.fetch_add(u64::from(hp.0), std::sync::atomic::Ordering::Relaxed);
            });
        let expected_total: u64 = expected.iter().map(|e| u64::from(model.hp[e])).sum();
        assert_eq!(total.into_inner(), expected_total, "par_for_each's sum");
    }
}

fn run(ops: &[Op]) {
    let seen = Seen::default();
    let mut world = World::new();
    let mut schedule = schedule(&seen);
    let mut model = Model::default();
    let mut kept = (world.change_tick(), model.counter);
    for op in ops {
        match *op {
            Op::SpawnBatch(n, every) => {
                let first = model.live.len();
                let shielded = |i: usize| i.is_multiple_of(usize::from(every));
                let spawned = world.spawn_batch((0..n).map(|i| Hp(i % 50)));
                let at = model.tick();
                for (i, &e) in spawned.iter().enumerate() {
                    if shielded(i) {
                        world.insert(e, Shield).unwrap();
                    }
                    model.live.push(e);
                    model.hp.insert(e, i as u16 % 50);
                    model.changed_at.insert(e, at);
                    model.shielded.insert(e, shielded(i));
                }
                assert_eq!(model.live.len(), first + usize::from(n));
            }
            Op::WriteEvery(step, offset) => {
                let at = model.tick();
                let targets: BTreeSet<Entity> = model
                    .live
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| i % usize::from(step) == usize::from(offset % step))
                    .map(|(_, &e)| e)
                    .collect();
                // One sweep through `Mut`, looking at every value and
                // writing the targets' only.
                world.query::<(Entity, &mut Hp)>().for_each(|(e, mut hp)| {
                    if targets.contains(&e) {
                        hp.0 = (hp.0 + 7) % 50;
                    }
                });
                for e in targets {
                    if let Some(hp) = model.hp.get_mut(&e) {
                        *hp = (*hp + 7) % 50;
                        model.changed_at.insert(e, at);
                    }
                }
            }
            Op::Look(n) => {
                let Some(e) = model.nth(n) else { continue };
                if let Ok(hp) = world.get_mut::<Hp>(e) {
                    assert_eq!(Some(&hp.0), model.hp.get(&e));
                }
            }
            Op::Remove(n) => {
                let Some(e) = model.nth(n) else { continue };
                let removed = world.remove::<Hp>(e).ok().map(|hp| hp.0);
                assert_eq!(removed, model.hp.remove(&e));
                model.changed_at.remove(&e);
            }
            Op::Insert(n, v) => {
                let Some(e) = model.nth(n) else { continue };
                world.insert(e, Hp(v)).unwrap();
                let at = model.tick();
                model.hp.insert(e, v);
                model.changed_at.insert(e, at);
            }
            Op::Despawn(n) => {
                let Some(e) = model.nth(n) else { continue };
                world.despawn(e).unwrap();
                model.live.retain(|&l| l != e);
                model.hp.remove(&e);
                model.changed_at.remove(&e);
                model.shielded.remove(&e);
            }
            Op::ToggleShield(n) => {
                let Some(e) = model.nth(n) else { continue };
                let shielded = model.shielded.get_mut(&e).unwrap();
                if *shielded {
                    world.remove::<Shield>(e).unwrap();
                } else {
                    world.insert(e, Shield).unwrap();
                }
                *shielded = !*shielded;
            }
            Op::Frame => {
                let expected = model.frame();
                schedule.run(&mut world).unwrap();
                let got = std::mem::take(&mut *seen.lock().unwrap());
                assert_eq!(got, expected);
                check_world_walks(&mut world, kept.0, &model, kept.1);
                kept = (world.change_tick(), model.counter);
            }
        }
    }
    check_world_walks(&mut world, kept.0, &model, kept.1);
}

proptest! {
    #![proptest_config(cases_from_env("ECS_MODEL_CASES", 48))]

    /// Every walk of a change filter keeps exactly what the model says
    /// changed, whole chunks of 64 or not.
    #[test]
    fn chunked_walks_keep_exactly_the_changes(
        ops in (1u16..400, 1u8..6).prop_flat_map(|(n, every)| {
            vec(op(), 0..24).prop_map(move |mut ops| {
                ops.insert(0, Op::SpawnBatch(n, every));
                ops
            })
        })
    ) {
        run(&ops);
    }
}

/// The benchmark's shape: a writer touching every tenth of many entities
/// each frame, a reader seeing exactly those. Small enough for miri, which
/// checks the chunk's tick slice beside the `Mut` items of earlier chunks:
///
/// ```text
/// cargo +nightly miri test -p ecs-core --test change_detection -- change_detection_chunks::every_tenth
/// ```
#[test]
fn every_tenth_written_is_every_tenth_seen() {
    let seen = Seen::default();
    let mut world = World::new();
    let all = world.spawn_batch((0..200).map(|_| Hp(0)));
    let mut schedule = Schedule::new();
    schedule
        .add_system(
            Stage::Update,
            (|mut q: Query<(Entity, &mut Hp)>, mut frame: Local<u16>| {
                let now = *frame;
                q.for_each(|(e, mut hp)| {
                    if (e.index() as u16 + now).is_multiple_of(10) {
                        hp.0 += 1;
                    }
                });
                *frame += 1;
            })
            .named("writer"),
        )
        .unwrap();
    let s = Arc::clone(&seen);
    schedule
        .add_system(
            Stage::PostUpdate,
            (move |q: Query<Entity, Changed<Hp>>| {
                record(&s, "reader", q.iter().collect());
            })
            .named("reader"),
        )
        .unwrap();
    schedule.run(&mut world).unwrap();
    assert_eq!(seen.lock().unwrap().remove("reader").unwrap(), all);
    for frame in 1..12u32 {
        schedule.run(&mut world).unwrap();
        let expected: Vec<Entity> = all
            .iter()
            .copied()
            .filter(|e| (e.index() + frame) % 10 == 0)
            .collect();
        assert_eq!(
            seen.lock().unwrap().remove("reader").unwrap(),
            expected,
            "frame {frame}"
        );
    }
    // A walk that writes every value it keeps, through the `Mut` items of
    // the very query whose filter read their chunk's ticks.
    let since = world.change_tick();
    for e in all.iter().step_by(3) {
        world.get_mut::<Hp>(*e).unwrap().0 = 100;
    }
    let mut kept = Vec::new();
    world
        .query_filtered::<(Entity, &mut Hp), Changed<Hp>>()
        .changed_since(since)
        .for_each(|(e, mut hp)| {
            hp.0 += 1;
            kept.push(e);
        });
    kept.sort();
    assert_eq!(kept, all.iter().copied().step_by(3).collect::<Vec<_>>());
    assert!(
        all.iter()
            .step_by(3)
            .all(|&e| world.get::<Hp>(e).unwrap().0 == 101)
    );
}
