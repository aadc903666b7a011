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
mod output;
mod placement;
mod position;
mod quantum;
mod record;
mod tsume;

use crate::input_error::{InputError, Located, Origin};
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

/// A parser's error `e` on `text`, a text given to a Python function, as one line:
/// `WHAT: LINE[:COL]: message`. That is the CLI's line for a text given as an argument,
/// `<argument>:LINE[:COL]: message` ([`InputError::in_line`]: `COL` counts characters,
/// 1-based), with `what` (`bad SFEN`, `bad position`, …) in place of `<argument>`: the
/// place is the one the CLI reports.
pub(crate) fn argument_message(what: &str, text: &str, e: &(impl Located + ?Sized)) -> String {
    let line = InputError::in_line(Origin::Argument, 1, 1, text, e).to_string();
    let origin = Origin::Argument.to_string();
    let placed = line
        .strip_prefix(origin.as_str())
        .and_then(|rest| rest.strip_prefix(':'))
        .unwrap_or(&line);
    format!("{what}: {placed}")
}

/// A [`ShogiLabError`] with [`argument_message`].
pub(crate) fn argument_error(what: &str, text: &str, e: &(impl Located + ?Sized)) -> PyErr {
    input_error(argument_message(what, text, e))
}

/// How often a thread waiting for long work wakes to check for signals (Ctrl-C) and
/// progress clocks ([`crate::tsume::watched`] wakes it at once when the work is done).
pub(crate) const POLL: std::time::Duration = std::time::Duration::from_millis(20);

use crate::rules::MAX_PERFT_DEPTH;
use crate::tsume::Control;

/// The exception of work that gave up because of a stop request ([`interruptible`] raises
/// the signal's own exception first; this one stands in if the handler raised none).
pub(crate) fn interrupted() -> PyErr {
    pyo3::exceptions::PyKeyboardInterrupt::new_err(())
}

/// An integer argument that the native code takes unsigned, as Python gave it: any `int`.
/// PyO3's own conversion to `u32`, `u64` or `usize` raised `OverflowError` naming no
/// argument for a negative or oversized value (`can't convert negative int to unsigned`),
/// where the rest of the module raises [`ShogiLabError`] naming it; [`Unsigned::get`]
/// does that, with the Python wrappers' words (`python/shogi_lab/_args.py`). A value
/// that is no integer still raises PyO3's `TypeError`, which names the argument.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Unsigned {
    /// A value within `i128`.
    Fits(i128),
    /// A value beyond `i128`: its sign and decimal text.
    Huge {
        /// Below zero.
        negative: bool,
        /// The value as Python prints it.
        text: String,
    },
}

/// The unsigned integer types an [`Unsigned`] argument becomes.
pub(crate) trait UnsignedInt: TryFrom<i128> {
    /// The largest value, for the message of a value beyond it.
    const LARGEST: u128;
}

macro_rules! unsigned_int {
    ($($t:ty),*) => {$(
        impl UnsignedInt for $t {
            const LARGEST: u128 = <$t>::MAX as u128;
        }
    )*};
}
unsigned_int!(u16, u32, u64, usize);

impl Unsigned {
    /// Zero, a default value.
    pub(crate) const ZERO: Unsigned = Unsigned::Fits(0);

    /// The value as `T`, or a [`ShogiLabError`] naming the argument `name`: `bad NAME
    /// VALUE: must not be negative` or `bad NAME VALUE: more than MAX`.
    pub(crate) fn get<T: UnsignedInt>(&self, name: &str) -> PyResult<T> {
        let (negative, text) = match self {
            Unsigned::Fits(v) => match T::try_from(*v) {
                Ok(t) => return Ok(t),
                Err(_) => (*v < 0, v.to_string()),
            },
            Unsigned::Huge { negative, text } => (*negative, text.clone()),
        };
        Err(input_error(if negative {
            format!("bad {name} {text}: must not be negative")
        } else {
            format!("bad {name} {text}: more than {}", T::LARGEST)
        }))
    }
}

impl<'py> FromPyObject<'py> for Unsigned {
    fn extract_bound(ob: &Bound<'py, PyAny>) -> PyResult<Self> {
        match ob.extract::<i128>() {
            Ok(v) => Ok(Unsigned::Fits(v)),
            Err(e) if e.is_instance_of::<pyo3::exceptions::PyOverflowError>(ob.py()) => {
                Ok(Unsigned::Huge {
                    negative: ob.lt(0)?,
                    text: ob.str()?.to_string(),
                })
            }
            Err(e) => Err(e),
        }
    }
}

/// A [`ShogiLabError`] unless `depth` is at most [`MAX_PERFT_DEPTH`].
pub(crate) fn check_perft_depth(depth: u32) -> PyResult<()> {
    if depth > MAX_PERFT_DEPTH {
        return Err(input_error(format!(
            "bad depth {depth}: need 0 to {MAX_PERFT_DEPTH}"
        )));
    }
    Ok(())
}

/// Runs `work` with the GIL released on a thread with the solver's deep stack
/// ([`crate::tsume::watched`]) while this thread checks for signals every [`POLL`]: a
/// signal's handler raising (Ctrl-C: `KeyboardInterrupt`) stops `work`'s control (its
/// `is_stopped()` turns true; a solver given it stops), and once `work` has returned
/// (it should give up soon) the exception is raised.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&Control) -> T + Send,
) -> PyResult<T> {
    let mut raised = None;
    let out = py.allow_threads(|| {
        crate::tsume::watched(POLL, work, |_| {
            Python::with_gil(|py| py.check_signals())
                .map_err(|e| raised = Some(e))
                .is_ok()
        })
    });
    if let Some(e) = raised {
        return Err(e);
    }
    out.map_err(|e| {
        pyo3::exceptions::PyMemoryError::new_err(format!("cannot start a worker thread: {e}"))
    })
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
    m.add_function(wrap_pyfunction!(tsume::read_text, m)?)?;
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
