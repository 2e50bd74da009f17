// `#[component(crate = "...")]` works with a renamed crate and with a re-exported one.
extern crate ecs_core as my_ecs;

mod engine {
    pub use ecs_core as inner;
}

// The derive is reached through the renamed crate.
#[derive(my_ecs::Component, Debug, PartialEq)]
#[component(crate = "my_ecs")]
struct Renamed(u8);

// An absolute path with a leading `::` is accepted.
#[derive(my_ecs::Component)]
#[component(crate = "::my_ecs")]
struct Absolute;

// A re-export inside this crate, with the derive imported by `use`.
use engine::inner::Component;
#[derive(Component, Debug, PartialEq)]
#[component(crate = "crate::engine::inner")]
struct Reexported<T>(T);

fn main() {
    let mut world = my_ecs::World::new();
    let e = world.spawn((Renamed(1), Absolute, Reexported(2u16)));
    assert_eq!(world.get::<Renamed>(e).unwrap(), &Renamed(1));
    assert!(world.contains::<Absolute>(e));
    assert_eq!(world.get::<Reexported<u16>>(e).unwrap(), &Reexported(2));
}
