//! observers for bevy_ecs, the one peer with observers of events a game
//! triggers (hecs, shipyard, sparsey, specs and legion have none: no row).

use super::*;

pub(super) fn global() -> Vec<Contender> {
    vec![Contender::of::<BevyGlobal>(
        "bevy",
        "world.add_observer x100, world.trigger",
    )]
}

pub(super) fn chain() -> Vec<Contender> {
    vec![Contender::of::<BevyChain>(
        "bevy",
        "EntityEvent (propagate, auto_propagate), entity_mut(root).observe",
    )]
}

#[derive(bevy_ecs::event::Event)]
struct BevyPing(u64);

#[derive(bevy_ecs::resource::Resource, Default)]
struct BevySum(u64);

fn bevy_add<const N: usize>(
    ping: bevy_ecs::observer::On<BevyPing>,
    mut sum: bevy_ecs::system::ResMut<BevySum>,
) {
    sum.0 = sum.0.wrapping_add(ping.0 + N as u64);
}

struct BevyGlobal(bevy_ecs::world::World);

impl Bench for BevyGlobal {
    fn setup() -> Self {
        let mut world = bevy_ecs::world::World::new();
        world.init_resource::<BevySum>();
        macro_rules! observe {
            ($n:tt) => {
                world.add_observer(bevy_add::<$n>);
            };
        }
        for_each_system!(observe);
        Self(world)
    }

    fn run(&mut self) {
        self.0.resource_mut::<BevySum>().0 = 0;
        for value in 0..GLOBAL_TRIGGERS as u64 {
            self.0.trigger(BevyPing(value));
        }
    }

    fn checksum(&mut self) -> f64 {
        self.0.resource::<BevySum>().0 as f64
    }
}

#[derive(bevy_ecs::event::EntityEvent)]
#[entity_event(propagate, auto_propagate)]
struct BevyHit {
    entity: bevy_ecs::entity::Entity,
    damage: u64,
}

struct BevyChain {
    world: bevy_ecs::world::World,
    leaf: bevy_ecs::entity::Entity,
}

impl Bench for BevyChain {
    fn setup() -> Self {
        let mut world = bevy_ecs::world::World::new();
        world.init_resource::<BevySum>();
        let root = world.spawn_empty().id();
        let mut leaf = root;
        for _ in 1..DEPTH {
            leaf = world.spawn(bevy_ecs::hierarchy::ChildOf(leaf)).id();
        }
        world.entity_mut(root).observe(
            |hit: bevy_ecs::observer::On<BevyHit>, mut sum: bevy_ecs::system::ResMut<BevySum>| {
                sum.0 = sum.0.wrapping_add(hit.damage);
            },
        );
        Self { world, leaf }
    }

    fn run(&mut self) {
        self.world.resource_mut::<BevySum>().0 = 0;
        for damage in 0..CHAIN_TRIGGERS as u64 {
            self.world.trigger(BevyHit {
                entity: self.leaf,
                damage,
            });
        }
    }

    fn checksum(&mut self) -> f64 {
        self.world.resource::<BevySum>().0 as f64
    }
}
