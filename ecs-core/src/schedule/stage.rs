//! Stages: the named steps of a frame, run in order.

use core::any::TypeId;
use core::fmt;

/// A step of a frame. The built-in stages run in this order each
/// [`Schedule::run`](super::Schedule::run):
///
/// 1. `Startup`, on the first run only;
/// 2. `First`, `PreUpdate`;
/// 3. the state switches `NextState` asked for, each running its `OnExit`
///    and then its `OnEnter` stage (on the first run, the `OnEnter` stage of
///    each state's first value);
/// 4. `FixedUpdate`, once per whole fixed step the world's
///    [`Time`](crate::time::Time) accumulated (zero or more times);
/// 5. `Update`, `PostUpdate`, `Last`.
///
/// A game adds its own stages before or after any stage with
/// [`Schedule::add_stage_after`](super::Schedule::add_stage_after) and
/// [`add_stage_before`](super::Schedule::add_stage_before), naming them with
/// a string literal (`"physics"`) or [`Stage::custom`]; a string naming a
/// built-in stage is that stage. [`OnEnter`](super::OnEnter) and
/// [`OnExit`](super::OnExit) of a state value are stages too.
///
/// Each stage ends with its systems' commands applied, so a stage sees every
/// change the stages before it asked for. `Stage` is `Copy`.
///
/// ```
/// use ecs_core::prelude::*;
///
/// assert_eq!(Stage::from("Update"), Stage::Update);
/// assert_eq!(Stage::from("physics"), Stage::custom("physics"));
/// assert_eq!(Stage::custom("physics").to_string(), "physics");
/// let stage = Stage::Update;
/// let copy = stage; // `Copy`
/// assert_eq!(stage, copy);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Stage {
    /// Runs once, at the start of the schedule's first run: setup.
    Startup,
    /// The first stage of every frame: input, time.
    First,
    /// Before the game logic: spawning, loading.
    PreUpdate,
    /// Game logic at a fixed rate: runs once per whole step of the world's
    /// [`Time`](crate::time::Time), zero or more times a frame.
    FixedUpdate,
    /// The game logic.
    Update,
    /// After the game logic: physics results, transforms.
    PostUpdate,
    /// The last stage of a frame: stats, cleanup.
    Last,
    /// A stage the game added, by name.
    Custom(&'static str),
    /// Runs when a state machine enters a value: made from
    /// [`OnEnter`](super::OnEnter).
    OnEnter(StateKey),
    /// Runs when a state machine leaves a value: made from
    /// [`OnExit`](super::OnExit).
    OnExit(StateKey),
}

/// One value of one state type, as a stage knows it: the type and a
/// 64-bit hash of the value.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug)]
/// enum Mode { A, B }
///
/// let a = Stage::from(OnEnter(Mode::A));
/// assert_ne!(a, Stage::from(OnEnter(Mode::B)));
/// assert_ne!(a, Stage::from(OnExit(Mode::A)));
/// assert_eq!(a, Stage::from(OnEnter(Mode::A)));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct StateKey {
    pub(crate) state: TypeId,
    pub(crate) value: u64,
    pub(crate) type_name: &'static str,
}

impl fmt::Debug for StateKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}#{:016x}",
            crate::util::ShortName(self.type_name),
            self.value
        )
    }
}

impl Stage {
    /// The built-in stages, in run order.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// let schedule = Schedule::new();
    /// assert!(schedule.stages().eq(Stage::BUILT_IN.iter()));
    /// ```
    pub const BUILT_IN: [Stage; 7] = [
        Stage::Startup,
        Stage::First,
        Stage::PreUpdate,
        Stage::FixedUpdate,
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
    pub fn custom(name: &'static str) -> Stage {
        Stage::BUILT_IN
            .into_iter()
            .find(|stage| stage.name() == name)
            .unwrap_or(Stage::Custom(name))
    }

    /// The stage's name; a state stage's is `OnEnter` or `OnExit` (its
    /// [`Display`](fmt::Display) adds the state type).
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// assert_eq!(Stage::PreUpdate.name(), "PreUpdate");
    /// ```
    pub fn name(&self) -> &'static str {
        match self {
            Stage::Startup => "Startup",
            Stage::First => "First",
            Stage::PreUpdate => "PreUpdate",
            Stage::FixedUpdate => "FixedUpdate",
            Stage::Update => "Update",
            Stage::PostUpdate => "PostUpdate",
            Stage::Last => "Last",
            Stage::Custom(name) => name,
            Stage::OnEnter(_) => "OnEnter",
            Stage::OnExit(_) => "OnExit",
        }
    }

    /// Whether the schedule runs this stage in its place in the list of
    /// stages (every stage but the state stages, which run on switches).
    pub(crate) fn is_listed(&self) -> bool {
        !matches!(self, Stage::OnEnter(_) | Stage::OnExit(_))
    }
}

impl fmt::Display for Stage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stage::OnEnter(key) => write!(f, "OnEnter({key:?})"),
            Stage::OnExit(key) => write!(f, "OnExit({key:?})"),
            _ => f.write_str(self.name()),
        }
    }
}

impl From<&'static str> for Stage {
    fn from(name: &'static str) -> Stage {
        Stage::custom(name)
    }
}

impl From<&Stage> for Stage {
    fn from(stage: &Stage) -> Stage {
        *stage
    }
}

/// Where [`Schedule::add_system`](super::Schedule::add_system) puts a
/// system: a [`Stage`], a stage's name (`"physics"`), or a state stage
/// ([`OnEnter`](super::OnEnter), [`OnExit`](super::OnExit)).
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::schedule::IntoStage;
///
/// #[derive(States, Clone, Copy, PartialEq, Eq, Hash, Debug)]
/// enum Mode { Menu }
///
/// assert_eq!(Stage::Update.label(), "Update");
/// assert_eq!(OnEnter(Mode::Menu).label(), "OnEnter(Mode::Menu)");
/// ```
pub trait IntoStage: Sized {
    /// The stage.
    fn into_stage(self) -> Stage;

    /// How the schedule names the stage in explanations and stats.
    fn label(&self) -> String;
}

impl IntoStage for Stage {
    fn into_stage(self) -> Stage {
        self
    }

    fn label(&self) -> String {
        self.to_string()
    }
}

impl IntoStage for &Stage {
    fn into_stage(self) -> Stage {
        *self
    }

    fn label(&self) -> String {
        self.to_string()
    }
}

impl IntoStage for &'static str {
    fn into_stage(self) -> Stage {
        Stage::custom(self)
    }

    fn label(&self) -> String {
        Stage::custom(self).to_string()
    }
}
