//! SFEN and the USI `position` command, read and written.
//!
//! Accepted SFEN: `<board> <b|w> <hand|-> [<move number>]`, fields separated
//! by ASCII whitespace; the board is nine ranks from rank 1 (top) separated
//! by `/`, each rank from file 9 to file 1, digits for empty runs, `+` before
//! a promotable piece; hands list each kind at most once with an optional
//! count (`2P`, `18p`). Also accepted where a position is expected:
//! `startpos`, `sfen <SFEN>`, and `position <startpos|sfen …> [moves …]`.
//! Errors carry the byte span of the offending text and, in a move list, the
//! index of the bad move.

use crate::rules::{
    Color, Hand, Move, Piece, PieceKind, Position, PositionError, Rules, Setup, Square,
};
use std::ops::Range;
use thiserror::Error;

/// The SFEN of the starting position.
pub const STARTPOS: &str = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

/// What is wrong with a SFEN or USI text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SfenErrorKind {
    /// Nothing to parse.
    #[error("empty SFEN")]
    Empty,
    /// A character that is not a piece, digit, `+` or `/` in the board.
    #[error("unexpected character {0:?} in the board")]
    BadBoardChar(char),
    /// A rank with more than nine squares.
    #[error("rank {0} has more than 9 squares")]
    RankTooLong(u8),
    /// A rank with fewer than nine squares.
    #[error("rank {0} has fewer than 9 squares")]
    RankTooShort(u8),
    /// Not nine ranks.
    #[error("the board has {0} rank{s}, expected 9", s = if *.0 == 1 { "" } else { "s" })]
    WrongRankCount(usize),
    /// `+` before a piece that does not promote, or at the end.
    #[error("'+' must precede a promotable piece")]
    BadPromotion,
    /// The side field is not `b` or `w`.
    #[error("side to move must be 'b' or 'w'")]
    BadSide,
    /// Missing side or hand field.
    #[error("missing field: {0}")]
    MissingField(&'static str),
    /// A bad hand character.
    #[error("unexpected character {0:?} in the hand")]
    BadHandChar(char),
    /// A hand count that is zero, too large, or not followed by a piece.
    #[error("bad count in the hand")]
    BadHandCount,
    /// A kind listed twice in one side's hand.
    #[error("{0} listed twice in the hand")]
    DuplicateHandKind(char),
    /// The king in a hand.
    #[error("a king cannot be in hand")]
    KingInHand,
    /// The move number is not a positive integer.
    #[error("bad move number")]
    BadMoveNumber,
    /// Text after the last field.
    #[error("unexpected text after the SFEN")]
    TrailingText,
    /// The text parses but is not a legal position.
    #[error("{0}")]
    Illegal(PositionError),
}

/// A SFEN error with the byte span of the offending text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("{kind} (at bytes {}..{})", span.start, span.end)]
pub struct SfenError {
    /// What is wrong.
    pub kind: SfenErrorKind,
    /// Where, in bytes of the input.
    pub span: Range<usize>,
}

fn err(kind: SfenErrorKind, span: Range<usize>) -> SfenError {
    SfenError { kind, span }
}

/// Splits into (text, span) fields on ASCII whitespace.
fn fields(text: &str) -> Vec<(&str, Range<usize>)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        if c.is_ascii_whitespace() {
            if let Some(s) = start.take() {
                out.push((&text[s..i], s..i));
            }
        } else if start.is_none() {
            start = Some(i);
        }
    }
    if let Some(s) = start {
        out.push((&text[s..], s..text.len()));
    }
    out
}

