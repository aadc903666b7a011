//! The independent checker (every placement the solver outputs is checked
//! square by square with the rules core's naive, square-walking attack
//! generator) and the brute-force counter used as the oracle on small boards.

use super::feasibility::Directions;
use super::search::{colors_for_kind, Problem, STRONGEST_FIRST};
use super::{Cell, Kind, PieceSet, Placement};
use crate::rules::{Bitboard, Color, Square};

/// Why a placement is not a solution of a problem.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CheckError {
    /// A piece stands on a square another piece attacks.
    #[error("{victim:?} on {square} is attacked by {attacker:?} on {from}")]
    Attacked {
        /// The attacked square.
        square: Square,
        /// The piece on it.
        victim: Cell,
        /// The attacking square.
        from: Square,
        /// The attacking piece.
        attacker: Cell,
    },
    /// The pieces on the board are not the problem's multiset.
    #[error("the board holds {found}, the problem asks for {wanted}")]
    WrongPieces {
        /// The board's pieces.
        found: PieceSet,
        /// The problem's pieces.
        wanted: PieceSet,
    },
    /// A piece outside the problem's board.
    #[error("piece on {0}, outside the board")]
    OutsideBoard(Square),
    /// A Gote piece in a one-directional problem.
    #[error("Gote piece on {0} in a one-directional problem")]
    GoteInOneDirection(Square),
}

/// Checks that `placement` solves `problem`: exactly its pieces, on its
/// board, all Sente in one direction, and no piece attacked by another.
///
/// # Errors
/// The first violation found, as a [`CheckError`].
pub fn check_placement(problem: &Problem, placement: &Placement) -> Result<(), CheckError> {
    let mut found = PieceSet::empty();
    let mut occ = Bitboard::EMPTY;
    for (sq, p) in placement.cells() {
        if sq.file() > problem.files || sq.rank() > problem.ranks {
            return Err(CheckError::OutsideBoard(sq));
        }
        if problem.dirs == Directions::One && p.color == Color::Gote {
            return Err(CheckError::GoteInOneDirection(sq));
        }
        found = found.with_count_kind(p.kind, found.count_kind(p.kind) + 1);
        occ = occ.with(sq);
    }
    if found != problem.set {
        return Err(CheckError::WrongPieces {
            found,
            wanted: problem.set,
        });
    }
    let cells: Vec<(Square, Cell)> = placement.cells().collect();
    for &(from, attacker) in &cells {
        if let Some(square) = (attacker.kind.attacks_naive(attacker.color, from, occ) & occ).first()
        {
            let victim = cells
                .iter()
                .find(|(s, _)| *s == square)
                .map(|&(_, c)| c)
                .expect("occupied");
            return Err(CheckError::Attacked {
                square,
                victim,
                from,
                attacker,
            });
        }
    }
    Ok(())
}

/// Counts placements by the plainest search there is: visit the board's
/// squares in order, leave each empty or put any remaining kind on it (both
/// colors in two directions, except the color-symmetric kinds, as in the
/// solver), and reject a piece as soon as it attacks or is attacked by a piece
/// already placed. No degradation, no ordering, no closed forms. Exponential:
/// for small boards and small sets.
pub fn brute_force_count(problem: &Problem) -> u64 {
    let squares: Vec<Square> = Square::all()
        .filter(|s| s.file() <= problem.files && s.rank() <= problem.ranks)
        .collect();
    let mut left: Vec<(Kind, u32)> = std::iter::once(Kind::Queen)
        .chain(STRONGEST_FIRST.iter().map(|&k| Kind::Shogi(k)))
        .map(|k| (k, problem.set.count_kind(k)))
        .filter(|&(_, n)| n > 0)
        .collect();
    let mut placed: Vec<(Square, Cell)> = Vec::new();
    fn go(
        dirs: Directions,
        squares: &[Square],
        i: usize,
        remaining: u32,
        left: &mut Vec<(Kind, u32)>,
        placed: &mut Vec<(Square, Cell)>,
    ) -> u64 {
        if remaining == 0 {
            return 1;
        }
        if squares.len() - i < remaining as usize {
            return 0;
        }
        let sq = squares[i];
        let mut total = go(dirs, squares, i + 1, remaining, left, placed);
        for j in 0..left.len() {
            if left[j].1 == 0 {
                continue;
            }
            let kind = left[j].0;
            for &color in colors_for_kind(dirs, kind) {
                let piece = Cell { color, kind };
                let occ = placed
                    .iter()
                    .fold(Bitboard::from_square(sq), |b, (s, _)| b.with(*s));
                let clash = placed.iter().any(|&(s, p)| {
                    p.kind.attacks_naive(p.color, s, occ).has(sq)
                        || kind.attacks_naive(color, sq, occ).has(s)
                });
                if clash {
                    continue;
                }
                left[j].1 -= 1;
                placed.push((sq, piece));
                total += go(dirs, squares, i + 1, remaining - 1, left, placed);
                placed.pop();
                left[j].1 += 1;
            }
        }
        total
    }
    go(
        problem.dirs,
        &squares,
        0,
        problem.set.total(),
        &mut left,
        &mut placed,
    )
}
