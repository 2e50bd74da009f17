//! Reading one request off a connection, within the limits: the head into a
//! buffer of at most `max_head_bytes`, parsed by `httparse`, then a body of
//! at most `max_body_bytes`, all before the connection's deadline; and, after
//! an error answer, draining what the client still sends before the same
//! deadline.

use std::io::{self, Read};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use crate::Limits;

use super::Response;

/// The methods the inspector answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Method {
    Get,
    Head,
    Post,
    Put,
    Delete,
}

/// One request, read whole.
#[derive(Clone, Debug)]
pub(crate) struct Request {
    pub(crate) method: Method,
    /// The path, without the query.
    pub(crate) path: String,
    /// What followed `?`, if anything.
    pub(crate) query: String,
    /// Header names in lower case, values as sent (lossily decoded).
    pub(crate) headers: Vec<(String, String)>,
    pub(crate) body: Vec<u8>,
}

impl Request {
    /// The first header called `name` (lower case).
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// Reads one request from `stream` before `deadline` (`None`: no deadline).
/// `Err` holds the answer to send instead (a 4xx or 5xx saying what was
/// wrong), or `None` when the client left and nothing should be sent.
pub(crate) fn read_request(
    stream: &mut TcpStream,
    limits: &Limits,
    deadline: Option<Instant>,
) -> Result<Request, Option<Response>> {
    let mut buf = vec![0u8; limits.max_head_bytes];
    let mut filled = 0;
    let (head_len, mut request) = loop {
        if filled == buf.len() {
            return Err(Some(Response::error(
                431,
                format!(
                    "the request line and headers exceed {} bytes",
                    limits.max_head_bytes
                ),
            )));
        }
        let n = read_some(stream, &mut buf[filled..], deadline, limits)?;
        filled += n;
        match parse_head(&buf[..filled], limits.max_headers) {
            Ok(Some(parsed)) => break parsed,
            Ok(None) => continue,
            Err(response) => return Err(Some(response)),
        }
    };

    if request.header("transfer-encoding").is_some() {
        return Err(Some(Response::error(
            501,
            "chunked request bodies are not accepted: send Content-Length",
        )));
    }
    let length = match request.header("content-length") {
        None => 0,
        Some(text) => text.trim().parse::<usize>().map_err(|_| {
            Some(Response::error(
                400,
                format!("Content-Length `{text}` is not a number"),
            ))
        })?,
    };
    if length > limits.max_body_bytes {
        return Err(Some(Response::error(
            413,
            format!(
                "the request body of {length} bytes exceeds {} bytes",
                limits.max_body_bytes
            ),
        )));
    }
    let mut body = buf[head_len..filled].to_vec();
    body.truncate(length);
    // Grown by what arrives, never by what the client announced.
    let mut chunk = [0u8; 8 * 1024];
    while body.len() < length {
        let want = (length - body.len()).min(chunk.len());
        let got = read_some(stream, &mut chunk[..want], deadline, limits)?;
        body.extend_from_slice(&chunk[..got]);
    }
    request.body = body;
    Ok(request)
}

/// The shortest wait a socket is given: a zero would mean no timeout.
pub(crate) const MIN_WAIT: Duration = Duration::from_millis(1);

/// The connection's deadline for a connection accepted at `accepted`; a
/// limit too large to add is no deadline at all, never a panic.
pub(crate) fn deadline(accepted: Instant, limits: &Limits) -> Option<Instant> {
    accepted.checked_add(limits.connection_deadline)
}

/// How long the next read may wait: at most `most`, and never past
/// `deadline`; `None` once the deadline has passed.
fn next_wait(deadline: Option<Instant>, most: Duration) -> Option<Duration> {
    let left = deadline.map_or(Duration::MAX, |d| {
        d.saturating_duration_since(Instant::now())
    });
    // A zero timeout would mean "wait forever" to the socket.
    (!left.is_zero()).then(|| left.min(most).max(MIN_WAIT))
}

/// The 408 for a request that did not arrive in time, saying which bound
/// it ran into.
fn too_slow(deadline: Option<Instant>, limits: &Limits) -> Response {
    let past_deadline = deadline.is_some_and(|d| Instant::now() >= d);
    let reason = if past_deadline {
        format!(
            "the request took too long to arrive: a connection has {:?} to send it whole",
            limits.connection_deadline
        )
    } else {
        format!(
            "the request took too long to arrive: nothing came for {:?}",
            limits.io_timeout
        )
    };
    Response::error(408, reason)
}

/// Reads at least one byte before `deadline` (`None`: no deadline), each
/// wait at most `io_timeout`. A closed connection or an error gives
/// `Err(None)`; a client too slow, a 408.
fn read_some(
    stream: &mut TcpStream,
    into: &mut [u8],
    deadline: Option<Instant>,
    limits: &Limits,
) -> Result<usize, Option<Response>> {
    let Some(wait) = next_wait(deadline, limits.io_timeout) else {
        return Err(Some(too_slow(deadline, limits)));
    };
    stream.set_read_timeout(Some(wait)).map_err(|_| None)?;
    match stream.read(into) {
        Ok(0) => Err(None),
        Ok(n) => Ok(n),
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
            ) =>
        {
            Err(Some(too_slow(deadline, limits)))
        }
        Err(e) if e.kind() == io::ErrorKind::Interrupted => Ok(0),
        Err(_) => Err(None),
    }
}