fn parse_board(text: &str, base: usize, setup: &mut Setup) -> Result<(), SfenError> {
    let ranks: Vec<&str> = text.split('/').collect();
    if ranks.len() != 9 {
        return Err(err(
            SfenErrorKind::WrongRankCount(ranks.len()),
            base..base + text.len(),
        ));
    }
    let mut off = base;
    for (ri, rank_text) in ranks.iter().enumerate() {
        let rank = ri as u8 + 1;
        let mut file: i32 = 9;
        let mut promoted = false;
        let mut plus_at = 0;
        for (ci, c) in rank_text.char_indices() {
            let at = off + ci;
            let span = at..at + c.len_utf8();
            if c == '+' {
                if promoted {
                    return Err(err(SfenErrorKind::BadPromotion, span));
                }
                promoted = true;
                plus_at = at;
                continue;
            }
            if let Some(d) = c.to_digit(10) {
                if promoted {
                    return Err(err(SfenErrorKind::BadPromotion, plus_at..plus_at + 1));
                }
                if d == 0 {
                    return Err(err(SfenErrorKind::BadBoardChar(c), span));
                }
                file -= d as i32;
                if file < 0 {
                    return Err(err(SfenErrorKind::RankTooLong(rank), span));
                }
                continue;
            }
            let Some(kind) = PieceKind::from_letter(c) else {
                return Err(err(SfenErrorKind::BadBoardChar(c), span));
            };
            let kind = if promoted {
                match kind.promote() {
                    Some(p) => p,
                    None => return Err(err(SfenErrorKind::BadPromotion, plus_at..at + 1)),
                }
            } else {
                kind
            };
            promoted = false;
            if file < 1 {
                return Err(err(SfenErrorKind::RankTooLong(rank), span));
            }
            let color = if c.is_ascii_uppercase() {
                Color::Sente
            } else {
                Color::Gote
            };
            let sq = Square::new(file as u8, rank).expect("file and rank in range");
            setup.board[sq.index()] = Some(Piece::new(color, kind));
            file -= 1;
        }
        if promoted {
            return Err(err(SfenErrorKind::BadPromotion, plus_at..plus_at + 1));
        }
        if file > 0 {
            return Err(err(
                SfenErrorKind::RankTooShort(rank),
                off..off + rank_text.len(),
            ));
        }
        off += rank_text.len() + 1;
    }
    Ok(())
}

fn parse_hands(text: &str, base: usize) -> Result<crate::rules::ByColor<Hand>, SfenError> {
    let mut hands = crate::rules::ByColor::<Hand>::default();
    if text == "-" {
        return Ok(hands);
    }
    let mut count: Option<(u32, usize)> = None;
    let mut seen = [[false; 7]; 2];
    for (ci, c) in text.char_indices() {
        let at = base + ci;
        if let Some(d) = c.to_digit(10) {
            let (n, s) = count.unwrap_or((0, at));
            let n = n * 10 + d;
            if n > 38 {
                return Err(err(SfenErrorKind::BadHandCount, s..at + 1));
            }
            count = Some((n, s));
            continue;
        }
        let Some(kind) = PieceKind::from_letter(c) else {
            return Err(err(SfenErrorKind::BadHandChar(c), at..at + c.len_utf8()));
        };
        if kind == PieceKind::King {
            return Err(err(SfenErrorKind::KingInHand, at..at + 1));
        }
        let n = match count.take() {
            Some((0, s)) => return Err(err(SfenErrorKind::BadHandCount, s..at + 1)),
            Some((n, _)) => n,
            None => 1,
        };
        let color = if c.is_ascii_uppercase() {
            Color::Sente
        } else {
            Color::Gote
        };
        if std::mem::replace(&mut seen[color.index()][kind.index()], true) {
            return Err(err(SfenErrorKind::DuplicateHandKind(c), at..at + 1));
        }
        hands[color] = hands[color].with_count(kind, n as u8);
    }
    if let Some((_, s)) = count {
        return Err(err(SfenErrorKind::BadHandCount, s..base + text.len()));
    }
    Ok(hands)
}

