//! The parallel executor: conflicting systems never overlap, parallel and
//! single-threaded runs give the same world, a stage spreads over every
//! thread of the pool, and a panicking system leaves the world consistent.

use std::sync::atomic::{AtomicIsize, AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

use ecs_core::change::Tick;
use ecs_core::prelude::*;
use ecs_testkit::ledger::{Ledger, Token};

/// Eight component types, told apart by `N`.
#[derive(Component, Clone, Copy, Debug, PartialEq, Eq)]
struct C<const N: usize>(u64);

/// One borrow flag per component type, claimed by each system for the
/// types it touches while it runs: readers count up, a writer sets -1.
/// Any claim that finds the flag in the other state is an overlap.
#[derive(Default)]
struct Flags {
    flags: [AtomicIsize; 8],
    overlaps: AtomicUsize,
}

impl Flags {
    fn read(&self, n: usize) {
        if self.flags[n].fetch_add(1, Ordering::SeqCst) < 0 {
            self.overlaps.fetch_add(1, Ordering::SeqCst);
        }
    }
    fn unread(&self, n: usize) {
        self.flags[n].fetch_sub(1, Ordering::SeqCst);
    }
    fn write(&self, n: usize) {
        if self.flags[n]
            .compare_exchange(0, isize::MIN / 2, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            self.overlaps.fetch_add(1, Ordering::SeqCst);
        }
    }
    fn unwrite(&self, n: usize) {
        self.flags[n].fetch_sub(isize::MIN / 2, Ordering::SeqCst);
    }
}

/// A meeting point for `parties` systems: each arrival waits until the
/// whole group of `parties` it belongs to (arrivals `1..=parties`, then the
/// next `parties`, ...) has arrived. A group completes only if its members
/// run at the same time, and it completes however slow each thread is: the
/// patience only keeps a test whose systems cannot meet from hanging, and is
/// far beyond any delay a loaded machine or valgrind adds.
struct Meeting {
    parties: usize,
    arrived: Mutex<usize>,
    all_here: Condvar,
    /// Arrivals that gave up before their group was complete, or came after
    /// one did: once a group has missed, nobody waits any more, so a test
    /// whose systems cannot meet fails after one wait, not one per frame.
    missed: AtomicUsize,
    patience: Duration,
}

impl Meeting {
    fn new(parties: usize) -> Self {
        Self {
            parties,
            arrived: Mutex::new(0),
            all_here: Condvar::new(),
            missed: AtomicUsize::new(0),
            patience: Duration::from_secs(30),
        }
    }

    fn arrive(&self) {
        let deadline = Instant::now() + self.patience;
        let mut arrived = self.arrived.lock().unwrap();
        *arrived += 1;
        if self.missed.load(Ordering::SeqCst) > 0 {
            self.missed.fetch_add(1, Ordering::SeqCst);
            return;
        }
        let group_complete = arrived.div_ceil(self.parties) * self.parties;
        self.all_here.notify_all();
        while *arrived < group_complete {
            let Some(left) = deadline.checked_duration_since(Instant::now()) else {
                self.missed.fetch_add(1, Ordering::SeqCst);
                return;
            };
            arrived = self.all_here.wait_timeout(arrived, left).unwrap().0;
        }
    }

    fn arrivals(&self) -> usize {
        *self.arrived.lock().unwrap()
    }
}

#[test]
fn a_meeting_completes_only_when_its_parties_are_there_at_once() {
    let meeting = Meeting::new(2);
    std::thread::scope(|s| {
        s.spawn(|| meeting.arrive());
        s.spawn(|| meeting.arrive());
    });
    assert_eq!(
        (meeting.arrivals(), meeting.missed.load(Ordering::SeqCst)),
        (2, 0)
    );
    // One party alone waits out its patience and is counted as missed.
    let alone = Meeting {
        patience: Duration::ZERO,
        ..Meeting::new(2)
    };
    alone.arrive();
    assert_eq!(alone.missed.load(Ordering::SeqCst), 1);
}

#[test]
fn the_flags_notice_an_overlap() {
    let flags = Flags::default();
    flags.read(3);
    flags.write(3);
    assert_eq!(flags.overlaps.load(Ordering::SeqCst), 1);
    let flags = Flags::default();
    flags.write(2);
    flags.read(2);
    flags.write(2);
    assert_eq!(flags.overlaps.load(Ordering::SeqCst), 2);
}

/// Reads `C<R>`, writes `C<W>`, holding both flags for a while.
fn mix<const R: usize, const W: usize>(mut q: Query<(&C<R>, &mut C<W>)>, flags: Res<Flags>) {
    flags.read(R);
    flags.write(W);
    for (r, w) in q.iter_mut() {
        w.0 = w.0.wrapping_mul(6364136223846793005).wrapping_add(r.0 | 1);
    }
    std::thread::sleep(Duration::from_micros(200));
    flags.unwrite(W);
    flags.unread(R);
}

/// Only reads `C<R>`.
fn look<const R: usize>(q: Query<&C<R>>, flags: Res<Flags>) {
    flags.read(R);
    let _ = q.iter().map(|c| c.0).fold(0u64, u64::wrapping_add);
    std::thread::sleep(Duration::from_micros(200));
    flags.unread(R);
}

/// Touches no component: meets the other systems of its meeting.
fn meet<const N: usize>(meeting: Res<Meeting>) {
    meeting.arrive();
}

fn add_mixers(schedule: &mut Schedule, stage: Stage) {
    schedule.add_system(stage, mix::<0, 1>).unwrap();
    schedule.add_system(stage, mix::<2, 3>).unwrap();
    schedule.add_system(stage, mix::<1, 2>).unwrap();
    schedule.add_system(stage, mix::<4, 5>).unwrap();
    schedule.add_system(stage, mix::<6, 7>).unwrap();
    schedule.add_system(stage, mix::<5, 0>).unwrap();
    schedule.add_system(stage, mix::<3, 4>).unwrap();
    schedule.add_system(stage, mix::<7, 6>).unwrap();
    schedule.add_system(stage, look::<0>).unwrap();
    schedule.add_system(stage, look::<3>).unwrap();
    schedule.add_system(stage, look::<6>).unwrap();
    schedule.add_system(stage, mix::<0, 7>).unwrap();
}

fn populated_world() -> World {
    let mut world = World::new();
    world.spawn_batch((0..200u64).map(|i| (C::<0>(i), C::<1>(i), C::<2>(i), C::<3>(i))));
    world.spawn_batch((0..200u64).map(|i| (C::<4>(i), C::<5>(i), C::<6>(i), C::<7>(i), C::<0>(i))));
    world.spawn_batch((0..100u64).map(|i| (C::<1>(i), C::<2>(i), C::<5>(i), C::<7>(i), C::<6>(i))));
    world
}

/// A pool of four threads, whatever the machine: enough for every batch
/// below to go to the pool, and for a system waiting at a [`Meeting`] to
/// leave threads free for the rest of its batch.
fn four_threads() -> rayon::ThreadPool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(4)
        .build()
        .expect("a pool of four threads")
}

