//! Japanese move notation: `Move` → KIF text `▲７六歩(77)` / `△同　銀(32)` and
//! KI2 text `▲７六歩` / `▲５二金左上`, and back.
//!
//! Disambiguation follows 日本将棋連盟「棋譜の表記方法」
//! (<https://www.shogi.or.jp/faq/kihuhyouki.html>): when several pieces of the
//! written kind can move to the destination, first the motion 上/寄/引 is
//! written if it alone singles the piece out; otherwise the relative position
//! 左/右 (直 for a gold-like piece or silver moving straight up); otherwise
//! both (左上, 右引, …). For 飛/角/龍/馬 (at most two on the board) 左/右 is the
//! position relative to the other piece and 直 is never used. 打 is written only
//! when a board piece of the same kind could also move to the square; 成 when a
//! move promotes, 不成 when it could promote and does not.
//!
//! Reading is two-staged: [`parse_move`] turns text into a [`JapaneseMove`]
//! (同, relative words, 打 kept as written), then [`resolve`] finds the one
//! legal move it denotes in a [`Position`] or fails with [`ResolveError`].
//!
//! Accepted syntax (lenient where real files differ): an optional side mark
//! `▲△☗☖▼▽`; a destination `同` (optionally followed by a full-width or ASCII
//! space) or a file and a rank, each a full-width, ASCII or kanji numeral
//! (`７六`, `76`, `七六`); a piece (`歩香桂銀金角飛玉王と杏圭全仝馬龍竜`,
//! `成香 成桂 成銀`); relative words `右 左 直 上 行 入 引 寄` (行 and 入 read as
//! 上); then `成`, `不成`/`生` or `打`; then in KIF an origin `(77)`.

use crate::rules::{Color, Move, PieceKind, Position, Square};
use std::fmt;
use thiserror::Error;

/// The destination as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Destination {
    /// `同`: the square of the previous move.
    Same,
    /// An explicit square.
    Square(Square),
}

/// 左 / 右 / 直 as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Horizontal {
    /// 左: the piece on the mover's left.
    Left,
    /// 右: the piece on the mover's right.
    Right,
    /// 直: straight forward.
    Straight,
}

/// 上 / 寄 / 引 as written (行 and 入 are read as 上).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Vertical {
    /// 上 (行, 入): moves forward.
    Up,
    /// 寄: moves sideways.
    Sideways,
    /// 引: moves backward.
    Back,
}

/// 成 / 不成 / 打 as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// 成
    Promote,
    /// 不成 or 生
    NoPromote,
    /// 打
    Drop,
}

/// A move in Japanese notation as written, before it meets a position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct JapaneseMove {
    /// The side mark, if written.
    pub color: Option<Color>,
    /// The destination.
    pub destination: Destination,
    /// The piece kind as written (the kind on the board before the move).
    pub piece: PieceKind,
    /// 左/右/直, if written.
    pub horizontal: Option<Horizontal>,
    /// 上/寄/引, if written.
    pub vertical: Option<Vertical>,
    /// 成/不成/打, if written.
    pub action: Option<Action>,
    /// The KIF origin `(77)`, if written.
    pub origin: Option<Square>,
}

/// Why a text is not Japanese move syntax.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum SyntaxError {
    /// No text.
    #[error("empty move")]
    Empty,
    /// The destination is neither 同 nor a file and rank.
    #[error("bad destination square in {0:?}")]
    BadSquare(String),
    /// No known piece name after the destination.
    #[error("unknown piece in {0:?}")]
    BadPiece(String),
    /// The KIF origin `(ff rr)` is malformed.
    #[error("bad origin square in {0:?}")]
    BadOrigin(String),
    /// Text left over after the move.
    #[error("unexpected text {rest:?} after the move in {text:?}")]
    Trailing {
        /// The whole move text.
        text: String,
        /// What is left.
        rest: String,
    },
}

