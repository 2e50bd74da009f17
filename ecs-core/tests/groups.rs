//! Owning groups: declaration rules and errors, and a model test proving that a
//! group's slices always hold exactly the entities with every owned type, row
//! by row, whatever sequence of structural changes came before.

use std::collections::BTreeMap;

use ecs_core::prelude::*;
use proptest::prelude::*;

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct A(u32);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct B(u32);
#[derive(Component, Clone, Debug, PartialEq)]
struct C(String);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct D;

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

#[derive(Clone, Debug, Default, PartialEq)]
struct Held {
    a: Option<A>,
    b: Option<B>,
    c: Option<C>,
    d: bool,
}

/// Checks both groups' slices against the model: same set of entities, and in
/// each row the values of that entity.
fn check(world: &mut World, model: &BTreeMap<Entity, Held>) {
    let mut query = world.query::<(Entity, &A, &B)>();
    let (entities, a, b) = query.slices().unwrap();
    assert_eq!((entities.len(), a.len()), (b.len(), b.len()));
    let mut rows: Vec<_> = (0..entities.len())
        .map(|i| (entities[i], a[i], b[i]))
        .collect();
    rows.sort_by_key(|row| row.0);
    let expected: Vec<_> = model
        .iter()
        .filter_map(|(&e, h)| Some((e, h.a?, h.b?)))
        .collect();
    assert_eq!(rows, expected, "group (A, B)");

    let mut query = world.query::<(Entity, &C, &D)>();
    let (entities, c, _) = query.slices().unwrap();
    let mut rows: Vec<_> = (0..entities.len())
        .map(|i| (entities[i], c[i].clone()))
        .collect();
    rows.sort_by_key(|row| row.0);
    let expected: Vec<_> = model
        .iter()
        .filter(|(_, h)| h.d)
        .filter_map(|(&e, h)| Some((e, h.c.clone()?)))
        .collect();
    assert_eq!(rows, expected, "group (C, D)");

    // The ordinary iteration path agrees, prefix and tail alike.
    let mut seen: Vec<_> = world
        .query::<(Entity, &A, &B)>()
        .iter()
        .map(|(e, a, b)| (e, *a, *b))
        .collect();
    seen.sort_by_key(|row| row.0);
    let expected: Vec<_> = model
        .iter()
        .filter_map(|(&e, h)| Some((e, h.a?, h.b?)))
        .collect();
    assert_eq!(seen, expected, "iteration over (A, B)");
}

fn run(ops: Vec<Op>, declare_first: bool) {
    let mut world = World::new();
    let mut model: BTreeMap<Entity, Held> = BTreeMap::new();
    let declare = |world: &mut World| {
        world.group::<(A, B)>().unwrap();
        world.group::<(D, C)>().unwrap();
    };
    if declare_first {
        declare(&mut world);
    }
    let mut counter = 0u32;
    for (step, op) in ops.into_iter().enumerate() {
        counter += 1;
        apply(&mut world, &mut model, op, counter);
        if !declare_first && step == 10 {
            declare(&mut world);
        }
        if declare_first || step >= 10 {
            check(&mut world, &model);
        }
    }
}

/// Applies one operation to the world and the model alike.
fn apply(world: &mut World, model: &mut BTreeMap<Entity, Held>, op: Op, counter: u32) {
    let live: Vec<Entity> = model.keys().copied().collect();
    let pick = |i: usize| (!live.is_empty()).then(|| live[i % live.len()]);
    {
        match op {
            Op::Spawn { a, b, c, d } => {
                let e = world.spawn(());
                let mut held = Held::default();
                if a {
                    world.insert(e, A(counter)).unwrap();
                    held.a = Some(A(counter));
                }
                if b {
                    world.insert(e, B(counter)).unwrap();
                    held.b = Some(B(counter));
                }
                if c {
                    world.insert(e, C(counter.to_string())).unwrap();
                    held.c = Some(C(counter.to_string()));
                }
                if d {
                    world.insert(e, D).unwrap();
                    held.d = true;
                }
                model.insert(e, held);
            }
            Op::Insert { pick: i, which } => {
                let Some(e) = pick(i) else { return };
                let held = model.get_mut(&e).unwrap();
                match which {
                    0 => {
                        world.insert(e, A(counter)).unwrap();
                        held.a = Some(A(counter));
                    }
                    1 => {
                        world.insert(e, B(counter)).unwrap();
                        held.b = Some(B(counter));
                    }
                    2 => {
                        world.insert(e, C(counter.to_string())).unwrap();
                        held.c = Some(C(counter.to_string()));
                    }
                    _ => {
                        world.insert(e, D).unwrap();
                        held.d = true;
                    }
                }
            }
            Op::Remove { pick: i, which } => {
                let Some(e) = pick(i) else { return };
                let held = model.get_mut(&e).unwrap();
                match which {
                    0 => assert_eq!(world.remove::<A>(e).ok(), held.a.take()),
                    1 => assert_eq!(world.remove::<B>(e).ok(), held.b.take()),
                    2 => assert_eq!(world.remove::<C>(e).ok(), held.c.take()),
                    _ => {
                        assert_eq!(world.remove::<D>(e).is_ok(), held.d);
                        held.d = false;
                    }
                }
            }
            Op::Despawn { pick: i } => {
                let Some(e) = pick(i) else { return };
                world.despawn(e).unwrap();
                model.remove(&e);
            }
            Op::Bump => {
                world
                    .query::<(&mut A, &B)>()
                    .for_each(|(a, _)| a.0 += 1_000_000);
                for held in model.values_mut() {
                    if let (Some(a), Some(_)) = (&mut held.a, held.b) {
                        a.0 += 1_000_000;
                    }
                }
            }
            Op::Clear => {
                world.clear();
                model.clear();
            }
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
