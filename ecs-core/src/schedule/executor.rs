//! Runs one stage: its batches in order, the systems of a batch at once
//! where their estimated work pays for the hand-off, then its commands.

use core::ops::Range;
use std::panic::{self, AssertUnwindSafe};

use crate::error::{BoxedError, Error};
#[cfg(feature = "parallel")]
use crate::system::SystemAccess;
use crate::system::{RunOutcome, SystemWorld, discard_past_panics, drop_unapplied};
use crate::util::PanicPayload;
#[cfg(feature = "parallel")]
use crate::view::WorldView;
use crate::world::{LaneLayout, ReservationLane, World};

use super::order::StagePlan;
use super::stats::ticks;
use super::{CommandError, SystemSlot};

/// How the schedule wants its stages run.
#[derive(Clone, Copy)]
#[cfg_attr(
    not(feature = "parallel"),
    allow(dead_code, reason = "without threads every batch runs inline")
)]
pub(crate) struct Options {
    pub(crate) parallel: bool,
    /// Entities of estimated work that make a system heavy before it has run.
    pub(crate) threshold: usize,
    /// Ticks of its last run that make a system heavy once it has run, when
    /// the clock is calibrated.
    pub(crate) min_run_ticks: Option<u64>,
    /// Whether systems run on the calling thread are timed this frame.
    pub(crate) timed: bool,
}

/// What running a stage produced besides its effects on the world.
#[derive(Default)]
pub(crate) struct Outcome {
    pub(crate) parallel_batches: u64,
    /// The first system that could not run, and why.
    pub(crate) error: Option<Error>,
    /// The systems that ran and returned an `Err`, with it, in the order
    /// their results were gathered.
    pub(crate) failures: Vec<(String, BoxedError)>,
}

/// What one system's run came to: it ran or was skipped (`true` when it ran
/// and returned an error, which the system keeps), it could not run, or it
/// panicked.
type RunResult = Result<Result<bool, Error>, PanicPayload>;

/// The commands of a stage not applied yet: the batches run since the last
/// sync point, and the reservation numbers no spawn used (ascending).
struct Pending {
    batches: Range<usize>,
    holes: Vec<u32>,
}

impl Pending {
    /// The systems of the pending batches, in plan order: the order their
    /// buffers apply in.
    fn in_order<'p>(&self, plan: &'p StagePlan) -> impl Iterator<Item = usize> + 'p {
        let batches = self.batches.clone();
        plan.order
            .iter()
            .copied()
            .filter(move |&i| batches.contains(&plan.batch_of[i]))
    }
}

/// Runs every batch of `plan` over `systems`, applies their commands in
/// plan order at the end (and before each exclusive system, and each batch
/// the plan marks as following a system that defers), and reports
/// failed commands to `errors` and asked-for removals to `removals`.
///
/// # Panics
/// Resumes the first panic of a system once the stage's pending commands
/// are dropped and its reserved entities despawned, and the panic of a
/// command once the buffers not applied yet are dropped. A panic of the
/// stage's own work (a change tick past its limit) is handled as a
/// system's: no command of the stage is left in a buffer, where the next
/// run would apply it to whatever world it is given.
pub(crate) fn run_stage(
    systems: &mut [SystemSlot],
    plan: &mut StagePlan,
    world: &mut World,
    options: Options,
    errors: &mut Vec<CommandError>,
    removals: &mut Vec<(String, String)>,
) -> Outcome {
    let mut outcome = Outcome::default();
    let mut pending = Pending {
        batches: 0..0,
        holes: Vec::new(),
    };
    let ran = panic::catch_unwind(AssertUnwindSafe(|| {
        run_batches(
            systems,
            plan,
            world,
            options,
            errors,
            removals,
            &mut pending,
            &mut outcome,
        );
    }));
    if let Err(payload) = ran {
        drop_pending(systems, plan, &mut pending, world);
        panic::resume_unwind(payload);
    }
    outcome
}

