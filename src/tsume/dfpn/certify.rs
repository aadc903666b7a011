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

use super::{Outcome, Solver};
use crate::rules::Hand;
use crate::tsume::{MatePosition, ProofNumbers};

impl<P: MatePosition> Solver<P> {
    /// Searches `root` (the attacker to move) within `budget` plies ([`UNBOUNDED`](crate::tsume::table::UNBOUNDED): no
    /// limit) with at most `nodes` nodes, every position `(board key, attacker's hand,
    /// budget b)` of `assumed` taken as no mate within b plies (stored in the table as a
    /// disproof under budget b holding wherever it is reached). `NoMate` means: no mate
    /// from `root` within `budget`, provided the assumed positions are no mate within
    /// their budgets (the caller's certificate has to show that); `Mate` is a mate that
    /// uses none of them. Budgets are plain (every reply counts) when the solver counts
    /// futile interpositions, as the bounded no-mate certificate needs. With
    /// `keep`, the table of the previous call stays (its proofs hold anywhere, its
    /// disproofs given that call's assumptions: the caller passes only new ones and
    /// keeps the old ones true), else it starts empty. The table stays readable by
    /// [`Solver::probe`] until the next solve.
    pub fn solve_assuming(
        &mut self,
        root: &P,
        assumed: &[(u64, Hand, u16)],
        nodes: u64,
        keep: bool,
        budget: u16,
    ) -> (Outcome, u64) {
        if !keep {
            self.table.clear();
        }
        self.rep_table.clear();
        self.attacker = root.side_to_move();
        self.nodes = 0;
        self.plays = 0;
        self.max_depth = 0;
        self.node_limit = Some(nodes);
        self.deadline = None;
        self.aborted = false;
        self.plain = self.opts.count_futile;
        for &(key, hand, b) in assumed {
            // The largest amount: never the victim of a replacement.
            self.table
                .store(key, hand, ProofNumbers::DISPROVEN, b, 0, u64::MAX);
        }
        let mut pos = root.clone();
        let out = self.search_root(&mut pos, budget);
        let outcome = if out.pns.is_proven() {
            Outcome::Mate
        } else if out.pns.is_disproven() && out.dep != 0 && !self.aborted {
            Outcome::NoMate
        } else {
            Outcome::Unknown
        };
        (outcome, self.nodes)
    }

    /// [`Solver::probe`] under a ply budget: a proof within `budget` plies (the shortest
    /// such the table holds) or a disproof holding under `budget` (every reply counted
    /// when the solve counted futile interpositions), else an unsolved value or nothing.
    pub fn probe_within(&self, pos: &P, budget: u16) -> Option<crate::tsume::table::Found> {
        self.table
            .lookup(pos.board_key(), pos.hand_of(self.attacker), budget)
    }
}

impl<P: MatePosition> Solver<P> {
    /// The options this solver was made with (the certificate extractor needs to know
    /// whether its budgets counted every reply: `count_futile`).
    pub fn options(&self) -> &crate::tsume::SolverOptions {
        &self.opts
    }
}
