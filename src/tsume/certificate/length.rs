//! The length certificate (`specs/certificate.md`) of a proven-shortest mate: a mate
//! graph within L plies and a bounded no-mate graph for L − 2, in one file; counting
//! every reply (`--count-futile`, version 2) or under the 無駄合 convention of the
//! default mode (version 4: witnesses of futile and non-futile interpositions, and
//! attacker nodes one ply from the end that the checker decides itself).

use super::graph::{default_limits, graph};
use super::{stuck, Body, Certificate, Claim, ExtractError, ExtractLimits, Length};
use crate::rules::{Move, Position};
use crate::tsume::table::UNBOUNDED;
use crate::tsume::{Outcome, SolveResult, Solver};

/// The certificate of a proven-shortest mate (`shortest: Some(true)`): a mate graph of
/// depth at most L (the line's length), built
/// from proofs whose length bounds fit the remaining budget, and a bounded no-mate graph
/// proving no mate within L − 2 (absent when L < 3), built from the solver's budgeted
/// disproofs and budgeted searches with the graph assumed ([`Solver::solve_assuming`]);
/// one version-2 file (`specs/certificate.md`) when the solver counted every reply
/// (`count_futile`), else version 4: budgets under the 無駄合 convention, with the
/// witnesses of the interpositions left out or chosen. Each half gets `limits` of its
/// own; a no-mate half that runs out of fallback nodes is tried once more, within the
/// same limits, taking refutations as found ([`ExtractLimits::first_found`]).
///
/// # Errors
/// [`ExtractError::NotSolved`] unless `result` is such an answer; else as
/// [`extract_with`](super::extract_with).
pub fn extract_length_with(
    solver: &Solver<Position>,
    root: &Position,
    result: &SolveResult<Move>,
    limits: ExtractLimits,
) -> Result<Certificate, ExtractError> {
    if result.outcome != Outcome::Mate || result.shortest != Some(true) {
        return Err(ExtractError::NotSolved("unproven-length"));
    }
    // The default mode counts no 無駄合: version 4, with witnesses.
    let uncounted = !solver.options().count_futile;
    let len = u16::try_from(result.line.len())
        .ok()
        .filter(|&l| l < UNBOUNDED)
        .ok_or_else(|| stuck(root, "line too long"))?;
    let part = |claim: &'static str, b: u16| {
        move |e| ExtractError::Part {
            part: format!("{claim} graph within {}", crate::tsume::plies(b.into())),
            failure: Box::new(e),
        }
    };
    let mut cert =
        graph(solver, root, Claim::Mate, len, uncounted, limits).map_err(part("mate", len))?;
    let mut nomate_root = None;
    if len >= 3 {
        let bounded = |limits| graph(solver, root, Claim::Nomate, len - 2, uncounted, limits);
        // Cheapest refutations first; when that runs out of fallback nodes, the
        // refutations as found (a second try within the same limits).
        let no = match bounded(limits) {
            Err(e @ ExtractError::Budget { .. }) if !limits.first_found => bounded(ExtractLimits {
                first_found: true,
                ..limits
            })
            // The second try's own failure is reported only when it was a stop.
            .map_err(|e2| if e2.is_stopped() { e2 } else { e }),
            r => r,
        }
        .map_err(part("no-mate", len - 2))?;
        nomate_root = Some(append(&mut cert, no));
    }
    cert.length = Some(Length {
        plies: u32::from(len),
        nomate_root,
        futile_uncounted: uncounted,
    });
    Ok(cert)
}

/// Appends the graph `other` to `cert`'s nodes (its ids, witnesses included, shifted
/// past them): one id space for the two halves of a length certificate. Returns the id
/// of `other`'s root.
fn append(cert: &mut Certificate, other: Certificate) -> usize {
    let off = cert.nodes.len();
    cert.nodes.reserve_exact(other.nodes.len());
    for mut n in other.nodes {
        match &mut n.body {
            Body::Moves(v) => v.iter_mut().for_each(|(_, c)| *c += off),
            Body::CoveredBy(m) => *m += off,
            Body::ByChecker => {}
        }
        for w in &mut n.witnesses {
            w.node += off;
        }
        cert.nodes.push(n);
    }
    off + other.root
}

/// [`extract_length_with`] under the limits of [`extract`](super::extract).
///
/// # Errors
/// As [`extract_length_with`].
pub fn extract_length(
    solver: &Solver<Position>,
    root: &Position,
    result: &SolveResult<Move>,
) -> Result<Certificate, ExtractError> {
    extract_length_with(solver, root, result, length_limits(result))
}

