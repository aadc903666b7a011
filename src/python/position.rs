//! `shogi_lab.Position`: a game from a start position (so `outcome()` sees
//! 千日手 and 連続王手の千日手 through [`crate::rules::Game`]), or a tsume problem's:
//! one side without a king ([`crate::rules::Rules::game_or_tsume`]), as a record's
//! reader and `shogi-lab moves`/`perft` take it.

use super::{argument_message, input_error, Unsigned};
use crate::input_error::{InputError, Located, Location, Origin};
use crate::notation::sfen::{
    parse_game_or_tsume, read_usi_position, resolve_usi_move, write_sfen, SfenErrorKind,
    UsiPositionError,
};
use crate::rules::{perft_count, position_reach, Game, GameError, Move, PerftError, Violation};
use pyo3::prelude::*;
use std::ops::Range;

/// A position reached by legal moves from a start position.
#[pyclass(module = "shogi_lab._native")]
#[derive(Clone)]
pub struct Position {
    game: Game,
}

fn usi_strings(moves: impl IntoIterator<Item = Move>) -> Vec<String> {
    moves.into_iter().map(|m| m.to_string()).collect()
}

/// A move of a USI text that the game refuses (it comes after the game's end), placed
/// at the move's text as the parser places an illegal one.
struct GameMoveError {
    index: usize,
    span: Range<usize>,
    error: GameError,
}

impl Located for GameMoveError {
    fn message(&self) -> String {
        format!("move {}: {}", self.index + 1, self.error)
    }
    fn location(&self, text: &str) -> Location {
        Location::of_byte(text, self.span.start)
    }
}

/// Why `text` is not a position, as one line placed in `text` ([`argument_message`]). A
/// start without either king says what a `Position` needs: a game has both kings, a tsume
/// problem its defender's.
fn bad_position(text: &str, e: &UsiPositionError) -> PyErr {
    let mut message = argument_message("bad position", text, e);
    let kingless = match e {
        UsiPositionError::Sfen(s) => match &s.kind {
            SfenErrorKind::Illegal(p) => p
                .violations
                .iter()
                .any(|v| matches!(v, Violation::MissingKing { .. })),
            _ => false,
        },
        _ => false,
    };
    if kingless {
        message.push_str(
            " (a Position needs a king: a game has both, a tsume problem its defender's; \
             `shogi-lab moves` and `perft` also take a position without any)",
        );
    }
    input_error(message)
}

impl Position {
    fn from_game_moves(start: crate::rules::Position, moves: &[Move]) -> PyResult<Position> {
        let game = Game::from_moves(start, moves)
            .map_err(|(i, e)| input_error(format!("move {}: {e}", i + 1)))?;
        Ok(Position { game })
    }
}

#[pymethods]
impl Position {
    /// The standard starting position, or the position a text names as
    /// [`Position::from_usi`] reads it (`Position("startpos moves 7g7f")`,
    /// `Position("sfen …")`, a bare SFEN).
    #[new]
    #[pyo3(signature = (position = None))]
    fn py_new(position: Option<&str>) -> PyResult<Position> {
        match position {
            None => Ok(Position {
                game: Game::new(crate::rules::Position::startpos()),
            }),
            Some(text) => Position::from_usi(text),
        }
    }

    /// A position from a SFEN (`sfen`/`position` prefixes and `moves …` accepted): a game's
    /// (both kings) or a tsume problem's (one side without a king: the attacker, to move
    /// or not), the hands as given. A position without either king is refused.
    #[staticmethod]
    fn from_sfen(sfen: &str) -> PyResult<Position> {
        Position::from_usi(sfen)
    }

    /// A position from a USI line: `position startpos moves 7g7f …` or `position sfen … moves …`.
    /// A bad text raises `ShogiLabError` placed as the CLI places it
    /// (`bad position: 1:16: move 1: illegal move 1a1a`: line 1, character 16).
    #[staticmethod]
    fn from_usi(usi: &str) -> PyResult<Position> {
        let u = parse_game_or_tsume(usi).map_err(|e| bad_position(usi, &e))?;
        let mut start = u.position.clone();
        for _ in 0..u.moves.len() {
            start.undo();
        }
        let game = Game::from_moves(start, &u.moves).map_err(|(index, error)| {
            // The text parsed above, so its move spans are there.
            let span = read_usi_position(usi)
                .ok()
                .and_then(|t| t.moves.get(index).map(|m| m.1.clone()))
                .unwrap_or(0..0);
            let e = GameMoveError { index, span, error };
            input_error(argument_message("bad position", usi, &e))
        })?;
        Ok(Position { game })
    }

