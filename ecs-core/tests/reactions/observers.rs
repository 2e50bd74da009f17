//! Observers: a first example, firing counts on every structural path,
//! reading what leaves, commands applied before the call returns, order,
//! unobserve, errors, recursion cut at its limit, panics.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use ecs_core::prelude::*;
use ecs_core::{IntoObserver, MAX_OBSERVER_DEPTH};

#[derive(Component, Debug, PartialEq)]
struct Health(i32);
#[derive(Component)]
struct Burning;
#[derive(Component)]
struct Enemy;

#[derive(Default)]
struct Log(Vec<Entity>);

#[test]
fn a_first_observer_example_behaves_as_written() -> Result<(), Error> {
    let mut world = World::new();
    world.insert_resource(Log::default());
    let id = world.observe(|trigger: OnAdd<Health>, mut commands: Commands| {
        commands.insert(trigger.entity(), Burning);
    });
    world.observe(|trigger: OnRemove<Health>, mut log: ResMut<Log>| log.0.push(trigger.entity()));

    let e = world.spawn(Health(10));
    assert!(
        world.contains::<Burning>(e),
        "OnAdd's commands applied before spawn returned"
    );
    world.remove::<Health>(e)?;
    assert_eq!(world.resource::<Log>()?.0, [e]);
    world.unobserve(id)?;
    let f = world.spawn(Health(3));
    assert!(
        !world.contains::<Burning>(f),
        "an unobserved observer never runs"
    );
    world.despawn(f)?;
    assert_eq!(world.resource::<Log>()?.0, [e, f]);
    assert!(world.take_observer_errors().is_empty());
    Ok(())
}

/// How often each trigger on `Health` fired.
#[derive(Default, Debug, PartialEq, Clone, Copy)]
struct Counts {
    add: u32,
    insert: u32,
    remove: u32,
}

fn counting_world() -> World {
    let mut world = World::new();
    world.insert_resource(Counts::default());
    world.observe(|_: OnAdd<Health>, mut c: ResMut<Counts>| c.add += 1);
    world.observe(|_: OnInsert<Health>, mut c: ResMut<Counts>| c.insert += 1);
    world.observe(|_: OnRemove<Health>, mut c: ResMut<Counts>| c.remove += 1);
    world
}

fn counts(world: &World) -> (u32, u32, u32) {
    let c = world.resource::<Counts>().unwrap();
    (c.add, c.insert, c.remove)
}

fn spawn_health_system(mut commands: Commands) {
    commands.spawn(Health(1));
}

type Path = fn(&mut World, Entity, Entity);

