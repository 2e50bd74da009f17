//! Model test of change detection across a schedule.
//!
//! Four watcher systems read `Added<Hp>` and `Changed<Hp>`: one in
//! `PreUpdate`, one in `Update` after the writer, one in `PostUpdate`, and one
//! in `Last` made with `ignore_earlier_changes`. In `Update` a writer applies
//! a generated plan through the `Mut` items of `iter_mut` (plain writes,
//! `set_if_neq`, and looks that write nothing), and a reaper despawns, by
//! command, every entity whose `Hp` is 0. Between frames, generated
//! operations spawn, insert (new or replacing), remove, despawn, write and
//! look through `World::get_mut`.
//!
//! The reference model keeps, per watcher, one pair of flags per entity
//! (added, changed) that every event sets and the watcher's run clears: what
//! "since my last run" means, with no ticks at all. Each frame's reports
//! must equal what the model's replay of the frame predicts.
//!
//! `ECS_MODEL_CASES` sets the number of generated cases (default 256).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use ecs_core::prelude::*;
use ecs_testkit::strategy::cases_from_env;
use proptest::collection::vec;
use proptest::prelude::*;

#[derive(Component, Debug, Clone, Copy, PartialEq)]
#[component(track_changes)]
struct Hp(u8);

#[derive(Component, Debug)]
struct Bare;

/// How the writer touches one entity's `Hp`.
#[derive(Debug, Clone, Copy)]
enum Touch {
    Assign(u8),
    SetIfNeq(u8),
    Look,
}

#[derive(Debug, Clone)]
enum Op {
    Spawn(u8),
    SpawnBare,
    Insert(usize, u8),
    Remove(usize),
    Despawn(usize),
    WorldAssign(usize, u8),
    WorldSetIfNeq(usize, u8),
    WorldLook(usize),
    /// One frame, with the writer's plan: (which live entity, how).
    Frame(Vec<(usize, Touch)>),
}

fn touch() -> impl Strategy<Value = Touch> {
    prop_oneof![
        (0u8..4).prop_map(Touch::Assign),
        (0u8..4).prop_map(Touch::SetIfNeq),
        Just(Touch::Look),
    ]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0u8..4).prop_map(Op::Spawn),
        1 => Just(Op::SpawnBare),
        2 => (any::<usize>(), 0u8..4).prop_map(|(n, v)| Op::Insert(n, v)),
        1 => any::<usize>().prop_map(Op::Remove),
        1 => any::<usize>().prop_map(Op::Despawn),
        1 => (any::<usize>(), 0u8..4).prop_map(|(n, v)| Op::WorldAssign(n, v)),
        1 => (any::<usize>(), 0u8..4).prop_map(|(n, v)| Op::WorldSetIfNeq(n, v)),
        1 => any::<usize>().prop_map(Op::WorldLook),
        4 => vec((any::<usize>(), touch()), 0..6).prop_map(Op::Frame),
    ]
}

/// The writer's plan for this frame.
#[derive(Default)]
struct Plan(Vec<(Entity, Touch)>);

/// What one watcher run reported: (name, added, changed), sorted.
type Report = (&'static str, Vec<Entity>, Vec<Entity>);
type Reports = Arc<Mutex<Vec<Report>>>;

const WATCHERS: [&str; 4] = ["pre", "update", "post", "last"];

type AddedHp<'w> = Query<'w, Entity, Added<Hp>>;
type ChangedHp<'w> = Query<'w, Entity, Changed<Hp>>;

fn watcher(
    name: &'static str,
    reports: &Reports,
) -> impl FnMut(AddedHp, ChangedHp) + Send + 'static {
    let reports = Arc::clone(reports);
    move |added: AddedHp, changed: ChangedHp| {
        let mut a: Vec<Entity> = added.iter().collect();
        let mut c: Vec<Entity> = changed.iter().collect();
        a.sort();
        c.sort();
        reports.lock().unwrap().push((name, a, c));
    }
}

