//! df-pn on 将棋図巧 + 将棋無双 (200 problems) and ミクロコスモス: solved count,
//! nodes and time per problem; every mate's line is replayed by the checker
//! inside `tsume::solve` (an unverified line is reported as unknown).

use super::{Config, Experiment, Progress, Table};
use crate::tsume::problems::read_problems;
use crate::tsume::{load_problem, solve, DefenderHand, Outcome, SolverOptions};

const CLASSICS: &str = include_str!("../../specs/tsume/classics.sfen");
const MICROCOSMOS: &str = include_str!("../../specs/tsume/microcosmos.sfen");

/// Quick mode: the first problems of 図巧 and of 無双.
const QUICK: usize = 10;
/// Node limit per classic with `--full` (図巧8 needs about 20 M, the next hardest about 3 M).
const FULL_NODES: u64 = 25_000_000;
/// Node limit for ミクロコスモス (1525 plies) with `--full`.
const MICROCOSMOS_NODES: u64 = 60_000_000;

fn run(config: Config, progress: Progress<'_>) -> Result<Vec<Table>, String> {
    let classics = read_problems(CLASSICS);
    let mut problems: Vec<_> = if config.full {
        classics
            .into_iter()
            .chain(read_problems(MICROCOSMOS))
            .collect()
    } else {
        let z = classics
            .iter()
            .filter(|p| p.id.starts_with("zukou"))
            .take(QUICK);
        let m = classics
            .iter()
            .filter(|p| p.id.starts_with("musou"))
            .take(QUICK);
        z.chain(m).cloned().collect()
    };
    problems.sort_by_key(|p| !p.id.starts_with("zukou"));
    let node_limit: u64 = if config.full { FULL_NODES } else { 1_000_000 };
    let (mut solved, mut total_nodes, mut total_ms) = (0usize, 0u64, 0u128);
    let mut proven_shortest = 0usize;
    let mut rows = Vec::new();
    for (i, p) in problems.iter().enumerate() {
        progress(i as u64, problems.len() as u64);
        let pos =
            load_problem(&p.sfen, DefenderHand::Remaining).map_err(|e| format!("{}: {e}", p.id))?;
        let limit = if p.id.starts_with("microcosmos") {
            MICROCOSMOS_NODES
        } else {
            node_limit
        };
        let opts = SolverOptions {
            nodes: Some(limit),
            memory_mib: 1024,
            ..SolverOptions::default()
        };
        let r = solve(&pos, &opts);
        let ms = r.stats.time.as_millis();
        if r.outcome == Outcome::Mate {
            solved += 1;
            if r.shortest == Some(true) {
                proven_shortest += 1;
            }
        }
        total_nodes += r.stats.nodes;
        total_ms += ms;
        rows.push(vec![
            p.id.clone(),
            p.extra.first().cloned().unwrap_or_default(),
            r.outcome.as_str().to_string(),
            if r.outcome == Outcome::Mate {
                r.line.len().to_string()
            } else {
                "–".into()
            },
            match r.shortest {
                Some(true) if r.outcome == Outcome::Mate => "proven".into(),
                Some(false) if r.outcome == Outcome::Mate => "not proven".into(),
                _ => "–".into(),
            },
            r.stats.nodes.to_string(),
            format!("{:.2}", ms as f64 / 1000.0),
        ]);
    }
    progress(problems.len() as u64, problems.len() as u64);
    let summary = Table {
        title: "df-pn tsume: summary".into(),
        columns: ["problems", "solved (verified mate)", "length proven shortest", "total nodes", "total seconds", "node limit / problem"].map(String::from).to_vec(),
        rows: vec![vec![
            problems.len().to_string(),
            solved.to_string(),
            proven_shortest.to_string(),
            total_nodes.to_string(),
            format!("{:.1}", total_ms as f64 / 1000.0),
            if config.full {
                format!("{node_limit} (ミクロコスモス {MICROCOSMOS_NODES})")
            } else {
                node_limit.to_string()
            },
        ]],
        notes: vec![
            format!("Command: `cargo run --release -- experiments tsume{}`.", if config.full { " --full" } else { "" }),
            "The solver's default answer: the proven-shortest line (攻方最短・玉方最長, 無駄合 not counted; specs/tsume.md); `shortest` says whether the node limit allowed the disproof within L − 2 plies. Single thread, table 1024 MiB. Wall times depend on machine load (the machine is shared); node counts are deterministic.".into(),
        ],
    };
    let detail = Table {
        title: "df-pn tsume: per problem".into(),
        columns: ["id", "upstream line length", "result", "plies found", "shortest", "nodes", "seconds"].map(String::from).to_vec(),
        rows,
        notes: vec!["`upstream line length` is the length of a verified mating line from the data source, not always the intended (作意) length.".into()],
    };
    Ok(vec![summary, detail])
}

/// The registered experiment.
pub const EXPERIMENT: Experiment = Experiment {
    name: "tsume",
    description: "df-pn on 図巧/無双 (quick: 10+10 problems, 1 M nodes; --full: all 200 at 25 M nodes + ミクロコスモス at 60 M; written to tsume-full.md)",
    run,
};
