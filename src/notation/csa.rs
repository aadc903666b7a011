//! CSA 標準棋譜ファイル形式 V2.2 and V3.0 (computer-shogi.org), read and written.
//!
//! Accepted: `'` comments (`'*` comments attach to the previous move, the
//! V3.0 `'CSA encoding=…` line is skipped), `V2`/`V2.1`/`V2.2`/`V3.0`,
//! `N+`/`N-` names, `$KEY:value` fields, positions by `PI` (with removals like
//! `PI82HI22KA`), `P1`…`P9` rows, or `P+`/`P-` placements (`P+00KI` in hand,
//! `P-00AL` the rest), the side `+`/`-`, moves `+7776FU` (several per line
//! with `,`), times `T12` (`T12.5` in V3.0, truncated to seconds), `%` end
//! commands, and several games separated by a `/` line. A malformed or illegal
//! move is an error with its move number and line.

use super::kif::{handicap_name, position_from_setup};
use super::record::{
    EndWord, Ending, Line, MoveTime, Record, RecordError, RecordErrorKind, RecordMove,
};
use crate::notation::sfen::parse_setup;
use crate::rules::{Color, Hand, Move, Piece, PieceKind, Position, Setup, Square};

const CODES: [(&str, PieceKind); 14] = [
    ("FU", PieceKind::Pawn),
    ("KY", PieceKind::Lance),
    ("KE", PieceKind::Knight),
    ("GI", PieceKind::Silver),
    ("KI", PieceKind::Gold),
    ("KA", PieceKind::Bishop),
    ("HI", PieceKind::Rook),
    ("OU", PieceKind::King),
    ("TO", PieceKind::ProPawn),
    ("NY", PieceKind::ProLance),
    ("NK", PieceKind::ProKnight),
    ("NG", PieceKind::ProSilver),
    ("UM", PieceKind::Horse),
    ("RY", PieceKind::Dragon),
];

fn kind_of(code: &str) -> Option<PieceKind> {
    CODES.iter().find(|(c, _)| *c == code).map(|(_, k)| *k)
}

pub(crate) fn code_of(kind: PieceKind) -> &'static str {
    CODES
        .iter()
        .find(|(_, k)| *k == kind)
        .map(|(c, _)| *c)
        .expect("every kind has a code")
}

fn sign(c: Color) -> char {
    match c {
        Color::Sente => '+',
        Color::Gote => '-',
    }
}

fn color_of(c: char) -> Option<Color> {
    match c {
        '+' => Some(Color::Sente),
        '-' => Some(Color::Gote),
        _ => None,
    }
}

fn csa_square(s: &str) -> Option<Option<Square>> {
    let b = s.as_bytes();
    if b.len() != 2 || !b[0].is_ascii_digit() || !b[1].is_ascii_digit() {
        return None;
    }
    if b == b"00" {
        return Some(None);
    }
    Square::new(b[0] - b'0', b[1] - b'0').map(Some)
}

const HEADER_MAP: [(&str, &str); 6] = [
    ("$EVENT", "棋戦"),
    ("$SITE", "場所"),
    ("$START_TIME", "開始日時"),
    ("$END_TIME", "終了日時"),
    ("$TIME_LIMIT", "持ち時間"),
    ("$OPENING", "戦型"),
];

struct GameB {
    headers: Vec<(String, String)>,
    setup: Option<Setup>,
    rows_seen: u16,
    rest_to: Option<Color>,
    side: Option<Color>,
    pos: Option<Position>,
    start: Option<Position>,
    start_comments: Vec<String>,
    moves: Vec<RecordMove>,
    end: Option<Ending>,
}

impl GameB {
    fn new() -> GameB {
        GameB {
            headers: Vec::new(),
            setup: None,
            rows_seen: 0,
            rest_to: None,
            side: None,
            pos: None,
            start: None,
            start_comments: Vec::new(),
            moves: Vec::new(),
            end: None,
        }
    }
}

