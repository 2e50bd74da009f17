//! The hierarchy workloads for bevy_ecs (the `peers` feature), with its
//! own `ChildOf` / `Children`.

use bevy_ecs::entity::Entity;
use bevy_ecs::hierarchy::{ChildOf, Children};
use bevy_ecs::world::World;

use super::*;

pub(super) fn despawn_child() -> Vec<Contender> {
    vec![Contender::of::<BevyChild>(
        "bevy",
        "despawn + spawn(ChildOf(parent))",
    )]
}

pub(super) fn spawn_children() -> Vec<Contender> {
    vec![Contender::of::<BevySpawn>(
        "bevy",
        "spawn parent + spawn_batch(ChildOf(parent))",
    )]
}

pub(super) fn propagate() -> Vec<Contender> {
    vec![Contender::of::<BevyPropagate>(
        "bevy",
        "stack walk: get::<Children>, get::<LocalOffset>, get_mut::<GlobalPosition>",
    )]
}

struct BevyChild {
    world: World,
    parent: Entity,
    victim: Entity,
}

impl Bench for BevyChild {
    fn setup() -> Self {
        let mut world = World::new();
        let parent = world.spawn_empty().id();
        let ids: Vec<Entity> = world
            .spawn_batch((0..SIBLINGS).map(|i| (offset(i), ChildOf(parent))))
            .collect();
        Self {
            world,
            parent,
            victim: ids[SIBLINGS / 2],
        }
    }

    fn run(&mut self) {
        assert!(self.world.despawn(self.victim), "alive");
        self.victim = self.world.spawn((offset(0), ChildOf(self.parent))).id();
    }

    fn checksum(&mut self) -> f64 {
        self.world
            .get::<Children>(self.parent)
            .map_or(0, |c| c.len()) as f64
    }
}

struct BevySpawn {
    world: World,
}

impl Bench for BevySpawn {
    fn setup() -> Self {
        Self {
            world: World::new(),
        }
    }

    const PREPARES: bool = true;

    fn prepare(&mut self) {
        self.world.clear_entities();
    }

    fn run(&mut self) {
        for _ in 0..PARENTS {
            let parent = self.world.spawn_empty().id();
            self.world
                .spawn_batch((0..CHILDREN_PER_PARENT).map(|i| (offset(i), ChildOf(parent))));
        }
    }

    fn checksum(&mut self) -> f64 {
        self.world.query::<&ChildOf>().iter(&self.world).count() as f64
    }
}

struct BevyPropagate {
    world: World,
    root: Entity,
    stack: Vec<(Entity, [f32; 3])>,
}

impl Bench for BevyPropagate {
    fn setup() -> Self {
        let mut world = World::new();
        let mut ids: Vec<Entity> = Vec::new();
        for (i, parent) in tree().into_iter().enumerate() {
            let node = (offset(i), GlobalPosition([0.0; 3]));
            let id = match parent {
                Some(p) => world.spawn((node, ChildOf(ids[p]))).id(),
                None => world.spawn(node).id(),
            };
            ids.push(id);
        }
        Self {
            world,
            root: ids[0],
            stack: Vec::new(),
        }
    }

    fn run(&mut self) {
        let world = &mut self.world;
        let root = world.get::<LocalOffset>(self.root).expect("a node").0;
        self.stack.push((self.root, root));
        while let Some((node, global)) = self.stack.pop() {
            world.get_mut::<GlobalPosition>(node).expect("a node").0 = global;
            if let Some(children) = world.get::<Children>(node) {
                for &child in children.iter() {
                    let local = world.get::<LocalOffset>(child).expect("a node").0;
                    let at = [
                        global[0] + local[0],
                        global[1] + local[1],
                        global[2] + local[2],
                    ];
                    self.stack.push((child, at));
                }
            }
        }
    }

    fn checksum(&mut self) -> f64 {
        let mut query = self.world.query::<&GlobalPosition>();
        query.iter(&self.world).map(|g| f64::from(g.0[1])).sum()
    }
}
