//! The running game: the main world, its schedule, and the loader that
//! streams the levels in.

use core::fmt;

use ecs_core::prelude::*;

use super::{
    BuiltLevel, Config, DontDestroyOnLoad, FrameLog, Happening, Journal, LevelRoot, Loader, Player,
    Pos, Score, systems,
};

/// The main world playing level after level, while a [`Loader`] thread
/// builds the next one.
///
/// Each [`step`](Self::step) is one frame. The first frame, and the frame
/// after the player reaches an exit, first take the next level from the
/// loader (waiting for it if it is not built yet), despawn everything not
/// tagged [`DontDestroyOnLoad`], and merge the level in. The game ends after
/// the exit of the last level, or after [`Config::frames`] frames.
///
/// ```
/// use examples::streaming::{Config, Game};
///
/// let mut game = Game::new(&Config { levels: 2, ..Config::default() })?;
/// let player = game.player();
/// while !game.is_finished() {
///     game.step()?;
/// }
/// assert_eq!(game.level(), 2);
/// assert!(game.world().is_alive(player));
/// # Ok::<(), ecs_core::Error>(())
/// ```
pub struct Game {
    world: World,
    schedule: Schedule,
    loader: Loader,
    config: Config,
    player: Entity,
    score_keeper: Entity,
    frame: u64,
    level: u32,
    needs_level: bool,
    finished: bool,
}

impl Game {
    /// A world with the player and the score keeper, and the loader started
    /// on the first level.
    pub fn new(config: &Config) -> Result<Self, Error> {
        let mut world = World::new();
        world.insert_resource(Journal::default());
        let player = world.spawn((Player, Pos::new(0, 0), DontDestroyOnLoad));
        let score_keeper = world.spawn((Score(0), DontDestroyOnLoad));
        let mut schedule = Schedule::new();
        systems::add_to(&mut schedule)?;
        Ok(Self {
            world,
            schedule,
            loader: Loader::spawn(config.seed, config.levels),
            config: config.clone(),
            player,
            score_keeper,
            frame: 0,
            level: 0,
            needs_level: config.levels > 0,
            finished: config.levels == 0 || config.frames == 0,
        })
    }

    /// Runs one frame, loading the next level first if one is due, and
    /// returns what happened. A finished game runs nothing and returns a
    /// quiet log.
    ///
    /// # Panics
    /// If the loader thread stopped before handing over a level it owes,
    /// which only a bug in level building does.
    pub fn step(&mut self) -> Result<FrameLog, Error> {
        if self.finished {
            return Ok(FrameLog {
                frame: self.frame,
                happenings: Vec::new(),
            });
        }
        self.frame += 1;
        let mut happenings = Vec::new();
        if self.needs_level {
            let level = self.loader.next_level().unwrap_or_else(|| {
                panic!("the loader thread stopped before level {}", self.level + 1)
            });
            happenings.push(self.load(level)?);
            self.needs_level = false;
        }
        self.schedule.run(&mut self.world)?;
        happenings.append(&mut self.world.resource_mut::<Journal>()?.0);
        if happenings
            .iter()
            .any(|h| matches!(h, Happening::ExitReached { .. }))
        {
            self.needs_level = self.level < self.config.levels;
            self.finished = !self.needs_level;
        }
        self.finished |= self.frame >= self.config.frames;
        Ok(FrameLog {
            frame: self.frame,
            happenings,
        })
    }

    /// Unloads the current level and merges `level` in its place.
    fn load(&mut self, level: BuiltLevel) -> Result<Happening, Error> {
        let unloaded: Vec<Entity> = self
            .world
            .query_filtered::<Entity, Without<DontDestroyOnLoad>>()
            .iter()
            .collect();
        for &entity in &unloaded {
            self.world.despawn(entity)?;
        }
        let moved = self.world.merge(level.world);
        let root = moved
            .get(level.root)
            .expect("the root moves with its level");
        let start = self.world.get::<LevelRoot>(root)?.start;
        *self.world.get_mut::<Pos>(self.player)? = start;
        self.level = level.number;
        Ok(Happening::LevelLoaded {
            number: level.number,
            merged: moved.len(),
            despawned: unloaded.len(),
        })
    }

    /// Whether the last level's exit was reached or the frames ran out.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// The main world.
    pub fn world(&self) -> &World {
        &self.world
    }

    /// The player, the same entity through every level.
    pub fn player(&self) -> Entity {
        self.player
    }

    /// The entity holding the [`Score`], the same through every level.
    pub fn score_keeper(&self) -> Entity {
        self.score_keeper
    }

    /// The number of the level being played; 0 before the first.
    pub fn level(&self) -> u32 {
        self.level
    }

    /// How many frames have run.
    pub fn frame(&self) -> u64 {
        self.frame
    }

    /// The points scored so far.
    pub fn score(&self) -> u32 {
        self.world
            .get::<Score>(self.score_keeper)
            .map_or(0, |score| score.0)
    }

    /// A line saying how the run went, for the end of the log.
    pub fn summary(&self) -> Summary {
        Summary {
            levels: self.level,
            frames: self.frame,
            score: self.score(),
            player: self.player,
            score_keeper: self.score_keeper,
        }
    }
}

/// How a run went. Printed:
/// `3 levels in 612 frames, score 187; player 0v1 and score keeper 1v1 kept their ids`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Summary {
    /// Levels played (the last possibly unfinished).
    pub levels: u32,
    /// Frames run.
    pub frames: u64,
    /// The final score.
    pub score: u32,
    /// The player's id.
    pub player: Entity,
    /// The score keeper's id.
    pub score_keeper: Entity,
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Self {
            levels,
            frames,
            score,
            player,
            score_keeper,
        } = self;
        let s = if *levels == 1 { "" } else { "s" };
        write!(
            f,
            "{levels} level{s} in {frames} frames, score {score}; \
             player {player} and score keeper {score_keeper} kept their ids"
        )
    }
}
