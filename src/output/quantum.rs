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
#[derive(Debug, Clone, Serialize)]
pub struct QuantumResult {
    /// `ongoing`, `sente_win`, `gote_win` or `draw`.
    pub result: &'static str,
    /// `king_capture`, `repetition` or `null`.
    pub reason: Option<&'static str>,
    /// Plies played.
    pub plies: usize,
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
