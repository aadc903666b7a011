//! The independent certificate checker (`shogi-lab check-certificate`).
//!
//! Reads the JSON lines of `specs/certificate.md` in one pass, node by node: each
//! node's position is rebuilt from its SFEN (`Setup` → `Position`, tsume rules) and
//! checked on its own with the rules core's naive play-and-test generator
//! (`src/certificate/naive.rs`, the definition of [`Position::legal_moves_naive`]); a check is
//! "the defender's king is attacked" by [`Position::attackers_to`] after the move. Only
//! compact state is kept per node (its id and the exact identity of its position) and
//! per edge (the key the child must have), so memory is linear in the certificate
//! with no position per node. Then the cross-node rules (each child is the position
//! after its move, `covered_by` hands) and the graph: a `petgraph` digraph of move and
//! `covered_by` edges; a mate proof must be acyclic ([`petgraph::algo::toposort`]) and
//! its longest path (moves count 1, `covered_by` 0) is its depth, which must equal
//! the header's `plies`. Version 2 files add a length claim: the mate graph's depth is
//! at most `length`, and a second, bounded no-mate graph (nodes with a `budget`)
//! proves no mate within `length` − 2; `covered_by` edges never form a cycle.
//! Version 3 reads the same claim under the 無駄合 convention: defender nodes carry
//! futility (mate) and non-futility (no-mate) witnesses, applied by `futility` from
//! the rules core alone; witness edges join the graph (0 plies, acyclic in the mate
//! graph, budgets ≥ the node's in the no-mate graph).
//!
//! The pieces, one a file: the `header`; the `pass` over the node lines, each `node`
//! checked on its own; the cross-node rules that `link` the nodes into the `graph`;
//! the header's `claims` against them; the `error`s.

mod claims;
mod error;
mod graph;
mod header;
mod link;
mod node;
mod pass;

pub use error::CheckError;

use super::{line, sfen};
use crate::rules::{Color, Position};
use error::{invalid, unreadable};

/// What a valid certificate proves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Checked {
    /// `mate` or `nomate`.
    pub result: String,
    /// For mate: the longest path (plies).
    pub plies: Option<u32>,
    /// Version 2: the certified shortest length L (mate within L, no mate within L − 2).
    pub length: Option<u32>,
    /// Version 3: the length is under the 無駄合 convention (futile interpositions are
    /// neither replies nor plies), not counting every reply.
    pub futile_uncounted: bool,
    /// Nodes.
    pub nodes: usize,
    /// The root position.
    pub root: Position,
}

/// Checks a certificate's text. With `problem`, the root must be that position.
///
/// # Errors
/// [`CheckError::Unreadable`] for text that is not a certificate,
/// [`CheckError::Invalid`] naming the first failing node (in id order).
pub fn check_text(text: &str, problem: Option<&Position>) -> Result<Checked, CheckError> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let (hl, htext) = lines.next().ok_or_else(|| unreadable(1, 1, "empty file"))?;
    let h = header::parse_header(htext, hl + 1)?;
    // The attacker is the root's side to move, needed before the pass: read off the
    // root's line (the first node line as the extractor writes them; node lines may
    // come in any order, specs/certificate.md). Unreadable lines are the pass's to
    // report.
    let attacker = lines
        .filter_map(|(_, l)| line::read(l).ok())
        .find(|n| n.id == h.root)
        .and_then(|n| sfen::read(&n.sfen).ok())
        .map_or(Color::Sente, |s| s.side_to_move);
    let (x, root_pos) = pass::read_nodes(text, &h, attacker)?;
    if let Some(p) = problem {
        if *p != root_pos {
            return Err(invalid(h.root, "the root is not the given problem"));
        }
    }
    let root_ix = claims::root_index(&x, h.root)?;
    let nomate_root = claims::nomate_root(&x, h.length, root_ix)?;
    let g = link::link(&x, root_pos.side_to_move(), h.mate)?;
    g.covers_acyclic(&x.ids)?;
    let depth = if h.mate {
        let depth = g.depth(root_ix, &x.ids)?;
        claims::depth(depth, &h)?;
        Some(depth)
    } else {
        None
    };
    // Every node reachable from the root or the bounded graph's root (after
    // acyclicity: a circular argument is named as a cycle even when it leaves nodes
    // behind).
    g.reachable(std::iter::once(root_ix).chain(nomate_root), &x.ids)?;
    Ok(Checked {
        result: if h.mate { "mate" } else { "nomate" }.into(),
        plies: depth,
        length: h.length.map(|(l, _)| l),
        futile_uncounted: h.version >= 3,
        nodes: x.ids.len(),
        root: root_pos,
    })
}
