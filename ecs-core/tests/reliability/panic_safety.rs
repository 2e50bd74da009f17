//! Panic safety: after a panic inside a query closure (`for_each`, an `iter_mut` loop, `fold`,
//! `get_mut`), inside a `spawn_batch` iterator (at the first, a middle, a chunk-boundary and the
//! last item, with exact and wrong size hints), or inside a component's `Drop` (during despawn,
//! clear, an overwriting `insert_bundle` / `spawn` / `spawn_batch`, a caller's drop of a removed
//! or replaced value, and world drop; two that panic in one call, run in a child process so an
//! abort fails the test), the world must:
//!
//! - hold exactly the entities and values the reference model (`ecs_testkit::Model`) predicts,
//!   ids included (compared through `get`, `contains`, `components_of` and a query over every
//!   live entity; despawned ids must be despawned);
//! - report the `World::stats` the model predicts (live + free + retired == slots, component
//!   counts, registered types, sparse pages);
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

use std::any::type_name;
use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use ecs_core::prelude::*;
use ecs_testkit::ledger::{Ledger, Token, panic_message};
use ecs_testkit::{DeadIds, Key, Mirror, Model, Record, Value, ent};

// ---------------------------------------------------------------------------------------------
// Components and how the model sees them
// ---------------------------------------------------------------------------------------------

#[derive(Component)]
struct A(Token);

#[derive(Component)]
struct B(Token);

/// Plain data that queries write.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct N(i64);

impl Mirror for A {
    fn short_name() -> Cow<'static, str> {
        "A".into()
    }
    fn mirror(&self) -> Value {
        Value::U64(self.0.id)
    }
}

impl Mirror for B {
    fn short_name() -> Cow<'static, str> {
        "B".into()
    }
    fn mirror(&self) -> Value {
        Value::U64(self.0.id)
    }
}

impl Mirror for N {
    fn short_name() -> Cow<'static, str> {
        "N".into()
    }
    fn mirror(&self) -> Value {
        Value::I64(self.0)
    }
}

fn ka() -> Key {
    Key::of::<A>()
}

fn kb() -> Key {
    Key::of::<B>()
}

fn kn() -> Key {
    Key::of::<N>()
}

/// The model of an empty world, checking `A`, `B` and `N` on every entity.
fn new_model() -> Model {
    Model::probing([ka(), kb(), kn()])
}

/// The model's value of a ledger token.
fn id(token: &Token) -> Value {
    Value::U64(token.id)
}

/// One entity as the tests compare it: token ids of `A` and `B`, and `N`'s value.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Row {
    a: Option<u64>,
    b: Option<u64>,
    n: Option<i64>,
}

fn row(record: &Record) -> Row {
    let token = |key: Key| match record.get(&key) {
        Some(Value::U64(id)) => Some(*id),
        _ => None,
    };
    Row {
        a: token(ka()),
        b: token(kb()),
        n: match record.get(&kn()) {
            Some(Value::I64(n)) => Some(*n),
            _ => None,
        },
    }
}

fn rows(model: &Model) -> BTreeMap<Entity, Row> {
    model.live().iter().map(|(&e, r)| (e, row(r))).collect()
}

/// `e` was just spawned: it must have the id the model predicts; the model takes its values
/// from the world (the token ids are the world's to hand out).
fn adopt(world: &World, model: &mut Model, e: Entity) {
    let writes = [ka(), kn(), kb()]
        .into_iter()
        .filter_map(|key| key.get(world, e).ok().map(|value| (key, value)));
    assert_eq!(model.spawn(writes), e, "spawned id");
}

/// Applies `f` to the `N` of the live `e` in the model.
fn update_n(model: &mut Model, e: Entity, f: impl FnOnce(i64) -> i64) {
    let n = row(model.record(e)).n.expect("holds N");
    model.insert(e, kn(), Value::I64(f(n)));
}

