// A query of only `&` fields is its own read-only form: `query_ref` accepts it and `iter` yields it.
use ecs_core::prelude::*;

#[derive(Component)]
struct Position(f32);
#[derive(Component)]
struct Velocity(f32);

#[derive(Query)]
struct Viewer<'w> {
    entity: Entity,
    pos: &'w Position,
    vel: Option<&'w Velocity>,
}

fn main() {
    let mut world = World::new();
    let a = world.spawn((Position(1.0), Velocity(2.0)));
    let b = world.spawn(Position(3.0));

    // Two shared queries at once, beside `World::get`.
    let viewers = world.query_ref::<Viewer>();
    let again = world.query_ref::<Viewer>();
    let mut sum = 0.0;
    for v in viewers.iter() {
        let v: Viewer<'_> = v;
        sum += v.pos.0 + v.vel.map_or(0.0, |v| v.0);
        assert_eq!(again.get(v.entity).unwrap().entity, v.entity);
    }
    assert_eq!(sum, 6.0);
    let got: Viewer<'_> = viewers.get(b).unwrap();
    assert!(got.vel.is_none());
    assert_eq!(world.get::<Position>(a).unwrap().0, 1.0);

    // Through `query` too, with `iter_mut` and `get_mut` yielding `Viewer`.
    let mut query = world.query::<Viewer>();
    assert_eq!(query.iter_mut().count(), 2);
    let got: Viewer<'_> = query.get_mut(a).unwrap();
    assert_eq!(got.vel.unwrap().0, 2.0);
}