/// Every path that changes structure, and the (OnAdd, OnInsert, OnRemove)
/// counts each must fire, given `held` (which has a `Health(1)`) and `bare`
/// (which has nothing).
const PATHS: &[(&str, Path, (u32, u32, u32))] = &[
    (
        "spawn",
        |w, _, _| {
            w.spawn(Health(1));
        },
        (1, 1, 0),
    ),
    (
        "spawn a tuple",
        |w, _, _| {
            w.spawn((Enemy, Health(1)));
        },
        (1, 1, 0),
    ),
    (
        "spawn without Health",
        |w, _, _| {
            w.spawn(Enemy);
        },
        (0, 0, 0),
    ),
    (
        "spawn a bundle repeating Health",
        |w, _, _| {
            w.spawn((Health(1), Health(2)));
        },
        (1, 2, 0),
    ),
    (
        "spawn_batch",
        |w, _, _| {
            let _ = w.spawn_batch((0..5).map(Health));
        },
        (5, 5, 0),
    ),
    (
        "insert new",
        |w, _, bare| {
            let _ = w.insert(bare, Health(2));
        },
        (1, 1, 0),
    ),
    (
        "insert replacing",
        |w, held, _| {
            let _ = w.insert(held, Health(2));
        },
        (0, 1, 0),
    ),
    (
        "insert into a dead entity",
        |w, held, _| {
            w.despawn(held).unwrap();
            assert!(w.insert(held, Health(2)).is_err());
        },
        (0, 0, 1),
    ),
    (
        "insert_bundle new",
        |w, _, bare| w.insert_bundle(bare, (Health(2), Enemy)).unwrap(),
        (1, 1, 0),
    ),
    (
        "insert_bundle replacing",
        |w, held, _| w.insert_bundle(held, (Enemy, Health(2))).unwrap(),
        (0, 1, 0),
    ),
    (
        "remove",
        |w, held, _| {
            let _ = w.remove::<Health>(held).unwrap();
        },
        (0, 0, 1),
    ),
    (
        "remove missing",
        |w, _, bare| assert!(w.remove::<Health>(bare).is_err()),
        (0, 0, 0),
    ),
    (
        "remove another type",
        |w, held, _| {
            w.insert(held, Enemy).unwrap();
            w.remove::<Enemy>(held).unwrap();
        },
        (0, 0, 0),
    ),
    ("despawn", |w, held, _| w.despawn(held).unwrap(), (0, 0, 1)),
    (
        "despawn without Health",
        |w, _, bare| w.despawn(bare).unwrap(),
        (0, 0, 0),
    ),
    ("clear", |w, _, _| w.clear(), (0, 0, 1)),
    (
        "clear with more",
        |w, _, _| {
            w.spawn_batch((0..3).map(Health));
            w.clear();
        },
        (3, 3, 4),
    ),
    (
        "EntityMut::insert new",
        |w, _, bare| {
            let _ = w.entity_mut(bare).unwrap().insert(Health(2));
        },
        (1, 1, 0),
    ),
    (
        "EntityMut::insert replacing",
        |w, held, _| {
            let _ = w.entity_mut(held).unwrap().insert(Health(2));
        },
        (0, 1, 0),
    ),
    (
        "EntityMut::insert_bundle",
        |w, _, bare| {
            w.entity_mut(bare)
                .unwrap()
                .insert_bundle((Health(2),))
                .unwrap();
        },
        (1, 1, 0),
    ),
    (
        "EntityMut::remove",
        |w, held, _| {
            let _ = w.entity_mut(held).unwrap().remove::<Health>();
        },
        (0, 0, 1),
    ),
    (
        "EntityMut::despawn",
        |w, held, _| w.entity_mut(held).unwrap().despawn().unwrap(),
        (0, 0, 1),
    ),
    (
        "commands spawn",
        |w, _, _| {
            w.commands().spawn(Health(4));
            assert!(w.flush().is_empty());
        },
        (1, 1, 0),
    ),
    (
        "commands insert and remove",
        |w, _, bare| {
            let mut commands = w.commands();
            commands.insert(bare, Health(4));
            commands.remove::<Health>(bare);
            assert!(w.flush().is_empty());
        },
        (1, 1, 1),
    ),
    (
        "commands insert_bundle",
        |w, held, _| {
            w.commands().insert_bundle(held, (Health(4), Burning));
            assert!(w.flush().is_empty());
        },
        (0, 1, 0),
    ),
    (
        "commands despawn",
        |w, held, _| {
            w.commands().despawn(held);
            assert!(w.flush().is_empty());
        },
        (0, 0, 1),
    ),
    (
        "commands of a system",
        |w, _, _| {
            let mut schedule = Schedule::new();
            schedule
                .add_system(Stage::Update, spawn_health_system)
                .unwrap();
            schedule.run(w).unwrap();
            schedule.run(w).unwrap();
            assert!(schedule.command_errors().is_empty());
        },
        (2, 2, 0),
    ),
    (
        "an exclusive system",
        |w, held, _| {
            let mut schedule = Schedule::new();
            schedule
                .add_system(Stage::Update, move |world: &mut World| {
                    world.despawn(held).unwrap();
                })
                .unwrap();
            schedule.run(w).unwrap();
        },
        (0, 0, 1),
    ),
];

#[test]
fn observers_fire_on_every_structural_path() {
    for &(name, path, expected) in PATHS {
        let mut world = counting_world();
        let held = world.spawn(Health(1));
        let bare = world.spawn(());
        let before = counts(&world);
        assert_eq!(before, (1, 1, 0), "setup");
        path(&mut world, held, bare);
        let after = counts(&world);
        let fired = (after.0 - before.0, after.1 - before.1, after.2 - before.2);
        assert_eq!(
            fired, expected,
            "path `{name}`: (OnAdd, OnInsert, OnRemove)"
        );
        assert!(world.take_observer_errors().is_empty(), "path `{name}`");
    }
}

#[test]
fn on_remove_reads_the_leaving_component_through_a_query_or_the_world() -> Result<(), Error> {
    #[derive(Default)]
    struct Seen(Vec<(i32, i32)>);
    let mut world = World::new();
    world.insert_resource(Seen::default());
    world.observe(
        |t: OnRemove<Health>, q: Query<&Health>, w: &World, mut commands: Commands| {
            let through_query = q.get(t.entity()).unwrap().0;
            let through_world = w.get::<Health>(t.entity()).unwrap().0;
            // `&World` reads every resource, so the log is written by a command.
            commands.add(move |w: &mut World| {
                w.resource_mut::<Seen>()
                    .unwrap()
                    .0
                    .push((through_query, through_world));
            });
        },
    );
    let a = world.spawn(Health(4));
    let b = world.spawn(Health(9));
    world.remove::<Health>(a)?;
    world.despawn(b)?;
    let c = world.spawn(Health(11));
    world.clear();
    assert_eq!(world.resource::<Seen>()?.0, [(4, 4), (9, 9), (11, 11)]);
    assert!(!world.is_alive(c));
    assert!(world.take_observer_errors().is_empty());
    Ok(())
}

