//! Component hooks: declared on the type or registered for it, counts on
//! every structural path, the order beside observers, what a departing
//! hook reads, commands, errors, recursion, panics.

use std::panic::{AssertUnwindSafe, catch_unwind};

use ecs_core::prelude::*;

#[derive(Default)]
struct EnemyCount(i32);

#[derive(Component)]
#[component(on_add = count_up, on_remove = count_down)]
struct Enemy;

fn count_up(mut world: DeferredWorld, ctx: HookContext) {
    world.resource_mut::<EnemyCount>().unwrap().0 += 1;
    let _ = ctx.entity;
}

fn count_down(mut world: DeferredWorld, _: HookContext) {
    world.resource_mut::<EnemyCount>().unwrap().0 -= 1;
}

#[test]
fn declared_hooks_count_enemies_in_and_out() -> Result<(), Error> {
    let mut world = World::new();
    world.insert_resource(EnemyCount::default());
    let a = world.spawn(Enemy);
    world.spawn_batch((0..3).map(|_| Enemy));
    assert_eq!(world.resource::<EnemyCount>()?.0, 4);
    world.despawn(a)?;
    assert_eq!(world.resource::<EnemyCount>()?.0, 3);
    world.clear();
    assert_eq!(world.resource::<EnemyCount>()?.0, 0);
    Ok(())
}

/// How often each hook of `Health` ran.
#[derive(Default, Debug, PartialEq, Clone, Copy)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Counts {
    add: u32,
    insert: u32,
    replace: u32,
    remove: u32,
    despawn: u32,
}

#[derive(Component, Debug, PartialEq, Clone)]
#[component(
    on_add = counted,
    on_insert = counted,
    on_replace = counted,
    on_remove = counted,
    on_despawn = counted
)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Health(i32);

#[derive(Component)]
struct Burning;

fn counted(mut world: DeferredWorld, ctx: HookContext) {
    // Every hook of `Health` runs while a `Health` is in place.
    assert!(world.contains::<Health>(ctx.entity), "{:?}", ctx.hook);
    let counts = world.resource_mut::<Counts>().unwrap();
    match ctx.hook {
        HookKind::Add => counts.add += 1,
        HookKind::Insert => counts.insert += 1,
        HookKind::Replace => counts.replace += 1,
        HookKind::Remove => counts.remove += 1,
        HookKind::Despawn => counts.despawn += 1,
    }
}

fn counting_world() -> World {
    let mut world = World::new();
    world.insert_resource(Counts::default());
    world
}

fn counts(world: &World) -> [u32; 5] {
    let c = world.resource::<Counts>().unwrap();
    [c.add, c.insert, c.replace, c.remove, c.despawn]
}

fn spawn_health_system(mut commands: Commands) {
    commands.spawn(Health(1));
}

type Path = fn(&mut World, Entity, Entity);

