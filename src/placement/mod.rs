//! 利かずの駒並べ: place a multiset of shogi pieces on the empty board so that
//! no piece stands on a square attacked by another piece (either color;
//! sliders are blocked by pieces; 二歩 and pieces that can never move are
//! allowed). Algorithm: seed `003_88f5bd36583eaf31.txt` (komori-n,
//! 「利かずの駒並べ｜理論編」): strongest-first search with 劣化駒 pruning by an
//! exact pawn/stone test. Conventions are in `specs/placement.md`.
//!
//! ```
//! use shogi_lab::placement::{check_placement, Directions, First, PieceSet, Problem};
//!
//! let set = PieceSet::parse("R2B2").unwrap();
//! let p = Problem::new(set, Directions::One);
//! assert_eq!(p.count().count, 1_331_924);
//! let (First::Found(board), _) = p.first(None) else { panic!() };
//! assert!(check_placement(&p, &board).is_ok());
//! ```

pub mod check;
pub mod feasibility;
pub mod pieces;
pub mod search;
pub mod sweep;

pub use check::{brute_force_count, check_placement, CheckError};
pub use feasibility::Directions;
pub use pieces::{Cell, Kind, PieceSet, PieceSetError};
pub use search::{default_memo_bytes, Count, First, Problem, MEMO_MAX_BYTES, STOP_POLL};
pub use sweep::{
    sweep_count, sweep_count_shard, sweep_count_shard_until, sweep_count_with_progress, SweepCount,
    SweepError,
};

use crate::rules::{Bitboard, ByColor, Color, Hand, Piece, Setup, Square};

/// A board of placed pieces (no hands).
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Placement {
    /// The shogi piece on each square, by [`Square::index`].
    pub board: [Option<Piece>; 81],
    /// Squares holding a chess queen (N-queens oracle only; empty for shogi sets).
    pub queens: Bitboard,
}

impl Placement {
    /// A board holding the listed pieces.
    pub fn from_pieces(pieces: &[(Square, Piece)]) -> Placement {
        let mut board = [None; 81];
        for &(s, p) in pieces {
            board[s.index()] = Some(p);
        }
        Placement {
            board,
            queens: Bitboard::EMPTY,
        }
    }

    /// A board holding the listed cells (shogi pieces and queens).
    pub fn from_cells(cells: &[(Square, Cell)]) -> Placement {
        let mut b = Placement::from_pieces(&[]);
        for &(s, c) in cells {
            match c.kind {
                Kind::Shogi(k) => b.board[s.index()] = Some(Piece::new(c.color, k)),
                Kind::Queen => b.queens = b.queens.with(s),
            }
        }
        b
    }

    /// The shogi pieces with their squares, in square order.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        Square::all().filter_map(|s| self.board[s.index()].map(|p| (s, p)))
    }

    /// Every placed piece, queens included, in square order.
    pub fn cells(&self) -> impl Iterator<Item = (Square, Cell)> + '_ {
        Square::all().filter_map(|s| match self.board[s.index()] {
            Some(p) => Some((
                s,
                Cell {
                    color: p.color,
                    kind: Kind::Shogi(p.kind),
                },
            )),
            None if self.queens.has(s) => Some((
                s,
                Cell {
                    color: Color::Sente,
                    kind: Kind::Queen,
                },
            )),
            None => None,
        })
    }

    /// The left-right mirror image (file f → 10 − f).
    pub fn mirror(&self) -> Placement {
        let cells: Vec<(Square, Cell)> = self.cells().map(|(s, c)| (s.mirror(), c)).collect();
        Placement::from_cells(&cells)
    }

    /// As a [`Setup`] with empty hands, Sente to move.
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            hands: ByColor {
                sente: Hand::EMPTY,
                gote: Hand::EMPTY,
            },
            side_to_move: Color::Sente,
            move_number: 1,
        }
    }

    /// SFEN (board, `b`, `-`, `1`). Such boards are usually not legal
    /// positions (two kings of one side, 二歩), so they are written as setups.
    /// Queens (not shogi) are written `Q`, which no SFEN reader accepts.
    pub fn sfen(&self) -> String {
        if self.queens.is_empty() {
            return crate::notation::sfen::write_setup(&self.to_setup());
        }
        let mut s = String::new();
        for rank in 1..=9u8 {
            let mut gap = 0;
            for file in (1..=9u8).rev() {
                let sq = Square::new(file, rank).expect("in range");
                let text = match self.board[sq.index()] {
                    Some(p) => {
                        let letter = if p.color == Color::Sente {
                            p.kind.letter().to_ascii_uppercase()
                        } else {
                            p.kind.letter().to_ascii_lowercase()
                        };
                        format!("{}{letter}", if p.kind.is_promoted() { "+" } else { "" })
                    }
                    None if self.queens.has(sq) => "Q".into(),
                    None => {
                        gap += 1;
                        continue;
                    }
                };
                if gap > 0 {
                    s.push_str(&gap.to_string());
                    gap = 0;
                }
                s.push_str(&text);
            }
            if gap > 0 {
                s.push_str(&gap.to_string());
            }
            if rank < 9 {
                s.push('/');
            }
        }
        s + " b - 1"
    }

    /// A BOD-style diagram (the grid of [`crate::notation::bod::write_grid`]): `v` marks
    /// Gote pieces, `・` empty squares, `Ｑ` queens.
    pub fn diagram(&self) -> String {
        use crate::notation::bod::{bod_cell, write_grid};
        write_grid(|sq| match self.board[sq.index()] {
            None if self.queens.has(sq) => [' ', 'Ｑ'],
            p => bod_cell(p),
        })
    }
}

impl std::fmt::Debug for Placement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Placement({})", self.sfen())
    }
}
