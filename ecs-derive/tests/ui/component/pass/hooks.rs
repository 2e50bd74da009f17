// Hooks by any path, on generic types, beside other options, without the prelude's names.
#![deny(warnings)]

mod hooks {
    pub fn added(mut world: ecs_core::DeferredWorld, _: ecs_core::HookContext) {
        world.resource_mut::<super::Seen>().unwrap().0 += 1;
    }
    pub fn generic<T: 'static>(mut world: ecs_core::DeferredWorld, _: ecs_core::HookContext) {
        world.resource_mut::<super::Seen>().unwrap().0 += 10;
    }
}

#[derive(Default)]
struct Seen(u32);

#[derive(ecs_core::Component)]
#[component(track_changes, on_add = hooks::added, on_despawn = self::hooks::generic::<u8>)]
struct Plain(u8);

#[derive(ecs_core::Component)]
#[component(on_insert = hooks::generic::<T>)]
struct Wrapper<T: Send + Sync + 'static>(T);

fn main() {
    let mut world = ecs_core::World::new();
    world.insert_resource(Seen::default());
    let e = world.spawn((Plain(1), Wrapper(2u16)));
    assert_eq!(world.resource::<Seen>().unwrap().0, 11);
    world.despawn(e).unwrap();
    assert_eq!(world.resource::<Seen>().unwrap().0, 21);
}
