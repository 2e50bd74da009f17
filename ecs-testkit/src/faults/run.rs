//! The world side of a fault-injection run: a world with observers and a schedule, each
//! [`Step`] run on it with its fault armed and on the [`Shadow`], how the call ended compared
//! with how the model says it must end, and the whole state compared after every step.

use std::any::Any;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};

use ecs_core::prelude::*;

use super::op::{Aim, Cmd, Fault, FaultOp, Kind, LevelEntity, LinkTo, Step};
use super::shadow::{COMMAND_MESSAGE, Ends, Planned, READER_MESSAGE, SYSTEM_MESSAGE, Shadow};
use super::values::{
    Ash, Charge, Faults, Fragile, Fuse, GiveBatch, GiveBundle, Glow, Link, Made, Shape, Watcher,
    Wick, give_batch, keys,
};
use crate::component::{Key, Value};
use crate::ledger::{Ledger, panic_message};
use crate::model::{DeadIds, Model, ent};

/// A value of one component type, for `insert`.
#[derive(Debug)]
enum Piece {
    Fuse(Fuse),
    Wick(Wick),
}

impl Piece {
    fn new(kind: Kind, ledger: &Ledger, faults: &Faults) -> Self {
        let charge = Charge::new(ledger, faults);
        match kind {
            Kind::Fuse => Piece::Fuse(Fuse(charge)),
            Kind::Wick => Piece::Wick(Wick(charge)),
        }
    }

    fn id(&self) -> u64 {
        match self {
            Piece::Fuse(f) => f.0.id(),
            Piece::Wick(w) => w.0.id(),
        }
    }
}

fn key(kind: Kind) -> Key {
    match kind {
        Kind::Fuse => Key::of::<Fuse>(),
        Kind::Wick => Key::of::<Wick>(),
    }
}

/// The entity a recorded command names: known, or reserved earlier in the same buffer.
#[derive(Clone, Copy, Debug)]
enum Pick {
    Entity(Entity),
    Spawned(usize),
}

/// A command with its values, waiting to be recorded.
#[derive(Debug)]
enum Recorded {
    Spawn(Made),
    Insert(Pick, Piece),
    InsertBundle(Pick, Made),
    Remove(Pick, Kind),
    Despawn(Pick),
    Panic,
}

/// What the recording system (a frame's, or the one-shot) and the reading one read: the
/// commands to record, and their faults.
#[derive(Debug, Default)]
pub struct Script {
    commands: Vec<Recorded>,
    /// The recording system panics before recording the command at this position.
    panic_before: Option<usize>,
    /// The reading system panics.
    reader_panics: bool,
    /// The ids the recording system's spawns got, in order.
    spawned: Vec<Entity>,
}

struct SpawnIn<'a>(&'a mut World);

impl GiveBundle<Entity> for SpawnIn<'_> {
    fn give<B: Bundle + Send + 'static>(self, bundle: B) -> Entity {
        self.0.spawn(bundle)
    }
}

struct InsertIn<'a>(&'a mut World, Entity);

impl GiveBundle<Result<(), Error>> for InsertIn<'_> {
    fn give<B: Bundle + Send + 'static>(self, bundle: B) -> Result<(), Error> {
        self.0.insert_bundle(self.1, bundle)
    }
}

struct BatchIn<'a>(&'a mut World);

impl GiveBatch<Vec<Entity>> for BatchIn<'_> {
    fn give<B: Bundle + Send + 'static>(self, bundles: Vec<B>) -> Vec<Entity> {
        self.0.spawn_batch(bundles)
    }
}

struct CommandSpawn<'a, 'w>(&'a mut Commands<'w>);

impl GiveBundle<Entity> for CommandSpawn<'_, '_> {
    fn give<B: Bundle + Send + 'static>(self, bundle: B) -> Entity {
        self.0.spawn(bundle)
    }
}

struct CommandInsert<'a, 'w>(&'a mut Commands<'w>, Entity);

impl GiveBundle<()> for CommandInsert<'_, '_> {
    fn give<B: Bundle + Send + 'static>(self, bundle: B) {
        self.0.insert_bundle(self.1, bundle);
    }
}

