//! `shogi-lab check-certificate FILE [--problem SFEN]` and the glue that
//! certifies a `tsume` answer (`tsume --certificate PATH`, `"certified"` in `--json`).

use super::error::{InputError, Origin};
use super::{emit, Failure};
use crate::certificate::check_text;
use crate::output::tsume::CertificateCheckOut;
use crate::rules::{Move, Position};
use crate::thread_clock::Stopwatch;
use crate::tsume::certificate::{
    extract, extract_length, extract_length_with, length_limits_with_nodes, write_jsonl,
    Certificate, ExtractError,
};
use crate::tsume::{load_problem, DefenderHand, Outcome, SolveResult, Solver};
use std::path::Path;
use std::time::Instant;

/// Arguments of `shogi-lab check-certificate`.
#[derive(Debug, clap::Args)]
pub struct CheckArgs {
    /// The certificate (JSON lines, `specs/certificate.md`).
    pub file: String,
    /// The problem the root must be (SFEN; a missing defender hand means all remaining pieces).
    #[arg(long)]
    pub problem: Option<String>,
    /// JSON output.
    #[arg(long)]
    pub json: bool,
}

/// Runs `check-certificate`: exit 0 valid, 1 invalid (naming the first failing node), 2 unreadable.
///
/// # Errors
/// A [`Failure`] with exit 1 or 2.
pub fn run_check(a: CheckArgs) -> Result<(), Failure> {
    let origin = || Origin::file(&a.file);
    let text = std::fs::read_to_string(&a.file).map_err(|e| InputError::new(origin(), e))?;
    let problem = match &a.problem {
        None => None,
        Some(s) => Some(problem_position(s)?),
    };
    let t = Instant::now();
    match check_text(&text, problem.as_ref()) {
        Ok(c) => {
            let ms = t.elapsed().as_secs_f64() * 1e3;
            if a.json {
                emit(crate::output::to_line(&CertificateCheckOut {
                    valid: true,
                    result: c.result.clone(),
                    plies: c.plies,
                    length: c.length,
                    futile: c.length.map(|_| {
                        if c.futile_uncounted {
                            "uncounted"
                        } else {
                            "counted"
                        }
                    }),
                    nodes: c.nodes,
                    time_ms: crate::output::millis(t.elapsed()),
                }));
            } else {
                emit(format!(
                    "valid: {}{}{} ({} nodes, {:.1} ms)",
                    c.result,
                    c.plies
                        .map(|p| format!(" in at most {p} plies"))
                        .unwrap_or_default(),
                    c.length
                        .map(|l| format!(
                            ", shortest {l} (no mate within {}{})",
                            l.saturating_sub(2),
                            if c.futile_uncounted {
                                "; 無駄合 not counted"
                            } else {
                                ""
                            }
                        ))
                        .unwrap_or_default(),
                    c.nodes,
                    ms
                ));
            }
            Ok(())
        }
        Err(e) => {
            let code = e.exit_code();
            let message = InputError::in_text(origin(), &text, &e).to_string();
            Err(Failure { code, message })
        }
    }
}

/// The problem as loaded by `tsume`: the defender gets the remaining pieces
/// unless the SFEN gives the defender a hand.
fn problem_position(sfen: &str) -> Result<Position, Failure> {
    let bad = |e| InputError::in_line(Origin::Argument, 1, 1, sfen, &e);
    let remaining = load_problem(sfen, DefenderHand::Remaining).map_err(bad)?;
    let given = load_problem(sfen, DefenderHand::AsGiven).map_err(bad)?;
    Ok(if given.hand(!given.side_to_move()).is_empty() {
        remaining
    } else {
        given
    })
}

