//! `tsume --json`: one line per problem; `shogi_lab.tsume.solve` returns the same object.

use crate::notation::japanese::ki2_line;
use crate::notation::sfen::write_sfen;
use crate::rules::{Move, Position};
use crate::tsume::certificate::Certified;
use crate::tsume::{Outcome, SolveResult};
use serde::Serialize;

/// The answer to one problem: the CLI's `tsume --json` line and the Python binding's
/// `tsume.solve` result (both built by [`TsumeOut::answer`] or [`TsumeOut::unreadable`]).
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
    /// No mate of at most this many plies exists: with `--max-plies N`, `N` when no mate
    /// within it exists; in the default mode, the bound the minimality search proved when
    /// a limit stopped it (`shortest: false`, or `unknown` with `mate_within`).
    pub no_mate_within: Option<u16>,
    /// For a mate in the default mode: the shortest mate has at most this many plies (the
    /// least budget within which a mate is proven); `plies` when `shortest` is true. Also
    /// for `unknown` when a mate was proven but no line could be read (a stop during the
    /// line walk, or no line within `--max-plies`).
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

impl TsumeOut {
    /// The answer to problem `id`, solved as `pos` (the defender's hand filled in):
    /// the search's result `r` and its certification `cert`. `alternatives` says whether
    /// other mating first moves were looked for (`--alt-nodes` > 0): then the list
    /// (possibly empty) is given, else `null`. Every field that only a mate has is
    /// `null` for the other results.
    pub fn answer(
        id: &str,
        pos: &Position,
        r: &SolveResult<Move>,
        cert: &Certified,
        alternatives: bool,
    ) -> TsumeOut {
        let mate = r.outcome == Outcome::Mate;
        TsumeOut {
            id: id.to_string(),
            sfen: write_sfen(pos),
            result: r.outcome.as_str(),
            plies: mate.then_some(r.line.len()),
            shortest: if mate { r.shortest } else { None },
            usi: mate.then(|| r.line_usi()),
            kif: mate.then(|| ki2_line(pos, &r.line)),
            no_mate_within: r.no_mate_within,
            // The solver sets it only for a proven mate (shown or not).
            mate_within: r.mate_within,
            alternatives: alternatives
                .then(|| r.alternatives.iter().map(|m| m.to_string()).collect()),
            certified: cert.certified,
            shortest_certified: cert.shortest_certified,
            nodes: r.stats.nodes,
            plays: r.stats.plays,
            time_ms: super::millis(r.stats.time),
            error: None,
        }
    }

    /// Problem `id` that could not be read: `sfen` is its text as given, `error` the
    /// located input error (`PATH:LINE:COL: message`); counts are 0.
    pub fn unreadable(id: &str, sfen: &str, error: impl std::fmt::Display) -> TsumeOut {
        TsumeOut {
            id: id.to_string(),
            sfen: sfen.to_string(),
            result: "error",
            plies: None,
            shortest: None,
            usi: None,
            kif: None,
            no_mate_within: None,
            mate_within: None,
            alternatives: None,
            certified: None,
            shortest_certified: None,
            nodes: 0,
            plays: 0,
            time_ms: 0,
            error: Some(error.to_string()),
        }
    }
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
    /// Versions 2 to 4: the certified shortest length L (mate within L, no mate within
    /// L − 2); `null` for version 1.
    pub length: Option<u32>,
    /// With a length: `"counted"` (version 2, every reply counts) or `"uncounted"`
    /// (versions 3 and 4, the 無駄合 convention of the default mode); `null` without.
    pub futile: Option<&'static str>,
    /// Nodes of the certificate.
    pub nodes: usize,
    /// Elapsed milliseconds.
    pub time_ms: u64,
}
