//! Owning groups: declaration rules and errors, and a model test (on the test kit's
//! `Model`) proving that a group's slices always hold exactly the entities with every
//! owned type, row by row, whatever sequence of structural changes came before.

use std::any::type_name;
use std::borrow::Cow;

use ecs_core::prelude::*;
use ecs_testkit::{DeadIds, Key, Mirror, Model, Record, Value};
use proptest::prelude::*;

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct A(u32);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct B(u32);
#[derive(Component, Clone, Debug, PartialEq)]
struct C(String);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct D;

impl Mirror for A {
    fn short_name() -> Cow<'static, str> {
        "A".into()
    }
    fn mirror(&self) -> Value {
        Value::U32(self.0)
    }
}

impl Mirror for B {
    fn short_name() -> Cow<'static, str> {
        "B".into()
    }
    fn mirror(&self) -> Value {
        Value::U32(self.0)
    }
}

impl Mirror for C {
    fn short_name() -> Cow<'static, str> {
        "C".into()
    }
    fn mirror(&self) -> Value {
        Value::Text(self.0.clone())
    }
}

impl Mirror for D {
    fn short_name() -> Cow<'static, str> {
        "D".into()
    }
    fn mirror(&self) -> Value {
        Value::Unit
    }
}

/// A group needs two distinct types; the same group twice is fine; a type in two
/// groups is an error naming both.
#[test]
fn declaration_rules() {
    let mut world = World::new();
    assert_eq!(
        world.group::<(A, A)>().unwrap_err().to_string(),
        "the group `(A, A)` needs at least two distinct component types"
    );
    world.group::<(A, B)>().unwrap();
    world.group::<(B, A)>().unwrap();
    let err = world.group::<(C, B)>().unwrap_err();
    assert!(matches!(err, Error::GroupConflict { .. }), "{err:?}");
    assert_eq!(
        err.to_string(),
        "cannot declare the group `(C, B)`: `B` is already owned by the group `(A, B)`, \
         and a component type can belong to one group only"
    );
    world.group::<(C, D)>().unwrap();
}

/// `slices` refuses queries a group does not serve exactly.
#[test]
fn slices_need_exactly_one_group_and_no_filter() {
    let mut world = World::new();
    world.group::<(A, B)>().unwrap();
    world.spawn((A(1), B(1), D));
    assert!(world.query::<(&A, &B)>().slices().is_ok());
    assert!(world.query::<(&B, &mut A, Entity)>().slices().is_ok());
    let not_grouped = |e: Error| matches!(e, Error::NotGrouped { .. });
    assert!(not_grouped(world.query::<&A>().slices().unwrap_err()));
    assert!(not_grouped(
        world.query::<(&A, &B, &D)>().slices().unwrap_err()
    ));
    assert!(not_grouped(
        world.query::<(&A, &B)>().with::<D>().slices().unwrap_err()
    ));
    assert!(not_grouped(world.query::<(&C, &D)>().slices().unwrap_err()));
    assert_eq!(
        world.query::<&A>().slices().unwrap_err().to_string(),
        "the query `&A` is not served by a group: declare one with exactly its components \
         (`world.group::<(A, B)>()`) and use no filter to get its slices"
    );
}

/// A query over part of a group still finds the entities outside the prefix.
#[test]
fn queries_over_part_of_a_group_see_everyone() {
    let mut world = World::new();
    world.group::<(A, B, C)>().unwrap();
    let full = world.spawn((A(1), B(1), C("x".into())));
    let partial = world.spawn((A(2), B(2)));
    let mut seen: Vec<_> = world
        .query::<(Entity, &A, &B)>()
        .iter()
        .map(|(e, ..)| e)
        .collect();
    seen.sort();
    assert_eq!(seen, [full, partial]);
}

