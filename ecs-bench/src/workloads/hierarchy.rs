//! The scene graph: `ChildOf` / `Children` under three loads.
//!
//! - despawn_child: one parent with 1,000,000 children; despawn one child
//!   and spawn a new one in its place. Beside it, the same for an entity
//!   with no parent in a world as large: the cost the relationship adds.
//! - spawn_children: 1,000 parents, 100 children each, spawned into an
//!   empty world (the world is cleared, untimed, before each run).
//! - propagate: a tree of 111,111 nodes (a root, 10 children per node, 6
//!   levels); each node's world position is its parent's plus its offset,
//!   written parents first, walking `Children` with an explicit stack: the
//!   same code shape in every library.

use ecs_core::prelude::*;

use crate::components::{GlobalPosition, LocalOffset};
use crate::harness::{Bench, Contender, Workload};

/// Children of despawn_child's one parent.
pub const SIBLINGS: usize = 1_000_000;
/// Parents in spawn_children.
pub const PARENTS: usize = 1_000;
/// Children per parent in spawn_children.
pub const CHILDREN_PER_PARENT: usize = 100;
/// Children per node in propagate's tree.
pub const FAN_OUT: usize = 10;
/// Levels below the root in propagate's tree.
pub const LEVELS: u32 = 5;

/// despawn_child.
pub fn despawn_child() -> Workload {
    Workload {
        name: "despawn_child",
        summary: "one child of a parent with 1,000,000 children despawned and a new one spawned",
        items: None,
        contenders: || {
            let list = vec![
                Contender::of::<IdealChild>(
                    "ideal",
                    "Vec of children, each child's slot kept: swap_remove + push",
                ),
                Contender::of::<OursChild>("ours", "despawn + spawn(ChildOf(parent))"),
                Contender::of::<OursLone>("ours_no_parent", "despawn + spawn, no relationship"),
            ];
            #[cfg(feature = "peers")]
            let list = [list, peers::despawn_child()].concat();
            list
        },
    }
}

/// spawn_children.
pub fn spawn_children() -> Workload {
    Workload {
        name: "spawn_children",
        summary: "100,000 children spawned under 1,000 parents",
        items: None,
        contenders: || {
            let list = vec![
                Contender::of::<IdealSpawn>("ideal", "Vec of (parent, offset) per child"),
                Contender::of::<OursSpawn>("ours", "spawn parent + spawn_batch(ChildOf(parent))"),
            ];
            #[cfg(feature = "peers")]
            let list = [list, peers::spawn_children()].concat();
            list
        },
    }
}

/// propagate.
pub fn propagate() -> Workload {
    Workload {
        name: "propagate",
        summary: "world positions of a 111,111-node tree (depth 6) written down from the root",
        items: None,
        contenders: || {
            let list = vec![
                Contender::of::<IdealPropagate>("ideal", "arrays in parent-first order: one pass"),
                Contender::of::<OursPropagate>(
                    "ours",
                    "stack walk: get::<Children>, get::<LocalOffset>, get_mut::<GlobalPosition>",
                ),
            ];
            #[cfg(feature = "peers")]
            let list = [list, peers::propagate()].concat();
            list
        },
    }
}

/// The offset of the `i`-th node.
fn offset(i: usize) -> LocalOffset {
    LocalOffset([i as f32 * 0.5, 1.0, -(i as f32)])
}

/// The nodes of propagate's tree, each with its parent's number (the root
/// has none), parents before children.
fn tree() -> Vec<Option<usize>> {
    let mut parents = vec![None];
    let mut level = 0..1;
    for _ in 0..LEVELS {
        let start = parents.len();
        for parent in level.clone() {
            parents.extend(core::iter::repeat_n(Some(parent), FAN_OUT));
        }
        level = start..parents.len();
    }
    parents
}

/// The hardware's limit for despawn_child: the parent's list and each
/// child's slot in it, in plain `Vec`s.
struct IdealChild {
    children: Vec<u32>,
    slot: Vec<u32>,
    victim: u32,
    next: u32,
}

impl Bench for IdealChild {
    fn setup() -> Self {
        Self {
            children: (0..SIBLINGS as u32).collect(),
            slot: (0..SIBLINGS as u32).collect(),
            victim: (SIBLINGS / 2) as u32,
            next: SIBLINGS as u32,
        }
    }

    fn run(&mut self) {
        let at = self.slot[self.victim as usize] as usize;
        self.children.swap_remove(at);
        if let Some(&moved) = self.children.get(at) {
            self.slot[moved as usize] = at as u32;
        }
        let child = self.next;
        self.next += 1;
        self.slot.push(self.children.len() as u32);
        self.children.push(child);
        self.victim = child;
    }