/// Records `command` into `commands`; a spawn's id goes to `spawned`.
fn record(commands: &mut Commands, command: Recorded, spawned: &mut Vec<Entity>) {
    let pick = |p: Pick| match p {
        Pick::Entity(e) => e,
        Pick::Spawned(i) => spawned[i],
    };
    match command {
        Recorded::Spawn(made) => {
            let e = made.give(CommandSpawn(commands));
            spawned.push(e);
        }
        Recorded::Insert(p, Piece::Fuse(value)) => commands.insert(pick(p), value),
        Recorded::Insert(p, Piece::Wick(value)) => commands.insert(pick(p), value),
        Recorded::InsertBundle(p, made) => made.give(CommandInsert(commands, pick(p))),
        Recorded::Remove(p, Kind::Fuse) => commands.remove::<Fuse>(pick(p)),
        Recorded::Remove(p, Kind::Wick) => commands.remove::<Wick>(pick(p)),
        Recorded::Despawn(p) => commands.despawn(pick(p)),
        Recorded::Panic => commands.add(|_| panic!("{COMMAND_MESSAGE}")),
    }
}

/// Records the script's commands, or panics before the one it names.
fn scripted(mut commands: Commands, mut script: ResMut<Script>) {
    let recorded = std::mem::take(&mut script.commands);
    let len = recorded.len();
    let mut recorded = recorded.into_iter();
    let mut spawned = Vec::new();
    for at in 0..=len {
        if script.panic_before == Some(at) {
            script.spawned = spawned;
            panic!("{SYSTEM_MESSAGE}");
        }
        if let Some(command) = recorded.next() {
            record(&mut commands, command, &mut spawned);
        }
    }
    script.spawned = spawned;
}

/// Reads every `Fuse`, after the recording system; panics when the script says so.
fn inspect(fuses: Query<&Fuse>, script: Res<Script>) {
    let ids: BTreeSet<u64> = fuses.iter().map(|f| f.0.id()).collect();
    assert_eq!(ids.len(), fuses.iter().count(), "each value once");
    if script.reader_panics {
        panic!("{READER_MESSAGE}");
    }
}

/// A world with the three observers, the two systems and the one-shot system, its model, and
/// one run's ledger and switches.
pub struct FaultHarness {
    /// The world under test.
    pub world: World,
    /// What it must hold.
    pub shadow: Shadow,
    schedule: Schedule,
    /// `scripted`, registered with the world to run on demand.
    one_shot: SystemId,
    ledger: Ledger,
    faults: Faults,
    /// How many times each call ended in a panic, by the call and the panic's kind.
    struck: BTreeMap<String, usize>,
}

impl Default for FaultHarness {
    fn default() -> Self {
        Self::new()
    }
}

impl FaultHarness {
    /// An empty world (its five types registered in the order of [`keys`]), its observers:
    /// `OnInsert<Wick>` inserts a `Glow` naming the `Wick`, `OnRemove<Fuse>` spawns an `Ash`
    /// naming the `Fuse`, `OnAdd<Fuse>` does nothing; a schedule whose `Update` stage runs
    /// `scripted` (records the commands of a frame) and then `inspect` (reads); and `scripted`
    /// again, registered as a one-shot system.
    pub fn new() -> Self {
        let ledger = Ledger::default();
        let faults = Faults::default();
        let mut world = World::new();
        let mut model = Model::probing(keys());
        // Registers the types in the order of `keys()`, before observers and systems would
        // register them in theirs.
        let charge = || Charge::new(&ledger, &faults);
        let (f, w, l) = (charge(), charge(), charge());
        let writes = [f.id(), w.id(), l.id(), 0, 0].map(Value::U64);
        let e = world.spawn((
            Fuse(f),
            Wick(w),
            Link(Fragile {
                to: ent(0, 1),
                charge: l,
            }),
            Glow(0),
            Ash(0),
        ));
        assert_eq!(model.spawn(keys().into_iter().zip(writes)), e);
        world.despawn(e).expect("alive");
        model.despawn(e);

        let f = faults.clone();
        world.observe(
            move |t: OnInsert<Wick>, wicks: Query<&Wick>, mut commands: Commands| {
                let id = wicks.get(t.entity()).expect("the Wick inserted").0.id();
                commands.insert(t.entity(), Glow(id));
                f.observer_ran(Watcher::Glow);
            },
        );
        let f = faults.clone();
        world.observe(
            move |t: OnRemove<Fuse>, fuses: Query<&Fuse>, mut commands: Commands| {
                let id = fuses.get(t.entity()).expect("the Fuse leaving").0.id();
                commands.spawn(Ash(id));
                f.observer_ran(Watcher::Ash);
            },
        );
        let f = faults.clone();
        world.observe(move |_: OnAdd<Fuse>| f.observer_ran(Watcher::Lit));

        world.insert_resource(Script::default());
        let mut schedule = Schedule::new();
        schedule
            .add_system(Stage::Update, scripted)
            .expect("a new name");
        schedule
            .add_system(Stage::Update, inspect)
            .expect("a new name");
        let one_shot = world.register_system(scripted);
        FaultHarness {
            world,
            shadow: Shadow::new(model),
            schedule,
            one_shot,
            ledger,
            faults,
            struck: BTreeMap::new(),
        }
    }

