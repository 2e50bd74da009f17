//! Worlds with more component types than the per-entity component mask tracks (the first 64
//! component ids; despawn and `components_of` scan the storages beyond it), checked against a
//! model under random spawn / insert / remove / despawn / clear, with a group among the
//! unmasked types and every value drop-counted.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicIsize, Ordering};

use ecs_core::prelude::*;

/// Counts the values alive (made and not yet dropped) of one test.
#[derive(Clone, Default)]
struct Counter(Arc<AtomicIsize>);

impl Counter {
    fn live(&self) -> isize {
        self.0.load(Ordering::SeqCst)
    }
}

/// Part of every component: increments its counter when made, decrements it when dropped.
struct Counted(Counter);

impl Counted {
    fn new(counter: &Counter) -> Self {
        counter.0.fetch_add(1, Ordering::SeqCst);
        Counted(counter.clone())
    }
}

impl Drop for Counted {
    fn drop(&mut self) {
        (self.0).0.fetch_sub(1, Ordering::SeqCst);
    }
}

/// One of 72 distinct component types.
#[derive(Component)]
struct C<const N: usize> {
    value: u32,
    _counted: Counted,
}

impl<const N: usize> C<N> {
    fn new(value: u32, counter: &Counter) -> Self {
        C {
            value,
            _counted: Counted::new(counter),
        }
    }
}

/// Number of component types used: past the 64 the mask tracks.
const TYPES: usize = 72;

/// Runs `$body` with `$N` the const `$n` (a `usize` below [`TYPES`]).
macro_rules! with_n {
    ($n:expr, $N:ident => $body:expr) => {
        with_n!(@arms $n, $N => $body;
            0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
            32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60
            61 62 63 64 65 66 67 68 69 70 71)
    };
    (@arms $n:expr, $N:ident => $body:expr; $($k:literal)*) => {
        match $n {
            $($k => {
                const $N: usize = $k;
                $body
            })*
            other => unreachable!("type {other} out of range"),
        }
    };
}

/// xorshift64*: deterministic, so a failure reproduces.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

type Model = BTreeMap<Entity, BTreeMap<usize, u32>>;

/// Inserts `C<n>(value)` on the live `e`; the value it replaces.
fn insert(world: &mut World, e: Entity, n: usize, value: u32, counter: &Counter) -> Option<u32> {
    with_n!(n, N => {
        let old = world.insert(e, C::<N>::new(value, counter));
        old.expect("alive").map(|c| c.value)
    })
}

/// Everything observable about every live entity matches the model: values through `get`,
/// `contains`, the exact list of `components_of` (names `C<n>`, in registration order, which
/// here is first-use order), and the counts in `stats`.
fn check(world: &World, model: &Model, counter: &Counter, order: &[usize]) {
    assert_eq!(world.len(), model.len());
    for (&e, held) in model {
        // Every type it holds, and every type around the mask's edge; `components_of` below
        // covers the rest (it lists exactly what the world thinks the entity holds).
        let probed = held.keys().copied().chain(60..TYPES);
        for n in probed {
            let got = with_n!(n, N => world.get::<C<N>>(e).ok().map(|c| c.value));
            assert_eq!(got, held.get(&n).copied(), "{e:?} C<{n}>");
            let has = with_n!(n, N => world.contains::<C<N>>(e));
            assert_eq!(has, held.contains_key(&n));
        }
        let names: Vec<String> = world
            .components_of(e)
            .expect("alive")
            .map(|info| info.name().to_owned())
            .collect();
        let expected: Vec<String> = order
            .iter()
            .filter(|n| held.contains_key(n))
            .map(|n| format!("C<{n}>"))
            .collect();
        assert_eq!(names, expected, "components_of({e:?})");
    }
    let total: usize = model.values().map(BTreeMap::len).sum();
    let stats = world.stats();
    assert_eq!(stats.components, total, "stats.components");
    assert_eq!(
        stats.live_entities + stats.free_slots + stats.retired_slots,
        stats.entity_slots
    );
    assert_eq!(counter.live(), total as isize, "values alive vs held");
}