#[test]
fn conflicting_systems_never_overlap() {
    let mut world = populated_world();
    world.insert_resource(Flags::default());
    world.insert_resource(Meeting::new(2));
    let mut schedule = Schedule::new();
    schedule.set_parallel_threshold(0);
    add_mixers(&mut schedule, Stage::Update);
    // Two systems that conflict with nothing join the first batch and meet
    // there every frame: the frame goes on only once they ran at the same
    // time, so the batches counted as parallel really run systems at once.
    schedule
        .add_system(Stage::Update, meet::<0>.named("meet_a"))
        .unwrap();
    schedule
        .add_system(Stage::Update, meet::<1>.named("meet_b"))
        .unwrap();
    let explained = schedule.explain().unwrap();
    let update = explained.stage(Stage::Update).unwrap();
    assert_eq!(update.batches.len(), 3, "{explained}");
    assert!(update.batches.iter().all(|batch| batch.len() >= 2));
    assert!(
        update.batches[0].contains(&"meet_a".to_owned())
            && update.batches[0].contains(&"meet_b".to_owned()),
        "{explained}"
    );
    let frames = 150;
    four_threads().install(|| {
        for _ in 0..frames {
            schedule.run(&mut world).unwrap();
        }
    });
    let flags = world.resource::<Flags>().unwrap();
    assert_eq!(
        flags.overlaps.load(Ordering::SeqCst),
        0,
        "two conflicting systems overlapped"
    );
    assert_eq!(
        schedule.parallel_batches(),
        3 * frames,
        "every batch spread"
    );
    let meeting = world.resource::<Meeting>().unwrap();
    assert_eq!(
        (meeting.arrivals(), meeting.missed.load(Ordering::SeqCst)),
        (2 * frames as usize, 0),
        "the two systems of the first batch did not run at once"
    );
}

#[test]
fn disjoint_filters_let_two_writers_of_one_type_run_together() {
    #[derive(Component)]
    struct Player;
    fn players(mut q: Query<&mut C<0>, With<Player>>) {
        q.iter_mut().for_each(|c| c.0 += 1);
    }
    fn others(mut q: Query<&mut C<0>, Without<Player>>) {
        q.iter_mut().for_each(|c| c.0 += 2);
    }
    let mut world = World::new();
    let p = world.spawn((C::<0>(0), Player));
    let o = world.spawn(C::<0>(0));
    let mut schedule = Schedule::new();
    schedule.set_parallel_threshold(0);
    schedule.add_system(Stage::Update, players).unwrap();
    schedule.add_system(Stage::Update, others).unwrap();
    let update = schedule
        .explain()
        .unwrap()
        .stage(Stage::Update)
        .unwrap()
        .clone();
    assert_eq!(update.batches, [vec!["players", "others"]]);
    assert!(update.conflicts.is_empty());
    schedule.run(&mut world).unwrap();
    assert_eq!(
        (
            world.get::<C<0>>(p).unwrap().0,
            world.get::<C<0>>(o).unwrap().0
        ),
        (1, 2)
    );
    assert_eq!(
        schedule.parallel_batches(),
        u64::from(rayon::current_num_threads() > 1)
    );
}

