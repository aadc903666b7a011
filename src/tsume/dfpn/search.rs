//! One node of the df-pn search: its moves (checks, or replies less the 無駄合 tested so
//! far) and the multiple iterative deepening with TCA (`mid`, Nagai 2002; Kishimoto 2010,
//! seed `002_…`): expand the children (`children`), pick the best by the node's numbers
//! (`numbers`), search it under the child's thresholds, store the result.

use super::children::{sort_replies, Child};
use super::hands::*;
use super::numbers::{and_numbers, or_numbers, Summary};
use super::*;
use crate::tsume::table::Count;

/// A node's result as its parent (or the root loop) sees it.
#[derive(Debug, Clone, Copy)]
pub(super) struct NodeOut {
    /// Proven, disproven, or the numbers it stopped at (its threshold was reached).
    pub(super) pns: ProofNumbers,
    /// Solved: the ply bound (proven: mate within it; disproven: no mate within it).
    pub(super) bound: u16,
    /// Disproven: the shallowest path ply its disproof depends on (`NO_DEP`: none).
    pub(super) dep: u16,
    /// Proven: the proof pieces (証明駒); disproven: the disproof pieces (反証駒).
    pub(super) ph: Hand,
}

/// What a node's 無駄合 tests found (`Solver::moves_of`).
pub(super) struct Moves {
    /// Proof pieces the futile replies' refutations need.
    futile_need: Hand,
    /// The shallowest path dependency of a futility test that failed.
    futile_dep: u16,
    /// The least budget from which every removed reply is futile.
    futile_bound: u16,
    /// Interpositions are tested lazily (`LAZY_FUTILITY`).
    lazy: bool,
}

/// The vectors of the expansions in progress, kept for the next ones: `mid` takes its
/// move and child lists from here and gives them back (no allocation per node).
pub(super) struct Pool<M> {
    pub(super) moves: Vec<Vec<M>>,
    children: Vec<Vec<Child<M>>>,
    /// The children's (board key, position key, attacker hand).
    keys: Vec<Vec<(u64, u64, Hand)>>,
}

impl<M> Default for Pool<M> {
    fn default() -> Self {
        Pool {
            moves: Vec::new(),
            children: Vec::new(),
            keys: Vec::new(),
        }
    }
}

/// Under a ply budget, a node with at most this many plies left is solved at once (no
/// thresholds): its subtree is small, and returning unsolved to the parent re-expands it
/// later (in a failing minimality search 80 % of the nodes returned unsolved). On 16
/// minimality proofs of 図巧/無双 (0.3–4 M nodes each): 17.46 M → 14.49 M nodes with 3;
/// 2: 15.71 M, 4: 14.54 M, 5: 16.45 M.
const SOLVE_NEAR_HORIZON: u16 = 3;

/// Prefetch the table clusters of a node's children before looking them up.
const PREFETCH_CHILDREN: bool = true;

/// The node `mid` expands: what its steps share.
#[derive(Clone, Copy)]
struct Node {
    /// Board key.
    key: u64,
    /// The attacker's hand.
    hand: Hand,
    /// The attacker is to move.
    or: bool,
    /// Ply on the path (1 at the root).
    depth: u16,
    /// Plies left (`UNBOUNDED`: none).
    budget: u16,
}

/// The threshold of the best child `b` of a node with value `s` under `th`: the node
/// reaches its threshold when the child reaches this one (sum numbers; with weak numbers
/// the others count one each), capped by the 1+ε sibling bound.
#[inline]
fn child_threshold<M>(or: bool, th: ProofNumbers, s: &Summary, b: &Child<M>) -> ProofNumbers {
    if or {
        let others = if WEAK {
            s.open - 1
        } else {
            s.pns.dn - b.pns.dn
        };
        ProofNumbers {
            pn: th.pn.min(sibling_bound(s.second)),
            dn: th.dn.saturating_sub(others),
        }
    } else {
        let others = if WEAK {
            s.open - 1
        } else {
            s.pns.pn - b.pns.pn
        };
        ProofNumbers {
            pn: th.pn.saturating_sub(others),
            dn: th.dn.min(sibling_bound(s.second)),
        }
    }
}