/// Why a [`JapaneseMove`] does not denote exactly one legal move.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum ResolveError {
    /// `同` with no previous move.
    #[error("同 but there is no previous move")]
    NoPreviousMove,
    /// The side mark is not the side to move.
    #[error("the move is marked for {written:?} but {to_move:?} is to move")]
    WrongSide {
        /// The mark.
        written: Color,
        /// The side to move.
        to_move: Color,
    },
    /// The KIF origin holds no piece of the written kind and side.
    #[error("no {piece:?} of the side to move on {origin}")]
    PieceMismatch {
        /// The written kind.
        piece: PieceKind,
        /// The written origin.
        origin: Square,
    },
    /// No legal move fits the text.
    #[error("no legal move fits")]
    Illegal,
    /// Several legal moves fit the text.
    #[error("ambiguous: {} legal moves fit ({})", .0.len(), .0.iter().map(|m| m.to_string()).collect::<Vec<_>>().join(" "))]
    Ambiguous(Vec<Move>),
}

// ---------------------------------------------------------------- writing

const FULL_DIGITS: [char; 9] = ['１', '２', '３', '４', '５', '６', '７', '８', '９'];
const KANJI_DIGITS: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// `７六`: full-width file, kanji rank.
pub fn square_text(sq: Square) -> String {
    let mut s = String::new();
    s.push(FULL_DIGITS[sq.file() as usize - 1]);
    s.push(KANJI_DIGITS[sq.rank() as usize - 1]);
    s
}

/// Whether a move of `kind` from `from` to `to` by `color` may promote.
fn may_promote(kind: PieceKind, color: Color, from: Square, to: Square) -> bool {
    kind.promote().is_some() && (from.relative_rank(color) <= 3 || to.relative_rank(color) <= 3)
}

/// The kind a move moves (board piece before the move, or the dropped kind).
fn moving_kind(pos: &Position, m: Move) -> Option<PieceKind> {
    match m {
        Move::Normal { from, .. } => pos.piece_at(from).map(|p| p.kind),
        Move::Drop { kind, .. } => Some(kind),
    }
}

/// Legal board moves of a `kind` piece of the side to move to `to`, one per origin.
fn board_origins(pos: &Position, kind: PieceKind, to: Square) -> Vec<Square> {
    let mut v: Vec<Square> = pos
        .legal_moves()
        .into_iter()
        .filter_map(|m| match m {
            Move::Normal { from, to: t, .. }
                if t == to && pos.piece_at(from).map(|p| p.kind) == Some(kind) =>
            {
                Some(from)
            }
            _ => None,
        })
        .collect();
    v.sort();
    v.dedup();
    v
}

/// The horizontal direction of `from` seen from `to` by `color`: −1 left, 0 same file, +1 right.
fn dx(color: Color, from: Square, to: Square) -> i8 {
    // Sente's left is the higher file.
    let d = (from.file() as i8 - to.file() as i8).signum();
    match color {
        Color::Sente => -d,
        Color::Gote => d,
    }
}

/// The vertical motion: +1 forward (上), 0 sideways (寄), −1 backward (引).
fn dy(color: Color, from: Square, to: Square) -> i8 {
    let d = (from.rank() as i8 - to.rank() as i8).signum();
    match color {
        Color::Sente => d,
        Color::Gote => -d,
    }
}

/// 飛/角/龍/馬: at most two on the board; 左/右 is relative to the other piece, never 直.
fn is_major(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::Rook | PieceKind::Bishop | PieceKind::Dragon | PieceKind::Horse
    )
}

/// −1 if `from` is on the mover's left of every other origin, +1 if on the right of every other, else 0.
fn relative_side(color: Color, from: Square, others: &[Square]) -> i8 {
    let lefter = |a: Square, b: Square| dx(color, a, b) < 0; // a is left of b
    if others.iter().all(|&o| lefter(from, o)) {
        -1
    } else if others.iter().all(|&o| lefter(o, from)) {
        1
    } else {
        0
    }
}

fn horizontal_of(
    kind: PieceKind,
    color: Color,
    from: Square,
    to: Square,
    origins: &[Square],
) -> i8 {
    if is_major(kind) {
        let others: Vec<Square> = origins.iter().copied().filter(|&o| o != from).collect();
        relative_side(color, from, &others)
    } else {
        dx(color, from, to)
    }
}

