//! `Inspector`: the server's handle in the game, and `serve`, which answers
//! pending requests between frames.

use core::fmt;
use std::net::{SocketAddr, TcpListener, ToSocketAddrs};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc::{self, Receiver};
use std::sync::{Arc, Mutex, RwLock};
use std::time::{Duration, Instant};

use ecs_core::{Component, Schedule, World};
use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::answer::{self, Context};
use crate::control::Control;
use crate::edit::{Editor, Editors};
use crate::http::{Server, Shared, TokenBucket};
use crate::job::Job;
use crate::{InspectorError, Limits};

/// How long [`Inspector::serve`] answers requests before it lets the frame
/// go on, unless [`Inspector::with_budget`] says otherwise.
///
/// ```
/// use ecs_inspector::{DEFAULT_BUDGET, Inspector};
///
/// assert_eq!(Inspector::bind("127.0.0.1:0")?.budget(), DEFAULT_BUDGET);
/// # Ok::<(), ecs_inspector::InspectorError>(())
/// ```
pub const DEFAULT_BUDGET: Duration = Duration::from_millis(1);

/// A live view into a running world, served over HTTP from the game's own
/// process: a page for a browser and JSON endpoints for scripts (the
/// guide's inspector chapter, `docs/guide/inspector.md`, lists them).
///
/// [`bind`](Self::bind) starts a server thread that reads requests; the
/// game calls [`serve`](Self::serve) once a frame, between frames, and only
/// there is the world read (or, with [`allow_writes`](Self::allow_writes),
/// changed). A client never touches the game's thread: a slow or hostile
/// one costs the server's threads, never the frame.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_inspector::Inspector;
///
/// #[derive(Component, Debug)]
/// struct Position { x: f32, y: f32 }
///
/// let mut world = World::new();
/// world.spawn(Position { x: 1.0, y: 2.0 });
/// let mut schedule = Schedule::new();
/// let mut inspector = Inspector::bind("127.0.0.1:0")?;
/// println!("inspect the world at {}", inspector.url());
/// for _ in 0..3 {
///     schedule.run(&mut world)?;
///     inspector.serve(&mut world, &schedule); // answers what is pending, then returns
/// }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct Inspector {
    server: Server,
    jobs: Receiver<Job>,
    editors: Editors,
    control: Control,
    budget: Duration,
    url: String,
}

impl fmt::Debug for Inspector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Inspector")
            .field("url", &self.url)
            .field("writes", &self.writes())
            .field("paused", &self.control.is_paused())
            .field("budget", &self.budget)
            .finish()
    }
}

impl Inspector {
    /// Starts an inspector listening on `addr`, which must be a loopback
    /// address (`127.0.0.1:7878`, `localhost:7878`, `[::1]:7878`; port 0
    /// picks a free one): only programs on this machine can reach it. It
    /// reads and never writes until [`allow_writes`](Self::allow_writes).
    ///
    /// # Errors
    /// [`InspectorError::NotLoopback`] for an address other machines could
    /// reach (see [`bind_exposed`](Self::bind_exposed)),
    /// [`InspectorError::Address`] for one that does not resolve, and
    /// [`InspectorError::Bind`] when the port is taken.
    ///
    /// ```
    /// use ecs_inspector::Inspector;
    ///
    /// let inspector = Inspector::bind("127.0.0.1:0")?;
    /// assert!(inspector.local_addr().ip().is_loopback());
    /// assert!(inspector.url().starts_with("http://127.0.0.1:"));
    /// # Ok::<(), ecs_inspector::InspectorError>(())
    /// ```
    pub fn bind<A: ToSocketAddrs + fmt::Debug>(addr: A) -> Result<Self, InspectorError> {
        let addrs = resolve(&addr)?;
        if let Some(exposed) = addrs.iter().find(|a| !a.ip().is_loopback()) {
            return Err(InspectorError::NotLoopback { addr: *exposed });
        }
        Self::start(&addrs, true)
    }

