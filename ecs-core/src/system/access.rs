//! What a system touches, computed from its params when it is added, and
//! the rule that decides whether two systems may run at once.

use core::any::TypeId;
use core::fmt;

use crate::access::{Access, AccessMode};
use crate::util::ShortName;

/// One query param's component access, with its filters.
#[derive(Clone)]
struct QueryUse {
    param: &'static str,
    access: Access,
}

/// One resource param's access.
#[derive(Clone, Copy)]
struct ResourceUse {
    param: &'static str,
    type_id: TypeId,
    name: &'static str,
    mode: AccessMode,
}

/// Everything a system reads and writes: components per query param (with
/// the filters that tell two queries apart), resources, the whole world for
/// `&World`, or everything at once for an exclusive system.
///
/// Each param registers itself when the system is added; the first clash
/// between two params of one system is kept for
/// [`Error::ConflictingAccess`](crate::Error::ConflictingAccess).
///
/// ```
/// use ecs_core::prelude::*;
/// use ecs_core::system::{SystemAccess, SystemParam};
///
/// #[derive(Component)]
/// struct Position(f32);
/// #[derive(Component)]
/// struct Player;
///
/// let mut players = SystemAccess::new();
/// <Query<&mut Position, With<Player>>>::init(&mut players);
/// let mut others = SystemAccess::new();
/// <Query<&mut Position, Without<Player>>>::init(&mut others);
/// assert!(players.conflict_with(&others).is_none(), "no entity matches both");
///
/// let mut all = SystemAccess::new();
/// <Query<&Position>>::init(&mut all);
/// let why = players.conflict_with(&all).unwrap();
/// assert_eq!(why.to_string(), "both reach `Position` (one writes, one reads)");
/// ```
#[derive(Clone, Default)]
pub struct SystemAccess {
    queries: Vec<QueryUse>,
    resources: Vec<ResourceUse>,
    /// The `&World` param, if any: it reads every component and resource.
    world_reader: Option<&'static str>,
    exclusive: bool,
    /// The first clash between two params: (first, second, type name).
    clash: Option<(&'static str, &'static str, &'static str)>,
}

impl fmt::Debug for SystemAccess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let params: Vec<_> = self.queries.iter().map(|q| q.param).collect();
        let resources: Vec<_> = self.resources.iter().map(|r| (r.name, r.mode)).collect();
        f.debug_struct("SystemAccess")
            .field("queries", &params)
            .field("resources", &resources)
            .field("reads_world", &self.world_reader.is_some())
            .field("exclusive", &self.exclusive)
            .finish()
    }
}

/// Why two systems may not run at once.
///
/// ```
/// use ecs_core::system::Conflict;
///
/// let why = Conflict::Exclusive;
/// assert_eq!(why.to_string(), "one of them is exclusive (takes `&mut World`)");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Conflict {
    /// Both reach the component type, and at least one writes it.
    Component {
        /// The full type name.
        type_name: &'static str,
        /// How the first system touches it.
        first: AccessMode,
        /// How the second system touches it.
        second: AccessMode,
    },
    /// Both reach the resource type, and at least one writes it.
    Resource {
        /// The full type name.
        type_name: &'static str,
        /// How the first system touches it.
        first: AccessMode,
        /// How the second system touches it.
        second: AccessMode,
    },
    /// One reads the whole world (`&World`) and the other writes something.
    WorldRead,
    /// One of them takes `&mut World`.
    Exclusive,
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let modes = |f: &mut fmt::Formatter<'_>, first: AccessMode, second: AccessMode| {
            let word = |mode| match mode {
                AccessMode::Read => "reads",
                AccessMode::Write => "writes",
            };
            if first == second {
                write!(
                    f,
                    "both {}",
                    if first == AccessMode::Write {
                        "write"
                    } else {
                        "read"
                    }
                )
            } else {
                write!(f, "one {}, one {}", word(first), word(second))
            }
        };
        match *self {
            Conflict::Component {
                type_name,
                first,
                second,
            } => {
                write!(f, "both reach `{}` (", ShortName(type_name))?;
                modes(f, first, second)?;
                f.write_str(")")
            }
            Conflict::Resource {
                type_name,
                first,
                second,
            } => {
                write!(f, "both reach the resource `{}` (", ShortName(type_name))?;
                modes(f, first, second)?;
                f.write_str(")")
            }
            Conflict::WorldRead => {
                f.write_str("one reads the whole world (`&World`), the other writes")
            }
            Conflict::Exclusive => f.write_str("one of them is exclusive (takes `&mut World`)"),
        }
    }
}

impl SystemAccess {
    /// No access at all: a system with no params, or only `Local` and `Commands`.
    ///
    /// ```
    /// # use ecs_core::system::SystemAccess;
    /// let none = SystemAccess::new();
    /// assert!(none.conflict_with(&SystemAccess::new()).is_none());
    /// ```
    pub fn new() -> Self {
        Self::default()
    }

