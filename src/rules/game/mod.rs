//! Game-end rules: a [`Game`] (start position + moves) and its [`Outcome`]:
//! 詰み, no legal move, 千日手 with 連続王手の千日手, and 入玉宣言.
//!
//! Sources (the rules as implemented are written out in `specs/game.md`):
//! - 千日手: 日本将棋連盟 対局規定 第8条 — the same position (board, both
//!   hands, side to move) appearing four times ends the game without result;
//!   if during the sequence from its first to its fourth appearance every move
//!   of one side was a check (連続王手の千日手), that side loses.
//! - No legal move: the side to move loses, checkmated or not (堀口弘「将棋の
//!   公式ルール」, Shogi Sekai supplement, Jan. 1993, as summarised on fa.shogi).
//! - 入玉宣言: [`declaration`] (CSA protocol 1.2.1, the 27-point rule).
//!
//! ```
//! use shogi_lab::notation::sfen::resolve_usi_move;
//! use shogi_lab::rules::{Color, Game, Outcome, Position, WinReason};
//!
//! // ▲1二金打 mates.
//! let start = shogi_lab::notation::sfen::parse_position(
//!     "8k/9/8P/9/9/9/9/9/K8 b G 1", shogi_lab::rules::Rules::STANDARD).unwrap();
//! let mut game = Game::new(start);
//! let m = resolve_usi_move(game.position(), "G*1b").unwrap();
//! game.play(m).unwrap();
//! assert_eq!(game.outcome(), Outcome::Win { winner: Color::Sente, reason: WinReason::Checkmate });
//! ```

mod declaration;
mod repetition;

pub use declaration::{declaration, Declaration, DECLARATION_POINTS};
pub use repetition::{repetition_naive, Repetition};

use super::moves::Move;
use super::position::Position;
use super::types::Color;
use repetition::History;
use std::fmt;
use thiserror::Error;

/// Why a game was won.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum WinReason {
    /// 詰み: the loser is to move, in check, with no legal move.
    Checkmate,
    /// The loser is to move with no legal move while not in check (no stalemate in shogi).
    NoLegalMoves,
    /// 連続王手の千日手: the loser gave check with every move of the fourfold repetition.
    PerpetualCheck,
    /// 入玉宣言: the winner declared and met every condition.
    Declaration,
    /// The loser declared (入玉宣言) without meeting the conditions.
    IllegalDeclaration,
}

impl WinReason {
    /// The name used in JSON and text output (`checkmate`, `no_legal_moves`, `perpetual_check`,
    /// `declaration`, `illegal_declaration`).
    pub const fn name(self) -> &'static str {
        match self {
            WinReason::Checkmate => "checkmate",
            WinReason::NoLegalMoves => "no_legal_moves",
            WinReason::PerpetualCheck => "perpetual_check",
            WinReason::Declaration => "declaration",
            WinReason::IllegalDeclaration => "illegal_declaration",
        }
    }
}

/// Why a game ended without a winner.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum DrawReason {
    /// 千日手: the same position for the fourth time, not by perpetual check.
    Repetition,
}

impl DrawReason {
    /// The name used in JSON and text output (`repetition`).
    pub const fn name(self) -> &'static str {
        match self {
            DrawReason::Repetition => "repetition",
        }
    }
}

/// The state of a game: still going, won, or drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The side to move has a legal move and no rule ended the game.
    Ongoing,
    /// One side won.
    Win {
        /// The winner.
        winner: Color,
        /// Why.
        reason: WinReason,
    },
    /// No result (千日手).
    Draw {
        /// Why.
        reason: DrawReason,
    },
}

impl Outcome {
    /// Whether the game is over.
    pub const fn is_over(self) -> bool {
        !matches!(self, Outcome::Ongoing)
    }
    /// The winner, if any.
    pub const fn winner(self) -> Option<Color> {
        match self {
            Outcome::Win { winner, .. } => Some(winner),
            _ => None,
        }
    }
    /// The reason's name, `None` while the game goes on.
    pub const fn reason(self) -> Option<&'static str> {
        match self {
            Outcome::Ongoing => None,
            Outcome::Win { reason, .. } => Some(reason.name()),
            Outcome::Draw { reason } => Some(reason.name()),
        }
    }
    /// `ongoing`, `sente_win`, `gote_win` or `draw`.
    pub const fn result(self) -> &'static str {
        match self {
            Outcome::Ongoing => "ongoing",
            Outcome::Win {
                winner: Color::Sente,
                ..
            } => "sente_win",
            Outcome::Win {
                winner: Color::Gote,
                ..
            } => "gote_win",
            Outcome::Draw { .. } => "draw",
        }
    }
}

impl fmt::Display for Outcome {
    /// `ongoing`, `sente_win checkmate`, `draw repetition`, …
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.reason() {
            Some(r) => write!(f, "{} {r}", self.result()),
            None => f.write_str(self.result()),
        }
    }
}

impl Position {
    /// The outcome decided by this position alone: [`WinReason::Checkmate`] or
    /// [`WinReason::NoLegalMoves`] for the side not to move, else [`Outcome::Ongoing`].
    /// Repetition needs the moves that led here: see [`Game::outcome`].
    pub fn outcome(&self) -> Outcome {
        if !self.legal_moves().is_empty() {
            return Outcome::Ongoing;
        }
        let reason = if self.in_check() {
            WinReason::Checkmate
        } else {
            WinReason::NoLegalMoves
        };
        Outcome::Win {
            winner: !self.side_to_move(),
            reason,
        }
    }

