//! Groups reorder storages (packing and unpacking swap entities inside the
//! dense arrays); a tracked type's ticks must move with its values. A
//! property test runs random spawns, inserts, removes and writes against a
//! group of two tracked types, and at every checkpoint compares what
//! `Added` / `Changed` report since the last checkpoint with a model of
//! booleans. `ECS_MODEL_CASES` sets the number of cases (default 256).

use std::collections::BTreeMap;

use ecs_core::change::Tick;
use ecs_core::prelude::*;
use ecs_core::query::QueryFilter;
use ecs_testkit::strategy::cases_from_env;
use proptest::collection::vec;
use proptest::prelude::*;

#[derive(Component, Debug, Clone, Copy, PartialEq)]
#[component(track_changes)]
struct A(u32);

#[derive(Component, Debug, Clone, Copy, PartialEq)]
#[component(track_changes)]
struct B(u32);

#[derive(Debug, Clone)]
enum Op {
    /// Spawn with A, B or both (bits 1 and 2; 0 spawns both).
    Spawn(u8),
    /// Insert A (false) or B (true) on the `n`-th live entity, new or replacing.
    Insert(usize, bool, u32),
    Remove(usize, bool),
    /// Write through `get_mut`, or only look through it (`false`: no write).
    Write(usize, bool, bool),
    Despawn(usize),
    Checkpoint,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        (0u8..4).prop_map(Op::Spawn),
        (any::<usize>(), any::<bool>(), 0u32..100).prop_map(|(n, b, v)| Op::Insert(n, b, v)),
        (any::<usize>(), any::<bool>()).prop_map(|(n, b)| Op::Remove(n, b)),
        (any::<usize>(), any::<bool>(), any::<bool>()).prop_map(|(n, b, w)| Op::Write(n, b, w)),
        any::<usize>().prop_map(Op::Despawn),
        Just(Op::Checkpoint),
    ]
}

/// What the model knows of one component since the last checkpoint.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Slot {
    value: u32,
    added: bool,
    changed: bool,
}

#[derive(Default)]
struct Model {
    /// Per live entity: its A and its B.
    live: BTreeMap<Entity, [Option<Slot>; 2]>,
}

impl Model {
    fn nth(&self, n: usize) -> Option<Entity> {
        (!self.live.is_empty()).then(|| *self.live.keys().nth(n % self.live.len()).unwrap())
    }

    fn expected(&self, which: usize, added: bool) -> Vec<Entity> {
        self.live
            .iter()
            .filter(|(_, slots)| {
                slots[which].is_some_and(|s| if added { s.added } else { s.changed })
            })
            .map(|(&e, _)| e)
            .collect()
    }
}

fn found<F: QueryFilter>(world: &mut World, since: Tick) -> Vec<Entity> {
    let mut found: Vec<Entity> = world
        .query_filtered::<Entity, F>()
        .changed_since(since)
        .iter()
        .collect();
    found.sort();
    found
}

fn check(world: &mut World, model: &Model, since: Tick) {
    assert_eq!(
        found::<Added<A>>(world, since),
        model.expected(0, true),
        "Added<A>"
    );
    assert_eq!(
        found::<Changed<A>>(world, since),
        model.expected(0, false),
        "Changed<A>"
    );
    assert_eq!(
        found::<Added<B>>(world, since),
        model.expected(1, true),
        "Added<B>"
    );
    assert_eq!(
        found::<Changed<B>>(world, since),
        model.expected(1, false),
        "Changed<B>"
    );
    for (&e, slots) in &model.live {
        assert_eq!(
            world.get::<A>(e).ok().map(|a| a.0),
            slots[0].map(|s| s.value)
        );
        assert_eq!(
            world.get::<B>(e).ok().map(|b| b.0),
            slots[1].map(|s| s.value)
        );
    }
}

fn fresh(value: u32) -> Option<Slot> {
    Some(Slot {
        value,
        added: true,
        changed: true,
    })
}

