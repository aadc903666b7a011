//! `quantum … --json`: converge, probabilities, observe, replay, play, perft.

use crate::quantum::certify::Certificate;
use crate::quantum::enumeration::Diagram;
use crate::quantum::{Contradiction, Converged, Kind, World, PIECES};
use serde::Serialize;
use std::collections::BTreeMap;

/// `quantum converge --json` (and the Python `quantum.converge`): the converged world,
/// or the conflicting pieces of a contradictory one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ConvergeOut {
    /// Whether some assignment of kinds respects every domain.
    pub consistent: bool,
    /// The 20 converged domains (kind letters); `null` when contradictory.
    pub world: Option<Vec<String>>,
    /// Kinds used up (使い切り), `-` when none; `null` when contradictory.
    pub used_up: Option<String>,
    /// A minimal set of pieces whose domains cannot all hold; `null` when consistent.
    pub conflict: Option<Vec<usize>>,
}

impl ConvergeOut {
    /// From an engine's answer.
    pub fn new(answer: &Result<Converged, Contradiction>) -> ConvergeOut {
        match answer {
            Ok(c) => ConvergeOut {
                consistent: true,
                world: Some(tokens(&c.world)),
                used_up: Some(c.used_up.to_string()),
                conflict: None,
            },
            Err(c) => ConvergeOut {
                consistent: false,
                world: None,
                used_up: None,
                conflict: Some(c.conflict.clone()),
            },
        }
    }
}

/// `quantum converge --certify --json`: the answer, its certificate, and the checker's verdict.
#[derive(Debug, Clone, Serialize)]
pub struct CertifiedOut {
    /// The engine's answer.
    #[serde(flatten)]
    pub answer: ConvergeOut,
    /// Witness assignments and Hall violators (`quantum::certify`).
    pub certificate: Certificate,
    /// The certificate passed the checker (always `true`: a failed check is exit 3).
    pub checked: bool,
}

/// `quantum probabilities --json`: every value keyed by kind letter.
#[derive(Debug, Clone, Serialize)]
pub struct ProbabilitiesOut {
    /// Number of worlds, a decimal string.
    pub worlds: String,
    /// Per piece: kind → exact probability (`"1/3"`), kinds of probability 0 left out.
    pub probabilities: Vec<BTreeMap<String, String>>,
    /// Per piece: kind → number of worlds giving the piece that kind (decimal strings, zeros left out).
    pub counts: Vec<BTreeMap<String, String>>,
}

impl ProbabilitiesOut {
    /// From a decision diagram.
    pub fn new(d: &Diagram) -> ProbabilitiesOut {
        let per_piece = |f: &dyn Fn(usize, Kind) -> String| -> Vec<BTreeMap<String, String>> {
            (0..PIECES)
                .map(|i| {
                    Kind::ALL
                        .iter()
                        .filter(|&&k| d.count(i, k) > 0)
                        .map(|&k| (k.letter().to_string(), f(i, k)))
                        .collect()
                })
                .collect()
        };
        ProbabilitiesOut {
            worlds: d.total().to_string(),
            probabilities: per_piece(&|i, k| {
                d.probability(i, k)
                    .map(|r| r.to_string())
                    .unwrap_or_default()
            }),
            counts: per_piece(&|i, k| d.count(i, k).to_string()),
        }
    }
}

/// `quantum observe --json`: the same seven keys whether or not the world is consistent
/// (`null` where absent).
#[derive(Debug, Clone, Serialize)]
pub struct ObserveOut {
    /// The observed piece.
    pub piece: usize,
    /// The kind it collapsed to; `null` when the world is contradictory.
    pub kind: Option<String>,
    /// Its probability before the observation; `null` when contradictory.
    pub probability: Option<String>,
    /// The converged domains after; `null` when contradictory.
    pub world: Option<Vec<String>>,
    /// Kinds used up after; `null` when contradictory.
    pub used_up: Option<String>,
    /// Whether some assignment of kinds respects every domain (before the observation).
    pub consistent: bool,
    /// A minimal set of conflicting pieces; `null` when consistent.
    pub conflict: Option<Vec<usize>>,
}