/// Everything a world holds, in a form two worlds can be compared by:
/// each live entity (index and version) with the value of each type.
fn snapshot(world: &mut World) -> Vec<(Entity, [Option<u64>; 8])> {
    let mut all: Vec<(Entity, [Option<u64>; 8])> = world
        .query::<(
            Entity,
            (Option<&C<0>>, Option<&C<1>>, Option<&C<2>>, Option<&C<3>>),
            (Option<&C<4>>, Option<&C<5>>, Option<&C<6>>, Option<&C<7>>),
        )>()
        .iter()
        .map(|(e, (a, b, c, d), (f, g, h, i))| {
            (
                e,
                [
                    a.map(|x| x.0),
                    b.map(|x| x.0),
                    c.map(|x| x.0),
                    d.map(|x| x.0),
                    f.map(|x| x.0),
                    g.map(|x| x.0),
                    h.map(|x| x.0),
                    i.map(|x| x.0),
                ],
            )
        })
        .collect();
    all.sort_by_key(|(e, _)| e.to_bits());
    all
}

/// Spawns children of some entities holding `C<N>`, pausing between
/// spawns so that two breeders running at once interleave their spawns.
fn breed<const N: usize>(q: Query<&C<N>>, mut commands: Commands) {
    for c in q.iter().filter(|c| c.0 % 5 == 1).take(3) {
        let child = commands.spawn(C::<N>(c.0 / 2 + 7));
        commands.insert(child, C::<7>(c.0));
        std::thread::sleep(Duration::from_micros(300));
    }
}

/// Despawns some entities holding `C<N>`, and strips `C<N>` from others.
fn cull<const N: usize>(q: Query<(Entity, &C<N>)>, mut commands: Commands) {
    for (e, c) in q.iter() {
        match c.0 % 11 {
            0 => commands.despawn(e),
            3 => commands.remove::<C<N>>(e),
            _ => {}
        }
    }
}

/// Spawns one entity through its commands, then fails when the number of
/// `C<N>` holders is odd: its commands apply and its error is listed either
/// way.
fn spawn_then_fail_on_odd<const N: usize>(
    q: Query<&C<N>>,
    mut commands: Commands,
) -> Result<(), String> {
    let holders = q.iter().count();
    commands.spawn(C::<N>(holders as u64 * 3 + 1));
    if holders % 2 == 1 {
        return Err(format!("{holders} holders of C<{N}>"));
    }
    Ok(())
}

fn mixed_systems(mut schedule: Schedule) -> Schedule {
    schedule.set_parallel_threshold(0);
    schedule.set_error_handler(ErrorHandler::ignore);
    for stage in [Stage::PreUpdate, Stage::Update] {
        let name = |s: &str| format!("{stage}/{s}");
        schedule
            .add_system(stage, mix::<0, 1>.named(name("m01")))
            .unwrap();
        schedule
            .add_system(stage, mix::<2, 3>.named(name("m23")))
            .unwrap();
        schedule
            .add_system(stage, mix::<1, 2>.named(name("m12")))
            .unwrap();
        schedule
            .add_system(stage, mix::<4, 5>.named(name("m45")))
            .unwrap();
        schedule
            .add_system(stage, mix::<6, 7>.named(name("m67")))
            .unwrap();
        schedule
            .add_system(stage, breed::<4>.named(name("b4")))
            .unwrap();
        schedule
            .add_system(stage, breed::<6>.named(name("b6")))
            .unwrap();
        schedule
            .add_system(stage, cull::<3>.named(name("c3")))
            .unwrap();
        schedule
            .add_system(stage, cull::<6>.named(name("c6")))
            .unwrap();
        schedule
            .add_system(stage, look::<4>.named(name("l4")))
            .unwrap();
        schedule
            .add_system(stage, spawn_then_fail_on_odd::<4>.named(name("f4")))
            .unwrap();
        // A sync point from an ordering: `f3` counts `C<3>` holders after
        // `c3x`'s despawns and removals applied.
        schedule
            .add_systems(
                stage,
                (
                    cull::<3>.named(name("c3x")),
                    spawn_then_fail_on_odd::<3>.named(name("f3")),
                )
                    .chain(),
            )
            .unwrap();
        schedule
            .add_system(stage, holders::<1>.pipe(stamp::<5>).named(name("p15")))
            .unwrap();
        // A group's condition, asked once per frame for both, and a set's.
        schedule
            .add_systems(
                stage,
                (look::<1>.named(name("l1")), breed::<2>.named(name("b2")))
                    .run_if(every_other_frame),
            )
            .unwrap();
        schedule
            .add_system(stage, cull::<5>.named(name("c5")).in_set("culls"))
            .unwrap();
        schedule
            .configure_set(stage, "culls", run_if(every_other_frame))
            .unwrap();
    }
    schedule
}

