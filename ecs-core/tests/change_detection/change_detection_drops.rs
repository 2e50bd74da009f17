//! Drop accounting for tracked types: keeping ticks beside the values changes
//! nothing about drops. Every value is dropped exactly once on every path
//! (replace, remove, despawn, clear, world drop, a write through `Mut`,
//! `set_if_neq`, commands), with a group reordering the storages meanwhile.

use ecs_core::prelude::*;
use ecs_testkit::ledger::{Ledger, Token};

#[derive(Component, Debug, PartialEq)]
#[component(track_changes)]
struct Tracked(Token);

#[derive(Component, Debug, PartialEq)]
#[component(track_changes)]
struct Other(Token);

#[test]
fn every_tracked_value_is_dropped_exactly_once_on_every_path() {
    let ledger = Ledger::default();
    {
        let mut world = World::new();
        world.group::<(Tracked, Other)>().unwrap();
        let es: Vec<Entity> = (0..6)
            .map(|_| world.spawn((Tracked(ledger.token()), Other(ledger.token()))))
            .collect();
        let batch = world.spawn_batch((0..4).map(|_| Tracked(ledger.token())));

        // Replace, through insert and through Mut.
        world.insert(es[0], Tracked(ledger.token())).unwrap();
        *world.get_mut::<Tracked>(es[1]).unwrap() = Tracked(ledger.token());
        for mut t in world.query::<&mut Tracked>().iter_mut() {
            let fresh = Tracked(ledger.token());
            if t.0.id() % 3 == 0 {
                t.set_if_neq(fresh); // written: the old value drops
            }
        }
        // Remove (unpacks the group), despawn, commands.
        drop(world.remove::<Other>(es[2]).unwrap());
        world.despawn(es[3]).unwrap();
        world.commands().despawn(batch[0]);
        world.commands().insert(batch[1], Other(ledger.token()));
        world.flush();
        ledger.assert_no_errors();
        assert_eq!(world.query::<&Tracked>().iter().count(), 8);

        // Clear, then more values left for the world's own drop.
        world.clear();
        ledger.assert_no_errors();
        assert_eq!(ledger.live(), 0, "clear dropped everything");
        world.spawn((Tracked(ledger.token()), Other(ledger.token())));
        world.spawn(Tracked(ledger.token()));
    }
    ledger.assert_no_errors();
    ledger.assert_all_dropped();
}