/// The body of [`run_stage`]: every batch, then the stage's commands. A
/// panic leaves `pending` naming the commands not applied yet.
#[expect(
    clippy::too_many_arguments,
    reason = "the stage's parts, borrowed apart so a panic leaves them to the caller"
)]
fn run_batches(
    systems: &mut [SystemSlot],
    plan: &mut StagePlan,
    world: &mut World,
    options: Options,
    errors: &mut Vec<CommandError>,
    removals: &mut Vec<(String, String)>,
    pending: &mut Pending,
    outcome: &mut Outcome,
) {
    for at in 0..plan.batches.len() {
        let batch = &plan.batches[at];
        let exclusive = batch.len() == 1 && systems[batch[0]].system.access().is_exclusive();
        let panicked = if exclusive {
            // A sync point: the exclusive system sees every change asked for so far.
            apply(systems, plan, pending, world, errors, removals);
            // It defers nothing itself: what follows starts after it.
            pending.batches = at + 1..at + 1;
            let slot = &mut systems[batch[0]];
            let start = ticks();
            let mut this_run = None;
            let result = panic::catch_unwind(AssertUnwindSafe(|| {
                let tick = *this_run.insert(world.advance_change_tick());
                slot.system.run_exclusive(world, slot.last_run.ticks(tick))
            }));
            match (&result, this_run) {
                (Ok(Ok(RunOutcome::Ran)), Some(tick)) => slot.last_run.ran(tick),
                (Ok(Ok(RunOutcome::Failed)), Some(tick)) => {
                    slot.last_run.ran(tick);
                    slot.timing.failed += 1;
                }
                (Ok(Ok(RunOutcome::Skipped)), _) => slot.timing.skipped += 1,
                _ => {}
            }
            slot.timing.record(ticks().saturating_sub(start));
            // Its own `world.commands()` spawns are its world's, not the stage's.
            world.settle_reserved();
            let result = result.map(|ran| ran.map(|outcome| outcome == RunOutcome::Failed));
            note(outcome, slot, result)
        } else {
            if plan.sync_before[at] {
                // A sync point from an ordering: a system of this batch
                // follows one that deferred, and sees what it asked for.
                apply(systems, plan, pending, world, errors, removals);
            }
            pending.batches.end = at + 1;
            let facts = BatchFacts {
                reserving: plan.reserving[at],
                inline_until_timed: &mut plan.inline_until_timed[at],
            };
            run_batch(systems, batch, facts, world, options, pending, outcome)
        };
        if let Some(payload) = panicked {
            panic::resume_unwind(payload);
        }
    }
    apply(systems, plan, pending, world, errors, removals);
}

/// What the plan knows of a batch, read and kept by [`run_batch`].
struct BatchFacts<'p> {
    /// Whether a system of the batch reserves ids.
    reserving: bool,
    /// [`StagePlan::inline_until_timed`] for the batch.
    inline_until_timed: &'p mut bool,
}