/// Declares the group `(A, N)` in the world and the model.
fn group(world: &mut World, model: &mut Model) {
    let got = world.group::<(A, N)>();
    assert_eq!(got, model.group(type_name::<(A, N)>(), &[ka(), kn()]));
    got.expect("a new group");
}

/// The world holds exactly what the model holds (through a query over every live entity, and
/// through every entity API the model checks), its stats are the model's, and the live ledger
/// ids are exactly the ids the model holds plus `held` (values the test itself holds).
fn assert_world(world: &World, model: &Model, ledger: &Ledger, held: &[u64]) {
    let listed: BTreeMap<Entity, Row> = world
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
    assert_eq!(
        listed,
        rows(model),
        "live entities and their values (query)"
    );
    model.assert_stats(world);
    model.assert_world(world, DeadIds::All);
    let mut expected: BTreeSet<u64> = rows(model)
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
    let model = rows(model);
    let rows: BTreeMap<Entity, Row> = entities
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
    let expected: BTreeMap<Entity, Row> = model
        .into_iter()
        .filter(|(_, r)| r.a.is_some() && r.n.is_some())
        .collect();
    assert_eq!(rows, expected, "the group's packed rows");
}

/// Whether the world serves `(Entity, &A, &N)` from a group.
fn is_grouped(world: &World) -> bool {
    world.query_ref::<(Entity, &A, &N)>().slices().is_ok()
}

/// The world still works: spawn, insert, query, remove and despawn, with drop accounting, all
/// as the model predicts.
fn assert_usable(world: &mut World, model: &mut Model, ledger: &Ledger) {
    let e = world.spawn((A(ledger.token()), N(5)));
    adopt(world, model, e);
    let b = ledger.token();
    model.insert(e, kb(), id(&b));
    world.insert(e, B(b)).expect("alive");
    let mut seen = 0;
    for (id, n) in world.query::<(Entity, &mut N)>().iter_mut() {
        if id == e {
            n.0 += 1;
            seen += 1;
        }
    }
    assert_eq!(seen, 1);
    update_n(model, e, |n| n + 1);
    assert_eq!(world.get::<N>(e), Ok(&N(6)));
    drop(world.remove::<B>(e).expect("has B"));
    model.remove(e, kb());
    world.despawn(e).expect("alive");
    model.despawn(e);
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
    let mut model = new_model();
    if let Layout::Grouped = layout {
        group(&mut world, &mut model);
    }
    let ids = world.spawn_batch((0..200).map(|i| (A(ledger.token()), N(i))));
    for &e in &ids {
        adopt(&world, &mut model, e);
    }
    if let Layout::Fragmented | Layout::Grouped = layout {
        for (i, &e) in ids.iter().enumerate() {
            if i % 3 == 0 {
                world.remove::<N>(e).expect("has N");
                model.remove(e, kn());
            }
            if i % 5 == 0 {
                let b = ledger.token();
                model.insert(e, kb(), id(&b));
                world.insert(e, B(b)).expect("alive");
            }
            if i % 7 == 0 && i % 3 == 0 {
                world.insert(e, N(-(i as i64))).expect("alive");
                model.insert(e, kn(), Value::I64(-(i as i64)));
            }
        }
        for &e in ids.iter().skip(1).step_by(11) {
            world.despawn(e).expect("alive");
            model.despawn(e);
        }
    }
    assert_world(&world, &model, ledger, &[]);
    assert_eq!(is_grouped(&world), matches!(layout, Layout::Grouped));
    (world, model)
}

