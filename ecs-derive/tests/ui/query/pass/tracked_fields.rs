// A `&'w mut T` field of a type that tracks changes is a `Mut<'w, T>` in the item; an
// untracked one stays `&'w mut T`, generic fields included.
use ecs_core::change::Tick;
use ecs_core::prelude::*;

#[derive(Component, Debug, PartialEq)]
#[component(track_changes)]
struct Health(i32);
#[derive(Component, Debug, PartialEq)]
struct Armor(i32);
#[derive(Component, Debug, PartialEq)]
#[component(track_changes)]
struct Shield(i32);

#[derive(Query)]
struct Fighter<'w> {
    health: &'w mut Health,
    armor: &'w mut Armor,
    shield: Option<&'w mut Shield>,
}

#[derive(Query)]
struct Wrapped<'w, T: Component> {
    entity: Entity,
    inner: &'w mut T,
}

fn changed(world: &mut World, since: Tick) -> Vec<Entity> {
    world.query_filtered::<Entity, Changed<Health>>().changed_since(since).iter().collect()
}

fn main() {
    let mut world = World::new();
    let a = world.spawn((Health(10), Armor(1)));
    let b = world.spawn((Health(10), Armor(1)));
    let since = world.change_tick();

    for f in world.query::<Fighter>().iter_mut() {
        let mut health: Mut<'_, Health> = f.health;
        let armor: &mut Armor = f.armor;
        let _: Option<Mut<'_, Shield>> = f.shield;
        armor.0 += 1;
        if health.0 == 10 && armor.0 == 2 {
            health.0 -= armor.0;
        }
    }
    assert_eq!(changed(&mut world, since), [a, b]);

    let since = world.change_tick();
    for w in world.query::<Wrapped<Health>>().iter_mut() {
        let WrappedItem { entity, mut inner } = w;
        let _: &Mut<'_, Health> = &inner;
        // `a` already holds 8: only `b` is written.
        inner.set_if_neq(Health(if entity == a { 8 } else { 0 }));
    }
    assert_eq!(changed(&mut world, since), [b]);
    for w in world.query::<Wrapped<Armor>>().iter_mut() {
        let _: &mut Armor = w.inner;
    }
}