/// Says yes on every other frame it is asked, counting in a `Local`.
fn every_other_frame(mut asked: Local<u32>) -> bool {
    *asked += 1;
    *asked % 2 == 1
}

/// How many entities hold `C<N>`: the first half of a pipe.
fn holders<const N: usize>(q: Query<&C<N>>) -> u64 {
    q.iter().count() as u64
}

/// Adds what the first half of its pipe counted to every `C<N>`.
fn stamp<const N: usize>(In(count): In<u64>, mut q: Query<&mut C<N>>, flags: Res<Flags>) {
    flags.write(N);
    for c in q.iter_mut() {
        c.0 = c.0.wrapping_add(count);
    }
    flags.unwrite(N);
}

#[test]
fn parallel_and_single_threaded_runs_give_the_same_world() {
    let mut parallel_world = populated_world();
    let mut single_world = populated_world();
    // Some free slots, so that spawns reuse ids as well as making new ones.
    for world in [&mut parallel_world, &mut single_world] {
        let doomed: Vec<Entity> = world.query::<Entity>().iter().step_by(9).collect();
        for e in doomed {
            world.despawn(e).unwrap();
        }
        world.insert_resource(Flags::default());
        // Observers react to the commands of the frame: they must fire in
        // the same order, with the same ids, however the frame ran.
        world.observe(|t: OnAdd<C<7>>, q: Query<&C<7>>, mut commands: Commands| {
            commands.insert(t.entity(), C::<5>(q.get(t.entity()).unwrap().0 + 1));
        });
        world.observe(
            |t: OnRemove<C<3>>, q: Query<&C<3>>, mut commands: Commands| {
                let value = q.get(t.entity()).unwrap().0;
                if value.is_multiple_of(2) {
                    commands.spawn(C::<0>(value));
                }
            },
        );
    }
    let mut parallel = mixed_systems(Schedule::new());
    let mut single = mixed_systems(Schedule::single_threaded());
    // The two breeders spawn in the same batch, so a parallel run reserves
    // ids from two threads at once.
    let update = parallel
        .explain()
        .unwrap()
        .stage(Stage::Update)
        .unwrap()
        .clone();
    assert!(update.batches[0].contains(&"Update/b4".to_owned()));
    assert!(update.batches[0].contains(&"Update/b6".to_owned()));
    let mut failures = 0;
    four_threads().install(|| {
        for frame in 0..40 {
            parallel.run(&mut parallel_world).unwrap();
            single.run(&mut single_world).unwrap();
            assert_eq!(
                snapshot(&mut parallel_world),
                snapshot(&mut single_world),
                "the worlds differ after frame {frame}"
            );
            assert_eq!(parallel.command_errors(), single.command_errors());
            assert_eq!(parallel.system_errors(), single.system_errors());
            failures += parallel.system_errors().len();
        }
    });
    assert!(failures > 0, "the fallible systems failed on some frames");
    assert!(parallel.parallel_batches() > 0);
    assert_eq!(single.parallel_batches(), 0);
    let observed = parallel_world.query::<&C<5>>().iter().count();
    assert!(observed > 0, "the OnAdd observer ran");
    assert_eq!(
        parallel_world
            .resource::<Flags>()
            .unwrap()
            .overlaps
            .load(Ordering::SeqCst),
        0
    );
}

/// The phases of the frame model below: each switch runs its stages.
#[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
enum Phase {
    #[default]
    Calm,
    Storm,
}

/// The frame number, counted in `First`.
#[derive(Default)]
struct FrameNo(u64);

fn count_frames(mut frame: ResMut<FrameNo>) {
    frame.0 += 1;
}

/// Toggles the phase every fourth frame, from `Update`: the switch applies
/// the next frame.
fn toggle_phase(frame: Res<FrameNo>, state: Res<State<Phase>>, mut next: ResMut<NextState<Phase>>) {
    if frame.0.is_multiple_of(4) {
        next.set(match **state {
            Phase::Calm => Phase::Storm,
            Phase::Storm => Phase::Calm,
        });
    }
}