/// Runs one batch of systems that do not conflict, and returns the first panic.
fn run_batch(
    systems: &mut [SystemSlot],
    batch: &[usize],
    facts: BatchFacts<'_>,
    world: &mut World,
    options: Options,
    pending: &mut Pending,
    outcome: &mut Outcome,
) -> Option<PanicPayload> {
    // Only systems with `Commands` number spawns; the others take no part
    // (their lanes stay the default one, which numbers nothing). Each gets
    // a block as long as its spawns in its last run.
    let mut layout = LaneLayout {
        base: world.reserved_count(),
        blocks: 0,
        stride: 0,
    };
    if facts.reserving {
        for &i in batch {
            let slot = &mut systems[i];
            if slot.reserves_ids {
                let cap = slot.lane.used();
                slot.lane = ReservationLane::new(layout, layout.stride, layout.blocks, cap);
                layout.stride += 1;
                layout.blocks += cap;
            }
        }
        // The overflow rows start past every block, known only now.
        for &i in batch {
            if systems[i].reserves_ids {
                systems[i].lane.set_overflow(layout);
            }
        }
    }
    let world_ref: &World = world;
    // Until the next timed frame, the times that kept a batch here stand.
    let reuse =
        *facts.inline_until_timed && !options.timed && options.parallel && options.threshold != 0;
    let heavy = if reuse {
        None
    } else {
        let (heavy, from_times) = heavy_systems(systems, batch, world_ref, options);
        *facts.inline_until_timed = heavy.is_none() && from_times && !options.timed;
        heavy
    };
    let first_panic = if let Some(heavy) = heavy {
        outcome.parallel_batches += 1;
        let results = run_parallel(systems, batch, &heavy, world_ref);
        let mut first_panic = None;
        for (&i, result) in batch.iter().zip(results) {
            if let Some(payload) = note(outcome, &mut systems[i], result) {
                first_panic.get_or_insert(payload);
            }
        }
        first_panic
    } else {
        // SAFETY: the stage holds the world exclusively, and `run_inline`
        // runs on this thread alone.
        unsafe { run_inline(systems, batch, world_ref, options.timed, outcome) }
    };
    if layout.stride > 0 {
        // Every lane claims its block and as many overflow rows as the
        // busiest one used; what a lane did not use of them are holes, which
        // the next sync leaves unspent.
        let mut rows = 0;
        for &i in batch {
            if systems[i].reserves_ids {
                rows = rows.max(systems[i].lane.overflow_rows());
            }
        }
        let first_hole = pending.holes.len();
        for &i in batch {
            if !systems[i].reserves_ids {
                continue;
            }
            let lane = &mut systems[i].lane;
            let used = lane.used();
            let claimed = lane.cap() + rows;
            pending
                .holes
                .extend((used..claimed).map(|n| lane.number(n)));
        }
        // Later batches number from past this one, so only this batch's
        // share needs sorting.
        pending.holes[first_hole..].sort_unstable();
        world.claim_reserved(layout.base + layout.blocks + rows * layout.stride);
    }
    first_panic
}

/// Which systems of `batch` to hand to other threads, or `None` to run the
/// whole batch here: only when two or more are heavy enough to pay for it.
/// Also whether that was decided from the systems' last times alone (every
/// one was timed, and the clock is calibrated), which only a timed run
/// changes.
#[cfg(feature = "parallel")]
fn heavy_systems(
    systems: &[SystemSlot],
    batch: &[usize],
    world: &World,
    options: Options,
) -> (Option<Vec<bool>>, bool) {
    if !options.parallel || batch.len() < 2 || rayon::current_num_threads() < 2 {
        return (None, false);
    }
    let view = world.data_view();
    let mut from_times = options.threshold != 0 && options.min_run_ticks.is_some();
    let mut is_heavy = |i: usize| {
        let slot = &systems[i];
        match options.min_run_ticks {
            _ if options.threshold == 0 => true,
            Some(min) if slot.timing.timed > 0 => slot.timing.last >= min,
            _ => {
                from_times = false;
                estimate(slot.system.access(), view) >= options.threshold
            }
        }
    };
    if batch.iter().filter(|&&i| is_heavy(i)).take(2).count() < 2 {
        return (None, from_times);
    }
    (Some(batch.iter().map(|&i| is_heavy(i)).collect()), false)
}

#[cfg(not(feature = "parallel"))]
fn heavy_systems(
    _: &[SystemSlot],
    _: &[usize],
    _: &World,
    _: Options,
) -> (Option<Vec<bool>>, bool) {
    (None, false)
}

