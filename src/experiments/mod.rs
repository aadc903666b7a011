//! The paper's experiments: each is a function returning a [`Table`]; the
//! CLI (`shogi-lab experiments`) runs them and writes `paper/results/*.md`.

pub mod perft_speed;
pub mod placement;
pub mod quantum;
pub mod quantum_game;
pub mod records;
pub mod tsume;

use std::fmt::Write;

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
}

/// How an experiment runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Config {
    /// Long runs (`--full`) instead of the quick default.
    pub full: bool,
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
    ]
}
