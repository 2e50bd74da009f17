//! Paths to component data that outlive one call stay valid when a hook
//! reborrows the same storages in between: the pointer-provenance rule of
//! `Storages` and `WorldView`. Small on purpose, so the whole file runs under
//! miri (`cargo +nightly miri test -p ecs-core --test world -- provenance::`), which
//! checks Rust's aliasing rules where valgrind sees nothing wrong.

use ecs_core::prelude::*;

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Position(f32);
#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Velocity(f32);
#[derive(Component, Debug, PartialEq)]
struct Name(String);

/// A batch resolves its storages once; the group reorders the same storages
/// after every entity; the next entity still writes through the batch's pointers.
#[test]
fn spawn_batch_into_a_grouped_world() {
    let mut world = World::new();
    world.group::<(Position, Velocity)>().unwrap();
    world.spawn(Position(-1.0));
    let ids =
        world.spawn_batch((0..8).map(|i| (Position(i as f32), Velocity(1.0), Name(i.to_string()))));
    for (i, &e) in ids.iter().enumerate() {
        assert_eq!(world.get::<Position>(e).unwrap(), &Position(i as f32));
        assert_eq!(world.get::<Name>(e).unwrap(), &Name(i.to_string()));
    }
    let mut movers = world.query::<(&mut Position, &Velocity)>();
    let (positions, velocities) = movers.slices().unwrap();
    assert_eq!(positions.len(), 8);
    for (p, v) in positions.iter_mut().zip(velocities) {
        p.0 += v.0;
    }
    assert_eq!(world.get::<Position>(ids[7]).unwrap(), &Position(8.0));
}

/// Inserting and removing grouped types swaps entities inside storages that
/// a later query reads through the storages' root pointers.
#[test]
fn group_swaps_then_query_writes() {
    let mut world = World::new();
    world.group::<(Position, Velocity)>().unwrap();
    let ids: Vec<Entity> = (0..6).map(|i| world.spawn(Position(i as f32))).collect();
    for &e in ids.iter().step_by(2) {
        world.insert(e, Velocity(2.0)).unwrap();
    }
    world.remove::<Velocity>(ids[2]).unwrap();
    world.despawn(ids[0]).unwrap();
    world
        .query::<(&mut Position, &Velocity)>()
        .for_each(|(p, v)| p.0 *= v.0);
    assert_eq!(world.get::<Position>(ids[4]).unwrap(), &Position(8.0));
    assert_eq!(world.get::<Position>(ids[2]).unwrap(), &Position(2.0));
    let mut n = 0;
    for (p, v) in world.query::<(&Position, Option<&Velocity>)>().iter() {
        n += 1;
        assert!(p.0 >= 1.0 && v.is_none_or(|v| v.0 == 2.0));
    }
    assert_eq!(n, 5);
}

/// Mutable items of one query stay valid while the query hands out others,
/// and read-only queries of the same world overlap freely.
#[test]
fn items_of_one_query_do_not_invalidate_each_other() {
    let mut world = World::new();
    let ids = world.spawn_batch((0..4).map(|i| (Position(i as f32), Velocity(i as f32))));
    let mut query = world.query::<(&mut Position, &Velocity)>();
    let items: Vec<_> = query.iter_mut().collect();
    for (p, v) in items {
        p.0 += v.0;
    }
    let positions = world.query_ref::<&Position>();
    let velocities = world.query_ref::<&Velocity>();
    for &e in &ids {
        assert_eq!(
            positions.get(e).unwrap().0,
            2.0 * velocities.get(e).unwrap().0
        );
    }
}

/// Despawning and clearing drop every value exactly once through the same paths.
#[test]
fn despawn_and_clear_with_owned_values() {
    let mut world = World::new();
    world.group::<(Position, Name)>().unwrap();
    let ids = world.spawn_batch((0..5).map(|i| (Position(0.0), Name(format!("n{i}")))));
    world.despawn(ids[1]).unwrap();
    assert_eq!(world.remove::<Name>(ids[3]).unwrap(), Name("n3".into()));
    world.clear();
    assert!(world.is_empty());
    let e = world.spawn((Position(1.0), Name("again".into())));
    assert_eq!(world.get::<Name>(e).unwrap().0, "again");
}

#[derive(Component, Clone, Copy, Debug, PartialEq)]
#[component(track_changes)]
struct Health(i32);