/// Graph nodes of one half of a length certificate when memory allows
/// ([`length_limits`]); the plain certificate's 2 000 000 otherwise. 8 M since session 29
/// (4 M before): with the fallback changes of that session 図巧91 (41 plies), 図巧99 (117)
/// and 無双8 (31) certify their lengths at 20 M solver nodes within it, not within 4 M.
pub const LENGTH_MAX_NODES: usize = 8_000_000;

/// Peak process memory per graph node while a length certificate is built, written
/// and checked, rounded up: 図巧35 (2 925 145 nodes in version 3, 360 MB of JSON lines)
/// peaked at 1.47 GB with the solver's 256 MiB table, about 500 bytes a node, since the
/// nodes keep packed positions ([`super::NodePosition`]; 1.3 KB a node before, session
/// 24); in version 4 (866 036 nodes, 107 MB) it peaks at 0.53 GB, about 300 bytes a node.
const BYTES_PER_NODE: u64 = 640;

/// Whether the machine's available memory can hold a length certificate of `nodes`
/// graph nodes in each half (both halves at the bytes a node takes while built, written
/// and checked): front ends check a user's `--certificate-nodes` before solving.
///
/// # Errors
/// [`crate::resources::MemoryError`] when it cannot.
pub fn check_length_nodes(nodes: usize) -> Result<(), crate::resources::MemoryError> {
    let bytes = (nodes as u64)
        .saturating_mul(BYTES_PER_NODE)
        .saturating_mul(2);
    crate::resources::check_memory_request(bytes, "--certificate-nodes")
}

/// [`length_limits`] with at most `nodes` graph nodes in each half (the caller's choice,
/// e.g. `--certificate-nodes`), and at least twice that many created in all; an error
/// when the machine's available memory cannot hold both halves at the bytes a node
/// takes while built, written and checked.
///
/// # Errors
/// [`crate::resources::MemoryError`] when `nodes` does not fit.
pub fn length_limits_with_nodes(
    result: &SolveResult<Move>,
    nodes: usize,
) -> Result<ExtractLimits, crate::resources::MemoryError> {
    check_length_nodes(nodes)?;
    let l = length_limits(result);
    Ok(ExtractLimits {
        max_nodes: nodes,
        max_created: l.max_created.max(nodes.saturating_mul(2) as u64),
        ..l
    })
}

