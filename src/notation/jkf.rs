//! JSON Kifu Format (JKF) writing, as Kifu for JS, tsshogi and ShogiHome read it.
//!
//! Format: na2hiro/json-kifu-format, `specification/json-kifu-format.schema.json`
//! (copied to `specs/schema/jkf/` with its source line). Written: `header`,
//! `initial` (the schema's preset — `HIRATE`, `KY`, `2`, … — for a standard 手合割 start, otherwise `OTHER`
//! with the board `board[x-1][y-1]`, `color` and both hands), and `moves` — the
//! first element holds the comments before the first move; each move has
//! `color`, `from` (absent for a drop), `to`, `piece` (CSA code before the move),
//! `same`, `promote` (`true`/`false` only when promotion was possible), `capture`
//! and `relative` (the 連盟 disambiguation: `L` `C` `R` `U` `M` `D` `H`), plus its
//! time (`total`: the file's running total, else the sum of the side's times so far),
//! comments and 変化 as `forks`; a line's end word becomes `special`.

use super::csa::code_of;
use super::japanese::{ki2_move, parse_move, Action, Horizontal, Vertical};
use super::kif::handicap_name;
use super::record::{EndWord, Line, Record};
use crate::rules::{Color, Move, PieceKind, Position, Square};
use serde::Serialize;
use std::collections::BTreeMap;

#[derive(Serialize)]
struct Jkf {
    header: BTreeMap<String, String>,
    initial: Initial,
    moves: Vec<JkfMove>,
}

#[derive(Serialize)]
struct Initial {
    preset: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    data: Option<InitialData>,
}

#[derive(Serialize)]
struct InitialData {
    color: u8,
    board: Vec<Vec<Cell>>,
    hands: [BTreeMap<&'static str, u8>; 2],
}

#[derive(Serialize, Default)]
struct Cell {
    #[serde(skip_serializing_if = "Option::is_none")]
    color: Option<u8>,
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
}

#[derive(Serialize, Default)]
struct JkfMove {
    #[serde(skip_serializing_if = "Vec::is_empty")]
    comments: Vec<String>,
    #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
    mv: Option<MoveFormat>,
    #[serde(skip_serializing_if = "Option::is_none")]
    time: Option<Consumption>,
    #[serde(skip_serializing_if = "Option::is_none")]
    special: Option<&'static str>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    forks: Vec<Vec<JkfMove>>,
}

#[derive(Serialize)]
struct Place {
    x: u8,
    y: u8,
}

#[derive(Serialize)]
struct MoveFormat {
    color: u8,
    #[serde(skip_serializing_if = "Option::is_none")]
    from: Option<Place>,
    to: Place,
    piece: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    same: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    promote: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    capture: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    relative: Option<String>,
}

#[derive(Serialize)]
struct Time {
    h: u32,
    m: u32,
    s: u32,
}

#[derive(Serialize)]
struct Consumption {
    now: Time,
    total: Time,
}

fn time(secs: u32) -> Time {
    Time {
        h: secs / 3600,
        m: secs / 60 % 60,
        s: secs % 60,
    }
}

fn place(sq: Square) -> Place {
    Place {
        x: sq.file(),
        y: sq.rank(),
    }
}

const fn color(c: Color) -> u8 {
    c as u8
}

/// The 連盟 relative word of `m` as JKF letters, from its KI2 text.
fn relative(pos: &Position, m: Move, prev_to: Option<Square>) -> Option<String> {
    let text = ki2_move(pos, m, prev_to);
    let jm = parse_move(&text).ok()?;
    let mut r = String::new();
    match jm.horizontal {
        Some(Horizontal::Left) => r.push('L'),
        Some(Horizontal::Right) => r.push('R'),
        Some(Horizontal::Straight) => r.push('C'),
        None => {}
    }
    match jm.vertical {
        Some(Vertical::Up) => r.push('U'),
        Some(Vertical::Sideways) => r.push('M'),
        Some(Vertical::Back) => r.push('D'),
        None => {}
    }
    if jm.action == Some(Action::Drop) {
        r.push('H');
    }
    (!r.is_empty()).then_some(r)
}

fn move_format(pos: &Position, m: Move, prev_to: Option<Square>) -> MoveFormat {
    let us = pos.side_to_move();
    let (from, piece, promote) = match m {
        Move::Normal { from, to, promote } => {
            let kind = pos.piece_at(from).expect("a legal move has a mover").kind;
            let may = kind.promote().is_some()
                && (from.relative_rank(us) <= 3 || to.relative_rank(us) <= 3);
            (Some(place(from)), kind, may.then_some(promote))
        }
        Move::Drop { kind, .. } => (None, kind, None),
    };
    MoveFormat {
        color: color(us),
        from,
        to: place(m.to()),
        piece: code_of(piece),
        same: (prev_to == Some(m.to())).then_some(true),
        promote,
        capture: match m {
            Move::Normal { to, .. } => pos.piece_at(to).map(|p| code_of(p.kind)),
            Move::Drop { .. } => None,
        },
        relative: relative(pos, m, prev_to),
    }
}

/// The moves of `line` from `pos` (which it leaves unchanged), the end word last.
/// `totals` holds each side's time used before the line (Sente, Gote): a move's
/// `total` is the file's running total (KIF) or, when the file gives only the time
/// of each move (CSA `T`), the sum of that side's times so far.
fn moves(
    pos: &mut Position,
    line: &Line,
    mut prev_to: Option<Square>,
    mut totals: [u32; 2],
) -> Vec<JkfMove> {
    let mut out = Vec::new();
    let mut played = 0;
    for rm in &line.moves {
        let side = pos.side_to_move() as usize;
        let before = totals;
        let mut jm = JkfMove {
            comments: rm.comments.clone(),
            mv: Some(move_format(pos, rm.mv, prev_to)),
            time: rm.time.map(|t| {
                totals[side] = t
                    .total
                    .unwrap_or_else(|| totals[side].saturating_add(t.this));
                Consumption {
                    now: time(t.this),
                    total: time(totals[side]),
                }
            }),
            ..JkfMove::default()
        };
        for v in &rm.variations {
            jm.forks.push(moves(pos, v, prev_to, before));
        }
        out.push(jm);
        pos.play_unchecked(rm.mv);
        played += 1;
        prev_to = Some(rm.mv.to());
    }
    if let Some(end) = &line.end {
        if let Some(word) = special(end.word, pos.side_to_move()) {
            out.push(JkfMove {
                special: Some(word),
                ..JkfMove::default()
            });
        }
    }
    for _ in 0..played {
        pos.undo();
    }
    out
}

/// The JKF `special` word of an end word (the CSA `%` commands without `%`); 反則勝ち is
/// `±ILLEGAL_ACTION` with the sign of the previous mover, who lost, and a foul of the
/// side to move (`%±ILLEGAL_ACTION` read from CSA) has its sign; `%MAX_MOVES` (a draw
/// by move limit, not in JKF) is `HIKIWAKE`; 封じ手 has no word ([`jkf_keeps`] says which
/// are not kept).
fn special(word: EndWord, to_move: Color) -> Option<&'static str> {
    Some(match word {
        EndWord::IllegalWin => match to_move {
            Color::Sente => "-ILLEGAL_ACTION",
            Color::Gote => "+ILLEGAL_ACTION",
        },
        EndWord::IllegalAction => match to_move {
            Color::Sente => "+ILLEGAL_ACTION",
            Color::Gote => "-ILLEGAL_ACTION",
        },
        EndWord::Error => "ERROR",
        EndWord::MaxMoves => "HIKIWAKE",
        EndWord::Sealed => return None,
        EndWord::Resign => "TORYO",
        EndWord::Interrupt => "CHUDAN",
        EndWord::Repetition => "SENNICHITE",
        EndWord::Impasse => "JISHOGI",
        EndWord::Mate => "TSUMI",
        EndWord::NoMate => "FUZUMI",
        EndWord::TimeUp => "TIME_UP",
        EndWord::IllegalLoss => "ILLEGAL_MOVE",
        EndWord::EnteringKing => "KACHI",
        EndWord::Matta => "MATTA",
        EndWord::Draw => "HIKIWAKE",
    })
}

