//! Events: `world.send`, `EventWriter` and `EventReader` in schedules. Each
//! reader sees each event once, in send order; events are kept by the rule of
//! the `event` module, never cloned, and parallel frames read what
//! single-threaded ones do.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use ecs_core::event::EventCursor;
use ecs_core::prelude::*;
use ecs_core::system::ParamItem;

#[derive(Component)]
struct Enemy;
#[derive(Component, Debug, PartialEq)]
struct Health(i32);

/// A hit on an entity.
struct Hit {
    target: Entity,
    damage: i32,
}

fn shooter(mut hits: EventWriter<Hit>, targets: Query<Entity, With<Enemy>>) {
    for t in targets.iter() {
        hits.send(Hit {
            target: t,
            damage: 1,
        });
    }
}

fn damage(mut hits: EventReader<Hit>, mut health: Query<&mut Health>) {
    for hit in hits.read() {
        if let Ok(h) = health.get_mut(hit.target) {
            h.0 -= hit.damage;
        }
    }
}

#[test]
fn hits_sent_by_one_system_damage_in_another() {
    let mut world = World::new();
    let enemies: Vec<Entity> = (0..3).map(|_| world.spawn((Enemy, Health(10)))).collect();
    let bystander = world.spawn(Health(10));
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, shooter).unwrap();
    schedule.add_system(Stage::Update, damage).unwrap();
    world.send(Hit {
        target: bystander,
        damage: 5,
    });
    schedule.run(&mut world).unwrap();
    for &e in &enemies {
        assert_eq!(world.get::<Health>(e).unwrap(), &Health(9));
    }
    assert_eq!(world.get::<Health>(bystander).unwrap(), &Health(5));
    schedule.run(&mut world).unwrap();
    for &e in &enemies {
        assert_eq!(world.get::<Health>(e).unwrap(), &Health(8));
    }
    assert_eq!(world.get::<Health>(bystander).unwrap(), &Health(5));
}

/// A numbered event.
#[derive(Debug, PartialEq)]
struct Num(u32);

/// What the reader told apart by `N` has read, in order.
#[derive(Default)]
struct Seen<const N: usize>(Vec<u32>);

fn record<const N: usize>(mut nums: EventReader<Num>, mut seen: ResMut<Seen<N>>) {
    seen.0.extend(nums.read().map(|n| n.0));
}

/// Sends the frame number, counting frames in its own state.
fn per_frame(mut nums: EventWriter<Num>, mut frame: Local<u32>) {
    nums.send(Num(*frame));
    *frame += 1;
}

fn seen<const N: usize>(world: &World) -> &[u32] {
    &world.resource::<Seen<N>>().unwrap().0
}

fn with_logs() -> World {
    let mut world = World::new();
    world.insert_resource(Seen::<0>::default());
    world.insert_resource(Seen::<1>::default());
    world
}

#[test]
fn order_within_and_across_systems_is_send_order() {
    let mut world = with_logs();
    let mut schedule = Schedule::new();
    schedule
        .add_system(
            Stage::Update,
            (|mut nums: EventWriter<Num>| {
                nums.send(Num(1));
                nums.send_batch([Num(2), Num(3)]);
            })
            .named("first"),
        )
        .unwrap();
    schedule
        .add_system(Stage::Update, record::<0>.named("reader"))
        .unwrap();
    schedule
        .add_system(
            Stage::Update,
            (|mut nums: EventWriter<Num>| nums.send(Num(4)))
                .named("second")
                .before("reader"),
        )
        .unwrap();
    schedule
        .add_system(
            Stage::PostUpdate,
            (|mut nums: EventWriter<Num>| nums.send(Num(5))).named("post"),
        )
        .unwrap();
    world.send(Num(0));
    schedule.run(&mut world).unwrap();
    assert_eq!(seen::<0>(&world), [0, 1, 2, 3, 4]);
    world.send(Num(6));
    schedule.run(&mut world).unwrap();
    // Last frame's `PostUpdate` event, then `world.send`'s, then this frame's.
    assert_eq!(
        seen::<0>(&world),
        [0, 1, 2, 3, 4, 5, 6, 1, 2, 3, 4],
        "each event once, in send order"
    );
}