fn writer(mut q: Query<(Entity, &mut Hp)>, plan: Res<Plan>) {
    for (e, mut hp) in q.iter_mut() {
        for &(target, touch) in plan.0.iter().filter(|(t, _)| *t == e) {
            match touch {
                Touch::Assign(v) => hp.0 = v,
                Touch::SetIfNeq(v) => {
                    hp.set_if_neq(Hp(v));
                }
                Touch::Look => assert_eq!(target, e, "{}", hp.0),
            }
        }
    }
}

fn reaper(q: Query<(Entity, &Hp)>, mut commands: Commands) {
    for (e, hp) in q.iter() {
        if hp.0 == 0 {
            commands.despawn(e);
        }
    }
}

fn schedule(reports: &Reports) -> Schedule {
    let mut s = Schedule::new();
    s.add_system(Stage::PreUpdate, watcher("pre", reports).named("pre"))
        .unwrap();
    s.add_system(Stage::Update, writer).unwrap();
    s.add_system(Stage::Update, reaper.after("writer")).unwrap();
    s.add_system(
        Stage::Update,
        watcher("update", reports).named("update").after("writer"),
    )
    .unwrap();
    s.add_system(Stage::PostUpdate, watcher("post", reports).named("post"))
        .unwrap();
    s.add_system(
        Stage::Last,
        watcher("last", reports)
            .named("last")
            .ignore_earlier_changes(),
    )
    .unwrap();
    s
}

/// The reference: live entities, their `Hp`, and per watcher the flags of
/// what it has not seen yet.
#[derive(Default)]
struct Model {
    live: Vec<Entity>,
    hp: BTreeMap<Entity, u8>,
    pending: [BTreeMap<Entity, (bool, bool)>; 4],
    last_started: bool,
}

impl Model {
    fn nth(&self, n: usize) -> Option<Entity> {
        (!self.live.is_empty()).then(|| self.live[n % self.live.len()])
    }

    /// `e`'s `Hp` was added (and so changed) or written.
    fn mark(&mut self, e: Entity, added: bool) {
        for (w, pending) in self.pending.iter_mut().enumerate() {
            if w == 3 && !self.last_started {
                continue;
            }
            let flags = pending.entry(e).or_default();
            flags.0 |= added;
            flags.1 = true;
        }
    }

    /// `e`'s `Hp` is gone: nothing about it is pending any more.
    fn forget(&mut self, e: Entity) {
        for pending in &mut self.pending {
            pending.remove(&e);
        }
        self.hp.remove(&e);
    }

    fn set(&mut self, e: Entity, v: u8) {
        let added = self.hp.insert(e, v).is_none();
        self.mark(e, added);
    }

    fn consume(&mut self, w: usize) -> Report {
        let pending = std::mem::take(&mut self.pending[w]);
        let added = pending
            .iter()
            .filter(|(_, f)| f.0)
            .map(|(&e, _)| e)
            .collect();
        let changed = pending
            .iter()
            .filter(|(_, f)| f.1)
            .map(|(&e, _)| e)
            .collect();
        (WATCHERS[w], added, changed)
    }

    /// What one frame reports, updating the model as the frame runs.
    fn frame(&mut self, plan: &[(Entity, Touch)]) -> Vec<Report> {
        let mut reports = vec![self.consume(0)];
        for &(e, touch) in plan {
            let Some(&current) = self.hp.get(&e) else {
                continue;
            };
            match touch {
                Touch::Assign(v) => self.set(e, v),
                Touch::SetIfNeq(v) if v != current => self.set(e, v),
                Touch::SetIfNeq(_) | Touch::Look => {}
            }
        }
        let doomed: Vec<Entity> = self
            .hp
            .iter()
            .filter(|(_, v)| **v == 0)
            .map(|(&e, _)| e)
            .collect();
        reports.push(self.consume(1));
        for e in doomed {
            self.forget(e);
            self.live.retain(|&l| l != e);
        }
        reports.push(self.consume(2));
        if self.last_started {
            reports.push(self.consume(3));
        } else {
            self.last_started = true;
            self.pending[3].clear();
            reports.push(("last", Vec::new(), Vec::new()));
        }
        reports
    }
}