/// What certifying one answer gave.
#[derive(Debug, Clone, PartialEq)]
pub struct Certified {
    /// `Some(true)` when the in-process checker accepted the certificate, `Some(false)`
    /// when no valid certificate could be produced, `None` when nothing was checked
    /// (an `unknown` answer, the check skipped, or a stop request before it was done).
    pub certified: Option<bool>,
    /// Why not, when not.
    pub reason: Option<String>,
    /// For a proven-shortest mate (either mode): `Some(true)`
    /// when its length claim (mate within L, no mate within L − 2) was certified and
    /// checked in-process, `Some(false)` when not (then `length_reason` says why and the
    /// plain certificate is tried); `None` for other answers, unchecked runs and a stop
    /// request before it was done.
    pub shortest_certified: Option<bool>,
    /// Why the length claim was not certified, when not.
    pub length_reason: Option<String>,
    /// Nodes of the length certificate (0 when none was accepted).
    pub length_nodes: usize,
    /// Bytes of the length certificate.
    pub length_bytes: usize,
    /// Of `extract_ms` and `check_ms`: the length certificate's share (ms).
    pub length_ms: (f64, f64),
    /// Certificate nodes (0 when none was extracted).
    pub nodes: usize,
    /// Certificate bytes (JSON lines).
    pub bytes: usize,
    /// Extraction time, ms (CPU time of the thread where the platform gives it, else wall).
    pub extract_ms: f64,
    /// Check time, ms (as `extract_ms`; 0 when skipped).
    pub check_ms: f64,
}

/// Extracts the certificate of `result` from `solver` (which just solved `root`),
/// checks it in-process with the independent checker when `check` is set and, with
/// `path`, writes it there atomically. A certificate the checker rejects is not
/// written; an answer that cannot be certified gets `certified: Some(false)` and a
/// reason, never a wrong certificate. `unknown` answers give `certified: None`. The
/// solver's control, if any, is marked certifying ([`SearchControl::is_certifying`]),
/// and its stop request ends the extraction: what was not certified by then stays
/// `None` (with the reason), neither certified nor refuted. `length_nodes` caps each half
/// of a length certificate (`--certificate-nodes`; `None`: [`LENGTH_MAX_NODES`]).
///
/// [`LENGTH_MAX_NODES`]: crate::tsume::certificate::LENGTH_MAX_NODES
/// [`SearchControl::is_certifying`]: crate::tsume::SearchControl::is_certifying
///
/// # Errors
/// Exit 2 when `path` cannot be written.
pub fn certify_answer(
    solver: &Solver<Position>,
    root: &Position,
    result: &SolveResult<Move>,
    path: Option<&Path>,
    check: bool,
    length_nodes: Option<usize>,
) -> Result<Certified, Failure> {
    let mut out = Certified {
        certified: None,
        reason: None,
        shortest_certified: None,
        length_reason: None,
        length_nodes: 0,
        length_bytes: 0,
        length_ms: (0.0, 0.0),
        nodes: 0,
        bytes: 0,
        extract_ms: 0.0,
        check_ms: 0.0,
    };
    if result.outcome == Outcome::Unknown || (!check && path.is_none()) {
        return Ok(out);
    }
    if let Some(c) = &solver.options().control {
        c.0.set_certifying();
    }
    // A proven-shortest mate: first the certificate of its length claim (version 2
    // counting every reply, version 4 in the default mode; it proves the mate too),
    // else the plain one.
    if result.outcome == Outcome::Mate && result.shortest == Some(true) {
        let t = Stopwatch::start();
        let cert = match length_nodes {
            None => extract_length(solver, root, result),
            Some(n) => length_limits_with_nodes(result, n)
                .map_err(|e| ExtractError::Memory(e.to_string()))
                .and_then(|l| extract_length_with(solver, root, result, l)),
        };
        out.extract_ms += t.elapsed_ms();
        match cert {
            Ok(cert) => {
                let text = render(&cert)?;
                let cert_nodes = cert.nodes.len();
                // The text is all the checker reads: the graph goes before it runs (a
                // length certificate can hold millions of nodes).
                drop(cert);
                let want = u32::try_from(result.line.len()).ok();
                let checked_before = out.check_ms;
                let verdict = check_into(&mut out, &text, root, check, |c| c.length == want);
                out.length_ms = (out.extract_ms, out.check_ms - checked_before);
                match verdict {
                    Ok(()) if !solver.options().count_futile => {
                        // The default mode: the version-4 file proves the length under the
                        // 無駄合 convention and is written beside the plain certificate,
                        // which (below) certifies the mate with every reply answered.
                        out.shortest_certified = check.then_some(true);
                        out.length_nodes = cert_nodes;
                        out.length_bytes = text.len();
                        if let Some(p) = path {
                            super::show::write_atomically(&length_path(p), &text)?;
                        }
                    }
                    Ok(()) => {
                        out.shortest_certified = check.then_some(true);
                        out.certified = check.then_some(true);
                        out.length_nodes = cert_nodes;
                        out.length_bytes = text.len();
                        out.nodes = cert_nodes;
                        out.bytes = text.len();
                        if let Some(p) = path {
                            super::show::write_atomically(p, &text)?;
                        }
                        return Ok(out);
                    }
                    Err(why) => {
                        out.shortest_certified = Some(false);
                        out.length_reason = Some(why);
                    }
                }
            }
            Err(e) if e.is_stopped() => {
                // Neither certified nor refuted: the caller stopped the work.
                out.length_reason = Some(e.to_string());
                out.reason = Some(e.to_string());
                return Ok(out);
            }
            Err(e) => {
                out.shortest_certified = Some(false);
                let hint = if e.is_too_large() {
                    " (--certificate-nodes raises the cap)"
                } else {
                    ""
                };
                out.length_reason = Some(format!("no certificate: {e}{hint}"));
            }
        }
    }
    let t = Stopwatch::start();
    let cert = extract(solver, root, result);
    out.extract_ms += t.elapsed_ms();
    let cert = match cert {
        Ok(c) => c,
        Err(e) if e.is_stopped() => {
            out.reason = Some(e.to_string());
            return Ok(out);
        }
        Err(e) => {
            out.certified = Some(false);
            out.reason = Some(format!("no certificate: {e}"));
            return Ok(out);
        }
    };
    let text = render(&cert)?;
    out.nodes = cert.nodes.len();
    out.bytes = text.len();
    drop(cert);
    if let Err(why) = check_into(&mut out, &text, root, check, |_| true) {
        out.certified = Some(false);
        out.reason = Some(why);
        return Ok(out);
    }
    if check {
        out.certified = Some(true);
    }
    if let Some(p) = path {
        super::show::write_atomically(p, &text)?;
    }
    Ok(out)
}

