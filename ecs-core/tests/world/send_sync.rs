//! `Send` / `Sync`: what may cross threads, pinned at compile time.
//!
//! - Static assertions (this file fails to compile if one breaks): `World`, `Entity`, `Error`,
//!   `WorldStats`, `ComponentInfo`, `ComponentId`, `EntityRef` are `Send + Sync`; `EntityMut`
//!   is `Send` (and `Sync`, as the `&mut World` it wraps); `Error` boxes into
//!   `Box<dyn Error + Send + Sync>`.
//! - Compile-fail cases (ecs-derive's `tests/compile_fail.rs`, cases in its `tests/ui/send_sync/fail/`): a
//!   non-`Send` or non-`Sync` type cannot become a component even through a hand-written
//!   `impl Component`, cannot be inserted by `insert`, `insert_bundle`, `EntityMut::insert` or
//!   `spawn_batch`, and no thread can read the world while a query or an `EntityMut` borrows it
//!   mutably.
//! - `Query` and `QueryIter` over (`Send + Sync`) components are `Send + Sync`, like the world
//!   they borrow: one read-only query can be shared by scoped threads. (At commit 2ef5585 they
//!   were neither, because `query::Column` holds a `NonNull<T>`; the `Send` / `Sync` impls for
//!   `Column` fixed it, and these assertions keep it fixed.)
//! - Run-time tests move a world to another thread, read one from several threads, and share
//!   one query between threads.

use std::thread;

use ecs_core::diagnostics::WorldStats;
use ecs_core::prelude::*;
use ecs_core::query::QueryIter;
use ecs_core::{ComponentId, ComponentInfo};

const fn assert_send<T: Send>() {}
const fn assert_sync<T: Sync>() {}
const fn assert_send_sync<T: Send + Sync>() {}
const fn assert_copy<T: Copy>() {}

/// Compile-time proof of the auto traits of the public types.
const _: () = {
    assert_send_sync::<World>();
    assert_send_sync::<Entity>();
    assert_copy::<Entity>();
    assert_send_sync::<Option<Entity>>();
    assert_send_sync::<Error>();
    assert_send_sync::<WorldStats>();
    assert_copy::<WorldStats>();
    assert_send_sync::<ComponentInfo>();
    assert_send_sync::<ComponentId>();
    assert_send_sync::<EntityRef<'static>>();
    assert_copy::<EntityRef<'static>>();
    assert_send::<EntityMut<'static>>();
    assert_sync::<EntityMut<'static>>();
    assert_send_sync::<Result<&'static World, Error>>();
    assert_send_sync::<Query<'static, &'static Health>>();
    assert_send_sync::<Query<'static, &'static mut Health, With<Name>>>();
    assert_send_sync::<Query<'static, (Entity, Option<&'static mut Health>, &'static Name)>>();
    assert_send_sync::<Query<'static, Entity, (Without<Health>, Or<(With<Name>, With<Health>)>)>>();
    assert_send_sync::<QueryIter<'static, 'static, &'static mut Health, ()>>();
    assert_send_sync::<QueryIter<'static, 'static, (Entity, &'static Name), With<Health>>>();
};

#[derive(Component, Debug, PartialEq)]
struct Health(i32);

#[derive(Component)]
struct Name(String);

/// `Error` works with the usual `Box<dyn Error + Send + Sync + 'static>` error plumbing, and its
/// message survives the trip through another thread.
#[test]
fn errors_box_into_send_sync_trait_objects() {
    let mut world = World::new();
    let e = world.spawn(());
    world.despawn(e).expect("alive");
    let err = world.get::<Health>(e).expect_err("despawned");
    let boxed: Box<dyn std::error::Error + Send + Sync + 'static> = Box::new(err);
    let message = thread::spawn(move || boxed.to_string())
        .join()
        .expect("thread ran");
    assert_eq!(message, "entity 0v1 was despawned");
}

/// A world with non-POD components moves to another thread and back intact, and several threads
/// read one world at once (each building its own read-only query from `&World`), with handles
/// (`EntityRef`) sent between them.
#[test]
fn worlds_move_between_threads_and_are_read_concurrently() {
    let mut world = World::new();
    let ids: Vec<Entity> = (0..1000)
        .map(|i| world.spawn((Health(i), Name(format!("e{i}")))))
        .collect();
    let world = thread::spawn(move || {
        world.query::<&mut Health>().for_each(|h| h.0 += 1);
        world
    })
    .join()
    .expect("thread ran");
    assert_eq!(world.get::<Health>(ids[10]), Ok(&Health(11)));

    let world = &world;
    let sums: Vec<i64> = thread::scope(|s| {
        let workers: Vec<_> = (0..4)
            .map(|t| {
                s.spawn(move || {
                    let q = world.query_ref::<(Entity, &Health, &Name)>();
                    q.iter()
                        .filter(|(e, _, _)| e.index() % 4 == t)
                        .map(|(_, h, n)| {
                            assert_eq!(n.0, format!("e{}", h.0 - 1));
                            i64::from(h.0)
                        })
                        .sum()
                })
            })
            .collect();
        let handle = world.entity(ids[3]).expect("alive");
        let id = s
            .spawn(move || handle.get::<Health>().map(|h| h.0))
            .join()
            .expect("thread ran");
        assert_eq!(id, Ok(4));
        workers
            .into_iter()
            .map(|w| w.join().expect("thread ran"))
            .collect()
    });
    assert_eq!(sums.iter().sum::<i64>(), (1..=1000).sum::<i64>());
}

/// One read-only query is shared by several scoped threads, and a write query is moved into a
/// thread and used there: queries cross threads like the world they borrow.
#[test]
fn queries_cross_threads() {
    let mut world = World::new();
    for i in 0..100 {
        world.spawn((Health(i), Name(format!("e{i}"))));
    }
    {
        let query = world.query_ref::<(&Health, &Name)>();
        let (sum, count) = thread::scope(|s| {
            let sum = s.spawn(|| query.iter().map(|(h, _)| i64::from(h.0)).sum::<i64>());
            let count = s.spawn(|| query.iter().filter(|(_, n)| n.0.starts_with('e')).count());
            (sum.join().expect("ran"), count.join().expect("ran"))
        });
        assert_eq!((sum, count), ((0..100).sum::<i64>(), 100));
    }
    let query = world.query::<&mut Health>();
    thread::scope(|s| {
        s.spawn(move || {
            let mut query = query;
            query.for_each(|h| h.0 *= 2);
        });
    });
    let total: i64 = world
        .query_ref::<&Health>()
        .iter()
        .map(|h| i64::from(h.0))
        .sum();
    assert_eq!(total, 2 * (0..100).sum::<i64>());
}
