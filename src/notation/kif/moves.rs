//! Move lines: a KIF line `N move [( m:ss/h:mm:ss)] [+]`, a KI2 line of
//! marked moves, and a KI2 end word line; each move is parsed and resolved
//! against its line's position.

use super::err;
use super::lines::OpenLine;
use super::numbers::parse_time;
use crate::notation::japanese::{self, mark_color};
use crate::notation::record::{
    EndWord, Ending, MoveTime, RecordError, RecordErrorKind, RecordMove,
};

/// The kind of a move line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum MoveLine {
    /// Digits, whitespace, then a move or an end word.
    Kif,
    /// Starts with a color mark (`▲`, `△`, …).
    Ki2,
}

impl MoveLine {
    /// The kind of a trimmed line, if it is a move line.
    pub(super) fn of(t: &str) -> Option<MoveLine> {
        let first_char = t.chars().next().unwrap_or(' ');
        let is_kif_move = first_char.is_ascii_digit() && {
            let rest = t.trim_start_matches(|c: char| c.is_ascii_digit());
            rest.starts_with(char::is_whitespace)
        };
        if is_kif_move {
            Some(MoveLine::Kif)
        } else if mark_color(first_char).is_some() {
            Some(MoveLine::Ki2)
        } else {
            None
        }
    }

    /// Reads the trimmed line `t` (line `ln`) onto `l`.
    pub(super) fn read(self, l: &mut OpenLine, ln: usize, t: &str) -> Result<(), RecordError> {
        match self {
            MoveLine::Kif => read_kif_move_line(l, ln, t),
            MoveLine::Ki2 => read_ki2_line(l, ln, t),
        }
    }
}

/// Parses, resolves and plays move `number` of `l`.
fn play(
    l: &mut OpenLine,
    ln: usize,
    number: u32,
    text: &str,
    time: Option<MoveTime>,
) -> Result<(), RecordError> {
    if let Some(e) = &l.end {
        return Err(err(
            ln,
            RecordErrorKind::MoveAfterEnd(format!("{} then {text}", e.word.kif())),
        ));
    }
    let mv = japanese::parse_and_resolve(&l.pos, text, l.prev).map_err(|error| {
        err(
            ln,
            RecordErrorKind::Move {
                number,
                text: text.into(),
                error,
            },
        )
    })?;
    l.pos.play_unchecked(mv);
    l.prev = Some(mv.to());
    let mut rm = RecordMove::new(mv);
    rm.time = time;
    l.moves.push(rm);
    Ok(())
}

/// A KIF move line: a move or an end word, numbered in sequence.
fn read_kif_move_line(l: &mut OpenLine, ln: usize, t: &str) -> Result<(), RecordError> {
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let number: u32 = t[..digits]
        .parse()
        .map_err(|_| err(ln, RecordErrorKind::UnknownLine(t.into())))?;
    if let Some(e) = &l.end {
        return Err(err(
            ln,
            RecordErrorKind::MoveAfterEnd(format!("{} then move {number}", e.word.kif())),
        ));
    }
    let expected = l.next_number();
    if number != expected {
        return Err(err(
            ln,
            RecordErrorKind::MoveNumber {
                expected,
                found: number,
            },
        ));
    }
    let (token, time) = move_and_time(ln, t, &t[digits..])?;
    if let Some(w) = EndWord::from_kif(token) {
        if l.end.is_some() {
            return Err(err(ln, RecordErrorKind::MoveAfterEnd(token.into())));
        }
        l.end = Some(Ending { word: w, time });
        return Ok(());
    }
    play(l, ln, number, token, time)
}

/// The move token and the time after a KIF line's number (`t` is the whole
/// line, for errors).
fn move_and_time<'a>(
    ln: usize,
    t: &str,
    after_number: &'a str,
) -> Result<(&'a str, Option<MoveTime>), RecordError> {
    let mut rest = after_number.trim_start();
    // The move token: 同 may be followed by a full-width space that belongs to the move.
    let mut token_len = 0;
    if rest.starts_with('同') {
        token_len = '同'.len_utf8();
        let after = &rest[token_len..];
        let ws = after.len() - after.trim_start_matches(['　', ' ']).len();
        token_len += ws;
    }
    let body = &rest[token_len..];
    let end = body.find(char::is_whitespace).unwrap_or(body.len());
    let mut token = &rest[..token_len + end];
    // The branch mark `+` may follow the move directly.
    if let Some(t) = token.strip_suffix('+') {
        token = t;
    }
    rest = rest[token_len + end..].trim();
    let mut time = None;
    if let Some(r) = rest.strip_prefix('(') {
        let close = r
            .find(')')
            .ok_or_else(|| err(ln, RecordErrorKind::BadTime(rest.into())))?;
        time = Some(
            parse_time(&r[..close])
                .ok_or_else(|| err(ln, RecordErrorKind::BadTime(rest.into())))?,
        );
        rest = r[close + 1..].trim();
    }
    if !(rest.is_empty() || rest == "+") {
        return Err(err(ln, RecordErrorKind::UnknownLine(t.into())));
    }
    Ok((token, time))
}

/// A KI2 line: one or more marked moves, numbered after the line's last.
fn read_ki2_line(l: &mut OpenLine, ln: usize, t: &str) -> Result<(), RecordError> {
    let mut starts: Vec<usize> = t
        .char_indices()
        .filter(|(_, c)| mark_color(*c).is_some())
        .map(|(i, _)| i)
        .collect();
    starts.push(t.len());
    for w in starts.windows(2) {
        let chunk = t[w[0]..w[1]].trim();
        let number = l.next_number();
        play(l, ln, number, chunk, None)?;
    }
    Ok(())
}

/// After the moves have started, a line that is no move line: a KI2 end word
/// (`投了`), or an unrecognised line.
pub(super) fn read_end_word_line(l: &mut OpenLine, ln: usize, t: &str) -> Result<(), RecordError> {
    let Some(w) = EndWord::from_kif(t) else {
        return Err(err(ln, RecordErrorKind::UnknownLine(t.into())));
    };
    if l.end.is_some() {
        return Err(err(ln, RecordErrorKind::MoveAfterEnd(t.into())));
    }
    l.end = Some(Ending {
        word: w,
        time: None,
    });
    Ok(())
}