fn run(ops: &[Op]) {
    let reports = Reports::default();
    let mut world = World::new();
    world.insert_resource(Plan::default());
    let mut schedule = schedule(&reports);
    let mut model = Model::default();
    for op in ops {
        match op {
            Op::Spawn(v) => {
                let e = world.spawn(Hp(*v));
                model.live.push(e);
                model.set(e, *v);
            }
            Op::SpawnBare => model.live.push(world.spawn(Bare)),
            Op::Insert(n, v) => {
                let Some(e) = model.nth(*n) else { continue };
                world.insert(e, Hp(*v)).unwrap();
                model.set(e, *v);
            }
            Op::Remove(n) => {
                let Some(e) = model.nth(*n) else { continue };
                let removed = world.remove::<Hp>(e).ok().map(|h| h.0);
                assert_eq!(removed, model.hp.get(&e).copied());
                model.forget(e);
            }
            Op::Despawn(n) => {
                let Some(e) = model.nth(*n) else { continue };
                world.despawn(e).unwrap();
                model.forget(e);
                model.live.retain(|&l| l != e);
            }
            Op::WorldAssign(n, v) | Op::WorldSetIfNeq(n, v) => {
                let Some(e) = model.nth(*n) else { continue };
                let Some(&current) = model.hp.get(&e) else {
                    continue;
                };
                let mut hp = world.get_mut::<Hp>(e).unwrap();
                if matches!(op, Op::WorldAssign(..)) {
                    hp.0 = *v;
                    model.set(e, *v);
                } else if hp.set_if_neq(Hp(*v)) {
                    assert_ne!(current, *v);
                    model.set(e, *v);
                }
            }
            Op::WorldLook(n) => {
                let Some(e) = model.nth(*n) else { continue };
                if let Ok(hp) = world.get_mut::<Hp>(e) {
                    assert_eq!(Some(&hp.0), model.hp.get(&e));
                }
            }
            Op::Frame(plan) => {
                let plan: Vec<(Entity, Touch)> = plan
                    .iter()
                    .filter_map(|&(n, touch)| Some((model.nth(n)?, touch)))
                    .collect();
                let expected = model.frame(&plan);
                world.resource_mut::<Plan>().unwrap().0 = plan;
                schedule.run(&mut world).unwrap();
                let got = std::mem::take(&mut *reports.lock().unwrap());
                assert_eq!(got, expected);
            }
        }
        let values: BTreeMap<Entity, u8> = world
            .query::<(Entity, &Hp)>()
            .iter()
            .map(|(e, h)| (e, h.0))
            .collect();
        assert_eq!(values, model.hp);
    }
}

proptest! {
    #![proptest_config(cases_from_env("ECS_MODEL_CASES", 256))]

    /// Every watcher reports exactly the adds and changes since its own last
    /// run, whatever the sequence of writes and structural changes.
    #[test]
    fn every_system_sees_every_change_once(ops in vec(op(), 0..60)) {
        run(&ops);
    }
}

#[test]
fn a_fixed_sequence_through_every_kind_of_event() {
    use Op::*;
    use Touch::*;
    run(&[
        Spawn(3),
        Spawn(2),
        SpawnBare,
        Frame(vec![(0, SetIfNeq(3)), (1, Assign(2)), (0, Look)]),
        Insert(2, 1),
        WorldSetIfNeq(0, 3),
        WorldLook(1),
        Frame(vec![(1, Assign(0))]),
        Remove(0),
        Frame(vec![]),
        Insert(0, 2),
        WorldAssign(0, 2),
        Despawn(1),
        Frame(vec![(0, SetIfNeq(1))]),
        Frame(vec![]),
    ]);
}
