// `Option<&mut T>` fields, tuple fields (nested too) and tag components fetched as `&Tag`.
use ecs_core::prelude::*;

#[derive(Component, Debug, PartialEq)]
struct A(u8);
#[derive(Component, Debug, PartialEq)]
struct B(u8);
#[derive(Component, Debug, PartialEq)]
struct C(u8);
#[derive(Component, Debug, PartialEq)]
struct Health(u8);
#[derive(Component)]
struct Enemy;

#[derive(Query)]
struct Kinds<'w> {
    health: Option<&'w mut Health>,
    pair: (&'w A, &'w B),
    tag: &'w Enemy,
    nested: (Entity, (Option<&'w mut C>,)),
}

fn main() {
    let mut world = World::new();
    let hurt = world.spawn((A(1), B(2), C(3), Health(10), Enemy));
    let whole = world.spawn((A(3), B(4), Enemy));
    world.spawn((A(5), B(6)));

    let mut query = world.query::<Kinds>();
    let mut n = 0;
    for k in query.iter_mut() {
        if let Some(h) = k.health {
            h.0 -= k.pair.0.0;
        }
        let _: &Enemy = k.tag;
        if let Some(c) = k.nested.1.0 {
            c.0 *= 10;
        }
        n += 1;
    }
    assert_eq!(n, 2);
    let twin: KindsReadOnly<'_> = query.get(hurt).unwrap();
    let _: (Option<&Health>, (&A, &B), &Enemy, (Entity, (Option<&C>,))) =
        (twin.health, twin.pair, twin.tag, twin.nested);
    assert_eq!(twin.health, Some(&Health(9)));
    assert_eq!(twin.nested, (hurt, (Some(&C(30)),)));
    let whole = query.get(whole).unwrap();
    assert!(whole.health.is_none() && whole.nested.1.0.is_none());
}
