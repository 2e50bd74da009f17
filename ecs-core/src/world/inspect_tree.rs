//! [`World::inspect_tree`]: a scene graph as text, one line per entity,
//! indented under its parent.

use core::fmt;

use crate::entity::Entity;
use crate::error::Error;

use super::{Children, EntityInspection, World};

/// A subtree as [`World::inspect_tree`] shows it: each entity with its
/// components (its `ChildOf` and `Children` left out, as the indentation
/// says the same), depth first, two spaces deeper per level. The text shows
/// [`SHOWN_DEPTH`](TreeInspection::SHOWN_DEPTH) levels below the root; each run of deeper entities is
/// one line counting them (`... 3 more entities deeper than 32 levels`).
/// [`iter`](Self::iter) lists every entity, however deep.
///
/// ```
/// use ecs_core::prelude::*;
///
/// #[derive(Component, Debug)]
/// struct Name(&'static str);
///
/// let mut world = World::new();
/// let sun = world.spawn((Name("sun"), children![(Name("earth"), children![(Name("moon"),)])]));
/// let tree = world.inspect_tree(sun)?;
/// assert_eq!(tree.len(), 3);
/// assert_eq!(
///     tree.to_string(),
///     "0v1 { Name(\"sun\") }\n  1v1 { Name(\"earth\") }\n    2v1 { Name(\"moon\") }\n"
/// );
/// # Ok::<(), Error>(())
/// ```
pub struct TreeInspection<'w> {
    lines: Vec<(usize, EntityInspection<'w>)>,
}

impl<'w> TreeInspection<'w> {
    /// The levels the text shows below its root; deeper entities are
    /// counted on one line, so the text grows with the entities shown,
    /// never with the square of the depth.
    ///
    /// ```
    /// use ecs_core::diagnostics::TreeInspection;
    /// use ecs_core::prelude::*;
    ///
    /// let mut world = World::new();
    /// let root = world.spawn(());
    /// let mut at = root;
    /// for _ in 0..TreeInspection::SHOWN_DEPTH + 3 {
    ///     at = world.spawn(ChildOf(at));
    /// }
    /// let text = world.inspect_tree(root)?.to_string();
    /// assert_eq!(text.lines().count(), TreeInspection::SHOWN_DEPTH + 2);
    /// assert!(text.ends_with("... 3 more entities deeper than 32 levels\n"));
    /// # Ok::<(), Error>(())
    /// ```
    pub const SHOWN_DEPTH: usize = 32;

    /// Each entity of the subtree with its depth (the root is 0), in the
    /// order shown.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut world = World::new();
    /// let root = world.spawn(children![()]);
    /// let depths: Vec<usize> = world.inspect_tree(root)?.iter().map(|(d, _)| d).collect();
    /// assert_eq!(depths, [0, 1]);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (usize, &EntityInspection<'w>)> + '_ {
        self.lines.iter().map(|(depth, line)| (*depth, line))
    }

    /// How many entities the subtree holds, the root included.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut world = World::new();
    /// let root = world.spawn(());
    /// assert_eq!(world.inspect_tree(root)?.len(), 1);
    /// # Ok::<(), Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Always false: a tree holds at least its root.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// let mut world = World::new();
    /// let root = world.spawn(());
    /// assert!(!world.inspect_tree(root)?.is_empty());
    /// # Ok::<(), Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }
}

impl fmt::Display for TreeInspection<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut at = 0;
        while let Some((depth, line)) = self.lines.get(at) {
            if *depth > Self::SHOWN_DEPTH {
                // Depth first: the entities below the cut follow one another.
                let hidden = self.lines[at..]
                    .iter()
                    .take_while(|(depth, _)| *depth > Self::SHOWN_DEPTH)
                    .count();
                writeln!(
                    f,
                    "{:width$}... {hidden} more {entities} deeper than {shown} levels",
                    "",
                    entities = if hidden == 1 { "entity" } else { "entities" },
                    shown = Self::SHOWN_DEPTH,
                    width = (Self::SHOWN_DEPTH + 1) * 2
                )?;
                at += hidden;
                continue;
            }
            write!(f, "{:width$}{} ", "", line.entity(), width = depth * 2)?;
            write_components(f, line)?;
            f.write_str("\n")?;
            at += 1;
        }
        Ok(())
    }
}

/// One entity's components, its `ChildOf` and `Children` left out.
fn write_components(f: &mut fmt::Formatter<'_>, line: &EntityInspection<'_>) -> fmt::Result {
    let shown: Vec<_> = line
        .components()
        .iter()
        .filter(|c| !matches!(c.name(), "ChildOf" | "Children"))
        .collect();
    if shown.is_empty() {
        return f.write_str("{}");
    }
    f.write_str("{ ")?;
    for (i, component) in shown.iter().enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{component}")?;
    }
    f.write_str(" }")
}

impl fmt::Debug for TreeInspection<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl World {
    /// The subtree under `root` as text: one line per entity with its
    /// components, indented by depth, children in their `Children` order
    /// (see [`TreeInspection`]). Fails when `root` is not alive, and with
    /// [`Error::RelationshipCycle`] should the hierarchy below it loop.
    ///
    /// ```
    /// use ecs_core::prelude::*;
    ///
    /// #[derive(Component, Debug)]
    /// struct Hp(u8);
    ///
    /// let mut world = World::new();
    /// let ship = world.spawn((Hp(9), children![(Hp(2),)]));
    /// print!("{}", world.inspect_tree(ship)?);
    /// assert_eq!(world.inspect_tree(ship)?.to_string(), "0v1 { Hp(9) }\n  1v1 { Hp(2) }\n");
    /// # Ok::<(), Error>(())
    /// ```
    pub fn inspect_tree(&self, root: Entity) -> Result<TreeInspection<'_>, Error> {
        self.data.entities.check(root)?;
        let tree = self.subtree::<Children>(root)?;
        let mut lines = Vec::with_capacity(tree.len());
        for node in tree {
            lines.push((node.depth, self.inspect(node.entity)?));
        }
        Ok(TreeInspection { lines })
    }
}