/// Parses the SFEN fields starting at `fs[0]`; returns the setup and the number of fields used.
fn parse_sfen_fields(fs: &[(&str, Range<usize>)], end: usize) -> Result<(Setup, usize), SfenError> {
    let Some((board, bspan)) = fs.first() else {
        return Err(err(SfenErrorKind::Empty, 0..end));
    };
    let mut setup = Setup::default();
    parse_board(board, bspan.start, &mut setup)?;
    let Some((side, sspan)) = fs.get(1) else {
        return Err(err(SfenErrorKind::MissingField("side to move"), end..end));
    };
    setup.side_to_move = match *side {
        "b" => Color::Sente,
        "w" => Color::Gote,
        _ => return Err(err(SfenErrorKind::BadSide, sspan.clone())),
    };
    let Some((hand, hspan)) = fs.get(2) else {
        return Err(err(SfenErrorKind::MissingField("hands"), end..end));
    };
    setup.hands = parse_hands(hand, hspan.start)?;
    let mut used = 3;
    if let Some((num, nspan)) = fs.get(3) {
        if num.bytes().all(|b| b.is_ascii_digit()) {
            setup.move_number = match num.parse::<u32>() {
                Ok(n) if n >= 1 => n,
                _ => return Err(err(SfenErrorKind::BadMoveNumber, nspan.clone())),
            };
            used = 4;
        } else if num != &"moves" {
            return Err(err(SfenErrorKind::BadMoveNumber, nspan.clone()));
        }
    }
    Ok((setup, used))
}

/// Parses a SFEN (or `startpos`) into a [`Setup`] without checking the rules.
///
/// # Errors
/// A located [`SfenError`] for malformed text.
pub fn parse_setup(text: &str) -> Result<Setup, SfenError> {
    let fs = fields(text);
    let fs: Vec<_> = if fs.first().map(|f| f.0) == Some("sfen") {
        fs[1..].to_vec()
    } else {
        fs
    };
    if fs.first().map(|f| f.0) == Some("startpos") {
        if let Some((_, s)) = fs.get(1) {
            return Err(err(SfenErrorKind::TrailingText, s.start..text.len()));
        }
        return parse_setup(STARTPOS);
    }
    let (setup, used) = parse_sfen_fields(&fs, text.len())?;
    if let Some((_, s)) = fs.get(used) {
        return Err(err(SfenErrorKind::TrailingText, s.start..text.len()));
    }
    Ok(setup)
}

/// Parses a SFEN (or `startpos`) into a legal [`Position`] under `rules`.
///
/// # Errors
/// A located [`SfenError`]; an illegal arrangement gives [`SfenErrorKind::Illegal`] spanning the whole text.
pub fn parse_position(text: &str, rules: Rules) -> Result<Position, SfenError> {
    let setup = parse_setup(text)?;
    Position::from_setup(setup, rules).map_err(|e| err(SfenErrorKind::Illegal(e), 0..text.len()))
}

/// Writes the SFEN of a setup's board, side, hands and move number.
pub fn write_setup(setup: &Setup) -> String {
    let mut s = String::with_capacity(96);
    push_setup(&mut s, setup);
    s
}

