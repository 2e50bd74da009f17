//! Deterministic tests of every query fetch and filter kind.
//!
//! Almost every test runs on [`fixture`]: ten entities spawned, three despawned, four more
//! spawned, so indices 7, 5 and 2 are reused with version 2, a new index 10 is added, and every
//! storage has been swap-removed. Each test names the exact entities it expects, written out by
//! hand from the table in [`fixture`]'s docs, rather than computed by a second implementation.
//!
//! Kinds covered: `&T`, `&mut T`, `Option<&T>`, `Option<&mut T>`, `Entity`, tuples (up to 16
//! elements), nested tuples, `#[derive(Query)]` structs (also nested), `With`, `Without`, `Or`,
//! tuple filters, chained `.with()` / `.without()` / `.filter()`, `query_ref`, the three
//! `IntoIterator` impls, `single` / `single_mut`, `is_empty`, `contains`, component types the
//! world has never seen, storages that line up (spawned together) or not, and the run-time
//! aliasing check with its panic message.

use std::any::type_name;
use std::panic::{AssertUnwindSafe, catch_unwind};

use ecs_core::prelude::*;

/// Plain-old-data component.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct A(u32);

/// Heap-owning component.
#[derive(Component, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
struct S(String);

/// Tag.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Tag;

/// Second tag.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Mark;

/// A component type no entity in these tests ever holds.
#[derive(Component, Clone, Debug, PartialEq)]
struct Never(String);

macro_rules! small_components {
    ($($name:ident),*) => {
        $(
            /// One of the extra component types of the 16-element tuple.
            #[derive(Component, Clone, Copy, Debug, PartialEq)]
            struct $name(u8);
        )*
    };
}

small_components!(C0, C1, C2, C3, C4, C5, C6, C7, C8, C9, C10, C11);

/// A handle from its parts.
fn ent(index: u32, version: u32) -> Entity {
    Entity::from_bits((u64::from(version) << 32) | u64::from(index)).expect("version is non-zero")
}

fn s(text: &str) -> S {
    S(text.to_owned())
}

/// The world every test starts from.
///
/// | entity | `A`  | `S`    | `Tag` | `Mark` |
/// |--------|------|--------|-------|--------|
/// | 0v1    | 0    | "s0"   | yes   |        |
/// | 1v1    | 1    |        |       | yes    |
/// | 2v2    | 102  |        | yes   | yes    |
/// | 3v1    |      |        | yes   |        |
/// | 4v1    | 4    | "s4"   |       | yes    |
/// | 5v2    |      | "r1"   |       | yes    |
/// | 6v1    | 6    | "s6"   | yes   |        |
/// | 7v2    | 100  | "r0"   | yes   |        |
/// | 8v1    | 8    | "s8"   |       | yes    |
/// | 9v1    | 9    |        | yes   |        |
/// | 10v1   | 103  | "r3"   |       |        |
///
/// Stale: 2v1, 5v1, 7v1 (despawned in that order; the free list is LIFO).
fn fixture() -> World {
    let mut world = World::new();
    for i in 0..10u32 {
        let e = world.spawn(());
        if i != 3 {
            world.insert(e, A(i)).unwrap();
        }
        if i % 2 == 0 {
            world.insert(e, S(format!("s{i}"))).unwrap();
        }
        if i % 3 == 0 {
            world.insert(e, Tag).unwrap();
        }
        if [1, 4, 8].contains(&i) {
            world.insert(e, Mark).unwrap();
        }
    }
    for index in [2, 5, 7] {
        world.despawn(ent(index, 1)).unwrap();
    }
    assert_eq!(world.spawn((A(100), s("r0"), Tag)), ent(7, 2));
    assert_eq!(world.spawn((s("r1"), Mark)), ent(5, 2));
    assert_eq!(world.spawn((Tag, A(102), Mark)), ent(2, 2));
    assert_eq!(world.spawn((A(103), s("r3"))), ent(10, 1));
    world
}

/// Ids the fixture once handed out and then despawned.
const STALE: [(u32, u32); 3] = [(2, 1), (5, 1), (7, 1)];

fn stale() -> impl Iterator<Item = Entity> {
    STALE.iter().map(|&(i, v)| ent(i, v))
}

/// The live entities of the fixture, in index order.
fn all_live() -> Vec<Entity> {
    [
        (0, 1),
        (1, 1),
        (2, 2),
        (3, 1),
        (4, 1),
        (5, 2),
        (6, 1),
        (7, 2),
        (8, 1),
        (9, 1),
        (10, 1),
    ]
    .iter()
    .map(|&(i, v)| ent(i, v))
    .collect()
}

/// `items` sorted by entity.
fn sorted<T: Ord>(mut items: Vec<T>) -> Vec<T> {
    items.sort();
    items
}

/// `(index, version, value)` triples as entity–value pairs.
fn pairs<T: Clone>(rows: &[(u32, u32, T)]) -> Vec<(Entity, T)> {
    rows.iter()
        .map(|(i, v, x)| (ent(*i, *v), x.clone()))
        .collect()
}

fn missing<T: Component>(entity: Entity) -> Error {
    Error::MissingComponent {
        entity,
        component: type_name::<T>(),
    }
}

