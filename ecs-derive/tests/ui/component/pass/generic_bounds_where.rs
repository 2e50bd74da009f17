// A generic struct keeps its inline bounds and where-clause; each instantiation is its own component.
use ecs_core::prelude::*;

#[derive(Component, Debug, PartialEq)]
struct Health<T: Copy + PartialOrd, U = ()>
where
    T: core::fmt::Debug,
    U: Default,
{
    current: T,
    max: T,
    extra: U,
}

fn main() {
    let mut world = World::new();
    let e = world.spawn((
        Health {
            current: 3u8,
            max: 10u8,
            extra: (),
        },
        Health {
            current: 0.5f32,
            max: 1.0f32,
            extra: 9i64,
        },
    ));
    assert_eq!(
        world.get::<Health<u8>>(e).unwrap(),
        &Health {
            current: 3,
            max: 10,
            extra: ()
        }
    );
    assert_eq!(
        world.get::<Health<f32, i64>>(e).unwrap(),
        &Health {
            current: 0.5,
            max: 1.0,
            extra: 9
        }
    );
    assert!(world.get::<Health<u16>>(e).is_err());
}
