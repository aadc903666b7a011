//! `shogi-lab check-certificate FILE [--problem SFEN]` and the glue that
//! certifies a `tsume` answer (`tsume --certificate PATH`, `"certified"` in `--json`).

use super::{emit, Failure};
use crate::certificate::{check_text, extract, write_jsonl};
use crate::output::tsume::CertificateCheckOut;
use crate::rules::{Move, Position};
use crate::tsume::{load_problem, DefenderHand, SolveResult, Solver};
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
    let text =
        std::fs::read_to_string(&a.file).map_err(|e| Failure::input(format!("{}: {e}", a.file)))?;
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
                    nodes: c.nodes,
                    time_ms: crate::output::millis(t.elapsed()),
                }));
            } else {
                emit(format!(
                    "valid: {}{} ({} nodes, {:.1} ms)",
                    c.result,
                    c.plies
                        .map(|p| format!(" in at most {p} plies"))
                        .unwrap_or_default(),
                    c.nodes,
                    ms
                ));
            }
            Ok(())
        }
        Err(e) => {
            let code = e.exit_code();
            let message = format!("{}: {e}", a.file);
            Err(Failure { code, message })
        }
    }
}

/// The problem as loaded by `tsume`: the defender gets the remaining pieces
/// unless the SFEN gives the defender a hand.
fn problem_position(sfen: &str) -> Result<Position, Failure> {
    let remaining = load_problem(sfen, DefenderHand::Remaining)
        .map_err(|e| Failure::input(format!("bad --problem: {e}")))?;
    let given = load_problem(sfen, DefenderHand::AsGiven)
        .map_err(|e| Failure::input(format!("bad --problem: {e}")))?;
    Ok(if given.hand(!given.side_to_move()).is_empty() {
        remaining
    } else {
        given
    })
}

/// What certifying one answer gave.
#[derive(Debug, Clone, PartialEq)]
pub struct Certified {
    /// Whether the in-process checker accepted the certificate.
    pub certified: bool,
    /// Why not, when not.
    pub reason: Option<String>,
    /// Certificate nodes.
    pub nodes: usize,
    /// Certificate bytes (JSON lines).
    pub bytes: usize,
    /// Extraction time (CPU-bound, single thread).
    pub extract_ms: f64,
    /// Check time.
    pub check_ms: f64,
}

/// Extracts the certificate of `result` from `solver` (which just solved `root`),
/// checks it in-process with the independent checker and, with `path`, writes it
/// there atomically. An answer that cannot be certified is reported with
/// `certified: false` and a reason, never with a wrong certificate.
///
/// # Errors
/// Exit 2 when `path` cannot be written.
pub fn certify_answer(
    solver: &Solver<Position>,
    root: &Position,
    result: &SolveResult<Move>,
    path: Option<&Path>,
) -> Result<Certified, Failure> {
    let t = Instant::now();
    let cert = extract(solver, root, result);
    let extract_ms = t.elapsed().as_secs_f64() * 1e3;
    let cert = match cert {
        Ok(c) => c,
        Err(e) => {
            return Ok(Certified {
                certified: false,
                reason: Some(e.to_string()),
                nodes: 0,
                bytes: 0,
                extract_ms,
                check_ms: 0.0,
            })
        }
    };
    let mut buf = Vec::new();
    write_jsonl(&cert, &mut buf).map_err(|e| Failure::internal(format!("certificate: {e}")))?;
    let text = String::from_utf8(buf).map_err(|e| Failure::internal(e.to_string()))?;
    let t = Instant::now();
    let verdict = check_text(&text, Some(root));
    let check_ms = t.elapsed().as_secs_f64() * 1e3;
    if let Some(p) = path {
        super::show::write_atomically(p, &text)?;
    }
    Ok(Certified {
        certified: verdict.is_ok(),
        reason: verdict.err().map(|e| e.to_string()),
        nodes: cert.nodes.len(),
        bytes: text.len(),
        extract_ms,
        check_ms,
    })
}
