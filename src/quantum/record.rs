//! Our text record of a quantum shogi game, and replaying records.
//!
//! ```text
//! # shogi-lab quantum record
//! variant standard
//! 1 5g5c+ ☗5三量子成 | RL * … | KRBGSNLP …
//! 2 5a5c ☖同量子 | … | …
//! result none
//! ```
//!
//! A move line: ply, the USI-like move (in the observe variant a capture is
//! followed by `=K` etc., the kind the captured piece collapsed to), optionally
//! the shogitter text, then optionally ` | ` and the 20 domains of Sente's and
//! Gote's worlds after the move (slots in order of first observation), which
//! replay checks, as it checks the move text against the move. `result` is `none`,
//! `sente`, `gote` (king capture) or `repetition`.
//!
//! The `variant` line comes once, before the first move; the `result` line once,
//! after the last. A record holds at least one move (a text with none is refused).

use super::game::{GameResult, IllegalMove, QMove, QuantumPosition, Variant};
use super::{Kind, World};
use crate::rules::Color;
use std::fmt::Write;

/// One move of a record.
///
/// Equality ignores [`Step::line`] (where the step was read, not what it says).
#[derive(Debug, Clone, Eq)]
pub struct Step {
    /// The move.
    pub mv: QMove,
    /// Observe variant: the kind the captured piece collapsed to.
    pub observed: Option<Kind>,
    /// The shogitter move text as recorded (`☗7四量子`), checked by [`replay`].
    pub text: Option<String>,
    /// The worlds after the move, if recorded.
    pub worlds: Option<[World; 2]>,
    /// The 1-based line it was read from (0: not read from a text).
    pub line: usize,
}

impl PartialEq for Step {
    fn eq(&self, o: &Step) -> bool {
        (self.mv, self.observed, &self.text, self.worlds) == (o.mv, o.observed, &o.text, o.worlds)
    }
}

/// A game record.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Record {
    /// Capture rule.
    pub variant: Variant,
    /// The moves.
    pub steps: Vec<Step>,
    /// The recorded result (`None`: the game had not ended).
    pub result: Option<GameResult>,
}

/// A bad record line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {what}")]
pub struct RecordError {
    /// 1-based line; 0 for the text as a whole (no moves).
    pub line: usize,
    /// What is wrong.
    pub what: String,
}

fn result_text(r: Option<GameResult>) -> &'static str {
    match r {
        None => "none",
        Some(GameResult::KingCapture {
            winner: Color::Sente,
        }) => "sente",
        Some(GameResult::KingCapture {
            winner: Color::Gote,
        }) => "gote",
        Some(GameResult::Repetition) => "repetition",
    }
}

impl Record {
    /// The record of the game played in `p` (with the worlds after every move).
    pub fn from_game(p: &QuantumPosition, observed: &[Option<Kind>]) -> Record {
        let moves: Vec<QMove> = p.moves().collect();
        let mut q = QuantumPosition::new(p.engine(), p.variant());
        let mut steps = Vec::new();
        for (i, mv) in moves.into_iter().enumerate() {
            let obs = observed.get(i).copied().flatten();
            let text = q.move_text(mv);
            // Replaying our own game cannot fail.
            let _ = q.play_with(mv, obs);
            steps.push(Step {
                mv,
                observed: obs,
                text: Some(text),
                worlds: Some([q.world(Color::Sente).world, q.world(Color::Gote).world]),
                line: 0,
            });
        }
        Record {
            variant: p.variant(),
            steps,
            result: p.result(),
        }
    }