#[test]
fn a_reader_before_the_writer_sees_events_next_frame_one_after_the_same_frame() {
    let mut world = with_logs();
    let mut schedule = Schedule::new();
    schedule
        .add_system(Stage::Update, record::<0>.named("early"))
        .unwrap();
    schedule.add_system(Stage::Update, per_frame).unwrap();
    schedule
        .add_system(Stage::Update, record::<1>.named("late"))
        .unwrap();
    for frame in 0..20u32 {
        schedule.run(&mut world).unwrap();
        let all: Vec<u32> = (0..=frame).collect();
        assert_eq!(seen::<1>(&world), all, "the late reader, the same frame");
        assert_eq!(
            seen::<0>(&world),
            &all[..frame as usize],
            "the early reader, next frame"
        );
    }
}

#[test]
fn two_readers_of_one_type_each_see_everything_once_and_run_together() {
    let mut world = with_logs();
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, per_frame).unwrap();
    schedule
        .add_system(Stage::Update, record::<0>.named("a"))
        .unwrap();
    schedule
        .add_system(Stage::Update, record::<1>.named("b"))
        .unwrap();
    let explained = schedule.explain().unwrap();
    let update = explained.stage(Stage::Update).unwrap();
    assert_eq!(update.batches, [vec!["per_frame"], vec!["a", "b"]]);
    assert!(
        explained.to_string().contains(
            "`per_frame` and `a` cannot overlap: both reach the resource `Events<Num>` \
             (one writes, one reads)"
        ),
        "{explained}"
    );
    for _ in 0..10 {
        schedule.run(&mut world).unwrap();
    }
    let all: Vec<u32> = (0..10).collect();
    assert_eq!(seen::<0>(&world), all);
    assert_eq!(seen::<1>(&world), all);
}

#[test]
fn a_reader_added_later_starts_at_the_frame_it_joins() {
    let mut world = with_logs();
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, per_frame).unwrap();
    schedule.run(&mut world).unwrap(); // sends 0
    schedule.run(&mut world).unwrap(); // sends 1
    let stored: Vec<u32> = world.events::<Num>().unwrap().iter().map(|n| n.0).collect();
    assert_eq!(stored, [1], "1 is kept for its next frame, 0 was dropped");
    schedule
        .add_system(Stage::Update, record::<0>.named("late").after("per_frame"))
        .unwrap();
    schedule
        .add_system(
            Stage::Update,
            record::<1>.named("early").before("per_frame"),
        )
        .unwrap();
    world.send(Num(100)); // since the last frame ended: part of the next
    schedule.run(&mut world).unwrap(); // sends 2
    assert_eq!(seen::<0>(&world), [100, 2], "never the older 0 and 1");
    assert_eq!(seen::<1>(&world), [100]);
    schedule.run(&mut world).unwrap(); // sends 3
    assert_eq!(seen::<0>(&world), [100, 2, 3]);
    assert_eq!(seen::<1>(&world), [100, 2]);
}

#[test]
fn unread_events_live_two_frames_when_no_reader_holds_them() {
    let mut world = World::new();
    world.send(Num(0));
    world.update_events();
    world.send(Num(1));
    let events = world.events::<Num>().unwrap();
    assert_eq!(events.iter().map(|n| n.0).collect::<Vec<_>>(), [0, 1]);
    world.update_events(); // 0 has lived through its frame and the next
    let events = world.events::<Num>().unwrap();
    assert_eq!(events.iter().map(|n| n.0).collect::<Vec<_>>(), [1]);
    world.update_events();
    assert!(world.events::<Num>().unwrap().is_empty());
}

#[test]
fn a_reader_that_has_not_run_holds_events_until_it_runs_past_them() {
    let mut world = with_logs();
    // The writer's schedule runs every frame; the reader's every fifth.
    let mut every_frame = Schedule::new();
    every_frame.add_system(Stage::Update, per_frame).unwrap();
    let mut sometimes = Schedule::new();
    sometimes
        .add_system(Stage::Update, record::<0>.named("reader"))
        .unwrap();
    sometimes.run(&mut world).unwrap(); // registers the reader
    let mut sent = 0;
    for round in 1..=4 {
        for _ in 0..5 {
            every_frame.run(&mut world).unwrap();
            sent += 1;
        }
        assert_eq!(
            world.events::<Num>().unwrap().len(),
            5,
            "the reader has not run since they were sent"
        );
        sometimes.run(&mut world).unwrap();
        let all: Vec<u32> = (0..sent).collect();
        assert_eq!(seen::<0>(&world), all, "round {round}: each event once");
        assert!(
            world.events::<Num>().unwrap().is_empty(),
            "run past, and more than two frames old"
        );
    }
    assert_eq!(world.events::<Num>().unwrap().readers(), 1);
    // Without the reader, nothing holds them past two frames.
    sometimes.remove_system("reader").unwrap();
    for _ in 0..5 {
        every_frame.run(&mut world).unwrap();
    }
    let events = world.events::<Num>().unwrap();
    assert_eq!((events.len(), events.readers()), (1, 0));
}

