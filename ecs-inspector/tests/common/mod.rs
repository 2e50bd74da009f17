//! A small game to inspect, running on its own thread, and a plain HTTP
//! client over `TcpStream` that sends exactly the bytes a test gives it.

#![allow(dead_code, reason = "each test file uses part of the kit")]

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::thread::{self, JoinHandle};
use std::time::Duration;

use ecs_core::prelude::*;
use ecs_inspector::Inspector;

/// How long a client waits for any answer: generous, so a slow machine
/// never fails a test, and still bounded, so a hang fails it.
pub const WAIT: Duration = Duration::from_secs(30);

#[derive(Component, Clone, Copy, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Position {
    pub x: f32,
    pub y: f32,
}

#[derive(Component, Clone, Copy, Debug, PartialEq)]
pub struct Velocity {
    pub x: f32,
    pub y: f32,
}

#[derive(Component, Debug)]
pub struct Health(pub i32);

#[derive(Component)]
pub struct Frozen;

pub struct Collision;

fn movement(mut q: Query<(&mut Position, &Velocity), Without<Frozen>>) {
    for (p, v) in q.iter_mut() {
        p.x += v.x;
        p.y += v.y;
    }
}

fn physics(_: Query<&mut Position>) {}

fn audio(mut collisions: EventReader<Collision>) {
    for _ in collisions.read() {}
}

/// A world of `movers` moving entities (the first one frozen), one with
/// `Health`, an observer and an event, and a schedule of three systems of
/// which two conflict.
pub fn world_and_schedule(movers: u32) -> (World, Schedule) {
    let mut world = World::new();
    for i in 0..movers {
        let e = world.spawn((
            Position {
                x: i as f32,
                y: 0.0,
            },
            Velocity { x: 1.0, y: 0.5 },
        ));
        if i == 0 {
            world.insert(e, Frozen).unwrap();
        }
    }
    world.spawn(Health(7));
    world.observe(|_: OnAdd<Health>| {});
    world.send(Collision);
    let mut schedule = Schedule::new();
    schedule.add_system(Stage::Update, movement).unwrap();
    schedule.add_system(Stage::Update, physics).unwrap();
    schedule.add_system(Stage::PostUpdate, audio).unwrap();
    (world, schedule)
}

/// A game loop on its own thread: frames, each followed by `serve`.
pub struct Game {
    pub addr: SocketAddr,
    pub frames: Arc<AtomicU64>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<(World, Inspector)>>,
}

impl Game {
    pub fn start(inspector: Inspector, movers: u32) -> Self {
        let (world, schedule) = world_and_schedule(movers);
        Self::start_with(inspector, world, schedule)
    }

    pub fn start_with(mut inspector: Inspector, mut world: World, mut schedule: Schedule) -> Self {
        let addr = inspector.local_addr();
        let frames = Arc::new(AtomicU64::new(0));
        let stop = Arc::new(AtomicBool::new(false));
        let (f, s) = (Arc::clone(&frames), Arc::clone(&stop));
        let thread = thread::spawn(move || {
            while !s.load(Ordering::SeqCst) {
                schedule.run(&mut world).unwrap();
                f.fetch_add(1, Ordering::SeqCst);
                inspector.serve(&mut world, &schedule);
                // A game's frame pacing; it also leaves the CPU to the test.
                thread::sleep(Duration::from_millis(1));
            }
            (world, inspector)
        });
        Self {
            addr,
            frames,
            stop,
            thread: Some(thread),
        }
    }

    /// Stops the loop and gives back the world and the inspector. A game
    /// held paused must be resumed first.
    pub fn stop(mut self) -> (World, Inspector) {
        self.stop.store(true, Ordering::SeqCst);
        self.thread.take().unwrap().join().unwrap()
    }
}

impl Drop for Game {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
    }
}

/// A response: status and body.
#[derive(Debug)]
pub struct Answer {
    pub status: u16,
    pub head: String,
    pub body: String,
}

impl Answer {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_str(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {} {}", self.status, self.body))
    }

    /// The reason a 4xx or 5xx gives.
    pub fn reason(&self) -> String {
        self.json()["error"].as_str().unwrap_or_default().to_owned()
    }
}

/// Sends `bytes` as they are and reads the whole answer.
pub fn raw(addr: SocketAddr, bytes: &[u8]) -> Answer {
    let mut stream = TcpStream::connect(addr).unwrap();
    stream.set_read_timeout(Some(WAIT)).unwrap();
    stream.set_write_timeout(Some(WAIT)).unwrap();
    // The server may answer and close before taking all of a huge request.
    let _ = stream.write_all(bytes);
    read_answer(&mut stream)
}

pub fn read_answer(stream: &mut TcpStream) -> Answer {
    let mut reply = Vec::new();
    let _ = stream.read_to_end(&mut reply);
    let text = String::from_utf8_lossy(&reply).into_owned();
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("no complete answer: {text:?}"));
    let status = head
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head:?}"));
    Answer {
        status,
        head: head.to_owned(),
        body: body.to_owned(),
    }
}

pub fn request(addr: SocketAddr, method: &str, path: &str, body: &str) -> Answer {
    let text = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    raw(addr, text.as_bytes())
}

pub fn get(addr: SocketAddr, path: &str) -> Answer {
    request(addr, "GET", path, "")
}
