//! `tsume --json`: one line per problem.

use serde::Serialize;

/// The answer to one problem.
#[derive(Debug, Clone, Serialize)]
pub struct TsumeOut {
    /// The problem's id (line id of a problem file, `1` for a single SFEN).
    pub id: String,
    /// The position solved (defender's hand filled in as the convention says).
    pub sfen: String,
    /// `mate`, `nomate`, `unknown`, or `error` for a problem that could not be read.
    pub result: &'static str,
    /// For a mate: the line's length in plies.
    pub plies: Option<usize>,
    /// For a mate in the default mode: whether the length is proven shortest (a disproof
    /// within L − 2 plies); `false` when a limit stopped that proof; `null` with `--any-mate`.
    pub shortest: Option<bool>,
    /// For a mate: the line, space-separated USI moves.
    pub usi: Option<String>,
    /// For a mate: the line in Japanese notation (KI2 style).
    pub kif: Option<String>,
    /// With `--max-plies N`: `N` when no mate of at most N plies exists.
    pub no_mate_within: Option<u16>,
    /// For a mate in the default mode: the shortest mate has at most this many plies (the
    /// least budget within which a mate is proven); `plies` when `shortest` is true.
    pub mate_within: Option<u16>,
    /// With `--alt-nodes`: other mating first moves (余詰), USI.
    pub alternatives: Option<Vec<String>>,
    /// For a mate or nomate: `true` when its certificate (specs/certificate.md) was
    /// extracted and accepted by the independent checker in-process, `false` when no
    /// valid certificate could be produced (the reason goes to stderr); `null` for other
    /// results and with `--no-certify`.
    pub certified: Option<bool>,
    /// For a proven-shortest mate (`shortest: true`): `true` when the length claim
    /// itself (mate within L plies, no mate within L − 2) was certified — a version-2
    /// certificate (`--count-futile`) or a version-4 one (the default mode's 無駄合
    /// convention; specs/certificate.md) accepted by the checker in-process; `false`
    /// when not (the reason goes to stderr); `null` for every other answer and with
    /// `--no-certify`.
    pub shortest_certified: Option<bool>,
    /// Search nodes (proof, minimality, line, 余詰).
    pub nodes: u64,
    /// Positions the search entered by a move (`tsume::Stats::plays`: the unit
    /// YaneuraOu-based engines such as KomoringHeights call nodes).
    pub plays: u64,
    /// Elapsed milliseconds (wall clock).
    pub time_ms: u64,
    /// For `result: error`: why the problem could not be read.
    pub error: Option<String>,
}

/// `check-certificate --json` for a valid certificate (an invalid one is exit 1 with
/// one line on stderr naming the first failing node).
#[derive(Debug, Clone, Serialize)]
pub struct CertificateCheckOut {
    /// `true`.
    pub valid: bool,
    /// `mate` or `nomate`.
    pub result: String,
    /// For a mate: the longest path of the proof graph (plies); `null` for a no-mate.
    pub plies: Option<u32>,
    /// Version 2: the certified shortest length L (mate within L, no mate within L − 2).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub length: Option<u32>,
    /// With a length: `"counted"` (version 2, every reply counts) or `"uncounted"`
    /// (version 4, the 無駄合 convention of the default mode).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub futile: Option<&'static str>,
    /// Nodes of the certificate.
    pub nodes: usize,
    /// Elapsed milliseconds.
    pub time_ms: u64,
}