/// Random operations over 72 component types (ids past the 64-bit mask included, a group of
/// two types whose ids are past the mask, slot reuse after despawn and clear) keep the world
/// equal to the model (checked every third step and at the end); despawn drops every value
/// exactly once, masked or not, and a reused slot never shows its previous occupant's
/// components.
#[test]
fn more_component_types_than_the_mask_tracks() {
    let counter = Counter::default();
    let mut world = World::new();
    let mut model = Model::new();
    let mut order: Vec<usize> = Vec::new();
    let mut rng = Rng(0x1234_5678_9abc_def1);
    // Register every type, in a shuffled order, so ids and type numbers differ.
    let mut types: Vec<usize> = (0..TYPES).collect();
    for i in (1..types.len()).rev() {
        types.swap(i, rng.below(i + 1));
    }
    // The grouped types get the last ids, past the mask.
    types.retain(|&n| n < 70);
    types.extend([70, 71]);
    let probe = world.spawn(());
    for &n in &types {
        assert_eq!(insert(&mut world, probe, n, 0, &counter), None);
        order.push(n);
    }
    world.despawn(probe).expect("alive");
    world.group::<(C<70>, C<71>)>().expect("a new group");

    for step in 0..2400 {
        let live: Vec<Entity> = model.keys().copied().collect();
        match rng.below(20) {
            0..=5 => {
                let e = world.spawn(());
                let mut held = BTreeMap::new();
                for _ in 0..rng.below(6) {
                    // Favour the ids past the mask and the group's types.
                    let n = if rng.below(2) == 0 {
                        TYPES - 1 - rng.below(10)
                    } else {
                        rng.below(TYPES)
                    };
                    let value = step as u32;
                    let old = insert(&mut world, e, n, value, &counter);
                    assert_eq!(old, held.insert(n, value));
                }
                model.insert(e, held);
            }
            6..=9 if !live.is_empty() => {
                let e = live[rng.below(live.len())];
                let n = rng.below(TYPES);
                let value = step as u32;
                let old = insert(&mut world, e, n, value, &counter);
                assert_eq!(old, model.get_mut(&e).expect("alive").insert(n, value));
            }
            10..=13 if !live.is_empty() => {
                let e = live[rng.below(live.len())];
                let n = rng.below(TYPES);
                let got = with_n!(n, N => world.remove::<C<N>>(e).ok().map(|c| c.value));
                assert_eq!(got, model.get_mut(&e).expect("alive").remove(&n));
            }
            14..=17 if !live.is_empty() => {
                let e = live[rng.below(live.len())];
                world.despawn(e).expect("alive");
                model.remove(&e);
                assert!(!world.is_alive(e));
                assert!(world.components_of(e).is_err());
            }
            18 if rng.below(20) == 0 => {
                world.clear();
                model.clear();
            }
            _ => {}
        }
        if step % 3 == 0 {
            check(&world, &model, &counter, &order);
        }
    }
    check(&world, &model, &counter, &order);
    // The group still serves its query, row-aligned, with exactly the entities holding both.
    let mut query = world.query::<(Entity, &C<70>, &C<71>)>();
    let (entities, a, b) = query.slices().expect("grouped");
    assert!(entities.len() == a.len() && a.len() == b.len());
    for (i, e) in entities.iter().enumerate() {
        let held = &model[e];
        assert_eq!(
            (held.get(&70), held.get(&71)),
            (Some(&a[i].value), Some(&b[i].value))
        );
    }
    let both = model
        .values()
        .filter(|h| h.contains_key(&70) && h.contains_key(&71))
        .count();
    assert_eq!(entities.len(), both);
    drop(world);
    assert_eq!(counter.live(), 0, "every value dropped exactly once");
}
