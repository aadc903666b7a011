//! 柿木 KIF and KI2 records, read and written
//! (format: 柿木義一「KIF形式棋譜ファイル」, kakinoki.o.oo7.jp/kif_format.html).
//!
//! Reading accepts both formats in one grammar, line by line (decode bytes
//! first with [`decode`](super::record::decode): UTF-8 with or without BOM, or
//! Shift_JIS):
//! - `#…` file comments; `key：value` headers before the first move (手合割
//!   with every standard handicap gives the initial position, 先手/後手 are
//!   kept as headers; 下手/上手 are aliases);
//! - a BOD board diagram (`後手の持駒：…`, the file header `９ ８ …`, `+---+`,
//!   nine `|…|一` rows with `v` for Gote, `先手の持駒：…`, `後手番`/`先手番`,
//!   `手数＝N`), hands in kanji numerals, `なし`, and `残りの駒全部`/`残り全部`
//!   (all pieces not on the board or in the other hand);
//! - KIF move lines `N move [( m:ss/h:mm:ss)] [+]` where the move is Japanese
//!   text with its origin `(77)` or an end word; KI2 lines of one or more
//!   marked moves `▲７六歩 △３四歩 …`;
//! - `*` comments and `&` しおり after a move (or before the first);
//!   `変化：N手` starting a branch that replaces move N of the nearest enclosing
//!   line containing it (Kifu for Windows order); `まで…` summaries.
//!
//! Every move is parsed to a [`JapaneseMove`](super::japanese::JapaneseMove)
//! and then resolved against the position; a malformed, illegal or ambiguous
//! move is an error with its move number and line. Nothing is skipped.

use super::japanese::{self, ki2_move, kif_move_unmarked, mark_color, piece_prefix};
use super::record::{
    EndWord, Ending, Line, MoveTime, Record, RecordError, RecordErrorKind, RecordMove,
};
use crate::notation::sfen::parse_setup;
use crate::rules::{ByColor, Color, Hand, Piece, PieceKind, Position, Rules, Setup, Square};

