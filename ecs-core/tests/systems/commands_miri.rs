//! Deferred commands, small enough for miri: every command is written in
//! place into one byte buffer (values of any size and alignment, unaligned
//! behind their headers) and moved out once to run or to drop, so these
//! tests count drops and check values through every path a command takes:
//! applied, failed, dropped after a panicking command, abandoned, appended
//! to another queue, and left in a world that drops.
//!
//! ```text
//! cargo +nightly miri test -p ecs-core --test systems -- commands_miri::
//! ```

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use ecs_core::prelude::*;

/// Counts its drops in a shared counter.
#[derive(Component)]
struct Counted(Arc<AtomicUsize>, String);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

#[derive(Component, Debug, PartialEq)]
struct Byte(u8);

#[derive(Component, Debug, PartialEq)]
#[repr(align(16))]
struct Wide(u128);

#[derive(Component, Debug, PartialEq)]
struct Tag;

fn counted(drops: &Arc<AtomicUsize>, name: &str) -> Counted {
    Counted(Arc::clone(drops), name.to_owned())
}

#[test]
fn values_of_every_alignment_arrive_whole_in_recording_order() {
    let mut world = World::new();
    let drops = Arc::new(AtomicUsize::new(0));
    let mut commands = world.commands();
    let a = commands.spawn((Byte(7), Wide(u128::MAX - 3)));
    let b = commands.spawn(counted(&drops, "b"));
    commands.insert(a, Tag);
    commands.insert_bundle(b, (Byte(1), Wide(5)));
    commands.remove::<Byte>(b);
    let c = commands.spawn(Tag);
    commands.despawn(c);
    commands.add(move |world: &mut World| {
        world.get_mut::<Wide>(a).unwrap().0 += 1;
    });
    assert_eq!(commands.len(), 8);
    assert!(world.flush().is_empty());
    assert_eq!(world.get::<Byte>(a).unwrap(), &Byte(7));
    assert_eq!(world.get::<Wide>(a).unwrap(), &Wide(u128::MAX - 2));
    assert!(world.contains::<Tag>(a));
    assert_eq!(world.get::<Counted>(b).unwrap().1, "b");
    assert!(!world.contains::<Byte>(b));
    assert_eq!(world.get::<Wide>(b).unwrap(), &Wide(5));
    assert!(!world.is_alive(c));
    assert_eq!(drops.load(Ordering::SeqCst), 0);
    drop(world);
    assert_eq!(
        drops.load(Ordering::SeqCst),
        1,
        "dropped once, with the world"
    );
}

#[test]
fn a_failed_command_drops_its_value_and_the_rest_apply() {
    let mut world = World::new();
    let drops = Arc::new(AtomicUsize::new(0));
    let gone = world.spawn(());
    world.despawn(gone).unwrap();
    let mut commands = world.commands();
    commands.insert(gone, counted(&drops, "lost"));
    let kept = commands.spawn(counted(&drops, "kept"));
    let failed = world.flush();
    assert_eq!(failed.len(), 1);
    assert_eq!(drops.load(Ordering::SeqCst), 1, "the failed insert's value");
    assert_eq!(world.get::<Counted>(kept).unwrap().1, "kept");
}

#[test]
fn a_panicking_command_drops_the_rest_once_and_despawns_their_spawns() {
    let mut world = World::new();
    let drops = Arc::new(AtomicUsize::new(0));
    let mut commands = world.commands();
    let before = commands.spawn(counted(&drops, "before"));
    commands.add(|_: &mut World| panic!("a command panics"));
    let after = commands.spawn(counted(&drops, "after"));
    commands.insert(before, counted(&drops, "after, too"));
    let panic = catch_unwind(AssertUnwindSafe(|| world.flush()));
    assert!(panic.is_err());
    assert_eq!(drops.load(Ordering::SeqCst), 2, "both unapplied values");
    assert_eq!(world.get::<Counted>(before).unwrap().1, "before");
    assert!(!world.is_alive(after), "its spawn never applied");
    assert!(world.commands().is_empty());
    // The queue works again afterwards.
    let again = world.commands().spawn(Byte(3));
    assert!(world.flush().is_empty());
    assert_eq!(world.get::<Byte>(again).unwrap(), &Byte(3));
}