fn cerr(line: usize, msg: impl Into<String>) -> RecordError {
    RecordError {
        line,
        kind: RecordErrorKind::Csa(msg.into()),
    }
}

/// Reads every game of a CSA file from decoded text.
///
/// # Errors
/// [`RecordError`] with the 1-based line: an unknown line or piece code, a
/// bad position, a move before the position is complete, a malformed or
/// illegal move (with its number), a bad time.
pub fn read_csa(text: &str) -> Result<Vec<Record>, RecordError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut games = Vec::new();
    let mut g = GameB::new();
    let mut last_line = 0;
    for (idx, raw) in text.lines().enumerate() {
        let ln = idx + 1;
        last_line = ln;
        let line = raw.trim_end();
        if line.is_empty() {
            continue;
        }
        if line == "/" {
            games.push(finish(g, ln)?);
            g = GameB::new();
            continue;
        }
        // Statements are separated by `,`; a `'` statement (floodgate's
        // `%KACHI,'* -5000 win`) is a comment to the end of the line.
        let (code, comment) = match line.strip_prefix('\'') {
            Some(c) => ("", Some(c)),
            None => match line.find(",'") {
                Some(i) => (&line[..i], Some(&line[i + 2..])),
                None => (line, None),
            },
        };
        for stmt in code.split(',') {
            statement(&mut g, ln, stmt)?;
        }
        if let Some(c) = comment.and_then(|c| c.strip_prefix('*')) {
            match g.moves.last_mut() {
                Some(m) => m.comments.push(c.to_string()),
                None => g.start_comments.push(c.to_string()),
            }
        }
    }
    if g.pos.is_some() || g.setup.is_some() || !g.headers.is_empty() {
        games.push(finish(g, last_line)?);
    }
    if games.is_empty() {
        return Err(RecordError {
            line: last_line.max(1),
            kind: RecordErrorKind::Empty,
        });
    }
    Ok(games)
}

fn ensure_position(g: &mut GameB, ln: usize) -> Result<(), RecordError> {
    if g.pos.is_some() {
        return Ok(());
    }
    let mut setup = g.setup.take().ok_or_else(|| {
        cerr(
            ln,
            "a move or side before any position (PI, P1…P9 or P+/P-)",
        )
    })?;
    if let Some(c) = g.rest_to {
        let other = setup.hands[!c];
        let mut h = Hand::EMPTY;
        for k in PieceKind::HAND {
            let on_board = setup
                .board
                .iter()
                .flatten()
                .filter(|p| p.kind.unpromote() == k)
                .count() as u8;
            h = h.with_count(k, k.max_count().saturating_sub(on_board + other.count(k)));
        }
        setup.hands[c] = h;
    }
    setup.side_to_move = g.side.unwrap_or(Color::Sente);
    let p = position_from_setup(setup).map_err(|k| RecordError { line: ln, kind: k })?;
    g.start = Some(p.clone());
    g.pos = Some(p);
    Ok(())
}

