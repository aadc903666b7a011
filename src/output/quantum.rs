//! `quantum … --json`: converge, probabilities, observe, replay, play, perft.

use crate::quantum::enumeration::Diagram;
use crate::quantum::{Kind, World, PIECES};
use serde::Serialize;
use std::collections::BTreeMap;

/// `quantum converge --json`, consistent world.
#[derive(Debug, Clone, Serialize)]
pub struct ConvergeOut {
    /// `true`.
    pub consistent: bool,
    /// The 20 converged domains (kind letters).
    pub world: Vec<String>,
    /// Kinds used up (使い切り), `-` when none.
    pub used_up: String,
}

/// `quantum converge --json`, contradictory world.
#[derive(Debug, Clone, Serialize)]
pub struct ConflictOut {
    /// `false`.
    pub consistent: bool,
    /// A minimal set of pieces whose domains cannot all hold.
    pub conflict: Vec<usize>,
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

/// `quantum observe --json`.
#[derive(Debug, Clone, Serialize)]
pub struct ObserveOut {
    /// The observed piece.
    pub piece: usize,
    /// The kind it collapsed to.
    pub kind: String,
    /// Its probability before the observation.
    pub probability: String,
    /// The converged domains after.
    pub world: Vec<String>,
    /// Kinds used up after.
    pub used_up: String,
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
}
