//! The order of a stage's systems and its batches: which run one after
//! another, and which may run at once.

use std::borrow::Cow;

use crate::error::Error;
use crate::system::{Conflict, SystemAccess};

/// What the planner needs of a system.
pub(crate) struct Node<'a> {
    pub(crate) name: &'a str,
    pub(crate) after: &'a [Cow<'static, str>],
    pub(crate) before: &'a [Cow<'static, str>],
    /// The names of `after` followed without a sync point.
    pub(crate) unsynced_after: &'a [Cow<'static, str>],
    /// The sets the system is in.
    pub(crate) sets: &'a [Cow<'static, str>],
    pub(crate) access: &'a SystemAccess,
    /// Whether the system's params defer anything (`Commands`): a system
    /// ordered after it gets a sync point between them.
    pub(crate) defers: bool,
}

/// What the planner needs of a configured set: its own orderings, which
/// every system in it follows.
pub(crate) struct SetNode<'a> {
    pub(crate) name: &'a str,
    pub(crate) after: &'a [Cow<'static, str>],
    pub(crate) before: &'a [Cow<'static, str>],
}

/// A stage's plan: `order` is the sequence commands apply in (and the one a
/// single thread would follow); `batches` split it into groups of systems
/// that conflict with nothing else in the group, in run order.
#[derive(Clone, Debug, Default)]
pub(crate) struct StagePlan {
    /// Indices of systems (in registration order) in run order.
    pub(crate) order: Vec<usize>,
    /// Indices of systems, per batch; each batch lists its systems in `order`.
    pub(crate) batches: Vec<Vec<usize>>,
    /// The batch of each system, by index.
    pub(crate) batch_of: Vec<usize>,
    /// Every pair that may not overlap, `order`-first, with the reason.
    pub(crate) conflicts: Vec<(usize, usize, Conflict)>,
    /// Per batch, whether the commands pending apply before it runs: a
    /// system of it follows one that defers, ordered, with no sync point
    /// between them yet. (An exclusive system's batch applies them anyway
    /// and is never marked.)
    pub(crate) sync_before: Vec<bool>,
    /// Whether any system of the stage has params that defer (`Commands`,
    /// events sent from a system): without one, a sync point has nothing
    /// to apply. Set by the stage, which knows its systems' params.
    pub(crate) defers_any: bool,
    /// The systems whose params prepare before a frame
    /// ([`SystemParam::PREPARES`](crate::system::SystemParam::PREPARES)),
    /// by index. Set by the stage.
    pub(crate) preparing: Vec<usize>,
    /// Per batch, whether a system of it reserves ids (it has `Commands`).
    /// Set by the stage.
    pub(crate) reserving: Vec<bool>,
    /// Per batch, whether it ran on this thread on the last frame that timed
    /// its systems, decided from their times alone: those times stand until
    /// the next timed frame, and so does the decision. Kept by the executor.
    pub(crate) inline_until_timed: Vec<bool>,
}