/// The standard handicaps (手合割) and their initial positions (上手 = Gote moves first).
pub const HANDICAPS: [(&str, &str); 18] = [
    (
        "平手",
        "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    ),
    (
        "香落ち",
        "lnsgkgsn1/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "右香落ち",
        "1nsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "角落ち",
        "lnsgkgsnl/1r7/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛車落ち",
        "lnsgkgsnl/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "飛香落ち",
        "lnsgkgsn1/7b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "二枚落ち",
        "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "三枚落ち",
        "lnsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "四枚落ち",
        "1nsgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "五枚落ち",
        "2sgkgsn1/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左五枚落ち",
        "1nsgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "六枚落ち",
        "2sgkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "左七枚落ち",
        "2sgkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "右七枚落ち",
        "3gkgs2/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "八枚落ち",
        "3gkg3/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    (
        "十枚落ち",
        "4k4/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1",
    ),
    ("歩三兵", "4k4/9/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w 3p 1"),
    ("裸玉", "4k4/9/9/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1"),
];

fn err(line: usize, kind: RecordErrorKind) -> RecordError {
    RecordError { line, kind }
}

/// A kanji or full-width/ASCII number 0–99 (`十七`, `１８`, `3`).
fn kanji_number(s: &str) -> Option<u32> {
    let s = s.trim();
    if s.is_empty() {
        return None;
    }
    if let Ok(n) = s.parse::<u32>() {
        return Some(n);
    }
    let digit = |c: char| -> Option<u32> {
        "〇一二三四五六七八九"
            .chars()
            .position(|d| d == c)
            .or_else(|| "０１２３４５６７８９".chars().position(|d| d == c))
            .map(|i| i as u32)
    };
    let cs: Vec<char> = s.chars().collect();
    match cs.as_slice() {
        ['十'] => Some(10),
        ['十', d] => Some(10 + digit(*d)?),
        [d, '十'] => Some(10 * digit(*d)?),
        [a, '十', b] => Some(10 * digit(*a)? + digit(*b)?),
        _ => cs
            .iter()
            .try_fold(0u32, |acc, &c| Some(acc * 10 + digit(c)?)),
    }
}

/// `hh:mm:ss` or `m:ss` → seconds.
fn clock(s: &str) -> Option<u32> {
    let parts: Vec<&str> = s.trim().split(':').collect();
    if parts.is_empty() || parts.len() > 3 || parts.iter().any(|p| p.trim().is_empty()) {
        return None;
    }
    parts.iter().try_fold(0u32, |acc, p| {
        Some(acc.checked_mul(60)? + p.trim().parse::<u32>().ok()?)
    })
}

/// `( 0:01/00:00:01)` inner text → time.
fn parse_time(s: &str) -> Option<MoveTime> {
    let (a, b) = match s.split_once('/') {
        Some((a, b)) => (a, Some(b)),
        None => (s, None),
    };
    let this = clock(a)?;
    let total = match b {
        Some(b) => Some(clock(b)?),
        None => None,
    };
    Some(MoveTime { this, total })
}

fn write_time(t: &MoveTime) -> String {
    let total = t.total.map_or(String::new(), |s| {
        format!("/{:02}:{:02}:{:02}", s / 3600, s / 60 % 60, s % 60)
    });
    format!("({:>2}:{:02}{total})", t.this / 60, t.this % 60)
}

/// Parses a hand field (`銀二　歩三`, `なし`); `None` for "all remaining".
fn parse_hand(s: &str) -> Result<Option<Hand>, ()> {
    let s = s.trim();
    if s.is_empty() || s == "なし" {
        return Ok(Some(Hand::EMPTY));
    }
    if s.contains("残り") {
        return Ok(None);
    }
    let mut h = Hand::EMPTY;
    for item in s
        .split(|c: char| c.is_whitespace() || c == '、' || c == ',')
        .filter(|t| !t.is_empty())
    {
        let (kind, n) = piece_prefix(item).ok_or(())?;
        if !kind.is_hand_kind() {
            return Err(());
        }
        let rest = &item[n..];
        let count = if rest.is_empty() {
            1
        } else {
            kanji_number(rest).ok_or(())?
        };
        if count == 0 || count > 18 || h.count(kind) != 0 {
            return Err(());
        }
        h = h.with_count(kind, count as u8);
    }
    Ok(Some(h))
}

/// One BOD row `| ・v玉 …|一` → nine pieces from file 9 to 1.
fn parse_bod_row(line: &str) -> Option<(u8, [Option<Piece>; 9])> {
    let inner = line.strip_prefix('|')?;
    let close = inner.rfind('|')?;
    let rank = japanese_rank(inner[close + 1..].trim())?;
    let cells: Vec<char> = inner[..close].chars().collect();
    let mut out = [None; 9];
    let mut i = 0;
    let mut file = 0;
    while i < cells.len() {
        if file >= 9 {
            return if cells[i..].iter().all(|c| c.is_whitespace()) {
                Some((rank, out))
            } else {
                None
            };
        }
        let (color, c, step) = match cells[i] {
            'v' | 'V' => (Color::Gote, *cells.get(i + 1)?, 2),
            ' ' | '^' | '+' => (Color::Sente, *cells.get(i + 1)?, 2),
            // A diagram without the leading space before Sente's pieces.
            c => (Color::Sente, c, 1),
        };
        i += step;
        if c == '・' {
            file += 1;
            continue;
        }
        let mut buf = [0u8; 4];
        let (kind, _) = piece_prefix(c.encode_utf8(&mut buf))?;
        out[file] = Some(Piece::new(color, kind));
        file += 1;
    }
    (file == 9).then_some((rank, out))
}

fn japanese_rank(s: &str) -> Option<u8> {
    let mut cs = s.chars();
    let c = cs.next()?;
    if cs.next().is_some() {
        return None;
    }
    "一二三四五六七八九"
        .chars()
        .position(|d| d == c)
        .map(|i| i as u8 + 1)
}

fn handicap_setup(name: &str) -> Option<Setup> {
    let name = name.trim();
    let name = if name == "平手" || name.is_empty() {
        "平手"
    } else {
        name
    };
    HANDICAPS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, s)| parse_setup(s).expect("built-in handicap SFEN"))
}

