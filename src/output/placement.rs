//! `place --json` (and the Python `placement.count` / `placement.first`, which return
//! these same objects).

use crate::placement::{Count, Directions, PieceSet, SweepCount};
use crate::shard::Shard;
use serde::Serialize;

/// `one` or `two`.
pub const fn direction_name(d: Directions) -> &'static str {
    match d {
        Directions::One => "one",
        Directions::Two => "two",
    }
}

/// `place --count --json`: search or sweep counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlaceCount {
    /// The piece set (`P18L4N4S4G4K2R2B2`).
    pub pieces: String,
    /// `one` (all Sente) or `two` (each piece Sente or Gote).
    pub directions: &'static str,
    /// `search` or `sweep`.
    pub method: &'static str,
    /// `I/N` for a shard's part, `null` for the whole count.
    pub shard: Option<String>,
    /// Placements, mirror images counted separately (a shard's part: the parts sum).
    pub count: u64,
    /// Placements up to mirror, `(count + mirror_symmetric) / 2`; `null` for a shard (sum
    /// the parts' `count` and `mirror_symmetric` first).
    pub count_up_to_mirror: Option<u64>,
    /// Placements equal to their own mirror image.
    pub mirror_symmetric: u64,
    /// Search nodes; `null` for the sweep.
    pub nodes: Option<u64>,
    /// Sweep: long-range layouts counted; `null` for the search.
    pub layouts: Option<u64>,
    /// Sweep: DP states expanded; `null` for the search.
    pub states: Option<u64>,
    /// Sweep: the most states alive at one square; `null` for the search.
    pub peak_states: Option<u64>,
    /// Elapsed milliseconds.
    pub time_ms: u64,
}

impl PlaceCount {
    fn base(set: &PieceSet, dirs: Directions, shard: Option<Shard>, time_ms: u64) -> PlaceCount {
        PlaceCount {
            pieces: set.to_string(),
            directions: direction_name(dirs),
            method: "search",
            shard: shard.map(|s| s.to_string()),
            count: 0,
            count_up_to_mirror: None,
            mirror_symmetric: 0,
            nodes: None,
            layouts: None,
            states: None,
            peak_states: None,
            time_ms,
        }
    }

    /// From the search's count (`shard`: `None` for the whole count).
    pub fn search(
        set: &PieceSet,
        dirs: Directions,
        shard: Option<Shard>,
        c: &Count,
        time_ms: u64,
    ) -> PlaceCount {
        PlaceCount {
            count: c.count,
            count_up_to_mirror: shard.is_none().then(|| c.up_to_mirror()),
            mirror_symmetric: c.symmetric,
            nodes: Some(c.nodes),
            ..PlaceCount::base(set, dirs, shard, time_ms)
        }
    }

    /// From the sweep's count (one direction).
    pub fn sweep(set: &PieceSet, shard: Option<Shard>, c: &SweepCount, time_ms: u64) -> PlaceCount {
        PlaceCount {
            method: "sweep",
            count: c.count,
            count_up_to_mirror: shard.is_none().then(|| c.up_to_mirror()),
            mirror_symmetric: c.symmetric,
            layouts: Some(c.layouts),
            states: Some(c.states),
            peak_states: Some(c.peak_states),
            ..PlaceCount::base(set, Directions::One, shard, time_ms)
        }
    }
}

/// `place --first --json` (the default mode).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlaceFirst {
    /// The piece set.
    pub pieces: String,
    /// `one` or `two`.
    pub directions: &'static str,
    /// `found`, `impossible` (exhaustive search) or `unknown` (node limit reached).
    pub result: &'static str,
    /// The placement as a SFEN board (checked square by square); `null` unless found.
    pub sfen: Option<String>,
    /// Search nodes.
    pub nodes: u64,
    /// Elapsed milliseconds.
    pub time_ms: u64,
}

/// One line of `place --all --json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PlaceListed {
    /// 1, 2, … in the order found.
    pub index: u64,
    /// The placement as a SFEN board (checked square by square).
    pub sfen: String,
}
