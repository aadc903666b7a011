//! `shogi_lab.tsume.solve`: the df-pn solver with the CLI's conventions.

use super::output::to_python;
use super::POLL;
use super::{argument_error, input_error};
use crate::input_error::{InputError, Origin};
use crate::output::tsume::TsumeOut;
use crate::tsume::certificate::certify_answer;
use crate::tsume::{
    load_problem, watched_with, Control, DefenderHand, ProvenLine, SearchControl, Solver,
    SolverOptions, MAX_TIME_SECS,
};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Calls `progress` with `{"nodes", "mate_within", "no_mate_within", "certifying", "usi"}`
/// of the running search (`usi`: the last line handed on, from `line`, when it is a mate
/// within `mate_within` ([`ProvenLine::shows_mate_within`]): read off the table when that
/// bound, or a shorter one proven since, was proven; `None` when no such line could be
/// read); `Ok(false)` when it returned `False` (stop the search).
fn call_progress(
    py: Python<'_>,
    f: &PyObject,
    c: &SearchControl,
    line: &Mutex<Option<ProvenLine>>,
) -> PyResult<bool> {
    let d = PyDict::new_bound(py);
    let b = c.bounds();
    // Read after the bounds: the line of a shorter proof than `b` may be there already
    // (a line is stored before its bound is published), a mate within `b` all the same.
    let usi = match &*line.lock().unwrap_or_else(|e| e.into_inner()) {
        Some(l) if l.shows_mate_within(b.mate_within) => Some(l.usi.clone()),
        _ => None,
    };
    d.set_item("nodes", c.nodes())?;
    d.set_item("mate_within", b.mate_within)?;
    d.set_item("no_mate_within", b.no_mate_within)?;
    d.set_item("certifying", c.is_certifying())?;
    d.set_item("usi", usi)?;
    let ret = f.call1(py, (d,))?;
    // Only an explicit `False` stops the search (a callback returning None goes on).
    let ret = ret.bind(py);
    let stop = ret
        .downcast::<pyo3::types::PyBool>()
        .is_ok_and(|b| !b.is_true());
    Ok(!stop)
}