impl<P: MatePosition> Solver<P> {
    /// The node's moves (checks, or replies without the 無駄合 tested so far), or its
    /// value when it is decided without children (no check, mated, budget exhausted).
    fn moves_of(
        &mut self,
        pos: &mut P,
        or: bool,
        depth: u16,
        budget: u16,
        moves: &mut Vec<P::Move>,
    ) -> Result<Moves, NodeOut> {
        let key = pos.board_key();
        let hand = pos.hand_of(self.attacker);
        // Proof pieces needed by the futile replies' refutations, and the shallowest path
        // dependency of a futility test that failed (its reply then stays a reply).
        let mut futile_need = Hand::EMPTY;
        let mut futile_dep = NO_DEP;
        // The least budget at which every removed 無駄合 is futile: a proof that removed
        // replies holds only from that budget on (futility depends on the budget).
        let mut futile_bound = 0u16;
        let mut lazy = false;
        if or {
            if budget == 0 {
                self.table
                    .store(key, hand, ProofNumbers::DISPROVEN, 0, depth, 1);
                return Err(NodeOut {
                    pns: ProofNumbers::DISPROVEN,
                    bound: 0,
                    dep: NO_DEP,
                    ph: hand,
                });
            }
            pos.checks(moves);
            if moves.is_empty() {
                let dh = if DISPROOF_PIECES {
                    leaf_disproof_hand(hand, pos.hand_of(!self.attacker))
                } else {
                    hand
                };
                self.table
                    .store(key, dh, ProofNumbers::DISPROVEN, UNBOUNDED, depth, 1);
                return Err(NodeOut {
                    pns: ProofNumbers::DISPROVEN,
                    bound: UNBOUNDED,
                    dep: NO_DEP,
                    ph: dh,
                });
            }
        } else {
            pos.evasions(moves);
            let legal_replies = moves.len();
            if budget != UNBOUNDED && !self.plain && !moves.is_empty() && pos.interposable() {
                // Ply budgets count no 無駄合: futile interpositions are no replies (specs/tsume.md).
                let real_reply = moves.iter().any(|&m| !pos.interposes(m));
                if LAZY_FUTILITY && budget > 0 {
                    lazy = true;
                } else if !(budget == 0 && real_reply) {
                    let pk = pos.position_key();
                    self.path.insert(pk, pos.board_key(), depth);
                    self.path_hash ^= mix(pk);
                    (futile_need, futile_dep, futile_bound) =
                        self.drop_futile(pos, moves, depth, budget);
                    self.path.remove(&pk);
                    self.path_hash ^= mix(pk);
                    if self.aborted {
                        return Err(NodeOut {
                            pns: ProofNumbers::LEAF,
                            bound: 0,
                            dep: NO_DEP,
                            ph: hand,
                        });
                    }
                }
            }
            if moves.is_empty() {
                let ph = and_proof_hand(
                    futile_need,
                    hand,
                    pos.hand_of(!self.attacker),
                    pos.interposable(),
                );
                let amount = (legal_replies as u64).max(1);
                self.table
                    .store(key, ph, ProofNumbers::PROVEN, futile_bound, depth, amount);
                return Err(NodeOut {
                    pns: ProofNumbers::PROVEN,
                    bound: futile_bound,
                    dep: NO_DEP,
                    ph,
                });
            }
            if budget == 0 {
                // A reply that is no interposition refutes whatever the hands (disproof
                // pieces: every piece); an interposition's futility depends on them.
                let dh = if DISPROOF_PIECES && moves.iter().any(|&m| !pos.interposes(m)) {
                    any_hand(hand, pos.hand_of(!self.attacker))
                } else {
                    hand
                };
                if futile_dep >= depth {
                    self.table
                        .store(key, dh, ProofNumbers::DISPROVEN, 0, depth, 1);
                }
                return Err(NodeOut {
                    pns: ProofNumbers::DISPROVEN,
                    bound: 0,
                    dep: if futile_dep >= depth {
                        NO_DEP
                    } else {
                        futile_dep
                    },
                    ph: dh,
                });
            }
            // Board moves first, then drops grouped by square (lazy interposition chains).
            sort_replies(pos, moves);
        }
        Ok(Moves {
            futile_need,
            futile_dep,
            futile_bound,
            lazy,
        })
    }