    /// Starts an inspector on any address, such as `0.0.0.0:7878`, where
    /// other machines can reach it: for inspecting a game on a console or a
    /// second computer, on a network you trust. The `Host` header is not
    /// checked then, and with [`allow_writes`](Self::allow_writes) anyone who
    /// reaches the port can change the world.
    ///
    /// # Errors
    /// As [`bind`](Self::bind), less the loopback check.
    ///
    /// ```
    /// use ecs_inspector::Inspector;
    ///
    /// let inspector = Inspector::bind_exposed("127.0.0.1:0")?; // a loopback address works too
    /// assert!(inspector.local_addr().port() > 0);
    /// # Ok::<(), ecs_inspector::InspectorError>(())
    /// ```
    pub fn bind_exposed<A: ToSocketAddrs + fmt::Debug>(addr: A) -> Result<Self, InspectorError> {
        let addrs = resolve(&addr)?;
        Self::start(&addrs, false)
    }

    fn start(addrs: &[SocketAddr], check_host: bool) -> Result<Self, InspectorError> {
        let mut last_error = None;
        let listener = addrs.iter().find_map(|a| match TcpListener::bind(a) {
            Ok(listener) => Some(listener),
            Err(source) => {
                last_error = Some(InspectorError::Bind { addr: *a, source });
                None
            }
        });
        let Some(listener) = listener else {
            return Err(last_error.unwrap_or_else(|| InspectorError::Address {
                addr: String::new(),
                source: std::io::Error::new(std::io::ErrorKind::NotFound, "no address"),
            }));
        };
        let local = listener
            .local_addr()
            .map_err(|source| InspectorError::Bind {
                addr: addrs[0],
                source,
            })?;
        let hosts = check_host.then(|| {
            let port = local.port();
            vec![
                local.to_string(),
                format!("localhost:{port}"),
                format!("127.0.0.1:{port}"),
                format!("[::1]:{port}"),
            ]
        });
        let limits = Limits::default();
        let (jobs, receiver) = mpsc::channel();
        let shared = Arc::new(Shared {
            rate: Mutex::new(TokenBucket::new(limits.burst, limits.per_second)),
            limits: RwLock::new(limits),
            jobs,
            queued: AtomicUsize::new(0),
            active: AtomicUsize::new(0),
            writes: AtomicBool::new(false),
            hosts,
            stop: AtomicBool::new(false),
        });
        let server = Server::start(listener, shared).map_err(InspectorError::Thread)?;
        let shown = if local.ip().is_unspecified() {
            SocketAddr::new([127, 0, 0, 1].into(), local.port())
        } else {
            local
        };
        Ok(Self {
            server,
            jobs: receiver,
            editors: Editors::default(),
            control: Control::default(),
            budget: DEFAULT_BUDGET,
            url: format!("http://{shown}/"),
        })
    }

    /// Lets the page (and scripts) pause, step and resume the game, despawn
    /// entities and edit [`editable`](Self::editable) components. Without
    /// it every such request gets `403`.
    ///
    /// ```
    /// use ecs_inspector::Inspector;
    ///
    /// let inspector = Inspector::bind("127.0.0.1:0")?.allow_writes();
    /// assert!(inspector.writes());
    /// # Ok::<(), ecs_inspector::InspectorError>(())
    /// ```
    #[must_use]
    pub fn allow_writes(self) -> Self {
        self.server.shared().writes.store(true, Ordering::SeqCst);
        self
    }

    /// Whether writes are allowed.
    ///
    /// ```
    /// # use ecs_inspector::Inspector;
    /// assert!(!Inspector::bind("127.0.0.1:0")?.writes());
    /// # Ok::<(), ecs_inspector::InspectorError>(())
    /// ```
    pub fn writes(&self) -> bool {
        self.server.shared().writes.load(Ordering::SeqCst)
    }

