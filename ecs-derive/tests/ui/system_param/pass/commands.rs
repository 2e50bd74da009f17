// `Commands` inside a derived struct: its spawns apply when the stage ends.
use ecs_core::prelude::*;

#[derive(Component)]
struct Spawner(u32);
#[derive(Component)]
struct Child;

#[derive(SystemParam)]
struct Spawning<'w> {
    spawners: Query<'w, &'w Spawner>,
    commands: Commands<'w>,
}

fn spawn_children(mut s: Spawning) {
    for spawner in s.spawners.iter() {
        for _ in 0..spawner.0 {
            s.commands.spawn(Child);
        }
    }
}

fn main() -> Result<(), Error> {
    let mut world = World::new();
    world.spawn(Spawner(2));
    world.spawn(Spawner(3));
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, spawn_children)?;
    schedule.run(&mut world)?;
    assert_eq!(world.query::<&Child>().iter().count(), 5);
    Ok(())
}
