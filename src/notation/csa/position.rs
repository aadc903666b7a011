//! The initial position: `PI` with removals, `P1`…`P9` rows, `P+`/`P-`
//! placements (`00` for the hand, `00AL` for the rest), and the side to move
//! `+`/`-`, which completes it.

use super::cerr;
use super::codes::{color_of, csa_square, kind_of};
use super::read::Game;
use crate::notation::kif::position_from_setup;
use crate::notation::record::{BoardRowError, RecordError, RecordErrorKind};
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

/// Row `rank` of the board: nine cells ` * ` or `+FU`, file 9 first; `col` is the
/// 1-based column of the row's `P` in line `ln`.
///
/// # Errors
/// A row given twice, a row after the position was complete, a tenth square, a short
/// row, a bad cell.
pub(super) fn board_row(
    g: &mut Game,
    ln: usize,
    col: usize,
    rank: u8,
    cells: &str,
) -> Result<(), RecordError> {
    let row_error = |column: usize, error: BoardRowError| RecordError {
        line: ln,
        kind: RecordErrorKind::BoardRow {
            column: Some(column),
            error,
        },
    };
    if g.pos.is_some() {
        return Err(cerr(
            ln,
            format!("row P{rank} after the position was complete (its side to move or first move was read)"),
        ));
    }
    if let Some(first) = g.row_lines[rank as usize - 1] {
        return Err(row_error(col, BoardRowError::Repeated { rank, first }));
    }
    // The cells start after `P1`; a tenth cell is an error, not dropped.
    if cells.len() > 27 && !cells[27..].trim().is_empty() {
        return Err(row_error(col + 2 + 27, BoardRowError::TooLong { rank }));
    }
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
    g.row_lines[rank as usize - 1] = Some(ln);
    Ok(())
}

/// The first rank missing from a board given by `P1`…`P9` rows (`row_lines`: the
/// line of each rank's row), located at the row that follows the gap, else at the
/// last row given; `None` when no row or all nine are given.
fn missing_row(row_lines: &[Option<usize>; 9]) -> Option<RecordError> {
    if row_lines.iter().all(Option::is_none) || row_lines.iter().all(Option::is_some) {
        return None;
    }
    let rank = row_lines.iter().position(Option::is_none)?;
    let line = row_lines[rank..]
        .iter()
        .flatten()
        .next()
        .or_else(|| row_lines.iter().flatten().max())
        .copied()?;
    Some(RecordError {
        line,
        kind: RecordErrorKind::BoardRow {
            column: Some(1),
            error: BoardRowError::Missing {
                rank: rank as u8 + 1,
            },
        },
    })
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
/// No position was given, its `P1`…`P9` rows lack a rank, or it is illegal.
pub(super) fn ensure_position(g: &mut Game, ln: usize) -> Result<(), RecordError> {
    if g.pos.is_some() {
        return Ok(());
    }
    if let Some(e) = missing_row(&g.row_lines) {
        return Err(e);
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
