//! Malformed, huge, foreign, too many and too slow requests: each gets a
//! 4xx (or 5xx) that says why, the server stays up, and the game's frames
//! never wait for a client.

mod common;

use std::io::{Read, Write};
use std::net::TcpStream;
use std::sync::atomic::Ordering;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use common::{Game, WAIT, get, raw, read_answer, request};
use ecs_inspector::{Inspector, InspectorError, Limits};

fn game() -> Game {
    Game::start(Inspector::bind("127.0.0.1:0").unwrap(), 3)
}

#[test]
fn only_loopback_addresses_bind_unless_exposed_on_purpose() {
    for addr in ["0.0.0.0:0", "[::]:0"] {
        let error = Inspector::bind(addr).unwrap_err();
        assert!(
            matches!(error, InspectorError::NotLoopback { .. }),
            "{addr}: {error}"
        );
        assert!(error.to_string().contains("bind_exposed"));
    }
    let bad = Inspector::bind("not an address").unwrap_err();
    assert!(matches!(bad, InspectorError::Address { .. }), "{bad}");
    assert!(
        bad.to_string()
            .starts_with("the inspector's address `not an address` is not usable")
    );
    let first = Inspector::bind("localhost:0").unwrap();
    assert!(first.local_addr().ip().is_loopback());
    let taken = Inspector::bind(first.local_addr()).unwrap_err();
    assert!(matches!(taken, InspectorError::Bind { .. }), "{taken}");
}

#[test]
fn huge_heads_and_bodies_are_refused_without_reading_them_whole() {
    let game = game();
    let long_line = format!(
        "GET /{} HTTP/1.1\r\nHost: {}\r\n\r\n",
        "a".repeat(100_000),
        game.addr
    );
    let answer = raw(game.addr, long_line.as_bytes());
    assert_eq!(answer.status, 431);
    assert!(
        answer.reason().contains("exceed 8192 bytes"),
        "{}",
        answer.reason()
    );

    let endless_header = format!(
        "GET / HTTP/1.1\r\nHost: {}\r\nX-Big: {}",
        game.addr,
        "b".repeat(1_000_000)
    );
    assert_eq!(raw(game.addr, endless_header.as_bytes()).status, 431);

    let many: String = (0..40).map(|i| format!("X-{i}: {i}\r\n")).collect();
    let answer = raw(
        game.addr,
        format!("GET / HTTP/1.1\r\nHost: {}\r\n{many}\r\n", game.addr).as_bytes(),
    );
    assert_eq!(answer.status, 431);
    assert!(answer.reason().contains("more than 32 headers"));

    let promised = format!(
        "PUT /api/entities/0v1/components/Position HTTP/1.1\r\nHost: {}\r\nContent-Length: 1000000000\r\n\r\n{{",
        game.addr
    );
    let answer = raw(game.addr, promised.as_bytes());
    assert_eq!(answer.status, 413);
    assert!(
        answer
            .reason()
            .contains("1000000000 bytes exceeds 65536 bytes")
    );

    let chunked = format!(
        "PUT /api/entities/0v1/components/Position HTTP/1.1\r\nHost: {}\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n{{\r\n0\r\n\r\n",
        game.addr
    );
    assert_eq!(raw(game.addr, chunked.as_bytes()).status, 501);

    assert_eq!(
        get(game.addr, "/api/world").status,
        200,
        "the server is still up"
    );
}