/// Every path that changes structure, and the (on_add, on_insert,
/// on_replace, on_remove, on_despawn) counts each must run, given `held`
/// (which has a `Health(1)`) and `bare` (which has nothing).
const PATHS: &[(&str, Path, [u32; 5])] = &[
    (
        "spawn",
        |w, _, _| {
            w.spawn(Health(1));
        },
        [1, 1, 0, 0, 0],
    ),
    (
        "spawn a tuple",
        |w, _, _| {
            w.spawn((Burning, Health(1)));
        },
        [1, 1, 0, 0, 0],
    ),
    (
        "spawn without Health",
        |w, _, _| {
            w.spawn(Burning);
        },
        [0, 0, 0, 0, 0],
    ),
    (
        "spawn a bundle repeating Health",
        |w, _, _| {
            w.spawn((Health(1), Health(2)));
        },
        [1, 2, 0, 0, 0],
    ),
    (
        "spawn_batch",
        |w, _, _| {
            let _ = w.spawn_batch((0..5).map(Health));
        },
        [5, 5, 0, 0, 0],
    ),
    (
        "spawn_batch of tuples",
        |w, _, _| {
            let _ = w.spawn_batch((0..3).map(|i| (Burning, Health(i))));
        },
        [3, 3, 0, 0, 0],
    ),
    (
        "insert new",
        |w, _, bare| {
            let _ = w.insert(bare, Health(2));
        },
        [1, 1, 0, 0, 0],
    ),
    (
        "insert replacing",
        |w, held, _| {
            let _ = w.insert(held, Health(2));
        },
        [0, 1, 1, 0, 0],
    ),
    (
        "insert into a dead entity",
        |w, held, _| {
            w.despawn(held).unwrap();
            assert!(w.insert(held, Health(2)).is_err());
        },
        [0, 0, 1, 1, 1],
    ),
    (
        "insert_bundle new",
        |w, _, bare| w.insert_bundle(bare, (Health(2), Burning)).unwrap(),
        [1, 1, 0, 0, 0],
    ),
    (
        "insert_bundle replacing",
        |w, held, _| w.insert_bundle(held, (Burning, Health(2))).unwrap(),
        [0, 1, 1, 0, 0],
    ),
    (
        "insert_bundle repeating Health over a held one",
        |w, held, _| w.insert_bundle(held, (Health(2), Health(3))).unwrap(),
        [0, 2, 1, 0, 0],
    ),
    (
        "remove",
        |w, held, _| {
            let _ = w.remove::<Health>(held).unwrap();
        },
        [0, 0, 1, 1, 0],
    ),
    (
        "remove missing",
        |w, _, bare| assert!(w.remove::<Health>(bare).is_err()),
        [0, 0, 0, 0, 0],
    ),
    (
        "remove another type",
        |w, held, _| {
            w.insert(held, Burning).unwrap();
            w.remove::<Burning>(held).unwrap();
        },
        [0, 0, 0, 0, 0],
    ),
    (
        "despawn",
        |w, held, _| w.despawn(held).unwrap(),
        [0, 0, 1, 1, 1],
    ),
    (
        "despawn without Health",
        |w, _, bare| w.despawn(bare).unwrap(),
        [0, 0, 0, 0, 0],
    ),
    ("clear", |w, _, _| w.clear(), [0, 0, 1, 1, 1]),
    (
        "clear with more",
        |w, _, _| {
            w.spawn_batch((0..3).map(Health));
            w.clear();
        },
        [3, 3, 4, 4, 4],
    ),
    (
        "EntityMut::insert new",
        |w, _, bare| {
            let _ = w.entity_mut(bare).unwrap().insert(Health(2));
        },
        [1, 1, 0, 0, 0],
    ),
    (
        "EntityMut::insert replacing",
        |w, held, _| {
            let _ = w.entity_mut(held).unwrap().insert(Health(2));
        },
        [0, 1, 1, 0, 0],
    ),
    (
        "EntityMut::insert_bundle",
        |w, _, bare| {
            w.entity_mut(bare)
                .unwrap()
                .insert_bundle((Health(2),))
                .unwrap();
        },
        [1, 1, 0, 0, 0],
    ),
    (
        "EntityMut::remove",
        |w, held, _| {
            let _ = w.entity_mut(held).unwrap().remove::<Health>();
        },
        [0, 0, 1, 1, 0],
    ),
    (
        "EntityMut::despawn",
        |w, held, _| w.entity_mut(held).unwrap().despawn().unwrap(),
        [0, 0, 1, 1, 1],
    ),
    (
        "ViewMut::insert new",
        |w, _, bare| {
            let _ = w.view_mut::<Health>().insert(bare, Health(2)).unwrap();
        },
        [1, 1, 0, 0, 0],
    ),
    (
        "ViewMut::insert replacing",
        |w, held, _| {
            let _ = w.view_mut::<Health>().insert(held, Health(2)).unwrap();
        },
        [0, 1, 1, 0, 0],
    ),
    (
        "ViewMut::remove",
        |w, held, _| {
            let _ = w.view_mut::<Health>().remove(held).unwrap();
        },
        [0, 0, 1, 1, 0],
    ),
    (
        "commands spawn",
        |w, _, _| {
            w.commands().spawn(Health(4));
            assert!(w.flush().is_empty());
        },
        [1, 1, 0, 0, 0],
    ),
    (
        "commands insert and remove",
        |w, _, bare| {
            let mut commands = w.commands();
            commands.insert(bare, Health(4));
            commands.remove::<Health>(bare);
            assert!(w.flush().is_empty());
        },
        [1, 1, 1, 1, 0],
    ),
    (
        "commands insert_bundle",
        |w, held, _| {
            w.commands().insert_bundle(held, (Health(4), Burning));
            assert!(w.flush().is_empty());
        },
        [0, 1, 1, 0, 0],
    ),
    (
        "commands despawn",
        |w, held, _| {
            w.commands().despawn(held);
            assert!(w.flush().is_empty());
        },
        [0, 0, 1, 1, 1],
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
        [2, 2, 0, 0, 0],
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
        [0, 0, 1, 1, 1],
    ),
    (
        "merge",
        |w, _, _| {
            let mut level = World::new();
            level.insert_resource(Counts::default());
            level.spawn_batch((0..3).map(Health));
            level.spawn(Burning);
            w.merge(level);
        },
        [3, 3, 0, 0, 0],
    ),
];

