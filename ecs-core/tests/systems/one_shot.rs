//! One-shot systems: registered with the world, run on demand, their
//! commands applied before `run_system` returns, their state kept; a
//! panicking run's commands dropped and the ids its spawns reserved
//! despawned, wherever the run was asked for.

use std::panic::{AssertUnwindSafe, catch_unwind};

use ecs_core::prelude::*;
use ecs_testkit::ledger::{Ledger, Token, panic_message};

#[derive(Component)]
struct Debris(u32);

#[test]
fn a_one_shot_system_runs_on_demand_with_its_commands_applied() -> Result<(), Error> {
    fn explode(mut commands: Commands, mut count: Local<u32>) {
        *count += 1;
        let wave = *count;
        commands.spawn_batch((0..2).map(move |_| Debris(wave)));
    }
    let mut world = World::new();
    let explode = world.register_system(explode);
    assert_eq!(world.query::<&Debris>().iter().count(), 0, "not run yet");
    world.run_system(explode)?;
    world.run_system(explode)?;
    let mut waves: Vec<u32> = world.query::<&Debris>().iter().map(|d| d.0).collect();
    waves.sort_unstable();
    assert_eq!(waves, [1, 1, 2, 2], "its Local lives between runs");
    Ok(())
}

#[test]
fn a_one_shot_system_keeps_its_change_detection_horizon() -> Result<(), Error> {
    #[derive(Component)]
    #[component(track_changes)]
    struct Health(i32);
    #[derive(Default)]
    struct Seen(Vec<i32>);
    fn newcomers(q: Query<&Health, Added<Health>>, mut seen: ResMut<Seen>) {
        seen.0.extend(q.iter().map(|h| h.0));
    }
    let mut world = World::new();
    world.init_resource::<Seen>();
    let id = world.register_system(newcomers);
    world.spawn(Health(1));
    world.run_system(id)?;
    world.spawn(Health(2));
    world.run_system(id)?;
    world.run_system(id)?;
    assert_eq!(world.resource::<Seen>()?.0, [1, 2]);
    Ok(())
}

#[test]
fn exclusive_closures_and_conditions_work_as_one_shots() -> Result<(), Error> {
    struct Allowed;
    let mut world = World::new();
    let spawn = world.register_system(|world: &mut World| {
        world.spawn(Debris(9));
    });
    let guarded = world.register_system(
        (|mut commands: Commands| {
            commands.spawn(Debris(1));
        })
        .run_if(resource_exists::<Allowed>),
    );
    world.run_system(spawn)?;
    world.run_system(guarded)?;
    assert_eq!(
        world.query::<&Debris>().iter().count(),
        1,
        "the guarded one skipped"
    );
    world.insert_resource(Allowed);
    world.run_system(guarded)?;
    assert_eq!(world.query::<&Debris>().iter().count(), 2);
    Ok(())
}

#[test]
fn stale_ids_nested_runs_and_failures_are_errors() -> Result<(), Error> {
    #[derive(Default)]
    struct Inner(Option<SystemId>, Option<Error>);
    struct Missing;
    let mut world = World::new();
    world.init_resource::<Inner>();
    let recursive = world.register_system(|world: &mut World| {
        let me = world.resource::<Inner>().unwrap().0.unwrap();
        let error = world.run_system(me).unwrap_err();
        world.resource_mut::<Inner>().unwrap().1 = Some(error);
    });
    world.resource_mut::<Inner>()?.0 = Some(recursive);
    world.run_system(recursive)?;
    assert_eq!(
        world.resource::<Inner>()?.1.as_ref().unwrap().to_string(),
        "the one-shot system `stale_ids_nested_runs_and_failures_are_errors::{{closure}}` \
         was asked to run while it runs"
    );

    let needs = world.register_system(|_: Res<Missing>| {});
    assert!(matches!(
        world.run_system(needs),
        Err(Error::InSystem { .. })
    ));

    let gone = world.spawn(());
    world.despawn(gone)?;
    let fails = world.register_system(move |mut commands: Commands| {
        commands.entity(gone).insert(Debris(0));
    });
    assert_eq!(
        world.run_system(fails).unwrap_err(),
        Error::Despawned { entity: gone }
    );

    world.unregister_system(needs)?;
    assert_eq!(
        world.run_system(needs).unwrap_err().to_string(),
        format!(
            "no one-shot system has id {needs}: it was unregistered, belongs to another world, \
             or the command registering it has not applied yet"
        )
    );
    assert!(world.unregister_system(needs).is_err());
    let other = World::new().register_system(|| {});
    let mut fresh = World::new();
    assert!(matches!(
        fresh.run_system(other),
        Err(Error::UnknownSystemId { .. })
    ));
    Ok(())
}

