//! The tour: a quick start that reads like a tutorial. It spawns a handful
//! of entities, moves some with a typed query, changes them through commands and an observer, prints them
//! with `world.inspect`, shows the error a despawned entity's handle gets,
//! and runs a `Schedule` whose systems talk through an event and watch
//! `Changed<Health>`.
//!
//! [`tour`] returns the whole text, so the example prints it and a test reads
//! it.

mod components;
mod despawning;
mod frames;
mod page;
mod querying;
mod reacting;
mod spawning;

use ecs_core::prelude::*;

use components::Transcript;
use page::Page;

/// The entities spawned first, which later chapters refer to.
struct Cast {
    hero: Entity,
    rat: Entity,
    wizard: Entity,
}

/// Runs the tour and returns what it has to say, section by section.
///
/// ```
/// let text = examples::tour::tour()?;
/// assert!(text.starts_with("== 1. Spawning entities =="));
/// assert!(text.contains("    0v1 { Name(\"hero\"), Position { x: 0.0, y: 0.0 }, Health(10) }"));
/// # Ok::<(), ecs_core::Error>(())
/// ```
pub fn tour() -> Result<String, Error> {
    let mut page = Page::default();
    let mut world = World::new();
    world.insert_resource(Transcript::default());

    let cast = spawning::chapter(&mut world, &mut page)?;
    querying::chapter(&mut world, &mut page);
    let bat = reacting::chapter(&mut world, &mut page, &cast)?;

    page.section("Every entity at once");
    page.say("`world.inspect_all()` prints every live entity, one per line:");
    for line in world.inspect_all().to_string().lines() {
        page.show(line);
    }

    despawning::chapter(&mut world, &mut page, bat)?;
    frames::chapters(&mut world, &mut page)?;

    page.section("Where things stand");
    page.say(
        "The poison ran out, so the rat no longer holds `Poisoned`; the hero was never touched:",
    );
    page.show(world.inspect(cast.rat)?);
    page.show(world.inspect(cast.hero)?);
    Ok(page.into_text())
}
