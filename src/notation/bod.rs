//! BOD (the 柿木 KIF board diagram), the one text renderer of a board:
//! `impl Display for Position` and for [`Setup`] write it, KIF writes it for a
//! start position that is no standard handicap, and `shogi-lab show` prints it.
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

use super::kif::write_hand;
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

/// The BOD diagram of `setup` (lines end with `\n`).
pub fn write_bod(setup: &Setup) -> String {
    let mut out = format!("後手の持駒：{}\n", write_hand(setup.hands.gote));
    out.push_str(&write_grid(|sq| bod_cell(setup.board[sq.index()])));
    out.push_str(&format!("先手の持駒：{}\n", write_hand(setup.hands.sente)));
    if setup.side_to_move == Color::Gote {
        out.push_str("後手番\n");
    }
    out
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
        f.write_str(&write_bod(&self.to_setup()))
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