/// Every part of a frame beside plain stages: run conditions (built-in,
/// closures, `not`), state switches with spawning and despawning `OnEnter`
/// / `OnExit` stages, and `FixedUpdate` steps from a manual clock.
fn conditional_frame(mut schedule: Schedule) -> Schedule {
    schedule.set_parallel_threshold(0);
    schedule.add_system(Stage::First, count_frames).unwrap();
    let update = Stage::Update;
    schedule
        .add_system(update, mix::<0, 1>.run_if(in_state(Phase::Calm)))
        .unwrap();
    schedule
        .add_system(update, mix::<2, 3>.run_if(in_state(Phase::Storm)))
        .unwrap();
    schedule
        .add_system(
            update,
            breed::<4>.run_if(|f: Res<FrameNo>| f.0.is_multiple_of(3)),
        )
        .unwrap();
    schedule.add_system(update, breed::<6>).unwrap();
    schedule
        .add_system(update, cull::<3>.run_if(not(in_state(Phase::Calm))))
        .unwrap();
    schedule
        .add_system(update, look::<4>.run_if(any_with_component::<C<7>>))
        .unwrap();
    schedule.add_system(update, toggle_phase).unwrap();
    schedule
        .add_system(Stage::FixedUpdate, mix::<4, 5>.named("fixed/m45"))
        .unwrap();
    schedule
        .add_system(Stage::FixedUpdate, breed::<5>.named("fixed/b5"))
        .unwrap();
    schedule
        .add_system(Stage::FixedUpdate, cull::<6>.named("fixed/c6"))
        .unwrap();
    schedule
        .add_system(OnEnter(Phase::Storm), breed::<7>.named("storm/b7"))
        .unwrap();
    schedule
        .add_system(OnEnter(Phase::Storm), mix::<7, 1>.named("storm/m71"))
        .unwrap();
    schedule
        .add_system(OnExit(Phase::Storm), cull::<7>.named("storm/c7"))
        .unwrap();
    schedule
}

#[test]
fn parallel_and_single_threaded_runs_agree_with_conditions_states_and_fixed_steps() {
    let mut parallel_world = populated_world();
    let mut single_world = populated_world();
    for world in [&mut parallel_world, &mut single_world] {
        world.insert_resource(Flags::default());
        world.init_resource::<FrameNo>();
        world.init_state::<Phase>();
        world.insert_resource(Time::fixed_step(0.010));
    }
    let mut parallel = conditional_frame(Schedule::new());
    let mut single = conditional_frame(Schedule::single_threaded());
    // Frame lengths in ms: none, one or several fixed steps per frame.
    let advances = [0u64, 7, 23, 10, 41, 3, 16, 30, 9, 12];
    four_threads().install(|| {
        for frame in 0..32 {
            let advance = Duration::from_millis(advances[frame % advances.len()]);
            for world in [&mut parallel_world, &mut single_world] {
                world.resource_mut::<Time>().unwrap().advance_by(advance);
            }
            parallel.run(&mut parallel_world).unwrap();
            single.run(&mut single_world).unwrap();
            assert_eq!(
                snapshot(&mut parallel_world),
                snapshot(&mut single_world),
                "the worlds differ after frame {frame}"
            );
            assert_eq!(
                **parallel_world.resource::<State<Phase>>().unwrap(),
                **single_world.resource::<State<Phase>>().unwrap()
            );
            assert_eq!(parallel.command_errors(), single.command_errors());
        }
    });
    let runs = |schedule: &Schedule| -> Vec<(String, u64, u64)> {
        let mut runs: Vec<_> = schedule
            .stats()
            .into_iter()
            .map(|s| (s.name, s.runs, s.skipped))
            .collect();
        runs.sort();
        runs
    };
    assert_eq!(runs(&parallel), runs(&single));
    let stats = runs(&single);
    let find = |name: &str| stats.iter().find(|s| s.0 == name).unwrap().clone();
    assert!(find("storm/b7").1 >= 3, "storms began: {stats:?}");
    assert!(find("storm/c7").1 >= 3, "storms ended: {stats:?}");
    assert!(
        find("fixed/m45").1 > 32,
        "several fixed steps in some frames"
    );
    assert!(
        find("mix<2, 3>").2 > 0 && find("mix<0, 1>").2 > 0,
        "{stats:?}"
    );
    assert!(parallel.parallel_batches() > 0);
    assert_eq!(
        parallel_world
            .resource::<Flags>()
            .unwrap()
            .overlaps
            .load(Ordering::SeqCst),
        0
    );
}

