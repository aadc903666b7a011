//! The pieces of a BOD board diagram: a board row and a hand, and the pieces
//! left for a hand written as `残りの駒全部`.

use super::numbers::kanji_number;
use crate::notation::japanese::piece_prefix;
use crate::rules::{Color, Hand, Piece};

/// Parses a hand field (`銀二　歩三`, `なし`); `None` for "all remaining".
pub(super) fn parse_hand(s: &str) -> Result<Option<Hand>, ()> {
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
pub(super) fn parse_bod_row(line: &str) -> Option<(u8, [Option<Piece>; 9])> {
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

/// A rank in kanji (`一`–`九`) → 1–9.
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