/// The handicap name whose position this is (for writing 手合割).
pub fn handicap_name(pos: &Position) -> Option<&'static str> {
    let setup = pos.to_setup();
    HANDICAPS.iter().find_map(|(n, s)| {
        let mut h = parse_setup(s).expect("built-in handicap SFEN");
        h.move_number = setup.move_number;
        (h == setup).then_some(*n)
    })
}

/// The position for a setup: tsume rules when the side to move has no king.
pub(crate) fn position_from_setup(setup: Setup) -> Result<Position, RecordErrorKind> {
    let has_king = setup
        .board
        .iter()
        .flatten()
        .any(|p| p.kind == PieceKind::King && p.color == setup.side_to_move);
    let rules = if has_king {
        Rules::STANDARD
    } else {
        Rules::TSUME
    };
    Position::from_setup(setup, rules).map_err(RecordErrorKind::Position)
}

/// Gives `color` every piece not on the board or in the other hand (kings excluded).
fn rest_of_pieces(setup: &Setup, other: Hand) -> Hand {
    let mut h = Hand::EMPTY;
    for k in PieceKind::HAND {
        let on_board = setup
            .board
            .iter()
            .flatten()
            .filter(|p| p.kind.unpromote() == k)
            .count() as u8;
        let used = on_board + other.count(k);
        h = h.with_count(k, k.max_count().saturating_sub(used));
    }
    h
}

struct LineB {
    parent: Option<(usize, usize)>,
    first_number: u32,
    start: Position,
    start_prev: Option<Square>,
    moves: Vec<RecordMove>,
    end: Option<Ending>,
    summary: Option<String>,
    pos: Position,
    prev: Option<Square>,
}

impl LineB {
    fn next_number(&self) -> u32 {
        self.first_number + self.moves.len() as u32
    }
}

