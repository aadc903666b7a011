//! `perft --json` and `moves --json`.

use serde::Serialize;
use std::collections::BTreeMap;

/// `perft --json`.
#[derive(Debug, Clone, Serialize)]
pub struct PerftOut {
    /// The position.
    pub sfen: String,
    /// Depth in plies.
    pub depth: u32,
    /// Leaves of the legal move tree.
    pub nodes: u64,
    /// Elapsed milliseconds.
    pub time_ms: u64,
    /// Leaves per second.
    pub nps: u64,
    /// With `--divide`: USI move → leaves; `null` without.
    pub divide: Option<BTreeMap<String, u64>>,
}

/// One line of `moves --json`.
#[derive(Debug, Clone, Serialize)]
pub struct MovesOut {
    /// The position.
    pub sfen: String,
    /// Its legal moves, USI, sorted.
    pub moves: Vec<String>,
}
