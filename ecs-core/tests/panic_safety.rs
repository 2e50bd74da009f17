//! Panic safety: after a panic inside a query closure (`for_each`, an `iter_mut` loop, `fold`,
//! `get_mut`), inside a `spawn_batch` iterator (at the first, a middle, a chunk-boundary and the
//! last item, with exact and wrong size hints), or inside a component's `Drop` (during despawn,
//! clear, an overwriting `insert_bundle` / `spawn` / `spawn_batch`, a caller's drop of a removed
//! or replaced value, and world drop), the world must:
//!
//! - hold exactly the entities and values a model predicts (compared through `get`, `contains`,
//!   `components_of` and a query over every live entity);
//! - report consistent `World::stats` (live + free + retired == slots, component counts);
//! - have dropped every value exactly once: each value carries an id in a per-test [`Ledger`],
//!   and the ids still live must be exactly those the model says the world holds;
//! - keep every group packed: when the world groups `(A, N)`, `Query::slices` of `(Entity, &A,
//!   &N)` lists exactly the entities holding both, row-aligned;
//! - remain usable (spawn, insert, query, remove, despawn all work afterwards).
//!
//! Each scenario runs on ungrouped storages (aligned and fragmented) and on storages grouped
//! `(A, N)`, where queries read the packed prefix and every structural change swaps entities in
//! and out of it.
//!
//! Every test checks that the panic it caught is the one it provoked (by message), not some
//! assertion inside the world.

use std::collections::{BTreeMap, BTreeSet};
use std::panic::{AssertUnwindSafe, catch_unwind};

use ecs_core::prelude::*;

use ecs_testkit::ledger::{Ledger, Token, panic_message};

// ---------------------------------------------------------------------------------------------
// Components and the model
// ---------------------------------------------------------------------------------------------

#[derive(Component)]
struct A(Token);

#[derive(Component)]
struct B(Token);

/// Plain data that queries write.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct N(i64);

/// What the model says one entity holds: token ids of `A` and `B`, and `N`'s value.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Row {
    a: Option<u64>,
    b: Option<u64>,
    n: Option<i64>,
}

type Model = BTreeMap<Entity, Row>;

fn row_of(world: &World, e: Entity) -> Row {
    Row {
        a: world.get::<A>(e).ok().map(|a| a.0.id),
        b: world.get::<B>(e).ok().map(|b| b.0.id),
        n: world.get::<N>(e).ok().map(|n| n.0),
    }
}

/// The world holds exactly `model`, its stats add up, and the live ledger ids are exactly the
/// ids the model holds plus `held` (values the test itself holds).
fn assert_world(world: &World, model: &Model, ledger: &Ledger, held: &[u64]) {
    let listed: Model = world
        .query_ref::<(Entity, Option<&A>, Option<&B>, Option<&N>)>()
        .iter()
        .map(|(e, a, b, n)| {
            let row = Row {
                a: a.map(|a| a.0.id),
                b: b.map(|b| b.0.id),
                n: n.map(|n| n.0),
            };
            (e, row)
        })
        .collect();
    assert_eq!(&listed, model, "live entities and their values (query)");
    assert_eq!(world.len(), model.len(), "len");
    for (&e, row) in model {
        assert!(world.is_alive(e), "{e:?} alive");
        assert_eq!(row_of(world, e), *row, "{e:?} (get)");
        assert_eq!(world.contains::<A>(e), row.a.is_some());
        assert_eq!(world.contains::<N>(e), row.n.is_some());
        let held = usize::from(row.a.is_some())
            + usize::from(row.b.is_some())
            + usize::from(row.n.is_some());
        assert_eq!(world.components_of(e).expect("alive").count(), held);
    }
    let stats = world.stats();
    assert_eq!(stats.live_entities, model.len(), "stats.live_entities");
    assert_eq!(
        stats.live_entities + stats.free_slots + stats.retired_slots,
        stats.entity_slots,
        "stats: live + free + retired == slots"
    );
    let components: usize = model
        .values()
        .map(|r| {
            usize::from(r.a.is_some()) + usize::from(r.b.is_some()) + usize::from(r.n.is_some())
        })
        .sum();
    assert_eq!(stats.components, components, "stats.components");
    let mut expected: BTreeSet<u64> = model
        .values()
        .flat_map(|r| r.a.into_iter().chain(r.b))
        .collect();
    expected.extend(held);
    assert_eq!(ledger.live_ids(), expected, "live values vs the world's");
    ledger.assert_no_errors();
    assert_group(world, model);
}

