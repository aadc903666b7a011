//! BOD (the 柿木 KIF board diagram), the one text renderer of a board: `impl
//! Display for` [`Picture`] writes it (for ordinary and quantum positions alike,
//! [`crate::render`]); `Display for Position` and for [`Setup`] are their pictures'
//! BOD; KIF writes it for a start position that is no standard handicap, and
//! `shogi-lab show`, `tsume --show`, `place` and `quantum replay` print it.
//!
//! ```text
//! 後手の持駒：なし
//!   ９ ８ ７ ６ ５ ４ ３ ２ １
//! +---------------------------+
//! |v香v桂v銀v金v玉v金v銀v桂v香|一
//! …
//! +---------------------------+
//! 先手の持駒：なし
//! ```
//! Gote's pieces carry a `v`; `後手番` is added when Gote is to move (the KIF
//! reader of `notation::kif` reads all of it back).

use crate::render::{count_kanji, Glyph, HandItem, Picture};
use crate::rules::{Color, Piece, Position, Setup, Square};
use std::fmt;

/// The framed 9×9 grid of a BOD diagram (file numbers, `+---+` borders, rank kanji),
/// each square drawn by `cell` as two characters (` 歩`, `v歩`, ` ・`). Shared by
/// [`write_bod`] and the placement solver's diagrams (which also draw queens).
pub fn write_grid(cell: impl Fn(Square) -> [char; 2]) -> String {
    let mut out = String::from("  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n");
    for (r, name) in "一二三四五六七八九".chars().enumerate() {
        out.push('|');
        for file in (1..=9u8).rev() {
            let [a, b] = cell(Square::new(file, r as u8 + 1).expect("in range"));
            out.push(a);
            out.push(b);
        }
        out.push('|');
        out.push(name);
        out.push('\n');
    }
    out.push_str("+---------------------------+\n");
    out
}

/// The two characters of a BOD square: ` ・`, ` 歩` (Sente) or `v歩` (Gote).
pub fn bod_cell(piece: Option<Piece>) -> [char; 2] {
    match piece {
        None => [' ', '・'],
        Some(p) => [
            if p.color == Color::Gote { 'v' } else { ' ' },
            p.kind.kanji(),
        ],
    }
}

/// The two characters of a [`Glyph`]: ` 歩` (Sente) or `v歩` (Gote).
fn glyph_cell(g: Option<&Glyph>) -> [char; 2] {
    match g {
        None => [' ', '・'],
        Some(g) => [if g.owner == Color::Gote { 'v' } else { ' ' }, g.label],
    }
}

/// A hand as BOD writes it: `飛　角　歩三　` (each item, its count in kanji if more
/// than one, followed by a full-width space), `なし` when empty.
fn write_hand_items(items: &[HandItem]) -> String {
    if items.is_empty() {
        return "なし".to_string();
    }
    items
        .iter()
        .map(|h| {
            let n = if h.count > 1 {
                count_kanji(h.count)
            } else {
                String::new()
            };
            format!("{}{n}　", h.label)
        })
        .collect()
}

impl fmt::Display for Picture {
    /// The BOD diagram (lines end with `\n`): Gote's hand, the grid, Sente's hand, and
    /// `後手番` when Gote is to move.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "後手の持駒：{}", write_hand_items(&self.hands.gote))?;
        f.write_str(&write_grid(|sq| {
            glyph_cell(self.board[sq.index()].as_ref())
        }))?;
        writeln!(f, "先手の持駒：{}", write_hand_items(&self.hands.sente))?;
        if self.side_to_move == Color::Gote {
            writeln!(f, "後手番")?;
        }
        Ok(())
    }
}

/// The BOD diagram of `setup` (lines end with `\n`): its [`Picture`]'s BOD.
pub fn write_bod(setup: &Setup) -> String {
    Picture::from_setup(setup, None).to_string()
}

impl fmt::Display for Setup {
    /// The BOD diagram ([`write_bod`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&write_bod(self))
    }
}

impl fmt::Display for Position {
    /// The BOD diagram ([`write_bod`]).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Picture::from_setup(&self.to_setup(), None).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use crate::notation::kif::read_kif;
    use crate::rules::Position;

    #[test]
    fn the_diagram_reads_back() {
        for sfen in [
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
        ] {
            let pos =
                crate::notation::sfen::parse_position(sfen, crate::rules::Rules::STANDARD).unwrap();
            let rec = read_kif(&pos.to_string()).unwrap();
            assert_eq!(rec.start, pos);
            assert!(Position::startpos()
                .to_string()
                .contains("|v香v桂v銀v金v玉v金v銀v桂v香|一"));
        }
    }
}