/// How many live entities hold both `A` and `N`.
fn matches_a_n(model: &Model) -> usize {
    rows(model)
        .values()
        .filter(|r| r.a.is_some() && r.n.is_some())
        .count()
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
            let matches = matches_a_n(&model);
            for k in panic_points(matches) {
                let changed = walk_and_panic(&mut world, walk, k);
                assert_eq!(changed.len(), k - 1, "{layout:?} {walk:?} k={k}");
                let distinct: BTreeSet<Entity> = changed.iter().copied().collect();
                assert_eq!(distinct.len(), changed.len(), "an entity was yielded twice");
                for e in changed {
                    update_n(&mut model, e, |n| n + 1);
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
                update_n(&mut model, e, |n| n + 1);
            }
            assert_usable(&mut world, &mut model, &ledger);
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
            if row(model.record(e)).n.is_some() {
                update_n(&mut model, e, |n| n * 2);
            }
        }
        assert_world(&world, &model, &ledger, &[]);

        let (&target, _) = model
            .live()
            .iter()
            .find(|(_, r)| r.contains_key(&kn()))
            .expect("some N");
        let result = catch_unwind(AssertUnwindSafe(|| {
            let mut q = world.query::<&mut N>();
            let n = q.get_mut(target).expect("has N");
            n.0 = 1234;
            panic!("closure panic while holding get_mut");
        }));
        assert_panicked(result, "closure panic");
        model.insert(target, kn(), Value::I64(1234));
        assert_world(&world, &model, &ledger, &[]);

        assert_usable(&mut world, &mut model, &ledger);
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
    let mut model = new_model();
    if grouped {
        group(&mut world, &mut model);
    }
    if with_free_slots {
        let ids = world.spawn_batch((0..30).map(|i| (A(ledger.token()), N(-i))));
        for &e in &ids {
            adopt(&world, &mut model, e);
        }
        for &e in ids.iter().step_by(2) {
            world.despawn(e).expect("alive");
            model.despawn(e);
        }
    }
    (world, model)
}