#[test]
fn a_panicking_drop_of_one_unapplied_value_drops_the_others() {
    struct Loud(Arc<AtomicUsize>);
    impl Drop for Loud {
        fn drop(&mut self) {
            self.0.fetch_add(1, Ordering::SeqCst);
            panic!("a value panics as it drops");
        }
    }
    let drops = Arc::new(AtomicUsize::new(0));
    let mut world = World::new();
    let mut commands = world.commands();
    commands.add(|_: &mut World| panic!("a command panics"));
    let loud = Loud(Arc::clone(&drops));
    commands.add(move |_: &mut World| drop(loud));
    commands.spawn(counted(&drops, "quiet"));
    let panic = catch_unwind(AssertUnwindSafe(|| world.flush()));
    assert!(panic.is_err());
    assert_eq!(
        drops.load(Ordering::SeqCst),
        2,
        "the loud value and the quiet one"
    );
}

#[test]
fn commands_of_systems_apply_in_system_order_each_frame() {
    #[derive(Default)]
    struct Log(Vec<u8>);
    fn first(mut commands: Commands) {
        commands.spawn(Byte(1));
        commands.add(|world: &mut World| world.resource_mut::<Log>().unwrap().0.push(1));
    }
    fn second(mut commands: Commands, bytes: Query<(Entity, &Byte)>) {
        for (e, _) in bytes.iter() {
            commands.despawn(e);
        }
        commands.add(|world: &mut World| world.resource_mut::<Log>().unwrap().0.push(2));
    }
    let mut world = World::new();
    world.insert_resource(Log::default());
    let mut schedule = Schedule::new();
    // Ordered without a sync point, so both buffers apply at the stage's
    // end: `second` despawns the byte of the frame before.
    schedule
        .add_systems(Stage::Update, (first, second).chain_ignore_deferred())
        .unwrap();
    for frame in 1..=3 {
        schedule.run(&mut world).unwrap();
        assert_eq!(world.query::<&Byte>().iter().count(), 1, "frame {frame}");
    }
    assert_eq!(world.resource::<Log>().unwrap().0, [1, 2, 1, 2, 1, 2]);
}

#[test]
fn commands_left_in_a_dropped_world_drop_their_values() {
    let drops = Arc::new(AtomicUsize::new(0));
    let mut world = World::new();
    let mut commands = world.commands();
    commands.spawn(counted(&drops, "never applied"));
    commands.add({
        let value = counted(&drops, "captured");
        move |_: &mut World| drop(value)
    });
    drop(world);
    assert_eq!(drops.load(Ordering::SeqCst), 2);
}

#[test]
fn an_observer_panic_abandons_its_commands_and_their_spawns() {
    #[derive(Component)]
    struct Trigger;
    let drops = Arc::new(AtomicUsize::new(0));
    let spawned = Arc::new(std::sync::Mutex::new(None));
    let mut world = World::new();
    let (d, s) = (Arc::clone(&drops), Arc::clone(&spawned));
    world.observe(move |_: OnAdd<Trigger>, mut commands: Commands| {
        *s.lock().unwrap() = Some(commands.spawn(Counted(Arc::clone(&d), "orphan".into())));
        panic!("the observer panics");
    });
    let panic = catch_unwind(AssertUnwindSafe(|| world.spawn(Trigger)));
    assert!(panic.is_err());
    assert_eq!(drops.load(Ordering::SeqCst), 1);
    let orphan = spawned.lock().unwrap().expect("the observer ran");
    assert!(!world.is_alive(orphan));
}