/// If the world groups `(A, N)`, the group's packed rows are exactly the model's entities
/// holding both, each row one entity.
fn assert_group(world: &World, model: &Model) {
    let mut query = world.query_ref::<(Entity, &A, &N)>();
    let Ok((entities, a, n)) = query.slices() else {
        return;
    };
    assert!(
        entities.len() == a.len() && a.len() == n.len(),
        "slice lengths"
    );
    let rows: Model = entities
        .iter()
        .zip(a.iter().zip(n))
        .map(|(&e, (a, n))| {
            let row = Row {
                a: Some(a.0.id),
                b: model.get(&e).and_then(|r| r.b),
                n: Some(n.0),
            };
            (e, row)
        })
        .collect();
    let expected: Model = model
        .iter()
        .filter(|(_, r)| r.a.is_some() && r.n.is_some())
        .map(|(&e, &r)| (e, r))
        .collect();
    assert_eq!(rows, expected, "the group's packed rows");
}

/// Whether the world serves `(Entity, &A, &N)` from a group.
fn is_grouped(world: &World) -> bool {
    world.query_ref::<(Entity, &A, &N)>().slices().is_ok()
}

/// The world still works: spawn, insert, query, remove and despawn, with drop accounting; the
/// world is left as it was.
fn assert_usable(world: &mut World, model: &Model, ledger: &Ledger) {
    let e = world.spawn((A(ledger.token()), N(5)));
    world.insert(e, B(ledger.token())).expect("alive");
    let mut seen = 0;
    for (id, n) in world.query::<(Entity, &mut N)>().iter_mut() {
        if id == e {
            n.0 += 1;
            seen += 1;
        }
    }
    assert_eq!(seen, 1);
    assert_eq!(world.get::<N>(e), Ok(&N(6)));
    drop(world.remove::<B>(e).expect("has B"));
    world.despawn(e).expect("alive");
    assert_eq!(world.despawn(e), Err(Error::Despawned { entity: e }));
    assert_world(world, model, ledger, &[]);
}

/// Asserts that `result` is a panic whose message starts with `prefix`.
fn assert_panicked<T>(result: std::thread::Result<T>, prefix: &str) {
    let Err(payload) = result else {
        panic!("expected a panic starting with {prefix:?}");
    };
    let message = panic_message(&*payload);
    assert!(message.starts_with(prefix), "unexpected panic: {message:?}");
}

/// How the entities of a scenario are laid out in the storages.
#[derive(Clone, Copy, Debug)]
enum Layout {
    /// One batch: `A` and `N` hold the same entities in the same order (the zipped path).
    Aligned,
    /// Holes and re-inserts: `N`'s dense order differs from `A`'s (the probing path), some
    /// entities lack `N`, some have `B`.
    Fragmented,
    /// As `Fragmented`, with `(A, N)` declared a group first: queries read its packed prefix.
    Grouped,
}

/// Every layout.
const LAYOUTS: [Layout; 3] = [Layout::Aligned, Layout::Fragmented, Layout::Grouped];