    /// Writes the text form (with the shogitter move texts).
    pub fn to_text(&self) -> String {
        let mut s = String::from("# shogi-lab quantum record\n");
        let _ = writeln!(
            s,
            "variant {}",
            match self.variant {
                Variant::Standard => "standard",
                Variant::Observe => "observe",
            }
        );
        let mut p = QuantumPosition::new(super::game::EngineKind::Counting, self.variant);
        for (i, st) in self.steps.iter().enumerate() {
            let text = st.text.clone().unwrap_or_else(|| p.move_text(st.mv));
            let obs = st
                .observed
                .map(|k| format!("={}", k.letter()))
                .unwrap_or_default();
            let _ = write!(s, "{} {}{obs} {text}", i + 1, st.mv);
            if let Some([a, b]) = st.worlds {
                let _ = write!(s, " | {a} | {b}");
            }
            s.push('\n');
            let _ = p.play_with(st.mv, st.observed);
        }
        let _ = writeln!(s, "result {}", result_text(self.result));
        s
    }

    /// Parses the text form.
    ///
    /// # Errors
    /// [`RecordError`] naming the line: a malformed line, a `variant` line after a
    /// move or repeated, a `result` line repeated or followed by a move, an observed
    /// kind (`=K`) in the standard variant, more than one move text; line 0 for a text
    /// without moves.
    pub fn parse(text: &str) -> Result<Record, RecordError> {
        let mut r = Record::default();
        let mut variant_line = None;
        let mut result_line = None;
        for (ln, raw) in text.lines().enumerate() {
            let line = raw.trim();
            let err = |what: String| RecordError { line: ln + 1, what };
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(v) = line.strip_prefix("variant ") {
                if let Some(l) = variant_line {
                    return Err(err(format!(
                        "a second variant line (the first is line {l})"
                    )));
                }
                if !r.steps.is_empty() {
                    return Err(err(
                        "the variant line must come before the first move".into()
                    ));
                }
                variant_line = Some(ln + 1);
                r.variant = match v.trim() {
                    "standard" => Variant::Standard,
                    "observe" => Variant::Observe,
                    o => return Err(err(format!("unknown variant {o:?}"))),
                };
                continue;
            }
            if let Some(v) = line.strip_prefix("result ") {
                if let Some(l) = result_line {
                    return Err(err(format!("a second result line (the first is line {l})")));
                }
                result_line = Some(ln + 1);
                r.result = match v.trim() {
                    "none" => None,
                    "sente" => Some(GameResult::KingCapture {
                        winner: Color::Sente,
                    }),
                    "gote" => Some(GameResult::KingCapture {
                        winner: Color::Gote,
                    }),
                    "repetition" => Some(GameResult::Repetition),
                    o => return Err(err(format!("unknown result {o:?}"))),
                };
                continue;
            }
            let mut parts = line.split('|');
            let head = parts.next().unwrap_or("");
            let mut toks = head.split_whitespace();
            let n: usize = toks
                .next()
                .and_then(|t| t.parse().ok())
                .ok_or_else(|| err("expected a ply number".into()))?;
            if let Some(l) = result_line {
                return Err(err(format!("a move after the result line (line {l})")));
            }
            if n != r.steps.len() + 1 {
                return Err(err(format!("ply {n} out of order")));
            }
            let mtext = toks.next().ok_or_else(|| err("missing move".into()))?;
            let (mtext, observed) = match mtext.split_once('=') {
                Some((m, k)) => {
                    let kind = k
                        .chars()
                        .next()
                        .filter(|_| k.chars().count() == 1)
                        .and_then(Kind::from_char)
                        .ok_or_else(|| err(format!("bad observed kind {k:?}")))?;
                    if r.variant == Variant::Standard {
                        return Err(err(format!(
                            "observed kind ={k} in the standard variant (only the observe variant records one)"
                        )));
                    }
                    (m, Some(kind))
                }
                None => (mtext, None),
            };
            let mv: QMove = mtext.parse().map_err(|e| err(format!("{e}")))?;
            let move_text = toks.next().map(str::to_string);
            if let Some(extra) = toks.next() {
                return Err(err(format!("unexpected {extra:?} after the move text")));
            }
            let rest: Vec<&str> = parts.collect();
            let worlds = match rest.as_slice() {
                [] => None,
                [a, b] => Some([
                    World::parse_exact(a).map_err(|e| err(format!("Sente world: {e}")))?,
                    World::parse_exact(b).map_err(|e| err(format!("Gote world: {e}")))?,
                ]),
                _ => return Err(err("expected two worlds after the move".into())),
            };
            r.steps.push(Step {
                mv,
                observed,
                text: move_text,
                worlds,
                line: ln + 1,
            });
        }
        if r.steps.is_empty() {
            return Err(RecordError {
                line: 0,
                what: "holds no record (no moves)".into(),
            });
        }
        Ok(r)
    }
}