#[test]
fn malformed_requests_get_a_reason() {
    let game = game();
    let host = game.addr;
    let cases: [(Vec<u8>, u16, &str); 7] = [
        (
            b"\x00\x01\x02garbage\r\n\r\n".to_vec(),
            400,
            "malformed request",
        ),
        (b"GET /\r\n\r\n".to_vec(), 400, "malformed request"),
        (
            format!("GET / HTTP/1.1\r\nHost: {host}\r\nBad Header\r\n\r\n").into_bytes(),
            400,
            "malformed request",
        ),
        (
            format!("BREW /pot HTTP/1.1\r\nHost: {host}\r\n\r\n").into_bytes(),
            501,
            "the method `BREW`",
        ),
        (
            format!("GET /api/world HTTP/1.1\r\nHost: {host}\r\nContent-Length: lots\r\n\r\n")
                .into_bytes(),
            400,
            "Content-Length `lots`",
        ),
        (
            b"GET /api/world HTTP/1.1\r\nHost: evil.example:80\r\n\r\n".to_vec(),
            403,
            "the Host `evil.example:80` is not this inspector's",
        ),
        (
            format!(
                "GET /api/world HTTP/1.1\r\nHost: {host}\r\nOrigin: http://evil.example\r\n\r\n"
            )
            .into_bytes(),
            403,
            "requests from the page at `http://evil.example`",
        ),
    ];
    for (bytes, status, reason) in cases {
        let answer = raw(game.addr, &bytes);
        assert_eq!(
            answer.status,
            status,
            "{:?}: {}",
            String::from_utf8_lossy(&bytes),
            answer.body
        );
        assert!(
            answer.reason().contains(reason),
            "{:?}: {}",
            String::from_utf8_lossy(&bytes),
            answer.reason()
        );
    }
    let no_host = raw(game.addr, b"GET /api/world HTTP/1.0\r\n\r\n");
    assert_eq!(no_host.status, 403);
    let same_origin =
        format!("GET /api/world HTTP/1.1\r\nHost: {host}\r\nOrigin: http://{host}\r\n\r\n");
    assert_eq!(raw(game.addr, same_origin.as_bytes()).status, 200);
    let localhost = format!(
        "GET /api/world HTTP/1.1\r\nHost: localhost:{}\r\n\r\n",
        host.port()
    );
    assert_eq!(raw(game.addr, localhost.as_bytes()).status, 200);
}

#[test]
fn requests_past_the_rate_get_429() {
    let limits = Limits {
        burst: 3,
        per_second: 0.0,
        ..Limits::default()
    };
    let game = Game::start(
        Inspector::bind("127.0.0.1:0").unwrap().with_limits(limits),
        1,
    );
    let statuses: Vec<u16> = (0..5)
        .map(|_| get(game.addr, "/api/control").status)
        .collect();
    assert_eq!(statuses, [200, 200, 200, 429, 429]);
    assert!(get(game.addr, "/").reason().contains("too many requests"));
}

#[test]
fn connections_past_the_cap_get_503_and_quiet_ones_time_out_with_408() {
    let limits = Limits {
        max_connections: 2,
        io_timeout: Duration::from_secs(2),
        ..Limits::default()
    };
    let game = Game::start(
        Inspector::bind("127.0.0.1:0").unwrap().with_limits(limits),
        1,
    );
    // Two clients that connect and say nothing hold both places.
    let mut quiet: Vec<TcpStream> = (0..2)
        .map(|_| TcpStream::connect(game.addr).unwrap())
        .collect();
    let third = get(game.addr, "/api/world");
    assert_eq!(third.status, 503);
    assert!(third.reason().contains("already answers 2 connections"));
    for stream in &mut quiet {
        stream.set_read_timeout(Some(WAIT)).unwrap();
        let answer = read_answer(stream);
        assert_eq!(answer.status, 408);
        assert!(answer.reason().contains("took too long"));
    }
    // Their places are free again once their threads end.
    let started = Instant::now();
    while get(game.addr, "/api/world").status != 200 {
        assert!(started.elapsed() < WAIT, "the places were never given back");
        thread::sleep(Duration::from_millis(10));
    }
}

/// Clients that stall mid-request, or never read their answer, hold server
/// threads and nothing else: the game runs 300 frames while they stall,
/// and a well-behaved client is answered meanwhile. If `serve` waited on
/// any of them, the frames would stop and the game thread would never
/// report; the test then fails after `WAIT`.
#[test]
fn slow_clients_never_stall_a_frame() {
    let limits = Limits {
        io_timeout: Duration::from_secs(60),
        ..Limits::default()
    };
    let game = Game::start(
        Inspector::bind("127.0.0.1:0").unwrap().with_limits(limits),
        50,
    );
    let addr = game.addr;

    let mut slow = Vec::new();
    for i in 0..4 {
        let mut stream = TcpStream::connect(addr).unwrap();
        // Half a request line, then silence.
        stream.write_all(b"GET /api/ent").unwrap();
        if i % 2 == 0 {
            // A whole request, whose answer is never read.
            let mut reader = TcpStream::connect(addr).unwrap();
            write!(
                reader,
                "GET /api/entities?per_page=500 HTTP/1.1\r\nHost: {addr}\r\n\r\n"
            )
            .unwrap();
            slow.push(reader);
        }
        slow.push(stream);
    }

    let start = game.frames.load(Ordering::SeqCst);
    let frames = std::sync::Arc::clone(&game.frames);
    let (done, finished) = mpsc::channel();
    thread::spawn(move || {
        while frames.load(Ordering::SeqCst) < start + 300 {
            thread::sleep(Duration::from_millis(1));
        }
        let _ = done.send(());
    });
    finished
        .recv_timeout(WAIT)
        .expect("frames stopped while clients stalled");
    assert_eq!(
        get(addr, "/api/world").status,
        200,
        "a normal client is answered meanwhile"
    );
    // The stalled clients are still connected, still unanswered.
    for stream in &mut slow {
        stream.set_nonblocking(true).unwrap();
        let mut byte = [0u8; 1];
        let read = stream.read(&mut byte);
        assert!(
            read.is_err() || read.as_ref().is_ok_and(|n| *n > 0),
            "a stalled client was dropped: {read:?}"
        );
    }
    drop(slow);
    drop(game);
}

