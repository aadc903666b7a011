//! Perft speed on the positions of `specs/perft/*.perft` (embedded), each
//! count checked against its published value.

use super::{Config, Experiment, Progress, Table};
use crate::notation::sfen::parse_position;
use crate::rules::{perft, Rules};
use crate::thread_clock::{thread_cpu, Stopwatch};

/// The perft spec files, embedded so the experiment needs no checkout paths.
pub const SPEC_FILES: &[(&str, &str)] = &[
    (
        "startpos.perft",
        include_str!("../../specs/perft/startpos.perft"),
    ),
    (
        "matsuri.perft",
        include_str!("../../specs/perft/matsuri.perft"),
    ),
    (
        "max-moves.perft",
        include_str!("../../specs/perft/max-moves.perft"),
    ),
    (
        "tricky.perft",
        include_str!("../../specs/perft/tricky.perft"),
    ),
];

/// One position with its known perft counts.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PerftCase {
    /// Identifier.
    pub id: String,
    /// The SFEN.
    pub sfen: String,
    /// `(depth, nodes)` pairs.
    pub counts: Vec<(u32, u64)>,
    /// `# Source:` lines.
    pub sources: Vec<String>,
}

/// An error in a `.perft` file, with its line number (1-based).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}")]
pub struct PerftSpecError {
    /// Line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

/// Reads a `.perft` file: blocks of `id <name>`, `sfen <SFEN>`, `perft <depth> <nodes>` lines;
/// `#` comments; `# Source:` lines belong to the case above them, or to every case when they come before the first `id`.
///
/// # Errors
/// [`PerftSpecError`] naming the line.
pub fn read_perft_specs(text: &str) -> Result<Vec<PerftCase>, PerftSpecError> {
    let mut cases: Vec<PerftCase> = Vec::new();
    let mut pending_sources = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let e = |m: &str| PerftSpecError {
            line: i + 1,
            message: m.to_string(),
        };
        if line.is_empty() {
            continue;
        }
        if let Some(src) = line.strip_prefix("# Source:") {
            match cases.last_mut() {
                Some(c) => c.sources.push(src.trim().to_string()),
                None => pending_sources.push(src.trim().to_string()),
            }
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        let (key, rest) = line
            .split_once(char::is_whitespace)
            .ok_or_else(|| e("expected `key value`"))?;
        let rest = rest.trim();
        match key {
            "id" => cases.push(PerftCase {
                id: rest.to_string(),
                sfen: String::new(),
                counts: Vec::new(),
                sources: pending_sources.clone(),
            }),
            "sfen" => cases.last_mut().ok_or_else(|| e("sfen before id"))?.sfen = rest.to_string(),
            "perft" => {
                let mut it = rest.split_whitespace();
                let d = it
                    .next()
                    .and_then(|x| x.parse().ok())
                    .ok_or_else(|| e("bad depth"))?;
                let n = it
                    .next()
                    .and_then(|x| x.parse().ok())
                    .ok_or_else(|| e("bad node count"))?;
                if it.next().is_some() {
                    return Err(e("text after node count"));
                }
                cases
                    .last_mut()
                    .ok_or_else(|| e("perft before id"))?
                    .counts
                    .push((d, n));
            }
            _ => return Err(e("unknown key (expected id, sfen or perft)")),
        }
    }
    if let Some(c) = cases.iter().find(|c| c.sfen.is_empty()) {
        return Err(PerftSpecError {
            line: 0,
            message: format!("case {} has no sfen", c.id),
        });
    }
    Ok(cases)
}

/// All embedded perft cases.
///
/// # Panics
/// If an embedded spec file is malformed (a test guards this).
pub fn embedded_cases() -> Vec<PerftCase> {
    SPEC_FILES
        .iter()
        .flat_map(|(name, text)| {
            read_perft_specs(text).unwrap_or_else(|e| panic!("specs/perft/{name}: {e}"))
        })
        .collect()
}

/// Each case runs at least this long (seconds) so that the tick-granular CPU clock is exact enough.
const MIN_SECS: f64 = 0.25;

fn run(config: Config, progress: Progress<'_>) -> Result<Vec<Table>, String> {
    let limit: u64 = if config.full { 600_000_000 } else { 30_000_000 };
    let cases = embedded_cases();
    let jobs: Vec<(&PerftCase, u32, u64)> = cases
        .iter()
        .flat_map(|c| {
            c.counts
                .iter()
                .filter(|&&(_, n)| n <= limit)
                .map(move |&(d, n)| (c, d, n))
        })
        .collect();
    let mut rows = Vec::new();
    // CPU time of this thread where the platform gives it (Linux), else wall clock.
    let cpu = thread_cpu().is_some();
    for (i, (case, depth, expected)) in jobs.iter().enumerate() {
        progress(i as u64, jobs.len() as u64);
        let mut pos =
            parse_position(&case.sfen, Rules::STANDARD).map_err(|e| format!("{}: {e}", case.id))?;
        // The thread's CPU clock advances in scheduler ticks, so a case is repeated until
        // it has run for `MIN_SECS` and the time per run is the mean.
        let t = Stopwatch::start();
        let elapsed = || t.elapsed().as_secs_f64();
        // Batches double in size, so reading the clock (a /proc read) costs next to nothing.
        let (mut runs, mut batch) = (0u64, 1u64);
        let mut nodes = 0;
        'timing: loop {
            for _ in 0..batch {
                nodes = perft(&mut pos, *depth);
                runs += 1;
                if nodes != *expected {
                    break 'timing;
                }
            }
            if elapsed() >= MIN_SECS {
                break;
            }
            batch *= 2;
        }
        let secs = elapsed() / runs as f64;
        if nodes != *expected {
            return Err(format!(
                "{} depth {depth}: {nodes} nodes, expected {expected}",
                case.id
            ));
        }
        rows.push(vec![
            case.id.clone(),
            depth.to_string(),
            nodes.to_string(),
            runs.to_string(),
            format!("{:.3}", secs * 1e6),
            format!("{:.1}", nodes as f64 / secs.max(1e-9) / 1e6),
            "✓".to_string(),
        ]);
    }
    progress(jobs.len() as u64, jobs.len() as u64);
    Ok(vec![Table {
        title: "Perft speed (single thread, bulk counting at the last ply)".into(),
        columns: [
            "position",
            "depth",
            "nodes",
            "runs",
            if cpu { "CPU µs per run" } else { "wall µs per run" },
            if cpu { "M nodes / CPU s" } else { "M nodes / wall s" },
            "matches spec",
        ]
        .map(String::from)
        .to_vec(),
        rows,
        notes: vec![
            format!(
                "Command: `cargo run --release -- experiments perft{}` (cases with at most {limit} nodes).",
                if config.full { " --full" } else { "" }
            ),
            "Counts are checked against `specs/perft/*.perft`; a mismatch fails the experiment.".into(),
            if cpu {
                "Time: CPU time of the perft thread (`/proc/thread-self/schedstat`), each case \
                 repeated until it has run for 0.25 s (runs), the mean per run."
            } else {
                "Time: wall clock (this platform gives no thread CPU time), each case repeated \
                 until it has run for 0.25 s (runs), the mean per run."
            }
            .into(),
            "Side by side with haitaka, yasai and cshogi (CPU time, one run, engines alternating): \
             `python3 paper/scripts/perft_peers.py` → `paper/results/perft-peers.md`."
                .into(),
        ],
    }])
}

/// The registered experiment.
pub const EXPERIMENT: Experiment = Experiment {
    name: "perft",
    description: "perft nodes/s on the specs positions, counts checked",
    run,
};