/// The fixture has the shape the table in [`fixture`] describes: reused indices at version 2,
/// stale handles dead, and direct lookups agreeing with the table.
#[test]
fn fixture_reuses_indices_with_bumped_versions() {
    let world = fixture();
    assert_eq!(world.len(), 11);
    for e in all_live() {
        assert!(world.is_alive(e), "{e:?}");
    }
    for e in stale() {
        assert!(!world.is_alive(e), "{e:?}");
        assert_eq!(world.get::<A>(e), Err(Error::Despawned { entity: e }));
    }
    assert_eq!(world.get::<A>(ent(2, 2)), Ok(&A(102)));
    assert_eq!(world.get::<S>(ent(5, 2)), Ok(&s("r1")));
    assert_eq!(world.get::<A>(ent(3, 1)), Err(missing::<A>(ent(3, 1))));
}

/// `&T` yields exactly the holders of `T` with their values, for a POD, a non-POD and a tag,
/// and `get` answers per entity: the value, `MissingComponent`, `Despawned` or `NeverSpawned`.
#[test]
fn shared_reference_fetch() {
    let mut world = fixture();

    let q = world.query::<(Entity, &A)>();
    let got = sorted(q.iter().map(|(e, a)| (e, *a)).collect());
    let want = pairs(&[
        (0, 1, A(0)),
        (1, 1, A(1)),
        (2, 2, A(102)),
        (4, 1, A(4)),
        (6, 1, A(6)),
        (7, 2, A(100)),
        (8, 1, A(8)),
        (9, 1, A(9)),
        (10, 1, A(103)),
    ]);
    assert_eq!(got, want);
    assert_eq!(q.get(ent(7, 2)).map(|(_, a)| *a), Ok(A(100)));
    assert_eq!(q.get(ent(3, 1)).err(), Some(missing::<A>(ent(3, 1))));
    assert_eq!(
        q.get(ent(7, 1)).err(),
        Some(Error::Despawned { entity: ent(7, 1) })
    );
    assert_eq!(
        q.get(ent(7, 3)).err(),
        Some(Error::NeverSpawned { entity: ent(7, 3) })
    );
    assert_eq!(
        q.get(ent(11, 1)).err(),
        Some(Error::NeverSpawned { entity: ent(11, 1) })
    );

    let q = world.query::<(Entity, &S)>();
    let got = sorted(q.iter().map(|(e, v)| (e, v.clone())).collect());
    let want = pairs(&[
        (0, 1, s("s0")),
        (4, 1, s("s4")),
        (5, 2, s("r1")),
        (6, 1, s("s6")),
        (7, 2, s("r0")),
        (8, 1, s("s8")),
        (10, 1, s("r3")),
    ]);
    assert_eq!(got, want);
    assert_eq!(q.get(ent(1, 1)).err(), Some(missing::<S>(ent(1, 1))));

    let q = world.query::<(Entity, &Tag)>();
    let got = sorted(q.iter().map(|(e, _)| e).collect());
    let want: Vec<Entity> = [(0, 1), (2, 2), (3, 1), (6, 1), (7, 2), (9, 1)]
        .iter()
        .map(|&(i, v)| ent(i, v))
        .collect();
    assert_eq!(got, want);
    assert_eq!(q.get(ent(3, 1)).map(|(_, t)| *t), Ok(Tag));
    assert_eq!(q.get(ent(10, 1)).err(), Some(missing::<Tag>(ent(10, 1))));
}

/// `&mut T` changes exactly the holders of `T` (POD and non-POD), a tag can be fetched
/// mutably, and no other entity's value moves.
#[test]
fn mutable_reference_fetch() {
    let mut world = fixture();
    for a in world.query::<&mut A>().iter_mut() {
        a.0 += 1000;
    }
    for v in world.query::<&mut S>().iter_mut() {
        v.0.push('!');
    }
    let mut tags = 0;
    for (_, tag) in world.query::<(Entity, &mut Tag)>().iter_mut() {
        *tag = Tag;
        tags += 1;
    }
    assert_eq!(tags, 6);

    assert_eq!(world.get::<A>(ent(2, 2)), Ok(&A(1102)));
    assert_eq!(world.get::<A>(ent(10, 1)), Ok(&A(1103)));
    assert_eq!(world.get::<A>(ent(0, 1)), Ok(&A(1000)));
    assert_eq!(world.get::<S>(ent(5, 2)), Ok(&s("r1!")));
    assert_eq!(world.get::<S>(ent(8, 1)), Ok(&s("s8!")));
    let total: u32 = world.query::<&A>().iter().map(|a| a.0).sum();
    assert_eq!(total, 9 * 1000 + 333);

    let mut q = world.query::<&mut S>();
    q.get_mut(ent(4, 1)).unwrap().0 = "four".into();
    assert_eq!(q.get_mut(ent(9, 1)).err(), Some(missing::<S>(ent(9, 1))));
    assert_eq!(
        q.get_mut(ent(5, 1)).err(),
        Some(Error::Despawned { entity: ent(5, 1) })
    );
    assert_eq!(world.get::<S>(ent(4, 1)), Ok(&s("four")));
}