fn statement(g: &mut GameB, ln: usize, s: &str) -> Result<(), RecordError> {
    let s = s.trim();
    if s.is_empty() {
        return Ok(());
    }
    if s.starts_with('V') {
        return Ok(());
    }
    if (s.starts_with('P') || s.starts_with('+') || s.starts_with('-')) && !s.is_ascii() {
        return Err(cerr(ln, format!("non-ASCII text in {s:?}")));
    }
    if let Some(n) = s.strip_prefix("N+") {
        g.headers.push(("先手".into(), n.into()));
        return Ok(());
    }
    if let Some(n) = s.strip_prefix("N-") {
        g.headers.push(("後手".into(), n.into()));
        return Ok(());
    }
    if s.starts_with('$') {
        let (k, v) = s
            .split_once(':')
            .ok_or_else(|| cerr(ln, format!("bad field {s:?}")))?;
        let key = HEADER_MAP
            .iter()
            .find(|(c, _)| *c == k)
            .map_or(k.to_string(), |(_, j)| j.to_string());
        g.headers.push((key, v.to_string()));
        return Ok(());
    }
    if let Some(rest) = s.strip_prefix("PI") {
        let mut setup = parse_setup(super::sfen::STARTPOS).expect("startpos");
        let b = rest.as_bytes();
        if b.len() % 4 != 0 {
            return Err(cerr(ln, format!("bad PI removals {rest:?}")));
        }
        for ch in rest.as_bytes().chunks(4) {
            let t = std::str::from_utf8(ch).map_err(|_| cerr(ln, "bad PI"))?;
            let sq = csa_square(&t[..2])
                .flatten()
                .ok_or_else(|| cerr(ln, format!("bad square in PI {t:?}")))?;
            let kind =
                kind_of(&t[2..]).ok_or_else(|| cerr(ln, format!("bad piece in PI {t:?}")))?;
            if setup.board[sq.index()].map(|p| p.kind) != Some(kind) {
                return Err(cerr(
                    ln,
                    format!("PI removes {t:?} but that square does not hold it"),
                ));
            }
            setup.board[sq.index()] = None;
        }
        g.setup = Some(setup);
        return Ok(());
    }
    let bytes = s.as_bytes();
    if bytes[0] == b'P' && bytes.len() >= 2 && (b'1'..=b'9').contains(&bytes[1]) {
        let rank = bytes[1] - b'0';
        // Trailing blanks of the last " * " may have been trimmed.
        let row = format!("{:<27}", &s[2..]);
        let row = row.as_str();
        let setup = g.setup.get_or_insert_with(Setup::default);
        let cells: Vec<&str> = (0..9)
            .map(|i| row.get(i * 3..i * 3 + 3).unwrap_or(""))
            .collect();
        if row.len() < 27 {
            return Err(cerr(
                ln,
                format!("row P{rank} is shorter than nine squares"),
            ));
        }
        for (i, cell) in cells.iter().enumerate() {
            let sq = Square::new(9 - i as u8, rank).expect("in range");
            setup.board[sq.index()] = if *cell == " * " {
                None
            } else {
                let c = color_of(cell.chars().next().unwrap_or(' '))
                    .ok_or_else(|| cerr(ln, format!("bad square {cell:?}")))?;
                let k =
                    kind_of(&cell[1..]).ok_or_else(|| cerr(ln, format!("bad piece {cell:?}")))?;
                Some(Piece::new(c, k))
            };
        }
        g.rows_seen |= 1 << rank;
        return Ok(());
    }
    if (s.starts_with("P+") || s.starts_with("P-")) && g.pos.is_none() {
        let c = color_of(s.as_bytes()[1] as char).expect("checked");
        let setup = g.setup.get_or_insert_with(Setup::default);
        let rest = &s[2..];
        if rest.len() % 4 != 0 {
            return Err(cerr(ln, format!("bad placement {s:?}")));
        }
        for i in (0..rest.len()).step_by(4) {
            let t = rest
                .get(i..i + 4)
                .ok_or_else(|| cerr(ln, "bad placement"))?;
            let sq = csa_square(&t[..2]).ok_or_else(|| cerr(ln, format!("bad square {t:?}")))?;
            if &t[2..] == "AL" {
                if sq.is_some() {
                    return Err(cerr(ln, "AL must be given as 00AL"));
                }
                g.rest_to = Some(c);
                continue;
            }
            let k = kind_of(&t[2..]).ok_or_else(|| cerr(ln, format!("bad piece {t:?}")))?;
            match sq {
                Some(sq) => setup.board[sq.index()] = Some(Piece::new(c, k)),
                None => {
                    if !k.is_hand_kind() {
                        return Err(cerr(ln, format!("{t:?} cannot be in hand")));
                    }
                    setup.hands[c] = setup.hands[c].add(k);
                }
            }
        }
        return Ok(());
    }
    if s == "+" || s == "-" {
        if g.pos.is_some() {
            return Err(cerr(ln, "side to move after the moves began"));
        }
        g.side = color_of(s.as_bytes()[0] as char);
        return ensure_position(g, ln);
    }
    if let Some(t) = s.strip_prefix('T') {
        let secs: f64 = t.parse().map_err(|_| cerr(ln, format!("bad time {s:?}")))?;
        if !(0.0..1e9).contains(&secs) {
            return Err(cerr(ln, format!("bad time {s:?}")));
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
        return Ok(());
    }
    if let Some(cmd) = s.strip_prefix('%') {
        ensure_position(g, ln)?;
        let fouler = cmd.chars().next().and_then(color_of);
        let side = g.pos.as_ref().expect("ensured").side_to_move();
        let word = match cmd.trim_start_matches(['+', '-']) {
            "ILLEGAL_ACTION" if fouler == Some(side) => EndWord::IllegalLoss,
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
            "ERROR" => EndWord::Interrupt,
            _ => return Err(cerr(ln, format!("unknown end command {s:?}"))),
        };
        if g.end.is_some() {
            return Err(cerr(ln, format!("second end command {s:?}")));
        }
        g.end = Some(Ending { word, time: None });
        return Ok(());
    }
    if s.starts_with('+') || s.starts_with('-') {
        ensure_position(g, ln)?;
        let number = g.moves.len() as u32 + 1;
        if g.end.is_some() {
            return Err(RecordError {
                line: ln,
                kind: RecordErrorKind::MoveAfterEnd(s.into()),
            });
        }
        let pos = g.pos.as_mut().expect("ensured");
        let bad = |why: &str| cerr(ln, format!("move {number} {s:?}: {why}"));
        if s.len() != 7 || !s.is_ascii() {
            return Err(bad("not of the form +7776FU"));
        }
        let c = color_of(s.as_bytes()[0] as char).expect("checked");
        if c != pos.side_to_move() {
            return Err(bad("wrong side"));
        }
        let from = csa_square(&s[1..3]).ok_or_else(|| bad("bad origin"))?;
        let to = csa_square(&s[3..5])
            .flatten()
            .ok_or_else(|| bad("bad destination"))?;
        let k = kind_of(&s[5..7]).ok_or_else(|| bad("bad piece"))?;
        let mv = match from {
            None => Move::Drop { kind: k, to },
            Some(from) => {
                let on = pos
                    .piece_at(from)
                    .ok_or_else(|| bad("no piece on the origin"))?;
                let promote = if on.kind == k {
                    false
                } else if on.kind.promote() == Some(k) {
                    true
                } else {
                    return Err(bad("the piece does not match the origin"));
                };
                Move::Normal { from, to, promote }
            }
        };
        if !pos.is_legal(mv) {
            return Err(bad("illegal"));
        }
        pos.play_unchecked(mv);
        g.moves.push(RecordMove::new(mv));
        return Ok(());
    }
    Err(cerr(ln, format!("unrecognised line {s:?}")))
}

fn finish(mut g: GameB, ln: usize) -> Result<Record, RecordError> {
    ensure_position(&mut g, ln)?;
    Ok(Record {
        headers: g.headers,
        start: g.start.expect("ensured"),
        first_move_number: 1,
        header_comments: Vec::new(),
        start_comments: g.start_comments,
        main: Line {
            moves: g.moves,
            end: g.end,
            summary: None,
        },
        trailer: Vec::new(),
    })
}

/// Writes one record as CSA V2.2 (main line only: CSA has no branches).
pub fn write_csa(rec: &Record) -> String {
    let mut out = String::from("V2.2\n");
    for (k, v) in &rec.headers {
        match k.as_str() {
            "先手" | "下手" => out.push_str(&format!("N+{v}\n")),
            "後手" | "上手" => out.push_str(&format!("N-{v}\n")),
            _ => {
                if let Some((c, _)) = HEADER_MAP.iter().find(|(_, j)| j == k) {
                    out.push_str(&format!("{c}:{v}\n"));
                } else if k.starts_with('$') {
                    out.push_str(&format!("{k}:{v}\n"));
                }
            }
        }
    }
    let s = rec.start.to_setup();
    if handicap_name(&rec.start) == Some("平手") {
        out.push_str("PI\n");
    } else {
        for rank in 1..=9u8 {
            out.push_str(&format!("P{rank}"));
            for file in (1..=9u8).rev() {
                match s.board[Square::new(file, rank).expect("in range").index()] {
                    None => out.push_str(" * "),
                    Some(p) => {
                        out.push(sign(p.color));
                        out.push_str(code_of(p.kind));
                    }
                }
            }
            out.push('\n');
        }
        for c in Color::ALL {
            let h = s.hands[c];
            if !h.is_empty() {
                out.push('P');
                out.push(sign(c));
                for (k, n) in h.iter() {
                    for _ in 0..n {
                        out.push_str("00");
                        out.push_str(code_of(k));
                    }
                }
                out.push('\n');
            }
        }
    }
    out.push(sign(s.side_to_move));
    out.push('\n');
    for c in &rec.start_comments {
        out.push_str(&format!("'*{c}\n"));
    }
    let mut pos = rec.start.clone();
    for rm in &rec.main.moves {
        let us = pos.side_to_move();
        let text = match rm.mv {
            Move::Normal { from, to, promote } => {
                let k = pos
                    .piece_at(from)
                    .map(|p| p.kind)
                    .unwrap_or(PieceKind::Pawn);
                let k = if promote { k.promote().unwrap_or(k) } else { k };
                format!(
                    "{}{}{}{}{}{}",
                    sign(us),
                    from.file(),
                    from.rank(),
                    to.file(),
                    to.rank(),
                    code_of(k)
                )
            }
            Move::Drop { kind, to } => {
                format!("{}00{}{}{}", sign(us), to.file(), to.rank(), code_of(kind))
            }
        };
        out.push_str(&text);
        out.push('\n');
        if let Some(t) = &rm.time {
            out.push_str(&format!("T{}\n", t.this));
        }
        for c in &rm.comments {
            out.push_str(&format!("'*{c}\n"));
        }
        pos.play_unchecked(rm.mv);
    }
    if let Some(e) = &rec.main.end {
        if let Some(cmd) = e.word.csa() {
            if e.word == EndWord::IllegalWin {
                // The side to move won because the other side fouled.
                out.push_str(&format!("%{}{cmd}\n", sign(!pos.side_to_move())));
            } else {
                out.push_str(&format!("%{cmd}\n"));
            }
            if let Some(t) = &e.time {
                out.push_str(&format!("T{}\n", t.this));
            }
        }
    }
    out
}

/// Writes several records separated by `/` lines.
pub fn write_csa_games(recs: &[Record]) -> String {
    recs.iter().map(write_csa).collect::<Vec<_>>().join("/\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 15: a file with no game (empty, or only `V2.2`) is refused.
    #[test]
    fn no_game_is_refused() {
        for text in ["", "\n", "V2.2\n", "V2.2\n'a comment\n"] {
            let e = read_csa(text).unwrap_err();
            assert_eq!(e.kind, RecordErrorKind::Empty, "{text:?}");
        }
    }

    /// Issue 15: floodgate writes `'*` comments after `,` on statement lines.
    #[test]
    fn comma_comments_are_read() {
        let text =
            "V2.2\nPI\n+\n+7776FU,T1,'* 30 -3434FU\n-3334FU,T2\n%KACHI,'* -5000 win, really\n";
        let games = read_csa(text).unwrap();
        assert_eq!(games.len(), 1);
        let g = &games[0];
        assert_eq!(g.main.moves.len(), 2);
        assert_eq!(g.main.moves[0].comments, vec![" 30 -3434FU".to_string()]);
        assert_eq!(
            g.main.moves[1].comments,
            vec![" -5000 win, really".to_string()]
        );
        assert_eq!(g.main.end.map(|e| e.word), Some(EndWord::EnteringKing));
    }
}
