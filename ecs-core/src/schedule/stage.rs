//! Stages: the named steps of a frame, run in order.

use core::fmt;
use std::borrow::Cow;

/// A step of a frame. The five built-in stages run in the order
/// `First`, `PreUpdate`, `Update`, `PostUpdate`, `Last`; a game adds its own
/// before or after any stage with
/// [`Schedule::add_stage_after`](super::Schedule::add_stage_after) and
/// [`add_stage_before`](super::Schedule::add_stage_before), and names them
/// with [`Stage::custom`] or a plain string.
///
/// Each stage ends with its systems' commands applied, so a stage sees every
/// change the stages before it asked for.
///
/// ```
/// use ecs_core::prelude::*;
///
/// assert_eq!(Stage::from("Update"), Stage::Update);
/// assert_eq!(Stage::from("physics"), Stage::custom("physics"));
/// assert_eq!(Stage::custom("physics").to_string(), "physics");
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// The first stage of a frame: input, time.
    First,
    /// Before the game logic: spawning, loading.
    PreUpdate,
    /// The game logic.
    Update,
    /// After the game logic: physics results, transforms.
    PostUpdate,
    /// The last stage of a frame: stats, cleanup.
    Last,
    /// A stage the game added, by name.
    Custom(Cow<'static, str>),
}

impl Stage {
    /// The built-in stages, in run order.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let schedule = Schedule::new();
    /// assert!(schedule.stages().eq(Stage::BUILT_IN.iter()));
    /// ```
    pub const BUILT_IN: [Stage; 5] = [
        Stage::First,
        Stage::PreUpdate,
        Stage::Update,
        Stage::PostUpdate,
        Stage::Last,
    ];

    /// The stage named `name`: a built-in one if the name is one of theirs.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// assert_eq!(Stage::custom("Last"), Stage::Last);
    /// assert_eq!(Stage::custom("ai").name(), "ai");
    /// ```
    pub fn custom(name: impl Into<Cow<'static, str>>) -> Stage {
        let name = name.into();
        Stage::BUILT_IN
            .into_iter()
            .find(|stage| stage.name() == name)
            .unwrap_or(Stage::Custom(name))
    }

    /// The stage's name.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// assert_eq!(Stage::PreUpdate.name(), "PreUpdate");
    /// ```
    pub fn name(&self) -> &str {
        match self {
            Stage::First => "First",
            Stage::PreUpdate => "PreUpdate",
            Stage::Update => "Update",
            Stage::PostUpdate => "PostUpdate",
            Stage::Last => "Last",
            Stage::Custom(name) => name,
        }
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl From<&'static str> for Stage {
    fn from(name: &'static str) -> Stage {
        Stage::custom(name)
    }
}

impl From<String> for Stage {
    fn from(name: String) -> Stage {
        Stage::custom(name)
    }
}

impl From<&Stage> for Stage {
    fn from(stage: &Stage) -> Stage {
        stage.clone()
    }
}