    /// The position after `ply` main-line moves of the first game in a KIF/KI2/CSA/USI file
    /// (`ply` negative or beyond the main line: `ShogiLabError` naming it).
    #[staticmethod]
    #[pyo3(signature = (path, ply=Unsigned::ZERO), text_signature = "(path, ply=0)")]
    fn from_record(path: std::path::PathBuf, ply: Unsigned) -> PyResult<Position> {
        let ply: usize = ply.get("ply")?;
        let rec = super::record::first_record(&path)?;
        let moves = rec.main_moves();
        if ply > moves.len() {
            // `PATH: message` as the CLI's `--ply` error ([`InputError`]), naming the
            // argument as Python spells it (`ply`, not `--ply`).
            let file = Origin::File(path.to_string_lossy().into_owned());
            return Err(input_error(InputError::new(
                file,
                format!("ply {ply} but the main line has {} moves", moves.len()),
            )));
        }
        Position::from_game_moves(rec.start.clone(), &moves[..ply])
    }

    /// The legal moves in USI notation.
    fn legal_moves(&self) -> Vec<String> {
        usi_strings(self.game.position().legal_moves().iter().copied())
    }

    /// Plays a legal USI move (raises `ShogiLabError` for an illegal one or a finished game).
    fn play(&mut self, usi: &str) -> PyResult<()> {
        let m = resolve_usi_move(self.game.position(), usi)
            .map_err(|e| input_error(format!("move {usi:?}: {e}")))?;
        self.game.play(m).map_err(input_error)
    }

    /// Number of legal move sequences of `depth` plies (0 to 1000; else `ShogiLabError`
    /// naming `depth`, a negative one too; a depth whose count would pass 2^64 − 1 is
    /// refused at once, as by the CLI). The count runs on a
    /// thread of its own with the GIL released and this position free for other threads;
    /// Ctrl-C stops it and raises `KeyboardInterrupt`.
    fn perft(slf: PyRef<'_, Self>, depth: Unsigned) -> PyResult<u64> {
        let depth: u32 = depth.get("depth")?;
        super::check_perft_depth(depth)?;
        let mut pos = slf.game.position().clone();
        // The CLI's check: a depth whose count would pass 2^64 − 1 is refused at once.
        position_reach(&pos, depth).map_err(|e| super::input_error(e.to_string()))?;
        // Not borrowed while counting: `play` from another thread would meet
        // "Already borrowed".
        let py = slf.py();
        drop(slf);
        match super::interruptible(py, move |c| {
            perft_count::<u64>(&mut pos, depth, &|| c.0.is_stopped())
        })? {
            Ok(n) => Ok(n),
            Err(PerftError::Stopped) => Err(super::interrupted()),
            Err(e) => Err(super::input_error(format!("perft depth {depth}: {e}"))),
        }
    }

    /// The current position as SFEN.
    fn sfen(&self) -> String {
        write_sfen(self.game.position())
    }

    /// The start position as SFEN.
    fn start_sfen(&self) -> String {
        write_sfen(self.game.start())
    }

    /// The moves played from the start, in USI.
    fn moves(&self) -> Vec<String> {
        usi_strings(self.game.moves())
    }

    /// `position sfen … moves …` (or `position startpos moves …`).
    fn usi(&self) -> String {
        crate::notation::sfen::write_usi_position(self.game.start(), &self.game.moves())
    }

    /// Whether the side to move is in check (never when it has no king).
    fn in_check(&self) -> bool {
        self.game.position().in_check()
    }

    /// `"b"` (Sente) or `"w"` (Gote) to move.
    fn side_to_move(&self) -> &'static str {
        match self.game.position().side_to_move() {
            crate::rules::Color::Sente => "b",
            crate::rules::Color::Gote => "w",
        }
    }

    /// `(result, reason)`: `("ongoing", None)`, `("sente_win" | "gote_win", "checkmate" |
    /// "no_legal_moves" | "perpetual_check")` or `("draw", "repetition")`. In a tsume
    /// position the side without a king is never in check, so never mated and never
    /// the victim of 連続王手の千日手; like any side it loses with no legal move.
    fn outcome(&self) -> (&'static str, Option<&'static str>) {
        let o = self.game.outcome();
        (o.result(), o.reason())
    }

    /// The board as SVG (Jupyter shows it), the last move highlighted.
    fn _repr_svg_(&self) -> String {
        crate::render::svg::board_svg(
            &self.game.position().to_setup(),
            self.game.moves().last().copied(),
        )
    }

    fn __repr__(&self) -> String {
        format!("Position.from_sfen({:?})", self.sfen())
    }

    fn __str__(&self) -> String {
        self.sfen()
    }

    fn __eq__(&self, other: &Position) -> bool {
        self.sfen() == other.sfen()
    }

    /// A copy: the same start and moves.
    fn copy(&self) -> Position {
        self.clone()
    }

    /// For `pickle`, `copy.copy` and `copy.deepcopy` (and so Ray and multiprocessing):
    /// the game as [`Position::usi`], start and moves, so the history 千日手 needs comes along.
    fn __getstate__(&self) -> String {
        self.usi()
    }

    /// The game from a [`Position::__getstate__`] text.
    fn __setstate__(&mut self, state: &str) -> PyResult<()> {
        *self = Position::from_usi(state)?;
        Ok(())
    }
}