    /// How many calls ended in a panic, keyed `call: kind` (`kind` being the panic message up
    /// to its first `#` or `(`: `fault: Drop of`, `fault: observer Glow`, ...).
    pub fn struck(&self) -> &BTreeMap<String, usize> {
        &self.struck
    }

    /// Runs every step, checking the whole state after each; on a failure, names the step.
    pub fn run(&mut self, steps: &[Step]) {
        self.check();
        for (at, step) in steps.iter().enumerate() {
            let result = catch_unwind(AssertUnwindSafe(|| {
                self.apply(step);
                self.check();
            }));
            if let Err(payload) = result {
                self.faults.disarm();
                eprintln!("fault injection failed at step {at}: {step:?}");
                resume_unwind(payload);
            }
        }
    }

    /// Drops the world: every value made in the run must have been dropped exactly once.
    pub fn finish(self) {
        let FaultHarness {
            world,
            schedule,
            ledger,
            faults,
            ..
        } = self;
        faults.disarm();
        drop(schedule);
        drop(world);
        ledger.assert_all_dropped();
    }

    fn new_made(&self, shape: Shape) -> Made {
        Made::new(shape, &self.ledger, &self.faults)
    }

    /// Arms `fault` in the world and the model; `drops` are the values a `Drop` fault picks
    /// from, `links` the `Link`s a `MapEntities` fault picks from.
    fn arm(&mut self, fault: Option<Fault>, drops: &[u64], links: &[u64]) {
        let pick =
            |list: &[u64], n: u8| (!list.is_empty()).then(|| list[usize::from(n) % list.len()]);
        match fault {
            Some(Fault::Drop(n) | Fault::SystemDrop(_, n)) => {
                self.arm_drops(pick(drops, n).into_iter());
            }
            Some(Fault::Drops(a, b)) => {
                self.arm_drops(pick(drops, a).into_iter().chain(pick(drops, b)));
            }
            Some(Fault::Observer(watcher, run)) => {
                self.faults.arm_observer(watcher, u32::from(run));
                self.shadow.arm_observer(watcher, u32::from(run));
            }
            Some(Fault::MapEntities(n)) => {
                if let Some(id) = pick(links, n) {
                    self.faults.arm_map(id);
                    self.shadow.arm_map(id);
                }
            }
            Some(Fault::Command(_) | Fault::System(_) | Fault::Reader) | None => {}
        }
    }

    fn arm_drops(&mut self, ids: impl Iterator<Item = u64>) {
        for id in ids {
            self.faults.arm_drop(id);
            self.shadow.arm_drop(id);
        }
    }

