//! One run condition guarding a group of systems: asked once per frame, by
//! whichever member reaches it first, and its answer kept for the rest
//! (`(a, b, c).run_if(cond)`).

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use crate::error::Error;
use crate::world::World;

use super::access::SystemAccess;
use super::condition::{AnyCondition, RunCondition};
use super::param::SystemWorld;

/// The condition every member shares, and its answer this frame.
struct Shared {
    condition: Box<dyn AnyCondition>,
    /// The answer of this frame, once a member asked; cleared before each
    /// frame by the members' `prepare`.
    answer: Option<bool>,
}

/// A condition to share among systems, any number of them, also those a
/// schedule adds later (a set's condition): each gets a
/// [`member`](Self::member) handle.
#[derive(Clone)]
pub(crate) struct SharedCondition {
    shared: Arc<Mutex<Shared>>,
    access: SystemAccess,
    name: String,
}

impl SharedCondition {
    /// `condition`, to share; `explain` names it `name`.
    pub(crate) fn new(condition: RunCondition, name: String) -> Self {
        let condition = condition.into_inner();
        let access = condition.access().clone();
        Self {
            shared: Arc::new(Mutex::new(Shared {
                condition,
                answer: None,
            })),
            access,
            name,
        }
    }

    /// What the condition reads.
    pub(crate) fn access(&self) -> &SystemAccess {
        &self.access
    }

    /// How `explain` names the condition.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// One more system's handle on the condition.
    pub(crate) fn member(&self) -> RunCondition {
        RunCondition::from_inner(Box::new(SharedMember {
            shared: Arc::clone(&self.shared),
            access: self.access.clone(),
            name: self.name.clone(),
        }))
    }
}

/// One member's handle on a shared condition: what its `Conditional` asks.
pub(crate) struct SharedMember {
    shared: Arc<Mutex<Shared>>,
    /// The condition's reads, copied so that `access` needs no lock.
    access: SystemAccess,
    name: String,
}

impl SharedMember {
    /// `count` handles on `condition`, one per member of the group.
    pub(crate) fn handles(condition: RunCondition, count: usize) -> Vec<RunCondition> {
        let name = format!("{} (once for its group)", condition.name());
        let shared = SharedCondition::new(condition, name);
        (0..count).map(|_| shared.member()).collect()
    }

    /// The shared state, locked. A member that panicked while asking leaves
    /// at worst no answer, which the next member asks for again.
    fn lock(&self) -> MutexGuard<'_, Shared> {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl AnyCondition for SharedMember {
    fn name(&self) -> String {
        self.name.clone()
    }

    fn access(&self) -> &SystemAccess {
        &self.access
    }

    /// Readies the condition's params and forgets last frame's answer:
    /// every member prepares before the frame's first stage, so the first
    /// member to run this frame asks again.
    fn prepare(&mut self, world: &mut World) {
        let mut shared = self.lock();
        shared.answer = None;
        shared.condition.prepare(world);
    }

    unsafe fn evaluate(&mut self, world: SystemWorld<'_>) -> Result<bool, Error> {
        let mut shared = self.lock();
        if let Some(answer) = shared.answer {
            return Ok(answer);
        }
        // SAFETY: the caller keeps every system conflicting with this
        // member's access apart meanwhile (this function's contract), and
        // that access holds the condition's; the lock keeps the other
        // members from asking it at the same time.
        let answer = unsafe { shared.condition.evaluate(world)? };
        shared.answer = Some(answer);
        Ok(answer)
    }
}
