//! `shogi_lab.tsume.solve`: the df-pn solver with the CLI's conventions.

use super::input_error;
use crate::cli::certificate::certify_answer;
use crate::notation::japanese::ki2_line;
use crate::notation::sfen::write_sfen;
use crate::tsume::{load_problem, DefenderHand, Outcome, Solver, SolverOptions};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::time::Duration;

/// Solves one problem (`sfen`: a SFEN or USI position text, read as `shogi-lab tsume`
/// reads it); returns the fields of the CLI's `tsume --json` line.
#[pyfunction]
#[pyo3(signature = (sfen, nodes=None, time=None, memory_mib=256, shortest=true, defender_hand_as_given=false, certify=true, count_futile=false))]
pub fn tsume_solve<'py>(
    py: Python<'py>,
    sfen: &str,
    nodes: Option<u64>,
    time: Option<f64>,
    memory_mib: usize,
    shortest: bool,
    defender_hand_as_given: bool,
    certify: bool,
    count_futile: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let time = match time {
        Some(t) if !(t.is_finite() && t > 0.0) => {
            return Err(input_error(format!("bad time {t}: expected seconds > 0")))
        }
        t => t.map(Duration::from_secs_f64),
    };
    if memory_mib == 0 {
        return Err(input_error("bad memory_mib 0: expected at least 1"));
    }
    let defender = if defender_hand_as_given {
        DefenderHand::AsGiven
    } else {
        DefenderHand::Remaining
    };
    let pos = load_problem(sfen, defender).map_err(input_error)?;
    let mut solver = Solver::try_new(SolverOptions {
        shortest,
        nodes,
        time,
        memory_mib,
        count_futile,
        ..SolverOptions::default()
    })
    .map_err(|e| pyo3::exceptions::PyMemoryError::new_err(e.to_string()))?;
    // As `tsume --json`: the certificate is extracted and checked in-process (`certified`).
    let (r, cert) = py.allow_threads(|| {
        let r = solver.solve(&pos);
        let c = certify_answer(&solver, &pos, &r, None, certify);
        (r, c)
    });
    let cert = cert.map_err(|f| input_error(f.message))?;
    let mate = r.outcome == Outcome::Mate;
    let d = PyDict::new_bound(py);
    d.set_item("sfen", write_sfen(&pos))?;
    d.set_item("result", r.outcome.as_str())?;
    d.set_item("plies", mate.then_some(r.line.len()))?;
    d.set_item(
        "usi",
        r.line.iter().map(|m| m.to_string()).collect::<Vec<_>>(),
    )?;
    d.set_item("kif", mate.then(|| ki2_line(&pos, &r.line)))?;
    d.set_item("shortest", r.shortest)?;
    d.set_item("no_mate_within", r.no_mate_within)?;
    d.set_item("mate_within", r.mate_within)?;
    d.set_item("certified", cert.certified)?;
    d.set_item("shortest_certified", cert.shortest_certified)?;
    d.set_item("nodes", r.stats.nodes)?;
    d.set_item("plays", r.stats.plays)?;
    d.set_item("time_ms", r.stats.time.as_millis() as u64)?;
    Ok(d)
}

/// The problems of a problem file's text (one SFEN per line, `id<TAB>SFEN`,
/// `#` comments) as `(id, sfen, line)`, read as `shogi-lab tsume FILE` reads them.
#[pyfunction]
pub fn tsume_problems(text: &str) -> Vec<(String, String, usize)> {
    crate::tsume::problems::read_problems(text)
        .into_iter()
        .map(|p| (p.id, p.sfen, p.line))
        .collect()
}

/// `(start, end)`: shard `index` of `count`'s contiguous block of `0..total`
/// (the `--shard I/N` partition of a problem list).
#[pyfunction]
pub fn shard_block(index: u64, count: u64, total: usize) -> PyResult<(usize, usize)> {
    let r = crate::shard::Shard::new(index, count)
        .map_err(input_error)?
        .items(total);
    Ok((r.start, r.end))
}