    /// Runs one step on the world and the model, and compares how each ended.
    pub fn apply(&mut self, step: &Step) {
        let fault = step.fault;
        match &step.op {
            FaultOp::Spawn(shape) => {
                let made = self.new_made(*shape);
                self.arm(fault, &replaced(&made), &[]);
                let writes = made.writes();
                let world = &mut self.world;
                let got = catch_unwind(AssertUnwindSafe(|| Ok(made.give(SpawnIn(world)))));
                let expected = self.shadow.spawn(&writes);
                self.ended("spawn", got, expected);
            }
            FaultOp::SpawnBatch(shape, n) => {
                let bundles: Vec<Made> = (0..n % 5).map(|_| self.new_made(*shape)).collect();
                let ids: Vec<u64> = bundles.iter().flat_map(replaced).collect();
                self.arm(fault, &ids, &[]);
                let writes: Vec<_> = bundles.iter().map(Made::writes).collect();
                let world = &mut self.world;
                let got = catch_unwind(AssertUnwindSafe(|| {
                    Ok(give_batch(*shape, bundles, BatchIn(world)))
                }));
                let expected = self.shadow.spawn_batch(&writes);
                self.ended("spawn_batch", got, expected);
            }
            FaultOp::Insert(target, kind) => {
                let e = target.resolve(&self.shadow.model);
                let piece = Piece::new(*kind, &self.ledger, &self.faults);
                self.arm(fault, &[], &[]);
                let value = Value::U64(piece.id());
                let world = &mut self.world;
                let got = catch_unwind(AssertUnwindSafe(|| match piece {
                    Piece::Fuse(f) => world.insert(e, f).map(|old| old.map(|o| o.0.id())),
                    Piece::Wick(w) => world.insert(e, w).map(|old| old.map(|o| o.0.id())),
                }));
                let expected = self
                    .shadow
                    .insert(e, key(*kind), value)
                    .map(|old| old.map(|v| id_of(&v)));
                self.ended("insert", got, expected);
            }
            FaultOp::InsertBundle(target, shape) => {
                let e = target.resolve(&self.shadow.model);
                let made = self.new_made(*shape);
                let mut drops = self.shadow.charges_of(e);
                drops.extend(made.ids());
                self.arm(fault, &drops, &[]);
                let writes = made.writes();
                let world = &mut self.world;
                let got = catch_unwind(AssertUnwindSafe(|| made.give(InsertIn(world, e))));
                let expected = self.shadow.insert_bundle(e, &writes);
                self.ended("insert_bundle", got, expected);
            }
            FaultOp::Remove(target, kind) => {
                let e = target.resolve(&self.shadow.model);
                self.arm(fault, &[], &[]);
                let world = &mut self.world;
                let got = catch_unwind(AssertUnwindSafe(|| match kind {
                    Kind::Fuse => world.remove::<Fuse>(e).map(|v| v.0.id()),
                    Kind::Wick => world.remove::<Wick>(e).map(|v| v.0.id()),
                }));
                let expected = self.shadow.remove(e, key(*kind)).map(|v| id_of(&v));
                self.ended("remove", got, expected);
            }
            FaultOp::Despawn(target) => {
                let e = target.resolve(&self.shadow.model);
                let mut drops = self.shadow.charges_of(e);
                if drops.is_empty() {
                    drops = self.shadow.charges().into_iter().collect();
                }
                self.arm(fault, &drops, &[]);
                let world = &mut self.world;
                let got = catch_unwind(AssertUnwindSafe(|| world.despawn(e)));
                let expected = self.shadow.despawn(e);
                self.ended("despawn", got, expected);
            }
            FaultOp::Clear => {
                let drops: Vec<u64> = self.shadow.charges().into_iter().collect();
                self.arm(fault, &drops, &[]);
                let world = &mut self.world;
                let got = catch_unwind(AssertUnwindSafe(|| {
                    world.clear();
                    Ok(())
                }));
                let expected = self.shadow.clear();
                self.ended("clear", got, expected);
            }
            FaultOp::Flush(cmds) => self.flush(cmds, fault),
            FaultOp::Frame(cmds) => self.frame(cmds, fault),
            FaultOp::Merge(level) => self.merge(level, fault),
            FaultOp::OneShot(cmds) => self.one_shot(cmds, fault),
        }
        self.faults.disarm();
        self.shadow.disarm();
    }