fn run(ops: &[Op], group_first: bool) {
    let mut world = World::new();
    let mut model = Model::default();
    if group_first {
        world.group::<(A, B)>().unwrap();
    }
    let mut since = world.change_tick();
    let mut next = 0u32;
    for (i, op) in ops.iter().enumerate() {
        if !group_first && i == ops.len() / 2 {
            // Declared mid-way: packing swaps entities already stored.
            world.group::<(A, B)>().unwrap();
        }
        match *op {
            Op::Spawn(bits) => {
                next += 1;
                let (a, b) = match bits {
                    1 => (true, false),
                    2 => (false, true),
                    _ => (true, true),
                };
                let e = match (a, b) {
                    (true, false) => world.spawn(A(next)),
                    (false, true) => world.spawn(B(next)),
                    _ => world.spawn((A(next), B(next))),
                };
                let slots = [
                    a.then(|| fresh(next)).flatten(),
                    b.then(|| fresh(next)).flatten(),
                ];
                model.live.insert(e, slots);
            }
            Op::Insert(n, which, value) => {
                let Some(e) = model.nth(n) else { continue };
                if which {
                    world.insert(e, B(value)).unwrap();
                } else {
                    world.insert(e, A(value)).unwrap();
                }
                let slot = &mut model.live.get_mut(&e).unwrap()[usize::from(which)];
                *slot = match *slot {
                    Some(s) => Some(Slot {
                        value,
                        changed: true,
                        ..s
                    }),
                    None => fresh(value),
                };
            }
            Op::Remove(n, which) => {
                let Some(e) = model.nth(n) else { continue };
                let slot = &mut model.live.get_mut(&e).unwrap()[usize::from(which)];
                let removed = if which {
                    world.remove::<B>(e).ok().map(|b| b.0)
                } else {
                    world.remove::<A>(e).ok().map(|a| a.0)
                };
                assert_eq!(removed, slot.map(|s| s.value));
                *slot = None;
            }
            Op::Write(n, which, write) => {
                let Some(e) = model.nth(n) else { continue };
                let slot = &mut model.live.get_mut(&e).unwrap()[usize::from(which)];
                let Some(s) = slot else { continue };
                if which {
                    let mut b = world.get_mut::<B>(e).unwrap();
                    if write {
                        b.0 += 1;
                    }
                } else {
                    let mut a = world.get_mut::<A>(e).unwrap();
                    if write {
                        a.0 += 1;
                    }
                }
                if write {
                    s.value += 1;
                    s.changed = true;
                }
            }
            Op::Despawn(n) => {
                let Some(e) = model.nth(n) else { continue };
                world.despawn(e).unwrap();
                model.live.remove(&e);
            }
            Op::Checkpoint => {
                check(&mut world, &model, since);
                since = world.change_tick();
                for slots in model.live.values_mut() {
                    for s in slots.iter_mut().flatten() {
                        s.added = false;
                        s.changed = false;
                    }
                }
            }
        }
    }
    check(&mut world, &model, since);
    if group_first || ops.len() >= 2 {
        let grouped = world
            .query::<(Entity, &A, &B)>()
            .slices()
            .map(|(e, _, _)| e.len());
        let both = model
            .live
            .values()
            .filter(|s| s[0].is_some() && s[1].is_some())
            .count();
        assert_eq!(
            grouped.ok(),
            Some(both),
            "the group packs every entity with both"
        );
    }
}

proptest! {
    #![proptest_config(cases_from_env("ECS_MODEL_CASES", 256))]

    #[test]
    fn ticks_follow_their_values_through_group_reorders(ops in vec(op(), 0..120), group_first in any::<bool>()) {
        run(&ops, group_first);
    }
}

#[test]
fn packing_a_group_after_writes_keeps_each_entity_its_own_ticks() {
    let mut world = World::new();
    let es = world.spawn_batch((0..8).map(|i| (A(i), B(i))));
    let lone = world.spawn_batch((0..4).map(A));
    let since = world.change_tick();
    for &e in [es[1], es[6], lone[2]].iter() {
        world.get_mut::<A>(e).unwrap().0 += 100;
    }
    world.group::<(A, B)>().unwrap();
    world.remove::<B>(es[0]).unwrap();
    let mut changed = found::<Changed<A>>(&mut world, since);
    changed.sort();
    let mut expected = vec![es[1], es[6], lone[2]];
    expected.sort();
    assert_eq!(changed, expected);
    assert!(found::<Added<A>>(&mut world, since).is_empty());
}