/// Appends the SFEN of a setup ([`write_setup`]) to `s`, without allocating per piece
/// (certificates write millions of them).
pub fn push_setup(s: &mut String, setup: &Setup) {
    for rank in 1..=9u8 {
        let mut empty = 0u8;
        for file in (1..=9u8).rev() {
            match setup.board[Square::new(file, rank).expect("sq").index()] {
                Some(p) => {
                    if empty > 0 {
                        s.push(char::from(b'0' + empty));
                        empty = 0;
                    }
                    p.push_sfen(s);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push(char::from(b'0' + empty));
        }
        if rank < 9 {
            s.push('/');
        }
    }
    s.push(' ');
    s.push(setup.side_to_move.sfen());
    s.push(' ');
    push_hands(s, &setup.hands);
    s.push(' ');
    let _ = std::fmt::Write::write_fmt(s, format_args!("{}", setup.move_number));
}

/// Hands in SFEN order: Sente then Gote, each R B G S N L P; `-` if both are empty.
pub fn write_hands(hands: &crate::rules::ByColor<Hand>) -> String {
    let mut s = String::new();
    push_hands(&mut s, hands);
    s
}

/// Appends [`write_hands`]'s text to `s`.
fn push_hands(s: &mut String, hands: &crate::rules::ByColor<Hand>) {
    let start = s.len();
    for c in Color::ALL {
        for k in [
            PieceKind::Rook,
            PieceKind::Bishop,
            PieceKind::Gold,
            PieceKind::Silver,
            PieceKind::Knight,
            PieceKind::Lance,
            PieceKind::Pawn,
        ] {
            let n = hands[c].count(k);
            if n > 1 {
                let _ = std::fmt::Write::write_fmt(s, format_args!("{n}"));
            }
            if n > 0 {
                let l = k.letter();
                s.push(if c == Color::Sente {
                    l
                } else {
                    l.to_ascii_lowercase()
                });
            }
        }
    }
    if s.len() == start {
        s.push('-');
    }
}

/// The SFEN of a position.
pub fn write_sfen(pos: &Position) -> String {
    write_setup(&pos.to_setup())
}

/// A USI move as written (`7g7f`, `8h2b+`, `P*5e`), before it meets a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UsiMove(pub Move);

/// What is wrong with a USI move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum UsiMoveError {
    /// Not of the form `7g7f`, `7g7f+` or `P*5e`.
    #[error("malformed USI move {0:?}")]
    Malformed(String),
    /// Well-formed but not legal in the position.
    #[error("illegal move {0}")]
    Illegal(String),
}

fn parse_square(b: &[u8]) -> Option<Square> {
    let file = b[0].checked_sub(b'0')?;
    let rank = b[1].checked_sub(b'a')?.checked_add(1)?;
    Square::new(file, rank)
}

/// Parses the syntax of a USI move.
///
/// # Errors
/// [`UsiMoveError::Malformed`].
pub fn parse_usi_move(text: &str) -> Result<UsiMove, UsiMoveError> {
    let b = text.as_bytes();
    let bad = || UsiMoveError::Malformed(text.to_string());
    match b.len() {
        4 if b[1] == b'*' => {
            let kind = PieceKind::from_letter(b[0] as char)
                .filter(|k| k.is_hand_kind() && b[0].is_ascii_uppercase())
                .ok_or_else(bad)?;
            let to = parse_square(&b[2..4]).ok_or_else(bad)?;
            Ok(UsiMove(Move::Drop { kind, to }))
        }
        4 | 5 => {
            if b.len() == 5 && b[4] != b'+' {
                return Err(bad());
            }
            let from = parse_square(&b[0..2]).ok_or_else(bad)?;
            let to = parse_square(&b[2..4]).ok_or_else(bad)?;
            Ok(UsiMove(Move::Normal {
                from,
                to,
                promote: b.len() == 5,
            }))
        }
        _ => Err(bad()),
    }
}

/// Parses a USI move and checks it is legal in `pos`.
///
/// # Errors
/// [`UsiMoveError`].
pub fn resolve_usi_move(pos: &Position, text: &str) -> Result<Move, UsiMoveError> {
    let UsiMove(m) = parse_usi_move(text)?;
    if pos.is_legal(m) {
        Ok(m)
    } else {
        Err(UsiMoveError::Illegal(text.to_string()))
    }
}

/// An error in a USI `position` command.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum UsiPositionError {
    /// The SFEN part is bad.
    #[error(transparent)]
    Sfen(#[from] SfenError),
    /// A move in the list is malformed or illegal.
    #[error("move {index} ({}): {error} (at bytes {}..{})", index + 1, span.start, span.end)]
    Move {
        /// 0-based index in the move list.
        index: usize,
        /// The move's byte span.
        span: Range<usize>,
        /// What is wrong.
        error: UsiMoveError,
    },
}

/// A start position and the moves played from it.
#[derive(Debug, Clone)]
pub struct UsiPosition {
    /// The position after all moves (its history holds the moves).
    pub position: Position,
    /// The moves, in order.
    pub moves: Vec<Move>,
}

/// A USI position text read but not played: the start and the move texts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsiPositionText<'a> {
    /// The start (`startpos` or the SFEN), not yet checked for legality.
    pub setup: Setup,
    /// Each move's text and byte span, in order, not yet checked.
    pub moves: Vec<(&'a str, Range<usize>)>,
}

/// Reads the syntax of `[position] (startpos | [sfen] <SFEN>) [moves m1 m2 …]`: a bare
/// SFEN, `startpos`, `sfen <SFEN>`, each optionally after `position` and before
/// `moves …` (an empty list allowed). Neither the start nor the moves are checked here:
/// [`UsiPositionText::play_moves`] does that.
///
/// # Errors
/// A located [`SfenError`] for a malformed start or text other than `moves …` after it.
pub fn read_usi_position(text: &str) -> Result<UsiPositionText<'_>, SfenError> {
    let all = fields(text);
    let mut fs: &[(&str, Range<usize>)] = &all;
    if fs.first().map(|f| f.0) == Some("position") {
        fs = &fs[1..];
    }
    let (setup, used) = match fs.first().map(|f| f.0) {
        Some("startpos") => (parse_setup(STARTPOS)?, 1),
        Some("sfen") => {
            let (s, u) = parse_sfen_fields(&fs[1..], text.len())?;
            (s, u + 1)
        }
        Some(_) => parse_sfen_fields(fs, text.len())?,
        None => return Err(err(SfenErrorKind::Empty, 0..text.len())),
    };
    let rest = &fs[used..];
    let moves = match rest.first() {
        None => Vec::new(),
        Some((first, _)) if *first == "moves" => rest[1..].to_vec(),
        Some((_, span)) => return Err(err(SfenErrorKind::TrailingText, span.start..text.len())),
    };
    Ok(UsiPositionText { setup, moves })
}

