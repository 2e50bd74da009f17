//! Model-based property test of `PersistRegistry`.
//!
//! Random operations run on a world and on a plain reference model (slots
//! with versions, a LIFO free list, one record per live entity). At random
//! points the world is saved and the model cloned; at others a saved state is
//! restored, and the model becomes its clone, except that entities alive in
//! both keep their unregistered components. After every operation every
//! slot's version and liveness, every value and every type's holder count are
//! compared, each spawn's id is the model's prediction (which checks the free
//! list's order), the drop ledger shows no leak and no double drop, and
//! after a restore the world's checksum is the saved state's.
//!
//! Registered: `Pos` and `Count` (`Copy`, so saved as slices), `Name` (owns
//! a `String`), `Tag` (zero-sized). Unregistered: `Tracked` (counted by the
//! ledger) and `Mark`. Half the cases declare a group over `(Pos, Count)`.
//!
//! `ECS_ROLLBACK_CASES` sets the number of generated cases (default 128).

use std::collections::BTreeMap;
use std::hash::Hash;

use ecs_core::prelude::*;
use ecs_testkit::ent;
use ecs_testkit::strategy::cases_from_env;
use ecs_testkit::{Count, Mark, Name, Pos, Tag, Tracked};
use proptest::collection::vec;
use proptest::prelude::*;

const SAVE_SLOTS: usize = 3;

#[derive(Clone, Debug, Default, PartialEq)]
struct Record {
    pos: Option<Pos>,
    name: Option<String>,
    count: Option<u64>,
    tag: bool,
    tracked: Option<u32>,
    mark: bool,
}

#[derive(Clone, Debug, Default)]
struct Model {
    /// `(version, alive)` per slot ever used.
    slots: Vec<(u32, bool)>,
    /// LIFO: the last entry is reused first.
    free: Vec<u32>,
    live: BTreeMap<Entity, Record>,
}

impl Model {
    fn alloc(&mut self) -> Entity {
        if let Some(index) = self.free.pop() {
            let slot = &mut self.slots[index as usize];
            slot.0 += 1;
            slot.1 = true;
            return ent(index, slot.0);
        }
        self.slots.push((1, true));
        ent(self.slots.len() as u32 - 1, 1)
    }

    fn despawn(&mut self, entity: Entity) {
        self.live.remove(&entity).expect("a live entity");
        self.slots[entity.index() as usize].1 = false;
        self.free.push(entity.index());
    }

    fn clear(&mut self) {
        for (index, slot) in self.slots.iter_mut().enumerate() {
            if slot.1 {
                slot.1 = false;
                self.free.push(index as u32);
            }
        }
        self.live.clear();
    }

    fn pick(&self, pick: usize) -> Option<Entity> {
        let len = self.live.len();
        (len > 0).then(|| *self.live.keys().nth(pick % len).unwrap())
    }

    /// What a restore of `saved` must leave, seen from this model: the
    /// saved model, with the unregistered components of the entities alive
    /// in both.
    fn restored(&self, saved: &Model) -> Model {
        let mut expected = saved.clone();
        for (entity, record) in &mut expected.live {
            let now = self.live.get(entity);
            record.tracked = now.and_then(|r| r.tracked);
            record.mark = now.is_some_and(|r| r.mark);
        }
        expected
    }
}

#[derive(Clone, Debug)]
enum Op {
    Spawn {
        pos: Option<i32>,
        name: Option<u8>,
        count: Option<u64>,
        tag: bool,
        tracked: Option<u32>,
        mark: bool,
    },
    SpawnBatch(u8, i32),
    Despawn(usize),
    Insert(usize, u8, u8),
    Remove(usize, u8),
    Clear,
    Save(usize),
    Restore(usize),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (
            proptest::option::of(any::<i32>()),
            proptest::option::of(any::<u8>()),
            proptest::option::of(any::<u64>()),
            any::<bool>(),
            proptest::option::of(any::<u32>()),
            any::<bool>(),
        )
            .prop_map(|(pos, name, count, tag, tracked, mark)| Op::Spawn {
                pos,
                name,
                count,
                tag,
                tracked,
                mark
            }),
        1 => (0..40_u8, any::<i32>()).prop_map(|(n, seed)| Op::SpawnBatch(n, seed)),
        3 => any::<usize>().prop_map(Op::Despawn),
        4 => (any::<usize>(), 0..6_u8, any::<u8>()).prop_map(|(p, w, s)| Op::Insert(p, w, s)),
        3 => (any::<usize>(), 0..6_u8).prop_map(|(p, w)| Op::Remove(p, w)),
        1 => Just(Op::Clear),
        2 => (0..SAVE_SLOTS).prop_map(Op::Save),
        2 => (0..SAVE_SLOTS).prop_map(Op::Restore),
    ]
}

