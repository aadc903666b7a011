//! Certificates: the proof or disproof graph of a solved problem, read from the
//! solver's table ([`Solver::probe`](crate::tsume::Solver::probe)) and written as JSON
//! lines (`specs/certificate.md`). The checker lives outside the solver, in
//! [`crate::certificate`].
//!
//! - [`extract`] / [`extract_with`]: the plain mate or nomate graph (version 1);
//! - [`extract_length`] / [`extract_length_with`]: a proven-shortest length, a mate
//!   graph and a bounded no-mate graph, counting every reply (version 2) or under the
//!   無駄合 convention with its witnesses (version 4);
//! - [`write_jsonl`]: the file;
//! - [`certify_answer`]: all of it for one answer, as the front ends run it (extract,
//!   check in-process, write).
//!
//! This module holds the certificate's types; the extraction itself is in `extract`
//! (its state and table probes, the fallback solves, the mate and the nomate
//! graph), the renumbered graph of a claim in `graph`, the version-2 length claim in
//! `length`, the writer in `jsonl`, the certification of an answer in `answer`.

use crate::notation::sfen::write_setup;
use crate::rules::{Move, Position, Setup};
use serde::Serialize;
use std::borrow::Cow;
use std::fmt;

mod answer;
mod extract;
mod graph;
mod jsonl;
mod length;
mod packed;

pub use answer::{certify_answer, length_path, Certified, CertifyError};
pub use graph::{extract, extract_with, FALLBACK_FACTOR, MIN_FALLBACK_NODES};
pub use jsonl::write_jsonl;
pub use length::{
    check_length_nodes, extract_length, extract_length_with, length_limits,
    length_limits_with_nodes, LENGTH_MAX_NODES,
};
pub use packed::NodePosition;

/// What a certificate proves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Claim {
    /// The attacker mates (plain mate: every defender reply answered).
    Mate,
    /// The attacker cannot mate (perpetual check fails).
    Nomate,
}

/// One node of the graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The position (packed: a certificate holds millions of nodes).
    pub pos: NodePosition,
    /// Its moves and children, or the node that covers it.
    pub body: Body,
    /// For a node of a bounded no-mate graph: its budget `b`, the claim "no mate within
    /// `b` plies" (`None`: a node of a plain mate or no-mate graph).
    pub budget: Option<u16>,
    /// Version 3 (the 無駄合 convention), at a defender node: in the mate graph the
    /// futility witnesses of the replies it leaves out, in the no-mate graph the
    /// non-futility witnesses of its one reply (one per recapture); else empty.
    pub witnesses: Vec<Witness>,
}

/// A witness of the 無駄合 convention (`specs/certificate.md`, versions 3 and 4): after the
/// interposition `reply` and the checker's `recapture`, with the captured piece handed
/// back to the defender, the position of `node` (mate within the node's budget: the
/// reply is futile; no mate within it: this recapture does not make it futile).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Witness {
    /// The interposition.
    pub reply: Move,
    /// The checker's recapture on its square, giving check.
    pub recapture: Move,
    /// The node of the futility test's position.
    pub node: usize,
}

/// How a node is settled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    /// Moves (USI) and child node ids.
    Moves(Vec<(Move, usize)>),
    /// Settled by hand superiority over this node.
    CoveredBy(usize),
    /// Version 4: an attacker node of a bounded no-mate graph with budget 1 or 2 whose
    /// claim (no mate within 1 ply) the checker decides itself (`by_checker`).
    ByChecker,
}

/// A proof (mate) or disproof (nomate) graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Certificate {
    /// What it proves.
    pub result: Claim,
    /// The root's id.
    pub root: usize,
    /// For mate: the longest path of the graph in plies.
    pub plies: Option<u32>,
    /// Nodes, indexed by id.
    pub nodes: Vec<Node>,
    /// The length claim of a proven-shortest answer (version 2 files), else `None`.
    pub length: Option<Length>,
}

/// The certified length claim of a `shortest: true` answer: mate within `plies` (the
/// mate graph's depth is at most that) and no mate within `plies` − 2 (a bounded
/// no-mate graph from `nomate_root`), every reply counted (`--count-futile`, version 2)
/// or under the 無駄合 convention (the default mode, version 4, with witnesses).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Length {
    /// The claimed shortest mate length L.
    pub plies: u32,
    /// The root of the bounded no-mate graph (budget ≥ L − 2); `None` when L < 3.
    pub nomate_root: Option<usize>,
    /// Futile interpositions are neither replies nor plies (version 4).
    pub futile_uncounted: bool,
}

/// Why no certificate was produced (the answer is then reported uncertified).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExtractError {
    /// The result is `unknown` or a bounded no-mate: nothing to certify.
    #[error("nothing to certify for an {0} result")]
    NotSolved(&'static str),
    /// A node could not be settled from the table or a fresh bounded solve.
    #[error("node {sfen}: {why}")]
    Stuck {
        /// The node.
        sfen: NodeSfen,
        /// What failed.
        why: Cow<'static, str>,
    },
    /// The fallback solves' node budget ran out.
    #[error("node {sfen}: {why}")]
    Budget {
        /// The node.
        sfen: String,
        /// Which budget.
        why: String,
    },
    /// The extraction budget (graph nodes) ran out.
    #[error("certificate larger than {0} nodes")]
    TooLarge(usize),
    /// A fallback solver could not get its memory.
    #[error("{0}")]
    Memory(String),
    /// The search's driver asked it to stop ([`crate::tsume::SearchControl::stop`]) before
    /// the certificate was built.
    #[error("stopped before the certificate was built")]
    Stopped,
    /// One half of a length certificate failed: which (`mate within L`, `no mate within
    /// L − 2`) and why.
    #[error("{part}: {failure}")]
    Part {
        /// The half, e.g. "no-mate graph within 25 plies".
        part: String,
        /// Its failure (shown in this error's message, so not its `source`).
        failure: Box<ExtractError>,
    },
}