#[test]
fn commands_apply_before_the_call_returns_and_in_order() -> Result<(), Error> {
    #[derive(Component, Debug, PartialEq)]
    struct Armor(u32);
    let mut world = World::new();
    world.observe(|t: OnAdd<Health>, mut commands: Commands| {
        commands.insert(t.entity(), Armor(1));
    });
    world.observe(|t: OnAdd<Health>, mut commands: Commands| {
        commands.insert(t.entity(), Armor(2));
    });
    let e = world.spawn(Health(1));
    assert_eq!(
        world.get::<Armor>(e)?,
        &Armor(2),
        "the later observer's command applied last"
    );
    let batch = world.spawn_batch((0..4).map(Health));
    for e in batch {
        assert_eq!(world.get::<Armor>(e)?, &Armor(2));
    }
    Ok(())
}

#[test]
fn an_on_remove_observer_spawns_in_place_of_the_dead() -> Result<(), Error> {
    #[derive(Component, Debug, PartialEq)]
    struct Corpse(Entity, i32);
    let mut world = World::new();
    world.observe(
        |t: OnRemove<Health>, q: Query<&Health>, mut commands: Commands| {
            let last = q.get(t.entity()).unwrap().0;
            commands.spawn(Corpse(t.entity(), last));
        },
    );
    let a = world.spawn(Health(3));
    let b = world.spawn(Health(5));
    world.despawn(a)?;
    world.remove::<Health>(b)?;
    let corpses: Vec<(Entity, Entity, i32)> = world
        .query::<(Entity, &Corpse)>()
        .iter()
        .map(|(e, c)| (e, c.0, c.1))
        .collect();
    assert_eq!(corpses.len(), 2);
    assert_eq!((corpses[0].1, corpses[0].2), (a, 3));
    assert_eq!((corpses[1].1, corpses[1].2), (b, 5));
    assert!(corpses.iter().all(|c| c.0 != a && c.0 != b), "fresh ids");
    assert_ne!(corpses[0].0, corpses[1].0);
    assert_eq!(world.len(), 3);
    world.spawn(());
    assert_eq!(
        world.len(),
        4,
        "the allocator goes on after the reserved ids"
    );
    Ok(())
}

/// A call that panics before its dispatch (here a batch's iterator) still announces what it
/// added: its observers run before the panic reaches the caller, never during a later,
/// unrelated call.
#[test]
fn events_of_a_call_that_panicked_run_before_the_panic_resumes() -> Result<(), Error> {
    #[derive(Default)]
    struct Added(Vec<Entity>);
    let mut world = World::new();
    world.insert_resource(Added::default());
    world.observe(
        |t: OnAdd<Health>, q: Query<&Health>, mut added: ResMut<Added>| {
            assert!(q.get(t.entity()).is_ok());
            added.0.push(t.entity());
        },
    );
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        world.spawn_batch((0..4).map(|i| {
            assert!(i < 3, "the batch's iterator fails");
            Health(i)
        }));
    }));
    assert!(panicked.is_err());
    let spawned: Vec<Entity> = world.query::<Entity>().iter().collect();
    assert_eq!(spawned.len(), 3, "entities before the panic stay spawned");
    assert_eq!(
        world.resource::<Added>()?.0,
        spawned,
        "dispatched before the panic resumed"
    );
    let later = world.spawn(Health(9));
    let added = &world.resource::<Added>()?.0;
    assert_eq!(
        added[3..],
        [later],
        "the next call runs its own events only"
    );
    Ok(())
}

/// A value whose `Drop` panics.
#[derive(Component)]
struct Brittle;

impl Drop for Brittle {
    fn drop(&mut self) {
        if !std::thread::panicking() {
            panic!("brittle value dropped");
        }
    }
}

/// An `insert_bundle` whose overwritten value panics in `Drop` after the bundle's other
/// component arrived: the arrival's `OnAdd` observers run, and their commands apply, before the
/// panic resumes.
#[test]
fn an_insert_that_panics_in_drop_still_announces_what_arrived() {
    let mut world = World::new();
    world.observe(|t: OnAdd<Health>, mut commands: Commands| {
        commands.insert(t.entity(), Marked(1));
    });
    let e = world.spawn(Brittle);
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        world.insert_bundle(e, (Health(2), Brittle))
    }));
    assert!(caught.is_err());
    assert_eq!(world.get::<Health>(e), Ok(&Health(2)));
    assert_eq!(
        world.get::<Marked>(e),
        Ok(&Marked(1)),
        "OnAdd ran, its command applied"
    );
    world.spawn(());
    assert_eq!(world.len(), 2);
    core::mem::forget(world.remove::<Brittle>(e));
}

