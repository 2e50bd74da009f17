//! Model-based property test of `ChildOf` / `Children`: random re-parents,
//! removals, spawns and despawns, through the world's methods and through
//! commands, against a map of each entity's parent. After every step each
//! `ChildOf` must match the model, and each parent's `Children` must list
//! exactly its children, once each; refused steps must change nothing.
//!
//! `ECS_RELATIONSHIP_CASES` sets the number of generated cases (default 200).

use std::collections::{BTreeMap, BTreeSet};

use ecs_core::prelude::*;
use proptest::collection::vec;
use proptest::prelude::*;

#[derive(Clone, Debug)]
enum Step {
    /// Spawns an entity, under the entity picked if any.
    Spawn(Option<u8>),
    /// Gives the first pick the second as parent.
    SetParent(u8, u8, bool),
    /// Takes the pick's parent away.
    RemoveParent(u8, bool),
    /// Despawns the pick (and, linked, its subtree).
    Despawn(u8, bool),
    /// Sorts the pick's children by index, which must change nothing but
    /// their order.
    Sort(u8),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => proptest::option::of(any::<u8>()).prop_map(Step::Spawn),
        4 => (any::<u8>(), any::<u8>(), any::<bool>()).prop_map(|(c, p, q)| Step::SetParent(c, p, q)),
        1 => (any::<u8>(), any::<bool>()).prop_map(|(c, q)| Step::RemoveParent(c, q)),
        2 => (any::<u8>(), any::<bool>()).prop_map(|(c, q)| Step::Despawn(c, q)),
        1 => any::<u8>().prop_map(Step::Sort),
    ]
}

#[derive(Default)]
struct Model {
    /// Every entity ever spawned, dead ones too, so steps pick stale ids.
    ever: Vec<Entity>,
    alive: BTreeSet<Entity>,
    parent: BTreeMap<Entity, Entity>,
}

impl Model {
    fn pick(&self, n: u8) -> Option<Entity> {
        (!self.ever.is_empty()).then(|| self.ever[n as usize % self.ever.len()])
    }

    fn reaches(&self, from: Entity, to: Entity) -> bool {
        let mut at = from;
        loop {
            if at == to {
                return true;
            }
            match self.parent.get(&at) {
                Some(&up) => at = up,
                None => return false,
            }
        }
    }

    fn subtree(&self, root: Entity) -> Vec<Entity> {
        self.alive
            .iter()
            .copied()
            .filter(|&e| self.reaches(e, root))
            .collect()
    }

    /// What inserting `ChildOf(parent)` on `child` does: `Ok` when it applies.
    fn set_parent(&mut self, child: Entity, parent: Entity) -> Result<(), &'static str> {
        if !self.alive.contains(&child) || !self.alive.contains(&parent) {
            return Err("dead");
        }
        if self.reaches(parent, child) {
            return Err("cycle");
        }
        self.parent.insert(child, parent);
        Ok(())
    }

    fn despawn(&mut self, e: Entity) -> Result<(), &'static str> {
        if !self.alive.contains(&e) {
            return Err("dead");
        }
        for gone in self.subtree(e) {
            self.alive.remove(&gone);
            self.parent.remove(&gone);
        }
        Ok(())
    }
}

fn check(world: &World, model: &Model) {
    assert_eq!(world.len(), model.alive.len());
    let mut children: BTreeMap<Entity, BTreeSet<Entity>> = BTreeMap::new();
    for (&child, &parent) in &model.parent {
        children.entry(parent).or_default().insert(child);
    }
    for &e in &model.alive {
        assert_eq!(
            world.get::<ChildOf>(e).ok().map(ChildOf::parent),
            model.parent.get(&e).copied(),
            "the parent of {e:?}"
        );
        match (world.get::<Children>(e).ok(), children.get(&e)) {
            (None, None) => {}
            (Some(listed), Some(expected)) => {
                let set: BTreeSet<Entity> = listed.iter().copied().collect();
                assert_eq!(set.len(), listed.len(), "{e:?} lists a child twice");
                assert_eq!(&set, expected, "the children of {e:?}");
            }
            (listed, expected) => panic!("{e:?}: Children {listed:?}, expected {expected:?}"),
        }
    }
    for &e in &model.ever {
        assert_eq!(world.is_alive(e), model.alive.contains(&e), "{e:?}");
    }
}

fn run(steps: &[Step]) {
    let mut world = World::new();
    let mut model = Model::default();
    for step in steps {
        match *step {
            Step::Spawn(parent) => {
                let parent = parent
                    .and_then(|p| model.pick(p))
                    .filter(|p| model.alive.contains(p));
                let e = match parent {
                    Some(p) => world.spawn(ChildOf(p)),
                    None => world.spawn(()),
                };
                model.ever.push(e);
                model.alive.insert(e);
                if let Some(p) = parent {
                    model.parent.insert(e, p);
                }
            }
            Step::SetParent(c, p, by_command) => {
                let (Some(child), Some(parent)) = (model.pick(c), model.pick(p)) else {
                    continue;
                };
                let expected = model.set_parent(child, parent);
                let got = if by_command {
                    world.commands().entity(child).insert(ChildOf(parent));
                    world.flush().into_iter().next().map_or(Ok(()), Err)
                } else {
                    world.insert(child, ChildOf(parent)).map(drop)
                };
                match (expected, got) {
                    (Ok(()), Ok(())) => {}
                    (Err("cycle"), Err(Error::RelationshipCycle { entity, target, .. })) => {
                        assert_eq!((entity, target), (child, parent));
                    }
                    (Err("dead"), Err(Error::Despawned { .. })) => {}
                    (expected, got) => panic!("{step:?}: expected {expected:?}, got {got:?}"),
                }
            }
            Step::RemoveParent(c, by_command) => {
                let Some(child) = model.pick(c) else { continue };
                let expected = model.parent.remove(&child);
                let got = if by_command {
                    world.commands().entity(child).remove::<ChildOf>();
                    world.flush().is_empty()
                } else {
                    world.remove::<ChildOf>(child).is_ok()
                };
                assert_eq!(got, expected.is_some(), "{step:?}");
            }
            Step::Despawn(e, by_command) => {
                let Some(e) = model.pick(e) else { continue };
                let expected = model.despawn(e);
                let got = if by_command {
                    world.commands().despawn(e);
                    world.flush().is_empty()
                } else {
                    world.despawn(e).is_ok()
                };
                assert_eq!(got, expected.is_ok(), "{step:?}");
            }
            Step::Sort(e) => {
                let Some(e) = model.pick(e) else { continue };
                if let Ok(children) = world.get_mut::<Children>(e) {
                    children.sort_by_key(|c| core::cmp::Reverse(c.index()));
                }
            }
        }
        check(&world, &model);
    }
    assert!(world.take_observer_errors().is_empty());
}

fn cases() -> u32 {
    std::env::var("ECS_RELATIONSHIP_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(200)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn child_of_and_children_agree_after_every_step(steps in vec(step(), 1..80)) {
        run(&steps);
    }
}
