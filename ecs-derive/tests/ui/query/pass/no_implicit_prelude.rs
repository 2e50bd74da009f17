// Generated code names every item by absolute path, so it compiles without the prelude.
#![no_implicit_prelude]

#[derive(::ecs_core::Component, ::std::fmt::Debug, ::std::cmp::PartialEq)]
struct Position(f32);
#[derive(::ecs_core::Component)]
struct Velocity(f32);

#[derive(::ecs_core::Query)]
struct Mover<'w> {
    entity: ::ecs_core::Entity,
    pos: &'w mut Position,
    vel: ::std::option::Option<&'w Velocity>,
}

#[derive(::ecs_core::Query)]
struct Viewer<'w, T: ::ecs_core::Component>(&'w T, (::ecs_core::Entity,));

#[derive(::ecs_core::Query)]
#[query(mutable)]
struct Outer<'w> {
    inner: Mover<'w>,
}

fn main() {
    let mut world = ::ecs_core::World::new();
    let e = world.spawn((Position(1.0), Velocity(2.0)));
    for m in world.query::<Outer>().iter_mut() {
        ::std::assert_eq!(m.inner.entity, e);
        m.inner.pos.0 += ::std::option::Option::map_or(m.inner.vel, 0.0, |v| v.0);
    }
    let query = world.query_ref::<Viewer<Position>>();
    let viewer = ::std::result::Result::unwrap(query.get(e));
    ::std::assert_eq!(viewer.0, &Position(3.0));
    ::std::assert_eq!((viewer.1).0, e);
    let query = world.query::<Mover>();
    let twin: MoverReadOnly<'_> = ::std::result::Result::unwrap(query.get(e));
    ::std::assert_eq!(twin.pos, &Position(3.0));
}
