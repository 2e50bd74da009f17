//! What queries have learned about storages that hold the same entities at the
//! same positions, kept until either storage reorders.

use core::hash::BuildHasherDefault;
use std::collections::HashMap;
use std::hash::DefaultHasher;

use crate::component::ComponentId;
use crate::entity::Entity;

/// A storage's dense order, as far as alignment goes: which storage, its
/// entities, and how often they have moved.
#[derive(Clone, Copy)]
pub(crate) struct DenseOrder<'a> {
    pub(crate) component: ComponentId,
    pub(crate) entities: &'a [Entity],
    pub(crate) reorders: u64,
}

/// One pair of storages: over `len` leading positions they held the same
/// entities when they had reordered `driver_reorders` and `column_reorders` times.
#[derive(Clone, Copy)]
struct Known {
    driver_reorders: u64,
    column_reorders: u64,
    len: usize,
}

/// Aligned prefixes per (driving storage, other storage).
///
/// A storage's reorder count changes whenever an entity in it changes
/// position; appending does not change it. So a prefix recorded at the same
/// two counts is still aligned, and only positions appended since need to be
/// compared. In a frame where those storages saw no removal, a query reads
/// them as zipped arrays without comparing a single entity id.
#[derive(Default)]
pub(crate) struct AlignmentCache {
    known: HashMap<(ComponentId, ComponentId), Known, BuildHasherDefault<DefaultHasher>>,
}

impl AlignmentCache {
    /// How many leading positions of `column` hold exactly `driver`'s entities.
    pub(crate) fn aligned_prefix(
        &mut self,
        driver: DenseOrder<'_>,
        column: DenseOrder<'_>,
    ) -> usize {
        let (driver_id, column_id) = (driver.component, column.component);
        if driver_id == column_id {
            return driver.entities.len();
        }
        let limit = driver.entities.len().min(column.entities.len());
        let key = (driver_id, column_id);
        let mut len = match self.known.get(&key) {
            Some(known)
                if known.driver_reorders == driver.reorders
                    && known.column_reorders == column.reorders =>
            {
                known.len.min(limit)
            }
            _ => 0,
        };
        len += driver.entities[len..limit]
            .iter()
            .zip(&column.entities[len..limit])
            .take_while(|(a, b)| a == b)
            .count();
        self.known.insert(
            key,
            Known {
                driver_reorders: driver.reorders,
                column_reorders: column.reorders,
                len,
            },
        );
        len
    }
}
