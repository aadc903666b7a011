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
    /// A certificate the checker accepted could not be written to `path`. The
    /// certification went on without it: `certified` is all of it (the answer stands,
    /// and a front end still reports it), the other file, if any, written.
    #[error("{}: {error}", path.display())]
    Write {
        /// The file (the first that could not be written).
        path: PathBuf,
        /// Why (shown in this error's message, so not its `source`).
        error: std::io::Error,
        /// What certifying the answer gave, this file unwritten.
        certified: Box<Certified>,
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
    /// The length certificate's own extraction and check times, ms (as `extract_ms`;
    /// a failed attempt's too), not counted in `extract_ms` and `check_ms`.
    pub length_ms: (f64, f64),
    /// Certificate nodes (0 when none was extracted).
    pub nodes: usize,
    /// Certificate bytes (JSON lines).
    pub bytes: usize,
    /// The certificate's extraction time, ms (CPU time of the thread where the platform
    /// gives it, else wall): the plain certificate's own, or with `--count-futile` the
    /// version-2 length certificate's, which is the certificate then.
    pub extract_ms: f64,
    /// The certificate's check time, ms (as `extract_ms`; 0 when skipped).
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
/// `path`, writes it there atomically ([`write_atomically`]: through a symbolic link,
/// never over a file that is not a regular one). A certificate the checker rejects is
/// not written; an answer that cannot be certified gets `certified: Some(false)` and a
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
/// [`CertifyError::Write`] when a file cannot be written: the certification goes on
/// without it (the other file is still written) and the error holds what it gave;
/// [`CertifyError::Render`] when the certificate cannot be rendered.
pub fn certify_answer(
    solver: &Solver<Position>,
    root: &Position,
    result: &SolveResult<Move>,
    path: Option<&Path>,
    check: bool,
    length_nodes: Option<usize>,
) -> Result<Certified, CertifyError> {
    let mut out = Certified::default();
    let mut files = Files {
        path,
        unwritten: None,
    };
    certify_into(
        &mut out,
        &mut files,
        solver,
        root,
        result,
        check,
        length_nodes,
    )?;
    match files.unwritten {
        None => Ok(out),
        Some((path, error)) => Err(CertifyError::Write {
            path,
            error,
            certified: Box::new(out),
        }),
    }
}

/// Where an answer's certificates go (`path`: the certificate, its length certificate
/// beside it), and the first file that could not be written.
struct Files<'a> {
    path: Option<&'a Path>,
    unwritten: Option<(PathBuf, std::io::Error)>,
}

impl Files<'_> {
    /// Writes `text`, the certificate or (`length`) the length certificate beside it,
    /// when a path was given; a failure is remembered and the work goes on.
    fn write(&mut self, length: bool, text: &str) {
        let Some(p) = self.path else {
            return;
        };
        let p = if length {
            length_path(p)
        } else {
            p.to_path_buf()
        };
        if let Err(e) = write_atomically(&p, text) {
            self.unwritten.get_or_insert((p, e));
        }
    }
}

