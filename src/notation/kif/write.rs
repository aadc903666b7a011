//! Writing a record as KIF or KI2.

use super::handicap::handicap_name;
use super::numbers::write_time;
use crate::notation::japanese::{ki2_move, kif_move_unmarked};
use crate::notation::record::{Line, Record};
use crate::rules::{Position, Square};

/// Which text to write.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flavor {
    /// KIF: numbered move lines with origins and times.
    Kif,
    /// KI2: marked moves with 連盟 disambiguation, six a line.
    Ki2,
}

/// Writes a record as KIF or KI2 (UTF-8 text; encode with
/// [`encode_shift_jis`](crate::notation::record::encode_shift_jis) for `.kif`).
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
            out.push_str(&crate::notation::bod::write_bod(&rec.start.to_setup()));
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

/// Writes `line` from `start`, then its 変化 (latest branch point first).
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
