//! An SVG diagram of a position: the 9×9 board with file numbers (９…１) above
//! and rank kanji (一…九) at the right, one kanji per piece (promoted pieces in
//! red), Gote's pieces turned upside down, Gote's hand at the top left and
//! Sente's at the bottom right, the side to move at the top right (`先手番` /
//! `後手番`: nothing else in a picture without a last move tells it), and the
//! last move's squares highlighted
//! (destination strong, origin light). Self-contained: no scripts, no external
//! resources; the kanji need a CJK font (Noto CJK is named first). A quantum
//! piece's remaining kinds are written small under its label.

use super::{count_kanji, HandItem, Picture};
use crate::rules::{Color, Move, Setup, Square};
use std::fmt::Write;

const CELL: u32 = 44;
const BOARD_X: u32 = 70;
const BOARD_Y: u32 = 46;
const WIDTH: u32 = BOARD_X + 9 * CELL + 80;
const HEIGHT: u32 = BOARD_Y + 9 * CELL + 28;
const FONT: &str =
    "'Noto Serif CJK JP','Noto Sans CJK JP','IPAMincho','Hiragino Mincho ProN',serif";

fn cell_origin(sq: Square) -> (u32, u32) {
    (
        BOARD_X + (9 - sq.file() as u32) * CELL,
        BOARD_Y + (sq.rank() as u32 - 1) * CELL,
    )
}

/// The hand as a column of text lines from `(x, y)` downwards: mark, then one line per kind.
fn hand_text(out: &mut String, color: Color, hand: &[HandItem], x: u32, y: u32) {
    let mark = match color {
        Color::Sente => "☗先手",
        Color::Gote => "☖後手",
    };
    let mut lines = vec![mark.to_string()];
    for h in hand {
        lines.push(format!(
            "{}{}",
            h.label,
            if h.count > 1 {
                count_kanji(h.count)
            } else {
                String::new()
            }
        ));
    }
    if lines.len() == 1 {
        lines.push("なし".to_string());
    }
    for (i, l) in lines.iter().enumerate() {
        let _ = writeln!(
            out,
            r#"<text x="{x}" y="{}" font-size="{}" text-anchor="middle" class="hand">{l}</text>"#,
            y + i as u32 * 26,
            if i == 0 { 15 } else { 20 }
        );
    }
}

/// The SVG diagram of `setup`, highlighting `last_move` if given: [`picture_svg`] of
/// its [`Picture`].
pub fn board_svg(setup: &Setup, last_move: Option<Move>) -> String {
    picture_svg(&Picture::from_setup(setup, last_move))
}