    fn checksum(&mut self) -> f64 {
        self.children.len() as f64
    }
}

/// The hardware's limit for spawn_children: each child's parent and offset.
struct IdealSpawn {
    children: Vec<(u32, LocalOffset)>,
}

impl Bench for IdealSpawn {
    fn setup() -> Self {
        Self {
            children: Vec::new(),
        }
    }

    const PREPARES: bool = true;

    fn prepare(&mut self) {
        self.children.clear();
    }

    fn run(&mut self) {
        for parent in 0..PARENTS as u32 {
            self.children
                .extend((0..CHILDREN_PER_PARENT).map(|i| (parent, offset(i))));
        }
    }

    fn checksum(&mut self) -> f64 {
        self.children.len() as f64
    }
}

/// The hardware's limit for propagate: parents, offsets and positions in
/// arrays, parents first, so one pass writes every position.
struct IdealPropagate {
    parents: Vec<Option<usize>>,
    offsets: Vec<LocalOffset>,
    globals: Vec<[f32; 3]>,
}

impl Bench for IdealPropagate {
    fn setup() -> Self {
        let parents = tree();
        let offsets = (0..parents.len()).map(offset).collect();
        let globals = vec![[0.0; 3]; parents.len()];
        Self {
            parents,
            offsets,
            globals,
        }
    }

    fn run(&mut self) {
        for i in 0..self.parents.len() {
            let local = self.offsets[i].0;
            let base = self.parents[i].map_or([0.0; 3], |p| self.globals[p]);
            self.globals[i] = [base[0] + local[0], base[1] + local[1], base[2] + local[2]];
        }
    }

    fn checksum(&mut self) -> f64 {
        self.globals.iter().map(|g| f64::from(g[1])).sum()
    }
}

/// Ours, despawn_child without a relationship.
struct OursLone {
    world: World,
    victim: Entity,
}

impl Bench for OursLone {
    fn setup() -> Self {
        let mut world = World::new();
        let ids = world.spawn_batch((0..SIBLINGS).map(offset));
        Self {
            world,
            victim: ids[SIBLINGS / 2],
        }
    }

    fn run(&mut self) {
        self.world.despawn(self.victim).expect("alive");
        self.victim = self.world.spawn(offset(0));
    }

    fn checksum(&mut self) -> f64 {
        self.world.len() as f64
    }
}

/// Ours, despawn_child.
struct OursChild {
    world: World,
    parent: Entity,
    victim: Entity,
}

impl Bench for OursChild {
    fn setup() -> Self {
        let mut world = World::new();
        let parent = world.spawn(());
        let ids = world.spawn_batch((0..SIBLINGS).map(|i| (offset(i), ChildOf(parent))));
        Self {
            world,
            parent,
            victim: ids[SIBLINGS / 2],
        }
    }

    fn run(&mut self) {
        self.world.despawn(self.victim).expect("alive");
        self.victim = self.world.spawn((offset(0), ChildOf(self.parent)));
    }

    fn checksum(&mut self) -> f64 {
        self.world
            .get::<Children>(self.parent)
            .map_or(0, |c| c.len()) as f64
    }
}

/// Ours, spawn_children.
struct OursSpawn {
    world: World,
}

impl Bench for OursSpawn {
    fn setup() -> Self {
        Self {
            world: World::new(),
        }
    }

    const PREPARES: bool = true;

    fn prepare(&mut self) {
        self.world.clear();
    }

    fn run(&mut self) {
        for _ in 0..PARENTS {
            let parent = self.world.spawn(());
            self.world
                .spawn_batch((0..CHILDREN_PER_PARENT).map(|i| (offset(i), ChildOf(parent))));
        }
    }

    fn checksum(&mut self) -> f64 {
        self.world.query::<&ChildOf>().iter().count() as f64
    }
}

/// Ours, propagate.
struct OursPropagate {
    world: World,
    root: Entity,
    stack: Vec<(Entity, [f32; 3])>,
}

impl Bench for OursPropagate {
    fn setup() -> Self {
        let mut world = World::new();
        let mut ids: Vec<Entity> = Vec::new();
        for (i, parent) in tree().into_iter().enumerate() {
            let node = (offset(i), GlobalPosition([0.0; 3]));
            let id = match parent {
                Some(p) => world.spawn((node, ChildOf(ids[p]))),
                None => world.spawn(node),
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
            if let Ok(children) = world.get::<Children>(node) {
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
        self.world
            .query::<&GlobalPosition>()
            .iter()
            .map(|g| f64::from(g.0[1]))
            .sum()
    }
}

#[cfg(feature = "peers")]
mod peers;
