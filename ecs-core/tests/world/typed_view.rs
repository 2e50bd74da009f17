//! Typed storage views (`World::view`, `World::view_mut`) behave as the
//! per-call `World` methods do around what a view skips: observers fire in
//! the same order, groups stay packed, tracked types get their ticks, dead
//! entities give the same errors, and a command that replaces the whole
//! world mid-loop leaves the view working on the new one. (The model and
//! fuzz tests in `model.rs` / `fuzz_ops.rs` compare views with a reference
//! model over random operation sequences.)

use ecs_core::prelude::*;

#[derive(Component, Debug, PartialEq, Clone, Copy)]
struct Position(i32);

#[derive(Component, Debug, PartialEq, Clone, Copy)]
struct Velocity(i32);

#[derive(Component, Debug, PartialEq)]
#[component(track_changes)]
struct Health(i32);

#[derive(Default)]
struct Log(Vec<String>);

#[test]
fn observers_see_view_changes_as_they_see_world_changes() {
    let run = |through_view: bool| {
        let mut world = World::new();
        world.insert_resource(Log::default());
        world.observe(|t: OnAdd<Velocity>, mut log: ResMut<Log>| {
            log.0.push(format!("add {}", t.entity()))
        });
        world.observe(|t: OnInsert<Velocity>, mut log: ResMut<Log>| {
            log.0.push(format!("insert {}", t.entity()))
        });
        world.observe(
            |t: OnRemove<Velocity>, q: Query<&Velocity>, mut log: ResMut<Log>| {
                // Still there while its removal is announced.
                let v = q.get(t.entity()).expect("present during OnRemove").0;
                log.0.push(format!("remove {} {v}", t.entity()))
            },
        );
        let ids = world.spawn_batch((0..4).map(Position));
        if through_view {
            let mut v = world.view_mut::<Velocity>();
            for (i, &e) in ids.iter().enumerate() {
                v.insert(e, Velocity(i as i32)).unwrap();
            }
            v.insert(ids[1], Velocity(10)).unwrap();
            v.remove(ids[2]).unwrap();
            assert!(v.remove(ids[2]).is_err());
        } else {
            for (i, &e) in ids.iter().enumerate() {
                world.insert(e, Velocity(i as i32)).unwrap();
            }
            world.insert(ids[1], Velocity(10)).unwrap();
            world.remove::<Velocity>(ids[2]).unwrap();
            assert!(world.remove::<Velocity>(ids[2]).is_err());
        }
        world.resource::<Log>().unwrap().0.clone()
    };
    let by_view = run(true);
    assert_eq!(by_view, run(false));
    assert_eq!(by_view.len(), 4 * 2 + 1 + 1, "{by_view:?}");
    assert!(by_view.contains(&"remove 2v1 2".to_owned()), "{by_view:?}");
}

#[test]
fn an_observer_that_changes_the_viewed_storage_is_seen_by_the_view() {
    let mut world = World::new();
    let other = world.spawn(Position(0));
    // Every Velocity added also gives `other` one, through the observer's commands.
    world.observe(move |_: OnAdd<Velocity>, mut commands: Commands| {
        commands.insert(other, Velocity(-1));
    });
    let e = world.spawn(Position(1));
    let mut v = world.view_mut::<Velocity>();
    v.insert(e, Velocity(5)).unwrap();
    assert_eq!(v.get(other), Ok(&Velocity(-1)));
    assert_eq!(v.len(), 2);
    v.remove(other).unwrap();
    assert!(!v.contains(other));
    assert_eq!(v.get(e), Ok(&Velocity(5)));
}

