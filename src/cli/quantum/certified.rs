//! `quantum converge --certify`: the engine's answer, its certificate and the checker's verdict.

use super::super::{emit, Failure};
use crate::output::quantum::{CertifiedOut, ConvergeOut};
use crate::quantum::certify::{certify, check, Certificate};
use crate::quantum::{Contradiction, Converged, World};

/// Certifies `w`, checks the certificate, compares it with the engine's
/// `answer` and prints both (text or one JSON object).
///
/// # Errors
/// Exit 3 when the certificate does not check or disagrees with the engine.
pub fn print(
    w: &World,
    answer: &Result<Converged, Contradiction>,
    json: bool,
) -> Result<(), Failure> {
    let cert = certify(w);
    check(w, &cert).map_err(|e| Failure::internal(format!("certificate rejected: {e}")))?;
    match (&cert, answer) {
        (Certificate::Converged { output, .. }, Ok(c)) if *output == c.world => {}
        (Certificate::Contradiction { .. }, Err(_)) => {}
        _ => {
            return Err(Failure::internal(
                "the engine's answer differs from the certified one",
            ))
        }
    }
    if json {
        emit(crate::output::to_line(&CertifiedOut {
            answer: ConvergeOut::new(answer),
            certificate: cert,
            checked: true,
        }));
        return Ok(());
    }
    match &cert {
        Certificate::Contradiction { violator } => {
            let doms: Vec<String> = violator
                .iter()
                .map(|&i| format!("{i}:{}", w.0[i]))
                .collect();
            emit(format!("contradiction: pieces {}", doms.join(" ")));
            emit(format!(
                "hall violator: {} pieces, {} copies (checked)",
                violator.len(),
                violator
                    .iter()
                    .fold(crate::quantum::KindSet::EMPTY, |u, &i| u.or(w.0[i]))
                    .capacity()
            ));
        }
        Certificate::Converged {
            output,
            assignments,
            kept,
            removed,
        } => {
            emit("consistent");
            emit(format!("world:   {output}"));
            if let Ok(c) = answer {
                emit(format!("used up: {}", c.used_up));
            }
            for (n, a) in assignments.iter().enumerate() {
                let s: String = a.iter().map(|k| k.letter()).collect();
                emit(format!("witness #{n}: {s}"));
            }
            for k in kept {
                emit(format!(
                    "piece {} keeps {}: witness #{}",
                    k.piece,
                    k.kind.letter(),
                    k.witness
                ));
            }
            for r in removed {
                emit(format!(
                    "piece {} loses {}: hall violator {:?}",
                    r.piece,
                    r.kind.letter(),
                    r.violator
                ));
            }
            emit(format!(
                "certificate checked: {} kept pairs, {} removed pairs, {} witnesses",
                kept.len(),
                removed.len(),
                assignments.len()
            ));
        }
    }
    Ok(())
}
