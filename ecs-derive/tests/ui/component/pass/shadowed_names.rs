// User items named `Component`, `Send`, `Sync`, `core`, `std` and `ecs_core` do not confuse the derive.
#![allow(dead_code)]

mod core {}
mod std {}
mod ecs_core {}
struct Send;
struct Sync;
trait Component {}

#[derive(::ecs_core::Component, Debug, PartialEq)]
struct Position(u8);

#[derive(::ecs_core::Component)]
struct Wrap<T>(T);

fn main() {
    let mut world = ::ecs_core::World::new();
    let e = world.spawn((Position(4), Wrap(5u8)));
    assert_eq!(world.get::<Position>(e).unwrap(), &Position(4));
    assert_eq!(world.get::<Wrap<u8>>(e).unwrap().0, 5);
}