/// Runs the heavy systems of `batch` on rayon's pool, all but the first of
/// them handed off, and the rest on this thread, in batch order.
#[cfg(feature = "parallel")]
fn run_parallel(
    systems: &mut [SystemSlot],
    batch: &[usize],
    heavy: &[bool],
    world: &World,
) -> Vec<RunResult> {
    let mut slots: Vec<Option<&mut SystemSlot>> = systems.iter_mut().map(Some).collect();
    let mut jobs: Vec<(&mut SystemSlot, Option<RunResult>)> = batch
        .iter()
        .map(|&i| (slots[i].take().expect("a batch names a system once"), None))
        .collect();
    let first_heavy = heavy.iter().position(|&h| h);
    rayon::scope(|scope| {
        let mut here = Vec::new();
        for (at, job) in jobs.iter_mut().enumerate() {
            if heavy[at] && Some(at) != first_heavy {
                scope.spawn(move |_| {
                    // SAFETY: the systems of a batch do not conflict, and the
                    // stage holds the world exclusively until the scope ends.
                    job.1 = Some(unsafe { run_one(job.0, world) });
                });
            } else {
                here.push(job);
            }
        }
        for job in here {
            // SAFETY: this system runs here while the handed-off ones run on
            // the pool; the systems of a batch do not conflict, and the stage
            // holds the world exclusively until the scope ends.
            job.1 = Some(unsafe { run_one(job.0, world) });
        }
    });
    jobs.into_iter()
        .map(|(_, result)| result.expect("every job ran"))
        .collect()
}

#[cfg(not(feature = "parallel"))]
fn run_parallel(_: &mut [SystemSlot], _: &[usize], _: &[bool], _: &World) -> Vec<RunResult> {
    unreachable!("without the `parallel` feature no batch is heavy")
}

/// A system's estimated work: the entities its queries drive, summed.
#[cfg(feature = "parallel")]
fn estimate(access: &SystemAccess, view: WorldView<'_>) -> usize {
    access
        .required_per_query()
        .map(|required| {
            required
                .iter()
                .map(|&type_id| view.storage_len(type_id))
                .min()
                .unwrap_or_else(|| view.entities().len())
        })
        .sum()
}

/// Runs one system, timing it and catching its panic.
///
/// # Safety
/// No system whose access conflicts with this one's runs meanwhile, and the
/// caller holds the world exclusively while `world` is shared with the batch.
#[cfg(feature = "parallel")]
unsafe fn run_one(slot: &mut SystemSlot, world: &World) -> RunResult {
    let start = ticks();
    // SAFETY: no conflicting system runs meanwhile and the caller holds the
    // world exclusively (this function's contract): `run_caught`'s contract.
    let result = unsafe { run_caught(slot, world) };
    slot.timing.record(ticks().saturating_sub(start));
    result
}

/// Runs one system, catching its panic.
///
/// # Safety
/// No system whose access conflicts with this one's runs meanwhile, and the
/// caller holds the world exclusively while `world` is shared with the batch.
#[cfg(feature = "parallel")]
unsafe fn run_caught(slot: &mut SystemSlot, world: &World) -> RunResult {
    panic::catch_unwind(AssertUnwindSafe(|| {
        // The tick is taken inside the guard: past the counter's limit
        // taking it panics, and that panic is this run's like any other.
        // Each system of a batch takes a tick of its own; those running at
        // once touch no common data, so their order among themselves is moot.
        let tick = world.advance_change_tick();
        // SAFETY: no conflicting system runs meanwhile and the caller holds
        // the world exclusively (this function's contract): `run_at`'s.
        unsafe { run_at(slot, world, tick) }
    }))
}

