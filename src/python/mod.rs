//! Python bindings (`import shogi_lab`), built by maturin with the `python`
//! cargo feature into the extension module `shogi_lab._native`; the pure-Python
//! package in `python/shogi_lab/` wraps it (dataclasses, `fractions.Fraction`,
//! the Ray driver). Long calls release the GIL; errors become Python
//! exceptions carrying the CLI's one-line messages: [`ShogiLabError`] (a
//! `ValueError`) for bad input, `MemoryError` for a table that does not fit.
//!
//! PyO3's macros expand to `unsafe` blocks, so this module is the one place
//! where `lib.rs`'s `#![deny(unsafe_code)]` is relaxed (`#[allow(unsafe_code)]`
//! on `mod python`); no hand-written unsafe code lives here. Clippy's
//! `useless_conversion` fires on the `PyResult` conversion that PyO3 0.22's
//! `#[pyfunction]`/`#[pymethods]` expansion inserts, not on our code: allowed here.
#![allow(clippy::useless_conversion)]

mod gen;
mod placement;
mod position;
mod quantum;
mod record;
mod tsume;

use pyo3::prelude::*;

pyo3::create_exception!(
    shogi_lab,
    ShogiLabError,
    pyo3::exceptions::PyValueError,
    "Bad input (a malformed SFEN, move, record, piece set, world or option); the message is the CLI's one-line error."
);

/// A [`ShogiLabError`] with `message`.
pub(crate) fn input_error(message: impl std::fmt::Display) -> PyErr {
    ShogiLabError::new_err(message.to_string())
}

/// The native module `shogi_lab._native`.
#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("ShogiLabError", m.py().get_type_bound::<ShogiLabError>())?;
    m.add_class::<position::Position>()?;
    m.add_function(wrap_pyfunction!(record::read_record, m)?)?;
    m.add_function(wrap_pyfunction!(record::write_record, m)?)?;
    m.add_function(wrap_pyfunction!(tsume::tsume_solve, m)?)?;
    m.add_function(wrap_pyfunction!(tsume::tsume_problems, m)?)?;
    m.add_function(wrap_pyfunction!(tsume::shard_block, m)?)?;
    m.add_function(wrap_pyfunction!(quantum::quantum_converge, m)?)?;
    m.add_function(wrap_pyfunction!(quantum::quantum_probabilities, m)?)?;
    m.add_function(wrap_pyfunction!(quantum::quantum_observe, m)?)?;
    m.add_function(wrap_pyfunction!(quantum::quantum_perft, m)?)?;
    m.add_function(wrap_pyfunction!(gen::gen_positions, m)?)?;
    m.add_function(wrap_pyfunction!(gen::gen_tsume, m)?)?;
    m.add_function(wrap_pyfunction!(gen::gen_quantum, m)?)?;
    m.add_function(wrap_pyfunction!(gen::gen_records, m)?)?;
    m.add_function(wrap_pyfunction!(placement::placement_count, m)?)?;
    m.add_function(wrap_pyfunction!(placement::placement_first, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
