//! `shogi_lab.placement.count` / `first` (利かずの駒並べ).

use super::input_error;
use crate::placement::{check_placement, sweep_count_shard, Directions, First, PieceSet, Problem};
use crate::shard::Shard;
use pyo3::prelude::*;
use pyo3::types::PyDict;

fn problem(pieces: &str, both_directions: bool) -> PyResult<Problem> {
    let set = PieceSet::parse(pieces)
        .map_err(|e| input_error(format!("bad piece set {pieces:?}: {e}")))?;
    let dirs = if both_directions {
        Directions::Two
    } else {
        Directions::One
    };
    Ok(Problem::new(set, dirs))
}

/// Counts placements (the CLI's `place --count [--sweep] [--shard I/N] --json` fields).
#[pyfunction]
#[pyo3(signature = (pieces, both_directions=false, method="search", shard=None))]
pub fn placement_count<'py>(
    py: Python<'py>,
    pieces: &str,
    both_directions: bool,
    method: &str,
    shard: Option<(u64, u64)>,
) -> PyResult<Bound<'py, PyDict>> {
    let p = problem(pieces, both_directions)?;
    let shard = match shard {
        Some((i, n)) => Shard::new(i, n).map_err(input_error)?,
        None => Shard::WHOLE,
    };
    let d = PyDict::new_bound(py);
    d.set_item("pieces", p.set.to_string())?;
    d.set_item("directions", if both_directions { "two" } else { "one" })?;
    d.set_item("method", method)?;
    d.set_item("shard", (shard.index(), shard.count()))?;
    match method {
        "search" => {
            let c = py.allow_threads(|| p.count_shard(shard, &|_, _| {}));
            d.set_item("count", c.count)?;
            d.set_item("mirror_symmetric", c.symmetric)?;
            d.set_item("nodes", c.nodes)?;
        }
        "sweep" => {
            let c = py
                .allow_threads(|| sweep_count_shard(&p, shard, &|_, _| {}))
                .map_err(input_error)?;
            d.set_item("count", c.count)?;
            d.set_item("mirror_symmetric", c.symmetric)?;
            d.set_item("layouts", c.layouts)?;
            d.set_item("states", c.states)?;
        }
        other => {
            return Err(input_error(format!(
                "bad method {other:?}: expected \"search\" or \"sweep\""
            )))
        }
    }
    Ok(d)
}

/// One placement or a proof that none exists: `(result, sfen or None, nodes)`.
#[pyfunction]
#[pyo3(signature = (pieces, both_directions=false, node_limit=None))]
pub fn placement_first(
    py: Python<'_>,
    pieces: &str,
    both_directions: bool,
    node_limit: Option<u64>,
) -> PyResult<(&'static str, Option<String>, u64)> {
    let p = problem(pieces, both_directions)?;
    let (answer, nodes) = py.allow_threads(|| p.first(node_limit));
    Ok(match answer {
        First::Found(b) => {
            check_placement(&p, &b).map_err(|e| {
                pyo3::exceptions::PyRuntimeError::new_err(format!(
                    "solver output failed the checker: {e}: {}",
                    b.sfen()
                ))
            })?;
            ("found", Some(b.sfen()), nodes)
        }
        First::Impossible => ("impossible", None, nodes),
        First::Unknown => ("unknown", None, nodes),
    })
}
