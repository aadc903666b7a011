//! 無駄合 (futile interpositions) under a ply budget: a reply interposing on a single
//! distant checker's line is no reply when some recapture by the checker leaves, with
//! the captured piece handed back, a mate within the same budget (definition 1 of
//! `specs/tsume.md`). The test's own proof bound is the least budget it holds for.

use super::hands::hand_max;
use super::*;

impl<P: MatePosition> Solver<P> {
    /// Whether the reply `m` at the AND node `pos` (path depth `depth`, ply budget `budget`)
    /// is a 無駄合: some recapture by the checker leaves a position that is mate within
    /// the same budget without the captured piece. `Ok(proof pieces)` if so, else
    /// `Err(path dependency)` of the failed tests.
    pub(super) fn futile(
        &mut self,
        pos: &P,
        m: P::Move,
        depth: u16,
        budget: u16,
    ) -> Result<(Hand, u16), u16> {
        let mut dep = NO_DEP;
        let tests = pos.futility_tests(m);
        self.plays += tests.len() as u64;
        for mut q in tests {
            let h = q.hand_of(self.attacker);
            if let Some(f) = self.table.lookup(q.board_key(), h, budget) {
                if f.pns.is_proven() {
                    return Ok((f.hand, f.bound));
                }
                if f.pns.is_disproven() {
                    continue;
                }
            }
            if self.path.contains_key(&q.position_key()) {
                dep = dep.min(self.path[&q.position_key()]);
                continue;
            }
            let out = self.mid(&mut q, ProofNumbers::NO_THRESHOLD, depth + 2, budget, false);
            if out.pns.is_proven() {
                return Ok((out.ph, out.bound));
            }
            dep = dep.min(out.dep);
            if self.aborted {
                break;
            }
        }
        Err(dep)
    }

    /// Whether the table already shows the reply `m` at the AND node `pos` a 無駄合 within
    /// `budget` (a recapture's test position proven there), without a search.
    pub(super) fn known_futile(&mut self, pos: &P, m: P::Move, budget: u16) -> bool {
        let tests = pos.futility_tests(m);
        self.plays += tests.len() as u64;
        tests.iter().any(|q| {
            self.table
                .lookup(q.board_key(), q.hand_of(self.attacker), budget)
                .is_some_and(|f| f.pns.is_proven())
        })
    }

    /// Removes the 無駄合 among the replies `moves` at the AND node `pos` (already on the
    /// path); returns the proof pieces their refutations need, the shallowest path
    /// dependency of the tests that failed, and the least budget from which every removed
    /// reply is futile (the largest bound of their refutations).
    pub(super) fn drop_futile(
        &mut self,
        pos: &P,
        moves: &mut Vec<P::Move>,
        depth: u16,
        budget: u16,
    ) -> (Hand, u16, u16) {
        let (mut need, mut dep, mut bound) = (Hand::EMPTY, NO_DEP, 0u16);
        let mut kept = Vec::with_capacity(moves.len());
        for &m in moves.iter() {
            match self.futile(pos, m, depth, budget) {
                Ok((ph, b)) => {
                    need = hand_max(need, ph);
                    bound = bound.max(b);
                }
                Err(d) => {
                    dep = dep.min(d);
                    kept.push(m);
                }
            }
        }
        *moves = kept;
        (need, dep, bound)
    }
}