/// A `despawn` whose `Drop` panics still finishes, and what its `OnRemove` observers recorded
/// applies before the panic resumes: the spawn of a corpse is not lost, and its id is not left
/// alive and empty.
#[test]
fn a_despawn_that_panics_in_drop_applies_its_observers_commands() {
    let mut world = World::new();
    world.observe(|trigger: OnRemove<Health>, mut commands: Commands| {
        commands.spawn(Corpse(trigger.entity()));
    });
    let e = world.spawn((Health(1), Brittle));
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| world.despawn(e)));
    assert!(caught.is_err());
    assert!(!world.is_alive(e));
    let corpses: Vec<Entity> = world.query::<&Corpse>().iter().map(|c| c.0).collect();
    assert_eq!(corpses, [e]);
    world.spawn(());
    assert_eq!(world.len(), 2, "the corpse and the new entity");

    let f = world.spawn((Health(2), Brittle));
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| world.clear()));
    assert!(caught.is_err());
    assert!(!world.is_alive(f));
    let corpses: Vec<Entity> = world.query::<&Corpse>().iter().map(|c| c.0).collect();
    assert_eq!(corpses, [f], "the clear's own corpse");
    world.spawn(());
    assert_eq!(world.len(), 2);
}

/// An observer of an addition panics: the addition stays, the observers after it do not run,
/// and the commands the call's observers recorded are dropped: a spawn among them leaves no
/// entity alive and empty.
#[test]
fn a_panicking_observer_drops_the_calls_commands_and_their_spawns() {
    let mut world = World::new();
    world.observe(|_: OnAdd<Health>, mut commands: Commands| {
        commands.spawn(Marked(1));
    });
    world.observe(|_: OnAdd<Health>, mut commands: Commands| {
        commands.spawn(Marked(2));
        panic!("second observer");
    });
    world.observe(|t: OnAdd<Health>, mut commands: Commands| {
        commands.insert(t.entity(), Marked(3));
    });
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| world.spawn(Health(1))));
    let message = caught.expect_err("the observer panics");
    assert_eq!(message.downcast_ref::<&str>(), Some(&"second observer"));
    world.spawn(());
    assert_eq!(
        world.len(),
        2,
        "the spawned entity and the new one, nothing of the spawns"
    );
    assert_eq!(world.query::<&Marked>().iter().count(), 0);
}

/// An `OnRemove` observer panics: the removal is not made, nothing of the call happens, and what
/// the observers before it recorded is dropped: a spawn they recorded leaves no entity.
#[test]
fn a_panicking_on_remove_observer_leaves_nothing_of_the_call() {
    let mut world = World::new();
    world.observe(|trigger: OnRemove<Health>, mut commands: Commands| {
        commands.spawn(Corpse(trigger.entity()));
    });
    world.observe(|_: OnRemove<Health>| panic!("second observer"));
    let e = world.spawn(Health(1));
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| world.despawn(e)));
    assert!(caught.is_err());
    assert!(world.is_alive(e));
    world.spawn(());
    assert_eq!(world.len(), 2, "no entity of the dropped spawn");
    assert_eq!(world.query::<&Corpse>().iter().count(), 0);
}

#[test]
fn observers_of_one_event_run_in_registration_order() -> Result<(), Error> {
    #[derive(Default)]
    struct Order(Vec<u32>);
    let mut world = World::new();
    world.insert_resource(Order::default());
    let mut ids = Vec::new();
    for n in 0..5u32 {
        ids.push(world.observe(move |_: OnInsert<Health>, mut o: ResMut<Order>| o.0.push(n)));
    }
    world.spawn(Health(1));
    world.unobserve(ids[1])?;
    world.unobserve(ids[3])?;
    world.observe(|_: OnInsert<Health>, mut o: ResMut<Order>| o.0.push(9));
    world.spawn(Health(1));
    assert_eq!(world.resource::<Order>()?.0, [0, 1, 2, 3, 4, 0, 2, 4, 9]);
    Ok(())
}