#[test]
fn a_command_that_replaces_the_world_leaves_the_view_on_the_new_one() {
    let mut world = World::new();
    world.observe(|_: OnAdd<Velocity>, mut commands: Commands| {
        commands.add(|world: &mut World| {
            let mut fresh = World::new();
            fresh.spawn(Velocity(99));
            *world = fresh;
        });
    });
    let e = world.spawn(Position(1));
    let mut v = world.view_mut::<Velocity>();
    v.insert(e, Velocity(1)).unwrap();
    // The world the view borrows is now the fresh one: one Velocity, not `e`'s.
    assert_eq!(v.len(), 1);
    let only = world
        .query::<(Entity, &Velocity)>()
        .iter()
        .next()
        .map(|(e, v)| (e, *v));
    assert_eq!(only.map(|(_, v)| v), Some(Velocity(99)));
    let mut v = world.view_mut::<Velocity>();
    let (first, _) = only.unwrap();
    assert_eq!(v.remove(first), Ok(Velocity(99)));
    assert!(v.is_empty());
}

#[test]
fn views_keep_groups_packed() {
    let mut world = World::new();
    world.group::<(Position, Velocity)>().unwrap();
    let ids = world.spawn_batch((0..20).map(Position));
    {
        let mut v = world.view_mut::<Velocity>();
        for &e in ids.iter().step_by(3) {
            v.insert(e, Velocity(1)).unwrap();
        }
        v.remove(ids[3]).unwrap();
    }
    let mut movers = world.query::<(&mut Position, &Velocity)>();
    let (positions, velocities) = movers.slices().unwrap();
    assert_eq!(positions.len(), 6);
    assert_eq!(velocities.len(), 6);
    let mut held: Vec<i32> = positions.iter().map(|p| p.0).collect();
    held.sort_unstable();
    assert_eq!(held, [0, 6, 9, 12, 15, 18]);
}

#[test]
fn tracked_types_through_a_view_are_added_and_changed() {
    let mut world = World::new();
    let e = world.spawn(Position(0));
    let f = world.spawn(Health(5));
    let since = world.change_tick();
    {
        let mut h = world.view_mut::<Health>();
        h.insert(e, Health(1)).unwrap();
        h.get_mut(f).unwrap().0 -= 1;
        // A value read and never written is not changed.
        let _ = h.get_mut(e).unwrap();
    }
    let added: Vec<Entity> = world
        .query_filtered::<Entity, Added<Health>>()
        .changed_since(since)
        .iter()
        .collect();
    assert_eq!(added, [e]);
    let mut changed: Vec<Entity> = world
        .query_filtered::<Entity, Changed<Health>>()
        .changed_since(since)
        .iter()
        .collect();
    changed.sort();
    assert_eq!(changed, [e, f]);
    assert_eq!(world.get::<Health>(f), Ok(&Health(4)));
}

#[test]
fn dead_and_unknown_entities_give_the_same_errors_as_the_world() {
    let mut world = World::new();
    let dead = world.spawn(Position(1));
    world.despawn(dead).unwrap();
    let bare = world.spawn(());
    let made_up = Entity::from_bits((7 << 32) | 5000).unwrap();
    for e in [dead, bare, made_up] {
        let expected = world.get::<Position>(e).unwrap_err();
        assert_eq!(world.view::<Position>().get(e).unwrap_err(), expected);
        assert_eq!(world.view_mut::<Position>().get(e).unwrap_err(), expected);
        assert_eq!(
            world.view_mut::<Position>().remove(e).unwrap_err(),
            world.remove::<Position>(e).unwrap_err()
        );
        assert_eq!(
            world.view_mut::<Position>().insert(e, Position(0)).is_err(),
            world.insert(e, Position(0)).is_err()
        );
        assert!(!world.view::<Position>().contains(e) || e == bare);
    }
    assert_eq!(
        world.view::<Position>().get(dead).unwrap_err().to_string(),
        format!("entity {dead} was despawned")
    );
}

#[test]
fn a_view_of_a_type_never_stored_reads_nothing() {
    let mut world = World::new();
    let e = world.spawn(Position(1));
    let v = world.view::<Velocity>();
    assert!(v.is_empty());
    assert!(!v.contains(e));
    assert_eq!(
        v.get(e).unwrap_err().to_string(),
        format!("entity {e} does not have component `Velocity`")
    );
}

