//! Fallback solves of the extractor (`specs/certificate.md`): a node the root solver's
//! table cannot settle is solved afresh with a node budget (a small solver whose table
//! also serves as hints, then a large one, then a deep one with what is left), and a
//! nomate defender's reply is searched with the graph so far taken as disproven
//! ([`Solver::solve_assuming`]). All of them draw on the budgets of
//! [`ExtractLimits`](super::super::ExtractLimits).

use super::super::stuck;
use super::super::ExtractError;
use super::Extractor;
use crate::notation::sfen::write_sfen;
use crate::rules::{Hand, Position};
use crate::tsume::table::UNBOUNDED;
use crate::tsume::{Control, Outcome, Solver, SolverOptions};

/// Node budget of a fallback solve on the small (1 MiB) table.
pub(super) const SMALL_SOLVE_NODES: u64 = 20_000;

/// Table size (MiB) of the last fallback tier: a solve with what is left of the
/// fallback node total, for a node the first two tiers cannot settle. The root solver's
/// table is bounded, so a long proof may have lost a subtree that a small solve cannot
/// rebuild: in 乱 451's plain certificate, a node 121 plies deep whose proof took a
/// fresh first-proof solve 43.8 M nodes on 256 MiB (82.9 M on 64 MiB).
const DEEP_SOLVE_MIB: usize = 256;

/// The assuming solver starts on a small (1 MiB) table: most nomate extractions search
/// a few hundred nodes, and setting up a large table
/// ([`ExtractLimits::fallback_mib`](super::super::ExtractLimits::fallback_mib): its
/// move-count memo cleared page by page, 0.5 ms) costs more than all of them. It moves
/// to a large table when its table is cleared anyway (a rollback took assumptions back)
/// after this many nodes on the small one...
const ASSUMING_SMALL_NODES: u64 = 1024;

/// ... or, without a rollback, after this many (a search from an empty table, the
/// assumptions passed again). The two tables search alike only until the small one
/// holds 16 384 entries (where the large one grows past it), so a graph may differ
/// from one found on the large table from the start; it is checked as any other.
const ASSUMING_SMALL_MAX_NODES: u64 = 8192;