/// Reads a KIF or KI2 record from decoded text.
///
/// # Errors
/// [`RecordError`] with the 1-based line number: an unknown 手合割, a bad
/// board diagram or hand, an illegal initial position, a move number out of
/// sequence, a malformed/illegal/ambiguous move, a bad time, a move after an
/// end word, a 変化 that attaches nowhere, or an unrecognised line.
pub fn read_kif(text: &str) -> Result<Record, RecordError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut headers: Vec<(String, String)> = Vec::new();
    let mut trailer = Vec::new();
    let mut header_comments = Vec::new();
    let mut start_summary: Option<String> = None;
    let mut start_comments = Vec::new();
    let mut handicap: Option<(usize, String)> = None;
    let mut board: Option<[Option<Piece>; 81]> = None;
    let mut rows_seen = [false; 9];
    let mut hands: ByColor<Option<Option<Hand>>> = ByColor::default();
    let mut side: Option<Color> = None;
    let mut diagram_moves: Option<u32> = None;
    let mut lines: Vec<LineB> = Vec::new();
    let mut cur = 0usize;
    let mut children: Vec<(usize, usize, usize)> = Vec::new();
    // The `まで…` summary closes the current line: only a 変化 may follow it.
    let mut summary_seen: Option<String> = None;
    let mut content_seen = false;

    for (idx, raw) in text.lines().enumerate() {
        let ln = idx + 1;
        let line = raw.trim_end_matches(['\r', '\n']);
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        if let Some(c) = t.strip_prefix('#') {
            // Before any header or move: a file header (`#KIF version=2.0 …`), kept in front.
            if content_seen {
                trailer.push(format!("#{c}"));
            } else {
                header_comments.push(format!("#{c}"));
            }
            continue;
        }
        content_seen = true;
        if t.starts_with("まで") {
            match lines.get_mut(cur) {
                Some(l) => l.summary = Some(t.to_string()),
                None => start_summary = Some(t.to_string()),
            }
            summary_seen = Some(t.to_string());
            continue;
        }
        if let Some(c) = line.strip_prefix('*') {
            match lines.get_mut(cur).and_then(|l| l.moves.last_mut()) {
                Some(m) => m.comments.push(c.to_string()),
                None => start_comments.push(c.to_string()),
            }
            continue;
        }
        if let Some(c) = line.strip_prefix('&') {
            if let Some(m) = lines.get_mut(cur).and_then(|l| l.moves.last_mut()) {
                m.bookmark = Some(c.to_string());
            } else {
                start_comments.push(format!("&{c}"));
            }
            continue;
        }
        if t.starts_with("手数----") || t.starts_with("手数－－") {
            continue;
        }
        // 変化：N手
        if let Some(r) = t
            .strip_prefix("変化")
            .map(|r| r.trim_start_matches(['：', ':']))
        {
            let n = r.trim_end_matches('手').trim();
            let n =
                kanji_number(n).ok_or_else(|| err(ln, RecordErrorKind::UnknownLine(t.into())))?;
            if lines.is_empty() {
                return Err(err(ln, RecordErrorKind::BadVariation(n)));
            }
            // Walk up from the current line to the nearest line holding move n
            // (a line whose own first move is n branches from its parent instead).
            let mut l = cur;
            let (pl, k) = loop {
                let lb = &lines[l];
                let contains = n >= lb.first_number && n < lb.next_number();
                if contains && (n > lb.first_number || lb.parent.is_none()) {
                    break (l, (n - lb.first_number) as usize);
                }
                match lb.parent {
                    Some((p, _)) => l = p,
                    None => return Err(err(ln, RecordErrorKind::BadVariation(n))),
                }
            };
            let p = &lines[pl];
            let mut start = p.start.clone();
            for m in &p.moves[..k] {
                start.play_unchecked(m.mv);
            }
            let start_prev = if k > 0 {
                Some(p.moves[k - 1].mv.to())
            } else {
                p.start_prev
            };
            lines.push(LineB {
                parent: Some((pl, k)),
                first_number: n,
                pos: start.clone(),
                start,
                start_prev,
                prev: start_prev,
                moves: Vec::new(),
                end: None,
                summary: None,
            });
            cur = lines.len() - 1;
            children.push((pl, k, cur));
            summary_seen = None;
            continue;
        }
        let first_char = t.chars().next().unwrap_or(' ');
        let is_kif_move = first_char.is_ascii_digit() && {
            let rest = t.trim_start_matches(|c: char| c.is_ascii_digit());
            rest.starts_with(char::is_whitespace)
        };
        let is_ki2_move = mark_color(first_char).is_some();
        if let (true, Some(summary)) = (is_kif_move || is_ki2_move, &summary_seen) {
            return Err(err(
                ln,
                RecordErrorKind::MoveAfterEnd(format!("{t} after {summary}")),
            ));
        }
        if (is_kif_move || is_ki2_move) && lines.is_empty() {
            // The header part ends: build the initial position.
            let start = initial_position(ln, handicap.take(), board, rows_seen, hands, side)?;
            let first_number = diagram_moves.map_or(1, |n| n + 1);
            lines.push(LineB {
                parent: None,
                first_number,
                pos: start.clone(),
                start,
                start_prev: None,
                moves: Vec::new(),
                end: None,
                summary: None,
                prev: None,
            });
            cur = 0;
        }
        if is_kif_move {
            read_kif_move_line(&mut lines[cur], ln, t)?;
            continue;
        }
        if is_ki2_move {
            read_ki2_line(&mut lines[cur], ln, t)?;
            continue;
        }
        if !lines.is_empty() {
            // A KI2 end word line (`投了`) or something unknown.
            if let Some(w) = EndWord::from_kif(t) {
                let l = &mut lines[cur];
                if l.end.is_some() {
                    return Err(err(ln, RecordErrorKind::MoveAfterEnd(t.into())));
                }
                l.end = Some(Ending {
                    word: w,
                    time: None,
                });
                continue;
            }
            return Err(err(ln, RecordErrorKind::UnknownLine(t.into())));
        }
        // Header part: BOD or key：value.
        if line.starts_with('|') {
            let (rank, row) =
                parse_bod_row(line).ok_or_else(|| err(ln, RecordErrorKind::BadBoard(t.into())))?;
            let b = board.get_or_insert([None; 81]);
            for (i, pc) in row.iter().enumerate() {
                let sq = Square::new(9 - i as u8, rank).expect("file/rank in range");
                b[sq.index()] = *pc;
            }
            rows_seen[rank as usize - 1] = true;
            continue;
        }
        if t.starts_with('+') && t.trim_matches(['+', '-']).is_empty() {
            continue;
        }
        if t.chars().all(|c| "１２３４５６７８９ 　".contains(c)) {
            continue;
        }
        match t {
            "先手番" | "下手番" => {
                side = Some(Color::Sente);
                continue;
            }
            "後手番" | "上手番" => {
                side = Some(Color::Gote);
                continue;
            }
            _ => {}
        }
        if let Some(n) = t.strip_prefix("手数＝").or_else(|| t.strip_prefix("手数=")) {
            diagram_moves = Some(
                kanji_number(n).ok_or_else(|| err(ln, RecordErrorKind::UnknownLine(t.into())))?,
            );
            continue;
        }
        if let Some((k, v)) = t
            .split_once('：')
            .or_else(|| t.split_once(':'))
            .filter(|(k, _)| is_header_key(k.trim()))
        {
            let (k, v) = (k.trim(), v.trim());
            let hand_of = match k {
                "先手の持駒" | "下手の持駒" => Some(Color::Sente),
                "後手の持駒" | "上手の持駒" => Some(Color::Gote),
                _ => None,
            };
            if let Some(c) = hand_of {
                let h = parse_hand(v).map_err(|_| err(ln, RecordErrorKind::BadHand(v.into())))?;
                hands[c] = Some(h);
                continue;
            }
            if k == "手合割" {
                // Part of the initial position, not a free header.
                handicap = Some((ln, v.to_string()));
                continue;
            }
            headers.push((k.to_string(), v.to_string()));
            continue;
        }
        return Err(err(ln, RecordErrorKind::UnknownLine(t.into())));
    }
    if !content_seen {
        return Err(err(text.lines().count().max(1), RecordErrorKind::Empty));
    }
    if lines.is_empty() {
        let ln = text.lines().count();
        let start = initial_position(ln, handicap, board, rows_seen, hands, side)?;
        let first_number = diagram_moves.map_or(1, |n| n + 1);
        lines.push(LineB {
            parent: None,
            first_number,
            pos: start.clone(),
            start,
            start_prev: None,
            moves: Vec::new(),
            end: None,
            summary: start_summary.take(),
            prev: None,
        });
    }
    // Assemble the tree.
    let mut built: Vec<Option<Line>> = lines.iter().map(|_| None).collect();
    let mut moves_of: Vec<Vec<RecordMove>> = Vec::with_capacity(lines.len());
    let mut ends = Vec::with_capacity(lines.len());
    let mut summaries = Vec::with_capacity(lines.len());
    let mut start = None;
    let mut first_move_number = 1;
    for (i, l) in lines.into_iter().enumerate() {
        if i == 0 {
            start = Some(l.start);
            first_move_number = l.first_number;
        }
        moves_of.push(l.moves);
        ends.push(l.end);
        summaries.push(l.summary);
    }
    for i in (0..moves_of.len()).rev() {
        // Children are created after their parents, so every child of i is built.
        let mut moves = std::mem::take(&mut moves_of[i]);
        for &(p, k, c) in &children {
            if p == i {
                if let Some(child) = built[c].take() {
                    moves[k].variations.push(child);
                }
            }
        }
        built[i] = Some(Line {
            moves,
            end: ends[i],
            summary: summaries[i].take(),
        });
    }
    Ok(Record {
        headers,
        start: start.expect("a main line exists"),
        first_move_number,
        header_comments,
        start_comments,
        main: built[0].take().expect("main line built"),
        trailer,
    })
}

