//! Lines of `shogi-lab gen` (schemas: `specs/schema/gen-*.md`).

use super::game::OutcomeJson;
use serde::Serialize;
use std::collections::BTreeMap;

/// One line of `gen positions`.
#[derive(Debug, Clone, Serialize)]
pub struct GenPosition {
    /// The position.
    pub sfen: String,
    /// Its legal moves, USI, sorted.
    pub moves: Vec<String>,
    /// perft at depths 1, 2, …, D.
    pub perft: Vec<u64>,
    /// The side to move is in check.
    pub in_check: bool,
    /// The outcome decided by the position alone (mate, no legal move, or ongoing).
    pub outcome: OutcomeJson,
}

/// One line of `gen tsume`.
#[derive(Debug, Clone, Serialize)]
pub struct GenTsume {
    /// The problem: the side to move mates.
    pub sfen: String,
    /// Length of the proven-shortest mate.
    pub plies: usize,
    /// The mate line, space-separated USI (攻方最短・玉方最長, `specs/tsume.md`).
    pub usi: String,
    /// Solver nodes spent on this position.
    pub nodes: u64,
}

/// One line of `gen quantum`.
#[derive(Debug, Clone, Serialize)]
pub struct GenQuantum {
    /// The observations in order: `<piece index> <observation>` (`3 move 0 -1`, `7 captured`);
    /// 0–40 of them (those drawn that would contradict the world are left out).
    pub history: Vec<String>,
    /// The converged domains of the 20 pieces (`World` text, `L L R KBGSNP …`).
    pub world: String,
    /// The kinds used up (使い切り), USI letters; `-` when none.
    pub used_up: String,
    /// Number of worlds (assignments), a decimal string (it may exceed 2^53).
    pub worlds: String,
    /// Per piece: kind letter → exact probability (`{"R":"1/3","L":"2/3"}`), kinds with
    /// probability 0 left out.
    pub probabilities: Vec<BTreeMap<String, String>>,
}

/// One line of `gen records`.
#[derive(Debug, Clone, Serialize)]
pub struct GenRecord {
    /// The game's start position.
    pub start: String,
    /// The moves, USI.
    pub moves: Vec<String>,
    /// The position after the last move.
    pub sfen: String,
    /// The game's outcome after the moves.
    pub outcome: OutcomeJson,
    /// `kif`, `ki2`, `csa`, `jkf` or `usi`.
    pub format: &'static str,
    /// The record in that format.
    pub text: String,
}
