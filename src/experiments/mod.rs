//! The paper's experiments: each is a function returning [`Table`]s; the
//! CLI (`shogi-lab experiments`) runs them, writes `<out>/<name>.md` and the
//! experiment's figures ([`figures`]) as `<out>/<name>-<figure>.svg`.

pub mod figures;
pub mod peers;
pub mod perft_speed;
pub mod placement;
pub mod quantum;
pub mod quantum_game;
pub mod records;
pub mod tsume;

use std::fmt::Write;
use std::path::Path;

/// A result table in Markdown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    /// Heading.
    pub title: String,
    /// Column names.
    pub columns: Vec<String>,
    /// Rows of cells.
    pub rows: Vec<Vec<String>>,
    /// Notes printed under the table (commands, machine, caveats).
    pub notes: Vec<String>,
}

impl Table {
    /// Renders as a Markdown section.
    pub fn to_markdown(&self) -> String {
        let mut s = format!("## {}\n\n", self.title);
        let _ = writeln!(s, "| {} |", self.columns.join(" | "));
        let _ = writeln!(
            s,
            "|{}|",
            self.columns
                .iter()
                .map(|_| "---")
                .collect::<Vec<_>>()
                .join("|")
        );
        for r in &self.rows {
            let _ = writeln!(s, "| {} |", r.join(" | "));
        }
        if !self.notes.is_empty() {
            s.push('\n');
            for n in &self.notes {
                let _ = writeln!(s, "{n}");
            }
        }
        s
    }

    /// Reads back the tables of a results file written by [`Table::to_markdown`]
    /// (after the `# name` heading and description the CLI puts first): each `## title`,
    /// its `| … |` rows and the lines under it up to the next `## ` as notes
    /// (blank lines dropped). Used to draw figures from an earlier run's tables.
    pub fn parse_markdown(md: &str) -> Vec<Table> {
        let cells = |line: &str| -> Vec<String> {
            let inner = line.trim().trim_start_matches('|').trim_end_matches('|');
            inner.split(" | ").map(|c| c.trim().to_string()).collect()
        };
        let mut out: Vec<Table> = Vec::new();
        for line in md.lines() {
            if let Some(title) = line.strip_prefix("## ") {
                out.push(Table {
                    title: title.to_string(),
                    columns: Vec::new(),
                    rows: Vec::new(),
                    notes: Vec::new(),
                });
                continue;
            }
            let Some(t) = out.last_mut() else { continue };
            if line.starts_with('|') && t.notes.is_empty() {
                if t.columns.is_empty() {
                    t.columns = cells(line);
                } else if !line.starts_with("|---") {
                    t.rows.push(cells(line));
                }
            } else if !line.trim().is_empty() {
                t.notes.push(line.to_string());
            }
        }
        out
    }
}

/// How an experiment runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config<'a> {
    /// Long runs (`--full`) instead of the quick default.
    pub full: bool,
    /// Where the peer scripts' data files are (`--data`, default `paper/results`).
    pub data: &'a Path,
}

/// Progress callback: (done, total) steps.
pub type Progress<'a> = &'a (dyn Fn(u64, u64) + Sync);

/// A registered experiment.
pub struct Experiment {
    /// Name used on the command line and as the results file stem.
    pub name: &'static str,
    /// One line on what it measures.
    pub description: &'static str,
    /// Runs it.
    pub run: fn(Config, Progress<'_>) -> Result<Vec<Table>, String>,
}

/// Every registered experiment, in the order they run.
pub fn registry() -> Vec<Experiment> {
    vec![
        perft_speed::EXPERIMENT,
        records::EXPERIMENT,
        quantum::EXPERIMENT,
        tsume::EXPERIMENT,
        quantum_game::EXPERIMENT,
        placement::EXPERIMENT,
        placement::EXPERIMENT_39,
        peers::EXPERIMENT,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markdown_round_trips() {
        let t = vec![
            Table {
                title: "One".into(),
                columns: vec!["a".into(), "b c".into()],
                rows: vec![
                    vec!["1".into(), "0.20 (5 nodes)".into()],
                    vec!["–".into(), "".into()],
                ],
                notes: vec!["Command: `x`.".into(), "Second note.".into()],
            },
            Table {
                title: "Two".into(),
                columns: vec!["x".into()],
                rows: vec![vec!["−飛".into()]],
                notes: Vec::new(),
            },
        ];
        let md = format!(
            "# name\n\ndescription\n\n{}\n{}\n",
            t[0].to_markdown(),
            t[1].to_markdown()
        );
        assert_eq!(Table::parse_markdown(&md), t);
    }

    #[test]
    fn every_committed_results_file_parses_back() {
        // The tables the figures read from `--figures-only` runs.
        for name in ["quantum", "placement-39", "placement-39-full"] {
            let path = format!("{}/paper/results/{name}.md", env!("CARGO_MANIFEST_DIR"));
            let md = std::fs::read_to_string(&path).unwrap();
            let tables = Table::parse_markdown(&md);
            assert!(!tables.is_empty(), "{path}");
            for t in &tables {
                assert_eq!(
                    t.to_markdown().lines().next(),
                    Some(format!("## {}", t.title).as_str())
                );
                for r in &t.rows {
                    assert_eq!(r.len(), t.columns.len(), "{path}: {r:?}");
                }
            }
        }
    }
}
