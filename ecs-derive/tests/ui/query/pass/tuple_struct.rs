// A tuple struct derives `Query`; its item and its read-only twin are tuple structs too.
use ecs_core::prelude::*;

#[derive(Component)]
struct A(u32);
#[derive(Component)]
struct B(u32);

#[derive(Query)]
struct Pair<'w>(&'w mut A, &'w B);

fn main() {
    let mut world = World::new();
    let e = world.spawn((A(1), B(10)));
    world.spawn(A(100));

    let mut query = world.query::<Pair>();
    for PairItem(a, b) in query.iter_mut() {
        a.0 += b.0;
    }
    let PairReadOnly(a, b) = query.get(e).unwrap();
    assert_eq!((a.0, b.0), (11, 10));
    query.get_mut(e).unwrap().0.0 = 0;
    assert_eq!(query.iter().map(|p: PairReadOnly<'_>| p.0.0).sum::<u32>(), 0);
}
