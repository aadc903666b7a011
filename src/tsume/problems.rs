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
