//! The JSON-lines writer of a certificate (`specs/certificate.md`): a header line, then
//! one line per node.

use super::{Body, Certificate, Claim, Node};
use serde::Serialize;
use std::fmt::Write as _;
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
            // Version 4: version 3 with `by_checker` leaves (the checker reads both).
            Some(l) if l.futile_uncounted => 4,
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
    // Each line as serde_json writes an object (keys sorted, no spaces), written
    // directly: building a `serde_json::Value` per node took a quarter of a large
    // certificate's CPU (図巧35: 2.9 M nodes). SFEN and USI text need no escaping
    // (`nodes_are_written_as_serde_json_writes_them` holds it to the `Value` writer).
    let mut line = String::new();
    for (id, n) in cert.nodes.iter().enumerate() {
        node_line(&mut line, id, n);
        out.write_all(line.as_bytes())?;
    }
    Ok(())
}

/// One node's line (with its newline) into `line`, replacing what it held. Keys in
/// serde_json's order (sorted): `budget`, `by_checker`, `covered_by`, `futile`, `id`, `moves`,
/// `nonfutile`, `sfen`.
fn node_line(line: &mut String, id: usize, n: &Node) {
    line.clear();
    line.push('{');
    if let Some(b) = n.budget {
        let _ = write!(line, "\"budget\":{b},");
    }
    if n.body == Body::ByChecker {
        line.push_str("\"by_checker\":true,");
    }
    if let Body::CoveredBy(m) = &n.body {
        let _ = write!(line, "\"covered_by\":{m},");
    }
    if !n.witnesses.is_empty() && n.budget.is_none() {
        line.push_str("\"futile\":[");
        for (i, w) in n.witnesses.iter().enumerate() {
            let sep = if i > 0 { "," } else { "" };
            let _ = write!(
                line,
                "{sep}[\"{}\",\"{}\",{}]",
                w.reply, w.recapture, w.node
            );
        }
        line.push_str("],");
    }
    let _ = write!(line, "\"id\":{id},");
    if let Body::Moves(v) = &n.body {
        line.push_str("\"moves\":[");
        for (i, (m, c)) in v.iter().enumerate() {
            let sep = if i > 0 { "," } else { "" };
            let _ = write!(line, "{sep}[\"{m}\",{c}]");
        }
        line.push_str("],");
    }
    if !n.witnesses.is_empty() && n.budget.is_some() {
        line.push_str("\"nonfutile\":[");
        for (i, w) in n.witnesses.iter().enumerate() {
            let sep = if i > 0 { "," } else { "" };
            let _ = write!(line, "{sep}[\"{}\",{}]", w.recapture, w.node);
        }
        line.push_str("],");
    }
    line.push_str("\"sfen\":\"");
    n.pos.write_sfen(line);
    line.push_str("\"}\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tsume::certificate::{extract_length, write_jsonl};
    use crate::tsume::{load_problem, DefenderHand, SolverOptions};

    /// The writer before session 24, one `serde_json::Value` per node: the twin the
    /// direct writer must match byte for byte.
    fn value_line(id: usize, n: &Node) -> String {
        let sfen = n.pos.sfen();
        let mut line = match &n.body {
            Body::Moves(v) => {
                let moves: Vec<(String, usize)> =
                    v.iter().map(|(m, c)| (m.to_string(), *c)).collect();
                serde_json::json!({"id": id, "sfen": sfen, "moves": moves})
            }
            Body::CoveredBy(m) => serde_json::json!({"id": id, "sfen": sfen, "covered_by": m}),
            Body::ByChecker => serde_json::json!({"id": id, "sfen": sfen, "by_checker": true}),
        };
        if let Some(b) = n.budget {
            line["budget"] = b.into();
        }
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
        format!("{line}\n")
    }

    /// Length certificates (version 4: budgets, covers, both kinds of witnesses, mated
    /// nodes with no moves, `by_checker` leaves) of problems with futile and non-futile
    /// interpositions (the last is 図巧18).
    #[test]
    fn nodes_are_written_as_serde_json_writes_them() {
        let mut kinds = [0usize; 6];
        for sfen in [
            "8k/8p/6P2/9/9/9/9/9/B8 b - 1",
            "9/1k7/9/B2+R5/N8/9/9/9/9 b Lrb4g4s3n3l18p 1",
            "9/2k6/9/1+R7/3R5/9/9/9/9 b Bb4g4s4n4l18p 1",
            "7n1/5+B+P1r/7k1/7+p1/6P2/7N1/7N1/8B/9 b N2Pr4g4s4l13p 1",
        ] {
            let root = load_problem(sfen, DefenderHand::AsGiven).expect("problem");
            let mut solver = crate::tsume::Solver::new(SolverOptions {
                memory_mib: 16,
                nodes: Some(2_000_000),
                ..SolverOptions::default()
            });
            let r = solver.solve(&root);
            let Ok(cert) = extract_length(&solver, &root, &r) else {
                continue;
            };
            let mut whole = Vec::new();
            write_jsonl(&cert, &mut whole).unwrap();
            let text = String::from_utf8(whole).unwrap();
            let mut lines = text.lines().skip(1);
            let mut line = String::new();
            for (id, n) in cert.nodes.iter().enumerate() {
                node_line(&mut line, id, n);
                assert_eq!(line, value_line(id, n));
                assert_eq!(Some(line.trim_end()), lines.next());
                kinds[0] += usize::from(n.budget.is_some());
                kinds[1] += usize::from(matches!(n.body, Body::CoveredBy(_)));
                kinds[2] += usize::from(n.budget.is_none() && !n.witnesses.is_empty());
                kinds[3] += usize::from(n.budget.is_some() && !n.witnesses.is_empty());
                kinds[4] += usize::from(matches!(&n.body, Body::Moves(v) if v.is_empty()));
                kinds[5] += usize::from(n.body == Body::ByChecker);
            }
        }
        assert!(kinds.iter().all(|&k| k > 0), "{kinds:?}");
    }
}