/// A `spawn_batch` iterator that panics at the first item, the second, the first past the
/// free list, a middle item or the last, with an exact, an unknown, an inflated and a lying size hint, on an empty world and on
/// one with free slots, with and without `(A, N)` grouped: the entities spawned before the
/// panic stay spawned with their values (as documented), they took exactly the ids the
/// allocator had next, no value is lost or dropped twice, stats add up and the world stays
/// usable.
#[test]
fn panic_inside_a_spawn_batch_iterator() {
    let n = 100usize;
    // 15: with free slots, the first bundle past the free list's 15 ids.
    for panic_at in [0, 1, 15, 50, 99] {
        for hint in [(n, Some(n)), (0, None), (n + 1000, None), (3, Some(1))] {
            for (with_free_slots, grouped) in
                [(false, false), (true, false), (false, true), (true, true)]
            {
                for holding in [false, true] {
                    let ledger = Ledger::default();
                    let (mut world, mut model) = batch_world(with_free_slots, grouped, &ledger);
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
                    // The batch's types are registered before its first item is asked for.
                    model.register(&[ka(), kn()]);
                    let new: BTreeMap<Entity, Row> = world
                        .query_ref::<(Entity, &A, &N)>()
                        .iter()
                        .filter(|(e, _, _)| !model.live().contains_key(e))
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
                    let values: BTreeSet<i64> = new.values().filter_map(|r| r.n).collect();
                    assert_eq!(values, (0..panic_at).collect(), "their values");
                    // Item `i` (holding `N(i)`) took the `i`-th id the allocator had next.
                    let mut items: Vec<(i64, Entity, u64)> = new
                        .iter()
                        .map(|(&e, r)| (r.n.expect("N"), e, r.a.expect("A")))
                        .collect();
                    items.sort();
                    for (n, e, a) in items {
                        let writes = [(ka(), Value::U64(a)), (kn(), Value::I64(n))];
                        assert_eq!(model.spawn(writes), e, "the ids the allocator had next");
                    }
                    let after = world.stats();
                    let slots_used = (after.entity_slots - before.entity_slots)
                        + (before.free_slots - after.free_slots);
                    assert_eq!(slots_used, panic_at as usize, "slots taken");
                    assert_world(&world, &model, &ledger, &[]);
                    assert_usable(&mut world, &mut model, &ledger);
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
                adopt(&world, &mut model, e);
            }
        }
    }
    assert_world(&world, &model, &ledger, &[]);
    assert_usable(&mut world, &mut model, &ledger);
    drop(world);
    ledger.assert_all_dropped();
}

/// A `spawn_batch` whose bundles repeat a type, where the earlier value's `Drop` panics on the
/// third item: the panic reaches the caller once the whole batch is spawned, every entity
/// complete (the later `A` and `N`), and every value is dropped exactly once.
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
    let mut model = new_model();
    model.register(&[ka(), kn()]);
    for i in 0..5u32 {
        let writes = [
            (ka(), Value::U64(kept[i as usize])),
            (kn(), Value::I64(i64::from(i))),
        ];
        assert_eq!(model.spawn(writes), ent(i, 1));
    }
    assert_world(&world, &model, &ledger, &[]);
    assert_usable(&mut world, &mut model, &ledger);
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
    let mut model = new_model();
    if grouped {
        group(&mut world, &mut model);
    }
    for i in 0..20 {
        let e = if i % 4 == 0 {
            world.spawn((A(ledger.token()), N(i), B(ledger.token())))
        } else {
            world.spawn((A(ledger.token()), N(i)))
        };
        adopt(&world, &mut model, e);
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
        adopt(&world, &mut model, e);
        if bombs == 2 {
            let bomb = ledger.bomb();
            model.insert(e, kb(), id(&bomb));
            world.insert(e, B(bomb)).expect("alive");
        }
        let result = catch_unwind(AssertUnwindSafe(|| world.despawn(e)));
        assert_panicked(result, "intentional panic in Drop");
        model.despawn(e);
        assert!(!world.is_alive(e));
        assert_eq!(world.despawn(e), Err(Error::Despawned { entity: e }));
        assert_world(&world, &model, &ledger, &[]);

        // Through a handle, with the bomb in the middle of a fragmented storage.
        let victim = *model.live().keys().nth(7).expect("20 entities");
        let bomb = ledger.bomb();
        model.insert(victim, ka(), id(&bomb));
        let old = world
            .insert(victim, A(bomb))
            .expect("alive")
            .expect("had A");
        drop(old);
        let result = catch_unwind(AssertUnwindSafe(|| {
            let _ = world.entity_mut(victim).expect("alive").despawn();
        }));
        assert_panicked(result, "intentional panic in Drop");
        model.despawn(victim);
        assert_world(&world, &model, &ledger, &[]);
        assert_usable(&mut world, &mut model, &ledger);
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
        let (mut world, mut model) = small_world(&ledger, grouped);
        let e = world.spawn((N(1), A(ledger.bomb())));
        adopt(&world, &mut model, e);
        if bombs == 2 {
            let bomb = ledger.bomb();
            model.insert(e, kb(), id(&bomb));
            world.insert(e, B(bomb)).expect("alive");
        }
        let result = catch_unwind(AssertUnwindSafe(|| world.clear()));
        assert_panicked(result, "intentional panic in Drop");
        let old_ids: Vec<Entity> = model.live().keys().copied().collect();
        assert!(old_ids.contains(&e));
        model.clear();
        for old in old_ids {
            assert!(!world.is_alive(old));
            assert_eq!(world.get::<N>(old), Err(Error::Despawned { entity: old }));
        }
        assert!(model.is_empty());
        assert_world(&world, &model, &ledger, &[]);
        let stats = world.stats();
        assert_eq!(stats.free_slots, 21);
        assert_usable(&mut world, &mut model, &ledger);
        drop(world);
        ledger.assert_all_dropped();
    }
}