#[test]
fn a_stage_offers_its_systems_to_every_thread_of_the_pool() {
    const THREADS: usize = 16;
    /// Holds its thread until all 16 systems are running.
    fn wait_for_all<const N: usize>(_: Query<&C<0>>, meeting: Res<Meeting>) {
        meeting.arrive();
    }
    let mut world = World::new();
    world.spawn_batch((0..10u64).map(C::<0>));
    world.insert_resource(Meeting::new(THREADS));
    let mut schedule = Schedule::new();
    schedule.set_parallel_threshold(1);
    macro_rules! add { ($($n:literal)*) => { $(schedule.add_system(Stage::Update, wait_for_all::<$n>).unwrap();)* } }
    add!(0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(THREADS)
        .build()
        .unwrap();
    pool.install(|| schedule.run(&mut world)).unwrap();
    let meeting = world.resource::<Meeting>().unwrap();
    assert_eq!(
        (meeting.arrivals(), meeting.missed.load(Ordering::SeqCst)),
        (THREADS, 0),
        "the 16 systems of one batch did not all run at once on a 16-thread pool"
    );
    assert_eq!(schedule.parallel_batches(), 1);
}

#[test]
fn light_batches_run_inline_and_measured_heavy_ones_spread() {
    fn a(_: Query<&mut C<0>>) {}
    fn b(_: Query<&mut C<1>>) {}
    fn slow_a(_: Query<&mut C<2>>) {
        std::thread::sleep(Duration::from_micros(300));
    }
    fn slow_b(_: Query<&mut C<3>>) {
        std::thread::sleep(Duration::from_micros(300));
    }
    let mut world = World::new();
    world.spawn_batch((0..10u64).map(|i| (C::<0>(i), C::<1>(i), C::<2>(i), C::<3>(i))));
    let mut light = Schedule::new();
    light.add_system(Stage::Update, a).unwrap();
    light.add_system(Stage::Update, b).unwrap();
    // The first frame decides by entities alone (later ones by measured time,
    // which a slow machine or valgrind may stretch past the bar).
    light.run(&mut world).unwrap();
    assert_eq!(
        light.parallel_batches(),
        0,
        "tiny systems do not pay for a hand-off"
    );

    // Few entities, so the first frame guesses light; the measured run time
    // (above `PARALLEL_MIN_RUN`) then sends them to the pool. A sleep never
    // ends early and the schedule's clock calibration never makes a run look
    // shorter than it was, so both are measured heavy on any machine,
    // however loaded.
    let mut slow = Schedule::new();
    slow.add_system(Stage::Update, slow_a).unwrap();
    slow.add_system(Stage::Update, slow_b).unwrap();
    four_threads().install(|| {
        slow.run(&mut world).unwrap();
        assert_eq!(slow.parallel_batches(), 0);
        slow.run(&mut world).unwrap();
    });
    assert_eq!(slow.parallel_batches(), 1);
}

#[derive(Component)]
struct Tracked(#[allow(dead_code, reason = "held for its drop only")] Token);

#[derive(Default)]
struct Explode(bool);

#[test]
fn a_panicking_system_leaves_the_world_consistent_and_the_schedule_usable() {
    let ledger = Ledger::default();
    struct Source(Ledger);
    fn spawn_tracked(mut commands: Commands, source: Res<Source>) {
        for _ in 0..4 {
            commands.spawn(Tracked(source.0.token()));
        }
    }
    fn tag_all(q: Query<Entity, With<Tracked>>, mut commands: Commands, source: Res<Source>) {
        for e in q.iter() {
            commands.insert(e, Tracked(source.0.token()));
        }
    }
    fn explode(explode: Res<Explode>, _: Query<&mut C<0>>) {
        std::thread::sleep(Duration::from_millis(2));
        assert!(!explode.0, "boom");
    }
    fn busy(_: Query<&mut C<1>>) {
        std::thread::sleep(Duration::from_millis(5));
    }
    let mut world = World::new();
    world.insert_resource(Source(ledger.clone()));
    world.insert_resource(Explode(false));
    world.spawn_batch((0..10u64).map(|i| (C::<0>(i), C::<1>(i))));
    let mut schedule = Schedule::new();
    schedule.set_parallel_threshold(0);
    schedule.add_system(Stage::Update, spawn_tracked).unwrap();
    schedule.add_system(Stage::Update, tag_all).unwrap();
    schedule.add_system(Stage::Update, explode).unwrap();
    schedule.add_system(Stage::Update, busy).unwrap();
    schedule
        .add_system(Stage::PostUpdate, spawn_tracked.named("later"))
        .unwrap();

    schedule.run(&mut world).unwrap();
    let alive_before = world.len();
    assert_eq!(world.query::<&Tracked>().iter().count(), 8);

    world.resource_mut::<Explode>().unwrap().0 = true;
    let caught =
        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| schedule.run(&mut world)));
    let message = caught.unwrap_err();
    assert_eq!(message.downcast_ref::<&str>(), Some(&"boom"));
    // Nothing of the stage applied: no spawn, no replaced value; reserved
    // ids are despawned; PostUpdate never ran.
    assert_eq!(world.len(), alive_before);
    assert_eq!(world.query::<&Tracked>().iter().count(), 8);
    assert_eq!(
        ledger.live(),
        8,
        "the dropped commands dropped their values once each"
    );
    ledger.assert_no_errors();
    assert_eq!(
        schedule
            .stats()
            .iter()
            .find(|s| s.name == "busy")
            .unwrap()
            .runs,
        2,
        "the other systems finished"
    );

    world.resource_mut::<Explode>().unwrap().0 = false;
    schedule.run(&mut world).unwrap();
    assert_eq!(world.len(), alive_before + 8);
    drop(world);
    assert_eq!(ledger.live(), 0);
    ledger.assert_no_errors();
}