    /// Records a query param: `access` holds its fetch's component access
    /// and the types its fetch and filters require or exclude.
    pub fn add_query(&mut self, param: &'static str, access: Access) {
        if self.clash.is_none()
            && let Some(name) = access.conflict()
        {
            self.clash = Some((param, param, name_in(&access, name)));
        }
        if self.clash.is_none() {
            for earlier in &self.queries {
                if let Some((name, ..)) = earlier.access.conflict_with(&access) {
                    self.clash = Some((earlier.param, param, name));
                    break;
                }
            }
        }
        if self.clash.is_none()
            && let Some(reader) = self.world_reader
            && let Some((name, _)) = access
                .iter_named()
                .find(|(_, mode)| *mode == AccessMode::Write)
        {
            self.clash = Some((reader, param, name));
        }
        self.queries.push(QueryUse { param, access });
    }

    /// Records a resource param that touches `R` in `mode`.
    pub fn add_resource<R: 'static>(&mut self, param: &'static str, mode: AccessMode) {
        let type_id = TypeId::of::<R>();
        let name = core::any::type_name::<R>();
        if self.clash.is_none() {
            let clash = self.resources.iter().find(|earlier| {
                earlier.type_id == type_id
                    && (earlier.mode == AccessMode::Write || mode == AccessMode::Write)
            });
            if let Some(earlier) = clash {
                self.clash = Some((earlier.param, param, name));
            } else if mode == AccessMode::Write
                && let Some(reader) = self.world_reader
            {
                self.clash = Some((reader, param, name));
            }
        }
        self.resources.push(ResourceUse {
            param,
            type_id,
            name,
            mode,
        });
    }

    /// Records a param that reads every component and resource (`&World`).
    pub fn add_world_read(&mut self, param: &'static str) {
        if self.clash.is_none() {
            let written = self
                .queries
                .iter()
                .find_map(|q| {
                    let (name, _) = q
                        .access
                        .iter_named()
                        .find(|(_, m)| *m == AccessMode::Write)?;
                    Some((q.param, name))
                })
                .or_else(|| {
                    self.resources
                        .iter()
                        .find(|r| r.mode == AccessMode::Write)
                        .map(|r| (r.param, r.name))
                });
            if let Some((writer, name)) = written {
                self.clash = Some((writer, param, name));
            }
        }
        self.world_reader.get_or_insert(param);
    }

    /// Marks the system exclusive: it takes `&mut World` and runs alone.
    pub(crate) fn set_exclusive(&mut self) {
        self.exclusive = true;
    }

    /// Whether the system takes `&mut World`.
    pub fn is_exclusive(&self) -> bool {
        self.exclusive
    }

    /// The first clash between two params of this system: (first param,
    /// second param, full type name).
    pub fn clash(&self) -> Option<(&'static str, &'static str, &'static str)> {
        self.clash
    }

    /// Why a system with this access and one with `other` may not run at
    /// once, or `None` when they may.
    pub fn conflict_with(&self, other: &SystemAccess) -> Option<Conflict> {
        if self.exclusive || other.exclusive {
            return Some(Conflict::Exclusive);
        }
        if (self.world_reader.is_some() && other.writes_anything())
            || (other.world_reader.is_some() && self.writes_anything())
        {
            return Some(Conflict::WorldRead);
        }
        for mine in &self.queries {
            for theirs in &other.queries {
                if let Some((type_name, first, second)) = mine.access.conflict_with(&theirs.access)
                {
                    return Some(Conflict::Component {
                        type_name,
                        first,
                        second,
                    });
                }
            }
        }
        for mine in &self.resources {
            let clash = other.resources.iter().find(|theirs| {
                theirs.type_id == mine.type_id
                    && (mine.mode == AccessMode::Write || theirs.mode == AccessMode::Write)
            });
            if let Some(theirs) = clash {
                return Some(Conflict::Resource {
                    type_name: mine.name,
                    first: mine.mode,
                    second: theirs.mode,
                });
            }
        }
        None
    }

    /// Whether the system writes any component or resource.
    fn writes_anything(&self) -> bool {
        self.queries
            .iter()
            .any(|q| q.access.iter().any(|(_, mode)| mode == AccessMode::Write))
            || self.resources.iter().any(|r| r.mode == AccessMode::Write)
    }

    /// The component types each query param requires, per param: how the
    /// executor estimates a system's work from storage lengths.
    #[cfg_attr(
        not(feature = "parallel"),
        allow(
            dead_code,
            reason = "the executor estimates work only to decide on threads"
        )
    )]
    pub(crate) fn required_per_query(&self) -> impl Iterator<Item = &[TypeId]> {
        self.queries.iter().map(|q| q.access.required())
    }
}

/// The full type name `access` recorded for the type whose short conflict name is `short`.
fn name_in(access: &Access, short: &'static str) -> &'static str {
    access
        .iter_named()
        .map(|(name, _)| name)
        .find(|name| name.ends_with(short))
        .unwrap_or(short)
}