#[test]
fn memory_stays_bounded_over_a_thousand_frames() {
    let mut world = with_logs();
    let mut schedule = Schedule::new();
    schedule
        .add_system(Stage::Update, record::<0>.named("early"))
        .unwrap();
    schedule
        .add_system(Stage::Update, |mut nums: EventWriter<Num>| {
            nums.send_batch((0..3).map(Num));
        })
        .unwrap();
    schedule
        .add_system(Stage::Update, record::<1>.named("late"))
        .unwrap();
    let mut longest = 0;
    for _ in 0..1_000 {
        schedule.run(&mut world).unwrap();
        longest = longest.max(world.events::<Num>().unwrap().len());
    }
    assert!(longest <= 6, "at most two frames of events: {longest}");
    assert_eq!(
        seen::<0>(&world).len(),
        2_997,
        "the last frame's are next frame's"
    );
    assert_eq!(seen::<1>(&world).len(), 3_000);
    assert_eq!(world.events::<Num>().unwrap().frames(), 1_000);
}

#[test]
fn world_send_outside_systems_and_a_cursor_by_hand() {
    let mut world = World::new();
    assert!(world.events::<Num>().is_none());
    let mut cursor = EventCursor::<Num>::new();
    world.send(Num(1));
    world.send_batch([Num(2), Num(3)]);
    let events = world.events::<Num>().unwrap();
    assert_eq!(cursor.len(events), 3);
    let first: Vec<u32> = cursor.read(events).take(2).map(|n| n.0).collect();
    assert_eq!(first, [1, 2]);
    world.update_events();
    world.send(Num(4));
    let events = world.events::<Num>().unwrap();
    let rest: Vec<u32> = cursor.read(events).map(|n| n.0).collect();
    assert_eq!(rest, [3, 4]);
    assert!(cursor.is_empty(events));
    world.update_events();
    world.update_events();
    assert!(world.events::<Num>().unwrap().is_empty());
    assert_eq!(cursor.read(world.events::<Num>().unwrap()).count(), 0);
}

/// An event that cannot be cloned, counting its drops.
struct Token {
    drops: Arc<AtomicUsize>,
    value: u32,
}

impl Drop for Token {
    fn drop(&mut self) {
        self.drops.fetch_add(1, Ordering::SeqCst);
    }
}

#[derive(Default)]
struct TokenSum(u64, u64);

#[test]
fn events_are_never_cloned_and_each_is_dropped_once() {
    let drops = Arc::new(AtomicUsize::new(0));
    let mut world = World::new();
    world.insert_resource(TokenSum::default());
    let mut schedule = Schedule::new();
    let counter = Arc::clone(&drops);
    schedule
        .add_system(Stage::Update, move |mut out: EventWriter<Token>| {
            for value in 0..4 {
                out.send(Token {
                    drops: Arc::clone(&counter),
                    value,
                });
            }
        })
        .unwrap();
    let sum = |mut tokens: EventReader<Token>, mut sum: ResMut<TokenSum>| {
        for token in tokens.read() {
            let token: &Token = token;
            sum.0 += u64::from(token.value);
        }
    };
    schedule.add_system(Stage::Update, sum.named("a")).unwrap();
    schedule
        .add_system(
            Stage::PostUpdate,
            (|mut tokens: EventReader<Token>, mut sum: ResMut<TokenSum>| {
                sum.1 += tokens.read().map(|t| u64::from(t.value)).sum::<u64>();
            })
            .named("b"),
        )
        .unwrap();
    for _ in 0..10 {
        schedule.run(&mut world).unwrap();
    }
    let total = world.resource::<TokenSum>().unwrap();
    assert_eq!((total.0, total.1), (60, 60));
    let stored = world.events::<Token>().unwrap().len();
    assert_eq!(drops.load(Ordering::SeqCst), 40 - stored);
    drop(world);
    assert_eq!(drops.load(Ordering::SeqCst), 40, "each event dropped once");
}

