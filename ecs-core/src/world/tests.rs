//! Unit tests of `World` that need crate-private hooks (the rest live in `ecs-core/tests/`).

use core::num::NonZeroU32;

use crate::prelude::*;

#[derive(Component, Debug, PartialEq)]
struct Health(i32);

/// Seed 003: a slot whose version would overflow is retired, never handed out again.
#[test]
fn seed_003_retired_slot_is_never_reused() {
    let mut world = World::new();
    let first = world.spawn(Health(1));
    let top = NonZeroU32::new(u32::MAX - 1).unwrap();
    let near_top = world.entities_mut().force_version(first, top);
    // The storage keyed the old version; move the component over to the new id.
    world.storages.get_or_create::<Health>().remove(first);
    world.insert(near_top, Health(1)).unwrap();

    world.despawn(near_top).unwrap();
    let last = world.spawn(Health(2));
    assert_eq!((last.index(), last.version()), (0, u32::MAX));

    world.despawn(last).unwrap();
    let fresh: Vec<_> = (0..10).map(|_| world.spawn(())).collect();
    assert!(
        fresh.iter().all(|e| e.index() != 0),
        "slot 0 was reused after retirement: {fresh:?}"
    );
    assert_eq!(
        world.get::<Health>(last),
        Err(Error::Despawned { entity: last })
    );
    assert_eq!(world.despawn(last), Err(Error::Despawned { entity: last }));
    assert_eq!(world.entities_mut().free_count(), 0);
    world.assert_invariants();
}

#[test]
fn retired_slots_stay_retired_across_clear() {
    let mut world = World::new();
    let e = world.spawn(());
    let top = world.entities_mut().force_version(e, NonZeroU32::MAX);
    world.clear();
    assert!(!world.is_alive(top));
    assert_eq!(world.spawn(()).index(), 1);
}

#[test]
fn storages_only_hold_live_entities() {
    let mut world = World::new();
    let ids = world.spawn_batch((0..50).map(Health));
    for &e in ids.iter().step_by(3) {
        world.despawn(e).unwrap();
    }
    for i in 0..20 {
        world.spawn(Health(100 + i));
    }
    world.assert_invariants();
    world.clear();
    world.assert_invariants();
}
