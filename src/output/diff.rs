//! Results of `shogi-lab diff` (schema: `specs/schema/diff.md`).

use crate::testdata::diff_moves::{MoveMismatch, MovesReport};
use serde::Serialize;

/// `diff moves --json`.
#[derive(Debug, Clone, Serialize)]
pub struct DiffMoves {
    /// `agree` or `mismatch`.
    pub result: &'static str,
    /// The engine command.
    pub engine: String,
    /// The seed of the walks.
    pub seed: u64,
    /// Whether the walks started from tsume positions, the attacker without a king
    /// (`--kingless`).
    pub kingless: bool,
    /// Positions compared.
    pub positions: usize,
    /// Walks they came from.
    pub walks: usize,
    /// Our legal moves over all positions.
    pub moves: usize,
    /// Positions that differ.
    pub mismatches: usize,
    /// The first mismatch, shrunk; `null` when all agree.
    pub first: Option<Mismatch>,
    /// Elapsed milliseconds.
    pub time_ms: u64,
}

/// One position where two move lists differ, with the shortest path found to it.
#[derive(Debug, Clone, Serialize)]
pub struct Mismatch {
    /// The position.
    pub sfen: String,
    /// The walk's start position.
    pub start: String,
    /// The moves from `start` to `sfen` (USI).
    pub moves: Vec<String>,
    /// The path length before shrinking.
    pub unshrunk_plies: usize,
    /// Legal here but not listed by the engine.
    pub missing: Vec<String>,
    /// Listed by the engine but not legal here.
    pub extra: Vec<String>,
    /// Listed by the engine more than once (each once).
    pub duplicated: Vec<String>,
}

impl Mismatch {
    /// From a shrunk [`MoveMismatch`].
    pub fn new(m: &MoveMismatch, unshrunk_plies: usize) -> Mismatch {
        Mismatch {
            sfen: m.sfen.clone(),
            start: crate::notation::sfen::write_sfen(&m.start),
            moves: m.path.iter().map(|x| x.to_string()).collect(),
            unshrunk_plies,
            missing: m.missing.clone(),
            extra: m.extra.clone(),
            duplicated: m.duplicated.clone(),
        }
    }
}

impl DiffMoves {
    /// From a [`MovesReport`] (`kingless`: the walks started from tsume positions, the attacker without a king).
    pub fn new(
        engine: &str,
        seed: u64,
        kingless: bool,
        r: &MovesReport,
        time_ms: u64,
    ) -> DiffMoves {
        DiffMoves {
            result: if r.mismatches == 0 {
                "agree"
            } else {
                "mismatch"
            },
            engine: engine.to_string(),
            seed,
            kingless,
            positions: r.positions,
            walks: r.walks,
            moves: r.moves,
            mismatches: r.mismatches,
            first: r.first.as_ref().map(|m| Mismatch::new(m, r.unshrunk_plies)),
            time_ms,
        }
    }
}

/// `diff perft --json`.
#[derive(Debug, Clone, Serialize)]
pub struct DiffPerft {
    /// `agree` or `mismatch`.
    pub result: &'static str,
    /// The engine command.
    pub engine: String,
    /// The seed of the walks.
    pub seed: u64,
    /// perft depth.
    pub depth: u32,
    /// Whether the walks started from tsume positions, the attacker without a king
    /// (`--kingless`).
    pub kingless: bool,
    /// Positions compared.
    pub positions: usize,
    /// Our leaves over all positions.
    pub nodes: u128,
    /// Positions whose counts differ.
    pub mismatches: usize,
    /// The first mismatch followed down the tree; `null` when all agree.
    pub first: Option<PerftMismatchJson>,
    /// Elapsed milliseconds.
    pub time_ms: u64,
}

/// Where perft counts differ.
#[derive(Debug, Clone, Serialize)]
pub struct PerftMismatchJson {
    /// The position.
    pub sfen: String,
    /// The walk's start.
    pub start: String,
    /// The moves from `start` to `sfen` (shrunk when `localised` is `move-count`).
    pub moves: Vec<String>,
    /// The length of `moves` before shrinking (the walk, then the descent).
    pub unshrunk_plies: usize,
    /// `move-count`: the numbers of legal moves differ at `sfen` (`depth` 1);
    /// `children-agree`: the counts differ at `depth` ≥ 2 though the numbers of moves
    /// and our moves' subcounts agree ([`crate::testdata::diff_perft::Localised`]).
    pub localised: &'static str,
    /// The depth at which the counts differ at `sfen`.
    pub depth: u32,
    /// Our count.
    pub ours: u64,
    /// The engine's count (`null` if its answer was not a number).
    pub theirs: Option<u64>,
    /// The engine's answer line as printed, cut to [`ANSWER_CHARS`] characters (then
    /// ending in `…`): what it said when `theirs` is `null`.
    pub answer: String,
}

