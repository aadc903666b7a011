//! `shogi-lab show --json`.

use super::quantum::Worlds;
use serde::Serialize;

/// A position shown: `{"sfen":…, "bod":…, "last_move":"7g7f"|null, "svg":"file"|null,
/// "worlds":null}`; for a quantum shogi position `sfen` is `null` and `worlds` holds
/// both sides' converged domains.
#[derive(Debug, Clone, Serialize)]
pub struct Shown {
    /// The position; `null` for a quantum position (it has no SFEN).
    pub sfen: Option<String>,
    /// The BOD diagram (`Display` of the position's `render::Picture`).
    pub bod: String,
    /// The move that led here (USI; a quantum move in its coordinate form, `h0*9f` for a
    /// drop), `null` at a start position.
    pub last_move: Option<String>,
    /// The SVG file written, `null` without `--svg`.
    pub svg: Option<String>,
    /// Quantum shogi: the converged domains of both sides (slot order); `null` otherwise.
    pub worlds: Option<Worlds>,
}
