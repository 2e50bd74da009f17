//! Fault injection: random operations on a world with observers, a schedule and a one-shot
//! system, each of which may carry a fault (a `Drop`, an observer, a command, a system or a
//! `MapEntities` that panics), run against a model that knows how each call must end under its
//! fault.
//!
//! The world holds [`Fuse`], [`Wick`] and [`Link`] values, each counted by a ledger and able to
//! panic when armed, and the [`Glow`] and [`Ash`] its observers write: `OnInsert<Wick>`
//! records `insert(e, Glow(wick))`, `OnRemove<Fuse>` records `spawn(Ash(fuse))`, `OnAdd<Fuse>`
//! records nothing. A fault is armed on one value or one observer run just before its
//! operation and disarmed after it; an armed observer panics after recording its commands.
//!
//! What each call promises when its fault strikes (from the guide's reliability chapter,
//! `docs/guide/reliability.md`, and the fault tests of `ecs-core`), which [`Shadow`] models and
//! [`FaultHarness`] asserts, the call's panic reaching the caller once:
//!
//! | call | fault | the world afterwards |
//! |---|---|---|
//! | `spawn`, `spawn_batch`, `insert_bundle` | `Drop` of a value the bundle replaces (a repeated type, or a value the entity held) | **after**: every value of every bundle stored, the additions' observers run and their commands applied, then the panic |
//! | `spawn`, `spawn_batch`, `insert`, `insert_bundle` | an `OnAdd` / `OnInsert` observer | **after** the call's own change, with none of its observers' commands applied (those of earlier runs too) |
//! | `insert_bundle`, `insert` on a dead entity | `Drop` of the value handed in | **before** (nothing changes; the error is not returned, the panic is) |
//! | `remove` | its `OnRemove` observer | **before**: the component stays; the `Ash` id the observer reserved is despawned |
//! | `despawn`, `clear` | `Drop` of one or two of the values leaving | **after**: the entity (every entity) gone, every value dropped once, the `OnRemove` observers' commands applied; the first panic, once |
//! | `despawn`, `clear` | an `OnRemove` observer | **before**: nothing removed; the ids the observers reserved (one per run, the panicking run's too) despawned in order |
//! | `merge` | `MapEntities` of an arriving `Link` | **before**, exactly: no id taken, no value moved, no observer run; the staging world's values dropped once |
//! | `merge` | an `OnAdd` / `OnInsert` observer | **after** the merge, with none of its observers' commands applied |
//! | `flush`, a stage's commands, a one-shot run's commands | the command at position `k` panics (by itself, or by a fault of the call it makes, as above) | the commands before `k` applied (each a whole call), command `k` as its call promises, those after it dropped unapplied (each value once); every id a spawn that did not apply reserved (`k`'s too) despawned, in order |
//! | `Schedule::run` | a system (the recording one mid-way, or the one reading after it) | **before** the stage: every buffer dropped unapplied, each id its spawns reserved despawned, in order |
//! | `Schedule::run`, `run_system` | the recording system mid-way, and the `Drop` of a value it recorded | as the system's panic alone: that `Drop`'s panic is dropped, the system's goes on |
//! | `run_system` | the one-shot system mid-way | **before** the run: its buffer dropped unapplied, each id its spawns reserved despawned, in order; its next run applies only its own commands |
//!
//! After every operation, panicking or not, the whole state is compared with the model (every
//! live and dead id, every value, `stats()`, where each `Link` points) and the ledger must
//! hold exactly the values the world holds, none dropped twice; when the run ends, the world
//! is dropped and every value made must have been dropped exactly once. An armed value
//! panics in `Drop` even while another panic unwinds, as a game's type would, so a value the
//! world drops outside its `catch_unwind`s during an unwind aborts the test binary.

mod op;
mod run;
mod shadow;
mod values;

pub use op::{Aim, Cmd, Fault, FaultOp, Kind, LevelEntity, LinkTo, Step, step};
pub use run::{FaultHarness, Script};
pub use shadow::{Ends, Panic, Planned, Shadow};
pub use values::{
    Ash, Charge, Faults, Fragile, Fuse, GiveBatch, GiveBundle, Glow, Link, Made, Shape, Watcher,
    Wick, charged, give_batch, keys,
};
