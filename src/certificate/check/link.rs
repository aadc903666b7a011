//! The cross-node rules, after the pass: each move leads to the node of the position
//! after it, each witness to the node of its test position, each `covered_by` node is
//! covered by its node's hands; budgets fit along every edge. The edges that pass go
//! into the [`Graphs`]; a failure is reported for the smallest failing node id.

use super::error::{invalid, CheckError};
use super::graph::Graphs;
use super::pass::Pass;
use crate::rules::{Color, Hand, PieceKind};

/// The graphs of the edges recorded by pass `x`; `attacker` is the root's side to move,
/// `mate` the header's result.
///
/// # Errors
/// [`CheckError::Invalid`] for the smallest node id that breaks a cross-node rule.
pub(super) fn link(x: &Pass, attacker: Color, mate: bool) -> Result<Graphs, CheckError> {
    let mut g = Graphs::new(x.ids.len(), x.edges.len() + x.covers.len(), x.covers.len());
    let mut first = FirstError(None);
    link_moves(x, &mut g, &mut first);
    link_witnesses(x, &mut g, &mut first);
    link_covers(x, &mut g, &mut first, attacker, mate);
    match first.0 {
        Some(e) => Err(e),
        None => Ok(g),
    }
}

/// The failure to report: the one of the smallest node id, the first met among equals.
struct FirstError(Option<CheckError>);

impl FirstError {
    fn fail(&mut self, e: CheckError) {
        let id = |e: &CheckError| match e {
            CheckError::Invalid { node, .. } => *node,
            CheckError::Unreadable { .. } => 0,
        };
        if self.0.as_ref().map_or(true, |f| id(&e) < id(f)) {
            self.0 = Some(e);
        }
    }
}

/// A bounded node's successor must hold at least `budget` - `step` (saturating)
/// plies; a node without a budget leads only to nodes without one.
fn budget_ok(parent: Option<u32>, child: Option<u32>, step: u32) -> Result<(), String> {
    match (parent, child) {
        (None, None) => Ok(()),
        (Some(b), Some(c)) if c >= b.saturating_sub(step) => Ok(()),
        (Some(b), Some(c)) => Err(format!(
            "budget {c} < {}",
            if step == 1 {
                format!("{b} - 1")
            } else {
                b.to_string()
            }
        )),
        (None, Some(_)) => Err("a node of the bounded no-mate graph".into()),
        (Some(_), None) => Err("a node without a budget".into()),
    }
}

/// Each move's child exists and is the position after the move; a move is 1 ply.
fn link_moves(x: &Pass, g: &mut Graphs, first: &mut FirstError) {
    for &(ix, c, m) in &x.edges {
        let id = x.ids[ix as usize];
        match x.index.get(c) {
            None => first.fail(invalid(id, format!("{m} leads to missing node {c}"))),
            Some(ci) if x.keys[ix as usize].after(m) != Some(x.keys[ci as usize]) => {
                first.fail(invalid(id, format!("{m} does not lead to node {c}")))
            }
            Some(ci) => {
                let (pb, cb) = (x.budgets[ix as usize], x.budgets[ci as usize]);
                if let Err(why) = budget_ok(pb, cb, 1) {
                    first.fail(invalid(id, format!("{m} leads to node {c}: {why}")));
                    continue;
                }
                g.add(ix, ci, 1, pb.is_none());
            }
        }
    }
}

/// Witness edges (versions 3 and 4): the exact test position, a budget at least (no-mate)
/// the node's; in the mate graph an edge of 0 plies (the futility test is mate within
/// the same budget as its node).
fn link_witnesses(x: &Pass, g: &mut Graphs, first: &mut FirstError) {
    for &(ix, c, k) in &x.witnesses {
        let id = x.ids[ix as usize];
        match x.index.get(c) {
            None => first.fail(invalid(id, format!("witness {c}: no such node"))),
            Some(ci) if x.keys[ci as usize] != k => first.fail(invalid(
                id,
                format!("witness {c} is not the futility test's position"),
            )),
            Some(ci) => {
                let (pb, cb) = (x.budgets[ix as usize], x.budgets[ci as usize]);
                if let Err(why) = budget_ok(pb, cb, 0) {
                    first.fail(invalid(id, format!("witness {c}: {why}")));
                    continue;
                }
                g.add(ix, ci, 0, pb.is_none());
            }
        }
    }
}

/// `a ≥ b` kind by kind.
fn at_least(a: Hand, b: Hand) -> bool {
    PieceKind::HAND.iter().all(|&k| a.count(k) >= b.count(k))
}

/// Each `covered_by` node: another existing node, the same board and side, a budget
/// at least its own, and hands that cover (mate: the attacker here has at least what
/// mated there; no-mate, and every bounded node: at most what failed there).
fn link_covers(x: &Pass, g: &mut Graphs, first: &mut FirstError, attacker: Color, mate: bool) {
    for &(ix, m) in &x.covers {
        let id = x.ids[ix as usize];
        let Some(mi) = x.index.get(m) else {
            first.fail(invalid(id, format!("covered_by {m}: no such node")));
            continue;
        };
        if m == id {
            first.fail(invalid(id, "covered by itself"));
            continue;
        }
        let (p, q) = (&x.keys[ix as usize], &x.keys[mi as usize]);
        if p.board != q.board || p.side != q.side {
            first.fail(invalid(
                id,
                format!("covered_by {m}: another board or side"),
            ));
            continue;
        }
        let (pb, qb) = (x.budgets[ix as usize], x.budgets[mi as usize]);
        if let Err(why) = budget_ok(pb, qb, 0) {
            first.fail(invalid(id, format!("covered_by {m}: {why}")));
            continue;
        }
        let d = !attacker;
        let (na, nd, ma, md) = (p.hand(attacker), p.hand(d), q.hand(attacker), q.hand(d));
        let ok = if mate && pb.is_none() {
            at_least(na, ma) && at_least(md, nd)
        } else {
            at_least(ma, na) && at_least(nd, md)
        };
        if !ok {
            first.fail(invalid(id, format!("covered_by {m}: hands do not cover")));
            continue;
        }
        g.add_cover(ix, mi, pb.is_none());
    }
}
