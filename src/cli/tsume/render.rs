//! One answer as the user reads it: a JSON line (`--json`) or a block of text, and the
//! warnings that go to stderr.

use super::TsumeArgs;
use crate::cli::error::InputError;
use crate::notation::japanese::ki2_line;
use crate::output::tsume::TsumeOut;
use crate::rules::{Move, Position};
use crate::tsume::certificate::Certified;
use crate::tsume::problems::Problem;
use crate::tsume::{plies, Outcome, SolveResult};
use std::path::Path;

/// A problem solved: what the renderers read.
pub(super) struct Answer<'a> {
    pub(super) problem: &'a Problem,
    /// The position solved (the defender's hand filled in).
    pub(super) pos: &'a Position,
    pub(super) result: &'a SolveResult<Move>,
    pub(super) cert: &'a Certified,
    /// The solve's CPU time in ms.
    pub(super) solve_ms: f64,
    /// Where the certificate was written, if asked for.
    pub(super) cert_path: Option<&'a Path>,
    /// A certificate file that could not be written (the error goes to stderr).
    pub(super) unwritten: Option<&'a Path>,
}

impl Answer<'_> {
    /// For a mate: the line's length.
    fn plies(&self) -> Option<usize> {
        (self.result.outcome == Outcome::Mate).then_some(self.result.line.len())
    }
}

/// A problem that could not be read: its JSON line, or its text line.
pub(super) fn unreadable(p: &Problem, err: &InputError, json: bool) -> String {
    if json {
        crate::output::to_line(&TsumeOut::unreadable(&p.id, &p.sfen, err))
    } else {
        format!("{}: bad input: {err}", p.id)
    }
}

/// The lines for stderr: why the answer or its length is not certified.
pub(super) fn warnings(a: &Answer) -> Vec<String> {
    let mut w = Vec::new();
    if let Some(why) = &a.cert.length_reason {
        w.push(format!(
            "{}: shortest length not certified: {why}",
            a.problem.id
        ));
    }
    if let Some(why) = &a.cert.reason {
        w.push(format!(
            "{}: {} not certified: {why}",
            a.problem.id,
            a.result.outcome.as_str()
        ));
    }
    w
}

/// The answer as one JSON line.
pub(super) fn json(a: &Answer, args: &TsumeArgs) -> String {
    crate::output::to_line(&TsumeOut::answer(
        &a.problem.id,
        a.pos,
        a.result,
        a.cert,
        args.alt_nodes > 0,
    ))
}

/// The answer as text: the result, then one indented line per fact.
pub(super) fn text(a: &Answer, args: &TsumeArgs) -> String {
    let r = a.result;
    let mut lines = vec![format!("{}: {}", a.problem.id, r.outcome.as_str())];
    lines.extend(mate_lines(a));
    if args.alt_nodes > 0 && r.outcome == Outcome::Mate {
        lines.push(alternatives_line(r));
    }
    lines.extend(within_lines(a));
    lines.extend(certificate_line(a));
    lines.extend(length_certificate_line(a, args.count_futile));
    lines.push(format!(
        "  nodes {}  plays {}  time {:.3} s",
        r.stats.nodes,
        r.stats.plays,
        r.stats.time.as_secs_f64()
    ));
    lines.join("\n")
}

/// For a mate: its length (and what is proven of it), the line in Japanese and in USI.
fn mate_lines(a: &Answer) -> Vec<String> {
    let r = a.result;
    let Some(n) = a.plies() else {
        return Vec::new();
    };
    vec![
        format!(
            "  plies {n}{}",
            match (r.shortest, r.no_mate_within, r.mate_within) {
                (Some(true), _, _) => " (shortest)".to_string(),
                (Some(false), Some(low), Some(l)) if l <= low + 2 => format!(
                    " (the shortest mate is proven to have {}; this line is not one of longest defences)",
                    plies(l.into())
                ),
                (Some(false), _, _) => " (shortest not proven within limits)".to_string(),
                (None, _, _) => String::new(),
            }
        ),
        format!("  line  {}", ki2_line(a.pos, &r.line)),
        format!("  usi   {}", r.line_usi()),
    ]
}

/// The other mating first moves found (余詰), or `none found`.
fn alternatives_line(r: &SolveResult<Move>) -> String {
    let alts: Vec<String> = r.alternatives.iter().map(|m| m.to_string()).collect();
    format!(
        "  余詰  {}",
        if alts.is_empty() {
            "none found".to_string()
        } else {
            alts.join(" ")
        }
    )
}

/// The bounds proven: no mate within N plies; mate within L when L is not the line's
/// length (for `unknown`: a mate proven whose line could not be read).
fn within_lines(a: &Answer) -> Vec<String> {
    let r = a.result;
    let mut lines = Vec::new();
    if let Some(n) = r.no_mate_within {
        lines.push(format!("  no mate within {}", plies(n.into())));
    }
    match r.mate_within {
        Some(l) if r.outcome == Outcome::Mate && a.plies() != Some(usize::from(l)) => {
            lines.push(format!("  mate within {} (proven)", plies(l.into())));
        }
        Some(l) if r.outcome == Outcome::Unknown => {
            lines.push(format!(
                "  mate within {} (proven; its line could not be read within the limits)",
                plies(l.into())
            ));
        }
        _ => {}
    }
    lines
}

/// The answer's certificate: checked, refused, or written unchecked (`--no-certify`).
fn certificate_line(a: &Answer) -> Option<String> {
    let cert = a.cert;
    let path = a
        .cert_path
        .map(|p| {
            let not = if a.unwritten == Some(p) {
                " (not written)"
            } else {
                ""
            };
            format!("  {}{not}", p.display())
        })
        .unwrap_or_default();
    match cert.certified {
        Some(true) => Some(format!(
            "  certified  {} nodes  {} bytes  cpu ms: solve {:.1} extraction {:.1} check {:.1}{}",
            cert.nodes, cert.bytes, a.solve_ms, cert.extract_ms, cert.check_ms, path
        )),
        Some(false) => Some("  NOT certified (reason on stderr)".into()),
        None if cert.nodes > 0 => Some(format!(
            "  certificate (unchecked)  {} nodes  {} bytes  cpu ms: solve {:.1} extraction {:.1}{}",
            cert.nodes, cert.bytes, a.solve_ms, cert.extract_ms, path
        )),
        None => None,
    }
}

/// A proven-shortest mate's length certificate: mate within L, none within L − 2; its own
/// extraction and check times (those of the certificate line above are the plain
/// certificate's), a failed attempt's too.
fn length_certificate_line(a: &Answer, count_futile: bool) -> Option<String> {
    let cert = a.cert;
    match (cert.shortest_certified, a.plies()) {
        (Some(true), Some(n)) => Some(format!(
            "  shortest certified: mate within {}, no mate within {}{}  {} nodes  {} bytes  cpu ms: extraction {:.1} check {:.1}",
            plies(n as u64),
            n.saturating_sub(2),
            if count_futile {
                ""
            } else {
                " (無駄合 not counted)"
            },
            cert.length_nodes,
            cert.length_bytes,
            cert.length_ms.0,
            cert.length_ms.1,
        )),
        (Some(false), _) => Some(format!(
            "  shortest NOT certified (reason on stderr)  cpu ms: extraction {:.1} check {:.1}",
            cert.length_ms.0, cert.length_ms.1,
        )),
        _ => None,
    }
}
