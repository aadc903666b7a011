//! Problem files: one problem per line, optionally `id<TAB>SFEN[<TAB>extra…]`;
//! `#` starts a comment line; `# Source:` lines are kept. The SFEN column may also be
//! a USI position text (`position sfen … moves …`, `startpos moves …`), which
//! [`super::load_problem`] reads.

/// One problem line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// Identifier: the id column, or `line-<n>`.
    pub id: String,
    /// The SFEN text (or a USI position text: whatever [`super::load_problem`] reads).
    pub sfen: String,
    /// Further tab-separated columns (e.g. a known length).
    pub extra: Vec<String>,
    /// Line number (1-based).
    pub line: usize,
    /// Column (1-based, in characters) where the SFEN starts in its line, for error messages.
    pub column: usize,
}

/// Reads a problem file. A line with a tab is `id<TAB>SFEN…`; otherwise the whole line
/// is the SFEN (spaces, as in `position sfen … moves …`, do not split a line).
pub fn read_problems(text: &str) -> Vec<Problem> {
    text.lines()
        .enumerate()
        .filter_map(|(i, raw)| parse_line(raw, i + 1))
        .collect()
}

/// One line of a problem file (line `number`, 1-based); `None` for a blank or `#` line.
pub fn parse_line(raw: &str, number: usize) -> Option<Problem> {
    let line = raw.trim();
    if line.is_empty() || line.starts_with('#') {
        return None;
    }
    let cols: Vec<&str> = line.split('\t').map(str::trim).collect();
    // Every column is a slice of `raw`: its offset there gives the SFEN's column.
    let column = |part: &str| {
        raw[..part.as_ptr() as usize - raw.as_ptr() as usize]
            .chars()
            .count()
            + 1
    };
    Some(if cols.len() >= 2 {
        Problem {
            id: cols[0].to_string(),
            sfen: cols[1].to_string(),
            extra: cols[2..].iter().map(|s| s.to_string()).collect(),
            line: number,
            column: column(cols[1]),
        }
    } else {
        Problem {
            id: format!("line-{number}"),
            sfen: line.to_string(),
            extra: Vec::new(),
            line: number,
            column: column(line),
        }
    })
}

/// A problem line that is not UTF-8 text: the problem as far as it can be read (its id,
/// and its SFEN column with each bad byte sequence as U+FFFD), and the 1-based character
/// column of the first bad byte.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("not UTF-8 text")]
pub struct NotUtf8 {
    /// The problem as read with the bad bytes replaced.
    pub problem: Problem,
    /// The 1-based column (in characters) of the first byte that is not UTF-8.
    pub column: usize,
}

/// One line of a problem file as bytes (line `number`, 1-based): [`parse_line`] when it
/// is UTF-8; `None` for a blank or `#` line.
///
/// # Errors
/// [`NotUtf8`] for a problem line that is not UTF-8: it is answered as a problem that
/// cannot be read, not skipped.
pub fn parse_line_bytes(raw: &[u8], number: usize) -> Option<Result<Problem, NotUtf8>> {
    match std::str::from_utf8(raw) {
        Ok(text) => parse_line(text, number).map(Ok),
        Err(e) => {
            let column = String::from_utf8_lossy(&raw[..e.valid_up_to()])
                .chars()
                .count()
                + 1;
            let text = String::from_utf8_lossy(raw);
            let mut problem = parse_line(&text, number)?;
            if problem.id.contains('\u{fffd}') {
                problem.id = format!("line-{number}");
            }
            Some(Err(NotUtf8 { problem, column }))
        }
    }
}

/// `# Source:` lines of a file.
pub fn sources(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|l| {
            l.trim()
                .strip_prefix("# Source:")
                .map(|s| s.trim().to_string())
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn reads_ids_and_bare_lines() {
        let t = "# Source: x\nz-1\t8k/9/8P/9/9/9/9/9/9 b G 1\t1\n\n8k/9/8P/9/9/9/9/9/9 b G 1\n";
        let ps = read_problems(t);
        assert_eq!(ps.len(), 2);
        assert_eq!(ps[0].id, "z-1");
        assert_eq!(ps[0].extra, vec!["1"]);
        assert_eq!(ps[1].id, "line-4");
        assert_eq!((ps[0].line, ps[0].column, ps[1].column), (2, 5, 1));
        let p = parse_line(" 詰1 \t 8k/9/8P/9/9/9/9/9/9 b G 1", 7).unwrap();
        assert_eq!((p.line, p.column), (7, 7));
        assert_eq!(sources(t), vec!["x"]);
    }

    #[test]
    fn a_line_that_is_not_utf8_is_a_problem_in_error() {
        let sfen = "8k/9/8P/9/9/9/9/9/9 b G 1";
        // UTF-8 lines read as text lines do; blank and comment lines are none.
        let ok = format!("z\t{sfen}");
        assert_eq!(
            parse_line_bytes(ok.as_bytes(), 3),
            Some(Ok(parse_line(&ok, 3).unwrap()))
        );
        assert_eq!(parse_line_bytes(b"  ", 1), None);
        assert_eq!(parse_line_bytes(b"# \xff", 1), None);
        // A bare bad line: `line-N`, the column of the first bad byte.
        let e = parse_line_bytes(b"\xff\xfe", 2).unwrap().unwrap_err();
        assert_eq!(
            (e.problem.id.as_str(), e.problem.line, e.column),
            ("line-2", 2, 1)
        );
        // An id kept, the column counted in characters (歩 is one).
        let raw = [b"\xe6\xad\xa9\t8k/9\xff".as_slice()].concat();
        let e = parse_line_bytes(&raw, 5).unwrap().unwrap_err();
        assert_eq!((e.problem.id.as_str(), e.column), ("歩", 7));
        assert_eq!(e.problem.sfen, "8k/9\u{fffd}");
        // A bad byte in the id: the id is `line-N`.
        let e = parse_line_bytes(b"a\xff\tx", 4).unwrap().unwrap_err();
        assert_eq!((e.problem.id.as_str(), e.column), ("line-4", 2));
    }

    #[test]
    fn usi_position_lines_are_kept_whole() {
        let usi = "position sfen 7k1/5G3/8S/9/9/9/9/9/9 b NP 1 moves P*2b 2a1a";
        let p = parse_line(&format!("after-2\t{usi}\tmate 1"), 3).unwrap();
        assert_eq!(
            (p.id.as_str(), p.sfen.as_str(), p.column),
            ("after-2", usi, 9)
        );
        assert_eq!(p.extra, vec!["mate 1"]);
        let q = parse_line(&format!("  {usi}  "), 4).unwrap();
        assert_eq!(
            (q.id.as_str(), q.sfen.as_str(), q.column),
            ("line-4", usi, 3)
        );
    }
}
