//! Drop accounting: every component value a world is given is dropped exactly once, on every path
//! (remove, overwrite, bundle overwrite, despawn, clear, world drop, a panicking batch iterator, a
//! panicking `Drop`), and never while the world still holds it.
//!
//! Each test has its own [`Ledger`], which records every tracked value by id when it is created
//! and when it is dropped: a drop of an id that is not live is recorded as an error (a double
//! drop), and a live id left over at the end is a leak. Tests share no state, so they run in
//! parallel; the zero-sized tags, which cannot carry a ledger, use statics declared inside the one
//! test that uses them.

use std::collections::{BTreeSet, HashMap};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicUsize, Ordering};

use ecs_core::prelude::*;

use ecs_testkit::ledger::{Ledger, Token, panic_message};

/// Asserts that `result` is the panic of a bomb, not some other panic.
fn assert_bomb_panic<T>(result: std::thread::Result<T>) {
    let payload = match result {
        Ok(_) => panic!("expected a panic from a bomb's Drop"),
        Err(payload) => payload,
    };
    let message = panic_message(&*payload);
    assert!(
        message.starts_with("intentional panic in Drop"),
        "unexpected panic: {message:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Components
// ---------------------------------------------------------------------------------------------

#[derive(Component, Debug, PartialEq)]
struct A(Token);

#[derive(Component, Debug, PartialEq)]
struct B(Token);

#[derive(Component, Debug, PartialEq)]
struct C(Token);

/// A `String` next to a tracked value.
#[derive(Component, Debug)]
struct Label {
    text: String,
    token: Token,
}

/// A `Vec` of tracked values.
#[derive(Component, Debug)]
struct Inventory(Vec<Token>);

/// A boxed closure that owns a tracked value and returns its id.
#[derive(Component)]
struct Callback(Box<dyn Fn() -> u64 + Send + Sync>);

impl Callback {
    fn owning(token: Token) -> Self {
        // `token.id` alone would make the closure capture just the `u64` (edition 2021
        // disjoint captures) and drop the token here; calling a method captures all of it.
        Callback(Box::new(move || token.id()))
    }
}

/// The ids of the `A`, `B` and `C` values `entity` holds.
fn held_ids(world: &World, entity: Entity) -> BTreeSet<u64> {
    let mut ids = BTreeSet::new();
    if let Ok(a) = world.get::<A>(entity) {
        ids.insert(a.0.id);
    }
    if let Ok(b) = world.get::<B>(entity) {
        ids.insert(b.0.id);
    }
    if let Ok(c) = world.get::<C>(entity) {
        ids.insert(c.0.id);
    }
    ids
}

/// The world still works: spawn, insert, get, remove and despawn behave and account for drops.
fn assert_usable(world: &mut World, ledger: &Ledger) {
    let before = ledger.live();
    let e = world.spawn((A(ledger.token()), B(ledger.token())));
    assert!(world.is_alive(e));
    let a_id = world.get::<A>(e).expect("just spawned").0.id;
    let old = world.insert(e, A(ledger.token())).expect("alive");
    assert_eq!(old.map(|a| a.0.id), Some(a_id));
    assert!(!ledger.is_live(a_id));
    drop(world.remove::<B>(e).expect("has B"));
    assert_eq!(ledger.live(), before + 1);
    world.despawn(e).expect("alive");
    assert_eq!(ledger.live(), before);
    assert_eq!(world.despawn(e), Err(Error::Despawned { entity: e }));
    ledger.assert_no_errors();
}

// ---------------------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------------------

/// The ledger itself works: a double drop is reported as "dropped id not live", a forgotten
/// value stays live, and balanced values pass `assert_all_dropped`.
#[test]
fn ledger_detects_double_drops_and_leaks() {
    let ledger = Ledger::default();
    let token = ledger.token();
    let twin = ledger.forge(token.id);
    drop(token);
    assert!(ledger.errors().is_empty());
    drop(twin);
    assert_eq!(ledger.errors(), [String::from("dropped id 0 not live")]);
    assert!(catch_unwind(|| ledger.assert_all_dropped()).is_err());

    // A value never dropped (held back, not leaked, so memcheck stays clean).
    let ledger = Ledger::default();
    let held = std::mem::ManuallyDrop::new(ledger.token());
    assert_eq!(ledger.live(), 1);
    assert!(catch_unwind(|| ledger.assert_all_dropped()).is_err());
    drop(std::mem::ManuallyDrop::into_inner(held));

    let ledger = Ledger::default();
    drop((ledger.token(), ledger.token()));
    ledger.assert_all_dropped();
    assert_eq!((ledger.created(), ledger.dropped()), (2, 2));
}

/// `remove` hands the value to the caller without dropping it; the caller's drop is the only
/// one. A failed remove drops nothing. Same through an `EntityMut`.
#[test]
fn remove_returns_the_value_and_the_caller_drops_it() {
    let ledger = Ledger::default();
    let mut world = World::new();
    let e = world.spawn((A(ledger.token()), B(ledger.token())));
    let a_id = world.get::<A>(e).unwrap().0.id;

    let a = world.remove::<A>(e).unwrap();
    assert_eq!(a.0.id, a_id);
    assert!(
        ledger.is_live(a_id),
        "remove must not drop the value it returns"
    );
    assert_eq!(ledger.live(), 2);
    drop(a);
    assert!(!ledger.is_live(a_id));
    assert_eq!(ledger.live(), 1);

    assert_eq!(
        world.remove::<A>(e),
        Err(Error::MissingComponent {
            entity: e,
            component: std::any::type_name::<A>()
        })
    );
    assert_eq!(ledger.live(), 1);

    let b = world.entity_mut(e).unwrap().remove::<B>().unwrap();
    assert_eq!(ledger.live(), 1);
    drop(b);
    assert_eq!(ledger.live(), 0);

    world.despawn(e).unwrap();
    assert_eq!(world.remove::<A>(e), Err(Error::Despawned { entity: e }));
    drop(world);
    ledger.assert_all_dropped();
}

/// `insert` over an existing value returns the old value undropped and keeps the new one;
/// an `insert` on a dead entity drops the rejected value exactly once.
#[test]
fn insert_overwrite_returns_the_old_value() {
    let ledger = Ledger::default();
    let mut world = World::new();
    let e = world.spawn(A(ledger.token()));
    let first = world.get::<A>(e).unwrap().0.id;

    let second = ledger.token();
    let second_id = second.id;
    let old = world
        .insert(e, A(second))
        .unwrap()
        .expect("replaced a value");
    assert_eq!(old.0.id, first);
    assert!(ledger.is_live(first), "the returned value is still alive");
    drop(old);
    assert!(!ledger.is_live(first));
    assert_eq!(world.get::<A>(e).unwrap().0.id, second_id);
    assert_eq!(ledger.live(), 1);

    let old = world
        .entity_mut(e)
        .unwrap()
        .insert(A(ledger.token()))
        .unwrap();
    assert_eq!(old.map(|a| a.0.id), Some(second_id));
    assert_eq!(ledger.live(), 1);

    world.despawn(e).unwrap();
    assert_eq!(ledger.live(), 0);
    let rejected = ledger.token();
    let rejected_id = rejected.id;
    assert!(world.insert(e, A(rejected)).is_err());
    assert!(!ledger.is_live(rejected_id), "a rejected value is dropped");

    drop(world);
    ledger.assert_all_dropped();
}

/// `insert_bundle` drops the values it replaces immediately, keeps the new ones and leaves
/// untouched components alone; a rejected bundle is dropped exactly once.
#[test]
fn insert_bundle_overwrite_drops_the_old_values() {
    let ledger = Ledger::default();
    let mut world = World::new();
    let e = world.spawn((A(ledger.token()), B(ledger.token())));
    let old_a = world.get::<A>(e).unwrap().0.id;
    let kept_b = world.get::<B>(e).unwrap().0.id;

    let (new_a, new_c) = (ledger.token(), ledger.token());
    let ids = [new_a.id, new_c.id];
    world.insert_bundle(e, (A(new_a), C(new_c))).unwrap();
    assert!(!ledger.is_live(old_a), "the replaced A is dropped");
    assert_eq!(
        held_ids(&world, e),
        BTreeSet::from([ids[0], ids[1], kept_b])
    );
    assert_eq!(ledger.live(), 3);

    world
        .entity_mut(e)
        .unwrap()
        .insert_bundle((B(ledger.token()),))
        .unwrap();
    assert!(!ledger.is_live(kept_b));
    assert_eq!(ledger.live(), 3);

    world.despawn(e).unwrap();
    assert_eq!(ledger.live(), 0);
    assert!(
        world
            .insert_bundle(e, (A(ledger.token()), B(ledger.token())))
            .is_err()
    );
    assert_eq!(ledger.live(), 0, "a rejected bundle is dropped");
    drop(world);
    ledger.assert_all_dropped();
}

/// When a type appears twice in one bundle, the earlier value is dropped and the later one
/// kept, for `spawn` and `insert_bundle`, flat or nested.
#[test]
fn duplicate_types_in_one_bundle_drop_the_earlier_value() {
    let ledger = Ledger::default();
    let mut world = World::new();
    let (first, second) = (ledger.token(), ledger.token());
    let (first_id, second_id) = (first.id, second.id);
    let e = world.spawn((A(first), B(ledger.token()), A(second)));
    assert!(!ledger.is_live(first_id));
    assert_eq!(world.get::<A>(e).unwrap().0.id, second_id);
    assert_eq!(ledger.live(), 2);

    let (x, y) = (ledger.token(), ledger.token());
    let y_id = y.id;
    world
        .insert_bundle(e, ((C(x),), (B(ledger.token()), C(y))))
        .unwrap();
    assert_eq!(world.get::<C>(e).unwrap().0.id, y_id);
    assert_eq!(ledger.live(), 3, "one A, the new B and the later C");

    drop(world);
    ledger.assert_all_dropped();
}

/// `despawn` drops every component of the entity exactly once, touches no other entity, and a
/// second despawn of the same handle drops nothing.
#[test]
fn despawn_drops_every_component_exactly_once() {
    let ledger = Ledger::default();
    let mut world = World::new();
    let mut expected: HashMap<Entity, BTreeSet<u64>> = HashMap::new();
    for i in 0..30 {
        let e = match i % 4 {
            0 => world.spawn(A(ledger.token())),
            1 => world.spawn((A(ledger.token()), B(ledger.token()))),
            2 => world.spawn((C(ledger.token()), A(ledger.token()), B(ledger.token()))),
            _ => world.spawn(()),
        };
        expected.insert(e, held_ids(&world, e));
    }
    let everyone: Vec<Entity> = expected.keys().copied().collect();
    for (n, e) in everyone.into_iter().enumerate() {
        if n % 2 == 0 {
            if n % 4 == 0 {
                world.despawn(e).unwrap();
            } else {
                world.entity_mut(e).unwrap().despawn().unwrap();
            }
            for id in expected.remove(&e).unwrap() {
                assert!(!ledger.is_live(id), "#{id} of {e:?} survived despawn");
            }
            let dropped = ledger.dropped();
            assert_eq!(world.despawn(e), Err(Error::Despawned { entity: e }));
            assert_eq!(ledger.dropped(), dropped);
        }
        let still_held: BTreeSet<u64> = expected.values().flatten().copied().collect();
        assert_eq!(ledger.live_ids(), still_held);
    }
    for (&e, ids) in &expected {
        assert_eq!(&held_ids(&world, e), ids, "{e:?} lost or changed a value");
    }
    drop(world);
    ledger.assert_all_dropped();
}

/// `clear` drops every component exactly once; the world is empty and reusable, and values
/// added after the clear are dropped with the world.
#[test]
fn clear_drops_every_component_exactly_once() {
    let ledger = Ledger::default();
    let mut world = World::new();
    let ids = world.spawn_batch((0..50).map(|_| (A(ledger.token()), B(ledger.token()))));
    for &e in ids.iter().step_by(3) {
        world.insert(e, C(ledger.token())).unwrap();
    }
    assert_eq!(ledger.live(), 117);
    world.clear();
    assert_eq!(ledger.live(), 0);
    assert!(world.is_empty());
    assert!(ids.iter().all(|&e| !world.is_alive(e)));
    ledger.assert_no_errors();

    world.clear();
    assert_eq!(ledger.dropped(), 117, "a second clear drops nothing");

    let again = world.spawn_batch((0..10).map(|_| A(ledger.token())));
    assert!(again.iter().all(|e| e.version() == 2));
    assert_eq!(ledger.live(), 10);
    assert_usable(&mut world, &ledger);
    drop(world);
    ledger.assert_all_dropped();
}

/// Dropping the world drops every component it holds exactly once, and nothing earlier.
#[test]
fn dropping_the_world_drops_every_component_exactly_once() {
    let ledger = Ledger::default();
    let mut world = World::new();
    for i in 0..40 {
        let e = world.spawn((A(ledger.token()), B(ledger.token())));
        if i % 3 == 0 {
            world.despawn(e).unwrap();
        }
    }
    let held = ledger.live();
    assert_eq!(held, 52);
    assert_eq!(ledger.dropped(), 28);
    drop(world);
    assert_eq!(ledger.dropped(), 28 + held);
    ledger.assert_all_dropped();
}

/// A `spawn_batch` whose iterator panics midway keeps the entities spawned before the panic
/// (alive, counted, holding their values), and drops the panicking item and the iterator's
/// leftovers exactly once.
#[test]
fn spawn_batch_cut_short_by_a_panicking_iterator() {
    let ledger = Ledger::default();
    let mut world = World::new();
    let before = world.spawn(A(ledger.token()));
    let items: Vec<(A, B)> = (0..10)
        .map(|_| (A(ledger.token()), B(ledger.token())))
        .collect();
    let ids: Vec<u64> = items.iter().map(|(a, _)| a.0.id).collect();
    let result = catch_unwind(AssertUnwindSafe(|| {
        world.spawn_batch(items.into_iter().enumerate().map(|(i, item)| {
            assert!(i != 4, "iterator gives up at item 4");
            item
        }))
    }));
    let payload = result.expect_err("the iterator panicked");
    assert_eq!(panic_message(&*payload), "iterator gives up at item 4");

    assert_eq!(world.len(), 5, "the first entity and four from the batch");
    // Entities are handed out in order: 1v1..=4v1 hold the first four items.
    for (i, &a_id) in ids.iter().enumerate().take(4) {
        let e = Entity::from_bits((1 << 32) | (i as u64 + 1)).unwrap();
        assert!(world.is_alive(e), "{e:?}");
        assert_eq!(world.get::<A>(e).unwrap().0.id, a_id);
        assert!(world.contains::<B>(e));
    }
    assert!(!world.is_alive(Entity::from_bits((1 << 32) | 5).unwrap()));
    assert_eq!(
        ledger.live(),
        1 + 4 * 2,
        "the rest of the batch was dropped"
    );
    assert!(ids[4..].iter().all(|&id| !ledger.is_live(id)));
    ledger.assert_no_errors();

    assert!(world.is_alive(before));
    assert_usable(&mut world, &ledger);
    assert_eq!(
        world.spawn(()).index(),
        5,
        "spawning continues after the batch"
    );
    drop(world);
    ledger.assert_all_dropped();
}

/// A `Drop` that panics during `despawn` is re-raised after the entity is fully despawned: the
/// entity's other components (including a second panicking one) are dropped exactly once,
/// other entities are untouched, and the world stays usable.
#[test]
fn panicking_drop_during_despawn_still_drops_the_rest() {
    let ledger = Ledger::default();
    let mut world = World::new();
    let left = world.spawn((A(ledger.token()), B(ledger.token()), C(ledger.token())));
    let victim = world.spawn((A(ledger.token()), B(ledger.bomb()), C(ledger.token())));
    let right = world.spawn((A(ledger.token()), C(ledger.token())));
    let victim_ids = held_ids(&world, victim);
    let left_ids = held_ids(&world, left);
    let right_ids = held_ids(&world, right);

    assert_bomb_panic(catch_unwind(AssertUnwindSafe(|| world.despawn(victim))));
    assert!(victim_ids.iter().all(|&id| !ledger.is_live(id)));
    assert!(!world.is_alive(victim));
    assert_eq!(world.len(), 2);
    assert_eq!(
        world.get::<A>(victim).unwrap_err(),
        Error::Despawned { entity: victim }
    );
    assert_eq!(
        world.despawn(victim),
        Err(Error::Despawned { entity: victim })
    );
    assert_eq!(held_ids(&world, left), left_ids);
    assert_eq!(held_ids(&world, right), right_ids);
    ledger.assert_no_errors();

    // Two panicking values in different storages, despawned through a handle: one panic
    // comes out, both are dropped once.
    let twice = world.spawn((A(ledger.bomb()), B(ledger.token()), C(ledger.bomb())));
    let twice_ids = held_ids(&world, twice);
    assert_bomb_panic(catch_unwind(AssertUnwindSafe(|| {
        world.entity_mut(twice).unwrap().despawn().unwrap();
    })));
    assert!(twice_ids.iter().all(|&id| !ledger.is_live(id)));
    assert!(!world.is_alive(twice));
    assert_eq!(twice.index(), victim.index(), "the victim's slot was freed");

    assert_usable(&mut world, &ledger);
    let reuse = world.spawn(B(ledger.token()));
    // Slot 1 held the victim (v1), `twice` (v2) and `assert_usable`'s entity (v3).
    assert_eq!((reuse.index(), reuse.version()), (1, 4));
    assert_eq!(world.len(), 3);
    drop(world);
    ledger.assert_all_dropped();
}

/// A `Drop` that panics during `clear` is re-raised after everything is cleared: every other
/// value (including a second panicking one in another storage) is dropped exactly once, every
/// handle is stale, and the world stays usable.
#[test]
fn panicking_drop_during_clear_still_drops_the_rest() {
    let ledger = Ledger::default();
    let mut world = World::new();
    let mut ids = Vec::new();
    for i in 0..20 {
        let a = if i == 7 {
            ledger.bomb()
        } else {
            ledger.token()
        };
        let c = if i == 12 {
            ledger.bomb()
        } else {
            ledger.token()
        };
        ids.push(world.spawn((A(a), B(ledger.token()), C(c))));
    }
    assert_bomb_panic(catch_unwind(AssertUnwindSafe(|| world.clear())));
    assert_eq!(ledger.live(), 0);
    ledger.assert_no_errors();
    assert!(world.is_empty());
    for &e in &ids {
        assert!(!world.is_alive(e));
        assert_eq!(world.get::<B>(e), Err(Error::Despawned { entity: e }));
        assert!(!world.contains::<A>(e));
    }
    let next = world.spawn(A(ledger.token()));
    assert_eq!(
        (next.index(), next.version()),
        (19, 2),
        "highest freed index first"
    );
    assert_usable(&mut world, &ledger);
    drop(world);
    ledger.assert_all_dropped();
}

/// A `Drop` that panics while the world itself is dropped still lets every other value be
/// dropped exactly once.
#[test]
fn panicking_drop_during_world_drop_still_drops_the_rest() {
    let ledger = Ledger::default();
    let mut world = World::new();
    for i in 0..20 {
        let b = if i == 5 {
            ledger.bomb()
        } else {
            ledger.token()
        };
        world.spawn((A(ledger.token()), B(b), C(ledger.token())));
    }
    assert_eq!(ledger.live(), 60);
    assert_bomb_panic(catch_unwind(AssertUnwindSafe(move || drop(world))));
    ledger.assert_all_dropped();
}

/// Two values whose `Drop` panics, in different storages, when the world drops: each
/// storage is dropped on its own, so the process does not abort, the first panic reaches
/// the caller, and every other value is still dropped exactly once.
#[test]
fn two_panicking_drops_in_different_storages_during_world_drop() {
    let ledger = Ledger::default();
    let mut world = World::new();
    for i in 0..10 {
        let a = if i == 2 {
            ledger.bomb()
        } else {
            ledger.token()
        };
        let c = if i == 7 {
            ledger.bomb()
        } else {
            ledger.token()
        };
        world.spawn((A(a), B(ledger.token()), C(c)));
    }
    assert_eq!(ledger.live(), 30);
    assert_bomb_panic(catch_unwind(AssertUnwindSafe(move || drop(world))));
    ledger.assert_all_dropped();
}

/// A value whose `Drop` panics when `insert_bundle` replaces it: the panic reaches the caller
/// once the whole bundle is stored, every value (old, new, and the rest of the bundle) is
/// dropped at most once, nothing leaks, the world holds exactly the values still live, and it
/// stays usable.
#[test]
fn panicking_drop_during_insert_bundle_overwrite() {
    let ledger = Ledger::default();
    let mut world = World::new();
    let e = world.spawn(A(ledger.bomb()));
    let bomb_id = world.get::<A>(e).unwrap().0.id;
    assert_bomb_panic(catch_unwind(AssertUnwindSafe(|| {
        world.insert_bundle(e, (A(ledger.token()), B(ledger.token()), C(ledger.token())))
    })));
    ledger.assert_no_errors();
    assert!(!ledger.is_live(bomb_id));
    assert!(world.is_alive(e));
    assert_eq!(
        ledger.live_ids(),
        held_ids(&world, e),
        "live values are exactly those the world holds"
    );
    assert!(
        world.contains::<A>(e) && world.contains::<B>(e) && world.contains::<C>(e),
        "the whole bundle was stored"
    );
    assert_usable(&mut world, &ledger);
    drop(world);
    ledger.assert_all_dropped();
}

/// A bundle given to `spawn` that repeats a type whose earlier value's `Drop` panics: the panic
/// reaches the caller once the entity is spawned whole (the `B` and the later `A`), every value
/// is dropped at most once, and the entity holds exactly the values still live.
#[test]
fn panicking_drop_inside_a_spawn_bundle() {
    let ledger = Ledger::default();
    let mut world = World::new();
    assert_bomb_panic(catch_unwind(AssertUnwindSafe(|| {
        world.spawn((A(ledger.bomb()), B(ledger.token()), A(ledger.token())))
    })));
    ledger.assert_no_errors();
    let e = Entity::from_bits(1 << 32).unwrap();
    assert!(
        world.contains::<A>(e) && world.contains::<B>(e),
        "spawned whole"
    );
    assert_eq!(ledger.live_ids(), held_ids(&world, e));
    assert_eq!(world.len(), 1);
    assert_usable(&mut world, &ledger);
    drop(world);
    ledger.assert_all_dropped();
}

/// Zero-sized tags with a `Drop` impl are dropped exactly once on every path (remove,
/// overwrite, despawn, clear, world drop), even though they store no data.
#[test]
fn zero_sized_tags_with_drop_are_dropped_exactly_once() {
    static MADE: AtomicUsize = AtomicUsize::new(0);
    static DROPPED: AtomicUsize = AtomicUsize::new(0);

    #[derive(Component, Debug)]
    struct Marked;

    impl Marked {
        fn new() -> Self {
            MADE.fetch_add(1, Ordering::SeqCst);
            Marked
        }
    }

    impl Drop for Marked {
        fn drop(&mut self) {
            DROPPED.fetch_add(1, Ordering::SeqCst);
        }
    }

    let live = || MADE.load(Ordering::SeqCst) - DROPPED.load(Ordering::SeqCst);
    assert_eq!(size_of::<Marked>(), 0);

    let mut world = World::new();
    let ids = world.spawn_batch((0..100).map(|_| Marked::new()));
    assert_eq!(live(), 100);

    let removed = world.remove::<Marked>(ids[0]).unwrap();
    assert_eq!(live(), 100, "the removed tag is still held by the caller");
    drop(removed);
    assert_eq!(live(), 99);

    let old = world.insert(ids[1], Marked::new()).unwrap();
    assert!(old.is_some());
    assert_eq!(live(), 100);
    drop(old);
    assert_eq!(live(), 99);

    world.insert_bundle(ids[2], (Marked::new(),)).unwrap();
    assert_eq!(live(), 99, "the replaced tag is dropped by insert_bundle");

    for &e in &ids[10..20] {
        world.despawn(e).unwrap();
    }
    assert_eq!(live(), 89);

    world.clear();
    assert_eq!(live(), 0);

    world.spawn_batch((0..7).map(|_| Marked::new()));
    drop(world);
    assert_eq!(live(), 0);
    assert_eq!(MADE.load(Ordering::SeqCst), 109);
    assert_eq!(DROPPED.load(Ordering::SeqCst), 109);
}

/// Boxed closures, `String`s and `Vec`s of tracked values survive moves inside the storages
/// intact (the closures still run and see their captures) and are dropped exactly once.
#[test]
fn boxed_closures_strings_and_vecs_are_dropped_exactly_once() {
    let ledger = Ledger::default();
    let mut world = World::new();
    let mut expected = Vec::new();
    for i in 0..40u64 {
        let token = ledger.token();
        let id = token.id;
        let e = world.spawn((
            Callback::owning(token),
            Label {
                text: format!("entity {i}"),
                token: ledger.token(),
            },
            Inventory((0..i % 4).map(|_| ledger.token()).collect()),
        ));
        expected.push((e, id, i));
    }
    // Swap-removes move the last values into the holes.
    for &(e, _, i) in &expected {
        if i % 5 == 0 {
            world.despawn(e).unwrap();
        }
    }
    let callback = world.remove::<Callback>(expected[1].0).unwrap();
    assert_eq!((callback.0)(), expected[1].1);
    drop(callback);
    let old = world
        .insert(
            expected[2].0,
            Inventory(vec![ledger.token(), ledger.token()]),
        )
        .unwrap()
        .unwrap();
    assert_eq!(old.0.len(), 2);
    drop(old);

    for &(e, id, i) in &expected {
        if i % 5 == 0 {
            assert!(!world.is_alive(e));
            continue;
        }
        if i != 1 {
            assert_eq!((world.get::<Callback>(e).unwrap().0)(), id);
        }
        let label = world.get::<Label>(e).unwrap();
        assert_eq!(label.text, format!("entity {i}"));
        assert!(ledger.is_live(label.token.id));
        let held = world.get::<Inventory>(e).unwrap().0.len();
        assert_eq!(held as u64, if i == 2 { 2 } else { i % 4 });
    }
    let held: usize = expected
        .iter()
        .filter(|&&(_, _, i)| i % 5 != 0)
        .map(|&(e, _, _)| {
            usize::from(world.contains::<Callback>(e))
                + 1
                + world.get::<Inventory>(e).unwrap().0.len()
        })
        .sum();
    assert_eq!(ledger.live(), held);
    ledger.assert_no_errors();

    world.clear();
    assert_eq!(ledger.live(), 0);
    world.spawn((
        Callback::owning(ledger.token()),
        Label {
            text: String::from("after clear"),
            token: ledger.token(),
        },
    ));
    drop(world);
    ledger.assert_all_dropped();
}

/// A long pseudo-random mix of every operation keeps the ledger's live ids equal, after every
/// step, to exactly the ids the world should hold (plus none held by the test), so any double
/// drop, early drop or leak is caught at the step that causes it.
#[test]
fn mixed_operations_keep_live_ids_in_sync_with_the_world() {
    /// xorshift64*: deterministic, so a failure reproduces.
    struct Rng(u64);
    impl Rng {
        fn below(&mut self, n: u64) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) % n
        }
    }

    let ledger = Ledger::default();
    let mut world = World::new();
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    // Entity -> [A id, B id, C id] the world should hold.
    let mut model: HashMap<Entity, [Option<u64>; 3]> = HashMap::new();
    let mut dead: Vec<Entity> = Vec::new();

    for step in 0..3000 {
        let mut live: Vec<Entity> = model.keys().copied().collect();
        live.sort();
        let pick = |rng: &mut Rng| live[rng.below(live.len() as u64) as usize];
        match rng.below(20) {
            0..=4 => {
                let (a, b) = (ledger.token(), ledger.token());
                let slots = [Some(a.id), Some(b.id), None];
                let e = world.spawn((A(a), B(b)));
                assert!(model.insert(e, slots).is_none());
            }
            5 => {
                let n = rng.below(5);
                let tokens: Vec<Token> = (0..n).map(|_| ledger.token()).collect();
                let ids: Vec<u64> = tokens.iter().map(|t| t.id).collect();
                let es = world.spawn_batch(tokens.into_iter().map(C));
                for (e, id) in es.into_iter().zip(ids) {
                    assert!(model.insert(e, [None, None, Some(id)]).is_none());
                }
            }
            6..=8 if !live.is_empty() => {
                let e = pick(&mut rng);
                let t = ledger.token();
                let id = t.id;
                let slot = rng.below(3) as usize;
                let old = match slot {
                    0 => world.insert(e, A(t)).unwrap().map(|v| v.0.id),
                    1 => world.insert(e, B(t)).unwrap().map(|v| v.0.id),
                    _ => world.insert(e, C(t)).unwrap().map(|v| v.0.id),
                };
                let slots = model.get_mut(&e).unwrap();
                assert_eq!(old, slots[slot].replace(id), "step {step}: insert");
            }
            9 if !live.is_empty() => {
                let e = pick(&mut rng);
                let (a, c) = (ledger.token(), ledger.token());
                let slots = model.get_mut(&e).unwrap();
                slots[0] = Some(a.id);
                slots[2] = Some(c.id);
                world.insert_bundle(e, (A(a), C(c))).unwrap();
            }
            10..=12 if !live.is_empty() => {
                let e = pick(&mut rng);
                let slot = rng.below(3) as usize;
                let got = match slot {
                    0 => world.remove::<A>(e).map(|v| v.0.id),
                    1 => world.remove::<B>(e).map(|v| v.0.id),
                    _ => world.remove::<C>(e).map(|v| v.0.id),
                };
                let slots = model.get_mut(&e).unwrap();
                assert_eq!(got.ok(), slots[slot].take(), "step {step}: remove");
            }
            13..=16 if !live.is_empty() => {
                let e = pick(&mut rng);
                world.despawn(e).unwrap();
                model.remove(&e);
                dead.push(e);
            }
            17 if !dead.is_empty() => {
                let e = dead[rng.below(dead.len() as u64) as usize];
                let t = ledger.token();
                assert_eq!(
                    world.insert(e, A(t)).map(|_| ()),
                    Err(Error::Despawned { entity: e })
                );
                assert_eq!(world.despawn(e), Err(Error::Despawned { entity: e }));
            }
            18 if rng.below(10) == 0 => {
                world.clear();
                dead.extend(model.drain().map(|(e, _)| e));
            }
            _ => {}
        }
        let expected: BTreeSet<u64> = model.values().flatten().flatten().copied().collect();
        assert_eq!(ledger.live_ids(), expected, "step {step}: live ids");
        ledger.assert_no_errors();
    }
    for (&e, slots) in &model {
        let held: BTreeSet<u64> = slots.iter().flatten().copied().collect();
        assert_eq!(held_ids(&world, e), held, "{e:?}");
    }
    drop(world);
    ledger.assert_all_dropped();
}
