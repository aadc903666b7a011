//! The independent certificate check of a mate line: the rules core's naive
//! move generator (play every pseudo-move and test) replays the line, every
//! attacker move must give check, every defender move must be legal, and the
//! final position must be mate: no legal reply, or only 無駄合 replies (decided
//! by [`super::naive::mated`], `specs/tsume.md`). It shares no code with the
//! solver's move selection.

use crate::rules::{Move, Position};

/// Why a line is not a mate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LineError {
    /// The line is empty or has an even number of plies.
    #[error("a mate line has an odd number of plies, this one has {0}")]
    Length(usize),
    /// A move is not legal (ply counted from 1).
    #[error("ply {ply}: {mv} is not legal")]
    Illegal {
        /// Ply number.
        ply: usize,
        /// The move.
        mv: Move,
    },
    /// An attacker move does not give check.
    #[error("ply {ply}: {mv} does not give check")]
    NotCheck {
        /// Ply number.
        ply: usize,
        /// The move.
        mv: Move,
    },
    /// The final position is not mate.
    #[error("the final position is not mate")]
    NotMate,
}

/// Replays `line` from `root` (the attacker to move) and checks that it is a mate line.
///
/// # Errors
/// [`LineError`] naming the first bad ply.
pub fn verify_mate_line(root: &Position, line: &[Move]) -> Result<(), LineError> {
    if line.len() % 2 == 0 {
        return Err(LineError::Length(line.len()));
    }
    let mut pos = root.clone();
    for (i, &mv) in line.iter().enumerate() {
        if !pos.legal_moves_naive().contains(&mv) {
            return Err(LineError::Illegal { ply: i + 1, mv });
        }
        pos.play_unchecked(mv);
        if i % 2 == 0 && !pos.in_check() {
            return Err(LineError::NotCheck { ply: i + 1, mv });
        }
    }
    if pos.in_check() && (pos.legal_moves_naive().is_empty() || super::naive::mated(&pos)) {
        Ok(())
    } else {
        Err(LineError::NotMate)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::sfen::resolve_usi_move;
    use crate::tsume::{load_problem, DefenderHand};

    fn line(pos: &Position, usi: &str) -> Vec<Move> {
        let mut p = pos.clone();
        usi.split_whitespace()
            .map(|t| {
                let m = resolve_usi_move(&p, t).unwrap();
                p.play_unchecked(m);
                m
            })
            .collect()
    }

    #[test]
    fn accepts_mates_and_rejects_the_rest() {
        let p = load_problem("8k/9/8P/9/9/9/9/9/9 b G 1", DefenderHand::Remaining).unwrap();
        assert_eq!(verify_mate_line(&p, &line(&p, "G*1b")), Ok(()));
        assert!(matches!(
            verify_mate_line(&p, &line(&p, "G*2b")),
            Err(LineError::NotMate)
        ));
        assert!(matches!(
            verify_mate_line(&p, &line(&p, "G*3a")),
            Err(LineError::NotCheck { ply: 1, .. })
        ));
        assert!(matches!(
            verify_mate_line(&p, &[]),
            Err(LineError::Length(0))
        ));
    }
}
