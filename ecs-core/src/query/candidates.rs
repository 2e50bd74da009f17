//! Where a query's candidates come from, and which of their positions are known aligned.

use crate::entity::Entity;
use crate::group::GroupSpan;

use super::Query;
use super::column::Required;
use super::data::QueryData;
use super::filter::QueryFilter;
use super::iter::Candidates;

impl<'w, Q: QueryData, F: QueryFilter> Query<'w, Q, F> {
    /// How many leading positions of the driving storage hold, in every storage
    /// `Q` reads by position, the same entities, from what the world's cache
    /// knows and the entities appended since.
    pub(super) fn learn_alignment(&self) -> usize {
        if Q::LEAVES < 2 {
            // One column at most: aligned with the driver or not read by position.
            return 0;
        }
        let Some(driver) = self.driver() else {
            return 0;
        };
        let mut cache = self.world.alignment_cache();
        let mut prefix = driver.entities.len();
        Q::for_each_required(&self.data, &mut |column: Required<'w>| {
            if prefix > 0 {
                prefix = prefix.min(cache.aligned_prefix(&driver, &column));
            }
        });
        prefix
    }

    /// The smallest storage every match must be in.
    fn driver(&self) -> Option<Required<'w>> {
        let mut smallest: Option<Required<'w>> = None;
        let mut consider = |required: Required<'w>| {
            if smallest.is_none_or(|best| required.entities.len() < best.entities.len()) {
                smallest = Some(required);
            }
        };
        Q::for_each_required(&self.data, &mut consider);
        F::for_each_required(&self.filter, &mut consider);
        smallest
    }

    /// The smallest required storage's entities, or every live entity.
    ///
    /// When every required storage is owned by one group, the group's packed
    /// prefix of the driving storage is known to be aligned.
    pub(crate) fn candidates(&self) -> Candidates<'w> {
        let mut smallest: Option<&'w [Entity]> = None;
        let mut shared_group = SharedGroup::Unknown;
        let mut consider = |required: Required<'w>| {
            if smallest.is_none_or(|best| required.entities.len() < best.len()) {
                smallest = Some(required.entities);
            }
            shared_group.add(required.group);
        };
        Q::for_each_required(&self.data, &mut consider);
        F::for_each_required(&self.filter, &mut consider);
        // Positions below `known` are read by index from every column of `Q`:
        // never past the shortest of them, whatever the group or cache says.
        let mut shortest = usize::MAX;
        Q::for_each_required(&self.data, &mut |column: Required<'w>| {
            shortest = shortest.min(column.entities.len());
        });
        match smallest {
            Some(entities) => {
                let known = shared_group.prefix().max(self.known_aligned).min(shortest);
                Candidates::dense(entities, known)
            }
            None => Candidates::Alive(self.world.entities().iter_alive()),
        }
    }
}

/// Whether every required storage seen so far belongs to the same group.
#[derive(Clone, Copy)]
enum SharedGroup {
    Unknown,
    All(GroupSpan),
    Mixed,
}

impl SharedGroup {
    fn add(&mut self, group: Option<GroupSpan>) {
        *self = match (*self, group) {
            (SharedGroup::Unknown, Some(span)) => SharedGroup::All(span),
            (SharedGroup::All(span), Some(other)) if span.group == other.group => {
                SharedGroup::All(span)
            }
            _ => SharedGroup::Mixed,
        };
    }

    /// How many leading positions of any of the storages are known aligned.
    fn prefix(self) -> usize {
        match self {
            SharedGroup::All(span) => span.len,
            SharedGroup::Unknown | SharedGroup::Mixed => 0,
        }
    }
}