/// `Option<&T>` requires nothing: every live entity, in index order, with `Some` exactly where
/// the entity holds `T` (POD, non-POD, tag); `get` never reports a missing component.
#[test]
fn optional_shared_fetch() {
    let mut world = fixture();
    let q = world.query::<(Entity, Option<&A>, Option<&S>, Option<&Tag>)>();
    let got: Vec<_> = q
        .iter()
        .map(|(e, a, v, t)| (e, a.copied(), v.cloned(), t.is_some()))
        .collect();
    let want = vec![
        (ent(0, 1), Some(A(0)), Some(s("s0")), true),
        (ent(1, 1), Some(A(1)), None, false),
        (ent(2, 2), Some(A(102)), None, true),
        (ent(3, 1), None, None, true),
        (ent(4, 1), Some(A(4)), Some(s("s4")), false),
        (ent(5, 2), None, Some(s("r1")), false),
        (ent(6, 1), Some(A(6)), Some(s("s6")), true),
        (ent(7, 2), Some(A(100)), Some(s("r0")), true),
        (ent(8, 1), Some(A(8)), Some(s("s8")), false),
        (ent(9, 1), Some(A(9)), None, true),
        (ent(10, 1), Some(A(103)), Some(s("r3")), false),
    ];
    assert_eq!(got, want);
    let (_, a, v, t) = q.get(ent(3, 1)).unwrap();
    assert_eq!((a, v, t), (None, None, Some(&Tag)));
    assert_eq!(
        q.get(ent(2, 1)).err(),
        Some(Error::Despawned { entity: ent(2, 1) })
    );
}

/// `Option<&mut T>` changes exactly the holders of `T` and passes `None` for the rest; an
/// optional tag can be fetched mutably too.
#[test]
fn optional_mutable_fetch() {
    let mut world = fixture();
    let mut seen = Vec::new();
    world
        .query::<(Entity, Option<&mut S>, Option<&mut Tag>)>()
        .for_each(|(e, v, t)| {
            if let Some(v) = v {
                v.0.insert(0, '>');
            }
            seen.push((e, t.is_some()));
        });
    assert_eq!(seen.len(), 11);
    assert_eq!(seen.iter().filter(|(_, t)| *t).count(), 6);
    assert_eq!(world.get::<S>(ent(7, 2)), Ok(&s(">r0")));
    assert_eq!(world.get::<S>(ent(0, 1)), Ok(&s(">s0")));
    assert_eq!(world.get::<S>(ent(3, 1)), Err(missing::<S>(ent(3, 1))));

    let mut q = world.query::<Option<&mut A>>();
    assert_eq!(q.get_mut(ent(3, 1)).map(|a| a.is_none()), Ok(true));
    if let Ok(Some(a)) = q.get_mut(ent(1, 1)) {
        a.0 = 11;
    }
    assert_eq!(world.get::<A>(ent(1, 1)), Ok(&A(11)));
}

/// A query that requires nothing (`Entity` alone) yields every live entity once, in index
/// order, and nothing stale.
#[test]
fn entity_alone_iterates_all_live_in_index_order() {
    let mut world = fixture();
    let got: Vec<Entity> = world.query::<Entity>().iter().collect();
    assert_eq!(got, all_live());
    let q = world.query_ref::<Entity>();
    assert_eq!(q.iter().count(), 11);
    for e in stale() {
        assert_eq!(q.get(e), Err(Error::Despawned { entity: e }));
        assert!(!q.contains(e));
    }
    assert_eq!(q.get(ent(4, 1)), Ok(ent(4, 1)));
}

/// Tuples and nested tuples fetch every element; an entity matches only if every required
/// element (at any depth) matches, and `get` names the first missing component in field order.
#[test]
fn tuples_and_nested_tuples() {
    let mut world = fixture();
    type Nested<'a> = (Entity, (&'a A, Option<&'a S>), ((&'a Tag,),));
    let q = world.query::<Nested>();
    let got = sorted(
        q.iter()
            .map(|(e, (a, v), ((_,),))| (e, *a, v.cloned()))
            .collect(),
    );
    let want = vec![
        (ent(0, 1), A(0), Some(s("s0"))),
        (ent(2, 2), A(102), None),
        (ent(6, 1), A(6), Some(s("s6"))),
        (ent(7, 2), A(100), Some(s("r0"))),
        (ent(9, 1), A(9), None),
    ];
    assert_eq!(got, want);
    assert_eq!(q.get(ent(3, 1)).err(), Some(missing::<A>(ent(3, 1))));
    assert_eq!(q.get(ent(4, 1)).err(), Some(missing::<Tag>(ent(4, 1))));

    let mut q = world.query::<((&mut A, (&Mark,)), Option<(&mut S, &Tag)>)>();
    for ((a, _), pair) in q.iter_mut() {
        a.0 += 1;
        assert!(pair.is_none(), "no entity holds A, Mark, S and Tag");
    }
    assert_eq!(world.get::<A>(ent(2, 2)), Ok(&A(103)));
    assert_eq!(world.get::<A>(ent(1, 1)), Ok(&A(2)));
    assert_eq!(world.get::<A>(ent(4, 1)), Ok(&A(5)));
    assert_eq!(world.get::<A>(ent(0, 1)), Ok(&A(0)), "no Mark");

    let mut q = world.query::<(&Mark, Option<(&mut S, &A)>)>();
    for (_, pair) in q.iter_mut() {
        if let Some((v, _)) = pair {
            v.0.push('#');
        }
    }
    assert_eq!(world.get::<S>(ent(4, 1)), Ok(&s("s4#")));
    assert_eq!(world.get::<S>(ent(5, 2)), Ok(&s("r1")), "no A");
}