/// Runs the systems of `batch` one after another on this thread, under one
/// unwind guard: a panicking system ends its own run, and the guard is set
/// again for the systems after it. Counts every run, and times them when
/// `timed`; keeps the first error in `outcome` and returns the first panic.
///
/// # Safety
/// The caller holds the world exclusively while `world` is shared with the
/// batch, and nothing else runs meanwhile.
unsafe fn run_inline(
    systems: &mut [SystemSlot],
    batch: &[usize],
    world: &World,
    timed: bool,
    outcome: &mut Outcome,
) -> Option<PanicPayload> {
    let mut first_panic = None;
    // The position in `batch` of the next system to start.
    let mut next = 0;
    // One counter reading per system: each run ends where the next starts.
    let mut start = if timed { ticks() } else { 0 };
    let mut finish = |slot: &mut SystemSlot| {
        if timed {
            let end = ticks();
            slot.timing.record(end.saturating_sub(start));
            start = end;
        } else {
            slot.timing.count();
        }
    };
    while next < batch.len() {
        let ran = panic::catch_unwind(AssertUnwindSafe(|| {
            while let Some(&i) = batch.get(next) {
                next += 1;
                let slot = &mut systems[i];
                // Taken inside the guard, as past the counter's limit it
                // panics: that panic is this run's. No other thread advances
                // the clock while systems run here.
                let tick = world.advance_change_tick_alone();
                // SAFETY: one system at a time, on a world the caller holds
                // exclusively with nothing else running (this function's
                // contract): `run_at`'s.
                let result = unsafe { run_at(slot, world, tick) };
                finish(slot);
                match result {
                    Ok(false) => {}
                    Ok(true) => note_failure(outcome, slot),
                    Err(error) => note_error(outcome, &slot.name, error),
                }
            }
        }));
        if let Err(payload) = ran {
            // The system that panicked is the last one started.
            finish(&mut systems[batch[next - 1]]);
            first_panic.get_or_insert(payload);
        }
    }
    first_panic
}

/// Runs one system at the change tick `tick`, and moves its horizon there
/// when it ran.
///
/// # Safety
/// No system whose access conflicts with this one's runs meanwhile, and the
/// caller holds the world exclusively while `world` is shared with the batch.
#[inline(always)]
unsafe fn run_at(slot: &mut SystemSlot, world: &World, tick: u64) -> Result<bool, Error> {
    let SystemSlot {
        system,
        lane,
        last_run,
        timing,
        ..
    } = slot;
    let run_ticks = last_run.ticks(tick);
    // SAFETY: the caller holds the world exclusively and runs no conflicting
    // system meanwhile (this function's contract), which is what
    // `SystemWorld::new` needs, and the world made here serves this run
    // alone; the system came through `Schedule::add_system`, which refuses
    // params that clash: what `run` needs.
    match unsafe { system.run(SystemWorld::new(world, Some(lane), run_ticks)) } {
        Ok(RunOutcome::Ran) => {
            last_run.ran(tick);
            Ok(false)
        }
        // A run that returned an error still ran: its horizon moves.
        Ok(RunOutcome::Failed) => {
            last_run.ran(tick);
            timing.failed += 1;
            Ok(true)
        }
        // A skipped system keeps its horizon: its next run sees every change
        // since its last one.
        Ok(RunOutcome::Skipped) => {
            timing.skipped += 1;
            Ok(false)
        }
        Err(error) => Err(error),
    }
}

/// Keeps the first error of a system that could not run and every error a
/// system returned; hands back a panic.
fn note(outcome: &mut Outcome, slot: &mut SystemSlot, result: RunResult) -> Option<PanicPayload> {
    match result {
        Ok(Ok(false)) => None,
        Ok(Ok(true)) => {
            note_failure(outcome, slot);
            None
        }
        Ok(Err(error)) => {
            note_error(outcome, &slot.name, error);
            None
        }
        Err(payload) => Some(payload),
    }
}

/// Keeps the error the system of `slot` returned from its run: out of line,
/// as runs seldom fail.
#[cold]
#[inline(never)]
fn note_failure(outcome: &mut Outcome, slot: &mut SystemSlot) {
    if let Some(failure) = slot.system.take_failure() {
        outcome.failures.push((slot.name.to_string(), failure));
    }
}

/// Keeps the first error of a system that could not run: out of line, as
/// runs seldom fail.
#[cold]
#[inline(never)]
fn note_error(outcome: &mut Outcome, name: &str, error: Error) {
    outcome.error.get_or_insert_with(|| Error::InSystem {
        system: name.to_owned(),
        error: Box::new(error),
    });
}

