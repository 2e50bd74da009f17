//! Sequences read without trusting the length the input states: the first
//! allocation is capped, and the vector grows only as elements arrive.

use core::fmt;
use core::marker::PhantomData;

use serde::de::{Deserialize, DeserializeSeed, Deserializer, SeqAccess, Visitor};

/// The most elements reserved before any has been read.
const FIRST_CAPACITY: usize = 4096;

/// What to reserve for a sequence that says it holds `hint` elements.
pub(super) fn first_capacity(hint: Option<usize>) -> usize {
    hint.unwrap_or(0).min(FIRST_CAPACITY)
}

/// Reads a `Vec<T>`, reserving at most [`FIRST_CAPACITY`] elements up front
/// whatever length the input claims (a postcard length can say 2^60).
pub(super) struct CappedVec<T>(PhantomData<T>);

impl<T> CappedVec<T> {
    pub(super) fn new() -> Self {
        Self(PhantomData)
    }
}

impl<'de, T: Deserialize<'de>> DeserializeSeed<'de> for CappedVec<T> {
    type Value = Vec<T>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Vec<T>, D::Error> {
        deserializer.deserialize_seq(self)
    }
}

impl<'de, T: Deserialize<'de>> Visitor<'de> for CappedVec<T> {
    type Value = Vec<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a sequence")
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
        let mut out = Vec::with_capacity(first_capacity(seq.size_hint()));
        while let Some(element) = seq.next_element()? {
            out.push(element);
        }
        Ok(out)
    }
}
