//! 千日手 (fourfold repetition) and 連続王手の千日手 (perpetual check).
//!
//! 日本将棋連盟 対局規定 第8条: the game ends when the same position — board,
//! both hands and side to move — appears for the fourth time; if in the sequence
//! from its first to its fourth appearance all the moves of one side were checks,
//! that side loses (連続王手の千日手), otherwise there is no result. Should both
//! sides have checked with every move (possible in theory: a check that answers a
//! check), no side is singled out and the game is drawn.
//!
//! The fast path keys positions by [`Position::key`] and confirms a key match by
//! comparing the whole position; [`repetition_naive`] replays the game and
//! compares every pair of positions.

use super::{DrawReason, Outcome, WinReason};
use crate::rules::{ByColor, Color, Hand, Move, Piece, Position};

/// A fourfold repetition: where it started and ended, and who checked throughout.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Repetition {
    /// The ply (moves played) at the position's first appearance.
    pub first_ply: usize,
    /// The ply of its fourth appearance (the end of the game).
    pub fourth_ply: usize,
    /// For each side, whether every one of its moves in between gave check.
    pub checked_throughout: ByColor<bool>,
}

impl Repetition {
    /// 連続王手の千日手 is a loss for the side that gave every check; otherwise a draw.
    pub fn outcome(self) -> Outcome {
        match (self.checked_throughout.sente, self.checked_throughout.gote) {
            (true, false) => Outcome::Win {
                winner: Color::Gote,
                reason: WinReason::PerpetualCheck,
            },
            (false, true) => Outcome::Win {
                winner: Color::Sente,
                reason: WinReason::PerpetualCheck,
            },
            _ => Outcome::Draw {
                reason: DrawReason::Repetition,
            },
        }
    }
}

/// One position of a game as the repetition rule sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Snapshot {
    board: [Option<Piece>; 81],
    hands: ByColor<Hand>,
    side: Color,
}

impl Snapshot {
    fn of(pos: &Position) -> Snapshot {
        let s = pos.to_setup();
        Snapshot {
            board: s.board,
            hands: s.hands,
            side: s.side_to_move,
        }
    }
}

/// The positions of a game so far (ply 0 = the start).
#[derive(Debug, Clone, Default)]
pub(super) struct History {
    keys: Vec<u64>,
    snapshots: Vec<Snapshot>,
    /// Whether the side to move was in check at each ply (the previous move gave check).
    in_check: Vec<bool>,
    sides: Vec<Color>,
}

impl History {
    pub(super) fn push(&mut self, pos: &Position) {
        self.keys.push(pos.key());
        self.snapshots.push(Snapshot::of(pos));
        self.in_check.push(pos.in_check());
        self.sides.push(pos.side_to_move());
    }

    /// The fourfold repetition ending at the last position, if there is one.
    pub(super) fn repetition(&self) -> Option<Repetition> {
        let n = self.keys.len() - 1;
        let key = self.keys[n];
        let mut seen = 1;
        let mut first = n;
        // Same side to move only at even distance.
        let mut i = n;
        while i >= 2 {
            i -= 2;
            if self.keys[i] == key && self.snapshots[i] == self.snapshots[n] {
                seen += 1;
                first = i;
            }
        }
        (seen >= 4).then(|| self.describe(first, n))
    }

    fn describe(&self, first: usize, fourth: usize) -> Repetition {
        let mut checked = ByColor {
            sente: true,
            gote: true,
        };
        // Ply k's position follows the move of the side not to move at k.
        for k in first + 1..=fourth {
            let mover = !self.sides[k];
            if !self.in_check[k] {
                checked[mover] = false;
            }
        }
        Repetition {
            first_ply: first,
            fourth_ply: fourth,
            checked_throughout: checked,
        }
    }
}

/// The naive twin of the repetition rule: replays `moves` from `start` and returns the
/// first ply at which some position (compared whole, with `==`) appears for the fourth
/// time, with its [`Repetition`].
///
/// # Panics
/// If a move is illegal.
pub fn repetition_naive(start: &Position, moves: &[Move]) -> Option<Repetition> {
    let mut pos = Position::from_setup(start.to_setup(), start.rules()).expect("legal");
    let mut seen: Vec<Position> = vec![pos.clone()];
    for &m in moves {
        pos.play(m).expect("repetition_naive: legal moves");
        seen.push(pos.clone());
        let n = seen.len() - 1;
        let same: Vec<usize> = (0..=n).filter(|&i| seen[i] == seen[n]).collect();
        if same.len() >= 4 {
            let first = same[0];
            let mut checked = ByColor {
                sente: true,
                gote: true,
            };
            for p in &seen[first + 1..=n] {
                if !p.in_check() {
                    checked[!p.side_to_move()] = false;
                }
            }
            return Some(Repetition {
                first_ply: first,
                fourth_ply: n,
                checked_throughout: checked,
            });
        }
    }
    None
}
