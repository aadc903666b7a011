//! Certifying a solver's answer, as the `tsume` CLI and the Python binding's
//! `tsume.solve` do: the certificate is extracted from the table ([`extract`],
//! [`extract_length`]), checked in-process by the independent checker
//! ([`crate::certificate::check_text`]) and, when asked, written to a file. An answer
//! that cannot be certified is not an error: [`Certified`] says so, with the reason.

use super::{
    extract, extract_length, extract_length_with, length_limits_with_nodes, write_jsonl,
    Certificate, ExtractError,
};
use crate::atomic_write::write_atomically;
use crate::certificate::{check_text, Checked};
use crate::rules::{Move, Position};
use crate::thread_clock::Stopwatch;
use crate::tsume::{Outcome, SolveResult, Solver};
use std::path::{Path, PathBuf};

/// Why the certification of an answer could not finish. One line; an answer without
/// a valid certificate is not one of these ([`Certified::certified`] is then `false`).
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum CertifyError {
    /// A certificate the checker accepted could not be written to `path`.
    #[error("{}: {error}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why (shown in this error's message, so not its `source`).
        error: std::io::Error,
    },
    /// The certificate could not be rendered as JSON lines (an internal failure).
    #[error("certificate: {0}")]
    Render(std::io::Error),
}

/// What certifying one answer gave.
#[derive(Debug, Clone, Default, PartialEq)]
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
    /// Whether the length certificate was refused for exceeding its node cap (the
    /// front end names its own option that raises it: [`Certified::with_cap_hint`]).
    pub length_too_large: bool,
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

impl Certified {
    /// The same, with `option` (the front end's name for the length certificate's node
    /// cap, e.g. the CLI's `--certificate-nodes`) named in `length_reason` when the cap
    /// refused the certificate.
    #[must_use]
    pub fn with_cap_hint(mut self, option: &str) -> Certified {
        if self.length_too_large {
            if let Some(r) = &mut self.length_reason {
                r.push_str(&format!(" ({option} raises the cap)"));
            }
        }
        self
    }
}

/// Extracts the certificate of `result` from `solver` (which just solved `root`),
/// checks it in-process with the independent checker when `check` is set and, with
/// `path`, writes it there atomically. A certificate the checker rejects is not
/// written; an answer that cannot be certified gets `certified: Some(false)` and a
/// reason, never a wrong certificate. `unknown` answers give `certified: None`. The
/// solver's control, if any, is marked certifying ([`SearchControl::is_certifying`]),
/// and its stop request ends the extraction: what was not certified by then stays
/// `None` (with the reason), neither certified nor refuted. `length_nodes` caps each half
/// of a length certificate (`--certificate-nodes`, Python's `certificate_nodes`; `None`:
/// [`LENGTH_MAX_NODES`]).
///
/// [`LENGTH_MAX_NODES`]: super::LENGTH_MAX_NODES
/// [`SearchControl::is_certifying`]: crate::tsume::SearchControl::is_certifying
///
/// # Errors
/// [`CertifyError::Write`] when `path` cannot be written, [`CertifyError::Render`]
/// when the certificate cannot be rendered.
pub fn certify_answer(
    solver: &Solver<Position>,
    root: &Position,
    result: &SolveResult<Move>,
    path: Option<&Path>,
    check: bool,
    length_nodes: Option<usize>,
) -> Result<Certified, CertifyError> {
    let mut out = Certified::default();
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
                            write(&length_path(p), &text)?;
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
                            write(p, &text)?;
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
                out.length_too_large = e.is_too_large();
                out.length_reason = Some(format!("no certificate: {e}"));
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
        write(p, &text)?;
    }
    Ok(out)
}

/// Where the default mode's length certificate (version 4) goes beside the plain
/// certificate `p`: `x.jsonl` → `x.length.jsonl`.
pub fn length_path(p: &Path) -> std::path::PathBuf {
    p.with_extension("length.jsonl")
}

/// The certificate as JSON lines.
fn render(cert: &Certificate) -> Result<String, CertifyError> {
    let mut buf = Vec::new();
    write_jsonl(cert, &mut buf).map_err(CertifyError::Render)?;
    String::from_utf8(buf)
        .map_err(|e| CertifyError::Render(std::io::Error::new(std::io::ErrorKind::InvalidData, e)))
}

/// Writes an accepted certificate's `text` to `path` ([`write_atomically`]).
fn write(path: &Path, text: &str) -> Result<(), CertifyError> {
    write_atomically(path, text).map_err(|error| CertifyError::Write {
        path: path.to_path_buf(),
        error,
    })
}

/// With `check`, runs the independent checker on `text` (adding its time to
/// `out.check_ms`) and requires `claims` of what it proved; `Err` says why not.
fn check_into(
    out: &mut Certified,
    text: &str,
    root: &Position,
    check: bool,
    claims: impl Fn(&Checked) -> bool,
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tsume::{load_problem, DefenderHand, SolverOptions};

    /// 8k/9/8P/9/9/9/9/9/9 b G 1 (G*1b mates), solved in the default mode.
    fn solved() -> (Solver<Position>, Position, SolveResult<Move>) {
        let pos =
            load_problem("8k/9/8P/9/9/9/9/9/9 b G 1", DefenderHand::Remaining).expect("problem");
        let mut solver = Solver::try_new(SolverOptions {
            memory_mib: 16,
            ..SolverOptions::default()
        })
        .expect("solver");
        let r = solver.solve(&pos);
        assert_eq!((r.outcome, r.shortest), (Outcome::Mate, Some(true)));
        (solver, pos, r)
    }

    fn temp_dir(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("shogi-lab-certify-{name}-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        dir
    }

    #[test]
    fn a_mate_is_certified_and_both_files_pass_the_checker() {
        let (solver, pos, r) = solved();
        let dir = temp_dir("ok");
        let path = dir.join("a.jsonl");
        let c = certify_answer(&solver, &pos, &r, Some(&path), true, None).expect("certified");
        assert_eq!(
            (c.certified, c.shortest_certified),
            (Some(true), Some(true))
        );
        assert_eq!((c.reason, c.length_reason), (None, None));
        // The plain certificate (every reply answered) and, beside it, the length claim.
        let plain = std::fs::read_to_string(&path).expect("plain certificate");
        let checked = check_text(&plain, Some(&pos)).expect("plain accepted");
        assert_eq!((checked.result.as_str(), checked.nodes), ("mate", c.nodes));
        assert_eq!(plain.len(), c.bytes);
        let length = std::fs::read_to_string(length_path(&path)).expect("length certificate");
        let checked = check_text(&length, Some(&pos)).expect("length accepted");
        assert_eq!((checked.length, checked.nodes), (Some(1), c.length_nodes));
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn without_check_or_path_nothing_is_done() {
        let (solver, pos, r) = solved();
        let c = certify_answer(&solver, &pos, &r, None, false, None).expect("nothing to do");
        assert_eq!(c, Certified::default());
    }

    #[test]
    fn an_unwritable_path_is_a_write_error_naming_it() {
        let (solver, pos, r) = solved();
        let dir = temp_dir("unwritable");
        let path = dir.join("missing").join("a.jsonl");
        let e = certify_answer(&solver, &pos, &r, Some(&path), true, None).unwrap_err();
        let msg = e.to_string();
        assert!(matches!(&e, CertifyError::Write { path: p, .. } if p == &length_path(&path)));
        assert!(
            msg.starts_with(&format!("{}: ", length_path(&path).display())),
            "{msg}"
        );
        assert!(!msg.contains('\n'));
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }
}
