//! Model-based property test of `ChildOf` / `Children`: random re-parents,
//! removals, spawns and despawns, through the world's methods and through
//! commands, against a map of each entity's parent. After every step each
//! `ChildOf` must match the model, and each parent's `Children` must list
//! exactly its children, once each; refused steps must change nothing.
//!
//! Two steps carry faults: a recursive clone whose observer, when the
//! `k`-th copy arrives, re-parents, detaches or despawns an entity, or
//! panics (the copy is whole, or on an error or panic none of it stays);
//! and, with `serde`, a load of the world's own snapshot into it, whole or
//! edited so that its hierarchy loops (refused, nothing changes).
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
    /// `clone_entity_recursive` of the pick, meddled with as its `k`-th
    /// copy arrives.
    Clone(u8, u8, Meddle),
    /// `load_snapshot` of the world's own snapshot into it, edited (when
    /// the picks allow) so that the first pick points at the second, one
    /// of its descendants or itself.
    Load(Option<(u8, u8)>),
}

/// What an observer of a recursive clone's copies does when the `k`-th
/// copy arrives.
#[derive(Clone, Copy, Debug)]
enum Meddle {
    Nothing,
    /// Gives the first pick the second as parent, through commands.
    Reparent(u8, u8),
    /// Takes the pick's parent away, through commands.
    Unparent(u8),
    /// Despawns the pick (and its subtree), through commands.
    Despawn(u8),
    /// Panics.
    Panic,
}

fn meddle() -> impl Strategy<Value = Meddle> {
    prop_oneof![
        1 => Just(Meddle::Nothing),
        3 => (any::<u8>(), any::<u8>()).prop_map(|(c, p)| Meddle::Reparent(c, p)),
        1 => any::<u8>().prop_map(Meddle::Unparent),
        2 => any::<u8>().prop_map(Meddle::Despawn),
        1 => Just(Meddle::Panic),
    ]
}

/// Every entity carries one, so a clone's observer hears each copy arrive.
#[derive(Component, Clone, Debug, serde::Serialize, serde::Deserialize)]
struct Tag;

/// The meddling armed for the clone under way: the arrivals left before it
/// strikes, and what it does then (entities already picked).
#[derive(Default)]
struct Armed(Option<(usize, Action)>);

#[derive(Clone, Copy, Debug)]
enum Action {
    Reparent(Entity, Entity),
    Unparent(Entity),
    Despawn(Entity),
    Panic,
}

