//! The tour says what the world does: the exact inspect lines, the error a
//! despawned handle gets, the observer's reaction, the event between two
//! systems, and `Changed<Health>` picking up exactly the entity written.

use examples::tour::tour;

fn lines() -> Vec<String> {
    tour()
        .expect("the tour runs")
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Panics unless `text` holds `expected` as whole lines, in that order, one
/// right after the other.
fn assert_block(text: &[String], expected: &[&str]) {
    let found = text
        .windows(expected.len())
        .any(|window| window.iter().zip(expected).all(|(line, want)| line == want));
    assert!(
        found,
        "missing block:\n{}\n--- in ---\n{}",
        expected.join("\n"),
        text.join("\n")
    );
}

#[test]
fn sections_come_in_tutorial_order() {
    let headers: Vec<String> = lines()
        .into_iter()
        .filter(|l| l.starts_with("== "))
        .collect();
    assert_eq!(
        headers,
        [
            "== 1. Spawning entities ==",
            "== 2. Queries ==",
            "== 3. Commands and an observer ==",
            "== 4. Every entity at once ==",
            "== 5. A despawned entity ==",
            "== 6. Events between systems ==",
            "== 7. Change detection ==",
            "== 8. Where things stand ==",
        ]
    );
}

#[test]
fn inspect_prints_what_each_entity_holds() {
    let text = lines();
    assert_block(
        &text,
        &[
            r#"    0v1 { Name("hero"), Position { x: 0.0, y: 0.0 }, Health(10) }"#,
            r#"    1v1 { Name("rat"), Position { x: 3.0, y: 1.0 }, Health(3), Enemy }"#,
            r#"    2v1 { Name("wizard"), Position { x: -2.0, y: 4.0 }, Health(7) }"#,
        ],
    );
    // After the query moved the rat, the commands and the observer.
    assert_block(
        &text,
        &[
            "`world.inspect_all()` prints every live entity, one per line:",
            r#"    0v1 { Name("hero"), Position { x: 0.0, y: 0.0 }, Health(10) }"#,
            r#"    1v1 { Name("rat"), Position { x: 4.0, y: 1.0 }, Health(3), Enemy, Poisoned { turns: 3 }, Glowing }"#,
            r#"    2v1 { Name("wizard"), Position { x: 1.0, y: 1.0 }, Health(7) }"#,
            r#"    3v1 { Name("bat"), Health(2), Enemy }"#,
            "",
        ],
    );
}

#[test]
fn the_observer_reacts_to_the_poison_the_commands_brought() {
    assert_block(
        &lines(),
        &[
            "    queued 3 commands: poison the rat, move the wizard, spawn a bat (its id, 3v1, is known at once)",
            "    observer: rat (1v1) got Poisoned, so it glows",
        ],
    );
}

#[test]
fn a_despawned_handle_reads_as_an_error_even_after_its_slot_is_reused() {
    assert_block(
        &lines(),
        &[
            "    world.get::<Health>(3v1) -> error: entity 3v1 was despawned",
            "A new entity reuses the slot with the next version, which the old handle does not match:",
            r#"    3v2 { Name("goblin"), Position { x: 4.0, y: 2.0 }, Health(5), Enemy }"#,
            "    world.inspect(3v1) -> error: entity 3v1 was despawned",
        ],
    );
}

#[test]
fn an_event_flows_from_one_system_to_the_next_in_the_same_frame() {
    assert_block(
        &lines(),
        &[
            "frame 1:",
            "    poison sent Hit { target: 1v1, damage: 1 }",
            "    take_hits read it: rat (1v1) health 3 -> 2",
            "",
        ],
    );
}

#[test]
fn changed_sees_everything_on_its_first_run_then_exactly_the_written_entity() {
    let text = lines();
    assert_block(
        &text,
        &[
            "frame 2:",
            "    poison sent Hit { target: 1v1, damage: 1 }",
            "    take_hits read it: rat (1v1) health 2 -> 1",
            "    Changed<Health>: hero (0v1) 10, rat (1v1) 1, wizard (2v1) 7, goblin (3v2) 5",
            "frame 3:",
            "    poison sent Hit { target: 1v1, damage: 1 }",
            "    take_hits read it: rat (1v1) health 1 -> 0",
            "    Changed<Health>: rat (1v1) 0",
        ],
    );
    // The poison ran out after three turns and its command removed it.
    assert_eq!(
        text.last().map(String::as_str),
        Some(r#"    0v1 { Name("hero"), Position { x: 0.0, y: 0.0 }, Health(10) }"#)
    );
    assert_block(
        &text,
        &[r#"    1v1 { Name("rat"), Position { x: 4.0, y: 1.0 }, Health(0), Enemy, Glowing }"#],
    );
}

#[test]
fn the_tour_is_the_same_every_run() {
    assert_eq!(tour().unwrap(), tour().unwrap());
}
