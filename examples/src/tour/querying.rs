//! Chapter: typed queries, one that writes and one that filters.

use ecs_core::prelude::*;

use super::components::{Enemy, Name, Position};
use super::page::Page;

/// Moves every enemy one step right, then lists who is not an enemy.
pub(super) fn chapter(world: &mut World, page: &mut Page) {
    page.section("Queries");
    page.say("A query names what it fetches and which entities it keeps. Every enemy steps right:");
    world
        .query_filtered::<&mut Position, With<Enemy>>()
        .for_each(|p| p.x += 1.0);
    let mut enemies: Vec<String> = world
        .query_filtered::<(Entity, &Name, &Position), With<Enemy>>()
        .iter()
        .map(|(e, name, p)| format!("{} ({e}) at ({}, {})", name.0, p.x, p.y))
        .collect();
    enemies.sort_unstable();
    for line in enemies {
        page.show(line);
    }
    page.say("and `Without<Enemy>` keeps the others:");
    let mut friends: Vec<&str> = world
        .query_ref::<&Name>()
        .without::<Enemy>()
        .iter()
        .map(|n| n.0)
        .collect();
    friends.sort_unstable();
    page.show(friends.join(", "));
}