/// Makes the stage's reserved ids alive but the holes, and applies the
/// buffers of every system that ran since the last sync, in plan order.
fn apply(
    systems: &mut [SystemSlot],
    plan: &StagePlan,
    pending: &mut Pending,
    world: &mut World,
    errors: &mut Vec<CommandError>,
    removals: &mut Vec<(String, String)>,
) {
    if !plan.defers_any && pending.holes.is_empty() && world.reserved_count() == 0 {
        // No system of the stage defers and no id waits: nothing to apply.
        pending.batches.start = pending.batches.end;
        return;
    }
    // Every id reserved since the last sync point, in reservation-number
    // order; the holes are made nothing, so number `g` is at `g` less the
    // holes below it.
    let holes = core::mem::take(&mut pending.holes);
    let reserved = world.reserved_count() as usize;
    let mut made = Vec::with_capacity(reserved.saturating_sub(holes.len()));
    world.settle_reserved_except(&holes, |_, entity| made.push(entity));
    let mut asked = Vec::new();
    for (applied_before, i) in pending.in_order(plan).enumerate() {
        let SystemSlot {
            name,
            system,
            defers,
            ..
        } = &mut systems[i];
        if !*defers {
            continue;
        }
        let applied = panic::catch_unwind(AssertUnwindSafe(|| {
            system.apply(
                world,
                &mut |error| {
                    errors.push(CommandError {
                        system: name.to_string(),
                        error,
                    });
                },
                &mut asked,
            );
        }));
        if let Err(payload) = applied {
            // A command panicked. The buffers not applied yet (this one's
            // rest included) name ids reserved in this world for this frame:
            // kept, they would apply next frame to whatever entities hold
            // those ids then, in whatever world the schedule runs on. The
            // ids the later systems' spawns reserved are alive and hold
            // nothing: despawned, as a panicking system's are. (This
            // system's buffer despawned its own on the way out.)
            for later in pending.in_order(plan).skip(applied_before + 1) {
                let lane = &mut systems[later].lane;
                for n in 0..lane.used() {
                    // A number a spawn used is never a hole.
                    let number = lane.number(n);
                    let entity = made[number as usize - holes.partition_point(|&h| h < number)];
                    let _ = panic::catch_unwind(AssertUnwindSafe(|| {
                        let _ = world.despawn(entity);
                    }));
                }
            }
            discard_pending(systems, plan, pending, applied_before);
            panic::resume_unwind(payload);
        }
        removals.extend(asked.drain(..).map(|removed| (name.to_string(), removed)));
    }
    pending.batches.start = pending.batches.end;
}

/// Drops, unapplied, the buffers of the pending systems past the first
/// `applied` of them in plan order, and leaves nothing pending.
fn discard_pending(
    systems: &mut [SystemSlot],
    plan: &StagePlan,
    pending: &mut Pending,
    applied: usize,
) {
    for i in pending.in_order(plan).skip(applied) {
        if systems[i].defers {
            discard_past_panics(&mut *systems[i].system);
        }
    }
    pending.batches.start = pending.batches.end;
}

/// After a panic: drops every pending buffer unapplied and despawns every
/// entity the stage reserved, so no half-applied stage and no id that
/// names an entity nobody spawned is left behind.
fn drop_pending(
    systems: &mut [SystemSlot],
    plan: &StagePlan,
    pending: &mut Pending,
    world: &mut World,
) {
    let mut slots: Vec<Option<&mut SystemSlot>> = systems.iter_mut().map(Some).collect();
    let stage = pending
        .in_order(plan)
        .filter_map(|i| slots[i].take())
        .filter(|slot| slot.defers)
        .map(|slot| &mut *slot.system);
    drop_unapplied(stage, world, &pending.holes);
    pending.holes.clear();
    pending.batches.start = pending.batches.end;
}

#[cfg(test)]
mod tests {
    use crate::change::RunTicks;
    use crate::prelude::*;
    use crate::system::{AnySystem, IntoSystem, SystemWorld};
    use crate::world::{LaneLayout, ReservationLane};

    #[derive(Component)]
    struct Health(u64);
    #[derive(Component)]
    struct Boss;