/// Solves one problem (`sfen`: a SFEN or USI position text, read as `shogi-lab tsume`
/// reads it); returns the CLI's `tsume --json` line as a dict ([`TsumeOut`], `id` `"1"`
/// as for a single SFEN; `error` is always `None`: bad input raises instead).
/// `alt_nodes` and `max_plies` are the CLI's `--alt-nodes` and `--max-plies`.
///
/// The solve runs on a thread of its own with the CLI's deep stack (ミクロコスモス
/// recurses over 1 500 plies) while this thread, holding the GIL only briefly, checks
/// for signals (Ctrl-C, a notebook's interrupt: the search stops and the exception is
/// raised) and every `progress_every` seconds calls `progress` with the search's nodes,
/// the bounds on the shortest mate proven so far and the line of the last mate proven
/// (read off the table at the proof, [`Control::with_line_hook`]; only with a
/// `progress`, which is then the read's only cost). `progress` returning `False`
/// stops the search, which then answers what it has, uncertified; an exception it
/// raises stops the search and is raised. `progress` goes on while the certificate is
/// built (`certifying` true), and a stop then ends the extraction (its fallback solves
/// run under a [`Control::child`](crate::tsume::Control::child)): what was not certified
/// by then stays `None`.
#[pyfunction]
#[pyo3(signature = (sfen, nodes=None, time=None, memory_mib=256, shortest=true, defender_hand_as_given=false, certify=true, count_futile=false, progress=None, progress_every=1.0, certificate_nodes=None, alt_nodes=0, max_plies=None))]
#[allow(clippy::too_many_arguments)]
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
    progress: Option<PyObject>,
    progress_every: f64,
    certificate_nodes: Option<usize>,
    alt_nodes: u64,
    max_plies: Option<u16>,
) -> PyResult<Bound<'py, PyAny>> {
    // As the CLI's --time: 0 to MAX_TIME_SECS seconds (0 stops at the first look at the clock;
    // beyond `Duration`'s range, 1e20, the conversion panicked), NaN and infinities refused.
    let time = match time {
        Some(t) if !(0.0..=MAX_TIME_SECS).contains(&t) => {
            return Err(input_error(format!(
                "bad time {t}: the time must be a finite number of seconds between 0 and {MAX_TIME_SECS:e}"
            )))
        }
        t => t.map(Duration::from_secs_f64),
    };
    if count_futile && !shortest {
        // The CLI's --count-futile conflicts with --any-mate (clap refuses the pair).
        return Err(input_error(
            "count_futile=True cannot be used with shortest=False (as the CLI's \
             --count-futile cannot be used with --any-mate)",
        ));
    }
    if let Some(f) = &progress {
        // Checked now: a solve that ends before the first call would accept anything.
        if !f.bind(py).is_callable() {
            let kind = f.bind(py).get_type().name()?;
            return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                "progress must be callable or None, not {kind}"
            )));
        }
    }
    let every = match Duration::try_from_secs_f64(progress_every) {
        Ok(d) if !d.is_zero() => d,
        _ => {
            return Err(input_error(format!(
                "bad progress_every {progress_every}: expected seconds, > 0 and < 1.8e19"
            )))
        }
    };
    if memory_mib == 0 {
        return Err(input_error("bad memory_mib 0: expected at least 1"));
    }
    if let Some(n) = certificate_nodes {
        if n == 0 {
            return Err(input_error("bad certificate_nodes 0: expected at least 1"));
        }
        crate::tsume::certificate::check_length_nodes(n).map_err(input_error)?;
    }
    let defender = if defender_hand_as_given {
        DefenderHand::AsGiven
    } else {
        DefenderHand::Remaining
    };
    let pos = load_problem(sfen, defender).map_err(|e| argument_error("bad SFEN", sfen, &e))?;
    let opts = SolverOptions {
        shortest,
        nodes,
        time,
        memory_mib,
        count_futile,
        alt_nodes,
        max_plies,
        ..SolverOptions::default()
    };
    // As `tsume --json`: the certificate is extracted and checked in-process (`certified`).
    // `None` (far beyond any search): no progress calls.
    let mut next = Instant::now().checked_add(every);
    let mut raised = None;
    // The line of the last mate proven, stored by the search thread at the proof (the
    // lock is held for the store and for the read in `call_progress`, never during search).
    let line: Arc<Mutex<Option<ProvenLine>>> = Arc::default();
    let control = if progress.is_some() {
        let sink = Arc::clone(&line);
        Control::with_line_hook(move |l| {
            *sink.lock().unwrap_or_else(|e| e.into_inner()) = Some(l);
        })
    } else {
        Control::default()
    };
    let solved = py.allow_threads(|| {
        watched_with(
            control,
            POLL,
            |control| {
                let opts = SolverOptions {
                    control: Some(control.clone()),
                    ..opts
                };
                let mut solver = Solver::try_new(opts)?;
                let r = solver.solve(&pos);
                // After a stop the extraction ends at once: nothing is certified.
                let c = certify_answer(&solver, &pos, &r, None, certify, certificate_nodes);
                Ok::<_, crate::resources::MemoryError>((r, c))
            },
            |c| {
                Python::with_gil(|py| {
                    if let Err(e) = py.check_signals() {
                        raised = Some(e);
                        return false;
                    }
                    let Some(f) = progress.as_ref() else {
                        return true;
                    };
                    if !next.is_some_and(|t| Instant::now() >= t) {
                        return true;
                    }
                    next = Instant::now().checked_add(every);
                    call_progress(py, f, c, &line).unwrap_or_else(|e| {
                        raised = Some(e);
                        false
                    })
                })
            },
        )
    });
    if let Some(e) = raised {
        return Err(e);
    }
    let (r, cert) = solved
        .map_err(|e| {
            pyo3::exceptions::PyMemoryError::new_err(format!("cannot start the solver thread: {e}"))
        })?
        .map_err(|e| pyo3::exceptions::PyMemoryError::new_err(e.to_string()))?;
    let cert = cert.map_err(input_error)?;
    to_python(py, &TsumeOut::answer("1", &pos, &r, &cert, alt_nodes > 0))
}

/// The problems of a problem file's text (one SFEN per line, `id<TAB>SFEN`,
/// `#` comments) as `(id, sfen, line, unreadable)`, read as `shogi-lab tsume FILE
/// [--defender-hand-as-given]` reads them. `unreadable` is `None` for a problem that
/// loads, else the CLI's located error for it (`PATH:LINE:COL: message`, `path` as given;
/// without `path`, the text counts as an argument).
#[pyfunction]
#[pyo3(signature = (text, path=None, defender_hand_as_given=false))]
pub fn tsume_problems(
    text: &str,
    path: Option<&str>,
    defender_hand_as_given: bool,
) -> Vec<(String, String, usize, Option<String>)> {
    let origin = path.map_or(Origin::Argument, Origin::file);
    let defender = if defender_hand_as_given {
        DefenderHand::AsGiven
    } else {
        DefenderHand::Remaining
    };
    crate::tsume::problems::read_problems(text)
        .into_iter()
        .map(|p| {
            let unreadable = load_problem(&p.sfen, defender).err().map(|e| {
                InputError::in_line(origin.clone(), p.line, p.column, &p.sfen, &e).to_string()
            });
            (p.id, p.sfen, p.line, unreadable)
        })
        .collect()
}

/// The text of a problem file (`-`: stdin) as `shogi-lab tsume FILE` reads it: UTF-8, a
/// leading byte order mark removed. Raises `ShogiLabError` with the CLI's line: `PATH:
/// reason` (missing, a directory) or `PATH:LINE:COL: not UTF-8 text` at the first byte
/// that is not UTF-8 (`COL` in bytes).
#[pyfunction]
pub fn read_text(py: Python<'_>, path: &str) -> PyResult<String> {
    py.allow_threads(|| crate::cli::read_text(path))
        .map_err(|f| input_error(f.message))
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
