//! Peer comparisons from data files: the JSON lines that the peer scripts of
//! `paper/scripts/` write into `paper/results/` (`--data`), turned into tables
//! (and, by [`super::figures`], into figures). Nothing here runs a peer; the
//! numbers come from the files, never typed in. A missing file is named in the
//! table notes; a malformed line is an error with its `file:line`.

use super::{Config, Experiment, Progress, Table};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One (engine, problem) of a `tsume_peers.py` run (`paper/scripts/peer_table_jsonl.py`).
#[derive(Debug, Clone, Deserialize)]
pub struct TsumePeerRow {
    /// Engine name as given to the script (`shogi-lab`, `shtsume`, `kh`).
    pub engine: String,
    /// Problem id (`zukou-001`).
    pub id: String,
    /// `mate`, `nomate`, `timeout`, `killed`, with ` (at limit)` when the clock ran out.
    pub answer: String,
    /// Length of the returned line.
    pub plies: Option<u32>,
    /// cshogi's verdict on the line (`ok` or why not); absent without a line.
    pub check: Option<String>,
    /// CPU seconds of the engine process.
    pub cpu_s: Option<f64>,
    /// `go mate` limit in seconds, when the file records it.
    pub limit_s: Option<f64>,
}

impl TsumePeerRow {
    /// A mate whose line cshogi replayed.
    pub fn verified(&self) -> bool {
        self.answer.starts_with("mate") && self.check.as_deref() == Some("ok")
    }
}

/// One (problem, mode) of `paper/scripts/tsume_solution.sh`.
#[derive(Debug, Clone, Deserialize)]
pub struct TsumeSolutionRow {
    /// Problem id.
    pub id: String,
    /// `solution` or `any-mate`.
    pub mode: String,
    /// Length of the upstream verified line (`specs/tsume/classics.sfen`).
    pub reference: Option<u32>,
    /// `mate`, `nomate`, `unknown`.
    pub result: String,
    /// Our line's length.
    pub plies: Option<u32>,
    /// Whether the length is proven minimal.
    pub shortest: Option<bool>,
}

/// One (position, engine) of `paper/scripts/perft_peers.py`.
#[derive(Debug, Clone, Deserialize)]
pub struct PerftPeerRow {
    /// Position name (`specs/perft`).
    pub position: String,
    /// Perft depth.
    pub depth: u32,
    /// Leaf count (asserted equal for every engine by the script).
    pub nodes: u64,
    /// Engine.
    pub engine: String,
    /// CPU seconds per perft.
    pub cpu_s: f64,
}

impl PerftPeerRow {
    /// Millions of leaves per CPU second.
    pub fn mnps(&self) -> f64 {
        self.nodes as f64 / self.cpu_s.max(1e-9) / 1e6
    }
}

/// The peer run files drawn by default (stem, what the run was).
pub const TSUME_PEER_FILES: &[(&str, &str)] = &[
    (
        "tsume-peers-all",
        "all 200 classics, go mate 60 s, shogi-lab vs shtsume",
    ),
    (
        "tsume-peers",
        "7 problems, go mate 120 s (ミクロコスモス also 300 s), with KomoringHeights",
    ),
];

/// Display name of an engine of the peer scripts.
pub fn engine_name(e: &str) -> &str {
    match e {
        "kh" => "KomoringHeights",
        other => other,
    }
}

/// Reads a JSON-lines file; `Ok(None)` if it does not exist.
///
/// # Errors
/// `file:line: message` for an unreadable file or a malformed line.
pub fn read_jsonl<T: DeserializeOwned>(path: &Path) -> Result<Option<Vec<T>>, String> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", path.display())),
    };
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        out.push(
            serde_json::from_str(line).map_err(|e| format!("{}:{}: {e}", path.display(), i + 1))?,
        );
    }
    Ok(Some(out))
}

/// The `tsume-solution*.jsonl` files in `dir`, sorted by name.
///
/// # Errors
/// An unreadable directory other than a missing one.
pub fn solution_files(dir: &Path) -> Result<Vec<PathBuf>, String> {
    let entries = match std::fs::read_dir(dir) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("{}: {e}", dir.display())),
    };
    let mut v: Vec<PathBuf> = entries
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.starts_with("tsume-solution") && n.ends_with(".jsonl"))
        })
        .collect();
    v.sort();
    Ok(v)
}

/// Engines in order of first appearance.
pub fn engines<'a>(names: impl IntoIterator<Item = &'a str>) -> Vec<String> {
    let mut v: Vec<String> = Vec::new();
    for n in names {
        if !v.iter().any(|x| x == n) {
            v.push(n.to_string());
        }
    }
    v
}

