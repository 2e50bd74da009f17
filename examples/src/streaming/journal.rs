//! What happened in a frame, in the words the demo prints.

use core::fmt;

use ecs_core::prelude::*;

/// Something worth a line of the log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Happening {
    /// A level arrived from the loader and replaced the previous one.
    LevelLoaded {
        /// The level's number.
        number: u32,
        /// How many entities the merge moved in.
        merged: usize,
        /// How many entities of the previous level were despawned.
        despawned: usize,
    },
    /// The player stepped on a switch and its door opened.
    DoorOpened {
        /// The door.
        door: Entity,
        /// The switch that opened it.
        switch: Entity,
        /// The score after the door's points.
        score: u32,
    },
    /// The player picked up a coin.
    CoinPicked {
        /// What it was worth.
        value: u32,
        /// The score after it.
        score: u32,
    },
    /// A guard stood on the player's tile.
    Spotted {
        /// The guard.
        guard: Entity,
        /// The score after the penalty.
        score: u32,
    },
    /// The player reached the level's exit.
    ExitReached {
        /// The level's number.
        number: u32,
    },
}

/// Points for an opened door.
pub const DOOR_POINTS: u32 = 10;
/// Points lost when a guard spots the player.
pub const SPOTTED_PENALTY: u32 = 5;

impl fmt::Display for Happening {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Self::LevelLoaded {
                number,
                merged,
                despawned,
            } => write!(
                f,
                "level {number} loaded: {merged} entities merged, {despawned} despawned"
            ),
            Self::DoorOpened {
                door,
                switch,
                score,
            } => write!(
                f,
                "switch {switch} opened door {door} (+{DOOR_POINTS}, score {score})"
            ),
            Self::CoinPicked { value, score } => write!(f, "coin +{value} (score {score})"),
            Self::Spotted { guard, score } => {
                write!(
                    f,
                    "guard {guard} spotted the player (-{SPOTTED_PENALTY}, score {score})"
                )
            }
            Self::ExitReached { number } => write!(f, "exit of level {number} reached"),
        }
    }
}

/// The resource the systems write what happens into; the game empties it
/// after each frame.
#[derive(Debug, Default)]
pub struct Journal(pub Vec<Happening>);

/// One frame's happenings. Printed, one line:
/// `frame  42  coin +3 (score 13); switch 5v1 opened door 12v1 (+10, score 23)`.
///
/// ```
/// use examples::streaming::{FrameLog, Happening};
///
/// let log = FrameLog {
///     frame: 7,
///     happenings: vec![Happening::CoinPicked { value: 3, score: 3 }],
/// };
/// assert_eq!(log.to_string(), "frame    7  coin +3 (score 3)");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FrameLog {
    /// The frame's number, from 1.
    pub frame: u64,
    /// What happened, in order.
    pub happenings: Vec<Happening>,
}

impl FrameLog {
    /// Whether nothing happened worth a line.
    pub fn is_quiet(&self) -> bool {
        self.happenings.is_empty()
    }
}

impl fmt::Display for FrameLog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "frame {:4} ", self.frame)?;
        for (i, happening) in self.happenings.iter().enumerate() {
            let separator = if i == 0 { " " } else { "; " };
            write!(f, "{separator}{happening}")?;
        }
        Ok(())
    }
}