/// With a zero budget `serve` answers one request a call: counted, not timed.
#[test]
fn a_zero_budget_answers_one_request_per_serve() {
    let mut inspector = Inspector::bind("127.0.0.1:0")
        .unwrap()
        .with_budget(Duration::ZERO);
    let addr = inspector.local_addr();
    let (mut world, schedule) = common::world_and_schedule(2);
    let clients: Vec<_> = (0..4)
        .map(|_| thread::spawn(move || get(addr, "/api/world").status))
        .collect();
    // Let the requests queue up before serving, so one call could answer all.
    thread::sleep(Duration::from_millis(200));
    let mut answered = Vec::new();
    let started = Instant::now();
    while answered.iter().sum::<usize>() < 4 {
        assert!(started.elapsed() < WAIT, "the requests never arrived");
        let n = inspector.serve(&mut world, &schedule);
        if n > 0 {
            answered.push(n);
        }
        thread::sleep(Duration::from_millis(1));
    }
    assert!(answered.iter().all(|&n| n == 1), "{answered:?}");
    for client in clients {
        assert_eq!(client.join().unwrap(), 200);
    }
}

#[test]
fn a_game_that_stops_serving_answers_503_after_the_reply_timeout() {
    let limits = Limits {
        reply_timeout: Duration::from_millis(100),
        ..Limits::default()
    };
    let inspector = Inspector::bind("127.0.0.1:0").unwrap().with_limits(limits);
    let answer = get(inspector.local_addr(), "/api/world");
    assert_eq!(answer.status, 503);
    assert!(
        answer.reason().contains("did not call `Inspector::serve`"),
        "{}",
        answer.reason()
    );
    // The page itself needs no game.
    assert_eq!(get(inspector.local_addr(), "/").status, 200);
}