impl UsiPositionText<'_> {
    /// Plays the moves from `start`, the legal position made of [`UsiPositionText::setup`]
    /// (the caller chooses the rules, and may complete the setup first: a tsume problem's
    /// defender hand), checking each move with the rules core's full legality.
    ///
    /// # Errors
    /// [`UsiPositionError::Move`] for the first malformed or illegal move.
    pub fn play_moves(&self, start: Position) -> Result<UsiPosition, UsiPositionError> {
        let mut position = start;
        let mut moves = Vec::with_capacity(self.moves.len());
        for (index, (mtext, span)) in self.moves.iter().enumerate() {
            let m = resolve_usi_move(&position, mtext).map_err(|error| UsiPositionError::Move {
                index,
                span: span.clone(),
                error,
            })?;
            position.play_unchecked(m);
            moves.push(m);
        }
        Ok(UsiPosition { position, moves })
    }
}

/// Reads `[position] (startpos | [sfen] <SFEN>) [moves m1 m2 …]` ([`read_usi_position`]),
/// checking the start under `rules` and every move.
///
/// # Errors
/// [`UsiPositionError`] with the span of the bad text and, for a move, its index.
pub fn parse_usi_position(text: &str, rules: Rules) -> Result<UsiPosition, UsiPositionError> {
    let u = read_usi_position(text)?;
    let start = Position::from_setup(u.setup.clone(), rules)
        .map_err(|e| err(SfenErrorKind::Illegal(e), 0..text.len()))?;
    u.play_moves(start)
}

/// [`parse_usi_position`] under the rules of a game or a tsume problem, chosen by the
/// kings of the start ([`Rules::game_or_tsume`]): both kings, or one side without a king
/// (the attacker, to move or not). What the Python `Position` and `write_record` take.
///
/// # Errors
/// As [`parse_usi_position`]; a start without either king is refused for both.
pub fn parse_game_or_tsume(text: &str) -> Result<UsiPosition, UsiPositionError> {
    let u = read_usi_position(text)?;
    let rules = Rules::game_or_tsume(&u.setup);
    let start = Position::from_setup(u.setup.clone(), rules)
        .map_err(|e| err(SfenErrorKind::Illegal(e), 0..text.len()))?;
    u.play_moves(start)
}

