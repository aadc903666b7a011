//! `shogi_lab.placement.count` / `first` (利かずの駒並べ). Both run on a thread of their
//! own (rayon's workers under it) and poll a stop flag that Ctrl-C sets: the count or
//! search gives up within a few thousand nodes per worker and `KeyboardInterrupt` is raised.

use super::{argument_error, input_error, interrupted, interruptible};
use crate::output::placement::{direction_name, PlaceCount, PlaceFirst};
use crate::output::{millis, to_line};
use crate::placement::{
    check_placement, sweep_count_shard_until, Directions, First, PieceSet, Problem,
};
use crate::shard::Shard;
use pyo3::prelude::*;
use std::time::Instant;

fn problem(pieces: &str, both_directions: bool) -> PyResult<Problem> {
    let set = PieceSet::parse(pieces)
        .map_err(|e| argument_error(&format!("bad piece set {pieces:?}"), pieces, &e))?;
    let dirs = if both_directions {
        Directions::Two
    } else {
        Directions::One
    };
    Ok(Problem::new(set, dirs))
}

/// Counts placements: the JSON object of `place --count [--sweep] [--shard I/N] --json`
/// ([`PlaceCount`], one struct for both), as text (the Python wrapper parses it).
#[pyfunction]
#[pyo3(signature = (pieces, both_directions=false, method="search", shard=None))]
pub fn placement_count(
    py: Python<'_>,
    pieces: &str,
    both_directions: bool,
    method: &str,
    shard: Option<(u64, u64)>,
) -> PyResult<String> {
    let p = problem(pieces, both_directions)?;
    let shard = match shard {
        Some((i, n)) => Some(Shard::new(i, n).map_err(input_error)?),
        None => None,
    };
    let part = shard.unwrap_or(Shard::WHOLE);
    let t = Instant::now();
    let out = match method {
        "search" => {
            let c = interruptible(py, |c| {
                p.count_shard_until(part, &|_, _| {}, &|| c.0.is_stopped())
            })?
            .ok_or_else(interrupted)?;
            if c.overflowed() {
                return Err(pyo3::exceptions::PyOverflowError::new_err(
                    crate::placement::SweepError::Overflow.to_string(),
                ));
            }
            PlaceCount::search(&p.set, p.dirs, shard, &c, millis(t.elapsed()))
        }
        "sweep" => {
            let c = interruptible(py, |c| {
                sweep_count_shard_until(&p, part, &|_, _| {}, &|| c.0.is_stopped())
            })?
            .map_err(|e| match e {
                // The default limit (half the available memory) was reached.
                crate::placement::SweepError::MemoryLimit { .. } => {
                    pyo3::exceptions::PyMemoryError::new_err(e.to_string())
                }
                crate::placement::SweepError::Overflow => {
                    pyo3::exceptions::PyOverflowError::new_err(e.to_string())
                }
                e => input_error(e),
            })?
            .ok_or_else(interrupted)?;
            PlaceCount::sweep(&p.set, shard, &c, millis(t.elapsed()))
        }
        other => {
            return Err(input_error(format!(
                "bad method {other:?}: expected \"search\" or \"sweep\""
            )))
        }
    };
    Ok(to_line(&out))
}

/// One placement or a proof that none exists: the JSON object of `place --first --json`
/// ([`PlaceFirst`]), as text. `node_limit` is the CLI's `--node-limit`: at least 1 (the
/// search polls it every 4 096 nodes of each worker, so 0 ran as if no smaller than that).
#[pyfunction]
#[pyo3(signature = (pieces, both_directions=false, node_limit=None))]
pub fn placement_first(
    py: Python<'_>,
    pieces: &str,
    both_directions: bool,
    node_limit: Option<u64>,
) -> PyResult<String> {
    if node_limit == Some(0) {
        // As the CLI refuses `--node-limit 0`.
        return Err(input_error("bad node_limit 0: need at least 1"));
    }
    let p = problem(pieces, both_directions)?;
    let t = Instant::now();
    let (answer, nodes) = interruptible(py, |c| p.first_until(node_limit, &|| c.0.is_stopped()))?
        .ok_or_else(interrupted)?;
    let (result, sfen) = match answer {
        First::Found(b) => {
            check_placement(&p, &b).map_err(|e| {
                pyo3::exceptions::PyRuntimeError::new_err(format!(
                    "solver output failed the checker: {e}: {}",
                    b.sfen()
                ))
            })?;
            ("found", Some(b.sfen()))
        }
        First::Impossible => ("impossible", None),
        First::Unknown => ("unknown", None),
    };
    Ok(to_line(&PlaceFirst {
        pieces: p.set.to_string(),
        directions: direction_name(p.dirs),
        result,
        sfen,
        nodes,
        time_ms: millis(t.elapsed()),
    }))
}