/// The largest tuple, 16 elements, fetches, filters and writes; a missing last element excludes
/// the entity and is the one `get` names.
#[test]
fn sixteen_element_tuple() {
    let mut world = fixture();
    let full = world.spawn((
        A(1),
        s("full"),
        Tag,
        (
            C0(0),
            C1(1),
            C2(2),
            C3(3),
            C4(4),
            C5(5),
            C6(6),
            C7(7),
            C8(8),
            C9(9),
            C10(10),
            C11(11),
        ),
    ));
    let partial = world.spawn((
        A(2),
        s("partial"),
        Tag,
        (
            C0(0),
            C1(1),
            C2(2),
            C3(3),
            C4(4),
            C5(5),
            C6(6),
            C7(7),
            C8(8),
            C9(9),
            C10(10),
        ),
    ));
    assert_eq!(full, ent(11, 1));
    type Sixteen<'a> = (
        Entity,
        &'a A,
        &'a S,
        &'a Tag,
        &'a C0,
        &'a C1,
        &'a C2,
        &'a C3,
        &'a C4,
        &'a C5,
        &'a C6,
        &'a C7,
        &'a C8,
        &'a C9,
        &'a C10,
        &'a C11,
    );
    let q = world.query::<Sixteen>();
    let got: Vec<_> = q
        .iter()
        .map(|item| (item.0, item.2.clone(), item.15.0))
        .collect();
    assert_eq!(got, vec![(full, s("full"), 11)]);
    assert_eq!(q.get(partial).err(), Some(missing::<C11>(partial)));

    type SixteenMut<'a> = (
        Entity,
        &'a mut A,
        Option<&'a mut S>,
        &'a Tag,
        &'a mut C0,
        &'a C1,
        &'a C2,
        &'a C3,
        &'a C4,
        &'a C5,
        &'a C6,
        &'a C7,
        &'a C8,
        &'a C9,
        &'a mut C10,
        Option<&'a C11>,
    );
    let mut q = world.query::<SixteenMut>();
    let mut seen = Vec::new();
    for item in q.iter_mut() {
        item.1.0 += 10;
        if let Some(v) = item.2 {
            v.0.push('*');
        }
        item.4.0 = 100;
        item.14.0 = 110;
        seen.push((item.0, item.15.is_some()));
    }
    assert_eq!(sorted(seen), vec![(full, true), (partial, false)]);
    assert_eq!(world.get::<A>(partial), Ok(&A(12)));
    assert_eq!(world.get::<S>(full), Ok(&s("full*")));
    assert_eq!(world.get::<C10>(partial), Ok(&C10(110)));
    assert_eq!(world.get::<C0>(full), Ok(&C0(100)));
    assert_eq!(world.get::<A>(ent(0, 1)), Ok(&A(0)), "no C0..");
}

/// A derived query with an `Entity`, a `&mut`, a `&` and an `Option` field.
#[derive(Query)]
struct Mover<'w> {
    entity: Entity,
    a: &'w mut A,
    name: &'w S,
    tag: Option<&'w Tag>,
}

/// A derived query that nests [`Mover`] and adds a required tag.
#[derive(Query)]
#[query(mutable)]
struct MarkedMover<'w> {
    mover: Mover<'w>,
    mark: &'w Mark,
}