impl ExtractError {
    /// Whether the extraction ended because the search's driver asked it to stop (then
    /// nothing is certified or refuted).
    pub fn is_stopped(&self) -> bool {
        match self {
            ExtractError::Stopped => true,
            ExtractError::Part { failure, .. } => failure.is_stopped(),
            _ => false,
        }
    }

    /// Whether the graph outgrew its node cap ([`ExtractLimits::max_nodes`]), which a
    /// caller may raise.
    pub fn is_too_large(&self) -> bool {
        match self {
            ExtractError::TooLarge(_) => true,
            ExtractError::Part { failure, .. } => failure.is_too_large(),
            _ => false,
        }
    }
}

/// Limits of one extraction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExtractLimits {
    /// Most graph nodes.
    pub max_nodes: usize,
    /// Most nodes created in all, those taken back included (table-only work is
    /// bounded by this; fallback solves by the node budgets below).
    pub max_created: u64,
    /// Node budget of each fallback solve.
    pub fallback_nodes: u64,
    /// Table size of each fallback solver (MiB).
    pub fallback_mib: usize,
    /// Most fallback solves.
    pub fallback_solves: usize,
    /// Most nodes of all fallback solves together; [`extract`] sets it to
    /// [`FALLBACK_FACTOR`] times the root solve's nodes (at least [`MIN_FALLBACK_NODES`]),
    /// so that a failing extraction costs at most about four more solves.
    pub fallback_total_nodes: u64,
    /// Most nodes of one deep fallback solve (a larger table, for a node the first two
    /// tiers cannot settle), within what is left of the total; 0: no deep tier.
    /// [`extract`] sets it to the root solve's nodes.
    pub deep_nodes: u64,
    /// Most nodes of one search in a bounded no-mate defender's last round (the deep
    /// tier, for a reply every round of searches left undecided), within what is left of
    /// the total; the larger of this and `deep_nodes` applies. [`extract`] sets it to the
    /// whole fallback total: 図巧1's no-mate half needs about 3.8 M nodes for one reply,
    /// its solve 3.7 M (session 29). Only there: a mate graph's or a plain graph's node
    /// that no search settles would otherwise spend the whole total on one search
    /// (乱 451's mate half at ply 183, session 29).
    pub deep_reply_nodes: u64,
    /// Bounded no-mate graph, at a defender node past its first search round: take each
    /// refutation as soon as a search finds it, instead of searching every open reply
    /// first and taking the cheapest refutation first (which keeps graphs smaller as a
    /// rule; [`extract_length`] tries this order when that one ran out of fallback nodes).
    pub first_found: bool,
}

impl Default for ExtractLimits {
    fn default() -> Self {
        ExtractLimits {
            max_nodes: 2_000_000,
            max_created: 10_000_000,
            fallback_nodes: 2_000_000,
            fallback_mib: 16,
            fallback_solves: 20_000,
            fallback_total_nodes: 1_000_000,
            deep_nodes: 0,
            deep_reply_nodes: 0,
            first_found: false,
        }
    }
}

/// A node of an [`ExtractError`], written as SFEN only when the error is shown: most
/// errors of an extraction are dropped unseen when another choice settles the node.
#[derive(Clone, PartialEq, Eq)]
pub struct NodeSfen(Box<Setup>);

impl NodeSfen {
    fn of(pos: &Position) -> NodeSfen {
        NodeSfen(Box::new(pos.to_setup()))
    }

    /// Whether this is `pos`'s SFEN.
    fn is(&self, pos: &Position) -> bool {
        *self.0 == pos.to_setup()
    }
}

impl fmt::Display for NodeSfen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write_setup(&self.0))
    }
}

impl fmt::Debug for NodeSfen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&write_setup(&self.0), f)
    }
}

fn stuck(pos: &Position, why: impl Into<Cow<'static, str>>) -> ExtractError {
    ExtractError::Stuck {
        sfen: NodeSfen::of(pos),
        why: why.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::sfen::write_sfen;

    #[test]
    fn a_stuck_node_is_shown_by_its_sfen() {
        let pos = crate::tsume::load_problem(
            "8k/9/8P/9/9/9/9/9/9 b G 1",
            crate::tsume::DefenderHand::Remaining,
        )
        .expect("problem");
        let e = stuck(&pos, "cycle");
        assert_eq!(e.to_string(), format!("node {}: cycle", write_sfen(&pos)));
        let ExtractError::Stuck { sfen, .. } = &e else {
            panic!("{e:?}")
        };
        assert!(sfen.is(&pos));
        assert_eq!(format!("{sfen:?}"), format!("{:?}", write_sfen(&pos)));
    }
}
