//! What a target format cannot hold of the records read: one stderr note per kind
//! of loss (`shogi-lab: note: …`), the output written all the same (exit 0).

use super::Format;
use crate::notation::jkf::jkf_keeps;
use crate::notation::record::{EndWord, Line, Record};

/// The name `convert` prints for a format.
fn name(to: Format) -> &'static str {
    match to {
        Format::Kif => "KIF",
        Format::Ki2 => "KI2",
        Format::Csa => "CSA",
        Format::Sfen => "SFEN",
        Format::Usi => "USI",
        Format::Jkf => "JKF",
    }
}

/// Counts over a line and its branches (`deep`) or the line alone (`branches`: set by the caller).
#[derive(Default)]
struct Tally {
    branches: usize,
    comments: usize,
    bookmarks: usize,
    times: usize,
    summaries: usize,
}

impl Tally {
    fn add(&mut self, line: &Line, deep: bool) {
        for m in &line.moves {
            self.comments += m.comments.len();
            self.bookmarks += usize::from(m.bookmark.is_some());
            self.times += usize::from(m.time.is_some());
            if deep {
                for v in &m.variations {
                    self.add(v, true);
                }
            }
        }
        self.times += usize::from(line.end.is_some_and(|e| e.time.is_some()));
        self.summaries += usize::from(line.summary.is_some());
    }
}

/// The notes for writing `recs` as `to`: what that format cannot hold, by kind,
/// counted over every game. Empty when nothing is lost.
pub(super) fn notes(recs: &[Record], to: Format) -> Vec<String> {
    let f = name(to);
    let only_moves = matches!(to, Format::Usi | Format::Sfen);
    let one_line = matches!(to, Format::Csa) || only_moves;
    let mut t = Tally::default();
    let mut start_bookmarks = 0;
    let mut start_comments = 0;
    let mut hash_lines = 0;
    let mut headers = 0;
    let mut non_csa_headers = 0;
    let mut csa_comments = 0;
    let mut truncated = 0;
    let mut ends: Vec<String> = Vec::new();
    for r in recs {
        // Where branches are dropped, what they hold is counted in their note only.
        let mut main = Tally::default();
        main.add(&r.main, !one_line);
        if one_line {
            t.branches += branches(&r.main);
        }
        t.comments += main.comments;
        t.bookmarks += main.bookmarks;
        t.times += main.times;
        t.summaries += main.summaries;
        start_bookmarks += r
            .start_comments
            .iter()
            .filter(|c| c.starts_with('&'))
            .count();
        start_comments += r
            .start_comments
            .iter()
            .filter(|c| !c.starts_with('&'))
            .count();
        hash_lines += r.header_comments.len() + r.trailer.len();
        headers += r.headers.len();
        non_csa_headers += r
            .headers
            .iter()
            .filter(|(k, _)| !crate::notation::csa::csa_keeps_header(k))
            .count();
        csa_comments += r.csa_comments.len();
        truncated += r.truncated_times;
        if let Some(e) = r.main.end {
            let word = match e.word.csa() {
                Some(c) => format!("%{c}"),
                None => e.word.kif().to_string(),
            };
            let fate = match to {
                Format::Kif | Format::Ki2 if !e.word.kif_keeps() => {
                    Some(format!("written {}", e.word.kif()))
                }
                Format::Csa if e.word.csa().is_none() => Some("dropped".to_string()),
                Format::Jkf if !jkf_keeps(e.word) => Some(match e.word {
                    EndWord::MaxMoves => "written HIKIWAKE".to_string(),
                    _ => "dropped".to_string(),
                }),
                Format::Usi | Format::Sfen => Some("dropped".to_string()),
                _ => None,
            };
            if let Some(fate) = fate {
                let n = format!("{f} has no end word {word}: {fate}");
                if !ends.contains(&n) {
                    ends.push(n);
                }
            }
        }
    }
    let mut out = Vec::new();
    if t.branches > 0 {
        out.push(format!(
            "{f} has no 変化 branches: {} branch(es) dropped, the main line written",
            t.branches
        ));
    }
    // Where times are dropped altogether, the times note says so.
    if truncated > 0 && !only_moves && to != Format::Ki2 {
        out.push(format!(
            "{f} is written with whole seconds: {truncated} CSA time(s) with a fraction (T2.5) truncated"
        ));
    }
    let mut note = |n: usize, what: &str| {
        if n > 0 {
            out.push(format!("{f} has no {what}: {n} dropped"));
        }
    };
    if only_moves {
        note(t.comments + start_comments, "comments");
        note(headers, "header fields");
    }
    if to != Format::Csa {
        note(csa_comments, "CSA `'` comment lines");
    } else {
        note(
            non_csa_headers,
            "field for these header fields (表題, 作者, …)",
        );
    }
    if only_moves || to == Format::Ki2 {
        note(t.times, "times");
    }
    if matches!(to, Format::Csa | Format::Jkf) || only_moves {
        note(t.bookmarks + start_bookmarks, "しおり bookmarks");
        note(hash_lines, "`#` comment lines");
        note(t.summaries, "`まで…` summary lines");
    }
    out.extend(ends);
    out
}

/// The number of 変化 branches under `line` (nested ones included).
pub(super) fn branches(line: &Line) -> usize {
    line.moves
        .iter()
        .flat_map(|m| &m.variations)
        .map(|v| 1 + branches(v))
        .sum()
}
