// Generic queries: inline bounds, a where-clause, and a mutable generic one with its twin.
use ecs_core::prelude::*;

#[derive(Component, Debug, PartialEq)]
struct Health(i32);
#[derive(Component, Debug, PartialEq)]
struct Mana(i32);

#[derive(Query)]
struct Gen<'w, T: Component> {
    t: &'w T,
    e: Entity,
}

#[derive(Query)]
struct Where<'w, T, U>
where
    T: Component + core::fmt::Debug,
    U: Component,
{
    t: &'w mut T,
    u: Option<&'w U>,
}

#[derive(Query)]
struct Tuple<'w, T: Component>(&'w mut T, Entity);

fn main() {
    let mut world = World::new();
    let a = world.spawn((Health(1), Mana(5)));
    let b = world.spawn(Health(2));

    let healths = world.query_ref::<Gen<Health>>();
    let mut seen: Vec<(Entity, i32)> = healths.iter().map(|g: Gen<'_, Health>| (g.e, g.t.0)).collect();
    seen.sort_by_key(|&(_, h)| h);
    assert_eq!(seen, [(a, 1), (b, 2)]);
    assert_eq!(world.query_ref::<Gen<Mana>>().iter().count(), 1);

    for w in world.query::<Where<Health, Mana>>().iter_mut() {
        w.t.0 += w.u.map_or(100, |m| m.0);
    }
    let query = world.query::<Where<Health, Mana>>();
    let twin: WhereReadOnly<'_, Health, Mana> = query.get(a).unwrap();
    assert_eq!((twin.t, twin.u), (&Health(6), Some(&Mana(5))));
    assert_eq!(query.get(b).unwrap().t, &Health(102));

    let mut query = world.query::<Tuple<Mana>>();
    for TupleItem(m, e) in query.iter_mut() {
        assert_eq!(e, a);
        m.0 = -1;
    }
    let TupleReadOnly(m, _) = query.get(a).unwrap();
    assert_eq!(m, &Mana(-1));
}
