//! The plain certificate (`specs/certificate.md`, version 1): the graph of a claim as
//! the extractor settles it, its nodes renumbered from the root, and for mate its depth
//! (longest path).

use super::extract::settle;
use super::{stuck, Body, Certificate, Claim, ExtractError, ExtractLimits, Node};
use crate::rules::{Move, Position};
use crate::tsume::table::UNBOUNDED;
use crate::tsume::{Outcome, SolveResult, Solver};

/// Extracts the certificate of `result` (from `solver`'s last solve of `root`).
///
/// # Errors
/// [`ExtractError`] when the result is not `mate`/`nomate` or the graph cannot
/// be completed within `limits`: the answer is then *uncertified*, never wrongly certified.
pub fn extract_with(
    solver: &Solver<Position>,
    root: &Position,
    result: &SolveResult<Move>,
    limits: ExtractLimits,
) -> Result<Certificate, ExtractError> {
    let claim = match result.outcome {
        Outcome::Mate => Claim::Mate,
        Outcome::NoMate => Claim::Nomate,
        Outcome::Unknown => return Err(ExtractError::NotSolved("unknown")),
    };
    graph(solver, root, claim, UNBOUNDED, false, limits)
}

/// The graph of `claim` from `root` under budget `budget` (with `uncounted`: under the
/// 無駄合 convention) as [`settle`] builds it, its nodes numbered from 0 in depth-first
/// order.
pub(super) fn graph(
    solver: &Solver<Position>,
    root: &Position,
    claim: Claim,
    budget: u16,
    uncounted: bool,
    limits: ExtractLimits,
) -> Result<Certificate, ExtractError> {
    let (mut nodes_by_id, r) = settle(solver, root, claim, budget, uncounted, limits)?;
    // Forgotten (failed) nodes leave holes: renumber the reachable ones from 0.
    let mut map = vec![usize::MAX; nodes_by_id.len()];
    let mut order = Vec::new();
    let mut stack = vec![r];
    map[r] = 0;
    order.push(r);
    while let Some(n) = stack.pop() {
        let node = nodes_by_id[n]
            .as_ref()
            .ok_or_else(|| stuck(root, "unfinished node"))?;
        let kids: &[(Move, usize)] = match &node.body {
            Body::Moves(v) => v,
            Body::CoveredBy(_) | Body::ByChecker => &[],
        };
        let cover = match node.body {
            Body::CoveredBy(m) => Some(m),
            Body::Moves(_) | Body::ByChecker => None,
        };
        for c in kids
            .iter()
            .map(|&(_, c)| c)
            .chain(cover)
            .chain(node.witnesses.iter().map(|w| w.node))
        {
            if map[c] == usize::MAX {
                map[c] = order.len();
                order.push(c);
                stack.push(c);
            }
        }
    }
    let mut nodes = Vec::with_capacity(order.len());
    for &o in &order {
        let mut n = nodes_by_id[o]
            .take()
            .ok_or_else(|| stuck(root, "unfinished node"))?;
        match &mut n.body {
            Body::Moves(v) => v.iter_mut().for_each(|(_, c)| *c = map[*c]),
            Body::CoveredBy(m) => *m = map[*m],
            Body::ByChecker => {}
        }
        for w in &mut n.witnesses {
            w.node = map[w.node];
        }
        nodes.push(n);
    }
    let plies = (claim == Claim::Mate).then(|| longest(&nodes, 0));
    Ok(Certificate {
        result: claim,
        root: 0,
        plies,
        nodes,
        length: None,
    })
}

/// Longest path (in plies) from `root` in an acyclic graph; covered_by and witness
/// edges count 0.
fn longest(nodes: &[Node], root: usize) -> u32 {
    let mut memo: Vec<Option<u32>> = vec![None; nodes.len()];
    // Iterative post-order to survive deep graphs.
    let mut stack = vec![(root, false)];
    while let Some((n, done)) = stack.pop() {
        if memo[n].is_some() {
            continue;
        }
        let mut kids: Vec<(usize, u32)> = match &nodes[n].body {
            Body::Moves(v) => v.iter().map(|&(_, c)| (c, 1)).collect(),
            Body::CoveredBy(m) => vec![(*m, 0)],
            Body::ByChecker => Vec::new(),
        };
        kids.extend(nodes[n].witnesses.iter().map(|w| (w.node, 0)));
        if done {
            memo[n] = Some(
                kids.iter()
                    .map(|&(c, w)| memo[c].unwrap_or(0) + w)
                    .max()
                    .unwrap_or(0),
            );
        } else {
            stack.push((n, true));
            for (c, _) in kids {
                if memo[c].is_none() {
                    stack.push((c, false));
                }
            }
        }
    }
    memo[root].unwrap_or(0)
}

/// [`extract_with`] under the default [`ExtractLimits`], with a fallback node total of
/// [`FALLBACK_FACTOR`] times the solve's nodes (at least [`MIN_FALLBACK_NODES`]) and as
/// many solves as that total allows (most fallback searches are a few hundred nodes: the
/// total, not the count, limits them).
///
/// # Errors
/// As [`extract_with`].
pub fn extract(
    solver: &Solver<Position>,
    root: &Position,
    result: &SolveResult<Move>,
) -> Result<Certificate, ExtractError> {
    extract_with(solver, root, result, default_limits(result))
}

/// The fallback node total of an extraction (of each half of a length certificate):
/// this many times the solve's nodes, and at least [`MIN_FALLBACK_NODES`]. A no-mate
/// graph settles its defender nodes by searches the solver's table rarely answers: the
/// disproofs that lean on a repetition of the path are not stored, and a bounded
/// graph's budgets are not the search's (session 14: 18 of the 20 failing length
/// certificates on 図巧/無双 1–100 at 2 M nodes ran out of the solve's own nodes; session
/// 28: 無双73's nomate, 10.3 M solver nodes, needs 13.4 M in 31 052 fallback searches).
pub const FALLBACK_FACTOR: u64 = 4;

/// See [`FALLBACK_FACTOR`].
pub const MIN_FALLBACK_NODES: u64 = 4_000_000;

pub(super) fn default_limits(result: &SolveResult<Move>) -> ExtractLimits {
    let d = ExtractLimits::default();
    let total = result
        .stats
        .nodes
        .saturating_mul(FALLBACK_FACTOR)
        .max(MIN_FALLBACK_NODES);
    ExtractLimits {
        fallback_total_nodes: total,
        fallback_solves: usize::try_from(total).unwrap_or(usize::MAX),
        deep_nodes: result.stats.nodes,
        deep_reply_nodes: total,
        ..d
    }
}
