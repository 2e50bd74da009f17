//! Recorded commands written in place, one after another, into one byte
//! buffer: recording a command copies its value behind a small header and
//! allocates nothing once the buffer has grown, and a queue applied frame
//! after frame keeps its buffer.
//!
//! ```text
//! bytes: | header | value (header.size bytes) | header | value | ...
//!          run, size, spawned
//! ```
//!
//! Values are written and read unaligned, so a record takes exactly its
//! header and its value, whatever their alignment.

use core::mem::{MaybeUninit, size_of};

use crate::entity::Entity;
use crate::error::Error;
use crate::util::DeferredPanic;

use super::World;

/// Runs the value at the pointer on the world, or drops it unrun when given
/// no world; either way the value is moved out, and its bytes are dead.
///
/// # Safety
/// The pointer is the start of a value of the type the function was made
/// for, written by [`CommandBytes::push`] and not yet moved out.
type RunCommand = unsafe fn(*mut MaybeUninit<u8>, Option<&mut World>) -> Result<(), Error>;

/// What precedes each value in the buffer.
#[derive(Clone, Copy)]
struct Header {
    run: RunCommand,
    /// The value's size in bytes.
    size: usize,
    /// The entity a spawn gives its bundle; `None` for other commands.
    spawned: Option<Entity>,
}

const HEADER: usize = size_of::<Header>();

/// Commands recorded in order, each a value of its own type behind a
/// [`Header`] in one byte buffer.
///
/// Invariants: `bytes` holds exactly `count` records back to back, each a
/// `Header` followed by `header.size` bytes of a live value of the type
/// `header.run` was made for; every value is `Send` (what
/// [`push`](Self::push) requires).
#[derive(Default)]
pub(crate) struct CommandBytes {
    bytes: Vec<MaybeUninit<u8>>,
    count: usize,
}

// SAFETY: every value in the buffer is `Send` (`push` requires it), and the
// buffer owns them: moving the buffer to another thread moves them.
unsafe impl Send for CommandBytes {}

// SAFETY: no method taking `&self` reads a value or a byte of one: through a
// shared reference only the count and the headers are read.
unsafe impl Sync for CommandBytes {}

/// The [`RunCommand`] of values of type `C`.
///
/// # Safety
/// As for [`RunCommand`]: `value` starts a live `C` written by `push`, not moved
/// out before.
unsafe fn run_value<C>(value: *mut MaybeUninit<u8>, world: Option<&mut World>) -> Result<(), Error>
where
    C: FnOnce(&mut World) -> Result<(), Error>,
{
    // SAFETY: a live `C` starts at `value` (the caller's contract); reading
    // it moves it out, and the caller never reads those bytes again.
    let command = unsafe { value.cast::<C>().read_unaligned() };
    match world {
        Some(world) => command(world),
        None => {
            drop(command);
            Ok(())
        }
    }
}

impl CommandBytes {
    /// How many commands are recorded.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.count
    }

    /// Whether no command is recorded.
    #[inline]
    pub(crate) fn is_empty(&self) -> bool {
        self.count == 0
    }

    /// Records `command`, after every command recorded before it; a spawn
    /// names the entity it gives a bundle as `spawned`.
    #[inline]
    pub(crate) fn push<C>(&mut self, spawned: Option<Entity>, command: C)
    where
        C: FnOnce(&mut World) -> Result<(), Error> + Send + 'static,
    {
        let size = size_of::<C>();
        let header = Header {
            run: run_value::<C>,
            size,
            spawned,
        };
        let at = self.bytes.len();
        self.bytes.reserve(HEADER + size);
        // SAFETY: `reserve` made room for `HEADER + size` bytes past `at`,
        // the buffer's length; both writes are unaligned, so any address
        // will do; the new length covers exactly the bytes just written,
        // which are now a header and a live `C`, as the invariant requires.
        unsafe {
            let record = self.bytes.as_mut_ptr().add(at);
            record.cast::<Header>().write_unaligned(header);
            record.add(HEADER).cast::<C>().write_unaligned(command);
            self.bytes.set_len(at + HEADER + size);
        }
        self.count += 1;
    }

    /// The header of the record starting at byte `at`.
    ///
    /// # Safety
    /// A record starts at `at` (a header is written there).
    #[inline]
    unsafe fn header_at(&self, at: usize) -> Header {
        debug_assert!(at + HEADER <= self.bytes.len(), "a record starts here");
        // SAFETY: a header was written at `at` (the caller's contract), and
        // headers are read unaligned, as written.
        unsafe {
            self.bytes
                .as_ptr()
                .add(at)
                .cast::<Header>()
                .read_unaligned()
        }
    }

    /// The entities the recorded spawns give bundles, in order.
    pub(crate) fn spawned(&self) -> impl Iterator<Item = Entity> + '_ {
        Records::from(self, 0).filter_map(|(_, header)| header.spawned)
    }

    /// Moves every command of `other` after this buffer's own, leaving
    /// `other` empty.
    pub(crate) fn append(&mut self, other: &mut CommandBytes) {
        self.bytes.extend_from_slice(&other.bytes);
        self.count += other.count;
        // The values moved with their bytes: `other` must not drop them.
        other.bytes.clear();
        other.count = 0;
    }

    /// Takes the commands out one at a time, in order; whatever the walk
    /// leaves is dropped unrun when it ends. The buffer keeps its capacity.
    pub(crate) fn drain(&mut self) -> Drain<'_> {
        Drain {
            queue: self,
            next: 0,
        }
    }

    /// Drops every command unrun, each one even past a panicking `Drop`;
    /// the first such panic resumes.
    pub(crate) fn discard(&mut self) {
        self.drain().finish();
    }
}

