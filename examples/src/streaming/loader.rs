//! The loader thread: it builds the levels one after another while the game
//! plays, and hands each over a channel.

use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;

use super::BuiltLevel;

/// A thread that builds levels `1..=levels` in order.
///
/// The channel holds no level itself (a rendezvous), so the loader stays one
/// level ahead of the game: it builds the next level while the current one
/// plays, then waits until the game takes it.
///
/// ```
/// use examples::streaming::Loader;
///
/// let loader = Loader::spawn(3, 2);
/// let numbers: Vec<u32> = std::iter::from_fn(|| loader.next_level()).map(|l| l.number).collect();
/// assert_eq!(numbers, [1, 2]);
/// ```
pub struct Loader {
    levels: Option<Receiver<BuiltLevel>>,
    thread: Option<JoinHandle<()>>,
}

impl Loader {
    /// Starts the thread building the levels of `seed`, from 1 to `levels`.
    pub fn spawn(seed: u64, levels: u32) -> Self {
        let (sender, receiver) = sync_channel(0);
        let thread = std::thread::spawn(move || build_all(seed, levels, &sender));
        Self {
            levels: Some(receiver),
            thread: Some(thread),
        }
    }

    /// The next level, waiting for the loader to finish it if it has not yet;
    /// `None` once every level has been handed over.
    pub fn next_level(&self) -> Option<BuiltLevel> {
        self.levels.as_ref()?.recv().ok()
    }
}

fn build_all(seed: u64, levels: u32, sender: &SyncSender<BuiltLevel>) {
    for number in 1..=levels {
        if sender.send(BuiltLevel::new(seed, number)).is_err() {
            return; // the game ended early and dropped its end of the channel
        }
    }
}

impl Drop for Loader {
    fn drop(&mut self) {
        // Closing the channel first lets a loader blocked on `send` return.
        drop(self.levels.take());
        if let Some(thread) = self.thread.take()
            && let Err(panic) = thread.join()
            && !std::thread::panicking()
        {
            std::panic::resume_unwind(panic);
        }
    }
}
