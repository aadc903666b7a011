//! Tsume figures from the peer runs' data files: CPU time per problem against each
//! peer (log–log, the diagonal drawn), verified mates within a CPU budget, and our
//! line length against the reference length.

use super::chart::{self, Curve, Points, PALETTE};
use super::Figure;
use crate::experiments::peers::{
    engine_name, engines, main_run, read_jsonl, solution_files, TsumePeerRow, TsumeSolutionRow,
    TSUME_PEER_FILES,
};
use plotters::prelude::*;
use std::collections::HashMap;
use std::path::Path;

const OURS: &str = "shogi-lab";

struct Run {
    stem: &'static str,
    what: &'static str,
    rows: Vec<TsumePeerRow>,
    limit: Option<f64>,
}

/// Every tsume figure whose data file exists in `dir`.
///
/// # Errors
/// A malformed data file, or drawing failed.
pub fn figures(dir: &Path) -> Result<Vec<Figure>, String> {
    let mut runs = Vec::new();
    for &(stem, what) in TSUME_PEER_FILES {
        if let Some(rows) = read_jsonl::<TsumePeerRow>(&dir.join(format!("{stem}.jsonl")))? {
            let (rows, limit) = main_run(rows);
            runs.push(Run {
                stem,
                what,
                rows,
                limit,
            });
        }
    }
    let cmd = format!(
        "`cargo run --release -- experiments peers --data {}`",
        dir.display()
    );
    let mut out = Vec::new();
    if !runs.is_empty() {
        out.push(cpu_scatter(&runs, &cmd)?);
        out.push(solved_curves(&runs, &cmd)?);
    }
    for path in solution_files(dir)? {
        if let Some(rows) = read_jsonl::<TsumeSolutionRow>(&path)? {
            out.push(lengths(&path, &rows, &cmd)?);
        }
    }
    Ok(out)
}

fn files(runs: &[Run]) -> String {
    runs.iter()
        .map(|r| format!("`{}.jsonl`", r.stem))
        .collect::<Vec<_>>()
        .join(", ")
}

fn cpu_scatter(runs: &[Run], cmd: &str) -> Result<Figure, String> {
    // One panel per (run, peer).
    let mut panels = Vec::new();
    for run in runs {
        let by_id = |e: &str| -> HashMap<&str, &TsumePeerRow> {
            run.rows
                .iter()
                .filter(|r| r.engine == e)
                .map(|r| (r.id.as_str(), r))
                .collect()
        };
        for peer in engines(run.rows.iter().map(|r| r.engine.as_str())) {
            if peer == OURS {
                continue;
            }
            let theirs = by_id(&peer);
            let mut sets: [Vec<(f64, f64)>; 4] = Default::default();
            // In file order, so that the SVG is the same on every run.
            for o in run.rows.iter().filter(|r| r.engine == OURS) {
                let Some(t) = theirs.get(o.id.as_str()) else {
                    continue;
                };
                let (Some(x), Some(y)) = (t.cpu_s, o.cpu_s) else {
                    continue;
                };
                let k = match (o.verified(), t.verified()) {
                    (true, true) => 0,
                    (true, false) => 1,
                    (false, true) => 2,
                    (false, false) => 3,
                };
                sets[k].push((x, y));
            }
            panels.push((run, peer, sets));
        }
    }
    let w = 520 * panels.len() as u32;
    let range = chart::log_range(
        panels
            .iter()
            .flat_map(|p| p.2.iter().flatten().flat_map(|&(x, y)| [x, y])),
        0.005,
    );
    let svg = chart::svg(w, 560, |root| {
        let body = chart::titled(
            root,
            "df-pn tsume: CPU seconds per problem, shogi-lab against each peer (go mate)",
            36,
        )?;
        let areas = body.split_evenly((1, panels.len()));
        for (area, (run, peer, sets)) in areas.iter().zip(&panels) {
            let peer = engine_name(peer);
            let n: usize = sets.iter().map(Vec::len).sum();
            let labels = [
                "both verified mates".to_string(),
                format!("only {OURS}"),
                format!("only {peer}"),
                "neither".to_string(),
            ];
            let colors = [PALETTE[0], PALETTE[1], PALETTE[5], RGBColor(120, 120, 120)];
            let pts: Vec<Points> = sets
                .iter()
                .zip(labels)
                .zip(colors)
                .enumerate()
                .filter(|(_, ((s, _), _))| !s.is_empty())
                .map(|(k, ((s, label), color))| Points {
                    label: format!("{label} ({})", s.len()),
                    points: s.clone(),
                    color,
                    filled: k == 0,
                })
                .collect();
            chart::scatter(
                area,
                &format!(
                    "{n} problems, limit {}",
                    run.limit.map_or("–".into(), |l| format!("{l} s"))
                ),
                &format!("{peer} CPU s (log)"),
                &format!("{OURS} CPU s (log)"),
                range,
                &pts,
                Some("equal CPU time"),
                SeriesLabelPosition::UpperLeft,
            )?;
        }
        Ok(())
    })?;
    Ok(Figure {
        name: "tsume-cpu".into(),
        caption: format!(
            "CPU seconds (user + system of the engine process, start-up and table allocation included) per problem, one point per problem, shogi-lab (y) against each peer (x) on log–log axes; below the diagonal shogi-lab is faster. Filled: both returned a mate that cshogi replayed; rings: one or neither did (an engine without an answer sits at its limit). Panels: {}. Data: {}, converted once from the runs' Markdown tables by `paper/scripts/peer_table_jsonl.py`. Command: {cmd}.",
            runs.iter().map(|r| r.what).collect::<Vec<_>>().join("; "),
            files(runs)
        ),
        svg,
    })
}