/// Reads and throws away what the client still sends after an error
/// answer, so that closing with unread bytes does not reset the connection
/// and lose the answer before the client reads it. It stops at the
/// client's end, after `quiet` without a byte, after `max` bytes, or at
/// `deadline`, whichever comes first: a client trickling bytes cannot hold
/// its connection past the deadline.
pub(crate) fn drain(
    stream: &mut TcpStream,
    deadline: Option<Instant>,
    quiet: Duration,
    max: usize,
) {
    let mut scratch = [0u8; 8 * 1024];
    let mut left = max;
    while left > 0 {
        let Some(wait) = next_wait(deadline, quiet) else {
            return;
        };
        if stream.set_read_timeout(Some(wait)).is_err() {
            return;
        }
        let want = left.min(scratch.len());
        match stream.read(&mut scratch[..want]) {
            Ok(0) => return,
            Ok(n) => left -= n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return,
        }
    }
}

/// The request head in `bytes`, if complete: its length and the request
/// without a body.
fn parse_head(bytes: &[u8], max_headers: usize) -> Result<Option<(usize, Request)>, Response> {
    let mut headers = vec![httparse::EMPTY_HEADER; max_headers];
    let mut parsed = httparse::Request::new(&mut headers);
    let head_len = match parsed.parse(bytes) {
        Ok(httparse::Status::Complete(n)) => n,
        Ok(httparse::Status::Partial) => return Ok(None),
        Err(httparse::Error::TooManyHeaders) => {
            return Err(Response::error(
                431,
                format!("the request has more than {max_headers} headers"),
            ));
        }
        Err(e) => return Err(Response::error(400, format!("malformed request: {e}"))),
    };
    if parsed.version != Some(1) && parsed.version != Some(0) {
        return Err(Response::error(
            505,
            "only HTTP/1.0 and HTTP/1.1 are spoken here",
        ));
    }
    let method = match parsed.method.unwrap_or("") {
        "GET" => Method::Get,
        "HEAD" => Method::Head,
        "POST" => Method::Post,
        "PUT" => Method::Put,
        "DELETE" => Method::Delete,
        other => {
            return Err(Response::error(
                501,
                format!("the method `{}` is not answered here", truncate(other)),
            ));
        }
    };
    let target = parsed.path.unwrap_or("");
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let headers = parsed
        .headers
        .iter()
        .map(|h| {
            (
                h.name.to_ascii_lowercase(),
                String::from_utf8_lossy(h.value).into_owned(),
            )
        })
        .collect();
    Ok(Some((
        head_len,
        Request {
            method,
            path: path.to_owned(),
            query: query.to_owned(),
            headers,
            body: Vec::new(),
        },
    )))
}

/// At most 40 characters of client text, for a reason phrase.
pub(crate) fn truncate(text: &str) -> String {
    let mut short: String = text.chars().take(40).collect();
    if short.len() < text.len() {
        short.push('…');
    }
    short
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_parses_into_method_path_query_and_lower_case_headers() {
        let raw =
            b"GET /api/entities?with=Position HTTP/1.1\r\nHost: 127.0.0.1\r\nX-A: b\r\n\r\nrest";
        let (len, request) = parse_head(raw, 8).unwrap().unwrap();
        assert_eq!(len, raw.len() - 4);
        assert_eq!(request.method, Method::Get);
        assert_eq!(
            (request.path.as_str(), request.query.as_str()),
            ("/api/entities", "with=Position")
        );
        assert_eq!(request.header("x-a"), Some("b"));
    }

    #[test]
    fn partial_heads_wait_and_bad_ones_get_reasons() {
        assert!(
            parse_head(b"GET / HTTP/1.1\r\nHost: x\r\n", 8)
                .unwrap()
                .is_none()
        );
        let bad = parse_head(b"GET / HTTP/1.1\r\nHo st: x\r\n\r\n", 8).unwrap_err();
        assert_eq!(bad.status, 400);
        let many = parse_head(b"GET / HTTP/1.1\r\na: 1\r\nb: 2\r\nc: 3\r\n\r\n", 2).unwrap_err();
        assert_eq!(many.status, 431);
        let brew = parse_head(b"BREW / HTTP/1.1\r\n\r\n", 2).unwrap_err();
        assert_eq!(brew.status, 501);
    }
}