/// A derived struct fetches its fields like the tuple of them (read-only twin from `iter`, the
/// full item from `iter_mut`), and a derived struct nested in another adds its requirements
/// to the outer one's.
#[test]
fn derived_structs_and_nested_derived() {
    let mut world = fixture();
    let q = world.query::<Mover>();
    let got = sorted(
        q.iter()
            .map(|m: MoverReadOnly<'_>| (m.entity, *m.a, m.name.clone(), m.tag.is_some()))
            .collect(),
    );
    let want = vec![
        (ent(0, 1), A(0), s("s0"), true),
        (ent(4, 1), A(4), s("s4"), false),
        (ent(6, 1), A(6), s("s6"), true),
        (ent(7, 2), A(100), s("r0"), true),
        (ent(8, 1), A(8), s("s8"), false),
        (ent(10, 1), A(103), s("r3"), false),
    ];
    assert_eq!(got, want);
    assert_eq!(q.get(ent(5, 2)).err(), Some(missing::<A>(ent(5, 2))));
    assert_eq!(q.get(ent(1, 1)).err(), Some(missing::<S>(ent(1, 1))));

    let mut q = world.query::<MarkedMover>();
    let mut seen = Vec::new();
    for m in q.iter_mut() {
        m.mover.a.0 += 50;
        assert_eq!(*m.mark, Mark);
        assert!(m.mover.tag.is_none() && m.mover.name.0.starts_with('s'));
        seen.push(m.mover.entity);
    }
    assert_eq!(sorted(seen), vec![ent(4, 1), ent(8, 1)]);
    assert_eq!(q.get(ent(0, 1)).err(), Some(missing::<Mark>(ent(0, 1))));
    assert_eq!(q.get(ent(2, 2)).err(), Some(missing::<S>(ent(2, 2))));
    let one = q.get(ent(8, 1)).unwrap();
    assert_eq!((one.mover.a, one.mover.name), (&A(58), &s("s8")));
    assert_eq!(world.get::<A>(ent(4, 1)), Ok(&A(54)));
    assert_eq!(world.get::<A>(ent(0, 1)), Ok(&A(0)));

    let movers = world.query_ref::<MoverReadOnly>();
    let again = world.query_ref::<MarkedMoverReadOnly>();
    assert_eq!(movers.iter().count(), 6);
    assert_eq!(again.iter().count(), 2);
    let r = movers.get(ent(10, 1)).unwrap();
    assert_eq!((r.entity, r.a, r.name), (ent(10, 1), &A(103), &s("r3")));
}

/// A read-only derived query: no read-only twin, usable through `query_ref`, and yields its
/// items after despawns and index reuse.
#[test]
fn read_only_derived_struct_is_its_own_read_only_form() {
    #[derive(Query)]
    struct Reader<'w> {
        entity: Entity,
        a: &'w A,
        name: Option<&'w S>,
    }

    let mut world = World::new();
    let first = world.spawn((A(1), S("one".into())));
    let gone = world.spawn(A(2));
    world.despawn(gone).unwrap();
    let reused = world.spawn(A(3));
    let bare = world.spawn(S("no A".into()));
    assert_eq!(reused.index(), gone.index());

    let readers = world.query_ref::<Reader>();
    let again = world.query_ref::<Reader>();
    let mut seen: Vec<(Entity, u32, Option<&str>)> = readers
        .iter()
        .map(|r: Reader<'_>| (r.entity, r.a.0, r.name.map(|n| n.0.as_str())))
        .collect();
    seen.sort();
    assert_eq!(seen, vec![(first, 1, Some("one")), (reused, 3, None)]);
    assert_eq!(again.get(reused).unwrap().a, &A(3));
    assert_eq!(
        again.get(gone).err(),
        Some(Error::Despawned { entity: gone })
    );
    assert_eq!(again.get(bare).err(), Some(missing::<A>(bare)));

    let mut query = world.query::<Reader>();
    assert_eq!(query.iter_mut().count(), 2);
    let got: Reader<'_> = query.get_mut(first).unwrap();
    assert_eq!(got.name, Some(&S("one".into())));
}

/// `With<T>` keeps the holders of `T` (tag and non-POD) without fetching it, and its `get`
/// error is `MissingComponent` for `T`.
#[test]
fn with_filter() {
    let mut world = fixture();
    let q = world.query_filtered::<Entity, With<Tag>>();
    let got: Vec<_> = q.iter().collect();
    assert_eq!(
        sorted(got),
        vec![
            ent(0, 1),
            ent(2, 2),
            ent(3, 1),
            ent(6, 1),
            ent(7, 2),
            ent(9, 1)
        ]
    );
    assert_eq!(q.get(ent(1, 1)), Err(missing::<Tag>(ent(1, 1))));

    let q = world.query_filtered::<(Entity, &A), With<S>>();
    let got = sorted(q.iter().map(|(e, a)| (e, *a)).collect());
    let want = pairs(&[
        (0, 1, A(0)),
        (4, 1, A(4)),
        (6, 1, A(6)),
        (7, 2, A(100)),
        (8, 1, A(8)),
        (10, 1, A(103)),
    ]);
    assert_eq!(got, want);
    assert_eq!(q.get(ent(9, 1)), Err(missing::<S>(ent(9, 1))));
    assert_eq!(
        q.get(ent(5, 2)).err(),
        Some(missing::<A>(ent(5, 2))),
        "passes the filter, lacks the fetch"
    );
}

/// `Without<T>` drops the holders of `T` (tag and non-POD), and its `get` error is
/// `ExcludedComponent` for `T`.
#[test]
fn without_filter() {
    let mut world = fixture();
    let q = world.query_filtered::<Entity, Without<Tag>>();
    assert_eq!(
        sorted(q.iter().collect()),
        vec![ent(1, 1), ent(4, 1), ent(5, 2), ent(8, 1), ent(10, 1)]
    );
    assert_eq!(
        q.get(ent(3, 1)),
        Err(Error::ExcludedComponent {
            entity: ent(3, 1),
            component: type_name::<Tag>(),
        })
    );

    let mut q = world.query_filtered::<&mut A, Without<S>>();
    for a in q.iter_mut() {
        a.0 = 7;
    }
    assert_eq!(world.get::<A>(ent(1, 1)), Ok(&A(7)));
    assert_eq!(world.get::<A>(ent(2, 2)), Ok(&A(7)));
    assert_eq!(world.get::<A>(ent(9, 1)), Ok(&A(7)));
    assert_eq!(world.get::<A>(ent(0, 1)), Ok(&A(0)));
    assert_eq!(world.get::<A>(ent(10, 1)), Ok(&A(103)));
}

/// `Or<(..)>` keeps entities that pass any of its filters, and reports `FilteredOut` with its
/// own type name for the rest.
#[test]
fn or_filter() {
    let mut world = fixture();
    type Either = Or<(With<Mark>, Without<A>)>;
    let q = world.query_filtered::<Entity, Either>();
    assert_eq!(
        sorted(q.iter().collect()),
        vec![
            ent(1, 1),
            ent(2, 2),
            ent(3, 1),
            ent(4, 1),
            ent(5, 2),
            ent(8, 1)
        ]
    );
    assert_eq!(
        q.get(ent(0, 1)),
        Err(Error::FilteredOut {
            entity: ent(0, 1),
            filter: type_name::<Either>(),
        })
    );

    let q = world.query_filtered::<(Entity, &S), Or<(With<Tag>, With<Mark>)>>();
    let got = sorted(q.iter().map(|(e, v)| (e, v.clone())).collect());
    let want = pairs(&[
        (0, 1, s("s0")),
        (4, 1, s("s4")),
        (5, 2, s("r1")),
        (6, 1, s("s6")),
        (7, 2, s("r0")),
        (8, 1, s("s8")),
    ]);
    assert_eq!(got, want);
    assert_eq!(
        world
            .query_filtered::<Entity, Or<(With<Never>, Without<Tag>, With<Tag>)>>()
            .iter()
            .count(),
        11
    );
}

/// A tuple of filters keeps entities that pass all of them; chaining `.with()` / `.without()`
/// / `.filter()` means the same, and `get` reports the first failing filter in order.
#[test]
fn tuple_filters_and_chaining() {
    let mut world = fixture();
    let want = vec![ent(2, 2), ent(3, 1), ent(9, 1)];
    let q = world.query_filtered::<Entity, (With<Tag>, Without<S>)>();
    assert_eq!(sorted(q.iter().collect()), want);
    assert_eq!(q.get(ent(1, 1)), Err(missing::<Tag>(ent(1, 1))));
    assert_eq!(
        q.get(ent(0, 1)),
        Err(Error::ExcludedComponent {
            entity: ent(0, 1),
            component: type_name::<S>(),
        })
    );

    let q = world.query::<Entity>().with::<Tag>().without::<S>();
    assert_eq!(sorted(q.iter().collect()), want);
    let q = world
        .query::<Entity>()
        .filter::<(With<Tag>, (Without<S>, Or<(With<A>, With<Mark>)>))>();
    assert_eq!(sorted(q.iter().collect()), vec![ent(2, 2), ent(9, 1)]);
    let q = world
        .query_filtered::<(Entity, &A), With<Mark>>()
        .without::<S>()
        .with::<Tag>();
    assert_eq!(
        q.iter().map(|(e, a)| (e, *a)).collect::<Vec<_>>(),
        vec![(ent(2, 2), A(102))]
    );
}

/// Several `query_ref` queries can be alive and iterated at once, beside `World::get`, and see
/// the same data.
#[test]
fn query_ref_allows_simultaneous_reads() {
    let world = fixture();
    let names = world.query_ref::<(Entity, &S)>();
    let numbers = world.query_ref::<(Entity, &A)>().with::<Tag>();
    let mut joined = Vec::new();
    for (e, a) in numbers.iter() {
        for (f, v) in names.iter() {
            if e == f {
                joined.push((e, *a, v.clone(), world.get::<Tag>(e).is_ok()));
            }
        }
        assert_eq!(world.get::<A>(e), Ok(a));
        assert_eq!(names.get(e).ok().map(|(_, v)| v), world.get::<S>(e).ok());
    }
    assert_eq!(
        sorted(joined),
        vec![
            (ent(0, 1), A(0), s("s0"), true),
            (ent(6, 1), A(6), s("s6"), true),
            (ent(7, 2), A(100), s("r0"), true),
        ]
    );
    let tags = world.query_ref::<&Tag>();
    assert_eq!(tags.iter().count(), 6);
    assert_eq!(names.iter().count(), 7);
}

/// `Query`, `&Query` and `&mut Query` are `IntoIterator`: by value and `&mut` yield full items
/// (writes land), `&Query` yields read-only items.
#[test]
fn into_iterator_for_query_and_references() {
    let mut world = fixture();
    for a in world.query::<&mut A>() {
        a.0 *= 2;
    }
    let mut q = world.query::<(Entity, &mut S)>();
    for (_, v) in &mut q {
        v.0.push('2');
    }
    let mut read = Vec::new();
    for (e, v) in &q {
        read.push((e, v.0.clone()));
    }
    assert_eq!(read.len(), 7);
    assert!(read.iter().all(|(_, v)| v.ends_with('2')));
    assert_eq!(world.get::<A>(ent(7, 2)), Ok(&A(200)));
    assert_eq!(world.get::<S>(ent(5, 2)), Ok(&s("r12")));
    let q = world.query_ref::<&Tag>();
    assert_eq!((&q).into_iter().count(), 6);
    assert_eq!(q.into_iter().count(), 6);
}

/// `single` / `single_mut` return the one match, `NoMatch` for none and `MultipleMatches` for
/// several, naming the fetch type; filters count.
#[test]
fn single_and_single_mut() {
    let mut world = fixture();
    {
        let q = world.query_filtered::<(Entity, &A), (With<Tag>, With<Mark>)>();
        assert_eq!(q.single().map(|(e, a)| (e, *a)), Ok((ent(2, 2), A(102))));
    }
    {
        let mut q = world.query::<(Entity, &mut S)>().without::<A>();
        let (e, v) = q.single_mut().unwrap();
        assert_eq!(e, ent(5, 2));
        v.0 = "only".into();
    }
    assert_eq!(world.get::<S>(ent(5, 2)), Ok(&s("only")));
    {
        let q = world.query::<&Tag>();
        assert_eq!(
            q.single().err(),
            Some(Error::MultipleMatches {
                query: type_name::<&Tag>()
            })
        );
    }
    let mut q = world.query::<(&mut A, &S)>().with::<Tag>().with::<Mark>();
    assert_eq!(
        q.single_mut().err(),
        Some(Error::NoMatch {
            query: type_name::<(&mut A, &S)>()
        })
    );
}

/// `is_empty` and `contains` agree with iteration and `get`, for live, stale and unknown ids.
#[test]
fn is_empty_and_contains() {
    let mut world = fixture();
    let q = world.query_filtered::<&S, With<Mark>>();
    assert!(!q.is_empty());
    assert!(q.contains(ent(5, 2)));
    assert!(!q.contains(ent(5, 1)), "stale");
    assert!(!q.contains(ent(1, 1)), "no S");
    assert!(!q.contains(ent(0, 1)), "no Mark");
    assert!(!q.contains(ent(42, 1)), "never spawned");
    let q = world.query_filtered::<&S, (With<Mark>, With<Tag>)>();
    assert!(q.is_empty());
    assert!(!q.contains(ent(4, 1)));
    let q = world.query::<Entity>().without::<Never>();
    assert!(!q.is_empty());
    let mut empty = World::new();
    assert!(empty.query::<Entity>().is_empty());
}

/// A component type the world has never stored: `&T`, `&mut T` (also through `query_ref` and
/// `With`) match nothing and do not panic, `Option` yields `None` everywhere, `Without` keeps
/// everything, and lookups say the component is missing.
#[test]
fn never_inserted_component() {
    let mut world = fixture();
    assert!(world.query::<&Never>().is_empty());
    assert_eq!(world.query::<(Entity, &mut Never)>().iter_mut().count(), 0);
    assert_eq!(world.query_ref::<(Entity, &Never)>().iter().count(), 0);
    assert_eq!(
        world.query_filtered::<Entity, With<Never>>().iter().count(),
        0
    );
    assert_eq!(
        world.query_ref::<Entity>().with::<Never>().iter().count(),
        0
    );
    let all: Vec<Entity> = world
        .query_filtered::<Entity, Without<Never>>()
        .iter()
        .collect();
    assert_eq!(all, all_live());
    let q = world.query::<(Entity, Option<&mut Never>)>();
    assert!(q.iter().all(|(_, n)| n.is_none()));
    assert_eq!(q.iter().count(), 11);

    let q = world.query::<&Never>();
    assert_eq!(q.get(ent(0, 1)).err(), Some(missing::<Never>(ent(0, 1))));
    assert_eq!(
        q.get(ent(2, 1)).err(),
        Some(Error::Despawned { entity: ent(2, 1) })
    );
    assert_eq!(
        q.single().err(),
        Some(Error::NoMatch {
            query: type_name::<&Never>()
        })
    );
    let q = world.query_ref::<&Never>();
    assert_eq!(q.get(ent(3, 1)).err(), Some(missing::<Never>(ent(3, 1))));
    assert!(world.get::<Never>(ent(3, 1)).is_err());
    let mut q = world.query_filtered::<&mut A, With<Never>>();
    assert_eq!(
        q.get_mut(ent(0, 1)).err(),
        Some(missing::<Never>(ent(0, 1)))
    );
}

/// `&mut A` beside `&A` in one tuple panics when the query is built.
#[test]
#[should_panic(expected = "asks for `A` mutably")]
fn mut_and_ref_of_the_same_type_panics() {
    let mut world = fixture();
    let _ = world.query::<(&mut A, &A)>();
}

/// `&A` before `&mut A` panics too: the order of the fields does not matter.
#[test]
#[should_panic(expected = "asks for `A` mutably")]
fn ref_then_mut_of_the_same_type_panics() {
    let mut world = fixture();
    let _ = world.query::<(Entity, &A, &mut A)>();
}

/// Two `&mut A` in one tuple panic when the query is built.
#[test]
#[should_panic(expected = "asks for `A` mutably")]
fn two_mutable_references_panic() {
    let mut world = fixture();
    let _ = world.query::<(&mut A, &mut A)>();
}

/// `&mut A` beside `Option<&A>` panics: an option still reads the value when present.
#[test]
#[should_panic(expected = "asks for `A` mutably")]
fn mut_and_optional_ref_panics() {
    let mut world = fixture();
    let _ = world.query::<(&mut A, Option<&A>)>();
}

/// The conflict is found through nested tuples.
#[test]
#[should_panic(expected = "asks for `A` mutably")]
fn nested_tuple_conflict_panics() {
    let mut world = fixture();
    let _ = world.query::<((&mut A,), &A)>();
}

/// The conflict is found through `query_filtered` and through an empty world too (the check
/// does not depend on data).
#[test]
#[should_panic(expected = "asks for `A` mutably")]
fn conflict_panics_even_in_an_empty_world() {
    let mut world = World::new();
    let _ = world.query_filtered::<(Option<&mut A>, &A), With<Tag>>();
}

/// A derived query can only see its own fields' spellings; the run-time check catches a
/// conflict that goes through a nested derived query.
#[derive(Query)]
#[allow(dead_code, reason = "only nested in a query that panics when built")]
struct WritesA<'w> {
    a: &'w mut A,
}