    /// Makes the values of `cmds` (with a panicking command where a `Command` fault says) and
    /// plans them on the model, reserving the spawns' ids as recording does, but only for the
    /// commands before `cut`. Returns what the world records, what the model applies, the ids
    /// reserved, and the new values' token ids.
    fn plan(
        &mut self,
        cmds: &[Cmd],
        fault: Option<Fault>,
        cut: usize,
    ) -> (Vec<Recorded>, Vec<Planned>, Vec<Entity>, Vec<u64>) {
        let mut cmds: Vec<Option<Cmd>> = cmds.iter().copied().map(Some).collect();
        if let Some(Fault::Command(at)) = fault {
            let at = usize::from(at) % (cmds.len() + 1);
            cmds.insert(at, None);
        }
        let (mut recorded, mut planned, mut reserved, mut new) = (vec![], vec![], vec![], vec![]);
        for (at, cmd) in cmds.into_iter().enumerate() {
            let model = &self.shadow.model;
            let aim = |aim: Aim, reserved: &[Entity]| match aim {
                Aim::Spawned(n) if !reserved.is_empty() => {
                    let i = usize::from(n) % reserved.len();
                    (Pick::Spawned(i), reserved[i])
                }
                Aim::Spawned(n) => {
                    let e = crate::harness::Target::Live(usize::from(n)).resolve(model);
                    (Pick::Entity(e), e)
                }
                Aim::World(target) => {
                    let e = target.resolve(model);
                    (Pick::Entity(e), e)
                }
            };
            let (r, p) = match cmd {
                None => (Recorded::Panic, Planned::Panic),
                Some(Cmd::Spawn(shape)) => {
                    let made = self.new_made(shape);
                    new.extend(made.ids());
                    let writes = made.writes();
                    let e = if at < cut {
                        let e = self.shadow.model.spawn([]);
                        reserved.push(e);
                        e
                    } else {
                        // Never recorded: no id reserved.
                        ent(u32::MAX, 1)
                    };
                    (Recorded::Spawn(made), Planned::Spawn(e, writes))
                }
                Some(Cmd::Insert(a, kind)) => {
                    let (pick, e) = aim(a, &reserved);
                    let piece = Piece::new(kind, &self.ledger, &self.faults);
                    new.push(piece.id());
                    let value = Value::U64(piece.id());
                    (
                        Recorded::Insert(pick, piece),
                        Planned::Insert(e, key(kind), value),
                    )
                }
                Some(Cmd::InsertBundle(a, shape)) => {
                    let (pick, e) = aim(a, &reserved);
                    let made = self.new_made(shape);
                    new.extend(made.ids());
                    let writes = made.writes();
                    (
                        Recorded::InsertBundle(pick, made),
                        Planned::InsertBundle(e, writes),
                    )
                }
                Some(Cmd::Remove(a, kind)) => {
                    let (pick, e) = aim(a, &reserved);
                    (Recorded::Remove(pick, kind), Planned::Remove(e, key(kind)))
                }
                Some(Cmd::Despawn(a)) => {
                    let (pick, e) = aim(a, &reserved);
                    (Recorded::Despawn(pick), Planned::Despawn(e))
                }
            };
            recorded.push(r);
            planned.push(p);
        }
        (recorded, planned, reserved, new)
    }

    /// `world.commands()` records `cmds`, `flush` applies them.
    fn flush(&mut self, cmds: &[Cmd], fault: Option<Fault>) {
        let (recorded, planned, reserved, new) = self.plan(cmds, fault, usize::MAX);
        let mut drops: Vec<u64> = self.shadow.charges().into_iter().collect();
        drops.extend(new);
        self.arm(fault, &drops, &[]);
        let mut spawned = Vec::new();
        let mut commands = self.world.commands();
        for command in recorded {
            record(&mut commands, command, &mut spawned);
        }
        assert_eq!(spawned, reserved, "the ids commands.spawn reserved");
        let world = &mut self.world;
        let got = catch_unwind(AssertUnwindSafe(|| Ok(world.flush())));
        let mut failed = Vec::new();
        let expected = match self.shadow.apply(planned, &mut failed) {
            Some(panic) => Ends::Panics(panic),
            None => Ends::Returns(Ok(failed)),
        };
        self.ended("flush", got, expected);
    }

