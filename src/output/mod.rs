//! One JSON vocabulary: the typed results every `--json` prints (and the Python
//! binding returns), one `Serialize` struct per kind of result (STYLE 16).
//!
//! The same names for the same things everywhere:
//! - `sfen`: a position in SFEN; `start` the start position of a path;
//! - `usi`: one USI move, or a space-separated line of them (`moves` when a list);
//! - `result`: the kind of answer, a lower-case word (`mate`, `nomate`, `unknown`,
//!   `agree`, `mismatch`, `ongoing`, `sente_win`, …);
//! - `nodes`: a count of search nodes or tree leaves (integer);
//! - `time_ms`: elapsed milliseconds, an integer;
//! - absent values are `null`, never `""` or a missing key;
//! - values keyed by piece kind use the USI letters (`{"K":"1/3",…}`).
//!
//! The schemas are written out in `specs/schema/`.

pub mod diff;
pub mod experiments;
pub mod game;
pub mod gen;
pub mod placement;
pub mod quantum;
pub mod rules;
pub mod show;
pub mod tsume;

use serde::Serialize;

/// Serialises `value` as one JSON line.
pub fn to_line<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).expect("output structs always serialise")
}

/// Milliseconds as the integer `time_ms`.
pub fn millis(d: std::time::Duration) -> u64 {
    d.as_millis().min(u64::MAX as u128) as u64
}