impl Extractor<'_> {
    /// Solves `pos` (attacker to move) afresh on the fallback solver: a plain solve
    /// replaces its table, a budgeted one keeps it. Every table's solved entries hold
    /// wherever they are reached (disproofs that lean on a path are never stored), so
    /// they stay valid hints.
    /// Under a budget `b` (bounded extraction) the solve proves mate within `b` plies,
    /// every reply counted (or none of the futile interpositions, `uncounted`).
    pub(super) fn fresh(&mut self, pos: &Position, b: u16) -> Result<Outcome, ExtractError> {
        if self.speculative > 0 {
            return Err(stuck(pos, "not in the table (general position)"));
        }
        self.spend(pos)?;
        // Most fallback solves are a few nodes: a 1 MiB table first (clearing the large
        // one each time would dominate), the large one only when that runs out, the deep
        // one last.
        for tier in 0..3 {
            let Some((mib, nodes)) = self.tier(tier) else {
                break;
            };
            if !self.tier_solver(tier, mib, nodes)? {
                break;
            }
            // A plain solve starts from an empty table; a budgeted solve's entries hold
            // for any root, so its table is kept and later solves start from them.
            let keep = b != UNBOUNDED;
            let (outcome, nodes) = self.fallback[tier]
                .as_mut()
                .map_or((Outcome::Unknown, 0), |s| {
                    s.solve_assuming(pos, &[], nodes, keep, b)
                });
            self.fresh_nodes += nodes;
            if outcome != Outcome::Unknown {
                return Ok(outcome);
            }
            if self.stop_requested() {
                // Not a node the tiers cannot settle: no larger tier is started.
                return Err(ExtractError::Stopped);
            }
        }
        Ok(Outcome::Unknown)
    }

    /// A budgeted search of `pos` within `b` plies on the deep tier alone (`Unknown`
    /// when that tier has no nodes left to add to the large one's): for a nomate
    /// defender's reply that the rounds of searches could not decide.
    pub(super) fn deep(&mut self, pos: &Position, b: u16) -> Result<Outcome, ExtractError> {
        if self.speculative > 0 {
            return Err(stuck(pos, "not in the table (general position)"));
        }
        let cap = self.limits.deep_nodes.max(self.limits.deep_reply_nodes);
        let Some((mib, nodes)) = self.deep_tier(cap) else {
            return Ok(Outcome::Unknown);
        };
        self.spend(pos)?;
        if !self.tier_solver(2, mib, nodes)? {
            return Ok(Outcome::Unknown);
        }
        let (outcome, used) = self.fallback[2]
            .as_mut()
            .map_or((Outcome::Unknown, 0), |s| {
                s.solve_assuming(pos, &[], nodes, b != UNBOUNDED, b)
            });
        self.fresh_nodes += used;
        if outcome == Outcome::Unknown && self.stop_requested() {
            return Err(ExtractError::Stopped);
        }
        Ok(outcome)
    }

    /// Makes fallback tier `tier`'s solver (`mib` MiB, `nodes` nodes) if it is not there
    /// yet; `false` when the deep tier (2) cannot get its memory: it is a last resort,
    /// so its node is left unsettled (a clean failure), not the extraction.
    fn tier_solver(&mut self, tier: usize, mib: usize, nodes: u64) -> Result<bool, ExtractError> {
        if self.fallback[tier].is_some() {
            return Ok(true);
        }
        let opts = SolverOptions {
            nodes: Some(nodes),
            memory_mib: mib,
            shortest: false,
            count_futile: self.bounded && !self.uncounted,
            control: self.control().map(Control::child),
            ..SolverOptions::default()
        };
        match Solver::try_new(opts) {
            Ok(s) => self.fallback[tier] = Some(s),
            Err(_) if tier == 2 => return Ok(false),
            Err(e) => return Err(ExtractError::Memory(e.to_string())),
        }
        Ok(true)
    }

    /// The table (MiB) and node budget of fallback tier `tier`, taken when it comes up:
    /// the deep tier (2) gets up to `deep_nodes` of what is left of the total, and is
    /// skipped (`None`) when that is no more than the large tier had.
    fn tier(&self, tier: usize) -> Option<(usize, u64)> {
        let l = &self.limits;
        match tier {
            0 => Some((1, l.fallback_nodes.min(SMALL_SOLVE_NODES))),
            1 => Some((l.fallback_mib, l.fallback_nodes)),
            _ => self.deep_tier(l.deep_nodes),
        }
    }

    /// The deep tier's table (MiB) and node budget: up to `cap` of what is left of the
    /// total, `None` when that is no more than the large tier had.
    fn deep_tier(&self, cap: u64) -> Option<(usize, u64)> {
        let l = &self.limits;
        let left = l
            .fallback_total_nodes
            .saturating_sub(self.fresh_nodes)
            .min(cap);
        (left > l.fallback_nodes).then_some((DEEP_SOLVE_MIB.max(l.fallback_mib), left))
    }

    /// Counts one fallback solve, or fails when the solves' budget is spent.
    fn spend(&mut self, pos: &Position) -> Result<(), ExtractError> {
        if self.stop_requested() {
            return Err(ExtractError::Stopped);
        }
        let budget = |why: String| ExtractError::Budget {
            sfen: write_sfen(pos),
            why,
        };
        if self.fresh_solves >= self.limits.fallback_solves {
            return Err(budget(format!(
                "more than {} fallback solves",
                self.limits.fallback_solves
            )));
        }
        if self.fresh_nodes >= self.limits.fallback_total_nodes {
            return Err(budget(format!(
                "fallback solves used more than {} nodes",
                self.limits.fallback_total_nodes
            )));
        }
        self.fresh_solves += 1;
        Ok(())
    }

    /// Nomate: searches `pos` (attacker to move) with every node of the graph taken as
    /// disproven, within `nodes` nodes.
    pub(super) fn solve_assuming(
        &mut self,
        pos: &Position,
        nodes: u64,
        budget: u16,
    ) -> Result<Outcome, ExtractError> {
        if self.speculative > 0 {
            return Err(stuck(pos, "not in the table (general position)"));
        }
        self.spend(pos)?;
        let clearing = self.assumed.is_none();
        let outgrown = self.assuming_small.is_some_and(|n| {
            n >= ASSUMING_SMALL_MAX_NODES || (clearing && n >= ASSUMING_SMALL_NODES)
        });
        if self.assuming.is_none() || outgrown {
            let mib = if outgrown {
                self.assuming_small = None;
                // The large table starts empty: every assumption passed again.
                self.assumed = None;
                self.limits.fallback_mib
            } else {
                self.limits.fallback_mib.min(1)
            };
            let opts = SolverOptions {
                memory_mib: mib,
                shortest: false,
                count_futile: self.bounded && !self.uncounted,
                control: self.control().map(Control::child),
                ..SolverOptions::default()
            };
            let s = Solver::try_new(opts).map_err(|e| ExtractError::Memory(e.to_string()))?;
            self.assuming = Some(s);
        }
        let att = self.attacker;
        // Under a budget every disproof is finite (no repetition needs the graph), and
        // a large graph's assumed entries would fill the table: none are passed (and
        // the nodes taken back since the last search may leave `assumed` past the end).
        let from = self.assumed.unwrap_or(0).min(self.created.len());
        let assumed: Vec<(u64, Hand, u16)> = if self.bounded {
            Vec::new()
        } else {
            self.created[from..]
                .iter()
                .zip(&self.budgets[from..])
                .map(|((id, hands), &b)| (id.0 | id.1 as u64, hands[att.index()], b))
                .collect()
        };
        let keep = self.assumed.is_some();
        self.assumed = Some(self.created.len());
        let left = self.limits.fallback_total_nodes - self.fresh_nodes;
        let (outcome, used) = match self.assuming.as_mut() {
            Some(s) => s.solve_assuming(pos, &assumed, nodes.min(left), keep, budget),
            None => (Outcome::Unknown, 0),
        };
        self.fresh_nodes += used;
        if let Some(n) = self.assuming_small.as_mut() {
            *n = if keep { *n + used } else { used };
        }
        Ok(outcome)
    }
}

