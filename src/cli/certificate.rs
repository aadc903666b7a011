//! `shogi-lab check-certificate FILE [--problem SFEN]`, and the CLI's reading of
//! [`CertifyError`] (the certification of a `tsume` answer is the library's
//! [`certify_answer`](crate::tsume::certificate::certify_answer)).

use super::error::{InputError, Origin};
use super::{emit, Failure};
use crate::certificate::check_text;
use crate::output::tsume::CertificateCheckOut;
use crate::rules::Position;
use crate::tsume::certificate::{Certified, CertifyError};
use crate::tsume::{load_problem, DefenderHand};
use std::path::{Path, PathBuf};
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
    let text = super::read_text(&a.file)?;
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
                        .map(|p| format!(" in at most {}", crate::tsume::plies(p.into())))
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

/// A certification as the CLI reports it: what it gave ([`Certified`]), with the failure
/// that ends the run once the answer is printed when a certificate accepted in-process
/// could not be written (output not written: exit 3, `--certificate PATH: cannot write
/// FILE: reason`, `option_path` being the option's value); a certificate that could not
/// be rendered is an internal failure at once (exit 3).
///
/// # Errors
/// The rendering failure.
pub(crate) fn certified_or_failure(
    r: Result<Certified, CertifyError>,
    option_path: &Path,
) -> Result<(Certified, Option<(PathBuf, Failure)>), Failure> {
    match r {
        Ok(c) => Ok((c, None)),
        Err(CertifyError::Write {
            path,
            error,
            certified,
        }) => {
            let failure = Failure::internal(format!(
                "--certificate {}: cannot write {}: {error}",
                option_path.display(),
                path.display()
            ));
            Ok((*certified, Some((path, failure))))
        }
        Err(e) => Err(Failure::internal(e)),
    }
}
