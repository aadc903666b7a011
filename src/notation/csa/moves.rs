//! The game part: moves `+7776FU`, times `T12`, end commands `%TORYO`.

use super::cerr;
use super::codes::{color_of, csa_square, kind_of};
use super::position::ensure_position;
use super::read::Game;
use crate::notation::record::{
    EndWord, Ending, MoveTime, RecordError, RecordErrorKind, RecordMove,
};
use crate::rules::{Move, Position};

/// A time `T12` (`T12.5` in V3.0, truncated to seconds), for the end command
/// if there is one, else for the last move.
pub(super) fn time(g: &mut Game, ln: usize, s: &str, t: &str) -> Result<(), RecordError> {
    let secs: f64 = t.parse().map_err(|_| cerr(ln, format!("bad time {s:?}")))?;
    if !(0.0..1e9).contains(&secs) {
        return Err(cerr(ln, format!("bad time {s:?}")));
    }
    if secs.fract() != 0.0 {
        g.truncated_times += 1;
    }
    let time = Some(MoveTime {
        this: secs as u32,
        total: None,
    });
    if let Some(e) = g.end.as_mut() {
        e.time = time;
    } else if let Some(m) = g.moves.last_mut() {
        m.time = time;
    } else {
        return Err(cerr(ln, "a time before any move"));
    }
    Ok(())
}

/// An end command `%TORYO`, …; `%+ILLEGAL_ACTION`/`%-ILLEGAL_ACTION` name the
/// side that fouled.
pub(super) fn end_command(g: &mut Game, ln: usize, s: &str, cmd: &str) -> Result<(), RecordError> {
    ensure_position(g, ln)?;
    let fouler = cmd.chars().next().and_then(color_of);
    let side = g.pos.as_ref().expect("ensured").side_to_move();
    let word = match cmd.trim_start_matches(['+', '-']) {
        "ILLEGAL_ACTION" if fouler == Some(side) => EndWord::IllegalAction,
        "TORYO" => EndWord::Resign,
        "CHUDAN" => EndWord::Interrupt,
        "SENNICHITE" => EndWord::Repetition,
        "JISHOGI" => EndWord::Impasse,
        "TSUMI" => EndWord::Mate,
        "FUZUMI" => EndWord::NoMate,
        "TIME_UP" => EndWord::TimeUp,
        "ILLEGAL_ACTION" => EndWord::IllegalWin,
        "ILLEGAL_MOVE" => EndWord::IllegalLoss,
        "KACHI" => EndWord::EnteringKing,
        "MATTA" => EndWord::Matta,
        "HIKIWAKE" => EndWord::Draw,
        "MAX_MOVES" => EndWord::MaxMoves,
        "ERROR" => EndWord::Error,
        _ => return Err(cerr(ln, format!("unknown end command {s:?}"))),
    };
    if g.end.is_some() {
        return Err(cerr(ln, format!("second end command {s:?}")));
    }
    g.end = Some(Ending { word, time: None });
    Ok(())
}

/// A move `+7776FU`: read, checked legal, and played.
pub(super) fn play_move(g: &mut Game, ln: usize, s: &str) -> Result<(), RecordError> {
    ensure_position(g, ln)?;
    let number = g.moves.len() as u32 + 1;
    if g.end.is_some() {
        return Err(RecordError {
            line: ln,
            kind: RecordErrorKind::MoveAfterEnd(s.into()),
        });
    }
    let pos = g.pos.as_mut().expect("ensured");
    let mv = resolve(pos, s).map_err(|why| cerr(ln, format!("move {number} {s:?}: {why}")))?;
    pos.play_unchecked(mv);
    g.moves.push(RecordMove::new(mv));
    Ok(())
}

/// The legal move of `pos` that `s` names, or why there is none.
fn resolve(pos: &Position, s: &str) -> Result<Move, &'static str> {
    if s.len() != 7 || !s.is_ascii() {
        return Err("not of the form +7776FU");
    }
    let c = color_of(s.as_bytes()[0] as char).expect("checked");
    if c != pos.side_to_move() {
        return Err("wrong side");
    }
    let from = csa_square(&s[1..3]).ok_or("bad origin")?;
    let to = csa_square(&s[3..5]).flatten().ok_or("bad destination")?;
    let k = kind_of(&s[5..7]).ok_or("bad piece")?;
    let mv = match from {
        None => Move::Drop { kind: k, to },
        Some(from) => {
            let on = pos.piece_at(from).ok_or("no piece on the origin")?;
            let promote = if on.kind == k {
                false
            } else if on.kind.promote() == Some(k) {
                true
            } else {
                return Err("the piece does not match the origin");
            };
            Move::Normal { from, to, promote }
        }
    };
    if !pos.is_legal(mv) {
        return Err("illegal");
    }
    Ok(mv)
}