/// A panicking `Drop` of a value an `insert_bundle` overwrites: the panic reaches the caller
/// once the whole bundle is stored (the replacing value and the rest after it), the entity's
/// other components are untouched; the same through `EntityMut::insert_bundle`, and for a
/// `spawn` whose bundle repeats a type.
#[test]
fn panic_in_drop_during_an_overwrite() {
    for grouped in [false, true] {
        let ledger = Ledger::default();
        let (mut world, mut model) = small_world(&ledger, grouped);
        let (&e, _) = model
            .live()
            .iter()
            .find(|(_, r)| !r.contains_key(&kb()))
            .expect("an entity without B");
        let bomb = ledger.bomb();
        model.insert(e, ka(), id(&bomb));
        drop(world.insert(e, A(bomb)).expect("alive"));

        let (new_a, new_b) = (ledger.token(), ledger.token());
        let (new_a_id, new_b_id) = (new_a.id, new_b.id);
        let result = catch_unwind(AssertUnwindSafe(|| {
            world.insert_bundle(e, (A(new_a), B(new_b), N(-1)))
        }));
        assert_panicked(result, "intentional panic in Drop");
        model.insert(e, ka(), Value::U64(new_a_id));
        model.insert(e, kb(), Value::U64(new_b_id));
        model.insert(e, kn(), Value::I64(-1));
        assert_world(&world, &model, &ledger, &[]);

        let (&f, _) = model.live().iter().nth(3).expect("20 entities");
        let bomb = ledger.bomb();
        drop(world.insert(f, N(7)));
        model.insert(f, kn(), Value::I64(7));
        model.insert(f, ka(), id(&bomb));
        world.insert(f, A(bomb)).expect("alive");
        let (replacement, after) = (ledger.token(), ledger.token());
        let (replacement_id, after_id) = (replacement.id, after.id);
        let result = catch_unwind(AssertUnwindSafe(|| {
            let _ =
                world
                    .entity_mut(f)
                    .expect("alive")
                    .insert_bundle((N(8), A(replacement), B(after)));
        }));
        assert_panicked(result, "intentional panic in Drop");
        model.insert(f, kn(), Value::I64(8));
        model.insert(f, ka(), Value::U64(replacement_id));
        model.insert(f, kb(), Value::U64(after_id));
        assert_world(&world, &model, &ledger, &[]);

        // A bundle that repeats a type, given to `spawn`, with the earlier value a bomb.
        let (later, other) = (ledger.token(), ledger.token());
        let (later_id, other_id) = (later.id, other.id);
        let next = Entity::from_bits((1 << 32) | 20).expect("valid");
        let result = catch_unwind(AssertUnwindSafe(|| {
            world.spawn((A(ledger.bomb()), N(3), A(later), B(other)))
        }));
        assert_panicked(result, "intentional panic in Drop");
        let writes = [
            (ka(), Value::U64(later_id)),
            (kn(), Value::I64(3)),
            (kb(), Value::U64(other_id)),
        ];
        assert_eq!(model.spawn(writes), next);
        assert_world(&world, &model, &ledger, &[]);
        assert_usable(&mut world, &mut model, &ledger);
        drop(world);
        ledger.assert_all_dropped();
    }
}

/// The smallest overwrite whose replaced value panics in `Drop`: `insert_bundle((A, B))` on an
/// entity holding a panicking `A` stores the new `A` and the `B` after it, and the `B`'s
/// `OnAdd` observer runs, before the panic reaches the caller: the whole call, never half.
#[test]
fn a_panicking_drop_of_a_replaced_value_leaves_the_whole_bundle_written() {
    let ledger = Ledger::default();
    let mut world = World::new();
    let seen = Arc::new(AtomicUsize::new(0));
    let counter = Arc::clone(&seen);
    world.observe(move |_: OnAdd<B>| {
        counter.fetch_add(1, Ordering::SeqCst);
    });
    let e = world.spawn(A(ledger.bomb()));
    let (a, b) = (ledger.token(), ledger.token());
    let (a_id, b_id) = (a.id, b.id);
    let result = catch_unwind(AssertUnwindSafe(|| world.insert_bundle(e, (A(a), B(b)))));
    assert_panicked(result, "intentional panic in Drop");
    assert_eq!(world.get::<A>(e).map(|v| v.0.id), Ok(a_id));
    assert_eq!(world.get::<B>(e).map(|v| v.0.id), Ok(b_id));
    assert_eq!(seen.load(Ordering::SeqCst), 1, "B's observer ran");
    assert_eq!(ledger.live_ids(), BTreeSet::from([a_id, b_id]));
    drop(world);
    ledger.assert_all_dropped();
}