/// Reads `A` beside [`WritesA`], which writes it: must panic at run time.
#[derive(Query)]
#[allow(dead_code, reason = "never fetched: building the query panics")]
#[query(mutable)]
struct ConflictThroughNesting<'w> {
    inner: WritesA<'w>,
    a: &'w A,
}

/// The run-time check catches a conflict hidden inside a nested derived query.
#[test]
#[should_panic(expected = "asks for `A` mutably")]
fn conflict_through_nested_derived_query_panics() {
    let mut world = fixture();
    let _ = world.query::<ConflictThroughNesting>();
}

/// The panic message of a conflicting query, from `catch_unwind`.
fn conflict_message(f: impl FnOnce()) -> String {
    let payload = catch_unwind(AssertUnwindSafe(f)).expect_err("the query must panic");
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|m| (*m).to_owned()))
        .expect("a string payload")
}

/// What one entity of the fixture holds: `A`, `S`, `Tag`, `Mark`.
type Held = (Entity, Option<A>, Option<S>, bool, bool);

/// Everything the fixture holds, as comparable values.
fn snapshot(world: &mut World) -> Vec<Held> {
    world
        .query::<(Entity, Option<&A>, Option<&S>, Option<&Tag>, Option<&Mark>)>()
        .iter()
        .map(|(e, a, v, t, m)| (e, a.copied(), v.cloned(), t.is_some(), m.is_some()))
        .collect()
}

