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
    world.data.storages.get_or_create::<Health>().remove(first);
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

macro_rules! many_types {
    ($($name:ident),*) => {
        $(
            #[derive(Component, Debug, PartialEq)]
            struct $name(u32);
        )*
        /// Registers every type, in order, on a throwaway entity.
        fn register_all(world: &mut World) {
            let e = world.spawn(());
            $(world.insert(e, $name(0)).unwrap();)*
            world.despawn(e).unwrap();
        }
    };
}

many_types!(
    T00, T01, T02, T03, T04, T05, T06, T07, T08, T09, T10, T11, T12, T13, T14, T15, T16, T17, T18,
    T19, T20, T21, T22, T23, T24, T25, T26, T27, T28, T29, T30, T31, T32, T33, T34, T35, T36, T37,
    T38, T39, T40, T41, T42, T43, T44, T45, T46, T47, T48, T49, T50, T51, T52, T53, T54, T55, T56,
    T57, T58, T59, T60, T61, T62, T63, T64, T65, T66, T67, T68, T69
);

/// Component ids on both sides of the mask's reach (64) are found by
/// `components_of` and removed by `despawn`.
#[test]
fn components_beyond_the_mask_are_tracked_too() {
    let mut world = World::new();
    register_all(&mut world);
    let e = world.spawn((T00(1), T63(2), T64(3), T69(4)));
    let other = world.spawn((T64(5), T01(6)));
    let held: Vec<_> = world
        .components_of(e)
        .unwrap()
        .map(|c| c.name().to_owned())
        .collect();
    assert_eq!(held, ["T00", "T63", "T64", "T69"]);
    world.remove::<T63>(e).unwrap();
    world.remove::<T64>(e).unwrap();
    let held: Vec<_> = world
        .components_of(e)
        .unwrap()
        .map(|c| c.name().to_owned())
        .collect();
    assert_eq!(held, ["T00", "T69"]);
    world.despawn(e).unwrap();
    assert_eq!(
        world.stats().components,
        2,
        "only `other`'s components remain"
    );
    assert_eq!(world.get::<T64>(other), Ok(&T64(5)));
    let reused = world.spawn(());
    assert_eq!(reused.index(), e.index());
    assert_eq!(
        world.components_of(reused).unwrap().count(),
        0,
        "a reused slot starts empty"
    );
    world.assert_invariants();
}

#[derive(Component, Debug, PartialEq)]
#[component(track_changes)]
struct Tracked(u32);

#[derive(Component, Debug, PartialEq)]
struct Label(String);

/// Yields `(Health(i), Tracked(i), Label)` for `i` in `0..len`, claiming `hint` as its size
/// hint, and panics when asked for item `panic_at`.
struct Batch {
    next: u32,
    len: u32,
    panic_at: u32,
    hint: (usize, Option<usize>),
}

impl Iterator for Batch {
    type Item = (Health, Tracked, Label);

    fn next(&mut self) -> Option<Self::Item> {
        let i = self.next;
        self.next += 1;
        assert!(i != self.panic_at, "batch iterator panics at item {i}");
        (i < self.len).then(|| (Health(i as i32), Tracked(i), Label(i.to_string())))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.hint
    }
}

