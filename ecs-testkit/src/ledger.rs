//! The drop ledger: every tracked value has an id, recorded when it is made and when it is
//! dropped, so a double drop or a leak shows up by id.
//!
//! Each test makes its own [`Ledger`] (tests share no state, so they run in parallel); values
//! that must panic in `Drop` come from [`Ledger::bomb`].

use std::collections::BTreeSet;
use std::fmt;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// What a ledger has seen.
#[derive(Default)]
struct LedgerState {
    next_id: u64,
    live: BTreeSet<u64>,
    created: usize,
    dropped: usize,
    errors: Vec<String>,
}

/// Records the creation and drop of every [`Token`] made from it, by id.
#[derive(Clone, Default)]
pub struct Ledger(Arc<Mutex<LedgerState>>);

impl Ledger {
    fn lock(&self) -> MutexGuard<'_, LedgerState> {
        // A panicking `Drop` never holds the lock, but stay usable if something else poisons it.
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn make(&self, panic_on_drop: bool) -> Token {
        let mut state = self.lock();
        let id = state.next_id;
        state.next_id += 1;
        state.created += 1;
        state.live.insert(id);
        Token {
            ledger: self.clone(),
            id,
            panic_on_drop,
        }
    }

    /// A tracked value.
    pub fn token(&self) -> Token {
        self.make(false)
    }

    /// A tracked value whose `Drop` panics (after recording the drop).
    pub fn bomb(&self) -> Token {
        self.make(true)
    }

    /// A second token with the id of an existing one, made without recording a creation: dropping
    /// both is a double drop. Only used to prove the ledger notices one.
    pub fn forge(&self, id: u64) -> Token {
        Token {
            ledger: self.clone(),
            id,
            panic_on_drop: false,
        }
    }

    /// The ids made and not dropped yet.
    pub fn live_ids(&self) -> BTreeSet<u64> {
        self.lock().live.clone()
    }

    /// Whether `id` was made and not dropped yet.
    pub fn is_live(&self, id: u64) -> bool {
        self.lock().live.contains(&id)
    }

    /// How many values are made and not dropped yet.
    pub fn live(&self) -> usize {
        self.lock().live.len()
    }

    /// How many values were made.
    pub fn created(&self) -> usize {
        self.lock().created
    }

    /// How many drops were recorded (double drops included).
    pub fn dropped(&self) -> usize {
        self.lock().dropped
    }

    /// Every double drop, and every bomb dropped while unwinding, in words.
    pub fn errors(&self) -> Vec<String> {
        self.lock().errors.clone()
    }

    /// No value was dropped twice (or while unwinding from another panic).
    pub fn assert_no_errors(&self) {
        let errors = self.errors();
        assert!(errors.is_empty(), "drop errors: {errors:?}");
    }

    /// Every value made was dropped exactly once.
    pub fn assert_all_dropped(&self) {
        self.assert_no_errors();
        let state = self.lock();
        assert!(state.live.is_empty(), "leaked ids: {:?}", state.live);
        assert_eq!(state.created, state.dropped, "created vs dropped");
    }
}

/// A value tracked by a [`Ledger`].
pub struct Token {
    ledger: Ledger,
    /// The value's id in its ledger.
    pub id: u64,
    panic_on_drop: bool,
}

impl Token {
    /// The value's id in its ledger.
    pub fn id(&self) -> u64 {
        self.id
    }
}

impl fmt::Debug for Token {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.id)
    }
}

impl PartialEq for Token {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}

impl Drop for Token {
    fn drop(&mut self) {
        {
            let mut state = self.ledger.lock();
            state.dropped += 1;
            if !state.live.remove(&self.id) {
                state
                    .errors
                    .push(format!("dropped id {} not live", self.id));
            }
        }
        if self.panic_on_drop {
            if std::thread::panicking() {
                // A second panic would abort the test process; record it instead.
                self.ledger
                    .lock()
                    .errors
                    .push(format!("bomb {} dropped while unwinding", self.id));
            } else {
                panic!("intentional panic in Drop of bomb #{}", self.id);
            }
        }
    }
}

/// The message of a panic payload (`panic!` gives a `&str` or a `String`).
pub fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<String>()
        .cloned()
        .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
        .unwrap_or_default()
}
