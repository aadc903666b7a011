//! Writing a record as CSA V2.2.

use super::codes::{code_of, sign, HEADER_MAP};
use crate::notation::kif::handicap_name;
use crate::notation::record::{EndWord, Record};
use crate::rules::{Color, Move, PieceKind, Square};

/// Whether [`write_csa`] writes the header field `key`: the players (`N+`, `N-`), the
/// fields CSA names (`$EVENT`, `$SITE`, …) and `$`-keys as they are; 手合割 is the start
/// position. Any other (a KIF 表題, 作者, …) has no place in CSA.
pub fn csa_keeps_header(key: &str) -> bool {
    matches!(key, "先手" | "下手" | "後手" | "上手" | "手合割")
        || key.starts_with('$')
        || HEADER_MAP.iter().any(|(_, j)| *j == key)
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
    let n = rec.main.moves.len();
    // The `'` comments read after `k` moves (those after the last move: after the end).
    let csa_comments = |out: &mut String, k: usize| {
        for (_, c) in rec.csa_comments.iter().filter(|(i, _)| *i == k) {
            out.push_str(&format!("'{c}\n"));
        }
    };
    if n > 0 {
        csa_comments(&mut out, 0);
    }
    let mut pos = rec.start.clone();
    for (i, rm) in rec.main.moves.iter().enumerate() {
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
        if i + 1 < n {
            csa_comments(&mut out, i + 1);
        }
        pos.play_unchecked(rm.mv);
    }
    if let Some(e) = &rec.main.end {
        if let Some(cmd) = e.word.csa() {
            if e.word == EndWord::IllegalWin {
                // The side to move won because the other side fouled.
                out.push_str(&format!("%{}{cmd}\n", sign(!pos.side_to_move())));
            } else if e.word == EndWord::IllegalAction {
                // The side to move fouled.
                out.push_str(&format!("%{}{cmd}\n", sign(pos.side_to_move())));
            } else {
                out.push_str(&format!("%{cmd}\n"));
            }
            if let Some(t) = &e.time {
                out.push_str(&format!("T{}\n", t.this));
            }
        }
    }
    csa_comments(&mut out, n);
    out
}

/// Writes several records separated by `/` lines.
pub fn write_csa_games(recs: &[Record]) -> String {
    recs.iter().map(write_csa).collect::<Vec<_>>().join("/\n")
}