fn meddler(_: OnAdd<Tag>, mut armed: ResMut<Armed>, mut commands: Commands) {
    let Some((left, action)) = armed.0.as_mut() else {
        return;
    };
    if *left > 0 {
        *left -= 1;
        return;
    }
    let action = *action;
    armed.0 = None;
    match action {
        Action::Reparent(child, parent) => {
            commands.entity(child).insert(ChildOf(parent));
        }
        Action::Unparent(child) => {
            commands.entity(child).remove::<ChildOf>();
        }
        Action::Despawn(e) => {
            commands.despawn(e);
        }
        Action::Panic => panic!("the meddling observer panics"),
    }
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        3 => proptest::option::of(any::<u8>()).prop_map(Step::Spawn),
        4 => (any::<u8>(), any::<u8>(), any::<bool>()).prop_map(|(c, p, q)| Step::SetParent(c, p, q)),
        1 => (any::<u8>(), any::<bool>()).prop_map(|(c, q)| Step::RemoveParent(c, q)),
        2 => (any::<u8>(), any::<bool>()).prop_map(|(c, q)| Step::Despawn(c, q)),
        1 => any::<u8>().prop_map(Step::Sort),
        3 => (any::<u8>(), any::<u8>(), meddle()).prop_map(|(e, k, m)| Step::Clone(e, k, m)),
        1 => proptest::option::of((any::<u8>(), any::<u8>())).prop_map(Step::Load),
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

    /// Adds a new live entity under `parent`.
    fn add(&mut self, e: Entity, parent: Option<Entity>) {
        self.ever.push(e);
        self.alive.insert(e);
        if let Some(p) = parent {
            self.parent.insert(e, p);
        }
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

/// What `clone_entity_recursive(root)` must do, given the tree as the
/// call finds it (`tree`: pre-order, each with its parent's position) and
/// the meddling: copies made one by one, each first under its original's
/// parent of the moment, the meddling after the `k`-th, then each moved
/// under its parent's copy. Returns whether the clone succeeds (`Err` when
/// it panics) and whether the meddling's command was refused; the model
/// ends as the world must.
fn clone_in_model(
    model: &mut Model,
    tree: &[(Entity, usize)],
    copies: &[Entity],
    mut meddle: Option<(usize, Action)>,
) -> (Result<bool, ()>, bool) {
    let mut made = Vec::new();
    let mut failed = false;
    let mut panicked = false;
    let mut refused = false;
    for (at, &(original, parent_at)) in tree.iter().enumerate() {
        if !model.alive.contains(&original) {
            failed = true;
            break;
        }
        let copy = copies[at];
        let parent = model.parent.get(&original).copied();
        model.add(copy, parent);
        made.push(copy);
        if let Some((k, action)) = meddle
            && k == at
        {
            meddle = None;
            match action {
                Action::Reparent(child, parent) => {
                    refused = model.set_parent(child, parent).is_err();
                }
                Action::Unparent(child) => {
                    refused = model.parent.remove(&child).is_none();
                }
                Action::Despawn(e) => {
                    refused = model.despawn(e).is_err();
                }
                Action::Panic => {
                    panicked = true;
                    break;
                }
            }
        }
        if at > 0 && model.set_parent(copy, made[parent_at]).is_err() {
            failed = true;
            break;
        }
    }
    if failed || panicked {
        for &copy in made.iter().rev() {
            let _ = model.despawn(copy);
        }
    }
    let outcome = if panicked { Err(()) } else { Ok(!failed) };
    (outcome, refused)
}

/// The subtree under `root` as the world lists it: pre-order, siblings in
/// `Children` order, each with its parent's position.
fn tree_of(world: &World, root: Entity) -> Vec<(Entity, usize)> {
    let mut tree = vec![(root, 0)];
    let mut stack = vec![0];
    while let Some(at) = stack.pop() {
        let Ok(children) = world.get::<Children>(tree[at].0) else {
            continue;
        };
        let first = tree.len();
        tree.extend(children.iter().map(|&c| (c, at)));
        stack.extend((first..tree.len()).rev());
    }
    // Depth first: visit in the order the stack pops, keeping parents' new
    // positions.
    let mut order = Vec::with_capacity(tree.len());
    let mut place = vec![0; tree.len()];
    let mut stack = vec![0];
    let mut kids: Vec<Vec<usize>> = vec![Vec::new(); tree.len()];
    for (i, &(_, p)) in tree.iter().enumerate().skip(1) {
        kids[p].push(i);
    }
    while let Some(i) = stack.pop() {
        place[i] = order.len();
        order.push((tree[i].0, if i == 0 { 0 } else { place[tree[i].1] }));
        stack.extend(kids[i].iter().rev());
    }
    order
}

fn run(steps: &[Step]) {
    let mut world = World::new();
    world.init_resource::<Armed>();
    world.observe(meddler);
    let mut model = Model::default();
    for step in steps {
        match *step {
            Step::Spawn(parent) => {
                let parent = parent
                    .and_then(|p| model.pick(p))
                    .filter(|p| model.alive.contains(p));
                let e = match parent {
                    Some(p) => world.spawn((Tag, ChildOf(p))),
                    None => world.spawn(Tag),
                };
                model.add(e, parent);
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
            Step::Clone(e, k, meddle) => {
                let Some(root) = model.pick(e) else { continue };
                if !model.alive.contains(&root) {
                    assert!(world.clone_entity_recursive(root).is_err());
                    continue;
                }
                let tree = tree_of(&world, root);
                let pick = |n| model.pick(n).unwrap();
                let action = match meddle {
                    Meddle::Nothing => None,
                    Meddle::Reparent(c, p) => Some(Action::Reparent(pick(c), pick(p))),
                    Meddle::Unparent(c) => Some(Action::Unparent(pick(c))),
                    Meddle::Despawn(d) => Some(Action::Despawn(pick(d))),
                    Meddle::Panic => Some(Action::Panic),
                };
                let armed = action.map(|a| (k as usize % tree.len(), a));
                world.resource_mut::<Armed>().unwrap().0 = armed;
                // The copies take the ids the allocator hands out next:
                // learn them by running the clone, then model it.
                let got = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    world.clone_entity_recursive(root)
                }));
                world.resource_mut::<Armed>().unwrap().0 = None;
                let copies: Vec<Entity> = match &got {
                    Ok(Ok(report)) => report.clones().iter().map(|&(_, c)| c).collect(),
                    _ => Vec::new(),
                };
                let errors = world.take_observer_errors();
                if let Ok(Ok(report)) = &got {
                    let originals: Vec<Entity> = report.clones().iter().map(|&(o, _)| o).collect();
                    let want: Vec<Entity> = tree.iter().map(|&(o, _)| o).collect();
                    assert_eq!(originals, want, "the tree as the call found it");
                    let (expected, refused) = clone_in_model(&mut model, &tree, &copies, armed);
                    assert_eq!(expected, Ok(true), "{step:?}");
                    assert_eq!(!errors.is_empty(), refused, "{step:?}: {errors:?}");
                } else {
                    // Nothing of the clone stays: the world is the model's
                    // with the meddling applied and no copy. Model it on
                    // ids nobody holds, then drop them.
                    let spare: Vec<Entity> = (0..tree.len())
                        .map(|i| Entity::from_bits(u64::MAX - i as u64).unwrap())
                        .collect();
                    let (expected, refused) = clone_in_model(&mut model, &tree, &spare, armed);
                    assert_eq!(!errors.is_empty(), refused, "{step:?}: {errors:?}");
                    match (&got, expected) {
                        (Err(_), Err(())) | (Ok(Err(_)), Ok(false)) => {}
                        (got, expected) => panic!("{step:?}: got {got:?}, expected {expected:?}"),
                    }
                    model.ever.retain(|e| !spare.contains(e));
                }
            }
            Step::Load(edit) => load(&mut world, &mut model, edit),
        }
        check(&world, &model);
    }
    assert!(world.take_observer_errors().is_empty());
}