/// The JKF `preset` of each 手合割 the schema names (`$defs/preset`), in its order.
const PRESETS: [(&str, &str); 16] = [
    ("平手", "HIRATE"),
    ("香落ち", "KY"),
    ("右香落ち", "KY_R"),
    ("角落ち", "KA"),
    ("飛車落ち", "HI"),
    ("飛香落ち", "HIKY"),
    ("二枚落ち", "2"),
    ("三枚落ち", "3"),
    ("四枚落ち", "4"),
    ("五枚落ち", "5"),
    ("左五枚落ち", "5_L"),
    ("六枚落ち", "6"),
    ("左七枚落ち", "7_L"),
    ("右七枚落ち", "7_R"),
    ("八枚落ち", "8"),
    ("十枚落ち", "10"),
];

/// Whether JKF has a `special` word for `word` (`%MAX_MOVES` and 封じ手 it has not).
pub fn jkf_keeps(word: EndWord) -> bool {
    !matches!(word, EndWord::MaxMoves | EndWord::Sealed)
}

fn initial(start: &Position) -> Initial {
    if let Some(name) = handicap_name(start) {
        if let Some((_, preset)) = PRESETS.iter().find(|(n, _)| *n == name) {
            return Initial { preset, data: None };
        }
    }
    let board = (1..=9u8)
        .map(|x| {
            (1..=9u8)
                .map(|y| {
                    let sq = Square::new(x, y).expect("on the board");
                    match start.piece_at(sq) {
                        Some(p) => Cell {
                            color: Some(color(p.color)),
                            kind: Some(code_of(p.kind)),
                        },
                        None => Cell::default(),
                    }
                })
                .collect()
        })
        .collect();
    let hand = |c: Color| {
        PieceKind::HAND
            .iter()
            .map(|&k| (code_of(k), start.hand(c).count(k)))
            .collect::<BTreeMap<_, _>>()
    };
    Initial {
        preset: "OTHER",
        data: Some(InitialData {
            color: color(start.side_to_move()),
            board,
            hands: [hand(Color::Sente), hand(Color::Gote)],
        }),
    }
}

/// The record as JKF (one JSON object, no trailing newline).
pub fn write_jkf(rec: &Record) -> String {
    let mut pos = Position::from_setup(rec.start.to_setup(), rec.start.rules())
        .expect("a record's start is legal");
    let mut first = vec![JkfMove {
        comments: rec.start_comments.clone(),
        ..JkfMove::default()
    }];
    first.extend(moves(&mut pos, &rec.main, None, [0, 0]));
    let jkf = Jkf {
        header: rec.headers.iter().cloned().collect(),
        initial: initial(&rec.start),
        moves: first,
    };
    serde_json::to_string(&jkf).expect("JKF always serialises")
}