    /// Runs `systems` as one batch, at once on their own threads with their
    /// own reservation lanes, the way `run_batch` and `run_parallel` do, then
    /// applies their commands. Std threads stand in for rayon's pool so that
    /// miri's Stacked Borrows can check this (it rejects crossbeam-epoch,
    /// which the pool uses).
    fn run_at_once(world: &mut World, systems: Vec<Box<dyn AnySystem>>) {
        for (i, a) in systems.iter().enumerate() {
            for b in &systems[i + 1..] {
                assert!(a.access().conflict_with(b.access()).is_none());
            }
        }
        let layout = LaneLayout {
            base: world.reserved_count(),
            blocks: 0,
            stride: systems.len() as u32,
        };
        let mut jobs: Vec<_> = systems
            .into_iter()
            .zip(0..)
            .map(|(system, index)| (system, ReservationLane::new(layout, index, 0, 0)))
            .collect();
        let shared: &World = world;
        std::thread::scope(|scope| {
            for (system, lane) in &mut jobs {
                let lane = &*lane;
                // SAFETY: no two of the systems conflict (checked above), and
                // the world is borrowed exclusively for the scope.
                scope.spawn(move || unsafe {
                    let ticks = RunTicks {
                        last_run: 0,
                        this_run: shared.advance_change_tick(),
                    };
                    system
                        .run(SystemWorld::new(shared, Some(lane), ticks))
                        .unwrap();
                });
            }
        });
        for (system, _) in &mut jobs {
            system.apply(world, &mut |error| panic!("{error}"), &mut Vec::new());
        }
    }

    /// Systems of one batch that reach one storage for disjoint entities
    /// build their columns at the same time: taking the data pointer must not
    /// go through a `&mut` to the storage's data vector, which would race
    /// with the other system's (a data race under Stacked Borrows).
    #[test]
    fn disjoint_users_of_one_storage_build_their_columns_at_once() {
        let mut world = World::new();
        let boss = world.spawn((Health(0), Boss));
        let minion = world.spawn(Health(0));
        let bosses = |mut q: Query<&mut Health, With<Boss>>| q.for_each(|h| h.0 += 1);
        let some_bosses = |mut q: Query<Option<&mut Health>, With<Boss>>| {
            q.iter_mut().flatten().for_each(|h| h.0 += 100);
        };
        let minions = |mut q: Query<&mut Health, Without<Boss>>| q.for_each(|h| h.0 += 10);
        let read_bosses = |q: Query<&Health, With<Boss>>| assert_eq!(q.iter().count(), 1);
        let batches = [
            [bosses.into_config().system, minions.into_config().system],
            [
                read_bosses.into_config().system,
                minions.into_config().system,
            ],
            [
                some_bosses.into_config().system,
                minions.into_config().system,
            ],
        ];
        for batch in batches {
            run_at_once(&mut world, batch.into());
        }
        assert_eq!(world.get::<Health>(boss).unwrap().0, 101);
        assert_eq!(world.get::<Health>(minion).unwrap().0, 30);
    }

    /// Systems that spawn through commands run beside one that reads the
    /// whole world: reserving ids only touches atomics, and every spawn gets
    /// its own id.
    #[test]
    fn spawners_and_a_world_reader_at_once() {
        let mut world = World::new();
        let gone = world.spawn(());
        world.spawn(Health(1));
        world.despawn(gone).unwrap();
        let spawn = |mut commands: Commands| {
            for i in 0..2 {
                commands.spawn(Health(i));
            }
        };
        let read = |world: &World| {
            assert_eq!(world.len(), 1, "reservations are not alive yet");
            assert_eq!(world.query_ref::<&Health>().iter().count(), 1);
        };
        run_at_once(
            &mut world,
            vec![
                spawn.into_config().system,
                read.into_config().system,
                spawn.into_config().system,
            ],
        );
        let mut ids: Vec<Entity> = world
            .query::<(Entity, &Health)>()
            .iter()
            .map(|(e, _)| e)
            .collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 5);
    }
}