#[test]
fn hooks_run_on_every_structural_path() {
    for &(name, path, expected) in PATHS {
        let mut world = counting_world();
        let held = world.spawn(Health(1));
        let bare = world.spawn(());
        let before = counts(&world);
        assert_eq!(before, [1, 1, 0, 0, 0], "setup");
        path(&mut world, held, bare);
        let after = counts(&world);
        let ran: Vec<u32> = after.iter().zip(before).map(|(a, b)| a - b).collect();
        assert_eq!(
            ran, expected,
            "path `{name}`: (on_add, on_insert, on_replace, on_remove, on_despawn)"
        );
        assert!(world.take_observer_errors().is_empty(), "path `{name}`");
    }
}

#[test]
fn a_merge_runs_the_hooks_of_types_new_to_the_world() -> Result<(), Error> {
    let mut level = counting_world();
    level.spawn_batch((0..2).map(Health));
    let mut world = counting_world();
    world.spawn(Burning);
    world.merge(level);
    assert_eq!(counts(&world), [2, 2, 0, 0, 0]);
    world.clear();
    assert_eq!(counts(&world), [2, 2, 2, 2, 2]);
    Ok(())
}

#[cfg(feature = "serde")]
#[test]
fn hooks_run_when_snapshots_load() -> Result<(), Error> {
    let mut registry = PersistRegistry::new();
    registry.register::<Health>("test::Health").snapshot();
    let mut saved = World::new();
    saved.insert_resource(Counts::default());
    saved.spawn_batch((0..3).map(Health));
    let json = serde_json::to_string(&registry.snapshot(&saved)).unwrap();

    let mut running = counting_world();
    running.spawn(Health(9));
    registry.load_snapshot(&mut running, &mut serde_json::Deserializer::from_str(&json))?;
    assert_eq!(
        counts(&running),
        [4, 4, 0, 0, 0],
        "once per loaded value, here"
    );

    registry
        .register_resource::<Counts>("test::Counts")
        .snapshot();
    let json = serde_json::to_string(&registry.snapshot(&saved)).unwrap();
    let restored = registry.world_from_snapshot(&mut serde_json::Deserializer::from_str(&json))?;
    // The saved world counted its three spawns; the restored one counts
    // its three arrivals on top.
    assert_eq!(counts(&restored), [6, 6, 0, 0, 0]);
    Ok(())
}

/// What ran, in order, on `Health`.
#[derive(Default)]
struct Log(Vec<String>);

fn logged(mut world: DeferredWorld, ctx: HookContext) {
    let value = world.get::<Health>(ctx.entity).map(|h| h.0).ok();
    world
        .resource_mut::<Log>()
        .unwrap()
        .0
        .push(format!("{} {value:?}", ctx.hook));
}

fn logging_world() -> World {
    let mut world = World::new();
    world.insert_resource(Log::default());
    world
        .register_component_hooks::<Armor>()
        .on_add(log_armor)
        .on_insert(log_armor)
        .on_replace(log_armor)
        .on_remove(log_armor)
        .on_despawn(log_armor);
    world.observe(|t: OnAdd<Armor>, a: Query<&Armor>, mut log: ResMut<Log>| {
        log.0
            .push(format!("OnAdd {}", a.get(t.entity()).unwrap().0));
    });
    world.observe(
        |t: OnInsert<Armor>, a: Query<&Armor>, mut log: ResMut<Log>| {
            log.0
                .push(format!("OnInsert {}", a.get(t.entity()).unwrap().0));
        },
    );
    world.observe(
        |t: OnRemove<Armor>, a: Query<&Armor>, mut log: ResMut<Log>| {
            log.0
                .push(format!("OnRemove {}", a.get(t.entity()).unwrap().0));
        },
    );
    world
}

/// A type the test does not declare hooks on.
#[derive(Component)]
struct Armor(u32);

fn log_armor(mut world: DeferredWorld, ctx: HookContext) {
    let value = world.get::<Armor>(ctx.entity).unwrap().0;
    world
        .resource_mut::<Log>()
        .unwrap()
        .0
        .push(format!("{} {value}", ctx.hook));
}