/// [`certify_answer`]'s work: fills `out` and writes to `files`.
fn certify_into(
    out: &mut Certified,
    files: &mut Files,
    solver: &Solver<Position>,
    root: &Position,
    result: &SolveResult<Move>,
    check: bool,
    length_nodes: Option<usize>,
) -> Result<(), CertifyError> {
    if result.outcome == Outcome::Unknown || (!check && files.path.is_none()) {
        return Ok(());
    }
    if let Some(c) = &solver.options().control {
        c.0.set_certifying();
    }
    // A proven-shortest mate: first the certificate of its length claim (version 2
    // counting every reply, version 4 in the default mode; it proves the mate too),
    // else the plain one. Each certificate's times are its own.
    if result.outcome == Outcome::Mate && result.shortest == Some(true) {
        let t = Stopwatch::start();
        let cert = match length_nodes {
            None => extract_length(solver, root, result),
            Some(n) => length_limits_with_nodes(result, n)
                .map_err(|e| ExtractError::Memory(e.to_string()))
                .and_then(|l| extract_length_with(solver, root, result, l)),
        };
        out.length_ms.0 = t.elapsed_ms();
        match cert {
            Ok(cert) => {
                let text = render(&cert)?;
                let cert_nodes = cert.nodes.len();
                // The text is all the checker reads: the graph goes before it runs (a
                // length certificate can hold millions of nodes).
                drop(cert);
                let want = u32::try_from(result.line.len()).ok();
                let (verdict, check_ms) = check_text_if(&text, root, check, |c| c.length == want);
                out.length_ms.1 = check_ms;
                match verdict {
                    Ok(()) if !solver.options().count_futile => {
                        // The default mode: the version-4 file proves the length under the
                        // 無駄合 convention and is written beside the plain certificate,
                        // which (below) certifies the mate with every reply answered.
                        out.shortest_certified = check.then_some(true);
                        out.length_nodes = cert_nodes;
                        out.length_bytes = text.len();
                        files.write(true, &text);
                    }
                    Ok(()) => {
                        out.shortest_certified = check.then_some(true);
                        out.certified = check.then_some(true);
                        out.length_nodes = cert_nodes;
                        out.length_bytes = text.len();
                        out.nodes = cert_nodes;
                        out.bytes = text.len();
                        out.extract_ms = out.length_ms.0;
                        out.check_ms = out.length_ms.1;
                        files.write(false, &text);
                        return Ok(());
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
                return Ok(());
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
    out.extract_ms = t.elapsed_ms();
    let cert = match cert {
        Ok(c) => c,
        Err(e) if e.is_stopped() => {
            out.reason = Some(e.to_string());
            return Ok(());
        }
        Err(e) => {
            out.certified = Some(false);
            out.reason = Some(format!("no certificate: {e}"));
            return Ok(());
        }
    };
    let text = render(&cert)?;
    out.nodes = cert.nodes.len();
    out.bytes = text.len();
    drop(cert);
    let (verdict, check_ms) = check_text_if(&text, root, check, |_| true);
    out.check_ms = check_ms;
    if let Err(why) = verdict {
        out.certified = Some(false);
        out.reason = Some(why);
        return Ok(());
    }
    if check {
        out.certified = Some(true);
    }
    files.write(false, &text);
    Ok(())
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

/// With `check`, runs the independent checker on `text` and requires `claims` of what
/// it proved (`Err` says why not); also returns the check's time in ms (0 without it).
fn check_text_if(
    text: &str,
    root: &Position,
    check: bool,
    claims: impl Fn(&Checked) -> bool,
) -> (Result<(), String>, f64) {
    if !check {
        return (Ok(()), 0.0);
    }
    let t = Stopwatch::start();
    let verdict = check_text(text, Some(root));
    let ms = t.elapsed_ms();
    let verdict = match verdict {
        Ok(c) if claims(&c) => Ok(()),
        Ok(_) => Err("the checked certificate proves another length".into()),
        Err(e) => Err(format!("the checker rejected the certificate: {e}")),
    };
    (verdict, ms)
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
    fn an_unwritable_path_is_a_write_error_naming_it_and_holding_the_answer() {
        let (solver, pos, r) = solved();
        let dir = temp_dir("unwritable");
        let path = dir.join("missing").join("a.jsonl");
        let e = certify_answer(&solver, &pos, &r, Some(&path), true, None).unwrap_err();
        let msg = e.to_string();
        assert!(
            msg.starts_with(&format!("{}: ", length_path(&path).display())),
            "{msg}"
        );
        assert!(!msg.contains('\n'));
        // The first file that failed is named; the answer's certification is all there.
        let CertifyError::Write {
            path: p, certified, ..
        } = e
        else {
            panic!("{msg}")
        };
        assert_eq!(p, length_path(&path));
        assert_eq!(
            (certified.certified, certified.shortest_certified),
            (Some(true), Some(true))
        );
        assert!(certified.nodes > 0 && certified.length_nodes > 0);
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn a_file_that_cannot_be_written_does_not_stop_the_other() {
        let (solver, pos, r) = solved();
        let dir = temp_dir("half");
        let path = dir.join("a.jsonl");
        // A directory where the length certificate goes: refused, kept; the plain one
        // is still written.
        std::fs::create_dir_all(length_path(&path)).expect("dir");
        let e = certify_answer(&solver, &pos, &r, Some(&path), true, None).unwrap_err();
        assert!(
            matches!(&e, CertifyError::Write { path: p, .. } if p == &length_path(&path)),
            "{e}"
        );
        assert!(length_path(&path).is_dir());
        let plain = std::fs::read_to_string(&path).expect("plain certificate written");
        check_text(&plain, Some(&pos)).expect("plain accepted");
        std::fs::remove_dir_all(&dir).expect("cleanup");
    }

    #[test]
    fn each_certificate_reports_its_own_times() {
        // cases.sfen's futile-only-with-budget (mate in 5): its length certificate (two
        // graphs, witnesses) costs more than its plain one. The times of the two
        // certificates are measured apart, so together they fit in the whole call;
        // before, the plain certificate's times included the length certificate's.
        let pos = load_problem(
            "9/1k7/9/B2+R5/N8/9/9/9/9 b Lrb4g4s3n3l18p 1",
            DefenderHand::AsGiven,
        )
        .expect("problem");
        let mut solver = Solver::try_new(SolverOptions {
            memory_mib: 16,
            ..SolverOptions::default()
        })
        .expect("solver");
        let r = solver.solve(&pos);
        assert_eq!(r.shortest, Some(true));
        let t = Stopwatch::start();
        let c = certify_answer(&solver, &pos, &r, None, true, None).expect("certified");
        let whole = t.elapsed_ms();
        assert_eq!(
            (c.certified, c.shortest_certified),
            (Some(true), Some(true))
        );
        let parts = c.extract_ms + c.check_ms + c.length_ms.0 + c.length_ms.1;
        assert!(
            parts <= whole,
            "{parts} ms in parts, {whole} ms in all: {c:?}"
        );
    }
}
