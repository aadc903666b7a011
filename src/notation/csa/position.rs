//! The initial position: `PI` with removals, `P1`…`P9` rows, `P+`/`P-`
//! placements (`00` for the hand, `00AL` for the rest), and the side to move
//! `+`/`-`, which completes it.

use super::cerr;
use super::codes::{color_of, csa_square, kind_of};
use super::read::Game;
use crate::notation::kif::position_from_setup;
use crate::notation::record::RecordError;
use crate::notation::sfen::{parse_setup, STARTPOS};
use crate::rules::{Color, Piece, Setup, Square};

/// `PI` followed by removals like `82HI22KA`: the even position without them.
pub(super) fn pi_setup(ln: usize, rest: &str) -> Result<Setup, RecordError> {
    let mut setup = parse_setup(STARTPOS).expect("startpos");
    let b = rest.as_bytes();
    if b.len() % 4 != 0 {
        return Err(cerr(ln, format!("bad PI removals {rest:?}")));
    }
    for ch in rest.as_bytes().chunks(4) {
        let t = std::str::from_utf8(ch).map_err(|_| cerr(ln, "bad PI"))?;
        let sq = csa_square(&t[..2])
            .flatten()
            .ok_or_else(|| cerr(ln, format!("bad square in PI {t:?}")))?;
        let kind = kind_of(&t[2..]).ok_or_else(|| cerr(ln, format!("bad piece in PI {t:?}")))?;
        if setup.board[sq.index()].map(|p| p.kind) != Some(kind) {
            return Err(cerr(
                ln,
                format!("PI removes {t:?} but that square does not hold it"),
            ));
        }
        setup.board[sq.index()] = None;
    }
    Ok(setup)
}

/// The rank of a `P1`…`P9` row statement.
pub(super) fn row_rank(s: &str) -> Option<u8> {
    let bytes = s.as_bytes();
    if bytes[0] == b'P' && bytes.len() >= 2 && (b'1'..=b'9').contains(&bytes[1]) {
        Some(bytes[1] - b'0')
    } else {
        None
    }
}

/// Row `rank` of the board: nine cells ` * ` or `+FU`, file 9 first.
pub(super) fn board_row(g: &mut Game, ln: usize, rank: u8, cells: &str) -> Result<(), RecordError> {
    // Trailing blanks of the last " * " may have been trimmed.
    let row = format!("{cells:<27}");
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
            let k = kind_of(&cell[1..]).ok_or_else(|| cerr(ln, format!("bad piece {cell:?}")))?;
            Some(Piece::new(c, k))
        };
    }
    g.rows_seen |= 1 << rank;
    Ok(())
}

/// `P+`/`P-` followed by pieces like `5152KI00FU00AL`: on the board, in hand
/// (`00`), or every remaining piece in hand (`00AL`, filled in when the
/// position is complete).
pub(super) fn placement(g: &mut Game, ln: usize, s: &str) -> Result<(), RecordError> {
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
    Ok(())
}

/// The side to move `+`/`-`, before any move; it completes the position.
pub(super) fn side(g: &mut Game, ln: usize, s: &str) -> Result<(), RecordError> {
    if g.pos.is_some() {
        return Err(cerr(ln, "side to move after the moves began"));
    }
    g.side = color_of(s.as_bytes()[0] as char);
    ensure_position(g, ln)
}

/// Completes the initial position if not yet done (at the side to move, the
/// first move or end command, or the end of the game).
///
/// # Errors
/// No position was given, or it is illegal.
pub(super) fn ensure_position(g: &mut Game, ln: usize) -> Result<(), RecordError> {
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
        setup.hands[c] = setup.rest_of_pieces(setup.hands[!c]);
    }
    setup.side_to_move = g.side.unwrap_or(Color::Sente);
    let p = position_from_setup(setup).map_err(|k| RecordError { line: ln, kind: k })?;
    g.start = Some(p.clone());
    g.pos = Some(p);
    Ok(())
}
