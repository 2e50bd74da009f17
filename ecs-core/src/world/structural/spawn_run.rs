//! A batch spawn's runs: bundles written straight past the end of each
//! storage's data, then committed many entities at a time, first under the
//! ids on the free list, then under fresh ones.

use crate::bundle::Bundle;
use crate::entity::Entity;
use crate::storage::RunIds;

use super::funnel::Structural;

/// Where a run's ids come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Source {
    /// The free list, most recently freed first, as `alloc` hands them out.
    Reused,
    /// Indices never handed out, taken once the free list is empty.
    Fresh,
}

impl Structural<'_> {
    /// Spawns one entity per bundle taken from `bundles` (of distinct types,
    /// no hook listening) under ids from `source`, appending the ids to
    /// `spawned`: a reused run stops when the free list is empty, a fresh run
    /// when `bundles` ends. Returns whether `bundles` ended.
    ///
    /// Values go straight past the end of each storage's data; ids, sparse
    /// slots, entity arrays, ticks and masks are written a run at a time (see
    /// [`SpawnRun`]).
    pub(super) fn spawn_run<B: Bundle>(
        &mut self,
        source: Source,
        mask: u64,
        columns: &B::Columns,
        tick: u64,
        bundles: &mut impl Iterator<Item = B>,
        spawned: &mut Vec<Entity>,
    ) -> bool {
        if source == Source::Reused {
            // Reused indices are below the slot count: with masks covering
            // them, a commit marks them without growing the table.
            self.masks.cover(self.entities.slot_count());
        }
        let mut run: SpawnRun<'_, '_, '_, B> = SpawnRun {
            structural: self,
            source,
            columns,
            mask,
            tick,
            spawned,
            written: 0,
        };
        let mut room = run.room();
        // A reused run ends when the free list has no id left for another
        // bundle, before it asks the iterator for one.
        let mut ids_left = match source {
            Source::Reused => run.structural.entities.free_count(),
            Source::Fresh => usize::MAX,
        };
        // SAFETY: the columns are root pointers of this world's storages,
        // which `self` borrows mutably, and no reference into them is held.
        let mut tails = unsafe { B::fresh_tails(columns) };
        while ids_left != 0 {
            let Some(bundle) = bundles.next() else {
                return true;
            };
            if room == 0 {
                room = run.commit_and_grow();
                // SAFETY: the columns are root pointers of this world's
                // storages, borrowed mutably, with no reference into them
                // held; the storages just grew, so the old tails are stale.
                tails = unsafe { B::fresh_tails(columns) };
            }
            // SAFETY: the tails are current (nothing grew or committed since
            // they were taken), and `written` is below the room the storages
            // had then: `room` counts down from it as `written` counts up. The
            // bundle's types are distinct (runs are made only for such), so
            // each place is written once.
            unsafe { bundle.write_fresh(&tails, run.written) };
            run.written += 1;
            room -= 1;
            ids_left -= 1;
        }
        // `run` drops on every return, committing the last values; it does
        // the same should the caller's iterator panic.
        false
    }
}

/// A batch spawn's run in progress: values written past the end of each
/// storage's data that no storage owns yet.
///
/// Committing makes the next `written` ids of the run's source alive (fresh
/// ones at once, reused ones popped from the free list in `alloc`'s order)
/// and hands every storage its values, with their sparse slots, entity ids
/// and ticks, and the masks. Dropping the run commits, so should the caller's
/// iterator panic between two bundles, every bundle it yielded before is a
/// whole, spawned entity and no value is lost. Nothing in a commit can panic:
/// every array it extends was reserved beforehand ([`room`](Self::room)),
/// the free list holds an id for every value written, and the sparse pages it
/// may allocate abort, not unwind, on failure.
struct SpawnRun<'s, 'a, 'c, B: Bundle> {
    structural: &'s mut Structural<'a>,
    source: Source,
    columns: &'c B::Columns,
    mask: u64,
    tick: u64,
    spawned: &'s mut Vec<Entity>,
    /// Bundles written past the tails and not yet committed.
    written: usize,
}