/// Items of a tracked type hold references to their own changed ticks while
/// the query's `Changed` filter reads the ticks of the entities after them,
/// and a group swaps values and ticks between runs.
#[test]
fn mut_items_beside_a_change_filter_of_the_same_storage() {
    let mut world = World::new();
    world.group::<(Health, Velocity)>().unwrap();
    let ids = world.spawn_batch((0..6).map(|i| (Health(i), Velocity(1.0))));
    world.spawn(Health(-1));
    world.remove::<Velocity>(ids[1]).unwrap();
    let since = world.change_tick();
    {
        let mut query = world
            .query_filtered::<(Entity, &mut Health), Changed<Health>>()
            .changed_since(ecs_core::change::Tick::ZERO);
        let mut items: Vec<_> = query.iter_mut().collect();
        for (_, h) in items.iter_mut().rev() {
            h.0 += 10;
        }
    }
    world.get_mut::<Health>(ids[2]).unwrap().0 = 0;
    let changed = world
        .query_filtered::<Entity, Changed<Health>>()
        .changed_since(since)
        .iter()
        .count();
    assert_eq!(changed, 7);
    let mut grouped = world.query::<(&mut Health, &Velocity)>();
    let (healths, _) = grouped.slices().unwrap();
    healths[0].0 = 1;
}

/// A typed view keeps its storage's root pointer across calls; the group
/// hook reborrows the same storages inside each insert and remove, and an
/// observer's command writes the viewed storage between two of the view's
/// calls. Every value read back is the one written.
#[test]
fn a_typed_view_across_group_swaps_and_observer_commands() {
    let mut world = World::new();
    world.group::<(Position, Velocity)>().unwrap();
    world.observe(|t: OnAdd<Name>, mut commands: Commands| {
        commands.insert(t.entity(), Velocity(7.0));
    });
    let ids = world.spawn_batch((0..6).map(|i| Position(i as f32)));
    let mut v = world.view_mut::<Velocity>();
    for (i, &e) in ids.iter().enumerate().step_by(2) {
        v.insert(e, Velocity(i as f32)).unwrap();
    }
    let held = v.get(ids[4]).unwrap();
    assert_eq!(held, &Velocity(4.0));
    v.get_mut(ids[2]).unwrap().0 += 0.5;
    assert_eq!(v.remove(ids[0]).unwrap(), Velocity(0.0));
    world.insert(ids[1], Name("one".into())).unwrap();
    let v = world.view::<Velocity>();
    assert_eq!(v.get(ids[1]).unwrap(), &Velocity(7.0));
    assert_eq!(v.get(ids[2]).unwrap(), &Velocity(2.5));
    assert_eq!(v.len(), 3);
}

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Tag;

/// A `spawn_batch` whose iterator yields `yielded` bundles and panics at the
/// next: the panic must reach the caller, with the bundles before it spawned.
fn spawn_batch_panicking_after(world: &mut World, yielded: i32) {
    let mut left = yielded + 1;
    let panicking = core::iter::from_fn(|| {
        left -= 1;
        assert!(left > 0, "iterator panic");
        Some((Name(format!("p{left}")), Health(left), Tag))
    });
    let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        world.spawn_batch(panicking)
    }));
    assert!(result.is_err());
}

/// A batch of fresh ids writes each value past the end of its storage's data and
/// commits whole runs: through an iterator of unknown length (so the storages grow, and
/// the write pointers are retaken, several times), into a world with a free slot (taken
/// first, one by one), and through one that panics part-way (the values written so far
/// are committed, none is dropped twice); queries and drops read everything back.
#[test]
fn fresh_runs_write_past_the_end_and_commit() {
    let mut world = World::new();
    let first = world.spawn((Position(-1.0), Name("free".into())));
    world.despawn(first).unwrap();
    let unknown = (0..40).filter(|_| true);
    let ids = world.spawn_batch(unknown.map(|i| (Name(format!("n{i}")), Health(i), Tag)));
    assert_eq!(ids.len(), 40);
    assert_eq!(ids[0].index(), first.index(), "the free slot goes first");
    spawn_batch_panicking_after(&mut world, 6);
    assert_eq!(world.len(), 46);
    let mut query = world.query::<(&Name, &mut Health, &Tag)>();
    for (name, mut health, _) in query.iter_mut() {
        health.0 += name.0.len() as i32;
    }
    assert_eq!(world.get::<Name>(ids[39]).unwrap().0, "n39");
    assert_eq!(world.get::<Health>(ids[39]).unwrap().0, 39 + 3);
    world.despawn(ids[5]).unwrap();
    world.clear();
}