/// A value handed back by `remove` or by an overwriting `insert` panics when the caller drops
/// it: the world is not involved and is unchanged beyond the remove / insert itself.
#[test]
fn panic_in_drop_of_a_removed_or_replaced_value() {
    for grouped in [false, true] {
        let ledger = Ledger::default();
        let (mut world, mut model) = small_world(&ledger, grouped);
        let (&e, _) = model.live().iter().next().expect("20 entities");
        world.insert(e, A(ledger.bomb())).map(drop).expect("alive");
        let bomb = world.get::<A>(e).expect("has A").mirror();
        model.insert(e, ka(), bomb);

        let result = catch_unwind(AssertUnwindSafe(|| drop(world.remove::<A>(e))));
        assert_panicked(result, "intentional panic in Drop");
        model.remove(e, ka());
        assert_world(&world, &model, &ledger, &[]);

        let bomb = ledger.bomb();
        model.insert(e, ka(), id(&bomb));
        world.insert(e, A(bomb)).expect("alive");
        let replacement = ledger.token();
        let replacement_id = replacement.id;
        let result = catch_unwind(AssertUnwindSafe(|| drop(world.insert(e, A(replacement)))));
        assert_panicked(result, "intentional panic in Drop");
        model.insert(e, ka(), Value::U64(replacement_id));
        assert_world(&world, &model, &ledger, &[]);
        assert_usable(&mut world, &mut model, &ledger);
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

// ---------------------------------------------------------------------------------------------
// Two panicking Drops in one call
// ---------------------------------------------------------------------------------------------

/// A value whose `Drop` always panics, even while another panic unwinds, as a game's own types
/// do (the ledger's bombs hold back then): dropped during an unwind, it aborts the process.
/// Counts its drops.
#[derive(Component)]
struct Grenade(Arc<AtomicUsize>);

impl Drop for Grenade {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
        panic!("grenade went off");
    }
}

/// The variable that tells a child process which test's scenario to run.
const CHILD_VAR: &str = "ECS_PANIC_SAFETY_CHILD";

/// Runs `scenario` in a child process: this test binary again, filtered to the test `name`
/// (which must be the calling test), with [`CHILD_VAR`] naming it. Here, the child must have
/// run exactly that one test and passed it, so a process abort (a panic while unwinding) fails
/// the test instead of killing the test runner.
fn in_child_process(name: &str, scenario: impl FnOnce()) {
    if std::env::var(CHILD_VAR).as_deref() == Ok(name) {
        scenario();
        return;
    }
    // The harness names a test by its path inside the binary, without the binary's own name.
    let module = module_path!().split_once("::").map_or("", |(_, m)| m);
    let path = format!("{module}::{name}");
    let exe = std::env::current_exe().expect("the test binary's path");
    let output = Command::new(exe)
        .args([path.as_str(), "--exact", "--nocapture", "--test-threads=1"])
        .env(CHILD_VAR, name)
        .output()
        .expect("the test binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success() && stdout.contains("test result: ok. 1 passed"),
        "the child process running {name} ended with {}\nstdout:\n{stdout}\nstderr:\n{stderr}",
        output.status
    );
}

/// `clear` over two entities holding a `Grenade` each (one storage, beside ordinary values):
/// every value is dropped, the caller sees one panic (the first), the world is empty, and it
/// stays usable.
#[test]
fn clear_with_two_panicking_drops_in_one_storage() {
    in_child_process("clear_with_two_panicking_drops_in_one_storage", || {
        for grouped in [false, true] {
            let ledger = Ledger::default();
            let (mut world, mut model) = small_world(&ledger, grouped);
            let drops = Arc::new(AtomicUsize::new(0));
            let first = world.spawn((N(1), Grenade(drops.clone())));
            adopt(&world, &mut model, first);
            let second = world.spawn((Grenade(drops.clone()), A(ledger.token())));
            adopt(&world, &mut model, second);
            let old_ids: Vec<Entity> = model.live().keys().copied().collect();
            let result = catch_unwind(AssertUnwindSafe(|| world.clear()));
            assert_panicked(result, "grenade went off");
            assert_eq!(drops.load(Ordering::SeqCst), 2, "both grenades dropped");
            assert!(world.is_empty());
            assert!(old_ids.iter().all(|&old| !world.is_alive(old)));
            assert_eq!(world.query_ref::<&Grenade>().iter().count(), 0);
            assert!(ledger.live_ids().is_empty(), "every other value dropped");
            ledger.assert_no_errors();
            let stats = world.stats();
            assert_eq!((stats.components, stats.free_slots), (0, 22));
            // Usable: the grenades' storage too.
            let e = world.spawn((A(ledger.token()), N(5)));
            assert_eq!(e.version(), 2, "a freed slot is reused");
            world.insert(e, Grenade(drops.clone())).expect("alive");
            let grenade = world.remove::<Grenade>(e).expect("has a Grenade");
            assert_eq!(world.get::<N>(e), Ok(&N(5)));
            // Dropped, not forgotten: forgotten, it would keep its clone of `drops` alive, and
            // the count below checks that no grenade the world dropped kept one.
            assert_panicked(
                catch_unwind(AssertUnwindSafe(|| drop(grenade))),
                "grenade went off",
            );
            assert_eq!(drops.load(Ordering::SeqCst), 3);
            drop(world);
            ledger.assert_all_dropped();
            // Each grenade holds a clone of `drops`: this one is the last.
            assert_eq!(Arc::strong_count(&drops), 1, "no grenade left");
        }
    });
}

/// Dropping a world that holds a `Grenade` component and a `Grenade` resource, and one that
/// holds two `Grenade` components: every value is dropped and the caller sees one panic. A
/// world holding a `Grenade`, dropped while another panic unwinds, does not abort either.
#[test]
fn world_drop_with_two_panicking_drops() {
    in_child_process("world_drop_with_two_panicking_drops", || {
        for two_components in [false, true] {
            let ledger = Ledger::default();
            let (mut world, _) = small_world(&ledger, false);
            let drops = Arc::new(AtomicUsize::new(0));
            world.spawn((Grenade(drops.clone()), A(ledger.token())));
            if two_components {
                world.spawn(Grenade(drops.clone()));
            } else {
                world.insert_resource(Grenade(drops.clone()));
            }
            world.insert_resource(ledger.token());
            assert_panicked(
                catch_unwind(AssertUnwindSafe(|| drop(world))),
                "grenade went off",
            );
            assert_eq!(drops.load(Ordering::SeqCst), 2, "both grenades dropped");
            assert_eq!(Arc::strong_count(&drops), 1, "no grenade left");
            ledger.assert_all_dropped();
        }

        // Dropped while another panic unwinds: that panic reaches the caller, and the grenade's
        // is dropped rather than raised a second time.
        let ledger = Ledger::default();
        let (mut world, _) = small_world(&ledger, false);
        let drops = Arc::new(AtomicUsize::new(0));
        world.spawn(Grenade(drops.clone()));
        let result = catch_unwind(AssertUnwindSafe(move || {
            let _world = world;
            panic!("the game's own panic");
        }));
        assert_panicked(result, "the game's own panic");
        assert_eq!(drops.load(Ordering::SeqCst), 1);
        assert_eq!(Arc::strong_count(&drops), 1, "no grenade left");
        ledger.assert_all_dropped();
    });
}
