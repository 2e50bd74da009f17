//! Queries built and read in one expression: a read-only query's `single`, `get` and `iter`
//! hand out items that borrow the world, not the temporary `Query`, so they can be kept past
//! the statement. Writing queries keep items that borrow the query, except through the
//! consuming `into_single` and `into_iter`. Named queries work as before.
//!
//! The cases that must not compile (a writing query's item kept past `iter_mut`, the world
//! changed while a read-only item lives, a writing query copied) are `compile_fail` doctests
//! on `ReadOnlyQuery` and `Query`.

use ecs_core::prelude::*;
use ecs_core::query::{QueryIter, ReadOnlyQueryData};

#[derive(Component, Debug, PartialEq)]
struct Position(f32);

#[derive(Component, Debug, PartialEq)]
struct Health(i32);

#[derive(Component, Debug)]
struct Player;

#[derive(Query)]
struct Body<'w> {
    pos: &'w Position,
    health: Option<&'w Health>,
}

/// Two players' worth of world: one player, one other entity.
fn world() -> (World, Entity, Entity) {
    let mut world = World::new();
    let other = world.spawn((Position(1.0), Health(5)));
    let player = world.spawn((Position(2.0), Health(9), Player));
    (world, player, other)
}

/// The line from the request, exactly: the item outlives the temporary query.
#[test]
fn single_in_one_expression() -> Result<(), Error> {
    let (mut world, player, _) = world();
    let (e, pos) = world
        .query::<(Entity, &Position)>()
        .with::<Player>()
        .single()?;
    assert_eq!((e, pos), (player, &Position(2.0)));
    Ok(())
}

/// `get`, `iter`, `query_filtered`, `query_ref` and derived read-only structs, one expression each.
#[test]
fn get_and_iter_in_one_expression() -> Result<(), Error> {
    let (mut world, player, other) = world();

    let health = world.query::<&Health>().get(other)?;
    assert_eq!(health, &Health(5));

    let mut all: Vec<&Position> = world.query::<&Position>().iter().collect();
    all.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert_eq!(all, [&Position(1.0), &Position(2.0)]);

    let filtered = world
        .query_filtered::<(Entity, &Health), Without<Player>>()
        .single()?;
    assert_eq!(filtered, (other, &Health(5)));

    let body = world.query::<Body>().with::<Player>().single()?;
    assert_eq!((body.pos, body.health), (&Position(2.0), Some(&Health(9))));

    // Through a shared borrow, items of two one-expression queries and `World::get` coexist.
    let a = world.query_ref::<&Position>().get(player)?;
    let b = world.query_ref::<&Health>().with::<Player>().single()?;
    let c = world.get::<Position>(other)?;
    assert_eq!((a, b, c), (&Position(2.0), &Health(9), &Position(1.0)));
    Ok(())
}

/// A function can return the item of a query it built: the item borrows the world.
#[test]
fn items_outlive_the_query() -> Result<(), Error> {
    fn player_position(world: &mut World) -> Result<&Position, Error> {
        world.query::<&Position>().with::<Player>().single()
    }
    fn positions(world: &World) -> QueryIter<'_, '_, &Position, ()> {
        world.query_ref::<&Position>().iter()
    }

    let (mut world, _, _) = world();
    assert_eq!(player_position(&mut world)?, &Position(2.0));
    assert_eq!(positions(&world).count(), 2);
    Ok(())
}

/// Errors are the ones the inherent methods give.
#[test]
fn errors_are_unchanged() {
    let (mut world, player, other) = world();
    assert!(matches!(
        world.query::<&Position>().single(),
        Err(Error::MultipleMatches { .. })
    ));
    assert!(matches!(
        world
            .query::<&Position>()
            .with::<Health>()
            .without::<Position>()
            .single(),
        Err(Error::NoMatch { .. })
    ));
    let got = world.query::<(&Position, &Player)>().get(player).is_ok();
    assert!(got);
    let err = world.query::<&Player>().get(other).unwrap_err();
    let inherent = {
        let query = world.query::<&mut Player>();
        query.get(other).unwrap_err().to_string()
    };
    assert_eq!(err.to_string(), inherent);
    world.despawn(player).unwrap();
    let dead = world.query::<&Position>().get(player).unwrap_err();
    let inherent = world
        .query::<&mut Position>()
        .get(player)
        .unwrap_err()
        .to_string();
    assert_eq!(dead.to_string(), inherent);
}

