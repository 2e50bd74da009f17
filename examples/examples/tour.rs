//! A short tour: spawn a few entities, change them, look at what they hold, despawn one,
//! and see a stale handle reported as an error.

use ecs_core::prelude::*;

#[derive(Component, Clone, Copy, Debug)]
struct Position {
    x: f32,
    y: f32,
}

#[derive(Component, Clone, Copy, Debug)]
struct Velocity {
    x: f32,
    y: f32,
}

#[derive(Component, Debug)]
struct Name(String);

#[derive(Component)]
struct Frozen;

fn main() -> Result<(), Error> {
    let mut world = World::new();
    let hero = world.spawn((
        Name("hero".into()),
        Position { x: 0.0, y: 0.0 },
        Velocity { x: 1.0, y: 0.5 },
    ));
    let rock = world.spawn((Name("rock".into()), Position { x: 5.0, y: 5.0 }, Frozen));
    let monster = world.spawn((
        Name("monster".into()),
        Position { x: 9.0, y: 0.0 },
        Velocity { x: -1.0, y: 0.0 },
    ));

    for step in 1..=3 {
        for e in [hero, rock, monster] {
            if world.contains::<Frozen>(e) {
                continue;
            }
            let Ok(&velocity) = world.get::<Velocity>(e) else {
                continue;
            };
            let position = world.get_mut::<Position>(e)?;
            position.x += velocity.x;
            position.y += velocity.y;
        }
        println!("step {step}:");
        for e in [hero, rock, monster] {
            let name = &world.get::<Name>(e)?.0;
            let position = world.get::<Position>(e)?;
            println!(
                "  {name:8} {e:?} at ({:5.1}, {:5.1})",
                position.x, position.y
            );
        }
    }

    let held: Vec<_> = world.components_of(rock)?.map(|c| c.name()).collect();
    println!("the rock holds {}", held.join(", "));

    world.despawn(monster)?;
    let newcomer = world.spawn(Name("newcomer".into()));
    println!("the newcomer reuses the monster's slot: {monster:?} -> {newcomer:?}");
    match world.get::<Name>(monster) {
        Ok(name) => println!("unexpected: the old handle reads {name:?}"),
        Err(error) => println!("the monster's old handle: {error}"),
    }
    println!("{} entities alive", world.len());
    Ok(())
}