/// A world of 200 entities laid out as `layout`, and its model.
fn populate(layout: Layout, ledger: &Ledger) -> (World, Model) {
    let mut world = World::new();
    let mut model = Model::new();
    if let Layout::Grouped = layout {
        world.group::<(A, N)>().expect("a new group");
    }
    let ids = world.spawn_batch((0..200).map(|i| (A(ledger.token()), N(i))));
    for &e in &ids {
        model.insert(e, row_of(&world, e));
    }
    if let Layout::Fragmented | Layout::Grouped = layout {
        for (i, &e) in ids.iter().enumerate() {
            let row = model.get_mut(&e).expect("spawned");
            if i % 3 == 0 {
                world.remove::<N>(e).expect("has N");
                row.n = None;
            }
            if i % 5 == 0 {
                let b = ledger.token();
                row.b = Some(b.id);
                world.insert(e, B(b)).expect("alive");
            }
            if i % 7 == 0 && i % 3 == 0 {
                world.insert(e, N(-(i as i64))).expect("alive");
                row.n = Some(-(i as i64));
            }
        }
        for &e in ids.iter().skip(1).step_by(11) {
            world.despawn(e).expect("alive");
            model.remove(&e);
        }
    }
    assert_world(&world, &model, ledger, &[]);
    assert_eq!(is_grouped(&world), matches!(layout, Layout::Grouped));
    (world, model)
}

/// The points at which a closure panics: first item, second, around the 64-item chunk
/// boundary of the iterator, and the last.
fn panic_points(matches: usize) -> Vec<usize> {
    let mut points = vec![1, 2, 63, 64, 65, 129, matches];
    points.retain(|&k| k >= 1 && k <= matches);
    points.dedup();
    points
}

// ---------------------------------------------------------------------------------------------
// Panics inside query closures
// ---------------------------------------------------------------------------------------------

/// How a test walks a query: which method, so every iteration path is covered.
#[derive(Clone, Copy, Debug)]
enum Walk {
    ForEach,
    IterMutLoop,
    IterMutFold,
    IntoIterLoop,
}

/// Walks `(Entity, &mut N, &A)` with `walk`, adding 1 to each `N`, and panics on the `k`-th
/// item before changing it. Returns the entities whose `N` was changed.
fn walk_and_panic(world: &mut World, walk: Walk, k: usize) -> Vec<Entity> {
    let mut visited = Vec::new();
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut step = |(e, n, _): (Entity, &mut N, &A)| {
            visited.push(e);
            if visited.len() == k {
                panic!("closure panic at item {k}");
            }
            n.0 += 1;
        };
        let mut q = world.query::<(Entity, &mut N, &A)>();
        match walk {
            Walk::ForEach => q.for_each(step),
            Walk::IterMutLoop => {
                for item in q.iter_mut() {
                    step(item);
                }
            }
            Walk::IterMutFold => q.iter_mut().fold((), |(), item| step(item)),
            Walk::IntoIterLoop => {
                for item in q {
                    step(item);
                }
            }
        }
    }));
    assert_panicked(result, "closure panic");
    visited.pop();
    visited
}

