//! [`World::inspect_tree`]: a scene graph as text, one line per entity,
//! indented under its parent.

use core::fmt;

use crate::entity::Entity;
use crate::error::Error;

use super::{Children, EntityInspection, World};

/// A subtree as [`World::inspect_tree`] shows it: each entity with its
/// components (its `ChildOf` and `Children` left out, as the indentation
/// says the same), depth first, two spaces deeper per level.
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
        for (depth, line) in &self.lines {
            write!(f, "{:width$}{} ", "", line.entity(), width = depth * 2)?;
            let shown: Vec<_> = line
                .components()
                .iter()
                .filter(|c| !matches!(c.name(), "ChildOf" | "Children"))
                .collect();
            if shown.is_empty() {
                f.write_str("{}")?;
            } else {
                f.write_str("{ ")?;
                for (i, component) in shown.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{component}")?;
                }
                f.write_str(" }")?;
            }
            f.write_str("\n")?;
        }
        Ok(())
    }
}

impl fmt::Debug for TreeInspection<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl World {
    /// The subtree under `root` as text: one line per entity with its
    /// components, indented by depth, children in their `Children` order
    /// (see [`TreeInspection`]). Fails when `root` is not alive.
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
        let mut lines = vec![(0, self.inspect(root)?)];
        let mut stack = vec![(root, 0usize)];
        let mut order = Vec::new();
        // Depth first, each entity before its children, siblings in order.
        while let Some((entity, depth)) = stack.pop() {
            if entity != root {
                order.push((entity, depth));
            }
            if let Ok(children) = self.get::<Children>(entity) {
                stack.extend(children.iter().rev().map(|&child| (child, depth + 1)));
            }
        }
        for (entity, depth) in order {
            lines.push((depth, self.inspect(entity)?));
        }
        Ok(TreeInspection { lines })
    }
}
