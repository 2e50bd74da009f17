// The design's `Mover`: `iter_mut` yields its item `MoverItem`, `iter`/`get` yield the read-only twin `MoverReadOnly`.
use ecs_core::prelude::*;

#[derive(Component, Debug, PartialEq)]
struct Position(f32);
#[derive(Component)]
struct Velocity(f32);
#[derive(Component, Debug, PartialEq)]
struct Name(&'static str);
#[derive(Component)]
struct Frozen;

#[derive(Query)]
struct Mover<'w> {
    entity: Entity,
    pos: &'w mut Position,
    vel: &'w Velocity,
    name: Option<&'w Name>,
}

fn main() {
    let mut world = World::new();
    let named = world.spawn((Position(0.0), Velocity(1.0), Name("runner")));
    let frozen = world.spawn((Position(0.0), Velocity(1.0), Frozen));
    let still = world.spawn(Position(5.0));

    let mut query = world.query::<Mover>().without::<Frozen>();
    let mut seen = Vec::new();
    for m in query.iter_mut() {
        let m: MoverItem<'_> = m;
        m.pos.0 += m.vel.0;
        seen.push((m.entity, m.name.map(|n| n.0)));
    }
    assert_eq!(seen, [(named, Some("runner"))]);

    let mut twins = 0;
    for m in query.iter() {
        let m: MoverReadOnly<'_> = m;
        let _: (&Position, &Velocity, Option<&Name>) = (m.pos, m.vel, m.name);
        assert_eq!(m.entity, named);
        twins += 1;
    }
    assert_eq!(twins, 1);
    let twin: MoverReadOnly<'_> = query.get(named).unwrap();
    assert_eq!(twin.pos, &Position(1.0));
    assert!(query.get(frozen).is_err());
    assert!(query.get(still).is_err());
    query.get_mut(named).unwrap().pos.0 = 10.0;

    assert_eq!(world.get::<Position>(named).unwrap(), &Position(10.0));
    assert_eq!(world.get::<Position>(frozen).unwrap(), &Position(0.0));
}
