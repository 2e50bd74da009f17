//! Accepting connections and answering each on its own thread, within the
//! connection cap; requests that need the world wait for the game's
//! [`serve`](crate::Inspector::serve) as jobs.

use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex, RwLock};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use crate::Limits;
use crate::job::Job;
use crate::route::Route;

use super::request;
use super::{Method, Request, Response, TokenBucket};

/// What every connection's thread shares.
pub(crate) struct Shared {
    pub(crate) limits: RwLock<Limits>,
    pub(crate) jobs: Sender<Job>,
    /// Jobs sent and not yet taken by `serve`.
    pub(crate) queued: AtomicUsize,
    pub(crate) rate: Mutex<TokenBucket>,
    /// Connections being answered now.
    pub(crate) active: AtomicUsize,
    /// Whether the game allowed writes.
    pub(crate) writes: AtomicBool,
    /// The `Host` values a request may name, or `None` to take any (an
    /// inspector exposed on purpose). Checking it keeps a web page that
    /// rebinds its own name to 127.0.0.1 from reading the world.
    pub(crate) hosts: Option<Vec<String>>,
    pub(crate) stop: AtomicBool,
}

impl Shared {
    /// The limits now.
    pub(crate) fn limits(&self) -> Limits {
        self.limits
            .read()
            .map_or_else(|poisoned| poisoned.into_inner().clone(), |l| l.clone())
    }
}

/// The accepting thread; dropping it stops accepting and waits for it.
pub(crate) struct Server {
    addr: SocketAddr,
    shared: Arc<Shared>,
    accept: Option<JoinHandle<()>>,
}

impl Server {
    pub(crate) fn start(listener: TcpListener, shared: Arc<Shared>) -> std::io::Result<Self> {
        let addr = listener.local_addr()?;
        let accepting = Arc::clone(&shared);
        let accept = thread::Builder::new()
            .name("ecs-inspector".into())
            .spawn(move || accept_loop(&listener, &accepting))?;
        Ok(Self {
            addr,
            shared,
            accept: Some(accept),
        })
    }

    pub(crate) fn shared(&self) -> &Shared {
        &self.shared
    }

    pub(crate) fn addr(&self) -> SocketAddr {
        self.addr
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        // The accepting thread waits in `accept`: a connection wakes it to
        // see the flag.
        let mut wake = self.addr;
        if wake.ip().is_unspecified() {
            wake.set_ip(match wake {
                SocketAddr::V4(_) => [127, 0, 0, 1].into(),
                SocketAddr::V6(_) => std::net::Ipv6Addr::LOCALHOST.into(),
            });
        }
        let woken = TcpStream::connect_timeout(&wake, Duration::from_secs(1)).is_ok();
        if let Some(accept) = self.accept.take()
            && woken
        {
            let _ = accept.join();
        }
    }
}

fn accept_loop(listener: &TcpListener, shared: &Arc<Shared>) {
    for stream in listener.incoming() {
        if shared.stop.load(Ordering::SeqCst) {
            return;
        }
        let Ok(stream) = stream else {
            // Out of file descriptors, most likely: wait rather than spin.
            thread::sleep(Duration::from_millis(50));
            continue;
        };
        let max = shared.limits().max_connections;
        if shared.active.fetch_add(1, Ordering::SeqCst) >= max {
            shared.active.fetch_sub(1, Ordering::SeqCst);
            refuse(stream, max);
            continue;
        }
        let accepted = Instant::now();
        let connection = Connection {
            shared: Arc::clone(shared),
        };
        let spawned = thread::Builder::new()
            .name("ecs-inspector-connection".into())
            .spawn(move || connection.answer(stream, accepted));
        // A thread that could not start dropped its `Connection`, which
        // gave its place back.
        drop(spawned);
    }
}

/// Says `503` to a connection over the cap, without reading its request.
fn refuse(mut stream: TcpStream, max: usize) {
    let _ = stream.set_write_timeout(Some(Duration::from_millis(100)));
    let response = Response::error(
        503,
        format!("the inspector already answers {max} connections; try again shortly"),
    );
    let _ = response.write_to(&mut stream, false);
    let _ = stream.shutdown(Shutdown::Both);
}