/// Systems a batch runs on the calling thread share one unwind guard, set
/// again past each system that panics: every system of the batch runs once,
/// each panicking one included in its count, the first panic reaches the
/// caller, and the systems that ran keep their change ticks in batch order.
#[test]
fn a_batch_run_here_goes_on_past_each_panicking_system() {
    #[derive(Default)]
    struct Order(Mutex<Vec<(&'static str, bool)>>);
    #[derive(Component)]
    #[component(track_changes)]
    struct Watched;
    fn log(order: &Order, name: &'static str, tracked: bool) {
        order.0.lock().unwrap().push((name, tracked));
    }
    fn first(order: Res<Order>, q: Query<&Watched, Changed<Watched>>) {
        log(&order, "first", q.iter().count() > 0);
    }
    fn boom(order: Res<Order>) {
        log(&order, "boom", false);
        panic!("boom");
    }
    fn middle(order: Res<Order>, q: Query<&Watched, Changed<Watched>>) {
        log(&order, "middle", q.iter().count() > 0);
    }
    fn bang(order: Res<Order>) {
        log(&order, "bang", false);
        panic!("bang");
    }
    fn last(order: Res<Order>, q: Query<&Watched, Changed<Watched>>) {
        log(&order, "last", q.iter().count() > 0);
    }
    for single_threaded in [false, true] {
        let mut world = World::new();
        world.insert_resource(Order::default());
        world.spawn(Watched);
        let mut schedule = if single_threaded {
            Schedule::single_threaded()
        } else {
            let mut schedule = Schedule::new();
            schedule.set_parallel_threshold(usize::MAX);
            schedule
        };
        schedule.add_system(Stage::Update, first).unwrap();
        schedule.add_system(Stage::Update, boom).unwrap();
        schedule.add_system(Stage::Update, middle).unwrap();
        schedule.add_system(Stage::Update, bang).unwrap();
        schedule.add_system(Stage::Update, last).unwrap();
        for frame in 0..10 {
            let caught =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| schedule.run(&mut world)));
            let payload = caught.expect_err("two systems panic every frame");
            assert_eq!(
                payload.downcast_ref::<&str>(),
                Some(&"boom"),
                "the first panic reaches the caller"
            );
            let order = std::mem::take(&mut *world.resource::<Order>().unwrap().0.lock().unwrap());
            // Only the first frame's readers see the spawn as a change: each
            // moved its horizon past it, panics beside them notwithstanding.
            let news = frame == 0;
            assert_eq!(
                order,
                [
                    ("first", news),
                    ("boom", false),
                    ("middle", news),
                    ("bang", false),
                    ("last", news)
                ],
                "frame {frame}, single-threaded: {single_threaded}"
            );
        }
        assert_eq!(schedule.parallel_batches(), 0);
        for stats in schedule.stats() {
            assert_eq!(stats.runs, 10, "{}", stats.name);
        }
    }
}

/// What `mark_target` marks.
struct Target(Entity);