struct Run {
    world: World,
    model: Model,
    rollback: PersistRegistry,
    saved: Vec<Option<(WorldState, Model)>>,
    tracked_base: usize,
}

fn hashed<T: Hash>(value: &T, hasher: &mut ecs_core::persist::ChecksumHasher) {
    value.hash(hasher);
}

impl Run {
    fn new(group: bool) -> Self {
        let mut world = World::new();
        if group {
            world.group::<(Pos, Count)>().unwrap();
        }
        let mut rollback = PersistRegistry::new();
        rollback
            .register::<Pos>("Pos")
            .rollback_with_checksum(|p, h| hashed(&(p.0, p.1), h));
        rollback
            .register::<Count>("Count")
            .rollback_with_checksum(|c, h| hashed(&c.0, h));
        rollback
            .register::<Name>("Name")
            .rollback_with_checksum(|n, h| hashed(&n.0, h));
        rollback.register::<Tag>("Tag").rollback();
        Run {
            world,
            model: Model::default(),
            rollback,
            saved: (0..SAVE_SLOTS).map(|_| None).collect(),
            tracked_base: Tracked::ledger().live(),
        }
    }

    fn apply(&mut self, op: &Op) {
        let world = &mut self.world;
        let model = &mut self.model;
        match *op {
            Op::Spawn {
                pos,
                name,
                count,
                tag,
                tracked,
                mark,
            } => {
                let e = world.spawn(());
                let record = Record {
                    pos: pos.map(|x| Pos(x, -x)),
                    name: name.map(|n| format!("n{n}")),
                    count,
                    tag,
                    tracked,
                    mark,
                };
                write(world, e, &record);
                let expected = model.alloc();
                assert_eq!(e, expected, "spawn takes the model's next id");
                model.live.insert(e, record);
            }
            Op::SpawnBatch(n, seed) => {
                let ids =
                    world.spawn_batch((0..i32::from(n)).map(|i| (Pos(seed, i), Count(i as u64))));
                for (i, e) in ids.into_iter().enumerate() {
                    assert_eq!(e, model.alloc(), "batch id {i}");
                    let record = Record {
                        pos: Some(Pos(seed, i as i32)),
                        count: Some(i as u64),
                        ..Record::default()
                    };
                    model.live.insert(e, record);
                }
            }
            Op::Despawn(pick) => {
                if let Some(e) = model.pick(pick) {
                    world.despawn(e).unwrap();
                    model.despawn(e);
                    assert!(world.despawn(e).is_err());
                }
            }
            Op::Insert(pick, which, seed) => {
                if let Some(e) = model.pick(pick) {
                    let record = model.live.get_mut(&e).unwrap();
                    match which {
                        0 => record.pos = Some(Pos(i32::from(seed), 1)),
                        1 => record.name = Some(format!("i{seed}")),
                        2 => record.count = Some(u64::from(seed) << 40),
                        3 => record.tag = true,
                        4 => record.tracked = Some(u32::from(seed)),
                        _ => record.mark = true,
                    }
                    let record = record.clone();
                    write(world, e, &record);
                }
            }
            Op::Remove(pick, which) => {
                if let Some(e) = model.pick(pick) {
                    let record = model.live.get_mut(&e).unwrap();
                    match which {
                        0 => drop(world.remove::<Pos>(e)),
                        1 => drop(world.remove::<Name>(e)),
                        2 => drop(world.remove::<Count>(e)),
                        3 => drop(world.remove::<Tag>(e)),
                        4 => drop(world.remove::<Tracked>(e)),
                        _ => drop(world.remove::<Mark>(e)),
                    }
                    match which {
                        0 => record.pos = None,
                        1 => record.name = None,
                        2 => record.count = None,
                        3 => record.tag = false,
                        4 => record.tracked = None,
                        _ => record.mark = false,
                    }
                }
            }
            Op::Clear => {
                world.clear();
                model.clear();
            }
            Op::Save(slot) => {
                let state = match self.saved[slot].take() {
                    // Half the saves go over an earlier state, reusing it.
                    Some((mut state, _)) if slot % 2 == 0 => {
                        self.rollback.save_into(world, &mut state);
                        state
                    }
                    _ => self.rollback.save(world),
                };
                assert_eq!(state.len(), model.live.len());
                assert_eq!(state.checksum(), self.rollback.checksum(world));
                self.saved[slot] = Some((state, model.clone()));
            }
            Op::Restore(slot) => {
                if let Some((state, saved)) = &self.saved[slot] {
                    self.rollback.restore(world, state).unwrap();
                    *model = model.restored(saved);
                    assert_eq!(self.rollback.checksum(world), state.checksum());
                }
            }
        }
    }

