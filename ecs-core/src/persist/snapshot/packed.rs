//! A column's values packed as one byte string, for binary formats.
//!
//! A snapshot does not know its format's type when a component type is
//! registered, nor the component types when it is written, so a value
//! written through the format itself crosses a type-erased serializer, and
//! every field of it pays a dynamic call. In a binary format (one that is not
//! human-readable) a column's values are instead encoded here, by code
//! monomorphised for their type, in postcard's wire format, and the format
//! writes the result as one byte string: the erased layer is crossed once per
//! column. Human-readable formats keep a sequence of values, which a reader
//! of the text can see.
//!
//! Zero-sized types (tags) carry no bytes: their columns stay sequences.

use core::fmt;

use serde::Serialize;
use serde::de::{DeserializeOwned, DeserializeSeed, Deserializer, SeqAccess, Visitor};

use super::failure::Failure;
use crate::component::Component;
use crate::entity::Entity;
use crate::storage::Storages;

/// Whether `T`'s column is packed in binary formats: every type but a
/// zero-sized one.
pub(super) const fn packs<T>() -> bool {
    size_of::<T>() != 0
}

/// A postcard output that appends to a borrowed `Vec`.
struct Appending<'a>(&'a mut Vec<u8>);

impl postcard::ser_flavors::Flavor for Appending<'_> {
    type Output = ();

    #[inline(always)]
    fn try_push(&mut self, data: u8) -> postcard::Result<()> {
        self.0.push(data);
        Ok(())
    }

    #[inline(always)]
    fn try_extend(&mut self, data: &[u8]) -> postcard::Result<()> {
        self.0.extend_from_slice(data);
        Ok(())
    }

    fn finalize(self) -> postcard::Result<()> {
        Ok(())
    }
}

/// Appends the postcard encoding of each of `values`, one after another
/// (no count: the column's entities give it), to `out`.
pub(super) fn pack<T: Serialize>(values: &[T], out: &mut Vec<u8>) -> postcard::Result<()> {
    // Plain data encodes to about its size; a guess that saves the regrowths.
    out.reserve(size_of_val(values));
    let mut serializer = postcard::Serializer {
        output: Appending(out),
    };
    for value in values {
        value.serialize(&mut serializer)?;
    }
    Ok(())
}

/// Decodes one `T` per entity of `entities` from `bytes`, in order, into
/// `T`'s storage in `storages`; every byte must be used. Errors are in words.
pub(super) fn unpack<T: Component + DeserializeOwned>(
    name: &'static str,
    entities: &[Entity],
    storages: &mut Storages,
    bytes: &[u8],
) -> Result<(), String> {
    let id = storages.register::<T>();
    let set = storages.typed_mut::<T>(id);
    // A value takes a byte or more in almost every type: reserve no more
    // values than there are bytes.
    set.reserve(entities.len().min(bytes.len()));
    let mut input = postcard::Deserializer::from_bytes(bytes);
    for &entity in entities {
        let Ok(value) = T::deserialize(&mut input) else {
            return Err(misread::<T>(name, entities.len(), bytes));
        };
        // Ticks are stamped when the column moves into its world.
        if set.insert(entity, value, 0).is_some() {
            return Err(format!("it lists entity {entity:?} twice in `{name}`"));
        }
    }
    match input.finalize() {
        Ok([]) => Ok(()),
        Ok(rest) => Err(format!(
            "`{name}` has more values than its {} entities ({} bytes left over)",
            entities.len(),
            rest.len()
        )),
        Err(error) => Err(format!("a value of `{name}`: {error}")),
    }
}

/// Why `bytes` do not hold `count` values of `T`, in words. Read again
/// value by value: a value may take no bytes (every field skipped), so only
/// a failed read tells whether the bytes ran out between two values.
#[cold]
fn misread<T: DeserializeOwned>(name: &str, count: usize, bytes: &[u8]) -> String {
    let mut rest = bytes;
    for placed in 0..count {
        let mut input = postcard::Deserializer::from_bytes(rest);
        match T::deserialize(&mut input) {
            Ok(_) => rest = input.finalize().unwrap_or_default(),
            Err(_) if rest.is_empty() => {
                return format!("`{name}` has {placed} values for {count} entities");
            }
            Err(error) => return format!("a value of `{name}`: {error}"),
        }
    }
    format!("the values of `{name}` cannot be read")
}

/// Reads a packed column's byte string, however the format hands it over,
/// and unpacks it with `unpack`.
pub(super) struct PackedSeed<'a> {
    pub(super) name: &'static str,
    pub(super) failure: &'a Failure,
    pub(super) unpack: &'a mut dyn FnMut(&[u8]) -> Result<(), String>,
}

impl<'de> DeserializeSeed<'de> for PackedSeed<'_> {
    type Value = ();

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_bytes(self)
    }
}

impl PackedSeed<'_> {
    fn unpacked<E: serde::de::Error>(self, bytes: &[u8]) -> Result<(), E> {
        (self.unpack)(bytes).map_err(|reason| self.failure.fail(reason))
    }
}

impl<'de> Visitor<'de> for PackedSeed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "the packed values of `{}`, as bytes", self.name)
    }

    fn visit_bytes<E: serde::de::Error>(self, bytes: &[u8]) -> Result<(), E> {
        self.unpacked(bytes)
    }

    fn visit_byte_buf<E: serde::de::Error>(self, bytes: Vec<u8>) -> Result<(), E> {
        self.unpacked(&bytes)
    }

    /// Formats that write bytes as a sequence of numbers: the bytes are
    /// gathered as they arrive, never reserved by a stated length.
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let mut bytes = Vec::new();
        while let Some(byte) = seq.next_element::<u8>()? {
            bytes.push(byte);
        }
        self.unpacked(&bytes)
    }
}

#[cfg(test)]
mod tests {
    use serde::de::DeserializeSeed;
    use serde::de::value::{BytesDeserializer, Error, SeqDeserializer};

    use super::PackedSeed;
    use crate::persist::snapshot::failure::Failure;

    /// Reads `deserializer` through a `PackedSeed` that keeps the bytes it is handed.
    fn handed<'de, D: serde::Deserializer<'de, Error = Error>>(
        deserializer: D,
    ) -> Result<Vec<u8>, Error> {
        let failure = Failure::default();
        let mut seen = Vec::new();
        PackedSeed {
            name: "game::Position",
            failure: &failure,
            unpack: &mut |bytes| {
                seen.extend_from_slice(bytes);
                Ok(())
            },
        }
        .deserialize(deserializer)?;
        Ok(seen)
    }

    /// A format may hand the packed bytes over as bytes or as a sequence of
    /// numbers; either reaches the unpacking whole.
    #[test]
    fn packed_bytes_arrive_as_bytes_or_as_a_sequence() {
        let bytes = [1u8, 2, 250];
        assert_eq!(handed(BytesDeserializer::new(&bytes)).unwrap(), bytes);
        let seq = SeqDeserializer::<_, Error>::new(bytes.into_iter());
        assert_eq!(handed(seq).unwrap(), bytes);
    }

    /// An unpacking's refusal is the load's error, in its words.
    #[test]
    fn a_refused_unpacking_is_an_error_in_its_words() {
        let failure = Failure::default();
        let result = PackedSeed {
            name: "game::Position",
            failure: &failure,
            unpack: &mut |_| Err("`game::Position` has 0 values for 1 entities".to_owned()),
        }
        .deserialize(BytesDeserializer::<Error>::new(&[]));
        let error = result.unwrap_err();
        assert_eq!(
            failure.reason(error),
            "`game::Position` has 0 values for 1 entities"
        );
    }
}
