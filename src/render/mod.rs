//! Pictures of positions, one renderer for every board in the toolkit (STYLE 16).
//!
//! A [`Picture`] is what a diagram shows: a glyph per occupied square, the hands,
//! the side to move and the last move. It is built from an ordinary position
//! ([`Picture::from_setup`], [`Picture::from_position`]) or from a quantum shogi
//! position (`QuantumPosition::picture`, whose glyphs also carry the kinds each
//! piece can still be), and drawn two ways by the same code for both:
//! - text: BOD, the 柿木 KIF board diagram — `impl Display for Picture` in
//!   [`crate::notation::bod`] (`Display for Position` is that picture's BOD);
//! - SVG: [`svg::picture_svg`] ([`svg::board_svg`] for a [`Setup`]).
//!
//! ```
//! use shogi_lab::render::Picture;
//! use shogi_lab::rules::Position;
//!
//! let pic = Picture::from_position(&Position::startpos());
//! assert!(pic.to_string().contains("|v香v桂v銀v金v玉v金v銀v桂v香|一"));
//! assert!(shogi_lab::render::svg::picture_svg(&pic).starts_with("<svg"));
//! ```

pub mod svg;

use crate::rules::{ByColor, Color, Move, PieceKind, Position, Setup, Square};

/// What stands on a square.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Glyph {
    /// Whose piece it is now: Gote's carry a `v` in BOD and stand upside down in SVG.
    pub owner: Color,
    /// The one-character label: the piece's kanji (歩 … 龍), or `量`/`成` for a quantum
    /// piece that may still be several kinds.
    pub label: char,
    /// Promoted (drawn in red in SVG).
    pub promoted: bool,
    /// Quantum shogi: the kinds the piece can still be, in kanji (`飛香`), when more than
    /// one; `None` for an ordinary piece. SVG draws them small under the label; BOD has
    /// no room for them.
    pub kinds: Option<String>,
}

/// One entry of a hand: a label and how many of it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandItem {
    /// A kanji (`飛`) or, for quantum pieces, `量`.
    pub label: String,
    /// How many (≥ 1).
    pub count: u8,
}

/// A diagram: what `show`, `tsume --show`, `place` and `quantum replay` draw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    /// The glyph on each square, by [`Square::index`].
    pub board: [Option<Glyph>; 81],
    /// Both hands, items in the order they are written.
    pub hands: ByColor<Vec<HandItem>>,
    /// The side to move (BOD adds `後手番` for Gote).
    pub side_to_move: Color,
    /// The last move's origin (`None` for a drop) and destination, highlighted in SVG.
    pub last_move: Option<(Option<Square>, Square)>,
}

impl Picture {
    /// An empty board, empty hands, Sente to move, no last move.
    pub fn empty() -> Picture {
        Picture {
            board: std::array::from_fn(|_| None),
            hands: ByColor::default(),
            side_to_move: Color::Sente,
            last_move: None,
        }
    }

    /// The picture of `setup`, highlighting `last_move` if given.
    pub fn from_setup(setup: &Setup, last_move: Option<Move>) -> Picture {
        let mut pic = Picture::empty();
        for (i, p) in setup.board.iter().enumerate() {
            pic.board[i] = p.map(|p| Glyph {
                owner: p.color,
                label: p.kind.kanji(),
                promoted: p.kind.is_promoted(),
                kinds: None,
            });
        }
        for c in Color::ALL {
            pic.hands[c] = PieceKind::HAND
                .iter()
                .rev()
                .filter_map(|&k| {
                    let count = setup.hands[c].count(k);
                    (count > 0).then(|| HandItem {
                        label: k.kanji().to_string(),
                        count,
                    })
                })
                .collect();
        }
        pic.side_to_move = setup.side_to_move;
        pic.last_move = last_move.map(|m| (m.from(), m.to()));
        pic
    }

    /// The picture of `pos` with its last move.
    pub fn from_position(pos: &Position) -> Picture {
        Picture::from_setup(&pos.to_setup(), pos.last_move())
    }
}

/// Kanji numerals for counts: 2 → 二, 10 → 十, 18 → 十八 (the BOD and KIF hand counts).
pub fn count_kanji(n: u8) -> String {
    const D: [&str; 10] = ["", "一", "二", "三", "四", "五", "六", "七", "八", "九"];
    match n {
        0..=9 => D[n as usize].to_string(),
        10..=19 => format!("十{}", D[(n - 10) as usize]),
        _ => format!("{}十{}", D[(n / 10) as usize], D[(n % 10) as usize]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_in_kanji() {
        assert_eq!(count_kanji(1), "一");
        assert_eq!(count_kanji(10), "十");
        assert_eq!(count_kanji(18), "十八");
        assert_eq!(count_kanji(20), "二十");
    }

    #[test]
    fn a_setup_picture_keeps_every_piece_and_hand() {
        let pos = crate::notation::sfen::parse_position(
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            crate::rules::Rules::STANDARD,
        )
        .unwrap();
        let pic = Picture::from_position(&pos);
        let setup = pos.to_setup();
        for sq in Square::all() {
            let want = setup.board[sq.index()].map(|p| (p.color, p.kind.kanji()));
            let got = pic.board[sq.index()].as_ref().map(|g| (g.owner, g.label));
            assert_eq!(got, want, "{sq}");
        }
        let items = |c: Color| -> Vec<(String, u8)> {
            pic.hands[c]
                .iter()
                .map(|h| (h.label.clone(), h.count))
                .collect()
        };
        assert_eq!(
            items(Color::Sente),
            vec![("飛".to_string(), 1), ("金".to_string(), 1)]
        );
        assert_eq!(
            items(Color::Gote),
            vec![
                ("金".to_string(), 1),
                ("銀".to_string(), 1),
                ("桂".to_string(), 1),
                ("歩".to_string(), 5)
            ]
        );
        assert_eq!(pic.side_to_move, Color::Gote);
    }
}
