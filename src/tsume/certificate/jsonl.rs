//! The JSON-lines writer of a certificate (`specs/certificate.md`): a header line, then
//! one line per node.

use super::{Body, Certificate, Claim};
use crate::notation::sfen::write_sfen;
use serde::Serialize;
use std::io::Write;

#[derive(Serialize)]
struct Header {
    format: &'static str,
    version: u32,
    result: Claim,
    root: usize,
    plies: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    length: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nomate_root: Option<Option<usize>>,
}

/// Writes `cert` as JSON lines (`specs/certificate.md`).
///
/// # Errors
/// I/O errors of `out`.
pub fn write_jsonl(cert: &Certificate, out: &mut impl Write) -> std::io::Result<()> {
    let h = Header {
        format: "shogi-lab/tsume-certificate",
        version: match cert.length {
            Some(l) if l.futile_uncounted => 3,
            Some(_) => 2,
            None => 1,
        },
        result: cert.result,
        root: cert.root,
        plies: cert.plies,
        length: cert.length.map(|l| l.plies),
        nomate_root: cert.length.map(|l| l.nomate_root),
    };
    writeln!(
        out,
        "{}",
        serde_json::to_string(&h).map_err(std::io::Error::other)?
    )?;
    for (id, n) in cert.nodes.iter().enumerate() {
        let sfen = write_sfen(&n.pos);
        let mut line = match &n.body {
            Body::Moves(v) => {
                let moves: Vec<(String, usize)> =
                    v.iter().map(|(m, c)| (m.to_string(), *c)).collect();
                serde_json::json!({"id": id, "sfen": sfen, "moves": moves})
            }
            Body::CoveredBy(m) => serde_json::json!({"id": id, "sfen": sfen, "covered_by": m}),
        };
        if let Some(b) = n.budget {
            line["budget"] = b.into();
        }
        // Version 3: futility witnesses (mate) or non-futility witnesses (no-mate).
        if !n.witnesses.is_empty() {
            if n.budget.is_none() {
                let w: Vec<(String, String, usize)> = n
                    .witnesses
                    .iter()
                    .map(|w| (w.reply.to_string(), w.recapture.to_string(), w.node))
                    .collect();
                line["futile"] = serde_json::json!(w);
            } else {
                let w: Vec<(String, usize)> = n
                    .witnesses
                    .iter()
                    .map(|w| (w.recapture.to_string(), w.node))
                    .collect();
                line["nonfutile"] = serde_json::json!(w);
            }
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}