/// A `key：value` header key: a nonempty word (Kifu for Windows keys such as
/// 開始日時, 先手, 手合割 hold no spaces, brackets or move text). A line whose
/// "key" fails this — e.g. a move with a `0:01` clock — is not a header.
fn is_header_key(k: &str) -> bool {
    !k.is_empty()
        && !k.starts_with(|c: char| c.is_ascii_digit())
        && !k.contains(|c: char| c.is_whitespace() || "(){}（）[]<>".contains(c))
}

fn initial_position(
    ln: usize,
    handicap: Option<(usize, String)>,
    board: Option<[Option<Piece>; 81]>,
    rows_seen: [bool; 9],
    hands: ByColor<Option<Option<Hand>>>,
    side: Option<Color>,
) -> Result<Position, RecordError> {
    let mut setup = match board {
        Some(b) => {
            if rows_seen.iter().any(|s| !s) {
                return Err(err(
                    ln,
                    RecordErrorKind::BadBoard("the diagram does not have nine rows".into()),
                ));
            }
            Setup {
                board: b,
                hands: ByColor::default(),
                side_to_move: side.unwrap_or(Color::Sente),
                move_number: 1,
            }
        }
        None => {
            let (hl, name) = handicap.clone().unwrap_or((ln, "平手".into()));
            let mut s = handicap_setup(&name)
                .ok_or_else(|| err(hl, RecordErrorKind::UnknownHandicap(name)))?;
            if let Some(c) = side {
                s.side_to_move = c;
            }
            s
        }
    };
    let sente = hands.sente.unwrap_or(Some(Hand::EMPTY));
    let gote = hands.gote.unwrap_or(Some(Hand::EMPTY));
    match (sente, gote) {
        (Some(s), Some(g)) => setup.hands = ByColor { sente: s, gote: g },
        (Some(s), None) => {
            setup.hands = ByColor {
                sente: s,
                gote: rest_of_pieces(&setup, s),
            }
        }
        (None, Some(g)) => {
            setup.hands = ByColor {
                sente: rest_of_pieces(&setup, g),
                gote: g,
            }
        }
        (None, None) => {
            return Err(err(
                ln,
                RecordErrorKind::BadHand("both hands are 残り全部".into()),
            ))
        }
    }
    position_from_setup(setup).map_err(|k| err(ln, k))
}