    /// Multiple iterative deepening at one node (`depth` is 1 at the root).
    pub(super) fn mid(
        &mut self,
        pos: &mut P,
        th: ProofNumbers,
        depth: u16,
        budget: u16,
        inc: bool,
    ) -> NodeOut {
        self.tick();
        self.max_depth = self.max_depth.max(depth);
        if depth >= MAX_DEPTH {
            return NodeOut {
                pns: ProofNumbers::DISPROVEN,
                bound: 0,
                dep: 0,
                ph: Hand::EMPTY,
            };
        }
        let node = Node {
            key: pos.board_key(),
            hand: pos.hand_of(self.attacker),
            or: pos.side_to_move() == self.attacker,
            depth,
            budget,
        };
        // Vectors reused from the pool (one per depth rather than one per node).
        let mut moves = self.pool.moves.pop().unwrap_or_default();
        moves.clear();
        let mut found = match self.moves_of(pos, node.or, depth, budget, &mut moves) {
            Ok(m) => m,
            Err(out) => {
                self.pool.moves.push(moves);
                return out;
            }
        };
        let my_pk = pos.position_key();
        self.path.insert(my_pk, node.key, depth);
        self.path_hash ^= mix(my_pk);
        let start_nodes = self.nodes;
        let mut children = self.pool.children.pop().unwrap_or_default();
        children.clear();
        children.reserve(moves.len());
        let mut keys = self.pool.keys.pop().unwrap_or_default();
        keys.clear();
        let result = match self.expand(pos, &node, &moves, &mut keys, &mut children, found.lazy) {
            Some(early) => early,
            None => self.deepen(pos, &node, &mut children, th, inc, &mut found),
        };
        self.path.remove(&my_pk);
        self.path_hash ^= mix(my_pk);
        self.pool.moves.push(moves);
        self.pool.children.push(children);
        self.pool.keys.push(keys);
        self.conclude(&node, my_pk, result, &found, start_nodes)
    }

    /// The children of `node` with their first numbers, or the node's value when one of
    /// them decides it at once (a proven check, a disproven reply that is no pending
    /// interposition).
    #[inline(always)]
    fn expand(
        &mut self,
        pos: &mut P,
        node: &Node,
        moves: &[P::Move],
        keys: &mut Vec<(u64, u64, Hand)>,
        children: &mut Vec<Child<P::Move>>,
        lazy: bool,
    ) -> Option<NodeOut> {
        let child_budget = budget_minus(node.budget, 1);
        // The children's keys, computed once (without playing them).
        keys.extend(moves.iter().map(|&m| pos.keys_after(m, self.attacker)));
        if PREFETCH_CHILDREN {
            let what = if node.or {
                Count::Replies
            } else {
                Count::Checks
            };
            for &(ckey, cpk, _) in keys.iter() {
                self.table.prefetch(ckey);
                self.table.prefetch_count(cpk, what);
            }
        }
        for (&m, &k) in moves.iter().zip(keys.iter()) {
            let c = self.child(pos, m, k, node.or, node.depth, child_budget, lazy);
            if node.or && c.pns.is_proven() {
                return Some(NodeOut {
                    pns: ProofNumbers::PROVEN,
                    bound: bound_plus(c.bound),
                    dep: NO_DEP,
                    ph: or_proof_hand(c.ph, c.delta),
                });
            }
            if !node.or && c.pns.is_disproven() && !c.pending {
                let ph = self.and_disproof(pos, &c, node.hand, node.budget);
                return Some(NodeOut {
                    pns: ProofNumbers::DISPROVEN,
                    bound: bound_plus(c.bound),
                    dep: c.dep,
                    ph,
                });
            }
            children.push(c);
        }
        None
    }

    /// The MID loop: search the best child under its thresholds until the node is solved
    /// or reaches its own threshold `th` (with TCA's increase when a child is on a cycle,
    /// seed `002_…`); interpositions the numbers ask about are tested for 無駄合 first.
    #[inline(always)]
    fn deepen(
        &mut self,
        pos: &mut P,
        node: &Node,
        children: &mut [Child<P::Move>],
        mut th: ProofNumbers,
        mut inc: bool,
        found: &mut Moves,
    ) -> NodeOut {
        let child_budget = budget_minus(node.budget, 1);
        let mut blocked = Vec::new();
        if node.budget <= SOLVE_NEAR_HORIZON {
            // A few plies from the budget's end: solve the small subtree at once.
            th = ProofNumbers::NO_THRESHOLD;
        }
        let mut first = true;
        // Children keep the values of their own last search: re-reading every sibling
        // from the table after each step (to see transpositions) cost ~10 % of the
        // time for ~1 % fewer nodes on 図巧/無双 1–10 and 2 % more on 21–40.
        loop {
            let s = if node.or {
                or_numbers(children)
            } else {
                and_numbers(children, &mut blocked)
            };
            if let Some(i) = s.resolve {
                // Every other reply is proven (or this one would refute): is it a 無駄合?
                if !self.test_futility(pos, node, &mut children[i], found) {
                    return NodeOut {
                        pns: s.pns,
                        bound: 0,
                        dep: NO_DEP,
                        ph: node.hand,
                    };
                }
                continue;
            }
            if s.pns.is_solved() {
                return NodeOut {
                    pns: s.pns,
                    bound: s.bound,
                    dep: s.dep,
                    ph: self.solved_hand(pos, node, children, &s, found.futile_need),
                };
            }
            if !inc
                && children
                    .iter()
                    .any(|c| c.seen && !c.pns.is_solved() && c.ply <= node.depth)
            {
                inc = true;
            }
            if first && inc {
                th.pn = th.pn.max(s.pns.pn.saturating_add(1));
                th.dn = th.dn.max(s.pns.dn.saturating_add(1));
            }
            first = false;
            if s.pns.pn >= th.pn || s.pns.dn >= th.dn || self.aborted {
                return NodeOut {
                    pns: s.pns,
                    bound: 0,
                    dep: NO_DEP,
                    ph: node.hand,
                };
            }
            let bi = s.best.expect("an open child exists");
            let b = children[bi];
            let cth = child_threshold(node.or, th, &s, &b);
            self.play(pos, b.mv);
            // TCA: a leaf (a child never searched before) starts with the flag off (seed 002).
            let out = self.mid(pos, cth, node.depth + 1, child_budget, inc && b.seen);
            pos.undo();
            let c = &mut children[bi];
            c.pns = out.pns;
            c.bound = out.bound;
            c.seen = true;
            c.ph = out.ph;
            if out.pns.is_solved() {
                c.fixed = true;
                c.dep = out.dep;
            }
        }
    }