#[test]
fn a_bundles_events_are_dispatched_component_by_component() -> Result<(), Error> {
    #[derive(Default)]
    struct Trace(Vec<&'static str>);
    let mut world = World::new();
    world.insert_resource(Trace::default());
    world.observe(|_: OnInsert<Burning>, mut t: ResMut<Trace>| t.0.push("insert Burning"));
    world.observe(|_: OnAdd<Health>, w: &World, mut commands: Commands| {
        // The whole bundle is in place when observers run.
        let _ = w;
        commands.add(|w: &mut World| w.resource_mut::<Trace>().unwrap().0.push("command"));
    });
    world.observe(
        |t: OnAdd<Burning>, q: Query<&Health>, mut tr: ResMut<Trace>| {
            assert!(
                q.get(t.entity()).is_ok(),
                "Health, later in the bundle, is already there"
            );
            tr.0.push("add Burning");
        },
    );
    world.observe(|_: OnInsert<Health>, mut t: ResMut<Trace>| t.0.push("insert Health"));
    world.spawn((Burning, Health(1)));
    assert_eq!(
        world.resource::<Trace>()?.0,
        ["add Burning", "insert Burning", "insert Health", "command"]
    );
    Ok(())
}

#[test]
fn observers_trigger_observers() -> Result<(), Error> {
    #[derive(Component)]
    struct Ignited;
    let mut world = World::new();
    world.insert_resource(Log::default());
    world.observe(|t: OnAdd<Health>, mut commands: Commands| {
        commands.insert(t.entity(), Burning);
    });
    world.observe(|t: OnAdd<Burning>, mut commands: Commands| {
        commands.insert(t.entity(), Ignited);
    });
    world.observe(|t: OnAdd<Ignited>, mut log: ResMut<Log>| log.0.push(t.entity()));
    let e = world.spawn(Health(1));
    assert!(world.contains::<Ignited>(e));
    assert_eq!(world.resource::<Log>()?.0, [e]);
    Ok(())
}

#[derive(Component)]
struct Link(u32);

#[test]
fn a_bounded_chain_of_observers_runs_to_its_end() {
    let mut world = World::new();
    world.observe(|t: OnAdd<Link>, q: Query<&Link>, mut commands: Commands| {
        let n = q.get(t.entity()).unwrap().0;
        if n > 0 {
            commands.spawn(Link(n - 1));
        }
    });
    world.spawn(Link(40));
    assert_eq!(world.len(), 41);
    assert!(world.take_observer_errors().is_empty());
}

#[test]
fn unbounded_recursion_stops_at_the_limit_with_an_error() {
    let mut world = World::new();
    world.observe(|_: OnAdd<Link>, mut commands: Commands| {
        commands.spawn(Link(0));
    });
    let first = world.spawn(Link(0));
    // The first spawn's observer runs at depth 0; each level's command spawns
    // one more entity, whose observers run one level deeper.
    assert_eq!(world.len(), MAX_OBSERVER_DEPTH + 1);
    let errors = world.take_observer_errors();
    assert_eq!(errors.len(), 1, "{errors:?}");
    let Error::ObserverRecursion {
        trigger,
        entity,
        depth,
    } = &errors[0]
    else {
        panic!("not a recursion error: {:?}", errors[0]);
    };
    assert_eq!(trigger, "OnAdd<Link>");
    assert_eq!(*depth, MAX_OBSERVER_DEPTH);
    assert!(world.is_alive(*entity) && *entity != first);
    assert!(
        errors[0].to_string().contains("64 levels deep"),
        "{}",
        errors[0]
    );
    // The world goes on working.
    world.spawn(Link(0));
    assert_eq!(world.len(), 2 * (MAX_OBSERVER_DEPTH + 1));
}

#[test]
fn unobserve_reports_stale_ids_and_an_observer_may_remove_itself() -> Result<(), Error> {
    #[derive(Default)]
    struct Runs(u32);
    let mut world = World::new();
    world.insert_resource(Runs::default());
    let id = Arc::new(std::sync::OnceLock::new());
    let own = Arc::clone(&id);
    let registered = world.observe(
        move |_: OnAdd<Health>, mut runs: ResMut<Runs>, mut commands: Commands| {
            runs.0 += 1;
            let me = *own.get().unwrap();
            commands.add(move |w: &mut World| w.unobserve(me).unwrap());
        },
    );
    id.set(registered).unwrap();
    assert_eq!(world.observer_count(), 1);
    world.spawn(Health(1));
    world.spawn(Health(2));
    assert_eq!(
        world.resource::<Runs>()?.0,
        1,
        "it ran once, then removed itself"
    );
    assert_eq!(world.observer_count(), 0);
    assert_eq!(
        world.unobserve(registered),
        Err(Error::UnknownObserver {
            observer: registered
        })
    );
    let other = World::new().observe(|_: OnAdd<Health>| {});
    assert!(world.unobserve(other).is_err(), "an id of another world");
    Ok(())
}

#[test]
fn errors_name_the_observer_and_reach_the_schedule() {
    struct Missing;
    fn needs_missing(_: OnAdd<Health>, _: Res<Missing>) {}
    fn double_despawn(t: OnAdd<Health>, mut commands: Commands) {
        commands.despawn(t.entity());
        commands.despawn(t.entity());
    }
    let mut world = World::new();
    world.observe(needs_missing);
    world.observe(double_despawn);
    let e = world.spawn(Health(1));
    let errors = world.take_observer_errors();
    assert_eq!(errors.len(), 2);
    assert_eq!(
        errors[0].to_string(),
        "observer `needs_missing` failed: the world has no resource `Missing`: add it with \
         `world.insert_resource(..)`"
    );
    assert_eq!(
        errors[1].to_string(),
        format!("observer `double_despawn` failed: entity {e:?} was despawned")
    );
    assert_eq!(errors[1].entity(), Some(e));

    let mut schedule = Schedule::new();
    schedule
        .add_system(Stage::Update, spawn_health_system)
        .unwrap();
    schedule.run(&mut world).unwrap();
    let failed = schedule.command_errors();
    assert_eq!(failed.len(), 2);
    assert!(failed.iter().all(|f| f.system == "observers"));
    assert!(world.take_observer_errors().is_empty());
}

#[test]
fn conflicting_params_are_refused() {
    let mut world = World::new();
    let error = world
        .try_observe(|_: OnAdd<Health>, _: Query<&mut Health>, _: Res<Log>, _: Query<&Health>| {})
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "observer `conflicting_params_are_refused::{{closure}}` cannot take both \
         `Query<&mut Health>` and `Query<&Health>`: both reach `Health` and at least one \
         writes it. Merge them into one param, or make their filters disjoint (`With<T>` in \
         one, `Without<T>` in the other)"
    );
    assert_eq!(world.observer_count(), 0);
    let panic = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        world.observe(|_: OnAdd<Health>, _: ResMut<Log>, _: Res<Log>| {});
    }))
    .unwrap_err();
    let message = panic.downcast_ref::<String>().unwrap();
    assert!(
        message.contains("cannot take both `ResMut<Log>` and `Res<Log>`"),
        "{message}"
    );
}