/// A batch whose iterator panics part-way, into a fresh world or one with free slots, with
/// right, unknown, short and inflated size hints, across sparse pages and storage growth:
/// every bundle yielded before the panic is a whole entity under the id `spawn` would have
/// given it, with one tick for all, and the storages, masks and allocator stay consistent.
#[test]
fn a_batch_that_panics_part_way_leaves_whole_entities_and_a_consistent_world() {
    for free_slots in [0u32, 3, 40] {
        for len in [0u32, 1, 5, 300, 5000] {
            for panic_at in [0, 1, len / 2, len.saturating_sub(1), len, u32::MAX] {
                for hint in [
                    (len as usize, Some(len as usize)),
                    (0, None),
                    (1, Some(1)),
                    (len as usize * 2 + 7, None),
                ] {
                    let mut world = World::new();
                    let mut expected = World::new();
                    for w in [&mut world, &mut expected] {
                        let ids: Vec<_> = (0..free_slots * 2)
                            .map(|i| w.spawn(Health(-(i as i32))))
                            .collect();
                        for e in ids.into_iter().step_by(2) {
                            w.despawn(e).unwrap();
                        }
                    }
                    let before = world.data.clock.current();
                    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        world.spawn_batch(Batch {
                            next: 0,
                            len,
                            panic_at,
                            hint,
                        })
                    }));
                    let yielded = panic_at.min(len);
                    match &result {
                        Ok(ids) => {
                            assert!(panic_at > len);
                            assert_eq!(ids.len(), len as usize);
                        }
                        Err(_) => assert!(panic_at <= len),
                    }
                    world.assert_invariants();
                    let next: Vec<Entity> = (0..yielded)
                        .map(|i| expected.spawn(Health(i as i32)))
                        .collect();
                    if let Ok(ids) = &result {
                        assert_eq!(ids, &next, "the ids spawn would have given");
                    }
                    assert_eq!(world.len(), expected.len());
                    for (i, &e) in next.iter().enumerate() {
                        assert_eq!(world.get::<Health>(e), Ok(&Health(i as i32)));
                        assert_eq!(world.get::<Tracked>(e), Ok(&Tracked(i as u32)));
                        assert_eq!(
                            world.get::<Label>(e).map(|l| l.0.as_str()),
                            Ok(i.to_string().as_str())
                        );
                        assert_eq!(world.components_of(e).unwrap().count(), 3);
                    }
                    assert_eq!(
                        world.data.clock.current(),
                        before + 1,
                        "one tick for the batch"
                    );
                    let tracked = world.data.storages.get_or_create::<Tracked>();
                    for &e in &next {
                        assert_eq!(tracked.ticks_of(e), Some((before + 1, before + 1)));
                    }
                    // The allocator goes on where the batch stopped.
                    assert_eq!(world.spawn(()), expected.spawn(()));
                    world.assert_invariants();
                }
            }
        }
    }
}

/// Each type's structural changes take the plain path unless something
/// follows that type: hooks, observers and groups of other types leave it
/// there, so one hooked type does not slow every insert and removal.
#[test]
fn only_followed_types_leave_the_unhooked_path() {
    #[derive(Component)]
    struct Plain;
    #[derive(Component)]
    struct Replaced;
    #[derive(Component)]
    struct Removed;
    #[derive(Component)]
    struct Watched;
    #[derive(Component)]
    struct Left;
    #[derive(Component)]
    struct Right;

    fn nothing(_: DeferredWorld<'_>, _: HookContext) {}

    let mut world = World::new();
    world
        .register_component_hooks::<Replaced>()
        .on_replace(nothing);
    world
        .register_component_hooks::<Removed>()
        .on_remove(nothing);
    world.spawn((Plain, Replaced, Removed, Watched, Left, Right));
    world.observe(|_: OnRemove<Watched>| {});
    world.group::<(Left, Right)>().unwrap();
    let id = |world: &World, name: &str| {
        let ids = [
            ("Plain", world.data.storages.id_of::<Plain>()),
            ("Replaced", world.data.storages.id_of::<Replaced>()),
            ("Removed", world.data.storages.id_of::<Removed>()),
            ("Watched", world.data.storages.id_of::<Watched>()),
            ("Left", world.data.storages.id_of::<Left>()),
        ];
        ids.into_iter()
            .find(|(n, _)| *n == name)
            .unwrap()
            .1
            .unwrap()
    };

    let unhooked: Vec<&str> = ["Plain", "Replaced", "Removed", "Watched", "Left"]
        .into_iter()
        .filter(|name| world.structure_unhooked_for(id(&world, name)))
        .collect();
    assert_eq!(unhooked, ["Plain"]);

    let removals_heard: Vec<&str> = ["Plain", "Replaced", "Removed", "Watched", "Left"]
        .into_iter()
        .filter(|name| world.follow_removals_of(id(&world, name)))
        .collect();
    assert_eq!(removals_heard, ["Replaced", "Removed", "Watched"]);

    let replacements_heard: Vec<&str> = ["Plain", "Replaced", "Removed", "Watched", "Left"]
        .into_iter()
        .filter(|name| {
            world
                .component_hooks
                .follow_replacements_of(id(&world, name))
        })
        .collect();
    assert_eq!(replacements_heard, ["Replaced"]);
}