    /// Tests the pending interposition `c` for 無駄合 within the node's budget: futile,
    /// it is no reply (proven from the bound of its test on); not futile, it refutes up to
    /// the budget only. `false` when a limit stopped the test.
    fn test_futility(
        &mut self,
        pos: &mut P,
        node: &Node,
        c: &mut Child<P::Move>,
        found: &mut Moves,
    ) -> bool {
        let r = self.futile(pos, c.mv, node.depth, node.budget);
        if self.aborted {
            return false;
        }
        c.pending = false;
        match r {
            Ok((ph, b)) => {
                c.futile = true;
                c.pns = ProofNumbers::PROVEN;
                c.bound = b;
                c.ph = ph;
                c.fixed = true;
            }
            Err(d) => {
                found.futile_dep = found.futile_dep.min(d);
                c.cap = node.budget;
            }
        }
        true
    }

    /// The proof pieces (proven) or disproof pieces (disproven) of a solved node with
    /// value `s` (`hands`): from the deciding child, or from all of them (OR disproof,
    /// AND proof; the latter with what the removed 無駄合 needed).
    fn solved_hand(
        &self,
        pos: &P,
        node: &Node,
        children: &[Child<P::Move>],
        s: &Summary,
        futile_need: Hand,
    ) -> Hand {
        let hand = node.hand;
        if !s.pns.is_proven() {
            if !DISPROOF_PIECES {
                hand
            } else if node.or {
                let min = children
                    .iter()
                    .map(|c| or_disproof_child(c.ph, c.delta))
                    .reduce(hand_min)
                    .unwrap_or(hand);
                or_disproof_hand(min, hand)
            } else {
                let c = &children[s.best.expect("a disproven child")];
                self.and_disproof(pos, c, hand, node.budget)
            }
        } else if node.or {
            let c = &children[s.best.expect("a proven child")];
            or_proof_hand(c.ph, c.delta)
        } else {
            let need = children.iter().fold(futile_need, |h, c| hand_max(h, c.ph));
            and_proof_hand(need, hand, pos.hand_of(!self.attacker), pos.interposable())
        }
    }

    /// Stores the node's result (a path-dependent disproof only for this path set) and
    /// returns it with the 無駄合 tests' dependency and bound applied.
    #[inline(always)]
    fn conclude(
        &mut self,
        node: &Node,
        my_pk: u64,
        mut result: NodeOut,
        found: &Moves,
        start_nodes: u64,
    ) -> NodeOut {
        let depth = node.depth;
        if result.pns.is_disproven() {
            result.dep = result.dep.min(found.futile_dep);
        }
        if result.pns.is_proven() {
            result.bound = result.bound.max(found.futile_bound);
        }
        let amount = self.nodes - start_nodes + 1;
        if result.pns.is_disproven() {
            if result.dep >= depth {
                self.table.store(
                    node.key,
                    result.ph,
                    ProofNumbers::DISPROVEN,
                    result.bound,
                    depth,
                    amount,
                );
                return NodeOut {
                    dep: NO_DEP,
                    ..result
                };
            }
            // Path-dependent (GHI): stored only for this exact path set.
            if self.rep_table.len() >= REP_TABLE_MAX {
                self.rep_table.clear();
            }
            self.rep_table
                .insert((my_pk, self.path_hash), (result.bound, result.dep));
            return result;
        }
        let stored = if result.pns.is_proven() {
            result.ph
        } else {
            node.hand
        };
        self.table
            .store(node.key, stored, result.pns, result.bound, depth, amount);
        result
    }

