//! Chapter: a despawned entity's handle, reported as an error.

use ecs_core::prelude::*;

use super::components::{Enemy, Health, Name, Position};
use super::page::Page;

/// Despawns the bat, shows what asking for it says, and spawns a goblin
/// into its slot. Returns the goblin.
pub(super) fn chapter(world: &mut World, page: &mut Page, bat: Entity) -> Result<Entity, Error> {
    page.section("A despawned entity");
    page.say("Despawn the bat. Its handle stays dead: every call on it is an error that says why.");
    world.despawn(bat)?;
    page.show(format!(
        "world.get::<Health>({bat}) -> {}",
        describe(world.get::<Health>(bat).map(|h| format!("{h:?}")))
    ));

    page.say(
        "A new entity reuses the slot with the next version, which the old handle does not match:",
    );
    let goblin = world.spawn((
        Name("goblin"),
        Position { x: 4.0, y: 2.0 },
        Health(5),
        Enemy,
    ));
    page.show(world.inspect(goblin)?);
    page.show(format!(
        "world.inspect({bat}) -> {}",
        describe(world.inspect(bat).map(|i| i.to_string()))
    ));
    Ok(goblin)
}

/// What a lookup answered, as the tour prints it.
fn describe(answer: Result<String, Error>) -> String {
    match answer {
        Ok(value) => format!("Ok({value})"),
        Err(error) => format!("error: {error}"),
    }
}