/// The rows of a file's main run: those at its most common `go mate` limit (a file may hold
/// reruns at other limits), and that limit (`None` if the file records none).
pub fn main_run(rows: Vec<TsumePeerRow>) -> (Vec<TsumePeerRow>, Option<f64>) {
    let mut count: HashMap<u64, usize> = HashMap::new();
    for r in &rows {
        *count.entry(r.limit_s.unwrap_or(0.0).to_bits()).or_default() += 1;
    }
    let Some((&bits, _)) = count
        .iter()
        .max_by_key(|(b, n)| (**n, std::cmp::Reverse(**b)))
    else {
        return (rows, None);
    };
    let limit = f64::from_bits(bits);
    let rows = rows
        .into_iter()
        .filter(|r| r.limit_s.unwrap_or(0.0).to_bits() == bits)
        .collect();
    (rows, (limit > 0.0).then_some(limit))
}

/// CPU budgets of the solved-within tables (seconds).
pub const BUDGETS: [f64; 5] = [0.1, 1.0, 10.0, 30.0, 60.0];

fn tsume_table(stem: &str, what: &str, rows: &[TsumePeerRow]) -> Table {
    let mut out = Vec::new();
    for e in engines(rows.iter().map(|r| r.engine.as_str())) {
        let mine: Vec<_> = rows.iter().filter(|r| r.engine == e).collect();
        let solved: Vec<f64> = mine
            .iter()
            .filter(|r| r.verified())
            .map(|r| r.cpu_s.unwrap_or(f64::INFINITY))
            .collect();
        let mut row = vec![
            engine_name(&e).to_string(),
            mine.len().to_string(),
            solved.len().to_string(),
        ];
        row.extend(
            BUDGETS
                .iter()
                .map(|&b| solved.iter().filter(|&&s| s <= b).count().to_string()),
        );
        row.push(format!(
            "{:.1}",
            mine.iter().filter_map(|r| r.cpu_s).sum::<f64>()
        ));
        out.push(row);
    }
    let mut columns = vec![
        "engine".to_string(),
        "problems".into(),
        "verified mates".into(),
    ];
    columns.extend(BUDGETS.iter().map(|b| format!("within {b} CPU s")));
    columns.push("CPU s (sum)".into());
    Table {
        title: format!("tsume: verified mates within a CPU budget ({stem}.jsonl: {what})"),
        columns,
        rows: out,
        notes: vec![format!("Data: `paper/results/{stem}.jsonl` (the per-problem table of `{stem}.md`, converted by `paper/scripts/peer_table_jsonl.py`; the run's command and machine are in `{stem}.md`). A mate counts when cshogi replayed its line (`check` = ok).")],
    }
}

fn solution_table(path: &Path, rows: &[TsumeSolutionRow]) -> Table {
    let mut out = Vec::new();
    for m in engines(rows.iter().map(|r| r.mode.as_str())) {
        let mine: Vec<_> = rows.iter().filter(|r| r.mode == m).collect();
        let mates: Vec<_> = mine.iter().filter(|r| r.result == "mate").collect();
        let cmp = |f: fn(u32, u32) -> bool| {
            mates
                .iter()
                .filter(|r| matches!((r.plies, r.reference), (Some(p), Some(q)) if f(p, q)))
                .count()
                .to_string()
        };
        out.push(vec![
            m,
            mine.len().to_string(),
            mates.len().to_string(),
            cmp(|p, q| p == q),
            cmp(|p, q| p < q),
            cmp(|p, q| p > q),
            mates
                .iter()
                .filter(|r| r.shortest == Some(true))
                .count()
                .to_string(),
        ]);
    }
    Table {
        title: format!("tsume: line length against the reference ({})", file_name(path)),
        columns: [
            "mode",
            "problems",
            "mate",
            "= reference",
            "< reference",
            "> reference",
            "proven shortest",
        ]
        .map(String::from)
        .to_vec(),
        rows: out,
        notes: vec![format!("Data: `{}` (written by `paper/scripts/tsume_solution.sh`; reference = the upstream verified line's length in `specs/tsume/classics.sfen`).", path.display())],
    }
}

fn perft_table(rows: &[PerftPeerRow]) -> Table {
    let es = engines(rows.iter().map(|r| r.engine.as_str()));
    let mut out = Vec::new();
    for p in engines(rows.iter().map(|r| r.position.as_str())) {
        let mine: Vec<_> = rows.iter().filter(|r| r.position == p).collect();
        let mut row = vec![
            p.clone(),
            mine[0].depth.to_string(),
            mine[0].nodes.to_string(),
        ];
        for e in &es {
            row.push(
                mine.iter()
                    .find(|r| &r.engine == e)
                    .map_or("–".into(), |r| format!("{:.0}", r.mnps())),
            );
        }
        out.push(row);
    }
    let mut columns = vec!["position".to_string(), "depth".into(), "nodes".into()];
    columns.extend(es.iter().map(|e| format!("{e} M nodes/CPU s")));
    Table {
        title: "perft: million leaves per CPU second (perft-peers.jsonl)".into(),
        columns,
        rows: out,
        notes: vec!["Data: `paper/results/perft-peers.jsonl` (written by `python3 paper/scripts/perft_peers.py`; command, versions and machine in `perft-peers.md`). Bulk counting at the last ply, single thread; node counts asserted equal across engines by the script.".into()],
    }
}

