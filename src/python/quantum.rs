//! `shogi_lab.quantum`: convergence, exact probabilities, observation, perft.

use super::{argument_error, input_error};
use crate::output::quantum::ConvergeOut;
use crate::quantum::enumeration::Diagram;
use crate::quantum::game::{EngineKind, QuantumPosition, Variant};
use crate::quantum::{engine_by_name, Converged, Kind, KindSet, World, PIECES};
use crate::shard::Shard;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn world(text: &str) -> PyResult<World> {
    World::parse_exact(text).map_err(|e| argument_error("bad world", text, &e))
}

fn tokens(w: &World) -> Vec<String> {
    w.0.iter().map(KindSet::to_string).collect()
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

/// Observes `piece` (0..19) with a seeded draw: `(kind, (numerator, denominator), converged world)`.
#[pyfunction]
pub fn quantum_observe<'py>(
    py: Python<'py>,
    world_text: &str,
    piece: usize,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let w = world(world_text)?;
    if piece >= PIECES {
        return Err(input_error(format!("bad piece {piece} (expected 0..19)")));
    }
    let d = Diagram::build(&w);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (k, after) = d
        .observe(piece, &mut rng)
        .ok_or_else(|| input_error("the world is contradictory"))?;
    let c = Converged::new(&w, after);
    let p = d
        .probability(piece, k)
        .ok_or_else(|| input_error("the world is contradictory"))?;
    let out = PyDict::new_bound(py);
    out.set_item("piece", piece)?;
    out.set_item("kind", k.letter().to_string())?;
    out.set_item("probability", (p.numer(), p.denom()))?;
    out.set_item("world", tokens(&c.world))?;
    out.set_item("used_up", c.used_up.to_string())?;
    Ok(out)
}

/// Quantum shogi perft from the initial position (standard variant, counting engine),
/// `depth` 0 to 1000; on a thread of its own, the GIL released; Ctrl-C stops it and
/// raises `KeyboardInterrupt`.
#[pyfunction]
#[pyo3(signature = (depth, shard=None))]
pub fn quantum_perft(py: Python<'_>, depth: u32, shard: Option<(u64, u64)>) -> PyResult<u64> {
    super::check_perft_depth(depth)?;
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