impl<B: Bundle> SpawnRun<'_, '_, '_, B> {
    /// How many entities can be written and committed with no array growing:
    /// the least room of the storages, the ids the source has left, the masks
    /// (for fresh ids; reused ones are covered) and `spawned`.
    fn room(&self) -> usize {
        let structural = &*self.structural;
        let entities = &*structural.entities;
        // SAFETY: the columns are root pointers of storages the funnel
        // borrows mutably; no reference into them is held.
        let storages = unsafe { B::fresh_room(self.columns) };
        let ids = match self.source {
            Source::Reused => entities.free_count(),
            Source::Fresh => entities
                .fresh_room()
                .min(structural.masks.room_from(entities.slot_count())),
        };
        storages
            .min(ids)
            .min(self.spawned.capacity() - self.spawned.len())
    }

    /// Commits what was written, then grows every array the run extends;
    /// returns the new room. A reused run calls it only while the free list
    /// still holds an id for the next bundle.
    ///
    /// # Panics
    /// When the indices or a storage run out, or on capacity overflow, with
    /// every entity written so far committed.
    #[cold]
    #[inline(never)]
    fn commit_and_grow(&mut self) -> usize {
        self.commit();
        let structural = &mut *self.structural;
        if self.source == Source::Fresh {
            // One more each: `Vec` grows by doubling, so a run of unknown
            // length costs a logarithmic number of commits.
            structural.entities.reserve_fresh(1);
            structural
                .masks
                .reserve_to(structural.entities.slot_count() + 1);
        }
        self.spawned.reserve(1);
        // SAFETY: the columns are root pointers of storages the funnel
        // borrows mutably, with no reference into them held; everything
        // written was just committed, so growing loses no value.
        unsafe { B::reserve_fresh(self.columns, 1) };
        let room = self.room();
        assert!(room > 0, "every array of the run has grown");
        room
    }

    /// Makes the written entities alive and hands the storages their values.
    fn commit(&mut self) {
        let count = core::mem::take(&mut self.written);
        if count == 0 {
            return;
        }
        let structural = &mut *self.structural;
        match self.source {
            Source::Fresh => {
                let first = structural.entities.commit_fresh(count);
                // SAFETY: the columns are root pointers of storages the funnel
                // borrows mutably, with no reference into them held; the
                // bundle's types are distinct; `count` bundles were written at
                // offsets `0..count` past the tails, within the room, since
                // the last commit; fresh ids are in no storage.
                unsafe { B::commit_run(self.columns, RunIds::Fresh { first, count }, self.tick) };
                structural.masks.mark_range(first.index(), count, self.mask);
                self.spawned
                    .extend((0..count as u32).map(|offset| first.shifted(offset)));
            }
            Source::Reused => {
                let start = self.spawned.len();
                let entities = &mut *structural.entities;
                // Within the room: the free list holds `count` ids, so each
                // `alloc` pops one, and `spawned` has the capacity.
                self.spawned
                    .extend(core::iter::repeat_with(|| entities.alloc()).take(count));
                let ids = &self.spawned[start..];
                // SAFETY: the columns are root pointers of storages the funnel
                // borrows mutably, with no reference into them held; the
                // bundle's types are distinct; `count` bundles were written at
                // offsets `0..count` past the tails, within the room, since
                // the last commit; a freed index was removed from every
                // storage before it joined the free list.
                unsafe { B::commit_run(self.columns, RunIds::Reused(ids), self.tick) };
                for entity in ids {
                    structural.masks.mark_all(entity.index(), self.mask);
                }
            }
        }
    }
}

impl<B: Bundle> Drop for SpawnRun<'_, '_, '_, B> {
    fn drop(&mut self) {
        self.commit();
    }
}