    /// The 入玉宣言 conditions for the side to move (CSA 27-point rule): see [`declaration`].
    pub fn declaration(&self) -> Declaration {
        declaration(self)
    }
}

/// Why a [`Game`] refused a move or a declaration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum GameError {
    /// The move is not legal in the current position.
    #[error("illegal move {0} in this position")]
    Illegal(Move),
    /// The game has already ended.
    #[error("the game is over ({0})")]
    Over(Outcome),
}

/// A game: a start position and the moves played from it, with the game-end rules.
#[derive(Clone, Debug)]
pub struct Game {
    start: Position,
    position: Position,
    history: History,
    declared: Option<(Color, Declaration)>,
    outcome: Outcome,
}

impl Game {
    /// A game starting at `start` (its own history of moves, if any, is not part of the game).
    pub fn new(start: Position) -> Game {
        let start = Position::from_setup(start.to_setup(), start.rules())
            .expect("a position's own setup is legal");
        let mut history = History::default();
        history.push(&start);
        let outcome = start.outcome();
        Game {
            position: start.clone(),
            start,
            history,
            declared: None,
            outcome,
        }
    }

    /// The game after playing `moves` from `start`.
    ///
    /// # Errors
    /// The first move that is illegal, or comes after the end of the game, with its index.
    pub fn from_moves(start: Position, moves: &[Move]) -> Result<Game, (usize, GameError)> {
        let mut g = Game::new(start);
        for (i, &m) in moves.iter().enumerate() {
            g.play(m).map_err(|e| (i, e))?;
        }
        Ok(g)
    }

    /// The start position.
    pub fn start(&self) -> &Position {
        &self.start
    }
    /// The current position.
    pub fn position(&self) -> &Position {
        &self.position
    }
    /// The moves played.
    pub fn moves(&self) -> Vec<Move> {
        self.position.moves_played().collect()
    }

    /// Plays a legal move.
    ///
    /// # Errors
    /// [`GameError::Over`] once the game has ended, [`GameError::Illegal`] for an illegal move;
    /// the game is unchanged either way.
    pub fn play(&mut self, m: Move) -> Result<(), GameError> {
        if self.outcome.is_over() {
            return Err(GameError::Over(self.outcome));
        }
        self.position.play(m).map_err(|_| GameError::Illegal(m))?;
        self.history.push(&self.position);
        self.outcome = match self.history.repetition() {
            Some(r) => r.outcome(),
            None => self.position.outcome(),
        };
        Ok(())
    }

    /// The side to move declares 入玉宣言 (USI `bestmove win`, CSA `%KACHI`): it wins if
    /// [`declaration`] holds, and loses otherwise. Returns the outcome.
    ///
    /// # Errors
    /// [`GameError::Over`] once the game has ended.
    pub fn declare(&mut self) -> Result<Outcome, GameError> {
        if self.outcome.is_over() {
            return Err(GameError::Over(self.outcome));
        }
        let us = self.position.side_to_move();
        let d = declaration(&self.position);
        self.outcome = if d.wins() {
            Outcome::Win {
                winner: us,
                reason: WinReason::Declaration,
            }
        } else {
            Outcome::Win {
                winner: !us,
                reason: WinReason::IllegalDeclaration,
            }
        };
        self.declared = Some((us, d));
        Ok(self.outcome)
    }

    /// The declaration made, if any: who declared and the conditions as they stood.
    pub fn declared(&self) -> Option<(Color, Declaration)> {
        self.declared
    }

    /// The fourfold repetition that ended the game, if one did.
    pub fn repetition(&self) -> Option<Repetition> {
        self.history.repetition()
    }

    /// The game's outcome after the moves played (and a declaration, if any).
    pub fn outcome(&self) -> Outcome {
        self.outcome
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::sfen::{parse_position, resolve_usi_move};
    use crate::rules::Rules;

    fn game(sfen: &str, moves: &str) -> Game {
        let mut g = Game::new(parse_position(sfen, Rules::STANDARD).unwrap());
        for u in moves.split_whitespace() {
            let m = resolve_usi_move(g.position(), u).unwrap();
            g.play(m).unwrap();
        }
        g
    }

    #[test]
    fn a_move_after_the_end_is_refused() {
        let mut g = game("8k/9/8P/9/9/9/9/9/K8 b G 1", "G*1b");
        assert!(matches!(
            g.play(
                resolve_usi_move(g.position(), "1a1b").unwrap_or(Move::Drop {
                    kind: crate::rules::PieceKind::Pawn,
                    to: crate::rules::SQ_5E
                })
            ),
            Err(GameError::Over(_))
        ));
        assert!(matches!(g.declare(), Err(GameError::Over(_))));
    }

    #[test]
    fn startpos_is_ongoing() {
        let g = game(
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "",
        );
        assert_eq!(g.outcome(), Outcome::Ongoing);
        assert_eq!(g.outcome().to_string(), "ongoing");
    }
}
