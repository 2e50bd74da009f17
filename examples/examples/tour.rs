//! A short tour: spawn a few entities, move them with a typed query, look at what one
//! holds, despawn one, and see its stale handle reported as an error.

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

/// What the movement step reads and writes.
#[derive(Query)]
struct Mover<'w> {
    pos: &'w mut Position,
    vel: &'w Velocity,
}

fn main() -> Result<(), Error> {
    let mut world = World::new();
    world.spawn((
        Name("hero".into()),
        Position { x: 0.0, y: 0.0 },
        Velocity { x: 1.0, y: 0.5 },
    ));
    let rock = world.spawn((
        Name("rock".into()),
        Position { x: 5.0, y: 5.0 },
        Velocity { x: 9.0, y: 9.0 },
        Frozen,
    ));
    let monster = world.spawn((
        Name("monster".into()),
        Position { x: 9.0, y: 0.0 },
        Velocity { x: -1.0, y: 0.0 },
    ));

    for step in 1..=3 {
        for m in world.query::<Mover>().without::<Frozen>().iter_mut() {
            m.pos.x += m.vel.x;
            m.pos.y += m.vel.y;
        }
        println!("step {step}:");
        let mut rows: Vec<_> = world
            .query::<(Entity, &Name, &Position)>()
            .iter()
            .map(|(e, name, p)| (e, name.0.clone(), *p))
            .collect();
        rows.sort_by_key(|(e, ..)| *e);
        for (e, name, p) in rows {
            println!("  {name:8} {e:?} at ({:5.1}, {:5.1})", p.x, p.y);
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
    let frozen = world.query_filtered::<&Name, With<Frozen>>();
    println!("frozen in place: {}", frozen.single()?.0);
    println!("{} entities alive", world.len());
    Ok(())
}
