//! Moves (指し手) and move lists.

use super::types::{PieceKind, Square};
use std::fmt;

/// A move: a board move with an optional promotion, or a drop (打).
///
/// The USI form is its `Display`: `7g7f`, `8h2b+`, `P*5e`.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub enum Move {
    /// A piece moves on the board.
    Normal {
        /// Origin square.
        from: Square,
        /// Destination square.
        to: Square,
        /// Whether the piece promotes (成).
        promote: bool,
    },
    /// A piece from hand is dropped on an empty square.
    Drop {
        /// The hand kind dropped.
        kind: PieceKind,
        /// Destination square.
        to: Square,
    },
}

impl Move {
    /// The destination square.
    #[inline]
    pub const fn to(self) -> Square {
        match self {
            Move::Normal { to, .. } | Move::Drop { to, .. } => to,
        }
    }
    /// The origin square of a board move.
    #[inline]
    pub const fn from(self) -> Option<Square> {
        match self {
            Move::Normal { from, .. } => Some(from),
            Move::Drop { .. } => None,
        }
    }
    /// Whether this is a drop.
    #[inline]
    pub const fn is_drop(self) -> bool {
        matches!(self, Move::Drop { .. })
    }
    /// Whether this move promotes.
    #[inline]
    pub const fn is_promotion(self) -> bool {
        matches!(self, Move::Normal { promote: true, .. })
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Move::Normal { from, to, promote } => write!(f, "{from}{to}{}", if promote { "+" } else { "" }),
            Move::Drop { kind, to } => write!(f, "{}*{to}", kind.letter()),
        }
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The most legal moves any shogi position has is 593; this leaves room.
pub const MAX_MOVES: usize = 600;

/// A fixed-capacity list of moves (no allocation).
pub type MoveList = arrayvec::ArrayVec<Move, MAX_MOVES>;

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn moves_are_small() {
        assert!(std::mem::size_of::<Move>() <= 4);
        assert!(std::mem::size_of::<Option<Move>>() <= 4);
    }
}
