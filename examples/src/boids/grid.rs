//! The uniform spatial grid: a snapshot of the flock, bucketed by cell, so
//! a boid's flockmates are found among the 3 x 3 cells around it instead of
//! the whole flock.

use ecs_core::prelude::*;

use super::{Vec2, wrapped_delta};

/// Every boid's entity, position and velocity as they were when the grid was
/// built, sorted by cell.
///
/// Steering reads these copies, never the components it is updating, so a
/// boid's new course depends on the previous frame alone: the same whatever
/// order or thread the boids are visited in.
///
/// ```
/// use ecs_core::prelude::*;
/// use examples::boids::{Grid, Vec2};
///
/// let mut world = World::new();
/// let [a, b, c] = [world.spawn(()), world.spawn(()), world.spawn(())];
/// let mut grid = Grid::new(Vec2::new(100.0, 100.0), 10.0);
/// grid.rebuild([
///     (a, Vec2::new(1.0, 1.0), Vec2::ZERO),
///     (b, Vec2::new(99.0, 1.0), Vec2::ZERO), // 2 units from `a`, across the edge
///     (c, Vec2::new(50.0, 50.0), Vec2::ZERO),
/// ]);
/// assert_eq!(grid.neighbours(a), [b]);
/// assert_eq!(grid.neighbours_naive(a), [b]);
/// assert!(grid.neighbours(c).is_empty());
/// ```
#[derive(Clone, Debug)]
pub struct Grid {
    size: Vec2,
    radius: f32,
    cols: usize,
    rows: usize,
    cell: Vec2,
    /// Cell `i` holds snapshot slots `starts[i]..starts[i + 1]`.
    starts: Vec<u32>,
    entities: Vec<Entity>,
    positions: Vec<Vec2>,
    velocities: Vec<Vec2>,
    /// Reused between rebuilds: (cell, entity, position, velocity) in query order.
    unsorted: Vec<(u32, Entity, Vec2, Vec2)>,
    /// Reused between rebuilds: the index in `unsorted` of each sorted slot.
    order: Vec<u32>,
}

impl Grid {
    /// An empty grid over a wrapping world of `size`, for neighbours closer
    /// than `radius`.
    ///
    /// Cells are at least `radius` wide (a hair more, so that rounding in
    /// the cell arithmetic cannot put a neighbour two cells away), which is
    /// what makes the 3 x 3 cells around a boid enough.
    pub fn new(size: Vec2, radius: f32) -> Self {
        let min_cell = radius * (1.0 + 1e-4);
        let cols = ((size.x / min_cell) as usize).max(1);
        let rows = ((size.y / min_cell) as usize).max(1);
        Self {
            size,
            radius,
            cols,
            rows,
            cell: Vec2::new(size.x / cols as f32, size.y / rows as f32),
            starts: vec![0; cols * rows + 1],
            entities: Vec::new(),
            positions: Vec::new(),
            velocities: Vec::new(),
            unsorted: Vec::new(),
            order: Vec::new(),
        }
    }

    /// Replaces the snapshot with `boids`: (entity, position, velocity).
    /// A counting sort by cell: two passes, no comparisons, and stable, so
    /// the layout depends on the input order alone.
    pub fn rebuild(&mut self, boids: impl IntoIterator<Item = (Entity, Vec2, Vec2)>) {
        let mut unsorted = std::mem::take(&mut self.unsorted);
        unsorted.clear();
        unsorted.extend(boids.into_iter().map(|(e, p, v)| {
            let (col, row) = self.cell_of(p);
            ((row * self.cols + col) as u32, e, p, v)
        }));

        self.starts.iter_mut().for_each(|s| *s = 0);
        for &(cell, ..) in &unsorted {
            self.starts[cell as usize + 1] += 1;
        }
        for i in 1..self.starts.len() {
            self.starts[i] += self.starts[i - 1];
        }
        // `starts[cell]` serves as the next free slot of `cell`, then is
        // shifted back below.
        self.order.resize(unsorted.len(), 0);
        for (i, &(cell, ..)) in unsorted.iter().enumerate() {
            let next = &mut self.starts[cell as usize];
            self.order[*next as usize] = i as u32;
            *next += 1;
        }
        let sorted = self.order.iter().map(|&i| &unsorted[i as usize]);
        self.entities.clear();
        self.entities.extend(sorted.clone().map(|&(_, e, _, _)| e));
        self.positions.clear();
        self.positions.extend(sorted.clone().map(|&(_, _, p, _)| p));
        self.velocities.clear();
        self.velocities.extend(sorted.map(|&(_, _, _, v)| v));
        for i in (1..self.starts.len()).rev() {
            self.starts[i] = self.starts[i - 1];
        }
        self.starts[0] = 0;
        self.unsorted = unsorted;
    }