/// A panic inside `for_each`, an `iter_mut` loop, `iter_mut().fold` or a consuming loop, at the
/// first item, around the iterator's 64-item chunks or at the last item, on aligned and
/// fragmented storages: the items handled before the panic keep their changes, no other value
/// changes, nothing is dropped, and the world stays consistent and usable (a full walk after
/// the panic reaches every match exactly once).
#[test]
fn panic_inside_a_query_closure_keeps_completed_writes() {
    for layout in LAYOUTS {
        for walk in [
            Walk::ForEach,
            Walk::IterMutLoop,
            Walk::IterMutFold,
            Walk::IntoIterLoop,
        ] {
            let ledger = Ledger::default();
            let (mut world, mut model) = populate(layout, &ledger);
            let matches = model
                .values()
                .filter(|r| r.a.is_some() && r.n.is_some())
                .count();
            for k in panic_points(matches) {
                let changed = walk_and_panic(&mut world, walk, k);
                assert_eq!(changed.len(), k - 1, "{layout:?} {walk:?} k={k}");
                let distinct: BTreeSet<Entity> = changed.iter().copied().collect();
                assert_eq!(distinct.len(), changed.len(), "an entity was yielded twice");
                for e in changed {
                    let n = model
                        .get_mut(&e)
                        .and_then(|r| r.n.as_mut())
                        .expect("matched");
                    *n += 1;
                }
                assert_world(&world, &model, &ledger, &[]);
            }
            // A full walk afterwards sees every match once.
            let mut seen = BTreeSet::new();
            world.query::<(Entity, &mut N, &A)>().for_each(|(e, n, _)| {
                assert!(seen.insert(e), "{e:?} yielded twice");
                n.0 += 1;
            });
            assert_eq!(seen.len(), matches);
            for e in seen {
                *model
                    .get_mut(&e)
                    .and_then(|r| r.n.as_mut())
                    .expect("matched") += 1;
            }
            assert_usable(&mut world, &model, &ledger);
            drop(world);
            ledger.assert_all_dropped();
        }
    }
}

/// A panic inside `fold` / `for_each` over read-only items and over the query that walks every
/// live entity (`Option<&mut N>`, no required storage), and while holding a `get_mut` item,
/// leaves the world exactly as the writes before the panic made it.
#[test]
fn panic_inside_read_only_folds_and_alive_walks() {
    for layout in LAYOUTS {
        let ledger = Ledger::default();
        let (mut world, mut model) = populate(layout, &ledger);

        let result = catch_unwind(AssertUnwindSafe(|| {
            world
                .query_ref::<(&A, Option<&N>)>()
                .iter()
                .fold(0, |count, _| {
                    if count == 100 {
                        panic!("closure panic in a read-only fold");
                    }
                    count + 1
                })
        }));
        assert_panicked(result, "closure panic");
        assert_world(&world, &model, &ledger, &[]);

        let mut visited = Vec::new();
        let result = catch_unwind(AssertUnwindSafe(|| {
            world
                .query::<(Entity, Option<&mut N>)>()
                .for_each(|(e, n)| {
                    visited.push(e);
                    if visited.len() == 77 {
                        panic!("closure panic in an alive walk");
                    }
                    if let Some(n) = n {
                        n.0 *= 2;
                    }
                });
        }));
        assert_panicked(result, "closure panic");
        visited.pop();
        for e in visited {
            if let Some(n) = model.get_mut(&e).and_then(|r| r.n.as_mut()) {
                *n *= 2;
            }
        }
        assert_world(&world, &model, &ledger, &[]);

        let (&target, _) = model.iter().find(|(_, r)| r.n.is_some()).expect("some N");
        let result = catch_unwind(AssertUnwindSafe(|| {
            let mut q = world.query::<&mut N>();
            let n = q.get_mut(target).expect("has N");
            n.0 = 1234;
            panic!("closure panic while holding get_mut");
        }));
        assert_panicked(result, "closure panic");
        model.get_mut(&target).expect("alive").n = Some(1234);
        assert_world(&world, &model, &ledger, &[]);

        assert_usable(&mut world, &model, &ledger);
        drop(world);
        ledger.assert_all_dropped();
    }
}

// ---------------------------------------------------------------------------------------------
// Panics inside spawn_batch iterators
// ---------------------------------------------------------------------------------------------

/// Yields `(A(token), N(i))` for `i` in `0..`, panics when asked for item `panic_at`, and reports
/// whatever size hint it is given.
struct PanickingBundles {
    ledger: Ledger,
    next: i64,
    panic_at: i64,
    hint: (usize, Option<usize>),
    /// Make the token, then panic (so the panic drops a value mid-`next`).
    panic_holding_a_value: bool,
}

impl Iterator for PanickingBundles {
    type Item = (A, N);