/// Where the default mode's length certificate (version 4) goes beside the plain
/// certificate `p`: `x.jsonl` → `x.length.jsonl`.
pub fn length_path(p: &Path) -> std::path::PathBuf {
    p.with_extension("length.jsonl")
}

/// The certificate as JSON lines.
fn render(cert: &Certificate) -> Result<String, Failure> {
    let mut buf = Vec::new();
    write_jsonl(cert, &mut buf).map_err(|e| Failure::internal(format!("certificate: {e}")))?;
    String::from_utf8(buf).map_err(|e| Failure::internal(e.to_string()))
}

/// With `check`, runs the independent checker on `text` (adding its time to
/// `out.check_ms`) and requires `claims` of what it proved; `Err` says why not.
fn check_into(
    out: &mut Certified,
    text: &str,
    root: &Position,
    check: bool,
    claims: impl Fn(&crate::certificate::Checked) -> bool,
) -> Result<(), String> {
    if !check {
        return Ok(());
    }
    let t = Stopwatch::start();
    let verdict = check_text(text, Some(root));
    out.check_ms += t.elapsed_ms();
    match verdict {
        Ok(c) if claims(&c) => Ok(()),
        Ok(_) => Err("the checked certificate proves another length".into()),
        Err(e) => Err(format!("the checker rejected the certificate: {e}")),
    }
}