#[test]
fn clear_len_and_is_empty() {
    #[derive(Default)]
    struct Counts(Vec<(usize, bool)>);
    let mut world = World::new();
    world.insert_resource(Counts::default());
    let mut schedule = Schedule::new();
    schedule
        .add_system(
            Stage::Update,
            |mut nums: EventReader<Num>, mut counts: ResMut<Counts>| {
                counts.0.push((nums.len(), nums.is_empty()));
                nums.clear();
                counts.0.push((nums.len(), nums.is_empty()));
                assert_eq!(nums.read().count(), 0);
            },
        )
        .unwrap();
    world.send_batch([Num(1), Num(2)]);
    schedule.run(&mut world).unwrap();
    schedule.run(&mut world).unwrap();
    assert_eq!(
        world.resource::<Counts>().unwrap().0,
        [(2, false), (0, true), (0, true), (0, true)]
    );
}

#[test]
fn a_reader_and_a_writer_of_one_type_in_one_system_clash() {
    fn echo(_: EventReader<Num>, _: EventWriter<Num>) {}
    let mut schedule = Schedule::new();
    let err = schedule.add_system(Stage::Update, echo).unwrap_err();
    assert_eq!(
        err.to_string(),
        "system `echo` cannot take both `EventReader<Num>` and `EventWriter<Num>`: both \
         reach the resource `Events<Num>` and at least one writes it. Merge them into one param"
    );
}

/// Params grouped in a derived struct, and a `System` type: both prepare
/// their event params (no event is sent before the first frame).
#[derive(SystemParam)]
struct Relay<'w> {
    input: EventReader<'w, Num>,
    output: EventWriter<'w, Hit>,
    target: Query<'w, Entity, With<Enemy>>,
}

fn relay(mut relay: Relay) {
    let target = relay.target.iter().next().unwrap();
    for n in relay.input.read() {
        let damage = n.0 as i32;
        relay.output.send(Hit { target, damage });
    }
}

struct Damage;

impl System for Damage {
    type Params = (
        EventReader<'static, Hit>,
        Query<'static, &'static mut Health>,
    );

    fn run(&mut self, (hits, health): ParamItem<'_, Self::Params>) {
        damage(hits, health);
    }
}

#[test]
fn derived_params_and_system_types_prepare_their_events() {
    let mut world = World::new();
    let e = world.spawn((Enemy, Health(100)));
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::PreUpdate, per_frame).unwrap();
    schedule.add_system(Stage::Update, relay).unwrap();
    schedule.add_system(Stage::PostUpdate, Damage).unwrap();
    for _ in 0..5 {
        schedule.run(&mut world).unwrap();
    }
    assert_eq!(world.get::<Health>(e).unwrap(), &Health(100 - 10));
}

#[test]
fn a_panicking_frame_loses_no_event() {
    let mut world = with_logs();
    let mut schedule = Schedule::single_threaded();
    schedule.add_system(Stage::Update, per_frame).unwrap();
    schedule
        .add_system(Stage::PostUpdate, |mut runs: Local<u32>| {
            *runs += 1;
            assert!(*runs != 2, "a bad frame");
        })
        .unwrap();
    schedule.add_system(Stage::Last, record::<0>).unwrap();
    schedule.run(&mut world).unwrap();
    let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        schedule.run(&mut world).unwrap();
    }));
    assert!(caught.is_err());
    assert_eq!(seen::<0>(&world), [0], "the reader did not run");
    schedule.run(&mut world).unwrap();
    assert_eq!(seen::<0>(&world), [0, 1, 2]);
}

#[cfg(feature = "parallel")]
mod parallel {
    use super::*;

    /// Event types told apart by `N`.
    struct Ev<const N: usize>(u64);

    /// Per reader: how many events, their sum, and a hash of their order.
    #[derive(Default, Clone, Copy, Debug, PartialEq)]
    struct Total<const N: usize, const R: usize>(u64, u64, u64);

    fn write<const N: usize>(mut out: EventWriter<Ev<N>>, mut frame: Local<u64>) {
        *frame += 1;
        let count = (*frame * (N as u64 + 3)) % 7;
        out.send_batch((0..count).map(|i| Ev(*frame * 100 + i + N as u64)));
        std::thread::sleep(std::time::Duration::from_micros(50));
    }

    fn read<const N: usize, const R: usize>(
        mut events: EventReader<Ev<N>>,
        mut total: ResMut<Total<N, R>>,
    ) {
        for e in events.read() {
            total.0 += 1;
            total.1 += e.0;
            total.2 = total.2.wrapping_mul(6364136223846793005).wrapping_add(e.0);
        }
    }

