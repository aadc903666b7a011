//! Positions and game outcomes in JSON.

use crate::rules::{Color, Outcome};
use serde::Serialize;

/// `sente` or `gote`.
pub const fn color_name(c: Color) -> &'static str {
    match c {
        Color::Sente => "sente",
        Color::Gote => "gote",
    }
}

/// An [`Outcome`]: `{"result":"sente_win","winner":"sente","reason":"checkmate"}`;
/// `winner` and `reason` are `null` while the game goes on (and `winner` for a draw).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct OutcomeJson {
    /// `ongoing`, `sente_win`, `gote_win` or `draw`.
    pub result: &'static str,
    /// `sente`, `gote` or `null`.
    pub winner: Option<&'static str>,
    /// `checkmate`, `no_legal_moves`, `perpetual_check`, `declaration`,
    /// `illegal_declaration`, `repetition` or `null`.
    pub reason: Option<&'static str>,
}

impl From<Outcome> for OutcomeJson {
    fn from(o: Outcome) -> OutcomeJson {
        OutcomeJson {
            result: o.result(),
            winner: o.winner().map(color_name),
            reason: o.reason(),
        }
    }
}
