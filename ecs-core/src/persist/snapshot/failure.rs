//! The words of a load's failure, kept beside the format's error.
//!
//! Some formats drop the message of a custom error (postcard reports only
//! "Serde Deserialization Error"), so every check that refuses a snapshot
//! also records its words here, and the load reports them.

use core::cell::RefCell;
use core::fmt::Display;

/// The first reason a load gave up, in words.
#[derive(Default)]
pub(super) struct Failure(RefCell<Option<String>>);

impl Failure {
    /// Records `reason` (unless an inner check already gave one) and
    /// returns it as the format's error.
    pub(super) fn fail<E: serde::de::Error>(&self, reason: impl Display) -> E {
        let text = reason.to_string();
        let mut first = self.0.borrow_mut();
        if first.is_none() {
            *first = Some(text.clone());
        }
        E::custom(text)
    }

    /// The reason to report for `error`, the format's error that ended the
    /// load: its own words where they carry the recorded reason (JSON adds
    /// where in the text), else the recorded reason, else its words alone.
    pub(super) fn reason(self, error: impl Display) -> String {
        let said = error.to_string();
        match self.0.into_inner() {
            Some(recorded) if !said.contains(&recorded) => recorded,
            _ => said,
        }
    }
}
