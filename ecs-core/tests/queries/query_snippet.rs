//! The snippet of the typed-queries design, compiled and run as written.

use ecs_core::prelude::*;

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Position {
    x: f32,
    y: f32,
}

#[derive(Component, Clone, Copy, Debug, PartialEq)]
struct Velocity {
    x: f32,
    y: f32,
}

#[derive(Component, Debug, PartialEq)]
struct Name(String);

#[derive(Component, Debug, PartialEq)]
struct Health(i32);

#[derive(Component)]
struct Frozen;
#[derive(Component)]
struct Enemy;
#[derive(Component)]
struct Player;
#[derive(Component)]
struct Burning;
#[derive(Component)]
struct Boss;

#[derive(Query)]
struct Mover<'w> {
    entity: Entity,
    pos: &'w mut Position,
    vel: &'w Velocity,
    name: Option<&'w Name>,
}

#[test]
fn the_design_snippet_behaves_as_written() -> Result<(), Error> {
    let mut world = World::new();
    let p = |x| Position { x, y: 0.0 };
    let v = |x| Velocity { x, y: 0.0 };
    let runner = world.spawn((p(0.0), v(1.0), Name("runner".into()), Enemy));
    let frozen = world.spawn((p(0.0), v(1.0), Frozen, Enemy));
    let player = world.spawn((p(5.0), v(2.0), Player, Health(10), Burning));
    let boss = world.spawn((p(9.0), Health(100), Burning, Boss, Enemy));

    for m in world.query::<Mover>().without::<Frozen>().iter_mut() {
        m.pos.x += m.vel.x;
    }
    assert_eq!(world.get::<Position>(runner)?.x, 1.0);
    assert_eq!(world.get::<Position>(frozen)?.x, 0.0);
    assert_eq!(world.get::<Position>(player)?.x, 7.0);
    assert_eq!(
        world.get::<Position>(boss)?.x,
        9.0,
        "the boss has no velocity"
    );

    let n = world
        .query::<(&Position, &Velocity)>()
        .with::<Enemy>()
        .iter()
        .count();
    assert_eq!(n, 2);

    world
        .query_filtered::<(Entity, &mut Health), (With<Burning>, Without<Boss>)>()
        .iter_mut()
        .for_each(|(e, h)| {
            assert_eq!(e, player);
            h.0 -= 1;
        });
    assert_eq!(world.get::<Health>(player)?, &Health(9));
    assert_eq!(world.get::<Health>(boss)?, &Health(100));

    let either = world
        .query_filtered::<Entity, Or<(With<Enemy>, With<Player>)>>()
        .iter()
        .count();
    assert_eq!(either, 4);

    let e = runner;
    let mut movers = world.query::<Mover>();
    let mover = movers.get_mut(e)?; // random access through a query
    assert_eq!(mover.entity, runner);
    assert_eq!(mover.name, Some(&Name("runner".into())));
    mover.pos.y = 3.0;
    assert_eq!(world.get::<Position>(runner)?, &Position { x: 1.0, y: 3.0 });
    Ok(())
}

#[test]
fn read_only_twin_is_what_iter_yields() {
    let mut world = World::new();
    world.spawn((Position { x: 1.0, y: 2.0 }, Velocity { x: 0.5, y: 0.0 }));
    let query = world.query::<Mover>();
    let twin: MoverReadOnly<'_> = query.iter().next().unwrap();
    assert_eq!(twin.pos, &Position { x: 1.0, y: 2.0 });
    assert_eq!(twin.vel.x, 0.5);
    assert!(twin.name.is_none());
}