/// The limits of [`extract_length`]: those of [`extract`](super::extract) with
/// [`LENGTH_MAX_NODES`] graph nodes (fewer, down to the plain 2 000 000, when
/// [`available_memory`](crate::resources::available_memory) cannot hold both halves at
/// 640 bytes each), at least twice that many created in all, and the fallback budget of
/// [`extract`](super::extract).
pub fn length_limits(result: &SolveResult<Move>) -> ExtractLimits {
    let d = default_limits(result);
    let room = crate::resources::available_memory()
        .map_or(LENGTH_MAX_NODES, |a| (a / BYTES_PER_NODE / 2) as usize);
    let max_nodes = room.clamp(d.max_nodes, LENGTH_MAX_NODES.max(d.max_nodes));
    ExtractLimits {
        max_nodes,
        max_created: d.max_created.max(max_nodes.saturating_mul(2) as u64),
        ..d
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::certificate::{check_text, CheckError};
    use crate::tsume::certificate::{extract, write_jsonl};
    use crate::tsume::{load_problem, DefenderHand, SolverOptions};

    /// A stop request on the solve's control ends the extraction of either certificate
    /// (`ExtractError::Stopped`, inside the length certificate's half) instead of
    /// certifying; without one the same extraction succeeds.
    #[test]
    fn a_stop_request_ends_the_extraction() {
        let sfen = "4ng2+r/5+r1+L1/4P1k1G/4l2P1/3spS1p+p/9/3N1L+p2/3+b5/1+B7 b 2g2s2nl12p 1";
        let root = load_problem(sfen, DefenderHand::Remaining).unwrap();
        let control = crate::tsume::Control::default();
        let mut s = Solver::<Position>::new(SolverOptions {
            nodes: Some(2_000_000),
            memory_mib: 256,
            control: Some(control.clone()),
            ..SolverOptions::default()
        });
        let r = s.solve(&root);
        assert_eq!((r.line.len(), r.shortest), (37, Some(true)));
        assert!(extract_length(&s, &root, &r).is_ok());
        assert!(extract(&s, &root, &r).is_ok());
        control.0.stop();
        let e = extract_length(&s, &root, &r).unwrap_err();
        assert!(e.is_stopped(), "{e}");
        assert!(matches!(e, ExtractError::Part { .. }), "{e:?}");
        assert!(matches!(extract(&s, &root, &r), Err(ExtractError::Stopped)));
    }

    /// `cert` as JSON lines.
    fn jsonl(cert: &Certificate) -> String {
        let mut out = Vec::new();
        write_jsonl(cert, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// The mate graph `cert` joined with the no-mate graph `no` as a version-4 length
    /// claim of `plies`, as JSON lines.
    fn with_length(mut cert: Certificate, no: Certificate, plies: u32) -> String {
        let nomate_root = append(&mut cert, no);
        cert.length = Some(Length {
            plies,
            nomate_root: Some(nomate_root),
            futile_uncounted: true,
        });
        jsonl(&cert)
    }

    /// Once a search round at a bounded no-mate defender has found a refutation, the
    /// node's later replies get no more nodes than it took (session 30). 無双84's no-mate
    /// half (2 M solver nodes) fits 500 000 fallback nodes so, refutations tried cheapest
    /// first; searching every reply of a round with the round's whole budget, it needed
    /// 689 k (332 k with the cap; a scratch trace of the fallback searches).
    #[test]
    fn a_round_searches_no_reply_longer_than_its_cheapest_refutation() {
        let text = include_str!("../../../specs/tsume/classics.sfen");
        let problems = crate::tsume::problems::read_problems(text);
        let p = problems.iter().find(|p| p.id == "musou-084").unwrap();
        let root = load_problem(&p.sfen, DefenderHand::Remaining).unwrap();
        let mut s = Solver::<Position>::new(SolverOptions {
            nodes: Some(2_000_000),
            memory_mib: 256,
            ..SolverOptions::default()
        });
        let r = s.solve(&root);
        assert_eq!(r.shortest, Some(true));
        let limits = ExtractLimits {
            fallback_total_nodes: 500_000,
            first_found: false,
            ..length_limits(&r)
        };
        // The no-mate half alone: `extract_length_with` would retry it taking refutations
        // as found, which fits the budget without the cap too.
        let b = u16::try_from(r.line.len() - 2).unwrap();
        let no = graph(&s, &root, Claim::Nomate, b, true, limits).unwrap_or_else(|e| panic!("{e}"));
        let cert = graph(&s, &root, Claim::Mate, b + 2, true, length_limits(&r)).unwrap();
        let text = with_length(cert, no, u32::from(b + 2));
        let checked = check_text(&text, Some(&root)).unwrap();
        assert_eq!(checked.length, Some(u32::from(b + 2)));
    }

    /// 図巧20: the default mode once answered "11 plies, shortest" (the exact line walk
    /// took a reply it had not shown exact; fixed in session 13: 37, the composed length).
    /// The independent checker refutes the 11 on its own: a version-4 file joining the
    /// plain mate graph (every reply listed, valid under the convention) and a bounded
    /// no-mate graph within 11 under the convention passes every rule but the last — its
    /// mate graph is deeper than the length 13 the bounded graph supports — so "no mate
    /// within 11" is certified (paper/results/certificates.md). The solver's answer now
    /// carries its own length certificate.
    #[test]
    fn zukou_20_default_length_is_37_and_11_is_refuted() {
        let sfen = "4ng2+r/5+r1+L1/4P1k1G/4l2P1/3spS1p+p/9/3N1L+p2/3+b5/1+B7 b 2g2s2nl12p 1";
        let root = load_problem(sfen, DefenderHand::Remaining).unwrap();
        let opts = SolverOptions {
            nodes: Some(2_000_000),
            memory_mib: 256,
            ..SolverOptions::default()
        };
        let mut s = Solver::<Position>::new(opts.clone());
        let r = s.solve(&root);
        assert_eq!((r.line.len(), r.shortest), (37, Some(true)));
        let own = extract_length(&s, &root, &r).unwrap();
        let checked = check_text(&jsonl(&own), Some(&root)).unwrap();
        assert_eq!((checked.length, checked.futile_uncounted), (Some(37), true));
        // The plain mate graph of a first proof.
        let mut any = Solver::<Position>::new(SolverOptions {
            shortest: false,
            ..opts.clone()
        });
        let ra = any.solve(&root);
        let cert = extract(&any, &root, &ra).unwrap();
        // No mate within 11 under the convention, from a budgeted solve's table.
        let mut b = Solver::<Position>::new(SolverOptions {
            max_plies: Some(11),
            ..opts
        });
        let rb = b.solve(&root);
        assert_eq!(rb.no_mate_within, Some(11));
        let limits = super::super::graph::default_limits(&rb);
        let no = graph(&b, &root, Claim::Nomate, 11, true, limits).unwrap();
        let text = with_length(cert, no, 13);
        match check_text(&text, Some(&root)) {
            Err(CheckError::Invalid { node: 0, why }) => {
                assert!(why.contains("more than the length 13"), "{why}")
            }
            other => panic!("{other:?}"),
        }
    }
}
