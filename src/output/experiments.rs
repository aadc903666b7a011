//! `experiments --json`.

use serde::Serialize;

/// One experiment's tables.
#[derive(Debug, Clone, Serialize)]
pub struct ExperimentOut {
    /// Its name (`experiments --list`).
    pub name: &'static str,
    /// What it measures.
    pub description: &'static str,
    /// Its tables.
    pub tables: Vec<TableOut>,
    /// The Markdown file written.
    pub file: String,
    /// Elapsed milliseconds.
    pub time_ms: u64,
}

/// A table: cells as the Markdown shows them.
#[derive(Debug, Clone, Serialize)]
pub struct TableOut {
    /// Heading.
    pub title: String,
    /// Column names.
    pub columns: Vec<String>,
    /// Rows of cells.
    pub rows: Vec<Vec<String>>,
    /// Notes under the table (commands, machine, caveats).
    pub notes: Vec<String>,
}
