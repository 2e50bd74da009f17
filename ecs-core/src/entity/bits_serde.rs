//! `Entity` in serde formats (feature `serde`): its 64 bits, as
//! [`Entity::to_bits`] packs them, so a component holding an id can be saved
//! in a snapshot.

use serde::de::{Deserialize, Deserializer, Error as _};
use serde::ser::{Serialize, Serializer};

use super::Entity;

impl Serialize for Entity {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_u64(self.to_bits())
    }
}

/// Refuses bits whose version half is 0, which no entity has.
impl<'de> Deserialize<'de> for Entity {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let bits = u64::deserialize(deserializer)?;
        Entity::from_bits(bits).ok_or_else(|| {
            D::Error::custom(format_args!(
                "the entity id {bits:#x} has version 0, which no entity has"
            ))
        })
    }
}

#[cfg(test)]
mod tests {
    use core::num::NonZeroU32;

    use super::*;

    #[test]
    fn an_entity_is_its_bits() {
        let e = Entity::new(7, NonZeroU32::new(3).unwrap());
        let json = serde_json::to_string(&e).unwrap();
        assert_eq!(json, (3u64 << 32 | 7).to_string());
        assert_eq!(serde_json::from_str::<Entity>(&json).unwrap(), e);
        assert!(serde_json::from_str::<Entity>("7").is_err());
    }
}
