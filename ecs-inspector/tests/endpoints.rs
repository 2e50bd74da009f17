//! Every endpoint against a running world on 127.0.0.1: what it answers,
//! and the reasons it gives for bad paths, ids and filters.

mod common;

use common::{Game, get, request};
use ecs_inspector::Inspector;

fn game(movers: u32) -> Game {
    Game::start(Inspector::bind("127.0.0.1:0").unwrap(), movers)
}

#[test]
fn the_world_view_counts_entities_and_component_types() {
    let game = game(10);
    let world = get(game.addr, "/api/world");
    assert_eq!(world.status, 200, "{}", world.body);
    assert!(world.head.contains("Content-Type: application/json"));
    let json = world.json();
    assert_eq!(json["entities"], 11);
    assert_eq!(json["writes"], false);
    assert_eq!(json["stats"]["live_entities"], 11);
    let counts: Vec<(String, u64)> = json["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_owned(),
                c["count"].as_u64().unwrap(),
            )
        })
        .collect();
    let names: Vec<&str> = counts.iter().map(|(n, _)| n.as_str()).collect();
    for (name, count) in [
        ("Position", 10),
        ("Velocity", 10),
        ("Frozen", 1),
        ("Health", 1),
    ] {
        assert!(
            counts.contains(&(name.to_owned(), count)),
            "{name} x{count} in {names:?}"
        );
    }
    let position = &json["components"][0];
    assert_eq!(position["size"], 8);
    assert!(position["bytes"].as_u64().unwrap() >= 80);
}