/// The most characters of an engine's answer line a report repeats.
pub const ANSWER_CHARS: usize = 200;

/// `text` cut to [`ANSWER_CHARS`] characters, `…` marking a cut.
fn cut(text: &str) -> String {
    match text.char_indices().nth(ANSWER_CHARS) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

impl DiffPerft {
    /// From a [`crate::testdata::diff_perft::PerftReport`] (`kingless`: the walks started
    /// from tsume positions).
    pub fn new(
        engine: &str,
        seed: u64,
        depth: u32,
        kingless: bool,
        r: &crate::testdata::diff_perft::PerftReport,
        time_ms: u64,
    ) -> DiffPerft {
        DiffPerft {
            result: if r.mismatches == 0 {
                "agree"
            } else {
                "mismatch"
            },
            engine: engine.to_string(),
            seed,
            depth,
            kingless,
            positions: r.positions,
            nodes: r.nodes,
            mismatches: r.mismatches,
            first: r.first.as_ref().map(|m| PerftMismatchJson {
                sfen: m.sfen.clone(),
                start: crate::notation::sfen::write_sfen(&m.start),
                moves: m.path.iter().map(|x| x.to_string()).collect(),
                unshrunk_plies: m.unshrunk_plies,
                localised: m.localised.name(),
                depth: m.depth,
                ours: m.ours,
                theirs: m.theirs,
                answer: cut(&m.answer),
            }),
            time_ms,
        }
    }
}

/// One side's answer to a mate problem.
#[derive(Debug, Clone, Serialize)]
pub struct MateVerdict {
    /// `mate`, `nomate` or `unknown` (also the engine's `timeout`).
    pub result: &'static str,
    /// Length of the mate line, `null` without one.
    pub plies: Option<usize>,
    /// The mate line, space-separated USI, `null` without one.
    pub usi: Option<String>,
    /// Ours only, as `tsume --json` has it: whether the line's length is proven shortest
    /// (`null` without a mate).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shortest: Option<Option<bool>>,
    /// Ours only: no mate of at most this many plies exists, when a limit stopped the
    /// minimality search (`null` otherwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub no_mate_within: Option<Option<u16>>,
    /// Ours only: a mate within this many plies is proven (`null` without one).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mate_within: Option<Option<u16>>,
    /// Ours only: solver nodes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub nodes: Option<u64>,
    /// Ours only: positions the solver entered by a move ([`crate::tsume::Stats::plays`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plays: Option<u64>,
    /// Engine only: whether the checker accepted its line (`null` without a line).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line_ok: Option<Option<bool>>,
    /// Engine only: why the checker rejected its line (`null` if it did not).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Option<String>>,
    /// Engine only: milliseconds from `go mate` to its `checkmate` line.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<u64>,
    /// Engine only: its last `info string` text before `checkmate` (`null` if none).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub info_string: Option<Option<String>>,
    /// Engine only: whether it answered only after a `stop` (it overran `go mate` by 10 s).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub after_stop: Option<bool>,
}

/// One line of `diff mate --json`.
#[derive(Debug, Clone, Serialize)]
pub struct DiffMateLine {
    /// The problem's id.
    pub id: String,
    /// The position both solved.
    pub sfen: String,
    /// Our answer.
    pub ours: MateVerdict,
    /// The engine's answer.
    pub theirs: MateVerdict,
    /// What the comparison shows ([`crate::testdata::diff_mate::Verdict::name`]).
    pub verdict: &'static str,
    /// For `shorter`: the engine's defender move that gives up a longer defence (`null`
    /// for another verdict, or when our limits left it unfound).
    pub short_defence: Option<crate::testdata::diff_mate::ShortDefence>,
    /// No disagreement (the verdict is none of `not_mate`, `shorter`, `nomate_but_mate`,
    /// `mate_but_nomate`).
    pub agree: bool,
}

impl DiffMateLine {
    /// From a [`crate::testdata::diff_mate::MateComparison`].
    pub fn new(id: &str, c: &crate::testdata::diff_mate::MateComparison) -> DiffMateLine {
        use crate::testdata::usi_engine::MateAnswer;
        use crate::tsume::Outcome;
        let mate = c.ours.outcome == Outcome::Mate;
        let ours = MateVerdict {
            result: match c.ours.outcome {
                Outcome::Mate => "mate",
                Outcome::NoMate => "nomate",
                Outcome::Unknown => "unknown",
            },
            plies: mate.then_some(c.ours.line.len()),
            usi: mate.then(|| c.ours.line_usi()),
            shortest: Some(if mate { c.ours.shortest } else { None }),
            no_mate_within: Some(c.ours.no_mate_within),
            mate_within: Some(c.ours.mate_within),
            nodes: Some(c.ours.stats.nodes),
            plays: Some(c.ours.stats.plays),
            line_ok: None,
            error: None,
            time_ms: None,
            info_string: None,
            after_stop: None,
        };
        let (result, line) = match &c.theirs.answer {
            MateAnswer::Mate(l) => ("mate", Some(l)),
            MateAnswer::NoMate => ("nomate", None),
            MateAnswer::Timeout => ("unknown", None),
        };
        let theirs = MateVerdict {
            result,
            plies: line.map(Vec::len),
            usi: line.map(|l| l.join(" ")),
            shortest: None,
            no_mate_within: None,
            mate_within: None,
            nodes: None,
            plays: None,
            line_ok: Some(c.line_check.as_ref().map(Result::is_ok)),
            error: Some(c.line_check.as_ref().and_then(|r| r.clone().err())),
            time_ms: Some(super::millis(c.theirs.elapsed)),
            info_string: Some(c.theirs.info_string.clone()),
            after_stop: Some(c.theirs.after_stop),
        };
        DiffMateLine {
            id: id.to_string(),
            sfen: c.sfen.clone(),
            ours,
            theirs,
            verdict: c.verdict.name(),
            short_defence: c.short_defence.clone(),
            agree: c.agree(),
        }
    }
}

/// How many problems got each verdict ([`crate::testdata::diff_mate::Verdict`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct MateVerdictCounts {
    /// Same answer (and length).
    pub same: usize,
    /// A checked line longer than our proven minimum.
    pub longer: usize,
    /// Both mate, lengths within our unproven bounds.
    pub unranked: usize,
    /// No verdict on one side.
    pub undecided: usize,
    /// Disagreement: a line the checker rejects.
    pub not_mate: usize,
    /// Disagreement: a checked line shorter than our proven minimum.
    pub shorter: usize,
    /// Disagreement: `nomate` where we have a checked mate.
    pub nomate_but_mate: usize,
    /// Disagreement: a checked mate where we claim `nomate`.
    pub mate_but_nomate: usize,
}