    /// Shows `T`'s value as JSON on the entity's page and, with
    /// [`allow_writes`](Self::allow_writes), lets the page replace it
    /// (`PUT /api/entities/{id}/components/{name}`). Other types show their
    /// `Debug` text only.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use ecs_inspector::Inspector;
    ///
    /// #[derive(Component, Debug, serde::Serialize, serde::Deserialize)]
    /// struct Health(i32);
    ///
    /// let inspector = Inspector::bind("127.0.0.1:0")?.allow_writes().editable::<Health>();
    /// # let _ = inspector;
    /// # Ok::<(), ecs_inspector::InspectorError>(())
    /// ```
    #[must_use]
    pub fn editable<T: Component + Serialize + DeserializeOwned>(mut self) -> Self {
        self.editors.add(Editor::of::<T>());
        self
    }

    /// How long [`serve`](Self::serve) may answer requests in one call
    /// ([`DEFAULT_BUDGET`] unless set).
    ///
    /// ```
    /// use std::time::Duration;
    /// use ecs_inspector::Inspector;
    ///
    /// let inspector = Inspector::bind("127.0.0.1:0")?.with_budget(Duration::from_micros(500));
    /// assert_eq!(inspector.budget(), Duration::from_micros(500));
    /// # Ok::<(), ecs_inspector::InspectorError>(())
    /// ```
    #[must_use]
    pub fn with_budget(mut self, budget: Duration) -> Self {
        self.budget = budget;
        self
    }

    /// The budget of one [`serve`](Self::serve) call.
    ///
    /// ```
    /// use std::time::Duration;
    /// use ecs_inspector::Inspector;
    ///
    /// let inspector = Inspector::bind("127.0.0.1:0")?.with_budget(Duration::ZERO);
    /// assert_eq!(inspector.budget(), Duration::ZERO, "then serve answers one request a call");
    /// # Ok::<(), ecs_inspector::InspectorError>(())
    /// ```
    pub fn budget(&self) -> Duration {
        self.budget
    }

    /// Sets the server's [`Limits`]; connections already open keep the old
    /// ones.
    ///
    /// ```
    /// use ecs_inspector::{Inspector, Limits};
    ///
    /// let inspector = Inspector::bind("127.0.0.1:0")?
    ///     .with_limits(Limits { max_connections: 2, ..Limits::default() });
    /// assert_eq!(inspector.limits().max_connections, 2);
    /// # Ok::<(), ecs_inspector::InspectorError>(())
    /// ```
    #[must_use]
    pub fn with_limits(self, limits: Limits) -> Self {
        let shared = self.server.shared();
        if let Ok(mut rate) = shared.rate.lock() {
            *rate = TokenBucket::new(limits.burst, limits.per_second);
        }
        if let Ok(mut current) = shared.limits.write() {
            *current = limits;
        }
        self
    }

    /// The server's limits now.
    ///
    /// ```
    /// use ecs_inspector::{Inspector, Limits};
    ///
    /// assert_eq!(Inspector::bind("127.0.0.1:0")?.limits(), Limits::default());
    /// # Ok::<(), ecs_inspector::InspectorError>(())
    /// ```
    pub fn limits(&self) -> Limits {
        self.server.shared().limits()
    }

    /// The address the server listens on (with the port picked, for port 0).
    ///
    /// ```
    /// # use ecs_inspector::Inspector;
    /// let inspector = Inspector::bind("127.0.0.1:0")?;
    /// assert_ne!(inspector.local_addr().port(), 0);
    /// # Ok::<(), ecs_inspector::InspectorError>(())
    /// ```
    pub fn local_addr(&self) -> SocketAddr {
        self.server.addr()
    }