/// The 連盟 relative words for the board move `from → to` of `kind` among `origins` (which include `from`).
fn relative_words(
    kind: PieceKind,
    color: Color,
    from: Square,
    to: Square,
    origins: &[Square],
) -> String {
    if origins.len() < 2 {
        return String::new();
    }
    let vert = |o: Square| dy(color, o, to);
    let horiz = |o: Square| horizontal_of(kind, color, o, to, origins);
    let v = vert(from);
    let h = horiz(from);
    let v_word = match v {
        1 => "上",
        0 => "寄",
        _ => "引",
    };
    let h_word = match h {
        -1 => "左",
        1 => "右",
        _ if v == 1 && !is_major(kind) => "直",
        _ => "",
    };
    if origins.iter().filter(|&&o| vert(o) == v).count() == 1 {
        return v_word.to_string();
    }
    if !h_word.is_empty() && origins.iter().filter(|&&o| horiz(o) == h).count() == 1 {
        return h_word.to_string();
    }
    if h_word == "直" {
        // Only one piece can move straight up, so 直 alone is unique.
        return h_word.to_string();
    }
    format!("{h_word}{v_word}")
}

fn body(pos: &Position, m: Move, prev_to: Option<Square>, kif: bool) -> String {
    let color = pos.side_to_move();
    let mut s = String::new();
    if Some(m.to()) == prev_to {
        s.push_str("同　");
    } else {
        s.push_str(&square_text(m.to()));
    }
    match m {
        Move::Normal { from, to, promote } => {
            let kind = moving_kind(pos, m).unwrap_or(PieceKind::Pawn);
            s.push_str(kind.move_name());
            if !kif {
                s.push_str(&relative_words(
                    kind,
                    color,
                    from,
                    to,
                    &board_origins(pos, kind, to),
                ));
            }
            if promote {
                s.push('成');
            } else if may_promote(kind, color, from, to) {
                s.push_str("不成");
            }
            if kif {
                s.push_str(&format!("({}{})", from.file(), from.rank()));
            }
        }
        Move::Drop { kind, to } => {
            s.push_str(kind.move_name());
            if kif || !board_origins(pos, kind, to).is_empty() {
                s.push('打');
            }
        }
    }
    s
}

/// KIF move text with the side mark: `▲７六歩(77)`, `△同　銀(32)`, `▲５五角打`.
///
/// `m` must be legal in `pos`; `prev_to` is the destination of the previous move (for 同).
pub fn kif_move(pos: &Position, m: Move, prev_to: Option<Square>) -> String {
    format!(
        "{}{}",
        pos.side_to_move().mark(),
        body(pos, m, prev_to, true)
    )
}

/// KIF move text without the side mark, as in a KIF move line: `７六歩(77)`.
pub fn kif_move_unmarked(pos: &Position, m: Move, prev_to: Option<Square>) -> String {
    body(pos, m, prev_to, true)
}

/// KI2 move text with the side mark and 連盟 disambiguation: `▲７六歩`, `△同　銀`, `▲５二金左上`.
///
/// `m` must be legal in `pos`; `prev_to` is the destination of the previous move (for 同).
pub fn ki2_move(pos: &Position, m: Move, prev_to: Option<Square>) -> String {
    format!(
        "{}{}",
        pos.side_to_move().mark(),
        body(pos, m, prev_to, false)
    )
}

/// A line of moves from `start` in KI2, separated by spaces: `▲２二銀 △同　玉 ▲２三金`.
///
/// # Panics
/// If a move is not legal where it is played (the line must be a legal sequence).
pub fn ki2_line(start: &Position, moves: &[Move]) -> String {
    line(start, moves, ki2_move)
}

/// A line of moves from `start` in KIF style, separated by spaces: `▲２二銀(33) △同　玉(11)`.
///
/// # Panics
/// If a move is not legal where it is played.
pub fn kif_line(start: &Position, moves: &[Move]) -> String {
    line(start, moves, kif_move)
}

fn line(
    start: &Position,
    moves: &[Move],
    f: fn(&Position, Move, Option<Square>) -> String,
) -> String {
    let mut pos = start.clone();
    let mut prev = None;
    let mut out = Vec::with_capacity(moves.len());
    for &m in moves {
        out.push(f(&pos, m, prev));
        pos.play(m)
            .unwrap_or_else(|e| panic!("ki2_line/kif_line: {e}"));
        prev = Some(m.to());
    }
    out.join(" ")
}

// ---------------------------------------------------------------- reading

fn numeral(c: char) -> Option<u8> {
    if let Some(i) = FULL_DIGITS.iter().position(|&d| d == c) {
        return Some(i as u8 + 1);
    }
    if let Some(i) = KANJI_DIGITS.iter().position(|&d| d == c) {
        return Some(i as u8 + 1);
    }
    match c {
        '1'..='9' => Some(c as u8 - b'0'),
        _ => None,
    }
}

