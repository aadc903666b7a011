//! Reading a KIF or KI2 record: each line goes to its concept (a comment, a
//! summary, a 変化, a move line, or the header part) and the record is
//! assembled at the end.

use super::err;
use super::lines::Lines;
use super::moves::{read_end_word_line, MoveLine};
use super::numbers::kanji_number;
use super::preamble::Preamble;
use crate::notation::record::{Record, RecordError, RecordErrorKind};

/// Reads a KIF or KI2 record from decoded text.
///
/// # Errors
/// [`RecordError`] with the 1-based line number: an unknown 手合割, a bad
/// board diagram or hand, an illegal initial position, a move number out of
/// sequence, a malformed/illegal/ambiguous move, a bad time, a move after an
/// end word, a 変化 that attaches nowhere, or an unrecognised line.
pub fn read_kif(text: &str) -> Result<Record, RecordError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut reader = Reader::default();
    for (idx, raw) in text.lines().enumerate() {
        reader.read_line(idx + 1, raw)?;
    }
    reader.finish(text.lines().count())
}

/// What has been read so far.
#[derive(Default)]
struct Reader {
    preamble: Preamble,
    lines: Lines,
    header_comments: Vec<String>,
    trailer: Vec<String>,
    /// `*` comments and `&` しおり (kept with their `&`) before the first move.
    start_comments: Vec<String>,
    /// A `まで…` summary before any move.
    start_summary: Option<String>,
    /// The `まで…` summary closes the current line: only a 変化 may follow it.
    summary_seen: Option<String>,
    /// A line other than a blank or a `#` comment has been read.
    content_seen: bool,
}

impl Reader {
    /// Reads line `ln`.
    fn read_line(&mut self, ln: usize, raw: &str) -> Result<(), RecordError> {
        let line = raw.trim_end_matches(['\r', '\n']);
        let t = line.trim();
        if t.is_empty() {
            return Ok(());
        }
        if let Some(c) = t.strip_prefix('#') {
            // Before any header or move: a file header (`#KIF version=2.0 …`), kept in front.
            if self.content_seen {
                self.trailer.push(format!("#{c}"));
            } else {
                self.header_comments.push(format!("#{c}"));
            }
            return Ok(());
        }
        self.content_seen = true;
        if t.starts_with("まで") {
            self.read_summary(t);
            return Ok(());
        }
        if let Some(c) = line.strip_prefix('*') {
            match self.lines.current().and_then(|l| l.moves.last_mut()) {
                Some(m) => m.comments.push(c.to_string()),
                None => self.start_comments.push(c.to_string()),
            }
            return Ok(());
        }
        if let Some(c) = line.strip_prefix('&') {
            match self.lines.current().and_then(|l| l.moves.last_mut()) {
                Some(m) => m.bookmark = Some(c.to_string()),
                None => self.start_comments.push(format!("&{c}")),
            }
            return Ok(());
        }
        if t.starts_with("手数----") || t.starts_with("手数－－") {
            return Ok(());
        }
        if let Some(r) = t
            .strip_prefix("変化")
            .map(|r| r.trim_start_matches(['：', ':']))
        {
            return self.read_variation(ln, t, r);
        }
        if let Some(kind) = MoveLine::of(t) {
            return self.read_moves(ln, t, kind);
        }
        if !self.lines.is_empty() {
            return read_end_word_line(self.lines.current_mut(), ln, t);
        }
        self.preamble.read_line(ln, line, t)
    }

    /// A `まで…` summary: it closes the current line.
    fn read_summary(&mut self, t: &str) {
        match self.lines.current() {
            Some(l) => l.summary = Some(t.to_string()),
            None => self.start_summary = Some(t.to_string()),
        }
        self.summary_seen = Some(t.to_string());
    }

    /// `変化：N手` (`r` is what follows `変化：`): a new line replacing move N.
    fn read_variation(&mut self, ln: usize, t: &str, r: &str) -> Result<(), RecordError> {
        let n = r.trim_end_matches('手').trim();
        let n = kanji_number(n).ok_or_else(|| err(ln, RecordErrorKind::UnknownLine(t.into())))?;
        self.lines.branch(ln, n)?;
        self.summary_seen = None;
        Ok(())
    }

    /// A KIF or KI2 move line; the first one ends the header part.
    fn read_moves(&mut self, ln: usize, t: &str, kind: MoveLine) -> Result<(), RecordError> {
        if let Some(summary) = &self.summary_seen {
            return Err(err(
                ln,
                RecordErrorKind::MoveAfterEnd(format!("{t} after {summary}")),
            ));
        }
        if self.lines.is_empty() {
            let start = self.preamble.initial_position(ln)?;
            let first_number = self.preamble.first_move_number();
            self.lines.start_main(start, first_number, None);
        }
        kind.read(self.lines.current_mut(), ln, t)
    }

    /// The record, after the last of `line_count` lines.
    fn finish(mut self, line_count: usize) -> Result<Record, RecordError> {
        if !self.content_seen {
            return Err(err(line_count.max(1), RecordErrorKind::Empty));
        }
        if self.lines.is_empty() {
            // Headers alone: the initial position with no moves.
            let start = self.preamble.initial_position(line_count)?;
            let first_number = self.preamble.first_move_number();
            self.lines
                .start_main(start, first_number, self.start_summary.take());
        }
        let (start, first_move_number, main) = self.lines.assemble().expect("a main line exists");
        Ok(Record {
            headers: self.preamble.headers,
            start,
            first_move_number,
            header_comments: self.header_comments,
            start_comments: self.start_comments,
            main,
            trailer: self.trailer,
            csa_comments: Vec::new(),
            truncated_times: 0,
        })
    }
}