/// A batch into a world with many free slots writes its values past the end of
/// each storage's data under the reused ids, as a fresh run does: the storages of
/// the batch's types start empty, so an iterator of unknown length grows them (and
/// the write pointers are retaken) several times before the free list runs out and
/// the batch goes on with fresh ids; a second batch panics part-way through the
/// free list. Every id comes in the order one-by-one spawns would take them, and
/// queries and drops read everything back.
#[test]
fn reused_runs_write_past_the_end_and_commit() {
    let mut world = World::new();
    let old = world.spawn_batch((0..60).map(|i| Position(i as f32)));
    for &e in old.iter().rev().step_by(2) {
        world.despawn(e).unwrap();
    }
    let mut expected = World::new();
    let twin = expected.spawn_batch((0..60).map(|i| Position(i as f32)));
    for &e in twin.iter().rev().step_by(2) {
        expected.despawn(e).unwrap();
    }
    let unknown = (0..45).filter(|_| true);
    let ids = world.spawn_batch(unknown.map(|i| (Name(format!("n{i}")), Health(i), Tag)));
    let one_by_one: Vec<Entity> = (0..45).map(|_| expected.spawn(Tag)).collect();
    assert_eq!(
        ids, one_by_one,
        "free slots first, most recently freed first"
    );
    for (i, &e) in ids.iter().enumerate() {
        assert_eq!(world.get::<Name>(e).unwrap().0, format!("n{i}"));
        assert_eq!(world.get::<Health>(e).unwrap().0, i as i32);
        assert!(!world.contains::<Position>(e), "a reused id starts bare");
    }
    for &e in ids.iter().take(10) {
        world.despawn(e).unwrap();
    }
    spawn_batch_panicking_after(&mut world, 5);
    assert_eq!(world.len(), 30 + 45 - 10 + 5);
    let mut query = world.query::<(&Name, &mut Health, &Tag)>();
    for (name, mut health, _) in query.iter_mut() {
        health.0 += name.0.len() as i32;
    }
    assert_eq!(world.query::<&Tag>().iter().count(), 45 - 10 + 5);
    assert_eq!(world.get::<Health>(ids[44]).unwrap().0, 44 + 3);
    world.despawn(ids[20]).unwrap();
    world.clear();
}

/// A query state keeps storage roots between frames while the world writes
/// those storages through fresh `&mut` borrows (`get_mut`, inserts that
/// grow the arrays, removals that swap, a group that reorders, a merge);
/// every later frame still reads and writes through the kept roots, and a
/// system's kept state does the same beside them.
#[test]
fn query_state_kept_across_frames() {
    fn step(mut q: Query<(&mut Position, &Velocity)>) {
        q.for_each(|(p, v)| p.0 += v.0);
    }
    let mut world = World::new();
    let mut moving = world.query_state::<(&mut Position, &Velocity)>();
    let mut names = world.query_state::<&Name>();
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, step).unwrap();
    let a = world.spawn((Position(0.0), Velocity(1.0)));
    for frame in 0..4u8 {
        moving.query_mut(&mut world).for_each(|(p, v)| p.0 += v.0);
        schedule.run(&mut world).unwrap();
        world.get_mut::<Position>(a).unwrap().0 += 0.5;
        let e = world.spawn((Position(0.0), Velocity(1.0), Name(frame.to_string())));
        world.remove::<Velocity>(e).unwrap();
        world.insert(e, Velocity(2.0)).unwrap();
        if frame == 1 {
            world.group::<(Position, Velocity)>().unwrap();
        }
        if frame == 2 {
            let mut other = World::new();
            other.spawn((Position(10.0), Velocity(0.0), Name("merged".into())));
            world.merge(other);
        }
        assert_eq!(
            names.iter(&world).count(),
            usize::from(frame) + 1 + usize::from(frame >= 2)
        );
    }
    // Two frames' steps and a half each.
    assert_eq!(world.get::<Position>(a).unwrap(), &Position(10.0));
}
