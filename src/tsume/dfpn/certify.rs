//! A hook for certificate extraction ([`crate::tsume::certificate`]): a search that
//! takes given positions as already disproven.
//!
//! A no-mate certificate is a set of positions closed under the game (every check of
//! an attacker node, one reply of a defender node, cycles allowed: specs/certificate.md).
//! While the extractor grows that set, a defender node needs a reply whose position is
//! no mate *given the set so far*: reaching a node of the set is a success for the
//! defender, the way reaching a position of the path is one in the search itself
//! (連続王手の千日手). The solver's own disproofs that lean on its path are not stored
//! (specs/tsume.md), so a search from a single position knows nothing of the set;
//! this one starts with the set's positions stored as disproven.

use super::{Outcome, Solver, UNBOUNDED};
use crate::rules::Hand;
use crate::tsume::{MatePosition, ProofNumbers};

impl<P: MatePosition> Solver<P> {
    /// Searches `root` (the attacker to move) with at most `nodes` nodes, every
    /// position `(board key, attacker's hand)` of `assumed` taken as disproven (stored
    /// in the table as a disproof holding wherever it is reached). `NoMate` means:
    /// no mate from `root`, provided the assumed positions are no mate (the caller's
    /// certificate has to show that); `Mate` is a mate that uses none of them. With
    /// `keep`, the table of the previous call stays (its proofs hold anywhere, its
    /// disproofs given that call's assumptions: the caller passes only new ones and
    /// keeps the old ones true), else it starts empty. The table stays readable by
    /// [`Solver::probe`] until the next solve.
    pub fn solve_assuming(
        &mut self,
        root: &P,
        assumed: &[(u64, Hand)],
        nodes: u64,
        keep: bool,
    ) -> (Outcome, u64) {
        if !keep {
            self.table.clear();
        }
        self.rep_table.clear();
        self.attacker = root.side_to_move();
        self.nodes = 0;
        self.max_depth = 0;
        self.node_limit = Some(nodes);
        self.deadline = None;
        self.aborted = false;
        self.plain = self.opts.count_futile;
        for &(key, hand) in assumed {
            // The largest amount: never the victim of a replacement.
            self.table
                .store(key, hand, ProofNumbers::DISPROVEN, UNBOUNDED, 0, u64::MAX);
        }
        let mut pos = root.clone();
        let out = self.search_root(&mut pos, UNBOUNDED);
        let outcome = if out.pns.is_proven() {
            Outcome::Mate
        } else if out.pns.is_disproven() && out.dep != 0 && !self.aborted {
            Outcome::NoMate
        } else {
            Outcome::Unknown
        };
        (outcome, self.nodes)
    }
}
