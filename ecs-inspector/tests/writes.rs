//! Pause, step, resume, despawn and edit: refused without `allow_writes`,
//! done between frames with it.

mod common;

use std::sync::atomic::Ordering;
use std::time::Instant;

use common::{Game, Position, WAIT, get, request};
use ecs_inspector::Inspector;

#[test]
fn every_write_is_refused_without_allow_writes() {
    let game = Game::start(Inspector::bind("127.0.0.1:0").unwrap(), 3);
    for (method, path, body) in [
        ("POST", "/api/pause", ""),
        ("POST", "/api/step", ""),
        ("POST", "/api/resume", ""),
        ("DELETE", "/api/entities/1v1", ""),
        (
            "PUT",
            "/api/entities/1v1/components/Position",
            "{\"x\":0,\"y\":0}",
        ),
    ] {
        let answer = request(game.addr, method, path, body);
        assert_eq!(answer.status, 403, "{method} {path}");
        assert!(
            answer.reason().contains("allow_writes()"),
            "{}",
            answer.reason()
        );
    }
    let (world, inspector) = game.stop();
    assert_eq!(world.len(), 4, "nothing was despawned");
    assert!(!inspector.is_paused());
}

#[test]
fn despawn_goes_through_the_world() {
    let game = Game::start(Inspector::bind("127.0.0.1:0").unwrap().allow_writes(), 3);
    let answer = request(game.addr, "DELETE", "/api/entities/1v1", "");
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.json()["despawned"], "1v1");
    let again = request(game.addr, "DELETE", "/api/entities/1v1", "");
    assert_eq!(
        (again.status, again.reason().as_str()),
        (404, "entity 1v1 was despawned")
    );
    assert_eq!(get(game.addr, "/api/world").json()["entities"], 3);
    let (world, _) = game.stop();
    assert_eq!(world.len(), 3);
}

#[test]
fn an_editable_component_is_replaced_from_json() {
    let inspector = Inspector::bind("127.0.0.1:0")
        .unwrap()
        .allow_writes()
        .editable::<Position>();
    let game = Game::start(inspector, 2);
    // Entity 0 is frozen, so nothing moves it after the edit.
    let shown = get(game.addr, "/api/entities/0v1").json();
    assert_eq!(shown["components"][0]["editable"], true);
    assert_eq!(
        shown["components"][0]["json"],
        serde_json::json!({ "x": 0.0, "y": 0.0 })
    );
    let edited = request(
        game.addr,
        "PUT",
        "/api/entities/0v1/components/Position",
        r#"{"x": 40, "y": -2.5}"#,
    );
    assert_eq!(edited.status, 200, "{}", edited.body);
    assert_eq!(
        edited.json()["components"][0]["debug"],
        "Position { x: 40.0, y: -2.5 }"
    );

    let cases = [
        (
            "/api/entities/0v1/components/Position",
            "{\"x\": 1}",
            422,
            "missing field `y`",
        ),
        (
            "/api/entities/0v1/components/Position",
            "{\"x\": ",
            400,
            "the body is not the component as JSON",
        ),
        (
            "/api/entities/0v1/components/Velocity",
            "{}",
            409,
            "`Velocity` is not editable",
        ),
        (
            "/api/entities/0v1/components/Nothing",
            "{}",
            404,
            "no component type named `Nothing`",
        ),
        (
            "/api/entities/9v1/components/Position",
            "{}",
            404,
            "entity 9v1 was never spawned",
        ),
        (
            "/api/entities/2v1/components/Position",
            "{\"x\":0,\"y\":0}",
            404,
            "does not have component `Position`",
        ),
    ];
    for (path, body, status, reason) in cases {
        let answer = request(game.addr, "PUT", path, body);
        assert_eq!(answer.status, status, "{path} {body}: {}", answer.body);
        assert!(
            answer.reason().contains(reason),
            "{path}: {}",
            answer.reason()
        );
    }
    let (world, _) = game.stop();
    let first = ecs_core::Entity::from_bits(1 << 32).unwrap();
    assert_eq!(
        world.get::<Position>(first).unwrap(),
        &Position { x: 40.0, y: -2.5 }
    );
}

fn frame(game: &Game) -> u64 {
    get(game.addr, "/api/control").json()["frame"]
        .as_u64()
        .unwrap()
}

#[test]
fn pause_holds_frames_step_runs_exactly_one_and_resume_lets_them_go() {
    let game = Game::start(Inspector::bind("127.0.0.1:0").unwrap().allow_writes(), 3);
    let paused = request(game.addr, "POST", "/api/pause", "").json();
    assert_eq!(paused["paused"], true);
    let held = paused["frame"].as_u64().unwrap();
    // Requests are answered while paused, and no frame runs between them.
    for _ in 0..5 {
        assert_eq!(frame(&game), held);
    }
    assert_eq!(game.frames.load(Ordering::SeqCst), held);

    for step in 1..=3 {
        let answer = request(game.addr, "POST", "/api/step", "").json();
        assert_eq!(answer["paused"], true);
        // The step is answered before its frame runs; the next request is
        // answered once the game is held again, one frame later.
        assert_eq!(frame(&game), held + step);
        assert_eq!(frame(&game), held + step);
    }

    let resumed = request(game.addr, "POST", "/api/resume", "").json();
    assert_eq!(resumed["paused"], false);
    let started = Instant::now();
    while frame(&game) <= held + 3 {
        assert!(started.elapsed() < WAIT, "frames never resumed");
    }
    let (_, inspector) = game.stop();
    assert!(!inspector.is_paused());
}

#[test]
fn a_body_sent_in_pieces_is_read_whole() {
    use std::io::Write;
    let inspector = Inspector::bind("127.0.0.1:0")
        .unwrap()
        .allow_writes()
        .editable::<Position>();
    let game = Game::start(inspector, 1);
    let body = r#"{"x": 7, "y": 8}"#;
    let mut stream = std::net::TcpStream::connect(game.addr).unwrap();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    write!(
        stream,
        "PUT /api/entities/0v1/components/Position HTTP/1.1\r\nHost: {}\r\nContent-Length: {}\r\n\r\n",
        game.addr,
        body.len()
    )
    .unwrap();
    for piece in [&body[..5], &body[5..]] {
        stream.flush().unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        stream.write_all(piece.as_bytes()).unwrap();
    }
    let answer = common::read_answer(&mut stream);
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(
        answer.json()["components"][0]["debug"],
        "Position { x: 7.0, y: 8.0 }"
    );
}
