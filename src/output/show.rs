//! `shogi-lab show --json`.

use serde::Serialize;

/// A position shown: `{"sfen":…, "bod":…, "last_move":"7g7f"|null, "svg":"file"|null}`.
#[derive(Debug, Clone, Serialize)]
pub struct Shown {
    /// The position.
    pub sfen: String,
    /// The BOD diagram (as `Display for Position` writes it).
    pub bod: String,
    /// The move that led here (USI), `null` at a start position.
    pub last_move: Option<String>,
    /// The SVG file written, `null` without `--svg`.
    pub svg: Option<String>,
}