fn take_log(world: &mut World) -> Vec<String> {
    std::mem::take(&mut world.resource_mut::<Log>().unwrap().0)
}

#[test]
fn hooks_run_before_observers_on_arrival_and_after_them_on_departure() -> Result<(), Error> {
    let mut world = logging_world();
    let e = world.spawn(Armor(1));
    assert_eq!(
        take_log(&mut world),
        ["on_add 1", "on_insert 1", "OnAdd 1", "OnInsert 1"]
    );
    world.insert(e, Armor(2))?;
    assert_eq!(
        take_log(&mut world),
        ["on_replace 1", "on_insert 2", "OnInsert 2"]
    );
    world.remove::<Armor>(e)?;
    assert_eq!(
        take_log(&mut world),
        ["OnRemove 2", "on_replace 2", "on_remove 2"]
    );
    world.insert(e, Armor(3))?;
    take_log(&mut world);
    world.despawn(e)?;
    assert_eq!(
        take_log(&mut world),
        ["OnRemove 3", "on_replace 3", "on_remove 3", "on_despawn 3"]
    );
    Ok(())
}

#[test]
fn a_bundles_hooks_all_run_before_its_observers() -> Result<(), Error> {
    let mut world = logging_world();
    world
        .register_component_hooks::<Health>()
        .try_on_add(logged)
        .expect_err("`Health` declares its own `on_add`");
    world.insert_resource(Counts::default());
    world.observe(|_: OnAdd<Health>, mut log: ResMut<Log>| log.0.push("OnAdd Health".into()));
    world.spawn((Armor(1), Health(5)));
    assert_eq!(
        take_log(&mut world),
        [
            "on_add 1",
            "on_insert 1",
            "OnAdd 1",
            "OnInsert 1",
            "OnAdd Health"
        ]
    );
    assert_eq!(counts(&world), [1, 1, 0, 0, 0]);
    Ok(())
}

#[test]
fn departure_hooks_run_for_every_component_in_id_order_kind_by_kind() -> Result<(), Error> {
    let mut world = logging_world();
    world.insert_resource(Counts::default());
    let e = world.spawn((Armor(7), Health(3)));
    take_log(&mut world);
    world.despawn(e)?;
    assert_eq!(
        take_log(&mut world),
        ["OnRemove 7", "on_replace 7", "on_remove 7", "on_despawn 7"]
    );
    assert_eq!(counts(&world), [1, 1, 1, 1, 1]);
    Ok(())
}

#[derive(Component)]
#[component(on_add = shadow_of, on_despawn = despawn_shadow)]
struct Caster;

#[derive(Component)]
struct Shadow(Entity);

#[derive(Component)]
struct ShadowOf(Entity);

fn shadow_of(mut world: DeferredWorld, ctx: HookContext) {
    let mut commands = world.commands();
    let shadow = commands.spawn(Shadow(ctx.entity));
    commands.insert(ctx.entity, ShadowOf(shadow));
}

fn despawn_shadow(mut world: DeferredWorld, ctx: HookContext) {
    let shadow = world.get::<ShadowOf>(ctx.entity).unwrap().0;
    world.commands().despawn(shadow);
}

#[test]
fn hook_commands_apply_before_the_call_returns() -> Result<(), Error> {
    let mut world = World::new();
    let casters = world.spawn_batch((0..3).map(|_| Caster));
    assert_eq!(world.len(), 6);
    let shadows: Vec<Entity> = casters
        .iter()
        .map(|&c| world.get::<ShadowOf>(c).unwrap().0)
        .collect();
    for (&caster, &shadow) in casters.iter().zip(&shadows) {
        assert_eq!(world.get::<Shadow>(shadow)?.0, caster);
    }
    world.despawn(casters[0])?;
    assert!(!world.is_alive(shadows[0]));
    world.clear();
    assert!(world.is_empty());
    Ok(())
}

#[derive(Component)]
#[component(on_insert = grow)]
struct Growing(u32);

fn grow(mut world: DeferredWorld, ctx: HookContext) {
    let next = world.get::<Growing>(ctx.entity).unwrap().0 + 1;
    world.commands().insert(ctx.entity, Growing(next));
}

