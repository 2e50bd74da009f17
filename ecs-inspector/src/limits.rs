//! How much the inspector's server accepts: request sizes, connections,
//! rate, waiting times and page sizes.

use std::time::Duration;

/// The bounds the inspector's server keeps, whatever its clients send.
/// [`Limits::default`] suits a browser tab or two and scripts on the same
/// machine; [`Inspector::with_limits`](crate::Inspector::with_limits) sets
/// others.
///
/// ```
/// use std::time::Duration;
/// use ecs_inspector::Limits;
///
/// let limits = Limits { max_connections: 4, io_timeout: Duration::from_secs(2), ..Limits::default() };
/// assert_eq!(limits.max_head_bytes, 8 * 1024);
/// assert_eq!(limits.max_connections, 4);
/// // However a client spaces its bytes, it has 5 s to send its request.
/// assert_eq!(limits.connection_deadline, Duration::from_secs(5));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Limits {
    /// The request line and headers together, in bytes; past it the answer
    /// is `431 Request Header Fields Too Large`.
    pub max_head_bytes: usize,
    /// Headers in one request; past it, `431`.
    pub max_headers: usize,
    /// A request body, in bytes; past it, `413 Content Too Large`.
    pub max_body_bytes: usize,
    /// Connections open at once; past it a new one gets `503` and is closed.
    pub max_connections: usize,
    /// How long one read or write on a connection may wait.
    pub io_timeout: Duration,
    /// How long a connection may take, counted from when it is accepted, to
    /// send its request line, headers and body, and, after an error answer,
    /// whatever else it sends (read and thrown away so that closing does not
    /// lose the answer). Past it a request not yet read whole gets `408
    /// Request Timeout`, and the connection is closed, giving its place under
    /// [`max_connections`](Self::max_connections) back; each read within it
    /// still waits at most [`io_timeout`](Self::io_timeout). The game's
    /// [`reply_timeout`](Self::reply_timeout) is not part of it. A duration
    /// too long to add to the clock is no deadline at all.
    pub connection_deadline: Duration,
    /// How long a request waits for the game to call
    /// [`serve`](crate::Inspector::serve) before it gets `503`.
    pub reply_timeout: Duration,
    /// Requests waiting for the game at once; past it, `503`.
    pub queued_requests: usize,
    /// Requests answered in a burst before the rate applies; past both,
    /// `429 Too Many Requests`.
    pub burst: u32,
    /// Requests a second, on average, once the burst is spent (0: none).
    pub per_second: f64,
    /// Rows in one page of the entity table.
    pub max_page: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_head_bytes: 8 * 1024,
            max_headers: 32,
            max_body_bytes: 64 * 1024,
            max_connections: 16,
            io_timeout: Duration::from_secs(5),
            connection_deadline: Duration::from_secs(5),
            reply_timeout: Duration::from_secs(10),
            queued_requests: 64,
            burst: 200,
            per_second: 100.0,
            max_page: 500,
        }
    }
}