/// The systems a name in an ordering stands for: the system of that name,
/// or else every system in the set of that name (none for a configured set
/// nobody joined yet).
fn resolve(
    stage: &str,
    nodes: &[Node<'_>],
    sets: &[SetNode<'_>],
    who: &str,
    name: &str,
) -> Result<Vec<usize>, Error> {
    if let Some(i) = nodes.iter().position(|node| node.name == name) {
        return Ok(vec![i]);
    }
    let members: Vec<usize> = (0..nodes.len())
        .filter(|&i| nodes[i].sets.iter().any(|set| set == name))
        .collect();
    if members.is_empty() && !sets.iter().any(|set| set.name == name) {
        return Err(Error::UnknownOrdering {
            system: who.to_owned(),
            missing: name.to_owned(),
            stage: stage.to_owned(),
        });
    }
    Ok(members)
}

/// Orders `nodes`: explicit `after` / `before` edges first (a set's edges
/// hold for each system in it), registration order for everything they
/// leave open. Then, walking that order, each system joins the batch after
/// the last one holding a system it conflicts with or must follow.
pub(crate) fn plan(
    stage: &str,
    nodes: &[Node<'_>],
    sets: &[SetNode<'_>],
) -> Result<StagePlan, Error> {
    let n = nodes.len();
    // predecessors[j] lists every i that must run before j.
    let mut predecessors: Vec<Vec<usize>> = vec![Vec::new(); n];
    // The orderings whose first system's commands apply before the second.
    let mut synced: Vec<(usize, usize)> = Vec::new();
    let mut ordered = |first: usize, then: usize, sync: bool| {
        if first == then {
            return;
        }
        if !predecessors[then].contains(&first) {
            predecessors[then].push(first);
        }
        if sync && nodes[first].defers {
            synced.push((first, then));
        }
    };
    for (j, node) in nodes.iter().enumerate() {
        for name in node.after {
            let sync = !node.unsynced_after.contains(name);
            for i in resolve(stage, nodes, sets, node.name, name)? {
                ordered(i, j, sync);
            }
        }
        for name in node.before {
            for later in resolve(stage, nodes, sets, node.name, name)? {
                ordered(j, later, true);
            }
        }
    }
    for set in sets {
        let who = format!("set {}", set.name);
        let members = resolve(stage, nodes, sets, &who, set.name)?;
        for name in set.after {
            let earlier = resolve(stage, nodes, sets, &who, name)?;
            for &j in &members {
                for &i in &earlier {
                    ordered(i, j, true);
                }
            }
        }
        for name in set.before {
            let later = resolve(stage, nodes, sets, &who, name)?;
            for &j in &members {
                for &k in &later {
                    ordered(j, k, true);
                }
            }
        }
    }
    let order = topological(stage, nodes, &predecessors)?;

    let mut batch_of = vec![0usize; n];
    let mut batches: Vec<Vec<usize>> = Vec::new();
    let mut conflicts = Vec::new();
    for (at, &system) in order.iter().enumerate() {
        let mut batch = 0;
        for &must_precede in &predecessors[system] {
            batch = batch.max(batch_of[must_precede] + 1);
        }
        for &earlier in &order[..at] {
            if let Some(why) = nodes[earlier].access.conflict_with(nodes[system].access) {
                batch = batch.max(batch_of[earlier] + 1);
                conflicts.push((earlier, system, why));
            }
        }
        batch_of[system] = batch;
        if batches.len() <= batch {
            batches.resize_with(batch + 1, Vec::new);
        }
        batches[batch].push(system);
    }
    let batch_count = batches.len();
    let sync_before = sync_points(nodes, &batches, &batch_of, &synced);
    Ok(StagePlan {
        order,
        batches,
        batch_of,
        conflicts,
        sync_before,
        defers_any: false,
        preparing: Vec::new(),
        reserving: vec![false; batch_count],
        inline_until_timed: vec![false; batch_count],
    })
}

/// The fewest batches to apply pending commands before, so that each of
/// `synced` (a system that defers, and one ordered after it) has a sync
/// point between its two batches: each needs one before some batch in
/// `batch_of[first] + 1 ..= batch_of[then]`. An exclusive system's batch
/// is one already. Taking the needs by their last batch and marking it
/// where none is met yet places the fewest, as late as they may be.
fn sync_points(
    nodes: &[Node<'_>],
    batches: &[Vec<usize>],
    batch_of: &[usize],
    synced: &[(usize, usize)],
) -> Vec<bool> {
    let mut marked = vec![false; batches.len()];
    let exclusive: Vec<bool> = batches
        .iter()
        .map(|batch| batch.len() == 1 && nodes[batch[0]].access.is_exclusive())
        .collect();
    let mut needs: Vec<(usize, usize)> = synced
        .iter()
        .map(|&(first, then)| (batch_of[first] + 1, batch_of[then]))
        .collect();
    needs.sort_unstable_by_key(|&(from, to)| (to, from));
    for (from, to) in needs {
        if !(from..=to).any(|b| marked[b] || exclusive[b]) {
            marked[to] = true;
        }
    }
    marked
}

/// Kahn's algorithm, always taking the earliest-registered ready system, so
/// that systems no ordering constrains keep their registration order.
fn topological(
    stage: &str,
    nodes: &[Node<'_>],
    predecessors: &[Vec<usize>],
) -> Result<Vec<usize>, Error> {
    let n = nodes.len();
    let mut waiting: Vec<usize> = predecessors.iter().map(Vec::len).collect();
    let mut successors: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (j, before) in predecessors.iter().enumerate() {
        for &i in before {
            successors[i].push(j);
        }
    }
    let mut ready: std::collections::BTreeSet<usize> =
        (0..n).filter(|&j| waiting[j] == 0).collect();
    let mut order = Vec::with_capacity(n);
    while let Some(next) = ready.pop_first() {
        order.push(next);
        for &j in &successors[next] {
            waiting[j] -= 1;
            if waiting[j] == 0 {
                ready.insert(j);
            }
        }
    }
    if order.len() == n {
        return Ok(order);
    }
    Err(Error::SystemCycle {
        stage: stage.to_owned(),
        systems: cycle(nodes, predecessors, &waiting),
    })
}

/// One cycle among the systems still `waiting`, each named after the one
/// it must follow.
fn cycle(nodes: &[Node<'_>], predecessors: &[Vec<usize>], waiting: &[usize]) -> Vec<String> {
    // Every stuck system has a stuck predecessor; walking predecessors from
    // any stuck system must revisit one, and the revisited stretch is a cycle.
    let stuck = |i: usize| waiting[i] > 0;
    let start = (0..nodes.len())
        .find(|&i| stuck(i))
        .expect("a stuck system");
    let mut path = vec![start];
    loop {
        let last = *path.last().expect("the path starts non-empty");
        let previous = predecessors[last]
            .iter()
            .copied()
            .find(|&p| stuck(p))
            .expect("a stuck system waits on a stuck one");
        if let Some(at) = path.iter().position(|&p| p == previous) {
            let mut systems: Vec<String> = path[at..]
                .iter()
                .map(|&i| nodes[i].name.to_owned())
                .collect();
            // The walk went backwards; name each system after its predecessor.
            systems.reverse();
            return systems;
        }
        path.push(previous);
    }
}