    fn next(&mut self) -> Option<(A, N)> {
        let i = self.next;
        self.next += 1;
        if i == self.panic_at {
            let held = self.panic_holding_a_value.then(|| self.ledger.token());
            panic!(
                "iterator panic at item {i} (holding {:?})",
                held.map(|t| t.id)
            );
        }
        Some((A(self.ledger.token()), N(i)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.hint
    }
}

/// An empty world, or one with 15 live entities and 15 free slots, and its model; with `(A, N)`
/// grouped when `grouped`.
fn batch_world(with_free_slots: bool, grouped: bool, ledger: &Ledger) -> (World, Model) {
    let mut world = World::new();
    let mut model = Model::new();
    if grouped {
        world.group::<(A, N)>().expect("a new group");
    }
    if with_free_slots {
        let ids = world.spawn_batch((0..30).map(|i| (A(ledger.token()), N(-i))));
        for (i, &e) in ids.iter().enumerate() {
            if i % 2 == 0 {
                world.despawn(e).expect("alive");
            } else {
                model.insert(e, row_of(&world, e));
            }
        }
    }
    (world, model)
}

/// A `spawn_batch` iterator that panics at the first item, the second, a middle item or the
/// last, with an exact, an unknown, an inflated and a lying size hint, on an empty world and on
/// one with free slots, with and without `(A, N)` grouped: the entities spawned before the
/// panic stay spawned with their values (as documented), they took exactly the ids the
/// allocator had next, no value is lost or dropped twice, stats add up and the world stays
/// usable.
#[test]
fn panic_inside_a_spawn_batch_iterator() {
    let n = 100usize;
    for panic_at in [0, 1, 50, 99] {
        for hint in [(n, Some(n)), (0, None), (n + 1000, None), (3, Some(1))] {
            for (with_free_slots, grouped) in
                [(false, false), (true, false), (false, true), (true, true)]
            {
                for holding in [false, true] {
                    let ledger = Ledger::default();
                    let (mut world, mut model) = batch_world(with_free_slots, grouped, &ledger);
                    // The ids the allocator hands out next: what a twin world built the same
                    // way returns for the same number of spawns.
                    let twin_ledger = Ledger::default();
                    let (mut twin, _) = batch_world(with_free_slots, grouped, &twin_ledger);
                    let predicted: BTreeSet<Entity> =
                        (0..panic_at).map(|_| twin.spawn(())).collect();
                    let before = world.stats();
                    let result = catch_unwind(AssertUnwindSafe(|| {
                        world.spawn_batch(PanickingBundles {
                            ledger: ledger.clone(),
                            next: 0,
                            panic_at,
                            hint,
                            panic_holding_a_value: holding,
                        })
                    }));
                    assert_panicked(result, "iterator panic");
                    let new: Model = world
                        .query_ref::<(Entity, &A, &N)>()
                        .iter()
                        .filter(|(e, _, _)| !model.contains_key(e))
                        .map(|(e, a, n)| {
                            let row = Row {
                                a: Some(a.0.id),
                                b: None,
                                n: Some(n.0),
                            };
                            (e, row)
                        })
                        .collect();
                    assert_eq!(
                        new.len(),
                        panic_at as usize,
                        "entities spawned before the panic"
                    );
                    assert_eq!(
                        new.keys().copied().collect::<BTreeSet<_>>(),
                        predicted,
                        "the ids the allocator had next"
                    );
                    let values: BTreeSet<i64> = new.values().filter_map(|r| r.n).collect();
                    assert_eq!(values, (0..panic_at).collect(), "their values");
                    let after = world.stats();
                    let slots_used = (after.entity_slots - before.entity_slots)
                        + (before.free_slots - after.free_slots);
                    assert_eq!(slots_used, panic_at as usize, "slots taken");
                    model.extend(new);
                    assert_world(&world, &model, &ledger, &[]);
                    assert_usable(&mut world, &model, &ledger);
                    drop(world);
                    ledger.assert_all_dropped();
                }
            }
        }
    }
}

/// Yields three `(A, N)` bundles while claiming, through its size hint, more than memory can
/// hold.
struct BoastfulBundles {
    ledger: Ledger,
    left: i64,
}

impl Iterator for BoastfulBundles {
    type Item = (A, N);

    fn next(&mut self) -> Option<(A, N)> {
        self.left -= 1;
        (self.left >= 0).then(|| (A(self.ledger.token()), N(100 + self.left)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (usize::MAX, None)
    }
}

/// An iterator whose size hint claims `usize::MAX` bundles: `spawn_batch` either panics
/// (capacity overflow, before changing anything: same stats, same entities, no type
/// registered) or spawns exactly the three bundles it yields; either way no value is lost.
#[test]
fn absurd_size_hint_changes_nothing_or_spawns_exactly_the_items() {
    let ledger = Ledger::default();
    let (mut world, mut model) = small_world(&ledger, false);
    let before = world.stats();
    let result = catch_unwind(AssertUnwindSafe(|| {
        world.spawn_batch(BoastfulBundles {
            ledger: ledger.clone(),
            left: 3,
        })
    }));
    match result {
        Err(_) => assert_eq!(
            world.stats(),
            before,
            "a failed reservation changed the world"
        ),
        Ok(ids) => {
            assert_eq!(ids.len(), 3);
            for e in ids {
                model.insert(e, row_of(&world, e));
            }
        }
    }
    assert_world(&world, &model, &ledger, &[]);
    assert_usable(&mut world, &model, &ledger);
    drop(world);
    ledger.assert_all_dropped();
}

/// A `spawn_batch` whose bundles repeat a type, where the earlier value's `Drop` panics on the
/// third item: the first two entities are complete, the third keeps what was written before the
/// panic (the later `A`, not `N`), and every value is dropped exactly once.
#[test]
fn panic_in_drop_inside_a_spawn_batch_bundle() {
    let ledger = Ledger::default();
    let mut world = World::new();
    let bundles: Vec<(A, A, N)> = (0..5)
        .map(|i| {
            let first = if i == 2 {
                ledger.bomb()
            } else {
                ledger.token()
            };
            (A(first), A(ledger.token()), N(i))
        })
        .collect();
    let kept: Vec<u64> = bundles.iter().map(|b| b.1.0.id).collect();
    let result = catch_unwind(AssertUnwindSafe(|| world.spawn_batch(bundles)));
    assert_panicked(result, "intentional panic in Drop");
    let mut model = Model::new();
    for i in 0..3u32 {
        let e = Entity::from_bits((1 << 32) | u64::from(i)).expect("valid");
        let n = (i < 2).then_some(i64::from(i));
        model.insert(
            e,
            Row {
                a: Some(kept[i as usize]),
                b: None,
                n,
            },
        );
    }
    assert_world(&world, &model, &ledger, &[]);
    assert_usable(&mut world, &model, &ledger);
    drop(world);
    ledger.assert_all_dropped();
}

// ---------------------------------------------------------------------------------------------
// Panics inside a component's Drop
// ---------------------------------------------------------------------------------------------

/// A small world: 20 entities with `A` and `N`, every fourth with `B`, and the model; with
/// `(A, N)` grouped when `grouped`.
fn small_world(ledger: &Ledger, grouped: bool) -> (World, Model) {
    let mut world = World::new();
    let mut model = Model::new();
    if grouped {
        world.group::<(A, N)>().expect("a new group");
    }
    for i in 0..20 {
        let e = if i % 4 == 0 {
            world.spawn((A(ledger.token()), N(i), B(ledger.token())))
        } else {
            world.spawn((A(ledger.token()), N(i)))
        };
        model.insert(e, row_of(&world, e));
    }
    assert_eq!(is_grouped(&world), grouped);
    (world, model)
}

/// A panicking `Drop` during `despawn` (with one bomb, and with bombs in two storages of the
/// same entity): the panic reaches the caller, the entity is fully despawned, its other values
/// are dropped exactly once, nothing else changes, and the world stays usable.
#[test]
fn panic_in_drop_during_despawn() {
    for (bombs, grouped) in [(1, false), (2, false), (1, true), (2, true)] {
        let ledger = Ledger::default();
        let (mut world, mut model) = small_world(&ledger, grouped);
        let e = world.spawn((A(ledger.bomb()), N(99)));
        if bombs == 2 {
            world.insert(e, B(ledger.bomb())).expect("alive");
        }
        let result = catch_unwind(AssertUnwindSafe(|| world.despawn(e)));
        assert_panicked(result, "intentional panic in Drop");
        assert!(!world.is_alive(e));
        assert_eq!(world.despawn(e), Err(Error::Despawned { entity: e }));
        assert_world(&world, &model, &ledger, &[]);

        // Through a handle, with the bomb in the middle of a fragmented storage.
        let victim = *model.keys().nth(7).expect("20 entities");
        let old = world
            .insert(victim, A(ledger.bomb()))
            .expect("alive")
            .expect("had A");
        drop(old);
        let result = catch_unwind(AssertUnwindSafe(|| {
            world.entity_mut(victim).expect("alive").despawn();
        }));
        assert_panicked(result, "intentional panic in Drop");
        model.remove(&victim);
        assert_world(&world, &model, &ledger, &[]);
        assert_usable(&mut world, &model, &ledger);
        drop(world);
        ledger.assert_all_dropped();
    }
}

/// A panicking `Drop` during `clear` (a bomb in one storage, then bombs in two storages): every
/// entity is gone, every value dropped exactly once, the old ids are stale, and the world is
/// usable.
#[test]
fn panic_in_drop_during_clear() {
    for (bombs, grouped) in [(1, false), (2, false), (1, true), (2, true)] {
        let ledger = Ledger::default();
        let (mut world, model) = small_world(&ledger, grouped);
        let e = world.spawn((N(1), A(ledger.bomb())));
        if bombs == 2 {
            world.insert(e, B(ledger.bomb())).expect("alive");
        }
        let result = catch_unwind(AssertUnwindSafe(|| world.clear()));
        assert_panicked(result, "intentional panic in Drop");
        for &old in model.keys().chain([&e]) {
            assert!(!world.is_alive(old));
            assert_eq!(world.get::<N>(old), Err(Error::Despawned { entity: old }));
        }
        assert_world(&world, &Model::new(), &ledger, &[]);
        let stats = world.stats();
        assert_eq!(stats.free_slots, 21);
        assert_usable(&mut world, &Model::new(), &ledger);
        drop(world);
        ledger.assert_all_dropped();
    }
}

/// A panicking `Drop` of a value an `insert_bundle` overwrites: the panic reaches the caller,
/// the replacing value is stored, the rest of the bundle is dropped (not stored) exactly once,
/// the entity's other components are untouched; the same through `EntityMut::insert_bundle`.
#[test]
fn panic_in_drop_during_an_overwrite() {
    for grouped in [false, true] {
        let ledger = Ledger::default();
        let (mut world, mut model) = small_world(&ledger, grouped);
        let (&e, _) = model
            .iter()
            .find(|(_, r)| r.b.is_none())
            .expect("an entity without B");
        let bomb = ledger.bomb();
        drop(world.insert(e, A(bomb)).expect("alive"));

        let (new_a, new_b) = (ledger.token(), ledger.token());
        let new_a_id = new_a.id;
        let result = catch_unwind(AssertUnwindSafe(|| {
            world.insert_bundle(e, (A(new_a), B(new_b), N(-1)))
        }));
        assert_panicked(result, "intentional panic in Drop");
        let row = model.get_mut(&e).expect("alive");
        row.a = Some(new_a_id);
        assert_world(&world, &model, &ledger, &[]);

        let (&f, _) = model.iter().nth(3).expect("20 entities");
        let bomb = ledger.bomb();
        drop(world.insert(f, N(7)));
        world.insert(f, A(bomb)).expect("alive");
        let replacement = ledger.token();
        let replacement_id = replacement.id;
        let result = catch_unwind(AssertUnwindSafe(|| {
            world.entity_mut(f).expect("alive").insert_bundle((
                N(8),
                A(replacement),
                B(ledger.token()),
            ));
        }));
        assert_panicked(result, "intentional panic in Drop");
        let row = model.get_mut(&f).expect("alive");
        row.n = Some(8);
        row.a = Some(replacement_id);
        assert_world(&world, &model, &ledger, &[]);

        // A bundle that repeats a type, given to `spawn`, with the earlier value a bomb.
        let (later, other) = (ledger.token(), ledger.token());
        let later_id = later.id;
        let next = Entity::from_bits((1 << 32) | 20).expect("valid");
        let result = catch_unwind(AssertUnwindSafe(|| {
            world.spawn((A(ledger.bomb()), N(3), A(later), B(other)))
        }));
        assert_panicked(result, "intentional panic in Drop");
        model.insert(
            next,
            Row {
                a: Some(later_id),
                b: None,
                n: Some(3),
            },
        );
        assert_world(&world, &model, &ledger, &[]);
        assert_usable(&mut world, &model, &ledger);
        drop(world);
        ledger.assert_all_dropped();
    }
}

/// A value handed back by `remove` or by an overwriting `insert` panics when the caller drops
/// it: the world is not involved and is unchanged beyond the remove / insert itself.
#[test]
fn panic_in_drop_of_a_removed_or_replaced_value() {
    for grouped in [false, true] {
        let ledger = Ledger::default();
        let (mut world, mut model) = small_world(&ledger, grouped);
        let (&e, _) = model.iter().next().expect("20 entities");
        world.insert(e, A(ledger.bomb())).map(drop).expect("alive");
        model.get_mut(&e).expect("alive").a = world.get::<A>(e).ok().map(|a| a.0.id);

        let result = catch_unwind(AssertUnwindSafe(|| drop(world.remove::<A>(e))));
        assert_panicked(result, "intentional panic in Drop");
        model.get_mut(&e).expect("alive").a = None;
        assert_world(&world, &model, &ledger, &[]);

        world.insert(e, A(ledger.bomb())).expect("alive");
        let replacement = ledger.token();
        let replacement_id = replacement.id;
        let result = catch_unwind(AssertUnwindSafe(|| drop(world.insert(e, A(replacement)))));
        assert_panicked(result, "intentional panic in Drop");
        model.get_mut(&e).expect("alive").a = Some(replacement_id);
        assert_world(&world, &model, &ledger, &[]);
        assert_usable(&mut world, &model, &ledger);
        drop(world);
        ledger.assert_all_dropped();
    }
}

/// A panicking `Drop` while the world itself is dropped (bombs in two storages, among many
/// ordinary values): the panic reaches the caller and every other value is still dropped
/// exactly once; nothing leaks.
#[test]
fn panic_in_drop_during_world_drop() {
    for (bombs, grouped) in [(1, false), (2, false), (1, true), (2, true)] {
        let ledger = Ledger::default();
        let (mut world, _) = small_world(&ledger, grouped);
        let e = world.spawn((A(ledger.bomb()), N(0)));
        if bombs == 2 {
            world.insert(e, B(ledger.bomb())).expect("alive");
        }
        world.spawn_batch((0..50).map(|i| (B(ledger.token()), N(i))));
        assert_panicked(
            catch_unwind(AssertUnwindSafe(|| drop(world))),
            "intentional panic in Drop",
        );
        ledger.assert_all_dropped();
    }
}