/// The SVG diagram of a [`Picture`] (ordinary or quantum): glyphs, hands, the last
/// move highlighted, and a quantum piece's remaining kinds in small type under its label.
pub fn picture_svg(pic: &Picture) -> String {
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="{FONT}">"#
    );
    let _ = writeln!(
        s,
        r##"<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/><rect x="{BOARD_X}" y="{BOARD_Y}" width="{}" height="{}" fill="#f3d9a4"/>"##,
        9 * CELL,
        9 * CELL
    );
    if let Some((from, to)) = pic.last_move {
        if let Some(from) = from {
            let (x, y) = cell_origin(from);
            let _ = writeln!(
                s,
                r##"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#f7e7b0" class="last-from"/>"##
            );
        }
        let (x, y) = cell_origin(to);
        let _ = writeln!(
            s,
            r##"<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="#f0a860" class="last-to"/>"##
        );
    }
    for i in 0..=9 {
        let w = if i == 0 || i == 9 { 2 } else { 1 };
        let p = i * CELL;
        let _ = writeln!(
            s,
            r##"<line x1="{}" y1="{BOARD_Y}" x2="{}" y2="{}" stroke="#000" stroke-width="{w}"/><line x1="{BOARD_X}" y1="{}" x2="{}" y2="{}" stroke="#000" stroke-width="{w}"/>"##,
            BOARD_X + p,
            BOARD_X + p,
            BOARD_Y + 9 * CELL,
            BOARD_Y + p,
            BOARD_X + 9 * CELL,
            BOARD_Y + p
        );
    }
    // 星 (the four dots).
    for (dx, dy) in [(3, 3), (6, 3), (3, 6), (6, 6)] {
        let _ = writeln!(
            s,
            r##"<circle cx="{}" cy="{}" r="2.5" fill="#000"/>"##,
            BOARD_X + dx * CELL,
            BOARD_Y + dy * CELL
        );
    }
    for f in 1..=9u32 {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" font-size="16" text-anchor="middle">{}</text>"#,
            BOARD_X + (9 - f) * CELL + CELL / 2,
            BOARD_Y - 10,
            char::from_u32(0xFF10 + f).expect("full-width digit")
        );
    }
    for (r, k) in "一二三四五六七八九".chars().enumerate() {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" font-size="16" text-anchor="middle" dominant-baseline="central">{k}</text>"#,
            BOARD_X + 9 * CELL + 14,
            BOARD_Y + r as u32 * CELL + CELL / 2
        );
    }
    for sq in Square::all() {
        let Some(g) = &pic.board[sq.index()] else {
            continue;
        };
        let (x, y) = cell_origin(sq);
        let cx = x + CELL / 2;
        // With the kinds line below it, the label moves up to make room.
        let cy = if g.kinds.is_some() {
            y + CELL / 2 - 5
        } else {
            y + CELL / 2
        };
        let turn = if g.owner == Color::Gote {
            format!(r#" transform="rotate(180 {cx} {cy})""#)
        } else {
            String::new()
        };
        let fill = if g.promoted { "#c00000" } else { "#000000" };
        let _ = writeln!(
            s,
            r#"<text x="{cx}" y="{cy}" font-size="{}" text-anchor="middle" dominant-baseline="central" fill="{fill}" class="piece {}"{turn}>{}</text>"#,
            if g.kinds.is_some() { 24 } else { 30 },
            match g.owner {
                Color::Sente => "sente",
                Color::Gote => "gote",
            },
            g.label
        );
        if let Some(kinds) = &g.kinds {
            let n = kinds.chars().count().max(1) as u32;
            // Eight kanji fit the cell at 5 px; fewer are drawn larger, up to 10 px.
            let size = ((CELL - 4) / n).clamp(5, 10);
            let _ = writeln!(
                s,
                r#"<text x="{cx}" y="{}" font-size="{size}" text-anchor="middle" dominant-baseline="central" class="kinds">{kinds}</text>"#,
                y + CELL - 6
            );
        }
    }
    hand_text(
        &mut s,
        Color::Gote,
        &pic.hands.gote,
        BOARD_X / 2,
        BOARD_Y + 14,
    );
    // The side to move (BOD writes `後手番` under the diagram; a picture has no "under").
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" font-size="15" text-anchor="middle" class="turn">{}</text>"#,
        BOARD_X + 9 * CELL + 40,
        BOARD_Y - 14,
        match pic.side_to_move {
            Color::Sente => "先手番",
            Color::Gote => "後手番",
        }
    );
    let sente_lines = 1 + pic.hands.sente.len().max(1) as u32;
    hand_text(
        &mut s,
        Color::Sente,
        &pic.hands.sente,
        BOARD_X + 9 * CELL + 54,
        BOARD_Y + 9 * CELL - (sente_lines - 1) * 26 - 4,
    );
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::sfen::{parse_position, resolve_usi_move};
    use crate::rules::Rules;

    #[test]
    fn every_piece_is_drawn_and_gote_is_turned() {
        let mut pos = parse_position(
            "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
            Rules::STANDARD,
        )
        .unwrap();
        let m = resolve_usi_move(&pos, "6f5g+").unwrap();
        pos.play(m).unwrap();
        let svg = board_svg(&pos.to_setup(), pos.last_move());
        let pieces = pos.occupied().count() as usize;
        assert_eq!(svg.matches("class=\"piece ").count(), pieces);
        assert_eq!(
            svg.matches("class=\"piece gote\"").count(),
            pos.color_bb(Color::Gote).count() as usize
        );
        assert_eq!(
            svg.matches("rotate(180").count(),
            pos.color_bb(Color::Gote).count() as usize
        );
        assert_eq!(svg.matches("class=\"last-to\"").count(), 1);
        assert_eq!(svg.matches("class=\"last-from\"").count(), 1);
        assert!(svg.contains(">飛<") && svg.contains(">金<"));
    }

    /// The `class="turn"` text of `svg`.
    fn turn(svg: &str) -> &str {
        let at = svg.find(r#"class="turn">"#).expect("a turn label");
        let rest = &svg[at + r#"class="turn">"#.len()..];
        &rest[..rest.find('<').expect("closed")]
    }

    #[test]
    fn the_side_to_move_is_drawn() {
        // Before: the SVG ignored `Picture::side_to_move`, so two positions that differ
        // only in the side to move (a tsume problem for either side) drew the same picture.
        let sente = parse_position("4k4/9/9/9/9/9/9/9/4K4 b G 1", Rules::STANDARD).unwrap();
        let gote = parse_position("4k4/9/9/9/9/9/9/9/4K4 w G 1", Rules::STANDARD).unwrap();
        let (a, b) = (
            board_svg(&sente.to_setup(), None),
            board_svg(&gote.to_setup(), None),
        );
        assert_eq!(turn(&a), "先手番");
        assert_eq!(turn(&b), "後手番");
        assert_ne!(a, b);
        assert_eq!(a.matches(r#"class="turn""#).count(), 1);
    }
}