#[test]
fn an_observer_keeps_its_local_state() -> Result<(), Error> {
    #[derive(Default)]
    struct Seen(Vec<u32>);
    let mut world = World::new();
    world.insert_resource(Seen::default());
    world.observe(
        |_: OnAdd<Health>, mut n: Local<u32>, mut seen: ResMut<Seen>| {
            *n += 1;
            seen.0.push(*n);
        },
    );
    world.spawn_batch((0..3).map(Health));
    world.spawn(Health(0));
    assert_eq!(world.resource::<Seen>()?.0, [1, 2, 3, 4]);
    Ok(())
}

#[test]
fn observers_send_events_that_systems_read() -> Result<(), Error> {
    struct Spawned(Entity);
    #[derive(Default)]
    struct Read(Vec<Entity>);
    fn reader(mut events: EventReader<Spawned>, mut read: ResMut<Read>) {
        read.0.extend(events.read().map(|s| s.0));
    }
    let mut world = World::new();
    world.insert_resource(Read::default());
    world.observe(|t: OnAdd<Health>, mut out: EventWriter<Spawned>| out.send(Spawned(t.entity())));
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, reader)?;
    schedule.run(&mut world)?;
    let a = world.spawn(Health(1));
    let b = world.spawn(Health(2));
    schedule.run(&mut world)?;
    assert_eq!(world.resource::<Read>()?.0, [a, b]);
    Ok(())
}

#[test]
fn a_panicking_observer_leaves_the_world_consistent() {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let mut world = World::new();
    world.observe(|t: OnAdd<Health>, q: Query<&Health>| {
        RUNS.fetch_add(1, Ordering::Relaxed);
        if q.get(t.entity()).unwrap().0 < 0 {
            panic!("negative health");
        }
    });
    world.observe(|t: OnRemove<Health>, q: Query<&Health>| {
        if q.get(t.entity()).unwrap().0 == 13 {
            panic!("unlucky");
        }
    });
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        world.spawn(Health(-1));
    }));
    assert!(panicked.is_err());
    assert_eq!(world.len(), 1, "the spawn itself stays done");
    let e = world.spawn(Health(13));
    assert_eq!(
        RUNS.load(Ordering::Relaxed),
        2,
        "the observer is still registered"
    );
    let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        world.despawn(e).unwrap();
    }));
    assert!(panicked.is_err());
    assert!(
        world.is_alive(e),
        "the despawn the observer ran before did not happen"
    );
    assert_eq!(world.observer_count(), 2);
    world.insert(e, Health(1)).unwrap();
    world.despawn(e).unwrap();
    assert!(!world.is_alive(e));
}