#[cfg(test)]
mod tests {
    use super::super::super::{Claim, ExtractLimits};
    use super::*;
    use crate::tsume::{load_problem, DefenderHand};

    fn position(sfen: &str) -> Position {
        load_problem(sfen, DefenderHand::Remaining).unwrap()
    }

    /// The deep tier settles a node the first two cannot (図巧3 takes 11 737 nodes in a
    /// first-proof solve; here those tiers get 1 000 each), only with `deep_nodes` set
    /// (`deep_reply_nodes` serves the no-mate reply round alone), and never spends more
    /// than is left of the fallback total.
    #[test]
    fn the_deep_tier_settles_what_the_small_ones_cannot() {
        let text = include_str!("../../../../specs/tsume/classics.sfen");
        let problems = crate::tsume::problems::read_problems(text);
        let p = problems.iter().find(|p| p.id == "zukou-003").unwrap();
        let root = position(&p.sfen);
        let solver = Solver::new(SolverOptions {
            memory_mib: 1,
            ..SolverOptions::default()
        });
        let limits = |deep_nodes: u64, deep_reply_nodes: u64, total: u64| ExtractLimits {
            fallback_nodes: 1_000,
            fallback_total_nodes: total,
            deep_nodes,
            deep_reply_nodes,
            ..ExtractLimits::default()
        };
        let run = |deep_nodes: u64, total: u64| {
            let limits = limits(deep_nodes, 0, total);
            let mut x = Extractor::new(&solver, &root, Claim::Mate, UNBOUNDED, false, limits);
            let outcome = x.fresh(&root, UNBOUNDED).unwrap();
            (outcome, x.fresh_nodes)
        };
        // `deep_reply_nodes` is the last reply round's (`Extractor::deep`) alone: a fresh
        // solve's deep tier keeps to `deep_nodes` (session 30).
        let only_reply = limits(0, 1_000_000, 10_000_000);
        let mut x = Extractor::new(&solver, &root, Claim::Mate, UNBOUNDED, false, only_reply);
        assert_eq!(x.fresh(&root, UNBOUNDED).unwrap(), Outcome::Unknown);
        assert_eq!(x.fresh_nodes, 2_000);
        assert_eq!(x.deep(&root, UNBOUNDED).unwrap(), Outcome::Mate);
        let (outcome, used) = run(0, 10_000_000);
        assert_eq!((outcome, used), (Outcome::Unknown, 2_000));
        let (outcome, used) = run(1_000_000, 10_000_000);
        assert_eq!(outcome, Outcome::Mate);
        assert!(used > 2_000 && used < 1_000_000, "{used}");
        // 5 000 in all: the deep tier gets the 3 000 left, too few.
        let (outcome, used) = run(1_000_000, 5_000);
        assert_eq!(outcome, Outcome::Unknown);
        assert!(used <= 5_000, "{used}");
    }
}
