//! Relationship pairs of every accepted shape: tuple and named fields, with
//! and without `linked_spawn`, with hooks of the kinds they leave free, and
//! a target list that cannot be built outside its module.

mod social {
    use ecs_core::prelude::*;

    fn noted(_: DeferredWorld, _: HookContext) {}

    #[derive(Component)]
    #[relationship(target = Followers)]
    #[component(on_add = noted, on_remove = noted)]
    pub struct Follows(#[entity] pub Entity);

    #[derive(Component, Debug)]
    #[relationship_target(relationship = Follows)]
    pub struct Followers(Vec<Entity>);

    #[derive(Component)]
    #[relationship(target = Crew)]
    pub struct CrewOf {
        pub ship: Entity,
    }

    #[derive(Component)]
    #[relationship_target(relationship = CrewOf, linked_spawn)]
    #[component(on_despawn = noted)]
    pub struct Crew {
        members: Vec<Entity>,
    }
}

use ecs_core::prelude::*;
use social::*;

fn main() {
    let mut world = World::new();
    let star = world.spawn(());
    let fan = world.spawn(Follows(star));
    assert_eq!(world.get::<Followers>(star).unwrap().sources(), &[fan]);
    let ship = world.spawn(());
    let cook = world.spawn(CrewOf { ship });
    assert!(!<Followers as RelationshipTarget>::LINKED_SPAWN);
    world.despawn(ship).unwrap();
    assert!(!world.is_alive(cook));
}