/// `quantum observe`'s answer, shared by the CLI and the Python binding.
#[derive(Debug, Clone)]
pub enum Observation {
    /// `piece` collapsed to `kind`, drawn with `probability` (its text, `"1/3"`), and the
    /// world converged after.
    Observed {
        /// The kind drawn.
        kind: Kind,
        /// Its exact probability before the observation.
        probability: String,
        /// The converged world after.
        after: Converged,
    },
    /// The world is contradictory: nothing to observe (the counting engine's contradiction,
    /// as `converge` gives it).
    Contradiction(Contradiction),
}

impl Observation {
    /// Observes `piece` (< [`PIECES`]) of `w` with a draw seeded by `seed` (ChaCha8).
    ///
    /// # Errors
    /// An internal inconsistency between the decision diagram and the counting engine.
    pub fn new(w: &World, piece: usize, seed: u64) -> Result<Observation, String> {
        use rand::SeedableRng;
        let d = Diagram::build(w);
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
        if let Some((kind, after)) = d.observe(piece, &mut rng) {
            let probability = d
                .probability(piece, kind)
                .map(|r| r.to_string())
                .unwrap_or_default();
            return Ok(Observation::Observed {
                kind,
                probability,
                after: Converged::new(w, after),
            });
        }
        crate::quantum::engine_by_name("counting")
            .ok_or("engine counting missing")?
            .converge(w)
            .err()
            .map(Observation::Contradiction)
            .ok_or_else(|| "the decision diagram has no world, but counting converges".to_string())
    }

    /// The object of `quantum observe --json`.
    pub fn out(&self, piece: usize) -> ObserveOut {
        match self {
            Observation::Observed {
                kind,
                probability,
                after,
            } => ObserveOut {
                piece,
                kind: Some(kind.letter().to_string()),
                probability: Some(probability.clone()),
                world: Some(tokens(&after.world)),
                used_up: Some(after.used_up.to_string()),
                consistent: true,
                conflict: None,
            },
            Observation::Contradiction(c) => ObserveOut {
                piece,
                kind: None,
                probability: None,
                world: None,
                used_up: None,
                consistent: false,
                conflict: Some(c.conflict.clone()),
            },
        }
    }
}

/// The 20 domains of a world as kind-letter tokens.
pub fn tokens(w: &World) -> Vec<String> {
    w.0.iter().map(|d| d.to_string()).collect()
}

/// Both sides' worlds after a ply.
#[derive(Debug, Clone, Serialize)]
pub struct Worlds {
    /// Sente's 20 original pieces.
    pub sente: Vec<String>,
    /// Gote's 20 original pieces.
    pub gote: Vec<String>,
}

/// Both sides' exact probabilities after a ply.
#[derive(Debug, Clone, Serialize)]
pub struct SideProbabilities {
    /// Sente's pieces.
    pub sente: ProbabilitiesOut,
    /// Gote's pieces.
    pub gote: ProbabilitiesOut,
}

/// One ply of `quantum replay --json`.
#[derive(Debug, Clone, Serialize)]
pub struct ReplayPly {
    /// Ply number from 1.
    pub ply: usize,
    /// The move in the game's notation.
    #[serde(rename = "move")]
    pub move_text: String,
    /// The move's coordinate form (`4g7d`, `h0*9f`: USI-like squares, hand slots by index).
    pub code: String,
    /// The converged domains of both sides after the move.
    pub worlds: Worlds,
    /// With `--probabilities`: exact probabilities; `null` without.
    pub probabilities: Option<SideProbabilities>,
}