/// With no group and no observer of structural change, a view's inserts and
/// removals change the storage and the entity's component mask alone; once an
/// observer's command unobserves the last observer, the same view carries on
/// that way, and what it did is what `components_of` and `despawn` see.
#[test]
fn a_view_without_listeners_keeps_masks_and_notices_the_last_observer_leave() {
    use std::sync::{Arc, Mutex};

    let mut world = World::new();
    let a = world.spawn(Position(1));
    let b = world.spawn(Position(2));
    {
        let mut v = world.view_mut::<Velocity>();
        assert_eq!(v.insert(a, Velocity(10)), Ok(None));
        assert_eq!(v.insert(a, Velocity(11)), Ok(Some(Velocity(10))));
        assert_eq!(v.insert(b, Velocity(20)), Ok(None));
        assert_eq!(v.remove(b), Ok(Velocity(20)));
        assert!(v.remove(b).is_err());
    }
    let held = |world: &World, e| -> Vec<String> {
        let mut names: Vec<String> = world
            .components_of(e)
            .unwrap()
            .map(|c| c.name().to_owned())
            .collect();
        names.sort();
        names
    };
    assert_eq!(held(&world, a), ["Position", "Velocity"]);
    assert_eq!(held(&world, b), ["Position"]);

    let fired = Arc::new(Mutex::new(0));
    let me: Arc<Mutex<Option<ObserverId>>> = Arc::default();
    let id = world.observe({
        let (fired, me) = (fired.clone(), me.clone());
        move |_: OnAdd<Velocity>, mut commands: Commands| {
            *fired.lock().unwrap() += 1;
            let id = me.lock().unwrap().expect("registered");
            commands.add(move |world: &mut World| world.unobserve(id).unwrap());
        }
    });
    *me.lock().unwrap() = Some(id);
    {
        let mut v = world.view_mut::<Velocity>();
        assert_eq!(v.insert(b, Velocity(21)), Ok(None));
        assert_eq!(v.remove(a), Ok(Velocity(11)));
        assert_eq!(v.insert(a, Velocity(12)), Ok(None));
    }
    assert_eq!(
        *fired.lock().unwrap(),
        1,
        "the observer left after its first event"
    );
    assert_eq!(held(&world, a), ["Position", "Velocity"]);
    assert_eq!(held(&world, b), ["Position", "Velocity"]);
    world.despawn(a).unwrap();
    assert_eq!(world.view::<Velocity>().len(), 1);
    assert_eq!(
        world
            .query::<&Velocity>()
            .iter()
            .copied()
            .collect::<Vec<_>>(),
        [Velocity(21)]
    );
}

/// An observer's command that replaces the whole world and then panics: the
/// panic reaches the caller of the view's `insert` (or `remove`), and a view
/// caught past it works on the new world, never the dropped one's storage.
#[test]
fn a_view_caught_past_a_panicking_command_works_on_the_world_it_left() {
    use std::panic::{AssertUnwindSafe, catch_unwind};

    for removing in [false, true] {
        let mut world = World::new();
        let e = if removing {
            world.spawn(Velocity(1))
        } else {
            world.spawn(Position(1))
        };
        let replace = |mut commands: Commands| {
            commands.add(|world: &mut World| {
                let mut fresh = World::new();
                fresh.spawn(Velocity(7));
                *world = fresh;
                panic!("command panic");
            });
        };
        if removing {
            world.observe(move |_: OnRemove<Velocity>, commands: Commands| replace(commands));
        } else {
            world.observe(move |_: OnAdd<Velocity>, commands: Commands| replace(commands));
        }
        let mut v = world.view_mut::<Velocity>();
        let result = catch_unwind(AssertUnwindSafe(|| {
            if removing {
                v.remove(e).map(|_| ())
            } else {
                v.insert(e, Velocity(2)).map(|_| ())
            }
        }));
        assert!(result.is_err(), "the command's panic reaches the caller");
        // The fresh world: one entity, `0v1`, with Velocity(7); `e` was `0v1` too.
        assert_eq!(v.len(), 1);
        assert_eq!(v.get(e), Ok(&Velocity(7)));
        assert_eq!(v.insert(e, Velocity(8)), Ok(Some(Velocity(7))));
        assert_eq!(v.remove(e), Ok(Velocity(8)));
        assert!(v.is_empty());
    }
}