#[derive(Clone, Debug)]
enum Op {
    Spawn { a: bool, b: bool, c: bool, d: bool },
    Insert { pick: usize, which: u8 },
    Remove { pick: usize, which: u8 },
    Despawn { pick: usize },
    Bump,
    Clear,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>())
            .prop_map(|(a, b, c, d)| Op::Spawn { a, b, c, d }),
        3 => (any::<usize>(), 0..4u8).prop_map(|(pick, which)| Op::Insert { pick, which }),
        3 => (any::<usize>(), 0..4u8).prop_map(|(pick, which)| Op::Remove { pick, which }),
        2 => any::<usize>().prop_map(|pick| Op::Despawn { pick }),
        1 => Just(Op::Bump),
        1 => Just(Op::Clear),
    ]
}

/// What the model says an entity holds of `A`, `B` and `C`.
fn held(record: &Record) -> (Option<A>, Option<B>, Option<C>, bool) {
    let number = |key: Key| match record.get(&key) {
        Some(Value::U32(n)) => Some(*n),
        _ => None,
    };
    let c = match record.get(&Key::of::<C>()) {
        Some(Value::Text(s)) => Some(C(s.clone())),
        _ => None,
    };
    (
        number(Key::of::<A>()).map(A),
        number(Key::of::<B>()).map(B),
        c,
        record.contains_key(&Key::of::<D>()),
    )
}

/// Checks both groups' slices against the model: same set of entities, and in
/// each row the values of that entity; and the world's stats against the model's.
fn check(world: &mut World, model: &Model) {
    model.assert_stats(world);
    let held: Vec<_> = model.live().iter().map(|(&e, r)| (e, held(r))).collect();
    let mut query = world.query::<(Entity, &A, &B)>();
    let (entities, a, b) = query.slices().unwrap();
    assert_eq!((entities.len(), a.len()), (b.len(), b.len()));
    let mut rows: Vec<_> = (0..entities.len())
        .map(|i| (entities[i], a[i], b[i]))
        .collect();
    rows.sort_by_key(|row| row.0);
    let expected: Vec<_> = held
        .iter()
        .filter_map(|(e, (a, b, _, _))| Some((*e, (*a)?, (*b)?)))
        .collect();
    assert_eq!(rows, expected, "group (A, B)");

    let mut query = world.query::<(Entity, &C, &D)>();
    let (entities, c, _) = query.slices().unwrap();
    let mut rows: Vec<_> = (0..entities.len())
        .map(|i| (entities[i], c[i].clone()))
        .collect();
    rows.sort_by_key(|row| row.0);
    let expected: Vec<_> = held
        .iter()
        .filter(|(_, (.., d))| *d)
        .filter_map(|(e, (_, _, c, _))| Some((*e, c.clone()?)))
        .collect();
    assert_eq!(rows, expected, "group (C, D)");

    // The ordinary iteration path agrees, prefix and tail alike.
    let mut seen: Vec<_> = world
        .query::<(Entity, &A, &B)>()
        .iter()
        .map(|(e, a, b)| (e, *a, *b))
        .collect();
    seen.sort_by_key(|row| row.0);
    let expected: Vec<_> = held
        .iter()
        .filter_map(|(e, (a, b, _, _))| Some((*e, (*a)?, (*b)?)))
        .collect();
    assert_eq!(seen, expected, "iteration over (A, B)");
}

/// Declares the groups `(A, B)` and `(D, C)` in the world and the model.
fn declare(world: &mut World, model: &mut Model) {
    world.group::<(A, B)>().unwrap();
    let ab = [Key::of::<A>(), Key::of::<B>()];
    assert_eq!(model.group(type_name::<(A, B)>(), &ab), Ok(()));
    world.group::<(D, C)>().unwrap();
    let dc = [Key::of::<D>(), Key::of::<C>()];
    assert_eq!(model.group(type_name::<(D, C)>(), &dc), Ok(()));
}