#[derive(Component)]
struct Marker;

/// What `volatile` did: the ids its spawns reserved, the ids whose closure
/// commands ran, and whether it may finish its run.
#[derive(Default)]
struct Trace {
    spawned: Vec<Entity>,
    closures: Vec<Entity>,
    calm: bool,
}

const VOLATILE: &str = "volatile panics after recording";

/// Spawns a `Marker` and records a closure naming it, then panics unless
/// the trace says it is calm.
fn volatile(mut commands: Commands, mut trace: ResMut<Trace>) {
    let marker = commands.spawn(Marker);
    trace.spawned.push(marker);
    commands.add(move |world: &mut World| {
        let trace = world.resource_mut::<Trace>().expect("inserted");
        trace.closures.push(marker);
    });
    if !trace.calm {
        panic!("{VOLATILE}");
    }
}

/// The entities holding a `Marker`.
fn markers(world: &mut World) -> Vec<Entity> {
    world
        .query::<(Entity, &Marker)>()
        .iter()
        .map(|(e, _)| e)
        .collect()
}

/// After `volatile` panicked once (however its run was asked for) and the
/// world went on: nothing of that run is in the world, its reserved id is
/// dead, and a calm run of the same system applies its own commands only.
fn assert_dropped_then_calm_run(
    world: &mut World,
    base: usize,
    calm_run: impl FnOnce(&mut World),
) -> Result<(), Error> {
    assert!(world.flush().is_empty(), "nothing of the run waits");
    // A change of structure makes alive every id still reserved.
    let probe = world.spawn(());
    world.despawn(probe)?;
    let reserved = world.resource::<Trace>()?.spawned[0];
    assert!(!world.is_alive(reserved), "the reserved id is released");
    assert!(markers(world).is_empty(), "the spawn did not apply");
    assert!(
        world.resource::<Trace>()?.closures.is_empty(),
        "the closure never ran"
    );
    assert_eq!(world.len(), base, "no entity alive and empty");

    world.resource_mut::<Trace>()?.calm = true;
    calm_run(world);
    let trace = world.resource::<Trace>()?;
    assert_eq!(trace.spawned.len(), 2);
    let own = trace.spawned[1];
    assert_eq!(trace.closures, [own], "only the calm run's closure ran");
    assert_eq!(markers(world), [own], "only the calm run's spawn applied");
    assert_eq!(world.len(), base + 1);
    assert!(!world.is_alive(reserved));
    Ok(())
}

#[test]
fn a_panicking_one_shot_system_drops_its_commands_and_releases_its_ids() -> Result<(), Error> {
    let mut world = World::new();
    world.init_resource::<Trace>();
    world.spawn(Debris(0));
    let id = world.register_system(volatile);
    let panic = catch_unwind(AssertUnwindSafe(|| world.run_system(id))).unwrap_err();
    assert_eq!(panic_message(&*panic), VOLATILE);
    assert_dropped_then_calm_run(&mut world, 1, |world| {
        world.run_system(id).expect("stays registered, and runs");
    })
}

#[test]
fn a_one_shot_system_panicking_inside_a_command_drops_its_commands() -> Result<(), Error> {
    let mut world = World::new();
    world.init_resource::<Trace>();
    world.spawn(Debris(0));
    let id = world.register_system(volatile);
    world.commands().add(move |world: &mut World| {
        let _ = world.run_system(id);
    });
    let after = world.commands().spawn(Debris(1));
    let panic = catch_unwind(AssertUnwindSafe(|| world.flush())).unwrap_err();
    assert_eq!(panic_message(&*panic), VOLATILE);
    assert!(
        !world.is_alive(after),
        "the commands after the panicking one are dropped"
    );
    assert_dropped_then_calm_run(&mut world, 1, |world| {
        world.commands().add(move |world: &mut World| {
            world.run_system(id).expect("runs");
        });
        assert!(world.flush().is_empty());
    })
}

#[test]
fn a_one_shot_system_panicking_inside_an_exclusive_system_drops_its_commands() -> Result<(), Error>
{
    let mut world = World::new();
    world.init_resource::<Trace>();
    world.spawn(Debris(0));
    let id = world.register_system(volatile);
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, move |world: &mut World| {
        world.run_system(id).expect("runs or panics");
    })?;
    let panic = catch_unwind(AssertUnwindSafe(|| schedule.run(&mut world))).unwrap_err();
    assert_eq!(panic_message(&*panic), VOLATILE);
    assert_dropped_then_calm_run(&mut world, 1, |world| {
        schedule.run(world).expect("runs");
    })
}

