//! `shogi_lab.quantum`: convergence, exact probabilities, observation, perft.

use super::output::to_python;
use super::{argument_error, input_error};
use crate::output::quantum::{ConvergeOut, Observation};
use crate::quantum::enumeration::Diagram;
use crate::quantum::game::{EngineKind, QuantumPosition, Variant};
use crate::quantum::{engine_by_name, Kind, World, PIECES};
use crate::shard::Shard;
use pyo3::prelude::*;

fn world(text: &str) -> PyResult<World> {
    World::parse_exact(text).map_err(|e| argument_error("bad world", text, &e))
}

/// Converges a world: the JSON object of `quantum converge --json` ([`ConvergeOut`]) as
/// text — `{"consistent", "world", "used_up", "conflict"}`, `null` where absent. The `sat`
/// engine runs on a thread of its own and Ctrl-C stops it between two solver calls
/// (varisat cannot be interrupted inside one; a call takes milliseconds, on rare worlds
/// seconds) and raises `KeyboardInterrupt`; the other engines are polynomial and quick.
#[pyfunction]
#[pyo3(signature = (world_text, engine="counting"))]
pub fn quantum_converge(py: Python<'_>, world_text: &str, engine: &str) -> PyResult<String> {
    let w = world(world_text)?;
    if !["counting", "peel", "sat", "enumeration"].contains(&engine) {
        return Err(input_error(format!(
            "bad engine {engine:?}: expected counting, peel, sat or enumeration"
        )));
    }
    let e = engine_by_name(engine).ok_or_else(|| input_error(format!("no engine {engine}")))?;
    let r = if engine == "sat" {
        super::interruptible(py, |c| e.converge_until(&w, &|| c.0.is_stopped()))?
            .ok_or_else(super::interrupted)?
    } else {
        py.allow_threads(|| e.converge(&w))
    };
    Ok(crate::output::to_line(&ConvergeOut::new(&r)))
}

/// `(kinds, counts, total)`: for each piece the number of worlds where it is
/// each kind (in the order of `kinds`), and the number of worlds.
#[pyfunction]
pub fn quantum_probabilities(
    py: Python<'_>,
    world_text: &str,
) -> PyResult<(Vec<String>, Vec<Vec<u128>>, u128)> {
    let w = world(world_text)?;
    let d = py.allow_threads(|| Diagram::build(&w));
    let kinds = Kind::ALL.iter().map(|k| k.letter().to_string()).collect();
    let counts = (0..PIECES)
        .map(|i| Kind::ALL.iter().map(|&k| d.count(i, k)).collect())
        .collect();
    Ok((kinds, counts, d.total()))
}

/// Observes `piece` (0..19) with a seeded draw: the object of `quantum observe --json`
/// ([`ObserveOut`], the CLI's seven keys in its order: `piece`, `kind`, `probability` as the
/// CLI's text `"1/3"`, `world`, `used_up`, `consistent`, `conflict`). A contradictory world
/// is an answer, as for the CLI and `quantum_converge`: `consistent` false, the conflicting
/// pieces in `conflict` (the counting engine's, as the CLI's), the other keys `None`.
#[pyfunction]
pub fn quantum_observe<'py>(
    py: Python<'py>,
    world_text: &str,
    piece: usize,
    seed: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let w = world(world_text)?;
    if piece >= PIECES {
        return Err(input_error(format!("bad piece {piece} (expected 0..19)")));
    }
    let out = Observation::new(&w, piece, seed)
        .map_err(pyo3::exceptions::PyRuntimeError::new_err)?
        .out(piece);
    to_python(py, &out)
}

/// Quantum shogi perft from the initial position (standard variant, counting engine),
/// `depth` 0 to 1000; on a thread of its own, the GIL released; Ctrl-C stops it and
/// raises `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (depth, shard=None))]
pub fn quantum_perft(py: Python<'_>, depth: u32, shard: Option<(u64, u64)>) -> PyResult<u64> {
    super::check_perft_depth(depth)?;
    // The CLI's check: a depth whose count would pass 2^64 − 1 is refused at once.
    crate::rules::perft_reach(
        |d| QuantumPosition::new(EngineKind::Counting, Variant::Standard).perft(d),
        depth,
    )
    .map_err(|e| input_error(e.to_string()))?;
    let shard = match shard {
        Some((i, n)) => Shard::new(i, n).map_err(input_error)?,
        None => Shard::WHOLE,
    };
    super::interruptible(py, |c| {
        QuantumPosition::new(EngineKind::Counting, Variant::Standard).perft_shard_until(
            depth,
            shard,
            &|| c.0.is_stopped(),
        )
    })?
    .ok_or_else(super::interrupted)
}
