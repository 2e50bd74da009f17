//! A request that needs the world, on its way from a connection's thread to
//! the game's [`serve`](crate::Inspector::serve), with the way back.

use std::sync::mpsc::SyncSender;

use crate::http::Response;
use crate::route::Route;

/// What the connection asks, and where its answer goes (a channel of one,
/// so answering never waits; a connection that gave up is simply gone).
pub(crate) struct Job {
    pub(crate) route: Route,
    pub(crate) reply: SyncSender<Response>,
}