/// A counted value a command holds until it applies.
#[derive(Component)]
struct Held(#[allow(dead_code, reason = "held for its drop")] Token);

/// Values for `hoard`, and the entity it inserts into.
struct Stock {
    values: Vec<Token>,
    target: Entity,
}

const HOARD: &str = "hoard panics after recording";

/// Spawns with the first value, inserts the second into the target, spawns
/// with the rest, then panics.
fn hoard(mut commands: Commands, mut stock: ResMut<Stock>) {
    let target = stock.target;
    let mut values = std::mem::take(&mut stock.values).into_iter();
    commands.spawn(Held(values.next().expect("a value")));
    commands.insert(target, Held(values.next().expect("a value")));
    for value in values {
        commands.spawn((Marker, Held(value)));
    }
    panic!("{HOARD}");
}

#[test]
fn a_panicking_one_shot_system_drops_each_value_of_its_commands_once() -> Result<(), Error> {
    let ledger = Ledger::default();
    let mut world = World::new();
    let kept = ledger.token();
    let kept_id = kept.id;
    let target = world.spawn(Held(kept));
    // The third value's `Drop` panics: the caller still gets the system's
    // panic, and the values around it drop too.
    let values = vec![
        ledger.token(),
        ledger.token(),
        ledger.bomb(),
        ledger.token(),
    ];
    world.insert_resource(Stock { values, target });
    let id = world.register_system(hoard);
    let panic = catch_unwind(AssertUnwindSafe(|| world.run_system(id))).unwrap_err();
    assert_eq!(panic_message(&*panic), HOARD);
    ledger.assert_no_errors();
    assert_eq!(ledger.dropped(), 4, "every recorded value dropped once");
    assert_eq!(
        ledger.live_ids(),
        [kept_id].into(),
        "the target keeps its value"
    );
    assert!(world.flush().is_empty());
    world.spawn(());
    assert_eq!(
        world.len(),
        2,
        "the target and the probe; no reserved id alive"
    );
    assert!(markers(&mut world).is_empty());

    world.resource_mut::<Stock>()?.values = vec![ledger.token(), ledger.token()];
    let panic = catch_unwind(AssertUnwindSafe(|| world.run_system(id))).unwrap_err();
    assert_eq!(panic_message(&*panic), HOARD, "the system stays registered");
    assert_eq!(ledger.dropped(), 6, "a later run drops only its own values");
    drop(world);
    ledger.assert_all_dropped();
    assert_eq!(ledger.dropped(), 7, "none dropped twice");
    Ok(())
}

/// Values for `split_hoard`: one for each of its two command buffers.
struct Split {
    first: Option<Token>,
    second: Option<Token>,
}

/// Records a spawn in each of two `Commands`, then panics.
fn split_hoard(mut first: Commands, mut second: Commands, mut split: ResMut<Split>) {
    first.spawn(Held(split.first.take().expect("a value")));
    second.spawn((Marker, Held(split.second.take().expect("a value"))));
    panic!("{HOARD}");
}

#[test]
fn a_panicking_system_with_two_command_buffers_drops_both() -> Result<(), Error> {
    let ledger = Ledger::default();
    let mut world = World::new();
    // The first buffer's value panics as it drops: the second buffer is
    // dropped all the same, not kept for the next run.
    world.insert_resource(Split {
        first: Some(ledger.bomb()),
        second: Some(ledger.token()),
    });
    let id = world.register_system(split_hoard);
    let panic = catch_unwind(AssertUnwindSafe(|| world.run_system(id))).unwrap_err();
    assert_eq!(panic_message(&*panic), HOARD);
    assert_eq!(ledger.dropped(), 2, "both buffers' values dropped");
    assert!(world.flush().is_empty());
    assert!(markers(&mut world).is_empty());
    assert_eq!(world.len(), 0, "no reserved id alive");

    world.insert_resource(Split {
        first: Some(ledger.token()),
        second: Some(ledger.token()),
    });
    let panic = catch_unwind(AssertUnwindSafe(|| world.run_system(id))).unwrap_err();
    assert_eq!(panic_message(&*panic), HOARD);
    assert_eq!(ledger.dropped(), 4, "the next run drops only its own");
    drop(world);
    ledger.assert_all_dropped();
    Ok(())
}