fn run(ops: Vec<Op>, declare_first: bool) {
    let mut world = World::new();
    let keys = [
        Key::of::<A>(),
        Key::of::<B>(),
        Key::of::<C>(),
        Key::of::<D>(),
    ];
    let mut model = Model::probing(keys);
    if declare_first {
        declare(&mut world, &mut model);
    }
    let mut counter = 0u32;
    for (step, op) in ops.into_iter().enumerate() {
        counter += 1;
        apply(&mut world, &mut model, op, counter);
        if !declare_first && step == 10 {
            declare(&mut world, &mut model);
        }
        if declare_first || step >= 10 {
            check(&mut world, &model);
        }
    }
    model.assert_world(&world, DeadIds::All);
}

/// Inserts `value` on the live `e` in the world and the model; both replace the same value.
fn insert<T: Mirror>(world: &mut World, model: &mut Model, e: Entity, value: T) {
    let expected = model.insert(e, Key::of::<T>(), value.mirror());
    let got = world.insert(e, value).map(|old| old.map(|c| c.mirror()));
    assert_eq!(got, Ok(expected), "insert on {e:?}");
}

/// Removes `T` from the live `e` in the world and the model; both must give the same value.
fn remove<T: Mirror>(world: &mut World, model: &mut Model, e: Entity) {
    let got = world.remove::<T>(e).ok().map(|c| c.mirror());
    assert_eq!(got, model.remove(e, Key::of::<T>()), "remove from {e:?}");
}

/// Applies one operation to the world and the model alike.
fn apply(world: &mut World, model: &mut Model, op: Op, counter: u32) {
    let live: Vec<Entity> = model.live().keys().copied().collect();
    let pick = |i: usize| (!live.is_empty()).then(|| live[i % live.len()]);
    match op {
        Op::Spawn { a, b, c, d } => {
            let e = world.spawn(());
            assert_eq!(model.spawn([]), e, "spawned id");
            if a {
                insert(world, model, e, A(counter));
            }
            if b {
                insert(world, model, e, B(counter));
            }
            if c {
                insert(world, model, e, C(counter.to_string()));
            }
            if d {
                insert(world, model, e, D);
            }
        }
        Op::Insert { pick: i, which } => {
            let Some(e) = pick(i) else { return };
            match which {
                0 => insert(world, model, e, A(counter)),
                1 => insert(world, model, e, B(counter)),
                2 => insert(world, model, e, C(counter.to_string())),
                _ => insert(world, model, e, D),
            }
        }
        Op::Remove { pick: i, which } => {
            let Some(e) = pick(i) else { return };
            match which {
                0 => remove::<A>(world, model, e),
                1 => remove::<B>(world, model, e),
                2 => remove::<C>(world, model, e),
                _ => remove::<D>(world, model, e),
            }
        }
        Op::Despawn { pick: i } => {
            let Some(e) = pick(i) else { return };
            world.despawn(e).unwrap();
            model.despawn(e);
        }
        Op::Bump => {
            world
                .query::<(&mut A, &B)>()
                .for_each(|(a, _)| a.0 += 1_000_000);
            let bumped: Vec<(Entity, A)> = model
                .live()
                .iter()
                .filter_map(|(&e, r)| match held(r) {
                    (Some(a), Some(_), ..) => Some((e, A(a.0 + 1_000_000))),
                    _ => None,
                })
                .collect();
            for (e, a) in bumped {
                model.insert(e, Key::of::<A>(), a.mirror());
            }
        }
        Op::Clear => {
            world.clear();
            model.clear();
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: std::env::var("ECS_MODEL_CASES").ok().and_then(|n| n.parse().ok()).unwrap_or(256),
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Groups declared on an empty world, then random structural changes.
    #[test]
    fn group_slices_match_the_model(ops in proptest::collection::vec(op(), 0..120)) {
        run(ops, true);
    }

    /// Groups declared after the world already holds entities.
    #[test]
    fn groups_declared_late_match_the_model(ops in proptest::collection::vec(op(), 11..120)) {
        run(ops, false);
    }
}