/// A mark, naming the run that made it.
#[derive(Component, Debug, PartialEq)]
struct Marked(&'static str);

/// A system takes its change tick as it starts; at the counter's limit that panics. Taken
/// outside the system's own panic guard, the panic used to leave the commands of the systems
/// that ran before it in their buffers, and the next run, on another world, applied them there:
/// to an unrelated entity under the same id. Every run that panics must discard its commands, in
/// a batch run inline and in one run on the pool.
#[test]
fn a_panic_taking_the_change_tick_discards_the_runs_commands() {
    fn mark_target(target: Res<Target>, mut commands: Commands, source: Res<Source>) {
        commands.insert(target.0, Marked("mark_target"));
        commands.spawn(Tracked(source.0.token()));
    }
    fn reader(_: Query<&C<0>>) {}
    struct Source(Ledger);
    for threshold in [usize::MAX, 0] {
        let ledger = Ledger::default();
        let mut schedule = Schedule::new();
        schedule.set_parallel_threshold(threshold);
        schedule.add_system(Stage::Update, mark_target).unwrap();
        schedule.add_system(Stage::Update, reader).unwrap();

        let mut first = World::new();
        let first_target = first.spawn(C::<0>(0));
        first.insert_resource(Target(first_target));
        first.insert_resource(Source(ledger.clone()));
        // Room for one system's tick: the second system's panics.
        first.set_change_tick(Tick::new(u64::MAX - 1));
        let caught =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| schedule.run(&mut first)));
        let payload = caught.expect_err("the second tick is past the limit");
        let message = ecs_testkit::ledger::panic_message(&*payload);
        assert!(message.contains("cannot advance"), "{message}");
        assert_eq!(first.len(), 1, "the reserved id is despawned");
        assert!(!first.contains::<Marked>(first_target));
        assert_eq!(ledger.live(), 0, "the discarded spawn dropped its value");

        // Another world, whose entity under the first world's target id is not its target.
        let mut second = World::new();
        let bystander = second.spawn(C::<0>(1));
        assert_eq!(bystander, first_target, "the same id in both worlds");
        let second_target = second.spawn(C::<0>(2));
        second.insert_resource(Target(second_target));
        second.insert_resource(Source(ledger.clone()));
        schedule.run(&mut second).unwrap();
        assert!(schedule.command_errors().is_empty());
        assert_eq!(
            second.get::<Marked>(bystander).ok(),
            None,
            "threshold {threshold}"
        );
        assert_eq!(
            second.get::<Marked>(second_target),
            Ok(&Marked("mark_target"))
        );
        assert_eq!(
            second.query::<&Tracked>().iter().count(),
            1,
            "one spawn, this run's"
        );
        drop(second);
        drop(first);
        ledger.assert_all_dropped();
    }
}

/// The ids systems' spawns got, by the name of their value.
#[derive(Default)]
struct Spawned(std::sync::Mutex<Vec<(&'static str, Entity)>>);

impl Spawned {
    fn id(&self, name: &str) -> Entity {
        let ids = self.0.lock().unwrap();
        ids.iter().find(|(n, _)| *n == name).expect("spawned").1
    }
}

/// A command that panics at the end of a stage: the commands before it applied and stay, and
/// every spawn that did not apply (the rest of its buffer, and the buffers of the systems after
/// it) leaves no entity behind, alive and empty, as a panicking system leaves none.
#[test]
fn a_panicking_command_leaves_no_entity_of_a_spawn_that_did_not_apply() {
    struct Source(Ledger);
    #[derive(Component)]
    struct Named(
        &'static str,
        #[allow(dead_code, reason = "held for its drop only")] Token,
    );
    fn spawn(commands: &mut Commands, source: &Source, spawned: &Spawned, name: &'static str) {
        let e = commands.spawn(Named(name, source.0.token()));
        spawned.0.lock().unwrap().push((name, e));
    }
    fn first(
        mut commands: Commands,
        source: Res<Source>,
        spawned: Res<Spawned>,
        explode: Res<Explode>,
    ) {
        spawn(&mut commands, &source, &spawned, "before");
        if explode.0 {
            commands.add(|_| panic!("command boom"));
        }
        spawn(&mut commands, &source, &spawned, "after");
    }
    fn second(mut commands: Commands, source: Res<Source>, spawned: Res<Spawned>) {
        spawn(&mut commands, &source, &spawned, "later system");
    }
    for threshold in [usize::MAX, 0] {
        let ledger = Ledger::default();
        let mut world = World::new();
        world.insert_resource(Source(ledger.clone()));
        world.insert_resource(Spawned::default());
        world.insert_resource(Explode(true));
        world.spawn_batch((0..3u64).map(C::<0>));
        let mut schedule = Schedule::new();
        schedule.set_parallel_threshold(threshold);
        schedule.add_system(Stage::Update, first).unwrap();
        schedule.add_system(Stage::Update, second).unwrap();

        let caught =
            std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| schedule.run(&mut world)));
        let payload = caught.expect_err("the command panics");
        assert_eq!(payload.downcast_ref::<&str>(), Some(&"command boom"));
        let spawned = world.resource::<Spawned>().unwrap();
        let (before, after, later) = (
            spawned.id("before"),
            spawned.id("after"),
            spawned.id("later system"),
        );
        assert_eq!(
            world.len(),
            4,
            "threshold {threshold}: three, and the spawn that applied"
        );
        assert_eq!(world.get::<Named>(before).map(|n| n.0), Ok("before"));
        for unapplied in [after, later] {
            assert!(
                !world.is_alive(unapplied),
                "threshold {threshold}: {unapplied:?}"
            );
        }
        assert_eq!(
            ledger.live(),
            1,
            "the spawns that did not apply dropped their values"
        );
        ledger.assert_no_errors();

        world.resource_mut::<Explode>().unwrap().0 = false;
        schedule.run(&mut world).unwrap();
        assert_eq!(world.len(), 7);
        assert_eq!(world.query::<&Named>().iter().count(), 4);
        drop(world);
        ledger.assert_all_dropped();
    }
}
