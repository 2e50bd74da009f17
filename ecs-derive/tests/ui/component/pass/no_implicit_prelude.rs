// Generated code names every item by absolute path, so it compiles without the prelude.
#![no_implicit_prelude]

#[derive(::ecs_core::Component, ::std::fmt::Debug, ::std::cmp::PartialEq)]
struct Position {
    x: f32,
    y: f32,
}

#[derive(::ecs_core::Component)]
struct Wrap<T: ::std::fmt::Debug>(T);

#[derive(::ecs_core::Component)]
struct Tag;

fn main() {
    let mut world = ::ecs_core::World::new();
    let e = world.spawn((Position { x: 1.0, y: 2.0 }, Wrap(3u8), Tag));
    let position = ::std::result::Result::unwrap(world.get::<Position>(e));
    ::std::assert_eq!(position, &Position { x: 1.0, y: 2.0 });
    ::std::assert_eq!(::std::result::Result::unwrap(world.get::<Wrap<u8>>(e)).0, 3);
    ::std::assert!(world.contains::<Tag>(e));
}