/// Why a replay failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ReplayError {
    /// A recorded move is illegal.
    #[error("ply {ply} ({mv}): illegal: {err}")]
    Illegal {
        /// 1-based ply.
        ply: usize,
        /// The move.
        mv: QMove,
        /// Why.
        err: IllegalMove,
    },
    /// The recorded move text is not the move's.
    #[error("ply {ply}: move text {text}: the move is {ours}")]
    MoveText {
        /// 1-based ply.
        ply: usize,
        /// As recorded.
        text: String,
        /// The move's own text.
        ours: String,
    },
    /// An observed kind (`=K`) on a move that captures nothing.
    #[error("ply {ply} ({mv}): observed kind ={kind} but the move captures nothing")]
    ObservedWithoutCapture {
        /// 1-based ply.
        ply: usize,
        /// The move.
        mv: QMove,
        /// The kind recorded.
        kind: char,
    },
    /// The state after a move differs from the record.
    #[error("ply {ply}: state differs from the record: {what}")]
    Mismatch {
        /// 1-based ply.
        ply: usize,
        /// The first difference.
        what: String,
    },
}

impl ReplayError {
    /// The 1-based ply the error is at.
    pub fn ply(&self) -> usize {
        match *self {
            ReplayError::Illegal { ply, .. }
            | ReplayError::MoveText { ply, .. }
            | ReplayError::ObservedWithoutCapture { ply, .. }
            | ReplayError::Mismatch { ply, .. } => ply,
        }
    }
}

/// Replays `r`, checking every recorded move text, world and the result; calls `each(ply, position, move, observed)` after every move.
///
/// # Errors
/// [`ReplayError`] at the first illegal move or difference.
pub fn replay(
    r: &Record,
    p: &mut QuantumPosition,
    mut each: impl FnMut(usize, &QuantumPosition, QMove),
) -> Result<(), ReplayError> {
    for (i, st) in r.steps.iter().enumerate() {
        let ply = i + 1;
        if let Some(text) = &st.text {
            let ours = p.move_text(st.mv);
            if *text != ours {
                return Err(ReplayError::MoveText {
                    ply,
                    text: text.clone(),
                    ours,
                });
            }
        }
        if let Some(k) = st.observed {
            if p.captured_by(st.mv).is_none() {
                return Err(ReplayError::ObservedWithoutCapture {
                    ply,
                    mv: st.mv,
                    kind: k.letter(),
                });
            }
        }
        p.play_with(st.mv, st.observed)
            .map_err(|err| ReplayError::Illegal {
                ply,
                mv: st.mv,
                err,
            })?;
        if let Some(w) = st.worlds {
            for c in Color::ALL {
                let got = p.world(c).world;
                if got != w[c.index()] {
                    return Err(ReplayError::Mismatch {
                        ply,
                        what: format!("{c:?} world {got}, record {}", w[c.index()]),
                    });
                }
            }
        }
        each(ply, p, st.mv);
    }
    if p.result() != r.result {
        return Err(ReplayError::Mismatch {
            ply: r.steps.len(),
            what: format!(
                "result {}, record {}",
                result_text(p.result()),
                result_text(r.result)
            ),
        });
    }
    Ok(())
}