/// The kind for a piece name at the start of `s`, and its length in bytes.
pub(crate) fn piece_prefix(s: &str) -> Option<(PieceKind, usize)> {
    use PieceKind::*;
    const TWO: [(&str, PieceKind); 3] =
        [("成香", ProLance), ("成桂", ProKnight), ("成銀", ProSilver)];
    for (name, k) in TWO {
        if s.starts_with(name) {
            return Some((k, name.len()));
        }
    }
    let c = s.chars().next()?;
    let k = match c {
        '歩' => Pawn,
        '香' => Lance,
        '桂' => Knight,
        '銀' => Silver,
        '金' => Gold,
        '角' => Bishop,
        '飛' => Rook,
        '玉' | '王' => King,
        'と' => ProPawn,
        '杏' => ProLance,
        '圭' => ProKnight,
        '全' | '仝' => ProSilver,
        '馬' => Horse,
        '龍' | '竜' => Dragon,
        _ => return None,
    };
    Some((k, c.len_utf8()))
}

/// The side for a mark character.
pub(crate) fn mark_color(c: char) -> Option<Color> {
    match c {
        '▲' | '☗' | '▼' => Some(Color::Sente),
        '△' | '☖' | '▽' => Some(Color::Gote),
        _ => None,
    }
}

/// Parses one move in Japanese notation (KIF or KI2), the whole text (surrounding whitespace ignored).
///
/// # Errors
/// [`SyntaxError`] naming what is wrong.
pub fn parse_move(text: &str) -> Result<JapaneseMove, SyntaxError> {
    let t = text.trim_matches(|c: char| c.is_whitespace());
    if t.is_empty() {
        return Err(SyntaxError::Empty);
    }
    let mut rest = t;
    let mut color = None;
    if let Some(c) = rest.chars().next().and_then(mark_color) {
        color = Some(c);
        rest = &rest[rest.chars().next().map_or(0, char::len_utf8)..];
    }
    let destination;
    if let Some(r) = rest.strip_prefix('同') {
        destination = Destination::Same;
        rest = r.trim_start_matches(['　', ' ']);
    } else {
        let mut cs = rest.chars();
        let f = cs.next().and_then(numeral);
        let r = cs.next().and_then(numeral);
        match (f, r) {
            (Some(f), Some(r)) => {
                destination = Destination::Square(
                    Square::new(f, r).ok_or_else(|| SyntaxError::BadSquare(t.into()))?,
                );
                rest = cs.as_str();
                // "７六同　歩" (a square followed by 同) is accepted as the square.
                if let Some(r2) = rest.strip_prefix('同') {
                    rest = r2.trim_start_matches(['　', ' ']);
                }
            }
            _ => return Err(SyntaxError::BadSquare(t.into())),
        }
    }
    let (piece, n) = piece_prefix(rest).ok_or_else(|| SyntaxError::BadPiece(t.into()))?;
    rest = &rest[n..];
    let mut horizontal = None;
    let mut vertical = None;
    let mut action = None;
    while let Some(c) = rest.chars().next() {
        let (h, v) = match c {
            '左' => (Some(Horizontal::Left), None),
            '右' => (Some(Horizontal::Right), None),
            '直' => (Some(Horizontal::Straight), None),
            '上' | '行' | '入' => (None, Some(Vertical::Up)),
            '寄' => (None, Some(Vertical::Sideways)),
            '引' => (None, Some(Vertical::Back)),
            _ => break,
        };
        if (h.is_some() && horizontal.is_some()) || (v.is_some() && vertical.is_some()) {
            break;
        }
        horizontal = horizontal.or(h);
        vertical = vertical.or(v);
        rest = &rest[c.len_utf8()..];
    }
    if let Some(r) = rest.strip_prefix("不成") {
        action = Some(Action::NoPromote);
        rest = r;
    } else if let Some(r) = rest.strip_prefix('生') {
        action = Some(Action::NoPromote);
        rest = r;
    } else if let Some(r) = rest.strip_prefix('成') {
        action = Some(Action::Promote);
        rest = r;
    } else if let Some(r) = rest.strip_prefix('打') {
        action = Some(Action::Drop);
        rest = r;
    }
    let mut origin = None;
    if let Some(r) = rest.strip_prefix('(') {
        let close = r
            .find(')')
            .ok_or_else(|| SyntaxError::BadOrigin(t.into()))?;
        let inner: Vec<char> = r[..close].trim().chars().collect();
        let sq = match inner.as_slice() {
            [f, r] => numeral(*f)
                .zip(numeral(*r))
                .and_then(|(f, r)| Square::new(f, r)),
            _ => None,
        };
        origin = Some(sq.ok_or_else(|| SyntaxError::BadOrigin(t.into()))?);
        rest = &r[close + 1..];
    }
    if !rest.trim().is_empty() {
        return Err(SyntaxError::Trailing {
            text: t.into(),
            rest: rest.trim().into(),
        });
    }
    Ok(JapaneseMove {
        color,
        destination,
        piece,
        horizontal,
        vertical,
        action,
        origin,
    })
}

