//! One-shot systems: registered with the world, run on demand, their
//! commands applied before `run_system` returns, their state kept.

use ecs_core::prelude::*;

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
            "no one-shot system has id {needs}: it was unregistered, or belongs to another world"
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