#[test]
fn removed_values_drop_once_after_their_observers() {
    static DROPS: AtomicUsize = AtomicUsize::new(0);
    #[derive(Component)]
    struct Counted(u32);
    impl Drop for Counted {
        fn drop(&mut self) {
            DROPS.fetch_add(1, Ordering::Relaxed);
        }
    }
    let mut world = World::new();
    world.observe(|t: OnRemove<Counted>, q: Query<&Counted>| {
        assert_eq!(
            DROPS.load(Ordering::Relaxed),
            q.get(t.entity()).unwrap().0 as usize
        );
    });
    let a = world.spawn(Counted(0));
    let b = world.spawn(Counted(1));
    world.spawn(Counted(2));
    world.remove::<Counted>(a).unwrap();
    world.despawn(b).unwrap();
    world.clear();
    assert_eq!(DROPS.load(Ordering::Relaxed), 3);
}

#[test]
fn observer_functions_convert_with_their_kind() -> Result<(), Error> {
    fn on_health(_: OnInsert<Health>) {}
    let observer = on_health.into_observer()?;
    assert_eq!(observer.name(), "on_health");
    assert_eq!(
        observer.kind(),
        Some(ecs_core::observer::TriggerKind::Insert)
    );
    Ok(())
}

#[test]
fn observers_work_beside_groups() -> Result<(), Error> {
    #[derive(Component)]
    struct Speed;
    let mut world = World::new();
    world.group::<(Health, Speed)>()?;
    world.insert_resource(Log::default());
    world.observe(
        |t: OnAdd<Speed>, q: Query<(&Health, &Speed)>, mut log: ResMut<Log>| {
            if q.get(t.entity()).is_ok() {
                log.0.push(t.entity());
            }
        },
    );
    let a = world.spawn(Health(1));
    world.insert(a, Speed)?;
    let b = world.spawn((Health(2), Speed));
    world.remove::<Speed>(a)?;
    assert_eq!(world.resource::<Log>()?.0, [a, b]);
    assert_eq!(world.query::<(&Health, &Speed)>().iter().count(), 1);
    Ok(())
}

/// A command that replaces the whole world while observers' commands are
/// applied leaves the new world working, its observer depth included.
#[test]
fn an_observer_command_may_replace_the_world() {
    #[derive(Component)]
    struct Trigger;
    #[derive(Component, Debug, PartialEq)]
    struct Marker(u8);

    let mut world = World::new();
    world.observe(|_: OnAdd<Trigger>, mut commands: Commands| {
        commands.add(|world: &mut World| *world = World::new());
    });
    let e = world.spawn(());
    world.insert(e, Trigger).unwrap();
    assert!(world.is_empty());
    // The fresh world runs its own observers, nested ones included.
    world.observe(|t: OnAdd<Marker>, mut commands: Commands| {
        commands.insert(t.entity(), Trigger);
    });
    world.observe(|t: OnAdd<Trigger>, mut commands: Commands| {
        commands.insert(t.entity(), Marker(2));
    });
    let f = world.spawn(Marker(1));
    assert!(world.contains::<Trigger>(f));
    assert_eq!(world.get::<Marker>(f), Ok(&Marker(2)));
}

/// An `EntityMut` whose own `insert` ran an observer that despawned its entity: every later call
/// answers with the error naming the entity and changes nothing; none panics.
#[test]
fn entity_mut_after_an_observer_despawned_its_entity_answers_with_an_error() {
    let mut world = World::new();
    world.observe(|trigger: OnAdd<Burning>, mut commands: Commands| {
        commands.despawn(trigger.entity());
    });
    let e = world.spawn(Health(1));
    let bystander = world.spawn(Health(7));
    let mut handle = world.entity_mut(e).unwrap();
    assert_eq!(handle.insert(Burning).map(|old| old.is_none()), Ok(true));
    let gone = Error::Despawned { entity: e };
    assert_eq!(handle.insert(Health(2)), Err(gone.clone()));
    assert_eq!(handle.insert_bundle((Health(3), Enemy)), Err(gone.clone()));
    assert_eq!(handle.get::<Health>(), Err(gone.clone()));
    assert_eq!(handle.get_mut::<Health>().map(|h| h.0), Err(gone.clone()));
    assert!(!handle.contains::<Health>());
    assert_eq!(handle.remove::<Health>(), Err(gone.clone()));
    assert_eq!(handle.components().err(), Some(gone.clone()));
    assert_eq!(handle.as_ref().err(), Some(gone.clone()));
    assert_eq!(handle.despawn(), Err(gone));
    assert_eq!(world.len(), 1);
    assert_eq!(world.get::<Health>(bystander), Ok(&Health(7)));
}

