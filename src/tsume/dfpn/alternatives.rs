//! The 余詰 search (`specs/tsume.md`, `--alt-nodes`): the root's other checks, each
//! searched with `alt_nodes` nodes for a mate within the line's budget.

use super::*;

impl<P: MatePosition> Solver<P> {
    /// Other first moves that mate within `budget` more plies (余詰), each searched with `alt_nodes` nodes.
    pub(super) fn alternatives(
        &mut self,
        root: &mut P,
        first: P::Move,
        budget: u16,
    ) -> Vec<P::Move> {
        let mut moves = Vec::new();
        root.checks(&mut moves);
        let mut out = Vec::new();
        for m in moves {
            if self.stopped() {
                // The first moves searched so far are the answer's.
                break;
            }
            if m == first {
                continue;
            }
            self.reset_limits_for(self.opts.alt_nodes);
            self.path.clear();
            self.path.insert(root.position_key(), root.board_key(), 1);
            self.path_hash = mix(root.position_key());
            self.play(root, m);
            let r = self.mid(root, ProofNumbers::NO_THRESHOLD, 2, budget, false);
            root.undo();
            if r.pns.is_proven() {
                out.push(m);
            }
        }
        out
    }
}
