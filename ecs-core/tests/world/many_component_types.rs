//! Worlds with more component types than the per-entity component mask tracks (the first 64
//! component ids; despawn and `components_of` scan the storages beyond it), checked against a
//! model under random spawn / insert / remove / despawn / clear, with a group among the
//! unmasked types and every value in a drop ledger.

use std::any::type_name;
use std::borrow::Cow;

use ecs_core::prelude::*;
use ecs_testkit::{DeadIds, Key, Ledger, Mirror, Model, Token, Value};

/// One of 72 distinct component types; every value is a value of the test's ledger.
#[derive(Component)]
struct C<const N: usize> {
    value: u32,
    _token: Token,
}

impl<const N: usize> C<N> {
    fn new(value: u32, ledger: &Ledger) -> Self {
        C {
            value,
            _token: ledger.token(),
        }
    }
}

impl<const N: usize> Mirror for C<N> {
    fn short_name() -> Cow<'static, str> {
        format!("C<{N}>").into()
    }
    fn mirror(&self) -> Value {
        Value::U32(self.value)
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

/// The model's key of `C<n>`.
fn key(n: usize) -> Key {
    with_n!(n, N => Key::of::<C<N>>())
}

/// Inserts `C<n>(value)` on the live `e` in the world and the model; both must replace the same
/// value.
fn insert(world: &mut World, model: &mut Model, e: Entity, n: usize, value: u32, ledger: &Ledger) {
    let old = with_n!(n, N => world.insert(e, C::<N>::new(value, ledger)).map(|old| old.map(|c| c.mirror())));
    assert_eq!(
        old,
        Ok(model.insert(e, key(n), Value::U32(value))),
        "insert C<{n}> on {e:?}"
    );
}

/// Everything observable about every live entity matches the model: values through `get` and
/// `contains` (every type it holds, and every type around the mask's edge), the exact list of
/// `components_of` (names `C<n>`, in registration order, which here is first-use order), `stats`,
/// dead ids; and the ledger's live values are exactly the values the world holds.
fn check(world: &World, model: &Model, ledger: &Ledger) {
    model.assert_stats(world);
    model.assert_world(world, DeadIds::Recent);
    let total: usize = model.registered().iter().map(|&k| model.count(k)).sum();
    assert_eq!(ledger.live(), total, "values alive vs held");
    ledger.assert_no_errors();
}

/// Random operations over 72 component types (ids past the 64-bit mask included, a group of
/// two types whose ids are past the mask, slot reuse after despawn and clear) keep the world
/// equal to the model (checked every third step and at the end); despawn drops every value
/// exactly once, masked or not, and a reused slot never shows its previous occupant's
/// components.
#[test]
fn more_component_types_than_the_mask_tracks() {
    let ledger = Ledger::default();
    let mut world = World::new();
    // Every type it holds is checked on every entity, and so is every type around the mask's
    // edge; `components_of` covers the rest (it lists exactly what the world thinks it holds).
    let mut model = Model::probing((60..TYPES).map(key));
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
    assert_eq!(model.spawn([]), probe);
    for &n in &types {
        insert(&mut world, &mut model, probe, n, 0, &ledger);
    }
    world.despawn(probe).expect("alive");
    model.despawn(probe);
    let grouped = world.group::<(C<70>, C<71>)>();
    assert_eq!(grouped, Ok(()), "a new group");
    assert_eq!(
        model.group(type_name::<(C<70>, C<71>)>(), &[key(70), key(71)]),
        grouped
    );

    for step in 0..2400 {
        let live: Vec<Entity> = model.live().keys().copied().collect();
        match rng.below(20) {
            0..=5 => {
                let e = world.spawn(());
                assert_eq!(model.spawn([]), e, "spawned id");
                for _ in 0..rng.below(6) {
                    // Favour the ids past the mask and the group's types.
                    let n = if rng.below(2) == 0 {
                        TYPES - 1 - rng.below(10)
                    } else {
                        rng.below(TYPES)
                    };
                    insert(&mut world, &mut model, e, n, step as u32, &ledger);
                }
            }
            6..=9 if !live.is_empty() => {
                let e = live[rng.below(live.len())];
                let n = rng.below(TYPES);
                insert(&mut world, &mut model, e, n, step as u32, &ledger);
            }
            10..=13 if !live.is_empty() => {
                let e = live[rng.below(live.len())];
                let n = rng.below(TYPES);
                let got = with_n!(n, N => world.remove::<C<N>>(e).map(|c| c.mirror()));
                let expected = model.lookup(e, key(n));
                if expected.is_ok() {
                    model.remove(e, key(n));
                }
                assert_eq!(got, expected, "remove C<{n}> from {e:?}");
            }
            14..=17 if !live.is_empty() => {
                let e = live[rng.below(live.len())];
                world.despawn(e).expect("alive");
                model.despawn(e);
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
            check(&world, &model, &ledger);
        }
    }
    check(&world, &model, &ledger);
    // The group still serves its query, row-aligned, with exactly the entities holding both.
    let mut query = world.query::<(Entity, &C<70>, &C<71>)>();
    let (entities, a, b) = query.slices().expect("grouped");
    assert!(entities.len() == a.len() && a.len() == b.len());
    for (i, &e) in entities.iter().enumerate() {
        assert_eq!(
            (model.get(e, key(70)), model.get(e, key(71))),
            (Some(&a[i].mirror()), Some(&b[i].mirror()))
        );
    }
    let both = model
        .live()
        .values()
        .filter(|held| held.contains_key(&key(70)) && held.contains_key(&key(71)))
        .count();
    assert_eq!(entities.len(), both);
    drop(world);
    ledger.assert_all_dropped();
}