    /// Plans `cmds` for `scripted`, cut where a system fault makes it panic, arms the fault and
    /// hands the commands to the script. Returns the position the system panics before
    /// (`usize::MAX`: none), what the model applies, and the ids its spawns reserve.
    fn script(&mut self, cmds: &[Cmd], fault: Option<Fault>) -> (usize, Vec<Planned>, Vec<Entity>) {
        let len = cmds.len() + usize::from(matches!(fault, Some(Fault::Command(_))));
        let cut = match fault {
            Some(Fault::System(at) | Fault::SystemDrop(at, _)) => usize::from(at) % (len + 1),
            _ => usize::MAX,
        };
        let (recorded, planned, reserved, new) = self.plan(cmds, fault, cut);
        let drops: Vec<u64> = if let Some(Fault::SystemDrop(..)) = fault {
            // Only what the system recorded is in its buffer when that is dropped; the values
            // after the cut drop while its panic unwinds, where an armed one would abort.
            planned[..cut.min(planned.len())]
                .iter()
                .flat_map(Planned::values)
                .map(|(_, value)| id_of(&value))
                .collect()
        } else {
            let mut drops: Vec<u64> = self.shadow.charges().into_iter().collect();
            drops.extend(new);
            drops
        };
        self.arm(fault, &drops, &[]);
        let script = self.world.resource_mut::<Script>().expect("inserted");
        script.commands = recorded;
        script.panic_before = (cut != usize::MAX).then_some(cut);
        script.reader_panics = matches!(fault, Some(Fault::Reader));
        script.spawned.clear();
        (cut, planned, reserved)
    }

    /// Takes the ids `scripted`'s spawns got, and checks them against those the model reserved.
    fn check_spawned(&mut self, reserved: &[Entity]) {
        let script = self.world.resource_mut::<Script>().expect("inserted");
        let spawned = std::mem::take(&mut script.spawned);
        assert_eq!(spawned, reserved, "the ids the system's spawns reserved");
    }

    /// A frame: `scripted` records `cmds`, `inspect` reads, the stage applies the commands.
    fn frame(&mut self, cmds: &[Cmd], fault: Option<Fault>) {
        let (cut, planned, reserved) = self.script(cmds, fault);
        let (world, schedule) = (&mut self.world, &mut self.schedule);
        let got = catch_unwind(AssertUnwindSafe(|| {
            schedule.run(world).map(|()| {
                let errors = schedule.command_errors().iter();
                errors.map(|e| e.error.clone()).collect::<Vec<_>>()
            })
        }));
        self.check_spawned(&reserved);
        let expected = if cut != usize::MAX {
            self.shadow
                .drop_stage(&planned[..cut.min(planned.len())], &reserved);
            Ends::Panics(BTreeSet::from([SYSTEM_MESSAGE.to_owned()]))
        } else if matches!(fault, Some(Fault::Reader)) {
            self.shadow.drop_stage(&planned, &reserved);
            Ends::Panics(BTreeSet::from([READER_MESSAGE.to_owned()]))
        } else {
            let mut failed = Vec::new();
            match self.shadow.apply(planned, &mut failed) {
                Some(panic) => Ends::Panics(panic),
                None => {
                    failed.append(&mut self.shadow.observer_errors);
                    Ends::Returns(Ok(failed))
                }
            }
        };
        self.ended("Schedule::run", got, expected);
    }

    /// `run_system` of the one-shot `scripted`: it records `cmds`, which apply before the call
    /// returns; the call returns the first command's error. A panicking run ends as a stage
    /// whose system panicked: nothing of it applied, now or at a later run.
    fn one_shot(&mut self, cmds: &[Cmd], fault: Option<Fault>) {
        let (cut, planned, reserved) = self.script(cmds, fault);
        let (world, id) = (&mut self.world, self.one_shot);
        let got = catch_unwind(AssertUnwindSafe(|| world.run_system(id)));
        self.check_spawned(&reserved);
        let expected = if cut != usize::MAX {
            self.shadow
                .drop_stage(&planned[..cut.min(planned.len())], &reserved);
            Ends::Panics(BTreeSet::from([SYSTEM_MESSAGE.to_owned()]))
        } else {
            // Observers' failed commands stay with the world, for `check` to take.
            let mut failed = Vec::new();
            match self.shadow.apply(planned, &mut failed) {
                Some(panic) => Ends::Panics(panic),
                None => Ends::Returns(failed.into_iter().next().map_or(Ok(()), Err)),
            }
        };
        self.ended("run_system", got, expected);
    }

