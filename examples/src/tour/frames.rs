//! Chapters: systems in a `Schedule` that talk through an event, and a
//! `Changed<Health>` filter that sees exactly what was written.

use ecs_core::prelude::*;

use super::components::{Health, Hit, Name, Poisoned, Transcript};
use super::page::Page;

/// Each poisoned entity takes a hit a turn until the poison runs out.
fn poison(
    mut poisoned: Query<(Entity, &mut Poisoned)>,
    mut hits: EventWriter<Hit>,
    mut commands: Commands,
    mut transcript: ResMut<Transcript>,
) {
    for (target, poison) in poisoned.iter_mut() {
        let hit = Hit { target, damage: 1 };
        transcript.0.push(format!("poison sent {hit:?}"));
        hits.send(hit);
        poison.turns -= 1;
        if poison.turns == 0 {
            commands.remove::<Poisoned>(target);
        }
    }
}

/// Hits reduce health.
fn take_hits(
    mut hits: EventReader<Hit>,
    mut targets: Query<(&Name, &mut Health)>,
    mut transcript: ResMut<Transcript>,
) {
    for hit in hits.read() {
        if let Ok((name, mut health)) = targets.get_mut(hit.target) {
            let before = health.0;
            health.0 -= hit.damage;
            transcript.0.push(format!(
                "take_hits read it: {} ({}) health {before} -> {}",
                name.0, hit.target, health.0
            ));
        }
    }
}

/// Lists the entities whose health was written since this system last ran.
fn report(
    changed: Query<(Entity, &Name, &Health), Changed<Health>>,
    mut transcript: ResMut<Transcript>,
) {
    let mut seen: Vec<(Entity, &str, i32)> =
        changed.iter().map(|(e, n, h)| (e, n.0, h.0)).collect();
    seen.sort_unstable_by_key(|&(e, ..)| e);
    let seen: Vec<String> = seen
        .iter()
        .map(|(e, name, health)| format!("{name} ({e}) {health}"))
        .collect();
    transcript
        .0
        .push(format!("Changed<Health>: {}", seen.join(", ")));
}

/// Runs `frames` frames of `schedule`, showing what the systems wrote.
fn run_frames(
    world: &mut World,
    page: &mut Page,
    schedule: &mut Schedule,
    frames: core::ops::RangeInclusive<u32>,
) -> Result<(), Error> {
    for frame in frames {
        schedule.run(world)?;
        page.say(format!("frame {frame}:"));
        for line in world.resource_mut::<Transcript>()?.0.drain(..) {
            page.show(line);
        }
    }
    Ok(())
}

/// Frame 1 with `poison` and `take_hits`; frames 2 and 3 with `report` too.
pub(super) fn chapters(world: &mut World, page: &mut Page) -> Result<(), Error> {
    page.section("Events between systems");
    page.say(
        "A `Schedule` runs its systems once a frame. `poison` sends a `Hit` for each poisoned",
    );
    page.say(
        "entity through an `EventWriter<Hit>`; `take_hits`, added after it, reads them with an",
    );
    page.say("`EventReader<Hit>` in the same frame.");
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, poison)?;
    schedule.add_system(Stage::Update, take_hits)?;
    run_frames(world, page, &mut schedule, 1..=1)?;

    page.section("Change detection");
    page.say(
        "`Health` is `#[component(track_changes)]`, so `report` can ask for `Changed<Health>`:",
    );
    page.say("the entities whose health was written since its last run. Its first run sees every");
    page.say("health as changed; after that, only what the frame wrote.");
    schedule.add_system(Stage::PostUpdate, report)?;
    run_frames(world, page, &mut schedule, 2..=3)?;
    Ok(())
}