/// The end of a quantum game (`quantum replay|play --json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct QuantumResult {
    /// `ongoing`, `sente_win`, `gote_win` or `draw`.
    pub result: &'static str,
    /// `king_capture`, `repetition` or `null`; for a shogitter record's stated ending
    /// ([`QuantumResult::recorded`]) also `resignation` (投了) and `draw` (引き分け), the
    /// words `convert --json` gives the same end words of a KIF or CSA record.
    pub reason: Option<&'static str>,
    /// Plies played.
    pub plies: usize,
}

impl QuantumResult {
    /// The result a shogitter record states at its end (checked against the game by
    /// `shogitter::check_end`), after `plies` plies.
    pub fn recorded(ending: crate::quantum::shogitter::Ending, plies: usize) -> QuantumResult {
        use crate::notation::record::EndWord;
        use crate::output::game::OutcomeJson;
        use crate::quantum::shogitter::Ending;
        use crate::rules::Color;
        let win = |winner: Color, reason| QuantumResult {
            result: match winner {
                Color::Sente => "sente_win",
                Color::Gote => "gote_win",
            },
            reason: Some(reason),
            plies,
        };
        // The end words of ordinary records name these two endings (one vocabulary).
        let stated = |word: EndWord, to_move: Color| {
            let o = OutcomeJson::from_end_word(word, to_move).expect("an outcome");
            QuantumResult {
                result: o.result,
                reason: o.reason,
                plies,
            }
        };
        match ending {
            Ending::KingCapture { winner } => win(winner, "king_capture"),
            Ending::Repetition => QuantumResult {
                result: "draw",
                reason: Some("repetition"),
                plies,
            },
            Ending::Resignation { winner } => stated(EndWord::Resign, !winner),
            Ending::Agreement => stated(EndWord::Draw, Color::Sente),
        }
    }
}

/// One game of `quantum play --json`.
#[derive(Debug, Clone, Serialize)]
pub struct PlayOut {
    /// The game's seed.
    pub seed: u64,
    /// How it ended.
    #[serde(flatten)]
    pub result: QuantumResult,
    /// The record in our text format (`quantum replay` reads it).
    pub record: String,
}

/// `quantum perft --json`.
#[derive(Debug, Clone, Serialize)]
pub struct QuantumPerftOut {
    /// Depth in plies.
    pub depth: u32,
    /// Legal move sequences.
    pub nodes: u64,
    /// Elapsed milliseconds.
    pub time_ms: u64,
    /// The convergence engine.
    pub engine: &'static str,
    /// `I/N` when only part I of N of the root moves was counted (the parts sum);
    /// `null` for the whole count.
    pub shard: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::record::EndWord;
    use crate::output::game::OutcomeJson;
    use crate::quantum::shogitter::Ending;
    use crate::rules::Color;

    #[test]
    fn a_recorded_ending_is_named_as_the_same_end_word_of_a_kif_record() {
        // Before: shogitter's 引き分け was `"reason":"agreement"` in `quantum replay --json`,
        // where `convert --json` names 引き分け (%HIKIWAKE) `draw`; one vocabulary.
        let draw = OutcomeJson::from_end_word(EndWord::Draw, Color::Sente).unwrap();
        let r = QuantumResult::recorded(Ending::Agreement, 60);
        assert_eq!(
            (r.result, r.reason, r.plies),
            (draw.result, draw.reason, 60)
        );
        assert_eq!(r.reason, Some("draw"));
        for winner in Color::ALL {
            // 投了 by the side to move (the loser).
            let kif = OutcomeJson::from_end_word(EndWord::Resign, !winner).unwrap();
            let r = QuantumResult::recorded(Ending::Resignation { winner }, 7);
            assert_eq!((r.result, r.reason), (kif.result, kif.reason));
            let r = QuantumResult::recorded(Ending::KingCapture { winner }, 7);
            assert_eq!(r.reason, Some("king_capture"));
            assert_eq!(r.result, kif.result);
        }
        let r = QuantumResult::recorded(Ending::Repetition, 13);
        assert_eq!((r.result, r.reason), ("draw", Some("repetition")));
    }
}