    fn check(&mut self) {
        let world = &mut self.world;
        let model = &self.model;
        assert_eq!(world.len(), model.live.len(), "live entities");
        for (index, &(version, alive)) in model.slots.iter().enumerate() {
            let index = index as u32;
            assert_eq!(
                world.is_alive(ent(index, version)),
                alive,
                "slot {index} version {version}"
            );
            assert!(!world.is_alive(ent(index, version + 1)), "slot {index}");
        }
        assert!(
            !world.is_alive(ent(model.slots.len() as u32, 1)),
            "no slot past the model's"
        );
        for (&e, record) in &model.live {
            assert_eq!(
                world.get::<Pos>(e).ok(),
                record.pos.as_ref(),
                "Pos of {e:?}"
            );
            assert_eq!(
                world.get::<Name>(e).ok().map(|n| n.0.as_str()),
                record.name.as_deref(),
                "Name of {e:?}"
            );
            assert_eq!(
                world.get::<Count>(e).ok().map(|c| c.0),
                record.count,
                "Count of {e:?}"
            );
            assert_eq!(world.contains::<Tag>(e), record.tag, "Tag of {e:?}");
            assert_eq!(
                world.get::<Tracked>(e).ok().map(Tracked::value),
                record.tracked,
                "Tracked of {e:?}"
            );
            assert_eq!(world.contains::<Mark>(e), record.mark, "Mark of {e:?}");
        }
        let count = |f: fn(&Record) -> bool| model.live.values().filter(|r| f(r)).count();
        assert_eq!(
            world.query::<&Pos>().iter().count(),
            count(|r| r.pos.is_some())
        );
        assert_eq!(
            world.query::<&Name>().iter().count(),
            count(|r| r.name.is_some())
        );
        assert_eq!(
            world.query::<&Count>().iter().count(),
            count(|r| r.count.is_some())
        );
        assert_eq!(world.query::<&Tag>().iter().count(), count(|r| r.tag));
        assert_eq!(world.query::<&Mark>().iter().count(), count(|r| r.mark));
        let both = count(|r| r.pos.is_some() && r.count.is_some());
        let joined = world.query::<(Entity, &Pos, &Count)>();
        let rows: Vec<(Entity, Pos, u64)> = joined.iter().map(|(e, p, c)| (e, *p, c.0)).collect();
        assert_eq!(rows.len(), both);
        for (e, p, c) in rows {
            let record = &model.live[&e];
            assert_eq!((Some(p), Some(c)), (record.pos, record.count), "{e:?}");
        }
        let ledger = Tracked::ledger();
        assert_eq!(
            ledger.live() - self.tracked_base,
            count(|r| r.tracked.is_some()),
            "live Tracked values"
        );
        ledger.assert_no_errors();
    }
}

/// Gives `e` exactly the components `record` names (adding or replacing).
fn write(world: &mut World, e: Entity, record: &Record) {
    if let Some(p) = record.pos {
        world.insert(e, p).unwrap();
    }
    if let Some(n) = &record.name {
        world.insert(e, Name(n.clone())).unwrap();
    }
    if let Some(c) = record.count {
        world.insert(e, Count(c)).unwrap();
    }
    if record.tag {
        world.insert(e, Tag).unwrap();
    }
    if let Some(t) = record.tracked {
        world.insert(e, Tracked::new(t)).unwrap();
    }
    if record.mark {
        world.insert(e, Mark).unwrap();
    }
}

proptest! {
    #![proptest_config(cases_from_env("ECS_ROLLBACK_CASES", 128))]

    /// Whatever ran since a save, restoring it gives exactly the saved
    /// world: every id, version, free slot and registered value, with the
    /// unregistered components of the survivors kept.
    #[test]
    fn restore_gives_back_exactly_the_saved_world(
        ops in vec(op(), 0..80),
        group in any::<bool>(),
    ) {
        let mut run = Run::new(group);
        for (step, op) in ops.iter().enumerate() {
            let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                run.apply(op);
                run.check();
            }));
            if let Err(payload) = result {
                eprintln!("step {step} of {} failed: {op:?}", ops.len());
                std::panic::resume_unwind(payload);
            }
        }
    }
}
