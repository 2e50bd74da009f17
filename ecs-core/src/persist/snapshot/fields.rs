//! Reading a struct's fields in their written order, whether the format hands
//! them over as a sequence (postcard and other formats that do not describe
//! themselves) or as a map (JSON).
//!
//! A snapshot's later fields depend on earlier ones (a column's values on its
//! name), so fields must come in order; a map whose keys come in another
//! order is refused rather than buffered.

use core::fmt;

use serde::de::{DeserializeSeed, Error as _, IgnoredAny, MapAccess, SeqAccess};

/// Where a struct's fields come from.
pub(super) trait Fields<'de> {
    type Error: serde::de::Error;

    /// The next field, which must be `name`, read with `seed`.
    fn field<S: DeserializeSeed<'de>>(
        &mut self,
        name: &'static str,
        seed: S,
    ) -> Result<S::Value, Self::Error>;

    /// Checks that no field follows the last one read.
    fn end(self) -> Result<(), Self::Error>;
}

/// Fields as the elements of a sequence, by position.
pub(super) struct InSeq<A>(pub(super) A);

impl<'de, A: SeqAccess<'de>> Fields<'de> for InSeq<A> {
    type Error = A::Error;

    fn field<S: DeserializeSeed<'de>>(
        &mut self,
        name: &'static str,
        seed: S,
    ) -> Result<S::Value, A::Error> {
        self.0
            .next_element_seed(seed)?
            .ok_or_else(|| A::Error::missing_field(name))
    }

    fn end(self) -> Result<(), A::Error> {
        // The format checks the length it announced: asking for one more
        // element would read past the struct in a format without lengths.
        Ok(())
    }
}

/// Fields as the entries of a map, keyed by name, in order.
pub(super) struct InMap<A>(pub(super) A);

impl<'de, A: MapAccess<'de>> Fields<'de> for InMap<A> {
    type Error = A::Error;

    fn field<S: DeserializeSeed<'de>>(
        &mut self,
        name: &'static str,
        seed: S,
    ) -> Result<S::Value, A::Error> {
        match self.0.next_key::<String>()? {
            Some(key) if key == name => self.0.next_value_seed(seed),
            Some(key) => Err(A::Error::custom(format_args!(
                "expected the field `{name}`, found `{key}` (a snapshot's fields come in a fixed order)"
            ))),
            None => Err(A::Error::missing_field(name)),
        }
    }

    fn end(mut self) -> Result<(), A::Error> {
        match self.0.next_key::<IgnoredAny>()? {
            None => Ok(()),
            Some(_) => Err(A::Error::custom(
                "a field follows the last one a snapshot has",
            )),
        }
    }
}

/// Says what a struct visitor expects.
pub(super) fn expecting_struct(f: &mut fmt::Formatter<'_>, name: &str) -> fmt::Result {
    write!(
        f,
        "a snapshot's {name}, as a sequence or a map of its fields"
    )
}
