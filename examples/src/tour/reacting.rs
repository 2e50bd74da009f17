//! Chapter: commands that queue changes, and an observer that reacts to one.

use ecs_core::prelude::*;

use super::Cast;
use super::components::{Enemy, Glowing, Health, Name, Poisoned, Position, Transcript};
use super::page::Page;

/// Registers the `OnAdd<Poisoned>` observer, then poisons the rat, moves the
/// wizard and spawns a bat through commands. Returns the bat.
pub(super) fn chapter(world: &mut World, page: &mut Page, cast: &Cast) -> Result<Entity, Error> {
    page.section("Commands and an observer");
    page.say("An observer runs when a component arrives. This one follows `OnAdd<Poisoned>`:");
    page.say("it writes a line and inserts the `Glowing` marker through its own commands.");
    world.observe(
        |trigger: OnAdd<Poisoned>,
         names: Query<&Name>,
         mut commands: Commands,
         mut transcript: ResMut<Transcript>| {
            let poisoned = trigger.entity();
            let name = names.get(poisoned).map_or("someone", |n| n.0);
            transcript.0.push(format!(
                "observer: {name} ({poisoned}) got Poisoned, so it glows"
            ));
            commands.insert(poisoned, Glowing);
        },
    );

    page.say("Commands queue changes; `world.flush()` applies them in order.");
    let mut commands = world.commands();
    commands.insert(cast.rat, Poisoned { turns: 3 });
    commands.insert(cast.wizard, Position { x: 1.0, y: 1.0 });
    let bat = commands.spawn((Name("bat"), Enemy, Health(2)));
    page.show(format!(
        "queued {} commands: poison the rat, move the wizard, spawn a bat (its id, {bat}, is known at once)",
        commands.len()
    ));
    if let Some(error) = world.flush().into_iter().next() {
        return Err(error);
    }
    for line in world.resource_mut::<Transcript>()?.0.drain(..) {
        page.show(line);
    }
    for entity in [cast.rat, cast.wizard, bat] {
        page.show(world.inspect(entity)?);
    }
    Ok(bat)
}