    fn schedule(mut schedule: Schedule) -> Schedule {
        schedule.set_parallel_threshold(0);
        // Readers before their writers read next frame, after them the same frame.
        schedule.add_system(Stage::Update, read::<0, 0>).unwrap();
        schedule.add_system(Stage::Update, read::<1, 0>).unwrap();
        schedule.add_system(Stage::Update, read::<2, 0>).unwrap();
        schedule.add_system(Stage::Update, write::<0>).unwrap();
        schedule.add_system(Stage::Update, write::<1>).unwrap();
        schedule.add_system(Stage::Update, write::<2>).unwrap();
        schedule.add_system(Stage::Update, read::<0, 1>).unwrap();
        schedule.add_system(Stage::Update, read::<1, 1>).unwrap();
        schedule.add_system(Stage::Update, read::<2, 1>).unwrap();
        schedule.add_system(Stage::Update, read::<2, 2>).unwrap();
        schedule
    }

    type Totals = [(u64, u64, u64); 8];

    fn totals(world: &World) -> Totals {
        fn t<const N: usize, const R: usize>(world: &World) -> (u64, u64, u64) {
            let t = world.resource::<Total<N, R>>().unwrap();
            (t.0, t.1, t.2)
        }
        [
            t::<0, 0>(world),
            t::<1, 0>(world),
            t::<2, 0>(world),
            t::<0, 1>(world),
            t::<1, 1>(world),
            t::<2, 1>(world),
            t::<2, 2>(world),
            (world.events::<Ev<0>>().unwrap().len() as u64, 0, 0),
        ]
    }

    fn run(schedule: &mut Schedule, frames: usize) -> Totals {
        let mut world = World::new();
        world.insert_resource(Total::<0, 0>::default());
        world.insert_resource(Total::<1, 0>::default());
        world.insert_resource(Total::<2, 0>::default());
        world.insert_resource(Total::<0, 1>::default());
        world.insert_resource(Total::<1, 1>::default());
        world.insert_resource(Total::<2, 1>::default());
        world.insert_resource(Total::<2, 2>::default());
        for _ in 0..frames {
            schedule.run(&mut world).unwrap();
        }
        totals(&world)
    }

    #[test]
    fn parallel_writers_and_readers_read_what_a_single_thread_reads() {
        let mut parallel = schedule(Schedule::new());
        let batches = parallel.explain().unwrap();
        let update = batches.stage(Stage::Update).unwrap();
        assert_eq!(
            update.batches[1].len(),
            3,
            "writers of three types run at once: {batches}"
        );
        let mut single = schedule(Schedule::single_threaded());
        let frames = 300;
        let expected = run(&mut single, frames);
        assert_eq!(run(&mut parallel, frames), expected);
        if rayon::current_num_threads() > 1 {
            assert!(parallel.parallel_batches() >= frames as u64);
        }
        assert_eq!(single.parallel_batches(), 0);
        // The readers after their writer saw every event; the ones before
        // it all but the last frame's.
        assert!(expected[3].0 > expected[0].0);
        assert_eq!(expected[5], expected[6], "two readers of one type agree");
    }
}

/// An event an observer reads.
struct Ping(u32);

/// How many `Ping`s the observer has read, and their sum.
#[derive(Default)]
struct PingsRead(usize, u64);

/// An observer with an `EventReader` runs at no set time: once it stops firing, its reader
/// must not hold events back. Events then live as for a reader outside any schedule (two
/// frames), however many frames pass, and when the observer fires again it reads each event
/// still stored once.
#[test]
fn an_observers_reader_that_stops_firing_holds_no_event_back() {
    let mut world = World::new();
    world.insert_resource(PingsRead::default());
    world.observe(
        |_: OnAdd<Health>, mut pings: EventReader<Ping>, mut read: ResMut<PingsRead>| {
            for ping in pings.read() {
                read.0 += 1;
                read.1 += u64::from(ping.0);
            }
        },
    );
    world.send(Ping(1));
    world.spawn(Health(1));
    assert_eq!(world.resource::<PingsRead>().unwrap().0, 1);
    for frame in 0..50 {
        world.send_batch((0..100).map(|_| Ping(1)));
        world.update_events();
        let held = world.events::<Ping>().unwrap().len();
        assert!(held <= 200, "frame {frame}: {held} events held");
    }
    world.send(Ping(1000));
    world.spawn(Health(2));
    let read = world.resource::<PingsRead>().unwrap();
    assert_eq!(
        (read.0, read.1),
        (1 + 101, 1 + 100 + 1000),
        "the first event, then the last frame's hundred and the new one"
    );
    world.spawn(Health(3));
    assert_eq!(
        world.resource::<PingsRead>().unwrap().0,
        102,
        "each event once"
    );
}