/// Finds the legal move `jm` denotes in `pos`; `prev_to` is the previous move's destination (for 同).
///
/// With a KIF origin the move is that piece's move (成 written ⇔ it promotes).
/// Without one (KI2) the candidates are the legal moves of a piece of the
/// written kind to the destination that match 成/不成 (none written = no
/// promotion); board moves are preferred to a drop unless 打 is written; the
/// relative words filter the board candidates. Exactly one must remain.
///
/// # Errors
/// [`ResolveError`]: no previous move for 同, a wrong side mark, a KIF origin
/// without the written piece, no fitting legal move, or several.
pub fn resolve(
    pos: &Position,
    jm: &JapaneseMove,
    prev_to: Option<Square>,
) -> Result<Move, ResolveError> {
    let us = pos.side_to_move();
    if let Some(c) = jm.color {
        if c != us {
            return Err(ResolveError::WrongSide {
                written: c,
                to_move: us,
            });
        }
    }
    let to = match jm.destination {
        Destination::Same => prev_to.ok_or(ResolveError::NoPreviousMove)?,
        Destination::Square(s) => s,
    };
    let promote = jm.action == Some(Action::Promote);
    if let Some(origin) = jm.origin {
        match pos.piece_at(origin) {
            Some(p) if p.color == us && p.kind == jm.piece => {}
            _ => {
                return Err(ResolveError::PieceMismatch {
                    piece: jm.piece,
                    origin,
                })
            }
        }
        let m = Move::Normal {
            from: origin,
            to,
            promote,
        };
        return if pos.is_legal(m) {
            Ok(m)
        } else {
            Err(ResolveError::Illegal)
        };
    }
    let legal = pos.legal_moves();
    let drop = Move::Drop { kind: jm.piece, to };
    let drop_legal = jm.piece.is_hand_kind() && legal.contains(&drop);
    if jm.action == Some(Action::Drop) {
        return if drop_legal {
            Ok(drop)
        } else {
            Err(ResolveError::Illegal)
        };
    }
    let origins = board_origins(pos, jm.piece, to);
    let mut cands: Vec<Move> = Vec::new();
    for &from in &origins {
        let m = Move::Normal { from, to, promote };
        if !legal.contains(&m) {
            continue;
        }
        let v = dy(us, from, to);
        let h = horizontal_of(jm.piece, us, from, to, &origins);
        let v_ok = match jm.vertical {
            None => true,
            Some(Vertical::Up) => v == 1,
            Some(Vertical::Sideways) => v == 0,
            Some(Vertical::Back) => v == -1,
        };
        let h_ok = match jm.horizontal {
            None => true,
            Some(Horizontal::Left) => h == -1,
            Some(Horizontal::Right) => h == 1,
            Some(Horizontal::Straight) => h == 0 && v == 1 && !is_major(jm.piece),
        };
        if v_ok && h_ok {
            cands.push(m);
        }
    }
    if origins.is_empty()
        && jm.horizontal.is_none()
        && jm.vertical.is_none()
        && !promote
        && drop_legal
    {
        return Ok(drop);
    }
    match cands.len() {
        0 => Err(ResolveError::Illegal),
        1 => Ok(cands[0]),
        _ => Err(ResolveError::Ambiguous(cands)),
    }
}