#[test]
fn a_world_view_follows_changes_between_frames() {
    let (mut world, schedule) = common::world_and_schedule(1);
    let mut inspector = Inspector::bind("127.0.0.1:0").unwrap();
    let addr = inspector.local_addr();
    let ask = |path: &'static str| thread::spawn(move || request(addr, "GET", path, ""));
    let client = ask("/api/world");
    while inspector.serve(&mut world, &schedule) == 0 {
        thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(client.join().unwrap().json()["entities"], 2);
    world.spawn(common::Health(1));
    let client = ask("/api/world");
    while inspector.serve(&mut world, &schedule) == 0 {
        thread::sleep(Duration::from_millis(1));
    }
    assert_eq!(client.join().unwrap().json()["entities"], 3);
}

/// Limits at either end of their range are honoured without a panic: a
/// zero wait times a quiet client out at once, a huge one never overflows.
#[test]
fn extreme_limits_neither_panic_nor_hang() {
    let zero = Limits {
        io_timeout: Duration::ZERO,
        ..Limits::default()
    };
    let game = Game::start(Inspector::bind("127.0.0.1:0").unwrap().with_limits(zero), 1);
    let mut quiet = TcpStream::connect(game.addr).unwrap();
    quiet.set_read_timeout(Some(WAIT)).unwrap();
    assert_eq!(read_answer(&mut quiet).status, 408);
    drop(game);

    let huge = Limits {
        io_timeout: Duration::MAX,
        connection_deadline: Duration::MAX,
        reply_timeout: Duration::MAX,
        ..Limits::default()
    };
    let game = Game::start(Inspector::bind("127.0.0.1:0").unwrap().with_limits(huge), 1);
    assert_eq!(get(game.addr, "/api/world").status, 200);
}

/// The deadline the two tests below give a connection: short, so the tests
/// are, and long enough that every client's request is read well within it.
const DEADLINE: Duration = Duration::from_secs(1);

/// How long a test waits for what the deadline promises: ten times over,
/// so a loaded machine never fails it, while a connection held for good
/// does.
const PAST_DEADLINE: Duration = Duration::from_secs(10);

/// Writes one byte every 50 ms (well inside the 200 ms an error answer's
/// drain waits for each) until the server cuts the connection, which it
/// says by returning `true`, or until `PAST_DEADLINE` passes.
fn trickle(mut stream: TcpStream, byte: u8) -> thread::JoinHandle<bool> {
    thread::spawn(move || {
        let started = Instant::now();
        while started.elapsed() < PAST_DEADLINE {
            if stream.write_all(&[byte]).is_err() {
                return true;
            }
            thread::sleep(Duration::from_millis(50));
        }
        false
    })
}

/// Asks for `/api/world` until it gets a 200, for at most `PAST_DEADLINE`
/// from `since`; the statuses it got on the way are in the message.
fn served_after(addr: std::net::SocketAddr, since: Instant, why: &str) {
    let mut refused = Vec::new();
    loop {
        let status = get(addr, "/api/world").status;
        if status == 200 {
            return;
        }
        refused.push(status);
        assert!(
            since.elapsed() < PAST_DEADLINE,
            "{why}: a normal request was still refused {PAST_DEADLINE:?} later ({} answers: {:?}…)",
            refused.len(),
            &refused[..refused.len().min(5)]
        );
        thread::sleep(Duration::from_millis(20));
    }
}

/// Clients that promise a huge body, get `413`, and then trickle a byte at
/// a time fill every place; the drain after the answer ends at the
/// connection's deadline, so the places are given back and a normal request
/// is answered, and each trickling client finds its connection closed.
#[test]
fn clients_trickling_after_an_error_answer_lose_their_place_at_the_deadline() {
    let limits = Limits {
        max_connections: 4,
        connection_deadline: DEADLINE,
        ..Limits::default()
    };
    let game = Game::start(
        Inspector::bind("127.0.0.1:0").unwrap().with_limits(limits),
        1,
    );
    let addr = game.addr;
    let started = Instant::now();
    let tricklers: Vec<_> = (0..4)
        .map(|_| {
            let mut stream = TcpStream::connect(addr).unwrap();
            stream.set_read_timeout(Some(WAIT)).unwrap();
            write!(
                stream,
                "PUT /api/entities/0v1/components/Position HTTP/1.1\r\nHost: {addr}\r\n\
                 Content-Length: 1000000000\r\n\r\n"
            )
            .unwrap();
            let answer = read_answer(&mut stream);
            assert_eq!(answer.status, 413, "{}", answer.body);
            trickle(stream, b'{')
        })
        .collect();

    let meanwhile = get(addr, "/api/world");
    // Answered within the deadline of the first trickler's connection, the
    // request came while every place was held.
    if started.elapsed() < DEADLINE {
        assert_eq!(meanwhile.status, 503, "{}", meanwhile.body);
    }
    served_after(addr, started, "clients trickling after a 413");
    for trickler in tricklers {
        assert!(
            trickler.join().unwrap(),
            "a trickling client was still connected {PAST_DEADLINE:?} after it started"
        );
    }
}

/// A client sending its request head a byte at a time, each byte well
/// inside the wait for one read, is answered `408` at the connection's
/// deadline and its connection closed, giving back the only place.
#[test]
fn a_head_trickled_byte_by_byte_is_cut_at_the_deadline() {
    let limits = Limits {
        max_connections: 1,
        // No single read would ever time out: only the deadline cuts it.
        io_timeout: Duration::from_secs(60),
        connection_deadline: DEADLINE,
        ..Limits::default()
    };
    let game = Game::start(
        Inspector::bind("127.0.0.1:0").unwrap().with_limits(limits),
        1,
    );
    let addr = game.addr;
    let started = Instant::now();
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "GET /api/world HTTP/1.1\r\nHost: {addr}\r\nX-Slow: "
    )
    .unwrap();
    // A header value that never ends, one byte at a time.
    let trickler = trickle(stream.try_clone().unwrap(), b'a');

    stream.set_read_timeout(Some(PAST_DEADLINE)).unwrap();
    let answer = read_answer(&mut stream);
    assert_eq!(answer.status, 408, "{}", answer.body);
    assert!(
        answer
            .reason()
            .contains("a connection has 1s to send it whole"),
        "{}",
        answer.reason()
    );
    assert!(
        trickler.join().unwrap(),
        "the trickling client was still connected {PAST_DEADLINE:?} after it started"
    );
    served_after(addr, started, "a client trickling its head");
}