#[test]
fn a_hook_that_retriggers_itself_stops_at_the_limit_with_an_error() {
    let mut world = World::new();
    let e = world.spawn(Growing(0));
    // The spawn's hook runs at depth 0 and inserts `Growing(1)`, whose hook
    // runs one level deeper; the insert of `Growing(64)` is the first whose
    // hook is past the limit.
    let reached = world.get::<Growing>(e).unwrap().0;
    assert_eq!(reached as usize, ecs_core::MAX_OBSERVER_DEPTH);
    let errors = world.take_observer_errors();
    assert_eq!(errors.len(), 1);
    assert_eq!(
        errors[0],
        Error::HookRecursion {
            component: "Growing".into(),
            hook: "on_insert",
            entity: e,
            depth: ecs_core::MAX_OBSERVER_DEPTH,
        }
    );
    assert!(errors[0].to_string().starts_with(&format!(
        "the `on_insert` hook of `Growing` on entity {e:?} did not run"
    )));
}

#[derive(Component)]
#[component(on_add = despawn_twice)]
struct Doomed;

fn despawn_twice(mut world: DeferredWorld, ctx: HookContext) {
    let mut commands = world.commands();
    commands.despawn(ctx.entity);
    commands.despawn(ctx.entity);
}

#[test]
fn a_failed_hook_command_is_reported_naming_the_hook() {
    let mut world = World::new();
    let e = world.spawn(Doomed);
    assert!(!world.is_alive(e));
    let errors = world.take_observer_errors();
    assert_eq!(
        errors,
        [Error::InHook {
            component: "Doomed".into(),
            hook: "on_add",
            error: Box::new(Error::Despawned { entity: e }),
        }]
    );
    assert_eq!(
        errors[0].to_string(),
        format!("the `on_add` hook of `Doomed` failed: entity {e:?} was despawned")
    );
    assert_eq!(errors[0].entity(), Some(e));
}

#[test]
fn hooks_are_registered_once_per_kind_and_before_the_type_is_used() {
    #[derive(Component)]
    struct Plain;
    fn nothing(_: DeferredWorld, _: HookContext) {}

    let mut world = World::new();
    let hooks = world.register_component_hooks::<Plain>();
    hooks.on_add(nothing).on_despawn(nothing);
    assert!(hooks.get(HookKind::Add).is_some() && hooks.get(HookKind::Insert).is_none());
    assert_eq!(
        hooks.try_on_despawn(nothing).unwrap_err(),
        Error::HookAlreadySet {
            component: "Plain".into(),
            hook: "on_despawn"
        }
    );
    let twice = catch_unwind(AssertUnwindSafe(|| {
        world.register_component_hooks::<Plain>().on_add(nothing);
    }))
    .unwrap_err();
    assert_eq!(
        twice.downcast_ref::<String>().unwrap(),
        "component `Plain` already has an `on_add` hook: a type has at most one hook of each kind"
    );
    world.spawn(Plain);
    world.spawn(Plain);
    assert_eq!(
        world.try_register_component_hooks::<Plain>().unwrap_err(),
        Error::HooksInUse {
            component: "Plain".into(),
            holders: 2
        }
    );
}

#[test]
fn hooks_work_beside_groups_and_observers_of_other_types() -> Result<(), Error> {
    let mut world = counting_world();
    world.group::<(Health, Burning)>()?;
    world.observe(|_: OnAdd<Burning>| {});
    let ids = world.spawn_batch((0..4).map(|i| (Health(i), Burning)));
    world.remove::<Burning>(ids[0])?;
    world.despawn(ids[1])?;
    assert_eq!(counts(&world), [4, 4, 1, 1, 1]);
    let health: i32 = world.query::<&Health>().iter().map(|h| h.0).sum();
    assert_eq!(health, 2 + 3);
    Ok(())
}

/// A hook that panics when the entity holds `Armed`.
#[derive(Component)]
#[component(
    on_add = explode_if_armed,
    on_replace = explode_if_armed,
    on_remove = explode_if_armed,
    on_despawn = explode_if_armed
)]
struct Fragile(u32);

/// Which hook of `Fragile` panics.
struct Armed(HookKind);

fn explode_if_armed(mut world: DeferredWorld, ctx: HookContext) {
    // Recorded first, so the panic has commands to drop.
    world.commands().spawn(Burning);
    if world
        .resource::<Armed>()
        .is_ok_and(|armed| armed.0 == ctx.hook)
    {
        panic!("{} exploded", ctx.hook);
    }
}