/// Parses and resolves one move.
///
/// # Errors
/// [`MoveTextError`].
pub fn parse_and_resolve(
    pos: &Position,
    text: &str,
    prev_to: Option<Square>,
) -> Result<Move, MoveTextError> {
    let jm = parse_move(text)?;
    Ok(resolve(pos, &jm, prev_to)?)
}

/// A syntax or resolution error for one move text.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum MoveTextError {
    /// Not Japanese move syntax.
    #[error(transparent)]
    Syntax(#[from] SyntaxError),
    /// Does not denote exactly one legal move.
    #[error(transparent)]
    Resolve(#[from] ResolveError),
}

impl fmt::Display for JapaneseMove {
    /// Writes the syntax back as read (行/入 as 上, 生 as 不成).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(c) = self.color {
            write!(f, "{}", c.mark())?;
        }
        match self.destination {
            Destination::Same => f.write_str("同　")?,
            Destination::Square(s) => f.write_str(&square_text(s))?,
        }
        f.write_str(self.piece.move_name())?;
        match self.horizontal {
            Some(Horizontal::Left) => f.write_str("左")?,
            Some(Horizontal::Right) => f.write_str("右")?,
            Some(Horizontal::Straight) => f.write_str("直")?,
            None => {}
        }
        match self.vertical {
            Some(Vertical::Up) => f.write_str("上")?,
            Some(Vertical::Sideways) => f.write_str("寄")?,
            Some(Vertical::Back) => f.write_str("引")?,
            None => {}
        }
        match self.action {
            Some(Action::Promote) => f.write_str("成")?,
            Some(Action::NoPromote) => f.write_str("不成")?,
            Some(Action::Drop) => f.write_str("打")?,
            None => {}
        }
        if let Some(o) = self.origin {
            write!(f, "({}{})", o.file(), o.rank())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::sfen::parse_position;
    use crate::rules::Rules;
    use rand::{Rng, SeedableRng};

    fn pos(sfen: &str) -> Position {
        parse_position(sfen, Rules::TSUME).expect("test position")
    }

    fn usi(p: &Position, s: &str) -> Move {
        crate::notation::sfen::resolve_usi_move(p, s).expect("legal test move")
    }

    #[test]
    fn first_moves() {
        let p = Position::startpos();
        assert_eq!(kif_move(&p, usi(&p, "7g7f"), None), "▲７六歩(77)");
        assert_eq!(ki2_move(&p, usi(&p, "7g7f"), None), "▲７六歩");
        // Two golds can reach 5h: 6i (right from Sente? no: 6i is left of 5h) and 4i.
        assert_eq!(ki2_move(&p, usi(&p, "6i5h"), None), "▲５八金左");
        assert_eq!(ki2_move(&p, usi(&p, "4i5h"), None), "▲５八金右");
        assert_eq!(ki2_move(&p, usi(&p, "3i3h"), None), "▲３八銀");
    }

    #[test]
    fn same_square_and_promotion() {
        let mut p = Position::startpos();
        let mut prev = None;
        let mut out = Vec::new();
        for s in ["7g7f", "3c3d", "8h2b+", "3a2b"] {
            let m = usi(&p, s);
            out.push(kif_move(&p, m, prev));
            p.play(m).unwrap();
            prev = Some(m.to());
        }
        assert_eq!(
            out,
            ["▲７六歩(77)", "△３四歩(33)", "▲２二角成(88)", "△同　銀(31)"]
        );
        assert_eq!(
            ki2_line(&Position::startpos(), &[usi(&Position::startpos(), "7g7f")]),
            "▲７六歩"
        );
    }

    /// The 連盟 examples: golds at 6五, 6六, 5六 moving to 5五 → 寄, 左上, 直
    /// (the example also given at ameblo.jp/ryota1033/entry-12860363373).
    #[test]
    fn renmei_three_golds() {
        let p = pos("4k4/9/9/9/3G5/3GG4/9/9/4K4 b - 1");
        assert_eq!(ki2_move(&p, usi(&p, "6e5e"), None), "▲５五金寄");
        assert_eq!(ki2_move(&p, usi(&p, "6f5e"), None), "▲５五金左上");
        assert_eq!(ki2_move(&p, usi(&p, "5f5e"), None), "▲５五金直");
    }

    /// Wikipedia「棋譜」: dragons on 1三 and 2二, moving to 2四 → 右 (from 1三) and 左 (from 2二).
    #[test]
    fn dragons_use_relative_position() {
        let p = pos("4k4/7+R1/8+R/9/9/9/9/9/4K4 b - 1");
        assert_eq!(ki2_move(&p, usi(&p, "1c2d"), None), "▲２四龍右");
        assert_eq!(ki2_move(&p, usi(&p, "2b2d"), None), "▲２四龍左");
    }

    #[test]
    fn drop_needs_uchi_only_when_a_board_piece_reaches() {
        let p = pos("4k4/9/9/9/9/9/9/4G4/4K4 b G 1");
        assert_eq!(ki2_move(&p, usi(&p, "G*5g"), None), "▲５七金打");
        assert_eq!(ki2_move(&p, usi(&p, "5h5g"), None), "▲５七金");
        assert_eq!(ki2_move(&p, usi(&p, "G*1a"), None), "▲１一金");
        assert_eq!(kif_move(&p, usi(&p, "G*1a"), None), "▲１一金打");
    }

    #[test]
    fn no_promotion_is_written_only_when_promotion_was_possible() {
        let p = pos("4k4/9/9/2S6/9/9/9/9/4K4 b - 1");
        assert_eq!(ki2_move(&p, usi(&p, "7d7c"), None), "▲７三銀不成");
        assert_eq!(ki2_move(&p, usi(&p, "7d7c+"), None), "▲７三銀成");
        assert_eq!(ki2_move(&p, usi(&p, "7d6e"), None), "▲６五銀");
    }

    #[test]
    fn syntax_variants_read() {
        let p = Position::startpos();
        for t in [
            "▲７六歩(77)",
            "７六歩",
            "76歩",
            "七六歩",
            "☗7六歩",
            " ▲７六歩 ",
        ] {
            assert_eq!(parse_and_resolve(&p, t, None), Ok(usi(&p, "7g7f")), "{t}");
        }
        assert!(matches!(
            parse_and_resolve(&p, "△７六歩", None),
            Err(MoveTextError::Resolve(ResolveError::WrongSide { .. }))
        ));
        assert!(
            matches!(parse_and_resolve(&p, "５八金", None), Err(MoveTextError::Resolve(ResolveError::Ambiguous(v))) if v.len() == 2)
        );
        assert!(matches!(
            parse_and_resolve(&p, "５五歩", None),
            Err(MoveTextError::Resolve(ResolveError::Illegal))
        ));
        assert!(matches!(
            parse_and_resolve(&p, "同　歩", None),
            Err(MoveTextError::Resolve(ResolveError::NoPreviousMove))
        ));
        assert!(matches!(parse_move("７六"), Err(SyntaxError::BadPiece(_))));
        assert!(matches!(
            parse_move("０六歩"),
            Err(SyntaxError::BadSquare(_))
        ));
        assert!(matches!(
            parse_move("７六歩(7)"),
            Err(SyntaxError::BadOrigin(_))
        ));
        assert!(matches!(
            parse_move("７六歩x"),
            Err(SyntaxError::Trailing { .. })
        ));
        assert!(matches!(parse_move(""), Err(SyntaxError::Empty)));
    }

    /// Every legal move of positions along random playouts: its KI2 and KIF
    /// texts read back to exactly that move, and no other legal move has the same text.
    #[test]
    fn every_legal_move_text_is_unique_and_reads_back() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut checked = 0;
        for _game in 0..40 {
            let mut p = Position::startpos();
            let mut prev = None;
            for _ply in 0..120 {
                let moves = p.legal_moves();
                if moves.is_empty() {
                    break;
                }
                let mut texts = [
                    std::collections::HashSet::new(),
                    std::collections::HashSet::new(),
                ];
                for &m in &moves {
                    for (text, kif) in [(ki2_move(&p, m, prev), 0), (kif_move(&p, m, prev), 1)] {
                        assert_eq!(
                            parse_and_resolve(&p, &text, prev),
                            Ok(m),
                            "{text} kif={kif} in {p:?}"
                        );
                        assert!(texts[kif].insert(text.clone()), "duplicate {text}");
                        checked += 1;
                    }
                }
                let m = moves[rng.gen_range(0..moves.len())];
                p.play(m).unwrap();
                prev = Some(m.to());
            }
        }
        assert!(checked > 100_000, "{checked}");
    }
}
