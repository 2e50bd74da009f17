//! The cast of the tour: a few components, an event and a resource.

use ecs_core::prelude::*;

/// What an entity is called in the tour's text.
#[derive(Component, Debug)]
pub(super) struct Name(pub(super) &'static str);

/// Where an entity stands.
#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub(super) struct Position {
    pub(super) x: f32,
    pub(super) y: f32,
}

/// Hit points. Tracked, so `Changed<Health>` can tell which were written.
#[derive(Component, Debug, PartialEq)]
#[component(track_changes)]
pub(super) struct Health(pub(super) i32);

/// A tag: what the hero attacks.
#[derive(Component, Debug)]
pub(super) struct Enemy;

/// Poison with so many turns left; an observer reacts when it arrives.
#[derive(Component, Debug)]
pub(super) struct Poisoned {
    pub(super) turns: u32,
}

/// The marker the observer of `OnAdd<Poisoned>` inserts.
#[derive(Component, Debug)]
pub(super) struct Glowing;

/// An event: one entity hits another.
#[derive(Debug)]
pub(super) struct Hit {
    pub(super) target: Entity,
    pub(super) damage: i32,
}

/// Lines that observers and systems write during the tour, for the page.
#[derive(Debug, Default)]
pub(super) struct Transcript(pub(super) Vec<String>);
