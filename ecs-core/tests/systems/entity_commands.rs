//! Commands that read like the world: `commands.entity(e)` chains,
//! `spawn_batch`, `init_resource`, inside a schedule.

use ecs_core::prelude::*;

#[derive(Component, Debug, PartialEq)]
struct Health(i32);
#[derive(Component)]
struct Poisoned;
#[derive(Component)]
struct Dead;

#[derive(Default, Debug, PartialEq)]
struct Graveyard(u32);

#[test]
fn entity_chains_apply_in_call_order_at_the_end_of_the_stage() -> Result<(), Error> {
    fn tick(q: Query<(Entity, &Health)>, mut commands: Commands) {
        for (e, h) in q.iter() {
            if h.0 <= 0 {
                commands
                    .entity(e)
                    .insert(Dead)
                    .remove::<Poisoned>()
                    .despawn();
                commands.init_resource::<Graveyard>();
            } else {
                commands.entity(e).insert(Health(h.0 - 1));
            }
        }
    }
    fn bury(mut graveyard: ResMut<Graveyard>) {
        graveyard.0 += 1;
    }
    let mut world = World::new();
    let sick = world.spawn((Health(0), Poisoned));
    let well = world.spawn(Health(2));
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, tick)?;
    schedule.add_system(Stage::PostUpdate, bury.run_if(resource_exists::<Graveyard>))?;
    schedule.run(&mut world)?;
    assert!(!world.is_alive(sick));
    assert_eq!(world.get::<Health>(well)?, &Health(1));
    assert_eq!(world.resource::<Graveyard>()?.0, 1);
    assert!(schedule.command_errors().is_empty());
    Ok(())
}

#[test]
fn a_command_chained_after_despawn_fails_like_any_other() {
    let mut world = World::new();
    let e = world.spawn(());
    world.commands().entity(e).despawn().insert(Dead);
    let errors = world.flush();
    assert_eq!(errors, [Error::Despawned { entity: e }]);
}

#[test]
fn spawn_batch_spawns_one_entity_per_bundle_with_ids_in_order() -> Result<(), Error> {
    fn spawner(mut commands: Commands) {
        commands.spawn_batch((1..=3).map(|i| (Health(i), Poisoned)));
    }
    let mut world = World::new();
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, spawner)?;
    schedule.run(&mut world)?;
    let mut found: Vec<(Entity, i32)> = world
        .query::<(Entity, &Health, &Poisoned)>()
        .iter()
        .map(|(e, h, _)| (e, h.0))
        .collect();
    found.sort_unstable_by_key(|(e, _)| e.index());
    assert_eq!(found.iter().map(|(_, h)| *h).collect::<Vec<_>>(), [1, 2, 3]);
    Ok(())
}

#[test]
fn init_resource_keeps_an_existing_value() {
    let mut world = World::new();
    world.insert_resource(Graveyard(7));
    world.commands().init_resource::<Graveyard>();
    world.flush();
    assert_eq!(world.resource::<Graveyard>(), Ok(&Graveyard(7)));
}
