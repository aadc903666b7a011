//! `shogi_lab.gen.positions|tsume|quantum|records`: the vectors of `shogi-lab gen`
//! ([`crate::testdata::gen`]), as the same JSON lines the CLI prints, for a whole
//! run or one `shard=(i, n)` (the `--shard I/N` partition: the parts concatenated in
//! order are the unsharded output, byte for byte).

use super::input_error;
use crate::output::to_line;
use crate::shard::Shard;
use crate::testdata::gen::{self, RecordFormat, TsumeOptions};
use pyo3::prelude::*;

/// The CLI's bound on `--count` (`src/cli/gen.rs`).
const MAX_COUNT: u64 = 100_000_000;

/// Appends `v` as one JSON line, as the CLI prints it.
fn push_line(out: &mut String, v: &impl serde::Serialize) {
    out.push_str(&to_line(v));
    out.push('\n');
}

fn count_of(count: u64) -> PyResult<usize> {
    if !(1..=MAX_COUNT).contains(&count) {
        return Err(input_error(format!(
            "bad count {count}: need 1 to {MAX_COUNT}"
        )));
    }
    Ok(count as usize)
}

/// The shard, and whether its block of `count` vectors is empty (then nothing is
/// generated: arguments are checked for free, e.g. by the Ray driver with `(count, count + 1)`).
fn shard_of(shard: Option<(u64, u64)>, count: usize) -> PyResult<(Shard, bool)> {
    let s = match shard {
        Some((i, n)) => Shard::new(i, n).map_err(input_error)?,
        None => Shard::WHOLE,
    };
    Ok((s, s.items(count).is_empty()))
}

/// The lines of `gen positions --count COUNT --seed SEED --depth DEPTH [--shard I/N]`.
#[pyfunction]
#[pyo3(signature = (count, seed=1, depth=2, shard=None))]
pub fn gen_positions(
    py: Python<'_>,
    count: u64,
    seed: u64,
    depth: u32,
    shard: Option<(u64, u64)>,
) -> PyResult<String> {
    let count = count_of(count)?;
    if depth > 5 {
        return Err(input_error(format!("bad depth {depth}: need 0 to 5")));
    }
    let (shard, empty) = shard_of(shard, count)?;
    if empty {
        return Ok(String::new());
    }
    // On a thread of its own: Ctrl-C stops the walks and the perft counts (a depth-5 vector
    // alone can count for many seconds) and raises KeyboardInterrupt.
    super::interruptible(py, |c| {
        let mut out = String::new();
        gen::positions_until(count, seed, depth, shard, &|| c.0.is_stopped(), |v| {
            push_line(&mut out, &v)
        })
        .map(|()| out)
    })?
    .ok_or_else(super::interrupted)
}

/// The lines of `gen tsume --count COUNT --plies PLIES …` and the indices (0-based, of
/// the whole run) of the vectors that found no mate of exactly `plies` plies within
/// `max_candidates` candidate positions (left out of the lines; the CLI exits 1).
#[pyfunction]
#[pyo3(signature = (count, plies, seed=1, nodes=200_000, max_candidates=100_000, shard=None))]
pub fn gen_tsume(
    py: Python<'_>,
    count: u64,
    plies: u16,
    seed: u64,
    nodes: u64,
    max_candidates: u64,
    shard: Option<(u64, u64)>,
) -> PyResult<(String, Vec<usize>)> {
    let count = count_of(count)?;
    if plies == 0 || plies > 255 || plies % 2 == 0 {
        return Err(input_error(format!(
            "bad plies {plies}: a mate has an odd number of plies (1 to 255)"
        )));
    }
    if nodes == 0 {
        return Err(input_error("bad nodes 0: need at least 1"));
    }
    if max_candidates == 0 {
        return Err(input_error("bad max_candidates 0: need at least 1"));
    }
    let (shard, empty) = shard_of(shard, count)?;
    if empty {
        return Ok((String::new(), Vec::new()));
    }
    let o = TsumeOptions {
        plies,
        nodes,
        max_candidates,
    };
    // On a thread with the solver's deep stack (it recurses per ply, as the CLI's does);
    // Ctrl-C stops the candidate's solve and the generator, and raises KeyboardInterrupt.
    super::interruptible(py, |c| {
        let (mut out, mut missing) = (String::new(), Vec::new());
        gen::tsume_until(count, seed, o, shard, Some(c), |i, v| match v {
            Some(v) => push_line(&mut out, &v),
            None => missing.push(i),
        })
        .map(|_| (out, missing))
    })?
    .ok_or_else(super::interrupted)
}

/// The lines of `gen quantum --count COUNT --seed SEED [--shard I/N]`.
#[pyfunction]
#[pyo3(signature = (count, seed=1, shard=None))]
pub fn gen_quantum(
    py: Python<'_>,
    count: u64,
    seed: u64,
    shard: Option<(u64, u64)>,
) -> PyResult<String> {
    let count = count_of(count)?;
    let (shard, empty) = shard_of(shard, count)?;
    if empty {
        return Ok(String::new());
    }
    // Ctrl-C stops it between two vectors and raises KeyboardInterrupt.
    super::interruptible(py, |c| {
        let mut out = String::new();
        gen::quantum_until(count, seed, shard, &|| c.0.is_stopped(), |v| {
            push_line(&mut out, &v)
        })
        .map(|()| out)
    })?
    .ok_or_else(super::interrupted)
}

/// The lines of `gen records --count COUNT --seed SEED --to TO [--shard I/N]`.
#[pyfunction]
#[pyo3(signature = (count, to, seed=1, shard=None))]
pub fn gen_records(
    py: Python<'_>,
    count: u64,
    to: &str,
    seed: u64,
    shard: Option<(u64, u64)>,
) -> PyResult<String> {
    let count = count_of(count)?;
    let format = match to {
        "kif" => RecordFormat::Kif,
        "ki2" => RecordFormat::Ki2,
        "csa" => RecordFormat::Csa,
        "jkf" => RecordFormat::Jkf,
        "usi" => RecordFormat::Usi,
        other => {
            return Err(input_error(format!(
                "bad format {other:?}: expected \"kif\", \"ki2\", \"csa\", \"jkf\" or \"usi\""
            )))
        }
    };
    let (shard, empty) = shard_of(shard, count)?;
    if empty {
        return Ok(String::new());
    }
    // Ctrl-C stops it between two games and raises KeyboardInterrupt.
    super::interruptible(py, |c| {
        let mut out = String::new();
        gen::records_until(count, seed, format, shard, &|| c.0.is_stopped(), |v| {
            push_line(&mut out, &v)
        })
        .map(|()| out)
    })?
    .ok_or_else(super::interrupted)
}