#[test]
fn the_entity_table_filters_by_components_and_pages_in_id_order() {
    let game = game(10);
    let all = get(game.addr, "/api/entities").json();
    assert_eq!(all["total"], 11);

    let moving = get(
        game.addr,
        "/api/entities?with=Position,Velocity&without=Frozen&per_page=4",
    )
    .json();
    assert_eq!(moving["total"], 9, "ten movers, one frozen");
    let rows = moving["rows"].as_array().unwrap();
    let ids: Vec<&str> = rows.iter().map(|r| r["entity"].as_str().unwrap()).collect();
    assert_eq!(ids, ["1v1", "2v1", "3v1", "4v1"], "entity 0 is frozen");
    let first = &rows[0]["components"][0];
    assert_eq!(first["name"], "Position");
    assert!(
        first["value"]
            .as_str()
            .unwrap()
            .starts_with("Position { x: "),
        "{first}"
    );

    let last = get(
        game.addr,
        "/api/entities?with=Velocity&without=Frozen&per_page=4&page=2",
    )
    .json();
    let ids: Vec<&str> = last["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["entity"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["9v1"]);
    let past = get(game.addr, "/api/entities?page=99").json();
    assert_eq!(
        (
            past["total"].as_u64(),
            past["rows"].as_array().unwrap().len()
        ),
        (Some(11), 0)
    );

    let healthy = get(game.addr, "/api/entities?with=Health").json();
    assert_eq!(healthy["rows"][0]["components"][0]["value"], "Health(7)");
}

#[test]
fn one_entity_shows_every_component_value() {
    let game = game(2);
    let frozen = get(game.addr, "/api/entities/0v1");
    assert_eq!(frozen.status, 200, "{}", frozen.body);
    let json = frozen.json();
    assert_eq!(
        (
            json["entity"].as_str(),
            json["index"].as_u64(),
            json["version"].as_u64()
        ),
        (Some("0v1"), Some(0), Some(1))
    );
    let names: Vec<&str> = json["components"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["Position", "Velocity", "Frozen"]);
    assert_eq!(
        json["components"][0]["debug"], "Position { x: 0.0, y: 0.0 }",
        "entity 0 is frozen, so it never moved"
    );
    assert_eq!(
        json["components"][1]["shown"],
        "Velocity { x: 1.0, y: 0.5 }"
    );
    assert_eq!(json["components"][2]["tag"], true);
    assert_eq!(
        json["components"][0]["editable"], false,
        "no type was made editable"
    );
}

#[test]
fn the_schedule_view_is_what_explain_says() {
    let game = game(2);
    let json = get(game.addr, "/api/schedule").json();
    let stages: Vec<&str> = json["stages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["stage"].as_str().unwrap())
        .collect();
    assert_eq!(stages, ["Update", "PostUpdate"]);
    let update = &json["stages"][0];
    assert_eq!(update["order"], serde_json::json!(["movement", "physics"]));
    assert_eq!(
        update["batches"],
        serde_json::json!([["movement"], ["physics"]])
    );
    assert_eq!(
        update["conflicts"][0]["text"],
        "`movement` and `physics` cannot overlap: both reach `Position` (both write)"
    );
    assert!(
        json["text"]
            .as_str()
            .unwrap()
            .starts_with("stage Update: 2 systems")
    );
}

#[test]
fn the_systems_view_reports_each_system_run() {
    let game = game(2);
    // Each answer comes after at least one frame ran.
    let json = get(game.addr, "/api/systems").json();
    assert!(json["frame"].as_u64().unwrap() >= 1);
    let systems = json["systems"].as_array().unwrap();
    let names: Vec<&str> = systems
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["movement", "physics", "audio"]);
    for s in systems {
        assert!(s["runs"].as_u64().unwrap() >= 1, "{s}");
        assert!(s["last_us"].as_f64().unwrap() >= 0.0);
    }
}

#[test]
fn the_events_view_lists_event_types_observers_and_resources() {
    let game = game(1);
    let json = get(game.addr, "/api/events").json();
    assert_eq!(json["events"][0]["name"], "Collision");
    assert_eq!(
        json["observers"],
        serde_json::json!([{ "kind": "OnAdd", "component": "Health" }])
    );
    assert!(
        json["resources"]
            .as_array()
            .unwrap()
            .iter()
            .any(|r| r.as_str().unwrap().contains("Events<"))
    );
}

#[test]
fn the_page_and_its_files_are_served() {
    let game = game(1);
    let page = get(game.addr, "/");
    assert_eq!(page.status, 200);
    assert!(page.head.contains("text/html"));
    assert!(page.body.contains("<title>ecs inspector</title>"));
    assert!(
        !page.body.contains("http://") && !page.body.contains("https://"),
        "the page loads nothing from elsewhere"
    );
    let script = get(game.addr, "/inspector.js");
    assert!(script.head.contains("text/javascript") && script.body.contains("/api/world"));
    assert!(get(game.addr, "/inspector.css").head.contains("text/css"));
    let head = request(game.addr, "HEAD", "/", "");
    assert_eq!((head.status, head.body.as_str()), (200, ""));
    let control = get(game.addr, "/api/control").json();
    assert_eq!(
        (control["paused"].as_bool(), control["writes"].as_bool()),
        (Some(false), Some(false))
    );
}

#[test]
fn bad_paths_ids_and_filters_get_reasons() {
    let game = game(2);
    let cases: [(&str, &str, u16, &str); 12] = [
        ("GET", "/nothing", 404, "nothing at `/nothing`"),
        ("GET", "/api/entities/abc", 400, "`abc` is not an entity id"),
        ("GET", "/api/entities/5v0", 400, "is not an entity id"),
        (
            "GET",
            "/api/entities/99v1",
            404,
            "entity 99v1 was never spawned in this world",
        ),
        ("GET", "/api/entities/0v7", 404, "entity 0v7"),
        (
            "GET",
            "/api/entities?with=Positon",
            404,
            "no component type named `Positon`",
        ),
        (
            "GET",
            "/api/entities?per_page=100000",
            400,
            "`per_page` must be a whole number from 1 to 500",
        ),
        (
            "GET",
            "/api/entities?sort=name",
            400,
            "unknown parameter `sort`",
        ),
        ("GET", "/api/world?x=1", 400, "takes no query parameters"),
        ("POST", "/api/world", 405, "this path takes GET, HEAD"),
        ("GET", "/api/pause", 405, "this path takes POST"),
        ("GET", "/api/entities/%ff", 400, "not UTF-8"),
    ];
    for (method, path, status, reason) in cases {
        let answer = request(game.addr, method, path, "");
        assert_eq!(answer.status, status, "{method} {path}: {}", answer.body);
        assert!(
            answer.reason().contains(reason),
            "{method} {path}: {}",
            answer.reason()
        );
    }
    assert!(
        request(game.addr, "POST", "/api/world", "")
            .head
            .contains("Allow: GET, HEAD")
    );
}

#[test]
fn a_despawned_entity_reads_as_despawned() {
    let (mut world, schedule) = common::world_and_schedule(2);
    let gone = world.spawn(common::Health(1));
    world.despawn(gone).unwrap();
    let game = Game::start_with(Inspector::bind("127.0.0.1:0").unwrap(), world, schedule);
    let answer = get(game.addr, &format!("/api/entities/{gone}"));
    assert_eq!(answer.status, 404);
    assert_eq!(answer.reason(), format!("entity {gone} was despawned"));
}