/// A named read-only query is used as before, any number of times, and its copies too.
#[test]
fn named_read_only_queries_work_as_before() -> Result<(), Error> {
    let (mut world, player, other) = world();
    let query = world.query::<(Entity, &Position)>();
    assert!(matches!(query.single(), Err(Error::MultipleMatches { .. })));
    let (e, p) = query.get(player)?;
    assert_eq!((e, p), (player, &Position(2.0)));
    assert_eq!(query.iter().count(), 2);
    assert_eq!(query.get(other)?.1, &Position(1.0));
    assert!(query.contains(player) && !query.is_empty());
    let copy = query;
    let items: Vec<_> = query.iter().zip(copy.iter()).collect();
    assert_eq!(items.len(), 2);
    for (a, b) in &items {
        assert_eq!(a, b);
    }
    // `&query` still works, through the inherent methods and `IntoIterator for &Query`.
    let by_ref = &query;
    assert_eq!(by_ref.iter().count(), 2);
    assert_eq!((&query).into_iter().count(), 2);
    assert!(query.with::<Player>().single().is_ok());
    Ok(())
}

/// A named mutable binding of a read-only query still offers `iter_mut`, `get_mut`,
/// `single_mut` and `for_each`, and their items may now sit beside `iter`'s.
#[test]
fn named_read_only_query_beside_its_mut_methods() -> Result<(), Error> {
    let (mut world, player, _) = world();
    let mut query = world.query::<&Health>().with::<Player>();
    let first = query.single()?;
    let again = query.single_mut()?;
    assert_eq!(first, again);
    assert_eq!(query.get_mut(player)?, &Health(9));
    let mut seen = 0;
    query.for_each(|_| seen += 1);
    assert_eq!((seen, query.iter_mut().count()), (1, 1));
    assert_eq!(first, &Health(9));
    Ok(())
}

/// Queries that write are unaffected: `iter_mut`, `single_mut`, `get_mut`, the inherent
/// `single`/`get`/`iter` on a named query, and the consuming `into_single`.
#[test]
fn writing_queries_are_unaffected() -> Result<(), Error> {
    let (mut world, player, other) = world();
    {
        let mut query = world.query::<(&mut Health, &Position)>();
        for (h, p) in query.iter_mut() {
            h.0 += p.0 as i32;
        }
        query.get_mut(other)?.0.0 += 100;
        assert_eq!(query.get(other)?.0, &Health(106));
        assert_eq!(query.iter().count(), 2);
    }
    world
        .query::<&mut Health>()
        .with::<Player>()
        .single_mut()?
        .0 += 1;

    let health = world
        .query::<&mut Health>()
        .with::<Player>()
        .into_single()?;
    health.0 *= 2;
    assert_eq!(world.get::<Health>(player)?, &Health(24));

    let err = world.query::<&mut Health>().into_single().unwrap_err();
    assert!(matches!(err, Error::MultipleMatches { .. }));
    Ok(())
}

/// `into_single` on a read-only query is the same as `single`.
#[test]
fn into_single_on_a_read_only_query() -> Result<(), Error> {
    let (mut world, player, _) = world();
    let (e, _) = world.query::<(Entity, &Player)>().into_single()?;
    assert_eq!(e, player);
    Ok(())
}

/// Generic code bounded on `ReadOnlyQueryData` reaches the by-value methods too.
#[test]
fn generic_read_only_queries() -> Result<(), Error> {
    fn only<'w, Q: ReadOnlyQueryData>(
        query: Query<'w, Q, With<Player>>,
    ) -> Result<Q::Item<'w>, Error> {
        let first = query.single()?;
        // The query is `Copy`: still usable after `single` took it by value.
        assert_eq!(query.iter().count(), 1);
        Ok(first)
    }

    let (mut world, _, _) = world();
    let pos = only(world.query_filtered::<&Position, With<Player>>())?;
    assert_eq!(pos, &Position(2.0));
    Ok(())
}