/// One connection's place under the cap, given back when dropped.
struct Connection {
    shared: Arc<Shared>,
}

impl Drop for Connection {
    fn drop(&mut self) {
        self.shared.active.fetch_sub(1, Ordering::SeqCst);
    }
}

impl Connection {
    /// Reads the request, answers it and closes, all reading done before
    /// the connection's deadline: past it, however steadily the client
    /// trickles bytes, the thread ends and the place is given back.
    fn answer(self, mut stream: TcpStream, accepted: Instant) {
        let limits = self.shared.limits();
        let deadline = request::deadline(accepted, &limits);
        let _ = stream.set_write_timeout(Some(limits.io_timeout.max(request::MIN_WAIT)));
        let _ = stream.set_nodelay(true);
        let (response, head_only, read_whole) =
            match request::read_request(&mut stream, &limits, deadline) {
                Ok(request) => (
                    respond(&request, &self.shared, &limits),
                    request.method == Method::Head,
                    true,
                ),
                Err(Some(response)) => (response, false, false),
                Err(None) => return,
            };
        if response.write_to(&mut stream, head_only).is_err() {
            return;
        }
        let _ = stream.shutdown(Shutdown::Write);
        if !read_whole {
            request::drain(&mut stream, deadline, DRAIN_QUIET, DRAIN_BYTES);
        }
    }
}

/// How long the drain after an error answer waits for the client's next
/// byte: a client that has sent its whole request is quiet at once.
const DRAIN_QUIET: Duration = Duration::from_millis(200);

/// The most the drain after an error answer reads: enough for a request
/// body the client sent before reading the answer.
const DRAIN_BYTES: usize = 256 * 1024;

/// The answer to a request read whole.
fn respond(request: &Request, shared: &Shared, limits: &Limits) -> Response {
    let allowed = shared
        .rate
        .lock()
        .map(|mut bucket| bucket.take(Instant::now()))
        .unwrap_or(false);
    if !allowed {
        return Response::error(429, "too many requests: slow down and try again");
    }
    if let Some(hosts) = &shared.hosts {
        let host = request.header("host").unwrap_or("");
        if !hosts.iter().any(|h| h.eq_ignore_ascii_case(host)) {
            return Response::error(
                403,
                format!(
                    "the Host `{}` is not this inspector's address (expected one of {})",
                    super::truncate(host),
                    hosts.join(", ")
                ),
            );
        }
        if let Some(origin) = request.header("origin")
            && !origin.eq_ignore_ascii_case(&format!("http://{host}"))
        {
            return Response::error(
                403,
                format!(
                    "requests from the page at `{}` are refused: only the inspector's own page may call it",
                    super::truncate(origin)
                ),
            );
        }
    }
    let route = match Route::parse(request, limits.max_page) {
        Ok(route) => route,
        Err(response) => return response,
    };
    if let Route::File(content_type, body) = route {
        return Response::file(content_type, body);
    }
    if route.writes() && !shared.writes.load(Ordering::SeqCst) {
        return Response::error(
            403,
            "this inspector is read-only: the game starts it with \
             `Inspector::bind(..)?.allow_writes()` to allow pausing, stepping, despawning and editing",
        );
    }
    if shared.queued.fetch_add(1, Ordering::SeqCst) >= limits.queued_requests {
        shared.queued.fetch_sub(1, Ordering::SeqCst);
        return Response::error(
            503,
            "too many requests are waiting for the game's next frame; try again shortly",
        );
    }
    let (reply, answer) = mpsc::sync_channel(1);
    if shared.jobs.send(Job { route, reply }).is_err() {
        shared.queued.fetch_sub(1, Ordering::SeqCst);
        return Response::error(503, "the inspector is shutting down");
    }
    match answer.recv_timeout(limits.reply_timeout) {
        Ok(response) => response,
        Err(RecvTimeoutError::Timeout) => Response::error(
            503,
            format!(
                "the game did not call `Inspector::serve` within {:?}",
                limits.reply_timeout
            ),
        ),
        Err(RecvTimeoutError::Disconnected) => {
            Response::error(503, "the inspector stopped before answering")
        }
    }
}
