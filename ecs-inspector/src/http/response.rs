//! An answer: status, type and body, written whole and then the
//! connection closed.

use std::io::{self, Write};

/// One response, built before any byte is written.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Response {
    pub(crate) status: u16,
    pub(crate) content_type: &'static str,
    pub(crate) body: Vec<u8>,
    /// `Allow`, for a 405.
    pub(crate) allow: Option<&'static str>,
}

impl Response {
    /// `200` with a JSON body.
    pub(crate) fn json(value: &serde_json::Value) -> Self {
        Self::json_status(200, value)
    }

    pub(crate) fn json_status(status: u16, value: &serde_json::Value) -> Self {
        Self {
            status,
            content_type: "application/json",
            body: serde_json::to_vec(value).unwrap_or_default(),
            allow: None,
        }
    }

    /// A 4xx or 5xx whose JSON body says why: `{"error": "..."}`.
    pub(crate) fn error(status: u16, reason: impl Into<String>) -> Self {
        Self::json_status(status, &serde_json::json!({ "error": reason.into() }))
    }

    /// `405`, naming the methods the path takes.
    pub(crate) fn method_not_allowed(allow: &'static str) -> Self {
        Self {
            allow: Some(allow),
            ..Self::error(405, format!("this path takes {allow}"))
        }
    }

    /// A file of the page.
    pub(crate) fn file(content_type: &'static str, body: &'static str) -> Self {
        Self {
            status: 200,
            content_type,
            body: body.as_bytes().to_vec(),
            allow: None,
        }
    }

    /// The response as bytes on the wire; `head_only` leaves the body out
    /// (for `HEAD`), keeping its length.
    pub(crate) fn write_to(&self, out: &mut impl Write, head_only: bool) -> io::Result<()> {
        let mut head = format!(
            "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\
             Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
             Content-Security-Policy: default-src 'self'; frame-ancestors 'none'\r\n",
            self.status,
            reason_phrase(self.status),
            self.content_type,
            self.body.len(),
        );
        if let Some(allow) = self.allow {
            head.push_str("Allow: ");
            head.push_str(allow);
            head.push_str("\r\n");
        }
        head.push_str("\r\n");
        out.write_all(head.as_bytes())?;
        if !head_only {
            out.write_all(&self.body)?;
        }
        out.flush()
    }
}

fn reason_phrase(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Content Too Large",
        414 => "URI Too Long",
        415 => "Unsupported Media Type",
        422 => "Unprocessable Content",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        501 => "Not Implemented",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Error",
    }
}