/// Writes `position sfen <SFEN> moves …` (or `position startpos moves …` when the start is the standard one).
pub fn write_usi_position(start: &Position, moves: &[Move]) -> String {
    let sfen = write_sfen(start);
    let mut s = if sfen == STARTPOS {
        "position startpos".to_string()
    } else {
        format!("position sfen {sfen}")
    };
    if !moves.is_empty() {
        s.push_str(" moves");
        for m in moves {
            s.push(' ');
            s.push_str(&m.to_string());
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn startpos_round_trips() {
        let p = parse_position(STARTPOS, Rules::STANDARD).unwrap();
        assert_eq!(write_sfen(&p), STARTPOS);
        assert_eq!(p, Position::startpos());
        assert_eq!(parse_position("startpos", Rules::STANDARD).unwrap(), p);
    }

    #[test]
    fn hands_with_counts() {
        let s = "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1";
        let p = parse_position(s, Rules::STANDARD).unwrap();
        assert_eq!(write_sfen(&p), s);
        assert_eq!(p.hand(Color::Gote).count(PieceKind::Pawn), 5);
    }

    #[test]
    fn usi_position_text_forms_read_alike() {
        let sfen = "8k/9/8P/9/9/9/9/9/9 b G 1";
        let bare = read_usi_position(sfen).unwrap();
        assert!(bare.moves.is_empty());
        for text in [
            format!("sfen {sfen}"),
            format!("position sfen {sfen}"),
            format!("position {sfen} moves"),
            format!("  position   sfen {sfen}  moves  "),
        ] {
            let u = read_usi_position(&text).unwrap();
            assert_eq!(u.setup, bare.setup, "{text}");
            assert!(u.moves.is_empty(), "{text}");
        }
        let start = read_usi_position("startpos").unwrap().setup;
        assert_eq!(read_usi_position("position startpos").unwrap().setup, start);
        assert_eq!(parse_setup(STARTPOS).unwrap(), start);
    }

    #[test]
    fn usi_position_text_keeps_move_texts_and_spans_unchecked() {
        let text = "startpos moves 7g7f xx 7g7f";
        let u = read_usi_position(text).unwrap();
        let got: Vec<_> = u
            .moves
            .iter()
            .map(|(t, s)| (*t, &text[s.clone()]))
            .collect();
        assert_eq!(got, [("7g7f", "7g7f"), ("xx", "xx"), ("7g7f", "7g7f")]);
        // The syntax is read; the moves are checked only when played.
        let e = u.play_moves(Position::startpos()).unwrap_err();
        match e {
            UsiPositionError::Move {
                index: 1,
                span,
                error: UsiMoveError::Malformed(m),
            } => assert_eq!((&text[span], m.as_str()), ("xx", "xx")),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn usi_position_text_refuses_other_trailing_text() {
        let text = "position sfen 8k/9/8P/9/9/9/9/9/9 b G 1 mvoes G*1b";
        let e = read_usi_position(text).unwrap_err();
        assert_eq!(e.kind, SfenErrorKind::TrailingText);
        assert_eq!(&text[e.span], "mvoes G*1b");
        for (text, kind) in [
            ("position", SfenErrorKind::Empty),
            ("position sfen", SfenErrorKind::Empty),
            ("position moves 7g7f", SfenErrorKind::WrongRankCount(1)),
        ] {
            assert_eq!(read_usi_position(text).unwrap_err().kind, kind, "{text}");
        }
    }

    #[test]
    fn the_rank_count_is_singular_for_one() {
        assert_eq!(
            SfenErrorKind::WrongRankCount(1).to_string(),
            "the board has 1 rank, expected 9"
        );
        assert_eq!(
            SfenErrorKind::WrongRankCount(8).to_string(),
            "the board has 8 ranks, expected 9"
        );
    }

    #[test]
    fn usi_position_reports_bad_move_index() {
        let e = parse_usi_position(
            "position startpos moves 7g7f 3c3d 7f7e 8c8d 2b8h",
            Rules::STANDARD,
        )
        .unwrap_err();
        match e {
            UsiPositionError::Move {
                index,
                error: UsiMoveError::Illegal(_),
                ..
            } => assert_eq!(index, 4),
            other => panic!("{other:?}"),
        }
    }
}