fn armed(hook: HookKind) -> (World, Entity) {
    let mut world = World::new();
    let e = world.spawn(Fragile(1));
    world.insert_resource(Armed(hook));
    (world, e)
}

fn panic_message(call: impl FnOnce()) -> String {
    let payload = catch_unwind(AssertUnwindSafe(call)).unwrap_err();
    payload.downcast_ref::<String>().unwrap().clone()
}

/// The world is as it should be and keeps working: the entities are
/// exactly `alive` (nothing the panicking call's hooks' commands spawned),
/// and every call still works.
fn assert_usable(world: &mut World, alive: &[Entity]) {
    let mut all: Vec<Entity> = world.query::<Entity>().iter().collect();
    all.sort();
    assert_eq!(
        all, alive,
        "no spawn of the panicking call's commands stays"
    );
    world.remove_resource::<Armed>().unwrap();
    let e = world.spawn(Fragile(5));
    world.insert(e, Fragile(6)).unwrap();
    world.despawn(e).unwrap();
    world.clear();
    assert_eq!(world.query::<&Fragile>().iter().count(), 0);
    assert!(world.take_observer_errors().is_empty());
}

#[test]
fn a_panicking_arrival_hook_keeps_the_change_and_drops_the_calls_commands() {
    let mut world = World::new();
    world.insert_resource(Armed(HookKind::Add));
    let bare = world.spawn(());
    let message = panic_message(|| drop(world.insert(bare, Fragile(2))));
    assert_eq!(message, "on_add exploded");
    assert_eq!(world.get::<Fragile>(bare).unwrap().0, 2, "the insert stays");
    assert_usable(&mut world, &[bare]);
}

#[test]
fn a_panicking_replace_hook_leaves_the_old_value() {
    let (mut world, e) = armed(HookKind::Replace);
    let burning_before = world.query::<&Burning>().iter().count();
    let message = panic_message(|| drop(world.insert(e, Fragile(2))));
    assert_eq!(message, "on_replace exploded");
    assert_eq!(
        world.get::<Fragile>(e).unwrap().0,
        1,
        "nothing was inserted"
    );
    assert_eq!(world.query::<&Burning>().iter().count(), burning_before);
    let shadow = world.query::<(Entity, &Burning)>().iter().next().unwrap().0;
    assert_usable(&mut world, &{
        let mut alive = vec![e, shadow];
        alive.sort();
        alive
    });
}

#[test]
fn a_panicking_remove_hook_leaves_the_component() {
    let (mut world, e) = armed(HookKind::Remove);
    let message = panic_message(|| drop(world.remove::<Fragile>(e)));
    assert_eq!(message, "on_remove exploded");
    assert_eq!(world.get::<Fragile>(e).unwrap().0, 1, "nothing was removed");
    let shadow = world.query::<(Entity, &Burning)>().iter().next().unwrap().0;
    assert_usable(&mut world, &{
        let mut alive = vec![e, shadow];
        alive.sort();
        alive
    });
}

#[test]
fn a_panicking_despawn_hook_leaves_the_entity() {
    for path in ["despawn", "clear", "commands"] {
        let (mut world, e) = armed(HookKind::Despawn);
        let message = panic_message(|| match path {
            "despawn" => world.despawn(e).unwrap(),
            "clear" => world.clear(),
            _ => {
                world.commands().despawn(e);
                drop(world.flush());
            }
        });
        assert_eq!(message, "on_despawn exploded", "{path}");
        assert_eq!(world.get::<Fragile>(e).unwrap().0, 1, "{path}: still alive");
        let shadow = world.query::<(Entity, &Burning)>().iter().next().unwrap().0;
        let mut alive = vec![e, shadow];
        alive.sort();
        assert_usable(&mut world, &alive);
    }
}

#[test]
fn a_panicking_hook_in_a_batch_keeps_what_was_spawned() {
    let mut world = World::new();
    world.insert_resource(Armed(HookKind::Add));
    let message = panic_message(|| drop(world.spawn_batch((0..3).map(Fragile))));
    assert_eq!(message, "on_add exploded");
    let mut held: Vec<u32> = world.query::<&Fragile>().iter().map(|f| f.0).collect();
    held.sort();
    assert_eq!(held, [0, 1, 2], "the batch is whole");
    let alive: Vec<Entity> = {
        let mut all: Vec<Entity> = world.query::<Entity>().iter().collect();
        all.sort();
        all
    };
    assert_usable(&mut world, &alive);
}