    /// Disproof pieces of an AND node (attacker hand `hand`) refuted by the reply `c`.
    /// Under a ply budget an interposition refutes only while it is no 無駄合, and more
    /// attacker pieces can make it one: such a refutation keeps the searched hand. Every
    /// other disproof follows the unbudgeted algebra (fewer checks, the same refutations).
    fn and_disproof(&self, pos: &P, c: &Child<P::Move>, hand: Hand, budget: u16) -> Hand {
        if !DISPROOF_PIECES || (budget != UNBOUNDED && !self.plain && pos.interposes(c.mv)) {
            hand
        } else {
            and_disproof_hand(c.ph, hand, c.delta.0)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tsume::{load_problem, problems::read_problems, DefenderHand, SolverOptions};
    /// The count memo is a fast path only: with it off (every count recomputed) the
    /// searches expand the same nodes and answer the same lines, in the first-proof and
    /// the shortest mode, on classics cut at a node limit.
    #[test]
    fn count_memo_changes_no_node() {
        let text = include_str!("../../../specs/tsume/classics.sfen");
        let problems = read_problems(text);
        let mut compared = 0;
        for p in problems.iter().step_by(16).take(12) {
            let pos = load_problem(&p.sfen, DefenderHand::Remaining).unwrap();
            for shortest in [false, true] {
                let opts = SolverOptions {
                    nodes: Some(40_000),
                    memory_mib: 16,
                    shortest,
                    ..SolverOptions::default()
                };
                let run = |memo: bool| {
                    let mut s = Solver::<crate::rules::Position>::new(opts.clone());
                    s.table.set_count_memo(memo);
                    let r = s.solve(&pos);
                    (
                        r.outcome,
                        r.line,
                        r.shortest,
                        r.stats.nodes,
                        r.stats.max_depth,
                    )
                };
                let (fast, slow) = (run(true), run(false));
                assert_eq!(fast, slow, "{} shortest={shortest}", p.id);
                compared += 1;
            }
        }
        assert_eq!(compared, 24);
    }

    /// The refutations near a budget's end (`horizon`) are a fast path only: with them
    /// off (`mid` expands every attacker node with one ply left) the shortest mode gives
    /// the same answers (outcome, proven flag, bounds, line length) on classics, whole and
    /// within 9 and 13 plies, wherever neither run reached its node limit. Fast tier: every
    /// third of the first 40 classics.
    #[test]
    fn horizon_refutations_change_no_answer() {
        horizon_refutations_agree(3, 20, 15);
    }

    /// Deep tier: all of the first 40 classics.
    #[test]
    #[ignore = "deep tier: 240 searches of up to 100 k nodes, about 15 s; run by .ci/run with --ignored"]
    fn horizon_refutations_change_no_answer_on_40_classics() {
        horizon_refutations_agree(1, 60, 50);
    }

    /// Compares both ways on every `step`-th of the first 40 classics; at least
    /// `min_compared` answers must be compared and `min_bounded` of them carry a bound.
    fn horizon_refutations_agree(step: usize, min_compared: usize, min_bounded: usize) {
        let text = include_str!("../../../specs/tsume/classics.sfen");
        let problems = read_problems(text);
        let limit = 100_000;
        let (mut compared, mut bounded) = (0, 0);
        for p in problems.iter().take(40).step_by(step) {
            let pos = load_problem(&p.sfen, DefenderHand::Remaining).unwrap();
            for max_plies in [None, Some(9), Some(13)] {
                let run = |near: bool| {
                    let mut s = Solver::<crate::rules::Position>::new(SolverOptions {
                        nodes: Some(limit),
                        memory_mib: 32,
                        shortest: true,
                        max_plies,
                        ..SolverOptions::default()
                    });
                    s.refute_near_horizon = near;
                    let r = s.solve(&pos);
                    let answer = (r.outcome, r.shortest, r.mate_within, r.no_mate_within);
                    (answer, r.line.len(), r.stats.nodes < limit)
                };
                let (fast, slow) = (run(true), run(false));
                if fast.2 && slow.2 {
                    assert_eq!(fast, slow, "{} {max_plies:?}", p.id);
                    compared += 1;
                    bounded += usize::from(fast.0 .3.is_some());
                }
            }
        }
        eprintln!("{compared} compared, {bounded} with a no-mate bound");
        assert!(
            compared >= min_compared && bounded >= min_bounded,
            "{compared} {bounded}"
        );
    }
}