/// An `EntityMut` whose own `insert` ran an observer that replaced the whole world: the world
/// behind the handle is not its entity's, so every call answers with the error naming the
/// entity, even where the new world holds an entity under the same id, which stays untouched.
#[test]
fn entity_mut_after_an_observer_replaced_the_world_answers_with_an_error() {
    let mut world = World::new();
    world.observe(|_: OnAdd<Burning>, mut commands: Commands| {
        commands.add(|world: &mut World| {
            let mut other = World::new();
            other.spawn(Health(99));
            *world = other;
        });
    });
    let e = world.spawn(Health(1));
    let mut handle = world.entity_mut(e).unwrap();
    assert_eq!(handle.insert(Burning).map(|old| old.is_none()), Ok(true));
    let foreign = Error::NeverSpawned { entity: e };
    assert_eq!(handle.get::<Health>(), Err(foreign.clone()));
    assert_eq!(
        handle.get_mut::<Health>().map(|h| h.0),
        Err(foreign.clone())
    );
    assert!(!handle.contains::<Health>());
    assert_eq!(handle.insert(Health(2)), Err(foreign.clone()));
    assert_eq!(handle.insert_bundle((Enemy,)), Err(foreign.clone()));
    assert_eq!(handle.remove::<Health>(), Err(foreign.clone()));
    assert_eq!(handle.components().err(), Some(foreign.clone()));
    assert_eq!(handle.as_ref().err(), Some(foreign.clone()));
    assert_eq!(handle.despawn(), Err(foreign));
    assert_eq!(world.len(), 1, "the new world's entity is still there");
    assert_eq!(world.get::<Health>(e), Ok(&Health(99)));
    assert!(!world.contains::<Enemy>(e));
}

/// What an `OnRemove<Health>` observer leaves where a `Health` was.
#[derive(Component, Debug, PartialEq)]
struct Corpse(Entity);

/// An `OnRemove` observer that spawns through its commands: its spawn is applied after `clear`
/// as after `despawn`, an entity of its own that the clear does not take with the rest.
#[test]
fn clear_keeps_the_spawns_of_its_on_remove_observers_as_despawn_does() {
    let mut world = World::new();
    world.observe(|trigger: OnRemove<Health>, mut commands: Commands| {
        commands.spawn(Corpse(trigger.entity()));
    });
    let a = world.spawn(Health(1));
    world.despawn(a).unwrap();
    let corpses = |world: &mut World| {
        let mut of: Vec<Entity> = world.query::<&Corpse>().iter().map(|c| c.0).collect();
        of.sort_unstable();
        of
    };
    assert_eq!(corpses(&mut world), [a]);
    assert!(world.take_observer_errors().is_empty());

    let pending = world.commands().spawn(Health(5));
    let (b, c) = (world.spawn(Health(2)), world.spawn((Health(3), Enemy)));
    world.clear();
    assert_eq!(world.take_observer_errors(), []);
    assert_eq!(corpses(&mut world), [b, c], "one corpse per Health cleared");
    assert_eq!(world.len(), 2, "only the corpses are alive");
    assert!(![a, b, c, pending].iter().any(|&e| world.is_alive(e)));
    assert_eq!(
        world.flush(),
        [Error::Despawned { entity: pending }],
        "a spawn recorded before the clear is cleared with the rest"
    );
}

/// A mark an observer's command leaves.
#[derive(Component, Debug, PartialEq)]
struct Marked(i32);

/// An observer that records a command and then panics: the command is dropped with the run,
/// never kept in the observer's state for its next run to apply on another entity.
#[test]
fn the_commands_of_an_observer_run_that_panicked_are_dropped() {
    let mut world = World::new();
    world.observe(
        |trigger: OnAdd<Health>, q: Query<&Health>, mut commands: Commands| {
            let health = q.get(trigger.entity()).expect("arrived").0;
            commands.insert(trigger.entity(), Marked(health));
            assert!(health >= 0, "negative health");
        },
    );
    let bad = world.spawn(());
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        world.insert(bad, Health(-1))
    }));
    assert!(caught.is_err());
    assert_eq!(world.get::<Marked>(bad).ok(), None);
    let good = world.spawn(Health(4));
    assert_eq!(world.get::<Marked>(good), Ok(&Marked(4)));
    assert_eq!(
        world.get::<Marked>(bad).ok(),
        None,
        "the panicked run's insert"
    );
    assert!(world.take_observer_errors().is_empty());
}