    /// The page's address, for a browser: `http://127.0.0.1:7878/`.
    ///
    /// ```
    /// use ecs_inspector::Inspector;
    ///
    /// let inspector = Inspector::bind("127.0.0.1:0")?;
    /// assert_eq!(inspector.url(), format!("http://{}/", inspector.local_addr()));
    /// # Ok::<(), ecs_inspector::InspectorError>(())
    /// ```
    pub fn url(&self) -> &str {
        &self.url
    }

    /// Whether the page paused the game (`POST /api/pause`, or a step).
    ///
    /// ```
    /// use ecs_inspector::Inspector;
    ///
    /// assert!(!Inspector::bind("127.0.0.1:0")?.allow_writes().is_paused());
    /// # Ok::<(), ecs_inspector::InspectorError>(())
    /// ```
    pub fn is_paused(&self) -> bool {
        self.control.is_paused()
    }

    /// Answers the requests waiting for the world and returns how many it
    /// answered; call it once a frame, between frames (after `schedule.run`). Each answer is
    /// built here, on the game's thread, and handed to the server's thread
    /// to send, so a slow client never holds the frame.
    ///
    /// It answers while its [`budget`](Self::budget) lasts, checked before
    /// each further request (the first pending one is always answered, so
    /// the page moves on even with a zero budget; one answer's work is
    /// bounded by [`Limits::max_page`]). With nothing pending it costs one
    /// look at a channel.
    ///
    /// While the page has the game paused (possible only with
    /// [`allow_writes`](Self::allow_writes)), `serve` holds the frame: it
    /// waits for requests and answers them until a resume, or a step,
    /// which lets exactly one frame run.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    /// use ecs_inspector::Inspector;
    ///
    /// let mut world = World::new();
    /// let schedule = Schedule::new();
    /// let mut inspector = Inspector::bind("127.0.0.1:0")?;
    /// assert_eq!(inspector.serve(&mut world, &schedule), 0); // nothing pending: returns at once
    /// assert!(!inspector.is_paused());
    /// # Ok::<(), ecs_inspector::InspectorError>(())
    /// ```
    pub fn serve(&mut self, world: &mut World, schedule: &Schedule) -> usize {
        self.control.frame_ran();
        let mut started: Option<Instant> = None;
        let mut answered = 0;
        loop {
            let job = if self.control.holds() {
                match self.jobs.recv() {
                    Ok(job) => job,
                    // The server is gone, so nobody can resume: go on.
                    Err(_) => {
                        self.control.resume();
                        return answered;
                    }
                }
            } else {
                match self.jobs.try_recv() {
                    Ok(job) => job,
                    Err(_) => return answered,
                }
            };
            let was_held = self.control.holds();
            let started = *started.get_or_insert_with(Instant::now);
            self.server.shared().queued.fetch_sub(1, Ordering::SeqCst);
            let writes = self.writes();
            let mut context = Context {
                editors: &self.editors,
                control: &mut self.control,
                writes,
            };
            let response = answer::answer(job.route, world, schedule, &mut context);
            // The connection may have given up waiting: then nobody listens.
            let _ = job.reply.try_send(response);
            answered += 1;
            // A step or a resume lets the frame run now: answers after it
            // belong to the frame after it.
            let released = was_held && !self.control.holds();
            if released || (!self.control.holds() && started.elapsed() >= self.budget) {
                return answered;
            }
        }
    }
}

/// Every address `addr` names.
fn resolve<A: ToSocketAddrs + fmt::Debug>(addr: &A) -> Result<Vec<SocketAddr>, InspectorError> {
    let shown = || format!("{addr:?}").trim_matches('"').to_owned();
    let addrs: Vec<SocketAddr> = addr
        .to_socket_addrs()
        .map_err(|source| InspectorError::Address {
            addr: shown(),
            source,
        })?
        .collect();
    if addrs.is_empty() {
        return Err(InspectorError::Address {
            addr: shown(),
            source: std::io::Error::new(std::io::ErrorKind::NotFound, "it names no address"),
        });
    }
    Ok(addrs)
}