/// [`Step::Load`]: the world's own snapshot loaded into it, as a level
/// would be. A loop edited in is refused and changes nothing; otherwise
/// every entity arrives again under a new id, its parent's new id.
#[cfg(feature = "serde")]
fn load(world: &mut World, model: &mut Model, edit: Option<(u8, u8)>) {
    let mut registry = PersistRegistry::new();
    registry.register::<Tag>("Tag").snapshot();
    registry
        .register_relationship::<ChildOf>("ChildOf", "Children")
        .snapshot();
    let mut json = serde_json::to_value(registry.snapshot(world)).unwrap();
    // The edit: a live entity that has a parent points at itself or one of
    // its descendants instead, which closes a loop.
    let looped = edit.and_then(|(from, to)| {
        let from = model.pick(from).filter(|e| model.parent.contains_key(e))?;
        let below: Vec<Entity> = std::iter::once(from)
            .chain(model.subtree(from).into_iter().filter(|&e| e != from))
            .collect();
        let to = below[to as usize % below.len()];
        let columns = json["components"].as_array_mut().unwrap();
        let column = columns.iter_mut().find(|c| c["name"] == "ChildOf")?;
        let at = column["entities"]
            .as_array()?
            .iter()
            .position(|bits| bits.as_u64() == Some(from.to_bits()))?;
        column["values"][at] = to.to_bits().into();
        Some(())
    });
    let text = json.to_string();
    let got = registry.load_snapshot(world, &mut serde_json::Deserializer::from_str(&text));
    match (looped, got) {
        (Some(()), Err(Error::RelationshipCycle { .. })) => {}
        (None, Ok(map)) => {
            let alive: Vec<Entity> = model.alive.iter().copied().collect();
            for e in &alive {
                let parent = model.parent.get(e).map(|p| map.get(*p).unwrap());
                model.add(map.get(*e).unwrap(), parent);
            }
        }
        (looped, got) => panic!("edited {looped:?}: got {got:?}"),
    }
}

#[cfg(not(feature = "serde"))]
fn load(_: &mut World, _: &mut Model, _: Option<(u8, u8)>) {}

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