fn solved_curves(runs: &[Run], cmd: &str) -> Result<Figure, String> {
    let w = 620 * runs.len() as u32;
    let svg = chart::svg(w, 520, |root| {
        let body = chart::titled(
            root,
            "df-pn tsume: problems with a verified mate within a CPU budget",
            36,
        )?;
        let areas = body.split_evenly((1, runs.len()));
        for (area, run) in areas.iter().zip(runs) {
            let es = engines(run.rows.iter().map(|r| r.engine.as_str()));
            let problems = engines(run.rows.iter().map(|r| r.id.as_str())).len();
            let hi = run
                .limit
                .unwrap_or_else(|| run.rows.iter().filter_map(|r| r.cpu_s).fold(1.0, f64::max));
            let curves: Vec<Curve> = es
                .iter()
                .enumerate()
                .map(|(i, e)| {
                    let mut t: Vec<f64> = run
                        .rows
                        .iter()
                        .filter(|r| &r.engine == e && r.verified())
                        .filter_map(|r| r.cpu_s)
                        .collect();
                    t.sort_by(f64::total_cmp);
                    Curve {
                        label: engine_name(e).to_string(),
                        points: t
                            .iter()
                            .enumerate()
                            .map(|(k, &s)| (s, (k + 1) as f64))
                            .collect(),
                        color: PALETTE[i % PALETTE.len()],
                    }
                })
                .collect();
            chart::steps(
                area,
                run.what,
                "CPU budget per problem, s (log)",
                "problems solved, line verified",
                (0.005, hi * 2.0),
                problems as f64 * 1.05,
                &curves,
            )?;
        }
        Ok(())
    })?;
    Ok(Figure {
        name: "tsume-solved".into(),
        caption: format!(
            "Problems for which an engine returned a mate that cshogi replayed, within a CPU budget per problem (a problem counts at the CPU seconds its engine process used; the legend gives the total). Panels: {}. KomoringHeights was run on the 7-problem set only. Data: {}. Command: {cmd}.",
            runs.iter().map(|r| r.what).collect::<Vec<_>>().join("; "),
            files(runs)
        ),
        svg,
    })
}

fn lengths(path: &Path, rows: &[TsumeSolutionRow], cmd: &str) -> Result<Figure, String> {
    let stem = path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    let groups: [(&str, &str, Option<bool>, RGBColor, bool); 3] = [
        (
            "solution",
            "solution (default), length proven",
            Some(true),
            PALETTE[0],
            true,
        ),
        (
            "solution",
            "solution (default), not proven within the limit",
            Some(false),
            PALETTE[0],
            false,
        ),
        (
            "any-mate",
            "--any-mate (first proof)",
            None,
            PALETTE[1],
            false,
        ),
    ];
    let mut sets = Vec::new();
    for (mode, label, proven, color, filled) in groups {
        let pts: Vec<(f64, f64)> = rows
            .iter()
            .filter(|r| r.mode == mode && r.result == "mate")
            .filter(|r| proven.map_or(true, |p| r.shortest.unwrap_or(false) == p))
            .filter_map(|r| Some((r.reference? as f64, r.plies? as f64)))
            .collect();
        if !pts.is_empty() {
            sets.push(Points {
                label: format!("{label} ({})", pts.len()),
                points: pts,
                color,
                filled,
            });
        }
    }
    let no_mate = rows.iter().filter(|r| r.result != "mate").count();
    let problems = engines(rows.iter().map(|r| r.id.as_str())).len();
    let modes = engines(rows.iter().map(|r| r.mode.as_str())).len();
    let range = chart::log_range(
        sets.iter()
            .flat_map(|s| s.points.iter().flat_map(|&(x, y)| [x, y])),
        1.0,
    );
    let svg = chart::svg(640, 600, |root| {
        let body = chart::titled(
            root,
            "df-pn tsume: our line length against the reference",
            36,
        )?;
        chart::scatter(
            &body,
            &format!("{problems} problems × {modes} modes, {no_mate} runs without a mate within the limit"),
            "reference length, plies (log)",
            "shogi-lab line, plies (log)",
            range,
            &sets,
            Some("reference length (the goal)"),
            SeriesLabelPosition::LowerRight,
        )
    })?;
    Ok(Figure {
        name: format!("{stem}-length"),
        caption: format!(
            "Length of shogi-lab's mating line against the reference (the upstream verified line of `specs/tsume/classics.sfen`), one point per problem and mode; on the diagonal the lengths agree. Filled: the solution mode proved its length minimal. Data: `{}` (written by `paper/scripts/tsume_solution.sh`). Command: {cmd}.",
            path.display()
        ),
        svg,
    })
}
