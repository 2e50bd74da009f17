//! The inspector's HTTP/1.1 server: a thread that accepts connections and
//! one short-lived thread per connection (as many as
//! [`Limits::max_connections`](crate::Limits::max_connections)), each
//! reading one request into bounded buffers, answering it, and closing.
//! Nothing here touches the world: requests that need it travel to the
//! game's thread as jobs.

mod rate;
mod request;
mod response;
mod server;

pub(crate) use rate::TokenBucket;
pub(crate) use request::{Method, Request, truncate};
pub(crate) use response::Response;
pub(crate) use server::{Server, Shared};
