//! `schedule.explain()`: per stage, the order, the parallel batches, and why
//! each pair of systems that may not overlap may not.

use core::fmt;

use crate::system::Conflict;

use super::Stage;

/// Why a schedule runs its systems the way it does, stage by stage.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component)]
/// struct Position(f32);
///
/// fn movement(_: Query<&mut Position>) {}
/// fn physics(_: Query<&mut Position>) {}
/// fn music() {}
///
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, movement)?;
/// schedule.add_system(Stage::Update, physics)?;
/// schedule.add_system(Stage::Update, music)?;
/// let why = schedule.explain()?;
/// let update = why.stage(Stage::Update).unwrap();
/// assert_eq!(update.batches, [vec!["movement", "music"], vec!["physics"]]);
/// assert_eq!(
///     update.conflicts[0].to_string(),
///     "`movement` and `physics` cannot overlap: both reach `Position` (both write)"
/// );
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Explanation {
    /// Every stage, in run order.
    pub stages: Vec<StageExplanation>,
}

/// One stage of an [`Explanation`].
///
/// ```
/// use ecs_core::prelude::*;
///
/// fn spawn() {}
/// fn render() {}
///
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Last, render)?;
/// schedule.add_system(Stage::Last, spawn.before("render"))?;
/// let last = schedule.explain()?.stage(Stage::Last).unwrap().clone();
/// assert_eq!(last.order, ["spawn", "render"]);
/// assert_eq!(last.batches, [vec!["spawn"], vec!["render"]], "ordered, so never at once");
/// assert!(last.conflicts.is_empty(), "they touch nothing in common");
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct StageExplanation {
    /// The stage.
    pub stage: Stage,
    /// The stage's name as shown: a state stage's with its value
    /// (`OnEnter(GameState::Playing)`).
    pub label: String,
    /// Its systems in the order their commands apply (and a single thread
    /// would meet them): orderings first, registration order otherwise.
    pub order: Vec<String>,
    /// Its systems grouped into batches that run one after another; the
    /// systems of one batch may run at once.
    pub batches: Vec<Vec<String>>,
    /// Every pair of its systems that may not overlap, and why.
    pub conflicts: Vec<Overlap>,
    /// The batches (indices into `batches`) before which the commands of
    /// the systems before them apply, because a system of the batch is
    /// ordered after one with params that defer (`Commands`): sync points
    /// the orderings insert. An exclusive system's batch is a sync point
    /// too, and not listed.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// fn trigger(mut commands: Commands) { commands.spawn(()); }
    /// fn evaluate(_: Query<Entity>) {}
    ///
    /// let mut schedule = Schedule::new();
    /// schedule.add_systems(Stage::Update, (trigger, evaluate).chain())?;
    /// let why = schedule.explain()?;
    /// assert_eq!(why.stage(Stage::Update).unwrap().sync_points, [1]);
    /// assert_eq!(
    ///     why.to_string(),
    ///     "stage Update: 2 systems\n  batch 1 (alone): trigger\n  \
    ///      sync point: commands so far apply\n  batch 2 (alone): evaluate\n"
    /// );
    /// # Ok::<(), Error>(())
    /// ```
    pub sync_points: Vec<usize>,
    /// The systems with run conditions, in `order`, each with the names of
    /// its conditions (all must hold).
    pub conditions: Vec<(String, Vec<String>)>,
}

/// Two systems that may not run at once, the first one running first.
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::system::Conflict;
///
/// struct Score(u32);
/// fn add(mut s: ResMut<Score>) { s.0 += 1; }
/// fn show(s: Res<Score>) { let _ = s.0; }
///
/// let mut schedule = Schedule::new();
/// schedule.add_system(Stage::Update, add)?;
/// schedule.add_system(Stage::Update, show)?;
/// let why = schedule.explain()?;
/// let overlap = &why.stage(Stage::Update).unwrap().conflicts[0];
/// assert_eq!((overlap.first.as_str(), overlap.second.as_str()), ("add", "show"));
/// assert!(matches!(overlap.reason, Conflict::Resource { .. }));
/// # Ok::<(), Error>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Overlap {
    /// The system that runs first.
    pub first: String,
    /// The system that waits for it.
    pub second: String,
    /// What they both touch.
    pub reason: Conflict,
}

impl Explanation {
    /// The explanation of `stage`, if the schedule has it and it has systems.
    ///
    /// ```
    /// # use ecs_core::prelude::*;
    /// fn tick() {}
    ///
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::First, tick)?;
    /// let why = schedule.explain()?;
    /// assert!(why.stage(Stage::First).is_some());
    /// assert!(why.stage(Stage::Last).is_none(), "no systems there");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn stage(&self, stage: impl Into<Stage>) -> Option<&StageExplanation> {
        let stage = stage.into();
        self.stages.iter().find(|s| s.stage == stage)
    }
}

impl fmt::Display for Overlap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "`{}` and `{}` cannot overlap: {}",
            self.first, self.second, self.reason
        )
    }
}

impl fmt::Display for StageExplanation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = self.order.len();
        let plural = if count == 1 { "" } else { "s" };
        writeln!(f, "stage {}: {count} system{plural}", self.label)?;
        for (i, batch) in self.batches.iter().enumerate() {
            if self.sync_points.contains(&i) {
                writeln!(f, "  sync point: commands so far apply")?;
            }
            let alone = if batch.len() == 1 {
                " (alone)"
            } else {
                " (at once)"
            };
            writeln!(f, "  batch {}{alone}: {}", i + 1, batch.join(", "))?;
        }
        for overlap in &self.conflicts {
            writeln!(f, "  {overlap}")?;
        }
        for (system, conditions) in &self.conditions {
            writeln!(f, "  `{system}` runs if {}", conditions.join(" and "))?;
        }
        Ok(())
    }
}

impl fmt::Display for Explanation {
    /// Every stage with its batches and conflicts, one line each.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// struct Score(u32);
    /// fn add(mut s: ResMut<Score>) { s.0 += 1; }
    /// fn show(s: Res<Score>) { let _ = s.0; }
    ///
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::Update, add)?;
    /// schedule.add_system(Stage::Update, show)?;
    /// assert_eq!(
    ///     schedule.explain()?.to_string(),
    ///     "stage Update: 2 systems\n  batch 1 (alone): add\n  batch 2 (alone): show\n  \
    ///      `add` and `show` cannot overlap: both reach the resource `Score` (one writes, one reads)\n"
    /// );
    /// # Ok::<(), Error>(())
    /// ```
    ///
    /// One system, with a run condition:
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// struct Paused;
    /// fn tick() {}
    ///
    /// let mut schedule = Schedule::new();
    /// schedule.add_system(Stage::Update, tick.run_if(not(resource_exists::<Paused>)))?;
    /// assert_eq!(
    ///     schedule.explain()?.to_string(),
    ///     "stage Update: 1 system\n  batch 1 (alone): tick\n  \
    ///      `tick` runs if not(resource_exists<Paused>)\n"
    /// );
    /// # Ok::<(), Error>(())
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for stage in &self.stages {
            stage.fmt(f)?;
        }
        Ok(())
    }
}