    /// Builds a staging world of `level`, then merges it.
    fn merge(&mut self, level: &[LevelEntity], fault: Option<Fault>) {
        let mut staging = World::new();
        let mut model = Model::new();
        let mut ids = Vec::new();
        for entity in level {
            let made = self.new_made(entity.shape);
            let writes = made.writes();
            let e = made.give(SpawnIn(&mut staging));
            assert_eq!(e, model.spawn(writes), "a level's id");
            ids.push(e);
        }
        let mut links = BTreeMap::new();
        for (entity, &e) in level.iter().zip(&ids) {
            let Some(link) = entity.link else { continue };
            let to = match link {
                LinkTo::Level(n) => ids[usize::from(n) % ids.len()],
                LinkTo::World(target) => target.resolve(&self.shadow.model),
            };
            let charge = Charge::new(&self.ledger, &self.faults);
            let id = charge.id();
            assert!(staging.insert(e, Link(Fragile { to, charge })).is_ok());
            model.insert(e, Key::of::<Link>(), Value::U64(id));
            links.insert(id, to);
        }
        for (entity, &e) in level.iter().zip(&ids) {
            if entity.despawned {
                staging.despawn(e).expect("alive");
                model.despawn(e);
            }
        }
        let arriving: Vec<u64> = model
            .live()
            .values()
            .filter_map(|r| r.get(&Key::of::<Link>()).map(id_of))
            .collect();
        self.arm(fault, &[], &arriving);
        let world = &mut self.world;
        let got = catch_unwind(AssertUnwindSafe(|| {
            Ok(world.merge(staging).iter().collect::<Vec<_>>())
        }));
        let expected = self.shadow.merge(&model, &links);
        self.ended("merge", got, expected);
    }

    /// Compares how a call ended with how the model says it must: the same value or error, or
    /// a panic with one of the model's messages.
    fn ended<T: PartialEq + Debug>(
        &mut self,
        call: &str,
        got: Result<Result<T, Error>, Box<dyn Any + Send>>,
        expected: Ends<T>,
    ) {
        // Anything the call handed back is dropped disarmed, outside the world.
        self.faults.disarm();
        match (got, expected) {
            (Ok(got), Ends::Returns(expected)) => {
                assert_eq!(got, expected, "{call} returned");
            }
            (Err(payload), Ends::Panics(messages)) => {
                let message = panic_message(&*payload);
                assert!(
                    messages.contains(&message),
                    "{call} panicked with {message:?}, expected one of {messages:?}"
                );
                let kind = message
                    .split(['#', '('])
                    .next()
                    .unwrap_or_default()
                    .trim_end();
                *self.struck.entry(format!("{call}: {kind}")).or_default() += 1;
            }
            (Ok(got), Ends::Panics(messages)) => {
                panic!("{call} returned {got:?}, expected a panic with one of {messages:?}")
            }
            (Err(payload), Ends::Returns(expected)) => panic!(
                "{call} panicked with {:?}, expected it to return {expected:?}",
                panic_message(&*payload)
            ),
        }
    }

    /// Compares everything observable with the model: every live entity, id and value (and
    /// every type it lacks), every dead id's errors, the next id, `stats()`, where each `Link`
    /// points, the errors observers reported, and the ledger: exactly the values the model
    /// holds are alive, none was dropped twice.
    pub fn check(&mut self) {
        let model = &self.shadow.model;
        model.assert_stats(&self.world);
        model.assert_world(&self.world, DeadIds::All);
        for (&e, record) in model.live() {
            if let Some(value) = record.get(&Key::of::<Link>()) {
                let link = self.world.get::<Link>(e).expect("held");
                assert_eq!(
                    Some(&link.0.to),
                    self.shadow.links.get(&id_of(value)),
                    "where the Link of {e:?} points"
                );
            }
        }
        let errors = self.world.take_observer_errors();
        let expected = std::mem::take(&mut self.shadow.observer_errors);
        assert_eq!(errors, expected, "observer errors");
        self.ledger.assert_no_errors();
        assert_eq!(
            self.ledger.live_ids(),
            self.shadow.charges(),
            "the values alive are exactly those the world holds"
        );
    }
}

/// The values of a bundle a `Drop` fault picks from: those it replaces itself (the earlier of
/// a repeated type), else all of them (none of which is dropped).
fn replaced(made: &Made) -> Vec<u64> {
    let ids = made.ids();
    if made.shape().repeats() {
        vec![ids[0]]
    } else {
        ids
    }
}

fn id_of(value: &Value) -> u64 {
    match value {
        Value::U64(id) => *id,
        other => unreachable!("a charged value mirrors as its token id, not {other:?}"),
    }
}