/// A conflicting query panics before it touches any data: after catching each panic the world
/// holds exactly what it held before, and can still be queried mutably, spawned into and
/// despawned from.
#[test]
fn conflict_panic_leaves_world_untouched_and_usable() {
    let mut world = fixture();
    let before = snapshot(&mut world);
    let messages = [
        conflict_message(|| {
            world.query::<(&mut A, &A)>();
        }),
        conflict_message(|| {
            world.query::<(&mut A, &mut A)>();
        }),
        conflict_message(|| {
            world.query::<(&mut A, Option<&A>)>();
        }),
        conflict_message(|| {
            world.query::<((&mut A,), &A)>();
        }),
        conflict_message(|| {
            world.query::<ConflictThroughNesting>();
        }),
    ];
    for message in &messages {
        assert!(message.contains("asks for `A` mutably"), "{message}");
    }
    assert!(
        messages[0].contains("(&mut A, &A)"),
        "names the query: {}",
        messages[0]
    );
    assert_eq!(snapshot(&mut world), before);

    for a in world.query::<&mut A>().iter_mut() {
        a.0 += 1;
    }
    let e = world.spawn((A(5), s("new")));
    world.despawn(ent(0, 1)).unwrap();
    assert_eq!(world.get::<A>(ent(7, 2)), Ok(&A(101)));
    assert_eq!(world.query::<&A>().iter().count(), 9);
    assert_eq!(
        world.query::<(&mut A, &S)>().get_mut(e).map(|(a, _)| *a),
        Ok(A(5))
    );
}

