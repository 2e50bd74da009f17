//! Chapter: spawning entities and looking at what they hold.

use ecs_core::prelude::*;

use super::Cast;
use super::components::{Enemy, Health, Name, Position};
use super::page::Page;

/// Spawns the hero, the rat and the wizard, and prints each.
pub(super) fn chapter(world: &mut World, page: &mut Page) -> Result<Cast, Error> {
    page.section("Spawning entities");
    page.say(
        "An entity is an id and the components spawned with it; `world.inspect(e)` prints them:",
    );
    let hero = world.spawn((Name("hero"), Position { x: 0.0, y: 0.0 }, Health(10)));
    let rat = world.spawn((Name("rat"), Position { x: 3.0, y: 1.0 }, Health(3), Enemy));
    let wizard = world.spawn((Name("wizard"), Position { x: -2.0, y: 4.0 }, Health(7)));
    for entity in [hero, rat, wizard] {
        page.show(world.inspect(entity)?);
    }
    Ok(Cast { hero, rat, wizard })
}
