//! What can go wrong starting an inspector.

use core::fmt;
use std::io;
use std::net::SocketAddr;

/// Why [`Inspector::bind`](crate::Inspector::bind) failed.
///
/// ```
/// use ecs_inspector::{Inspector, InspectorError};
///
/// let error = Inspector::bind("0.0.0.0:0").unwrap_err();
/// assert!(matches!(error, InspectorError::NotLoopback { .. }));
/// assert!(error.to_string().contains("bind_exposed"));
/// ```
#[derive(Debug)]
#[non_exhaustive]
pub enum InspectorError {
    /// The address did not parse or resolve.
    Address {
        /// The address as given.
        addr: String,
        /// What the resolver said.
        source: io::Error,
    },
    /// The address names no loopback interface, so other machines could
    /// reach the world; [`Inspector::bind_exposed`](crate::Inspector::bind_exposed)
    /// says that is meant.
    NotLoopback {
        /// The address it resolved to.
        addr: SocketAddr,
    },
    /// The socket could not be bound (the port is taken, or not allowed).
    Bind {
        /// The address tried.
        addr: SocketAddr,
        /// What the system said.
        source: io::Error,
    },
    /// The server's thread could not be started.
    Thread(io::Error),
}

impl fmt::Display for InspectorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InspectorError::Address { addr, source } => {
                write!(
                    f,
                    "the inspector's address `{addr}` is not usable: {source}"
                )
            }
            InspectorError::NotLoopback { addr } => write!(
                f,
                "the inspector would listen on {addr}, which other machines can reach; \
                 use a loopback address such as 127.0.0.1, or `Inspector::bind_exposed` \
                 to expose the world on purpose"
            ),
            InspectorError::Bind { addr, source } => {
                write!(f, "the inspector could not listen on {addr}: {source}")
            }
            InspectorError::Thread(source) => {
                write!(
                    f,
                    "the inspector could not start its server thread: {source}"
                )
            }
        }
    }
}

impl std::error::Error for InspectorError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            InspectorError::Address { source, .. }
            | InspectorError::Bind { source, .. }
            | InspectorError::Thread(source) => Some(source),
            InspectorError::NotLoopback { .. } => None,
        }
    }
}