/// Storages that hold the same entities at the same positions (spawned together) are read
/// chunk by chunk, and the chunks where a swap-remove or a late insert broke that line-up are
/// read by probing: both give the values `World::get` gives, through `next`, `fold` and writes.
#[test]
fn lined_up_and_broken_up_storages() {
    let mut world = World::new();
    let ids = world.spawn_batch((0..300u32).map(|i| (A(i), S(i.to_string()))));
    // Same swap-remove in both storages: still lined up.
    for i in [5, 150, 299] {
        world.despawn(ids[i]).unwrap();
    }
    // Only in `S`: from here on the two storages differ at a few positions.
    for i in [70, 200] {
        world.remove::<S>(ids[i]).unwrap();
    }
    // Appended to `S` only, at a position where `A` holds someone else.
    let late = world.spawn(A(1000));
    world.insert(ids[70], s("back")).unwrap();
    world.insert(late, s("late")).unwrap();

    let expected = |world: &World| -> Vec<(Entity, A, S)> {
        let mut rows: Vec<_> = ids
            .iter()
            .chain([&late])
            .filter_map(|&e| Some((e, *world.get::<A>(e).ok()?, world.get::<S>(e).ok()?.clone())))
            .collect();
        rows.sort();
        rows
    };
    let want = expected(&world);
    assert_eq!(want.len(), 297);

    let q = world.query::<(Entity, &A, &S)>();
    let mut by_next = Vec::new();
    // A `for` loop calls `next`, the one-at-a-time path (`fold` is checked below).
    for (e, a, v) in q.iter() {
        by_next.push((e, *a, v.clone()));
    }
    assert_eq!(sorted(by_next), want);
    let by_fold = q.iter().fold(Vec::new(), |mut acc, (e, a, v)| {
        acc.push((e, *a, v.clone()));
        acc
    });
    assert_eq!(sorted(by_fold), want);
    let mut half = q.iter();
    let mut rows: Vec<_> = half
        .by_ref()
        .take(100)
        .map(|(e, a, v)| (e, *a, v.clone()))
        .collect();
    rows = half.fold(rows, |mut acc, (e, a, v)| {
        acc.push((e, *a, v.clone()));
        acc
    });
    assert_eq!(sorted(rows), want);

    world.query::<(&mut A, &mut S)>().for_each(|(a, v)| {
        a.0 += 1;
        v.0.push('.');
    });
    for (e, a, v) in &want {
        assert_eq!(world.get::<A>(*e), Ok(&A(a.0 + 1)));
        assert_eq!(world.get::<S>(*e), Ok(&S(format!("{}.", v.0))));
    }
    assert_eq!(world.get::<A>(ids[200]), Ok(&A(200)), "no S, not written");
}

/// Two shared reads of one type are allowed, and yield the same value.
#[test]
fn two_reads_of_the_same_type_are_allowed() {
    let mut world = fixture();
    let q = world.query::<(Entity, &A, &A, Option<&A>)>();
    assert_eq!(q.iter().count(), 9);
    for (_, x, y, z) in q.iter() {
        assert!(core::ptr::eq(x, y));
        assert_eq!(z, Some(x));
    }
    let r = world.query_ref::<(&S, (&S,), Option<&S>)>();
    assert_eq!(r.iter().count(), 7);
}

/// Filters never touch data, so `&mut A` with `With<A>` (as a type, by `.with()`, or inside an
/// `Or`) is allowed, and `&mut A` with `Without<A>` is simply empty.
#[test]
fn filters_on_a_written_type_are_allowed() {
    let mut world = fixture();
    for a in world.query_filtered::<&mut A, With<A>>().iter_mut() {
        a.0 += 1;
    }
    for a in world.query::<&mut A>().with::<A>().iter_mut() {
        a.0 += 1;
    }
    for a in world
        .query::<&mut A>()
        .filter::<Or<(With<A>, With<Tag>)>>()
        .iter_mut()
    {
        a.0 += 1;
    }
    assert_eq!(world.get::<A>(ent(9, 1)), Ok(&A(12)));
    let mut q = world.query_filtered::<(Entity, &mut A), Without<A>>();
    assert_eq!(q.iter_mut().count(), 0);
    assert_eq!(
        q.get_mut(ent(1, 1)).err(),
        Some(Error::ExcludedComponent {
            entity: ent(1, 1),
            component: type_name::<A>(),
        })
    );
}