impl MateVerdictCounts {
    /// Counts one more `v`.
    pub fn add(&mut self, v: crate::testdata::diff_mate::Verdict) {
        use crate::testdata::diff_mate::Verdict;
        *match v {
            Verdict::Same => &mut self.same,
            Verdict::Longer => &mut self.longer,
            Verdict::Unranked => &mut self.unranked,
            Verdict::Undecided => &mut self.undecided,
            Verdict::NotMate => &mut self.not_mate,
            Verdict::Shorter => &mut self.shorter,
            Verdict::NomateButMate => &mut self.nomate_but_mate,
            Verdict::MateButNomate => &mut self.mate_but_nomate,
        } += 1;
    }

    /// The count of `v`.
    pub fn get(&self, v: crate::testdata::diff_mate::Verdict) -> usize {
        use crate::testdata::diff_mate::Verdict;
        match v {
            Verdict::Same => self.same,
            Verdict::Longer => self.longer,
            Verdict::Unranked => self.unranked,
            Verdict::Undecided => self.undecided,
            Verdict::NotMate => self.not_mate,
            Verdict::Shorter => self.shorter,
            Verdict::NomateButMate => self.nomate_but_mate,
            Verdict::MateButNomate => self.mate_but_nomate,
        }
    }
}

/// The last line of `diff mate --json`.
#[derive(Debug, Clone, Serialize)]
pub struct DiffMateSummary {
    /// `agree` or `mismatch`.
    pub result: &'static str,
    /// The engine command.
    pub engine: String,
    /// Whether lengths counted 無駄合 as plies (`--count-futile`).
    pub count_futile: bool,
    /// Problems compared.
    pub problems: usize,
    /// Problems where they disagree (the four disagreement verdicts).
    pub mismatches: usize,
    /// Problems by verdict.
    pub verdicts: MateVerdictCounts,
    /// Elapsed milliseconds.
    pub time_ms: u64,
}