fn file_name(p: &Path) -> String {
    p.file_name()
        .map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into())
}

fn run(config: Config, progress: Progress<'_>) -> Result<Vec<Table>, String> {
    let dir = config.data;
    let mut tables = Vec::new();
    let mut missing = Vec::new();
    for &(stem, what) in TSUME_PEER_FILES {
        let path = dir.join(format!("{stem}.jsonl"));
        match read_jsonl::<TsumePeerRow>(&path)? {
            Some(rows) => {
                let all = rows.len();
                let (rows, limit) = main_run(rows);
                let mut t = tsume_table(stem, what, &rows);
                if rows.len() < all {
                    t.notes.push(format!(
                        "{} rows at other limits (reruns) are left out; this table is the run at {} s.",
                        all - rows.len(),
                        limit.unwrap_or(0.0)
                    ));
                }
                tables.push(t);
            }
            None => missing.push(path.display().to_string()),
        }
    }
    progress(1, 3);
    for path in solution_files(dir)? {
        if let Some(rows) = read_jsonl::<TsumeSolutionRow>(&path)? {
            tables.push(solution_table(&path, &rows));
        }
    }
    progress(2, 3);
    let path = dir.join("perft-peers.jsonl");
    match read_jsonl::<PerftPeerRow>(&path)? {
        Some(rows) => tables.push(perft_table(&rows)),
        None => missing.push(path.display().to_string()),
    }
    progress(3, 3);
    if let Some(t) = tables.first_mut() {
        t.notes.push(format!(
            "Command: `cargo run --release -- experiments peers --data {}` (reads the data files only; the figures are written next to this table).",
            dir.display()
        ));
    }
    if !missing.is_empty() {
        tables.push(Table {
            title: "missing data files".into(),
            columns: vec!["file".into()],
            rows: missing.into_iter().map(|m| vec![m]).collect(),
            notes: vec!["Run from the repository root, or pass `--data DIR` (the directory of the peer scripts' `*.jsonl`).".into()],
        });
    }
    Ok(tables)
}

/// Tables (and figures) from the peer scripts' data files.
pub const EXPERIMENT: Experiment = Experiment {
    name: "peers",
    description: "peer comparisons from data files (--data, default paper/results/*.jsonl): tsume solved within CPU budgets, line lengths, perft speed; no engine is run",
    run,
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn malformed_line_is_located() {
        let dir = std::env::temp_dir().join(format!("shogi-lab-peers-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let p = dir.join("x.jsonl");
        std::fs::write(
            &p,
            "{\"position\":\"a\",\"depth\":1,\"nodes\":2,\"engine\":\"e\",\"cpu_s\":0.5}\n{oops\n",
        )
        .unwrap();
        let e = read_jsonl::<PerftPeerRow>(&p).unwrap_err();
        assert!(e.contains("x.jsonl:2:"), "{e}");
        assert!(read_jsonl::<PerftPeerRow>(&dir.join("none.jsonl"))
            .unwrap()
            .is_none());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn solved_within_budget_counts_verified_mates_only() {
        let row = |e: &str, answer: &str, check: Option<&str>, cpu: f64| TsumePeerRow {
            engine: e.into(),
            id: "x".into(),
            answer: answer.into(),
            plies: None,
            check: check.map(String::from),
            cpu_s: Some(cpu),
            limit_s: None,
        };
        let rows = [
            row("a", "mate", Some("ok"), 0.05),
            row("a", "mate", Some("ok"), 5.0),
            row("a", "mate", Some("final position is not mate"), 0.01),
            row("a", "nomate (at limit)", None, 60.0),
            row("kh", "mate", Some("ok"), 20.0),
        ];
        let t = tsume_table("s", "w", &rows);
        assert_eq!(t.rows[0], ["a", "4", "2", "1", "1", "2", "2", "2", "65.1"]);
        assert_eq!(
            t.rows[1],
            ["KomoringHeights", "1", "1", "0", "0", "0", "1", "1", "20.0"]
        );
    }

    #[test]
    fn perft_rate_is_nodes_over_seconds() {
        let r = PerftPeerRow {
            position: "p".into(),
            depth: 1,
            nodes: 3_000_000,
            engine: "e".into(),
            cpu_s: 0.5,
        };
        assert!((r.mnps() - 6.0).abs() < 1e-12);
    }
}
