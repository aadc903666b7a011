//! The proven-shortest length (the minimality loop, `specs/tsume.md` "Shortest mate"): ply
//! budgets L − 2, L − 4, … below the first proof of L until one is disproven; when a limit
//! cuts that short, budgets 1, 3, 5, … bottom-up in the same table for the lengths ruled out.

use super::*;

/// [`Solver::shortest_len`] keeps 1/`LOWER_BOUND_SHARE` of the nodes and time left after
/// the first proof for ruling lengths out when the top-down search is cut short. An eighth
/// (sessions 9–10) cost three proven lengths at 5 M nodes (無双3, 24, 40 need 4.5–4.7 M in
/// all, more than 7/8 of the limit); with a 32nd they are proven and nothing else changes
/// but the bounds (about 2 plies lower; none at all without the phase),
/// `paper/tsume-log.md` S11.
const LOWER_BOUND_SHARE: u64 = 32;

impl<P: MatePosition> Solver<P> {
    /// The shortest mate length at most `upper`, and the largest budget disproven (the
    /// root is not mate within it; `None`: none was); `exact` is false if limits cut the
    /// search short.
    ///
    /// Top-down first, with all but 1/[`LOWER_BOUND_SHARE`] of the node and time limits
    /// left: budgets `upper − 2`, `upper − 4`, … until one is disproven (exact). When a
    /// limit cuts that short, the rest goes bottom-up, budgets 1, 3, 5, … in the same
    /// table, so the answer still says which lengths are ruled out: each bounded disproof
    /// costs a few times the previous one (`paper/tsume-log.md` S8), so the small budgets
    /// are cheap. A proof found there is a shorter mate, and exact (every smaller budget
    /// was disproven on the way). Without limits (or after a stop request) there is no
    /// second phase.
    pub(super) fn shortest_len(&mut self, pos: &mut P, upper: u16) -> (u16, Option<u16>, bool) {
        let mut len = upper;
        let (node_limit, deadline) = (self.node_limit, self.deadline);
        self.node_limit = node_limit.map(|l| l - l.saturating_sub(self.nodes) / LOWER_BOUND_SHARE);
        self.deadline = deadline.map(|d| {
            let now = Instant::now();
            d - d.saturating_duration_since(now) / LOWER_BOUND_SHARE as u32
        });
        let cut = loop {
            if len < 3 {
                break false;
            }
            let out = self.search_root(pos, len - 2);
            if out.pns.is_proven() {
                len = out.bound.min(len - 2);
                self.proven(pos, len);
            } else if out.pns.is_disproven() && out.dep != 0 && !self.aborted {
                self.publish(None, Some(len - 2));
                break false;
            } else {
                break true;
            }
        };
        self.node_limit = node_limit;
        self.deadline = deadline;
        if !cut {
            return (len, (len >= 3).then(|| len - 2), true);
        }
        if self.stopped()
            || node_limit.is_some_and(|l| self.nodes >= l)
            || deadline.is_some_and(|d| Instant::now() >= d)
        {
            return (len, None, false);
        }
        self.aborted = false;
        let mut low = None;
        let mut b = 1;
        while b + 2 <= len {
            let out = self.search_root(pos, b);
            if out.pns.is_proven() {
                let len = out.bound.min(b);
                self.proven(pos, len);
                return (len, low, true);
            }
            if !(out.pns.is_disproven() && out.dep != 0 && !self.aborted) {
                return (len, low, false);
            }
            low = Some(b);
            self.publish(None, low);
            b += 2;
        }
        (len, low, true)
    }
}

#[cfg(test)]
mod tests {
    use crate::tsume::{
        load_problem, problems::read_problems, DefenderHand, MatePosition, SolverOptions,
    };

    /// A stop request or node limit that cuts the minimality search short leaves the
    /// shortest mate proven so far, and the line shown is no longer than it: 無双8 stopped every 4 096
    /// nodes from before its first proof (37 plies) to after its 31-ply one. A line read
    /// with every reply counted showed 37 plies for a proven 35 (a clean-clone CI run,
    /// stopped from Python at 129 028 nodes).
    #[test]
    fn a_stopped_minimality_search_shows_a_line_within_its_bound() {
        let text = include_str!("../../../specs/tsume/classics.sfen");
        let problems = read_problems(text);
        let p = problems.iter().find(|p| p.id == "musou-008").unwrap();
        let pos = load_problem(&p.sfen, DefenderHand::Remaining).unwrap();
        let mut seen = std::collections::BTreeSet::new();
        for stop in (25..=39).map(|k| k * 4096) {
            let mut s = super::Solver::<crate::rules::Position>::new(SolverOptions {
                nodes: Some(20_000_000),
                memory_mib: 64,
                ..SolverOptions::default()
            });
            s.stop_at = Some(stop);
            let r = s.solve(&pos);
            if r.outcome != super::Outcome::Mate {
                assert_eq!(r.mate_within, None, "stopped at {stop}");
                continue;
            }
            let within = r.mate_within.unwrap();
            assert!(
                r.line.len() <= usize::from(within),
                "stopped at {stop}: {} > {within}",
                r.line.len()
            );
            assert!(pos.check_mate_line(&r.line).is_ok(), "stopped at {stop}");
            seen.insert((within, r.shortest));
        }
        // The stops fall before the first proof, between proofs and after the last.
        let lengths: Vec<u16> = seen.iter().map(|&(w, _)| w).collect();
        assert!(
            lengths.contains(&37) && lengths.contains(&35) && lengths.contains(&31),
            "{seen:?}"
        );
        assert!(seen.iter().all(|&(_, s)| s == Some(false)), "{seen:?}");

        // Cut by a node limit instead, the bottom-up phase rules out short lengths too
        // (`no_mate_within`), and the line lies between the bounds.
        for nodes in [125_000, 130_000, 140_000, 400_000] {
            let r = super::Solver::<crate::rules::Position>::new(SolverOptions {
                nodes: Some(nodes),
                memory_mib: 64,
                ..SolverOptions::default()
            })
            .solve(&pos);
            let (low, within) = (r.no_mate_within.unwrap(), r.mate_within.unwrap());
            let plies = r.line.len();
            assert!(
                usize::from(low) < plies && plies <= usize::from(within),
                "{nodes} nodes: {plies} plies, bounds {low}..{within}"
            );
            assert!(pos.check_mate_line(&r.line).is_ok(), "{nodes} nodes");
        }
    }
}