    /// The column and row of the cell holding `p`; points outside the world
    /// go to the nearest edge cell.
    fn cell_of(&self, p: Vec2) -> (usize, usize) {
        let col = ((p.x / self.cell.x).max(0.0) as usize).min(self.cols - 1);
        let row = ((p.y / self.cell.y).max(0.0) as usize).min(self.rows - 1);
        (col, row)
    }

    /// How many boids the snapshot holds.
    pub fn len(&self) -> usize {
        self.entities.len()
    }

    /// Whether the snapshot holds no boid.
    pub fn is_empty(&self) -> bool {
        self.entities.is_empty()
    }

    /// The neighbour radius.
    pub fn radius(&self) -> f32 {
        self.radius
    }

    /// The grid's columns and rows.
    pub fn dimensions(&self) -> (usize, usize) {
        (self.cols, self.rows)
    }

    /// The snapshot's entities, in cell order.
    pub fn entities(&self) -> &[Entity] {
        &self.entities
    }

    /// The snapshot's positions, in the order of [`entities`](Self::entities).
    pub fn positions(&self) -> &[Vec2] {
        &self.positions
    }

    /// The snapshot's velocities, in the order of [`entities`](Self::entities).
    pub fn velocities(&self) -> &[Vec2] {
        &self.velocities
    }

    /// Calls `f(slot, delta, distance_squared)` for every boid of the snapshot
    /// other than `me` closer than the radius to `at`, looking only in the
    /// 3 x 3 cells around `at`. `delta` points from `at` to the neighbour
    /// the short way round the wrapping world.
    #[inline]
    pub fn for_each_neighbour(&self, at: Vec2, me: Entity, mut f: impl FnMut(usize, Vec2, f32)) {
        let (col, row) = self.cell_of(at);
        let radius_squared = self.radius * self.radius;
        for r in around(row, self.rows).into_iter().flatten() {
            for c in around(col, self.cols).into_iter().flatten() {
                let cell = r * self.cols + c;
                let slots = self.starts[cell] as usize..self.starts[cell + 1] as usize;
                for slot in slots {
                    self.visit(slot, at, me, radius_squared, &mut f);
                }
            }
        }
    }

    /// What [`for_each_neighbour`](Self::for_each_neighbour) finds, by
    /// testing every boid of the snapshot: O(n) a boid, O(n²) a frame. Kept
    /// to show what the grid saves, and to check it.
    #[inline]
    pub fn for_each_neighbour_naive(
        &self,
        at: Vec2,
        me: Entity,
        mut f: impl FnMut(usize, Vec2, f32),
    ) {
        let radius_squared = self.radius * self.radius;
        for slot in 0..self.len() {
            self.visit(slot, at, me, radius_squared, &mut f);
        }
    }

    #[inline(always)]
    fn visit(
        &self,
        slot: usize,
        at: Vec2,
        me: Entity,
        radius_squared: f32,
        f: &mut impl FnMut(usize, Vec2, f32),
    ) {
        let delta = wrapped_delta(at, self.positions[slot], self.size);
        let distance_squared = delta.length_squared();
        if distance_squared < radius_squared && self.entities[slot] != me {
            f(slot, delta, distance_squared);
        }
    }

    /// The neighbours of the snapshot's boid `me`, found through the grid,
    /// sorted. Empty if `me` is not in the snapshot.
    pub fn neighbours(&self, me: Entity) -> Vec<Entity> {
        self.collect(me, |grid, at, out| {
            grid.for_each_neighbour(at, me, |slot, _, _| out.push(grid.entities[slot]));
        })
    }

    /// The neighbours of `me` found by testing every boid, sorted: what
    /// [`neighbours`](Self::neighbours) must equal.
    pub fn neighbours_naive(&self, me: Entity) -> Vec<Entity> {
        self.collect(me, |grid, at, out| {
            grid.for_each_neighbour_naive(at, me, |slot, _, _| out.push(grid.entities[slot]));
        })
    }

    fn collect(&self, me: Entity, search: impl Fn(&Self, Vec2, &mut Vec<Entity>)) -> Vec<Entity> {
        let mut out = Vec::new();
        if let Some(slot) = self.entities.iter().position(|&e| e == me) {
            search(self, self.positions[slot], &mut out);
        }
        out.sort_unstable();
        out
    }
}

/// The up to three distinct indices around `i` on a ring of `n`: fewer when
/// the ring is too small for three, so no cell is visited twice.
fn around(i: usize, n: usize) -> [Option<usize>; 3] {
    match n {
        1 => [Some(0), None, None],
        2 => [Some(0), Some(1), None],
        _ => [Some((i + n - 1) % n), Some(i), Some((i + 1) % n)],
    }
}