impl Drop for CommandBytes {
    fn drop(&mut self) {
        // No record, no value to drop (`bytes` holds exactly `count`
        // records): the common end of an observer's or a system's buffer
        // that recorded nothing.
        if self.count != 0 {
            self.discard();
        }
    }
}

/// The start and header of each record of a buffer, from a record's start.
struct Records<'a> {
    queue: &'a CommandBytes,
    next: usize,
}

impl<'a> Records<'a> {
    /// The records of `queue` from byte `at`, where a record starts (or the
    /// buffer ends).
    fn from(queue: &'a CommandBytes, at: usize) -> Self {
        Self { queue, next: at }
    }
}

impl Iterator for Records<'_> {
    type Item = (usize, Header);

    fn next(&mut self) -> Option<(usize, Header)> {
        if self.next >= self.queue.bytes.len() {
            return None;
        }
        let at = self.next;
        // SAFETY: records lie back to back from the buffer's start (type
        // invariant) and `next` only ever steps from one start to the next.
        let header = unsafe { self.queue.header_at(at) };
        self.next = at + HEADER + header.size;
        Some((at, header))
    }
}

/// A walk taking a buffer's commands out in order.
///
/// Invariant: `next` is where the first record not taken starts (or the
/// buffer's end); the records before it have been moved out, those from
/// it are live.
pub(crate) struct Drain<'a> {
    queue: &'a mut CommandBytes,
    next: usize,
}

/// One command taken out of the buffer: run it, or drop it (dropping the
/// `Taken` drops the command unrun).
pub(crate) struct Taken<'d> {
    value: *mut MaybeUninit<u8>,
    header: Header,
    _drain: core::marker::PhantomData<&'d mut ()>,
}

impl Taken<'_> {
    /// The entity the command gives a bundle, if it is a spawn.
    #[inline]
    pub(crate) fn spawned(&self) -> Option<Entity> {
        self.header.spawned
    }

    /// Runs the command on `world`.
    #[inline]
    pub(crate) fn run(self, world: &mut World) -> Result<(), Error> {
        let this = core::mem::ManuallyDrop::new(self);
        // SAFETY: the value was written by `push` with this header, and the
        // walk stepped past it when it was taken, so nothing else moves it
        // out; `this` is never dropped, so neither does its `Drop`.
        unsafe { (this.header.run)(this.value, Some(world)) }
    }
}

impl Drop for Taken<'_> {
    fn drop(&mut self) {
        // SAFETY: the value was written by `push` with this header and the
        // walk stepped past it when it was taken, so it is live and nothing
        // else moves it out; `run` forgets the `Taken` it consumes, so this
        // runs only for a command that did not run.
        drop(unsafe { (self.header.run)(self.value, None) });
    }
}

impl Drain<'_> {
    /// The next command, no longer the buffer's: it runs or drops when the
    /// caller says, and a panic meanwhile leaves the walk at the one after.
    #[inline]
    pub(crate) fn next(&mut self) -> Option<Taken<'_>> {
        if self.next >= self.queue.bytes.len() {
            return None;
        }
        // SAFETY: a record starts at `next` (type invariant).
        let header = unsafe { self.queue.header_at(self.next) };
        // SAFETY: the record's value follows its header, within the buffer.
        let value = unsafe { self.queue.bytes.as_mut_ptr().add(self.next + HEADER) };
        self.next += HEADER + header.size;
        Some(Taken {
            value,
            header,
            _drain: core::marker::PhantomData,
        })
    }

    /// The entities the spawns not taken yet give bundles, in order.
    pub(crate) fn spawned_rest(&self) -> impl Iterator<Item = Entity> + '_ {
        Records::from(self.queue, self.next).filter_map(|(_, header)| header.spawned)
    }

    /// Drops every command not taken, unrun, each one even past a panicking
    /// `Drop`, into `panics`; then the buffer is empty.
    pub(crate) fn drop_rest(&mut self, panics: &mut DeferredPanic) {
        while let Some(taken) = self.next() {
            panics.run(|| drop(taken));
        }
        self.queue.bytes.clear();
        self.queue.count = 0;
    }

    /// Drops what is left and resumes the first panic a `Drop` raised.
    fn finish(mut self) {
        let mut panics = DeferredPanic::default();
        self.drop_rest(&mut panics);
        panics.resume();
    }
}

impl Drop for Drain<'_> {
    fn drop(&mut self) {
        if self.next < self.queue.bytes.len() {
            let mut panics = DeferredPanic::default();
            self.drop_rest(&mut panics);
            panics.resume();
        } else {
            self.queue.bytes.clear();
            self.queue.count = 0;
        }
    }
}