fn play(
    l: &mut LineB,
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

fn read_kif_move_line(l: &mut LineB, ln: usize, t: &str) -> Result<(), RecordError> {
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
    let mut rest = t[digits..].trim_start();
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
    if let Some(w) = EndWord::from_kif(token) {
        if l.end.is_some() {
            return Err(err(ln, RecordErrorKind::MoveAfterEnd(token.into())));
        }
        l.end = Some(Ending { word: w, time });
        return Ok(());
    }
    play(l, ln, number, token, time)
}

fn read_ki2_line(l: &mut LineB, ln: usize, t: &str) -> Result<(), RecordError> {
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

// ---------------------------------------------------------------- writing

/// Which text to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    /// KIF: numbered move lines with origins and times.
    Kif,
    /// KI2: marked moves with 連盟 disambiguation, six a line.
    Ki2,
}

/// Writes a record as KIF or KI2 (UTF-8 text; encode with
/// [`encode_shift_jis`](super::record::encode_shift_jis) for `.kif`).
/// The initial position is written as `手合割` when it is a standard one,
/// otherwise as a BOD diagram.
pub fn write_kif(rec: &Record, flavor: Flavor) -> String {
    let mut out = String::new();
    for c in &rec.header_comments {
        out.push_str(c);
        out.push('\n');
    }
    for (k, v) in &rec.headers {
        if k != "手合割" {
            out.push_str(&format!("{k}：{v}\n"));
        }
    }
    match handicap_name(&rec.start) {
        Some(name) => out.push_str(&format!("手合割：{name}\n")),
        None => {
            out.push_str(&super::bod::write_bod(&rec.start.to_setup()));
            if rec.first_move_number != 1 {
                out.push_str(&format!("手数＝{}\n", rec.first_move_number - 1));
            }
        }
    }
    for c in &rec.start_comments {
        match c.strip_prefix('&') {
            Some(b) => out.push_str(&format!("&{b}\n")),
            None => out.push_str(&format!("*{c}\n")),
        }
    }
    if flavor == Flavor::Kif {
        out.push_str("手数----指手---------消費時間--\n");
    }
    write_line(
        &mut out,
        &rec.main,
        rec.start.clone(),
        None,
        rec.first_move_number,
        flavor,
    );
    for t in &rec.trailer {
        out.push_str(t);
        out.push('\n');
    }
    out
}

fn write_line(
    out: &mut String,
    line: &Line,
    start: Position,
    start_prev: Option<Square>,
    first: u32,
    flavor: Flavor,
) {
    let mut pos = start.clone();
    let mut prev = start_prev;
    let mut branch_points = Vec::new();
    let mut ki2_buf: Vec<String> = Vec::new();
    let flush = |out: &mut String, buf: &mut Vec<String>| {
        if !buf.is_empty() {
            out.push_str(&buf.join("    "));
            out.push('\n');
            buf.clear();
        }
    };
    for (i, rm) in line.moves.iter().enumerate() {
        let number = first + i as u32;
        match flavor {
            Flavor::Kif => {
                let mut l = format!("{number:>4} {}", kif_move_unmarked(&pos, rm.mv, prev));
                if let Some(t) = &rm.time {
                    l.push_str("   ");
                    l.push_str(&write_time(t));
                }
                if !rm.variations.is_empty() {
                    l.push_str(" +");
                }
                out.push_str(&l);
                out.push('\n');
            }
            Flavor::Ki2 => {
                ki2_buf.push(ki2_move(&pos, rm.mv, prev));
                if ki2_buf.len() == 6 || !rm.comments.is_empty() || rm.bookmark.is_some() {
                    flush(out, &mut ki2_buf);
                }
            }
        }
        for c in &rm.comments {
            out.push_str(&format!("*{c}\n"));
        }
        if let Some(b) = &rm.bookmark {
            out.push_str(&format!("&{b}\n"));
        }
        if !rm.variations.is_empty() {
            branch_points.push((i, pos.clone(), prev));
        }
        pos.play_unchecked(rm.mv);
        prev = Some(rm.mv.to());
    }
    flush(out, &mut ki2_buf);
    if let Some(e) = &line.end {
        match flavor {
            Flavor::Kif => {
                let mut l = format!("{:>4} {}", first + line.moves.len() as u32, e.word.kif());
                if let Some(t) = &e.time {
                    l.push_str("   ");
                    l.push_str(&write_time(t));
                }
                out.push_str(&l);
                out.push('\n');
            }
            Flavor::Ki2 => {
                out.push_str(e.word.kif());
                out.push('\n');
            }
        }
    }
    if let Some(s) = &line.summary {
        out.push_str(s);
        out.push('\n');
    }
    // Kifu for Windows order: the latest branch point first, so that a reader
    // walking up from the current line finds the right parent.
    for (i, bpos, bprev) in branch_points.into_iter().rev() {
        for var in &line.moves[i].variations {
            let number = first + i as u32;
            out.push_str(&format!("\n変化：{number}手\n"));
            write_line(out, var, bpos.clone(), bprev, number, flavor);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kanji_numbers() {
        assert_eq!(kanji_number("十七"), Some(17));
        assert_eq!(kanji_number("十"), Some(10));
        assert_eq!(kanji_number("二"), Some(2));
        assert_eq!(kanji_number("１８"), Some(18));
        for n in 1..=18u8 {
            assert_eq!(kanji_number(&crate::render::count_kanji(n)), Some(n as u32));
        }
    }

    #[test]
    fn handicap_positions_are_legal_and_named() {
        for (name, sfen) in HANDICAPS {
            let s = parse_setup(sfen).unwrap();
            let p = position_from_setup(s).unwrap();
            assert_eq!(handicap_name(&p), Some(name));
        }
    }

    #[test]
    fn times() {
        assert_eq!(
            parse_time(" 0:01/00:00:01"),
            Some(MoveTime {
                this: 1,
                total: Some(1)
            })
        );
        assert_eq!(
            parse_time("1:30/01:02:03"),
            Some(MoveTime {
                this: 90,
                total: Some(3723)
            })
        );
        assert_eq!(
            write_time(&MoveTime {
                this: 90,
                total: Some(3723)
            }),
            "( 1:30/01:02:03)"
        );
        assert_eq!(parse_time("x"), None);
    }

    /// Issue 15: an empty file (or one holding only comments) is no record.
    #[test]
    fn empty_input_is_refused() {
        for text in ["", "\n\n", "# comment only\n", "\u{feff}"] {
            let e = read_kif(text).unwrap_err();
            assert_eq!(e.kind, RecordErrorKind::Empty, "{text:?}");
        }
        // Headers alone are a record of the start position with no moves.
        let r = read_kif("手合割：平手\n").unwrap();
        assert!(r.main.moves.is_empty());
    }

    /// Issue 15: a line holding `:` inside a move or clock is not a header.
    #[test]
    fn move_like_lines_are_not_headers() {
        let e = read_kif("手合割：平手\n {  1 ７六歩(77)   ( 0:01/00:00:01)\n").unwrap_err();
        assert_eq!(e.line, 2);
        assert!(matches!(e.kind, RecordErrorKind::UnknownLine(_)), "{e}");
        let r = read_kif("開始日時：2024/01/02 10:00:00\n棋戦：test\n").unwrap();
        assert_eq!(r.header("開始日時"), Some("2024/01/02 10:00:00"));
        assert_eq!(r.header("棋戦"), Some("test"));
    }

    /// Issue 15: a file's `#` header comment stays in front and each line's `まで…`
    /// summary stays after that line's moves, in KIF and in KI2.
    #[test]
    fn header_comments_and_summaries_keep_their_place() {
        let kif = "#KIF version=2.0 encoding=UTF-8\n手合割：平手\n手数----指手---------消費時間--\n   1 ７六歩(77)\n   2 ３四歩(33) +\n   3 投了\nまで2手で後手の勝ち\n\n変化：2手\n   2 ８四歩(83)\n   3 投了\nまで2手で後手の勝ち\n#末尾のコメント\n";
        let r = read_kif(kif).unwrap();
        assert_eq!(r.header_comments, ["#KIF version=2.0 encoding=UTF-8"]);
        assert_eq!(r.trailer, ["#末尾のコメント"]);
        assert_eq!(r.main.summary.as_deref(), Some("まで2手で後手の勝ち"));
        assert_eq!(write_kif(&r, Flavor::Kif), kif);
        let ki2 = write_kif(&r, Flavor::Ki2);
        assert_eq!(
            ki2,
            "#KIF version=2.0 encoding=UTF-8\n手合割：平手\n▲７六歩    △３四歩\n投了\nまで2手で後手の勝ち\n\n変化：2手\n△８四歩\n投了\nまで2手で後手の勝ち\n#末尾のコメント\n"
        );
        assert_eq!(
            read_kif(&ki2).unwrap().main.moves[1].variations[0].summary,
            r.main.moves[1].variations[0].summary
        );
    }

    /// Issue 15: `まで…` closes the line; a move after it is refused (KIF and KI2),
    /// while a 変化 after it is read.
    #[test]
    fn moves_after_the_summary_are_refused() {
        let kif = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\nまで2手で後手の勝ち\n   3 ２六歩(27)\n";
        let e = read_kif(kif).unwrap_err();
        assert_eq!(e.line, 5);
        assert!(matches!(e.kind, RecordErrorKind::MoveAfterEnd(_)), "{e}");
        let ki2 = "手合割：平手\n▲７六歩 △３四歩\nまで2手で後手の勝ち\n▲２六歩\n";
        let e = read_kif(ki2).unwrap_err();
        assert_eq!(e.line, 4);
        assert!(matches!(e.kind, RecordErrorKind::MoveAfterEnd(_)), "{e}");
        let branch = "手合割：平手\n   1 ７六歩(77)\n   2 ３四歩(33)\nまで2手で中断\n\n変化：2手\n   2 ８四歩(83)\nまで2手で中断\n";
        let r = read_kif(branch).unwrap();
        assert_eq!(r.main.moves.len(), 2);
        assert_eq!(r.main.moves[1].variations.len(), 1);
    }
}
