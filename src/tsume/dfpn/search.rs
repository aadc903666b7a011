//! One node of the df-pn search: expansion (children with their first proof numbers:
//! table, 1-ply mate check, df-pn+ and check-count heuristics) and multiple iterative
//! deepening with TCA (`mid`); weak / sum proof numbers in [`Solver::compute`].

use super::hands::*;
use super::*;
use crate::rules::PieceKind;
use crate::tsume::table::Count;

#[derive(Debug, Clone, Copy)]
pub(super) struct Child<M> {
    pub(super) mv: M,
    pub(super) pns: ProofNumbers,
    pub(super) bound: u16,
    pub(super) ply: u16,
    pub(super) dep: u16,
    pub(super) fixed: bool,
    pub(super) seen: bool,
    pub(super) drop_sq: Option<u8>,
    /// An interposition on a square no defender guards: searched after the other replies.
    pub(super) later: bool,
    /// Under a ply budget: an interposition whose futility (無駄合) is not yet known. It is
    /// tested only when every other reply is proven (`LAZY_FUTILITY`); until then it is
    /// neither searched nor a refutation.
    pub(super) pending: bool,
    /// A 無駄合 (tested): no reply; `bound` is the budget from which it is futile.
    pub(super) futile: bool,
    /// An interposition found no 無駄合 within its node's budget: it refutes only up to
    /// that budget (with more plies it may be futile), so a disproof it gives is capped.
    pub(super) cap: u16,
    /// For a proven child: its proof pieces (the attacker hand its proof needs).
    pub(super) ph: Hand,
    /// For a check: the hand kinds it drops / captures.
    pub(super) delta: (Option<PieceKind>, Option<PieceKind>),
}

#[derive(Debug, Clone, Copy)]
pub(super) struct NodeOut {
    pub(super) pns: ProofNumbers,
    pub(super) bound: u16,
    pub(super) dep: u16,
    /// For a proof: the proof pieces (証明駒).
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
    moves: Vec<Vec<M>>,
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

/// A defender's replies in search order: board moves first (in generation order), then
/// the drops by square (nearest the king first under [`SERIAL_INTERPOSITIONS`]), a stable
/// sort. The generator lists drops last, so only they are sorted, each key computed once
/// (the whole-list `sort_by_key` was 2 % of a minimality proof's profile); the same order
/// as sorting the whole list (tested).
fn sort_replies<P: MatePosition>(pos: &P, moves: &mut [P::Move]) {
    let key = |m: P::Move| {
        P::drop_square(m).map_or(0, |s| {
            if SERIAL_INTERPOSITIONS {
                1 + pos.king_distance(s) as u32 * 128 + s as u32
            } else {
                s as u32 + 1
            }
        })
    };
    let first_drop = moves
        .iter()
        .position(|&m| P::drop_square(m).is_some())
        .unwrap_or(moves.len());
    let drops = &mut moves[first_drop..];
    if drops.len() > crate::rules::MAX_MOVES || drops.iter().any(|&m| P::drop_square(m).is_none()) {
        moves.sort_by_key(|&m| key(m));
        return;
    }
    if drops.len() < 2 {
        return;
    }
    let mut keyed = arrayvec::ArrayVec::<(u32, P::Move), { crate::rules::MAX_MOVES }>::new();
    keyed.extend(drops.iter().map(|&m| (key(m), m)));
    keyed.sort_by_key(|&(k, _)| k);
    for (slot, (_, m)) in drops.iter_mut().zip(keyed) {
        *slot = m;
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

impl<P: MatePosition> Solver<P> {
    /// The node's proof numbers from its children, plus (best index, second best value, bound, dep).
    /// At an AND node whose other replies are all proven, `resolve` gets the first
    /// interposition whose futility must be tested next.
    pub(super) fn compute(
        &self,
        or: bool,
        ch: &[Child<P::Move>],
        blocked: &mut Vec<u8>,
        resolve: &mut Option<usize>,
    ) -> (ProofNumbers, Option<usize>, u32, u16, u16, u32) {
        *resolve = None;
        if or {
            let mut min_pn = ProofNumbers::INF;
            let mut second = ProofNumbers::INF;
            let mut best = None;
            let mut max_dn = 0u32;
            let mut sum_dn = 0u32;
            let mut open = 0u32;
            let mut dis_bound = UNBOUNDED;
            let mut dep = NO_DEP;
            for (i, c) in ch.iter().enumerate() {
                if c.pns.is_proven() {
                    return (
                        ProofNumbers::PROVEN,
                        Some(i),
                        0,
                        bound_plus(c.bound),
                        NO_DEP,
                        0,
                    );
                }
                if c.pns.is_disproven() {
                    dis_bound = dis_bound.min(c.bound);
                    dep = dep.min(c.dep);
                    continue;
                }
                open += 1;
                max_dn = max_dn.max(c.pns.dn);
                sum_dn = sum_dn.saturating_add(c.pns.dn);
                if c.pns.pn < min_pn {
                    second = min_pn;
                    min_pn = c.pns.pn;
                    best = Some(i);
                } else if c.pns.pn < second {
                    second = c.pns.pn;
                }
            }
            if open == 0 {
                return (
                    ProofNumbers::DISPROVEN,
                    None,
                    0,
                    bound_plus(dis_bound),
                    dep,
                    0,
                );
            }
            let dn = if WEAK {
                max_dn.saturating_add(open - 1)
            } else {
                sum_dn
            }
            .min(CAP);
            (
                ProofNumbers { pn: min_pn, dn },
                best,
                second,
                0,
                NO_DEP,
                open,
            )
        } else {
            blocked.clear();
            let hold = UNGUARDED_DROPS_LAST
                && ch
                    .iter()
                    .any(|c| !c.later && !c.pending && !c.pns.is_solved());
            let mut min_dn = ProofNumbers::INF;
            let mut second = ProofNumbers::INF;
            let mut best = None;
            let mut max_pn = 0u32;
            let mut sum_pn = 0u32;
            let mut open = 0u32;
            let mut proof_bound = 0u16;
            let mut real = false;
            let mut futile_bound = 0u16;
            for (i, c) in ch.iter().enumerate() {
                if c.futile {
                    futile_bound = futile_bound.max(c.bound);
                    continue;
                }
                if c.pending && !c.pns.is_proven() && (!REFUTING_FUTILITY || c.pns.is_disproven()) {
                    if resolve.is_none() {
                        *resolve = Some(i);
                    }
                    continue;
                }
                if c.pns.is_disproven() {
                    return (
                        ProofNumbers::DISPROVEN,
                        Some(i),
                        0,
                        bound_plus(c.bound).min(c.cap),
                        c.dep,
                        0,
                    );
                }
                if c.pns.is_proven() {
                    proof_bound = proof_bound.max(c.bound);
                    real = true;
                    continue;
                }
                if hold && c.later {
                    continue;
                }
                if let Some(sq) = c.drop_sq {
                    // Lazy interposition: one open drop per square at a time.
                    let sq = if SERIAL_INTERPOSITIONS { 0 } else { sq };
                    if blocked.contains(&sq) {
                        continue;
                    }
                    blocked.push(sq);
                }
                open += 1;
                max_pn = max_pn.max(c.pns.pn);
                sum_pn = sum_pn.saturating_add(c.pns.pn);
                if c.pns.dn < min_dn {
                    second = min_dn;
                    min_dn = c.pns.dn;
                    best = Some(i);
                } else if c.pns.dn < second {
                    second = c.pns.dn;
                }
            }
            if REFUTING_FUTILITY && resolve.is_some() {
                // An interposition would refute the node: is it a 無駄合?
                return (ProofNumbers::LEAF, None, 0, 0, NO_DEP, 0);
            }
            if best.is_none() {
                if resolve.is_some() {
                    // Every other reply is proven: the caller tests this interposition.
                    return (ProofNumbers::LEAF, None, 0, 0, NO_DEP, 0);
                }
                // Every child is proven (blocked drops exist only behind open ones); a
                // 無駄合 adds no ply but holds only from its budget on.
                let bound = if real { bound_plus(proof_bound) } else { 0 };
                return (
                    ProofNumbers::PROVEN,
                    None,
                    0,
                    bound.max(futile_bound),
                    NO_DEP,
                    0,
                );
            }
            *resolve = None;
            let pn = if WEAK {
                max_pn.saturating_add(open - 1)
            } else {
                sum_pn
            }
            .min(CAP);
            (
                ProofNumbers { pn, dn: min_dn },
                best,
                second,
                0,
                NO_DEP,
                open,
            )
        }
    }

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
        mut inc: bool,
    ) -> NodeOut {
        self.tick();
        self.max_depth = self.max_depth.max(depth);
        let key = pos.board_key();
        let hand = pos.hand_of(self.attacker);
        let or = pos.side_to_move() == self.attacker;
        if depth >= MAX_DEPTH {
            return NodeOut {
                pns: ProofNumbers::DISPROVEN,
                bound: 0,
                dep: 0,
                ph: Hand::EMPTY,
            };
        }
        // Vectors reused from the pool (one per depth rather than one per node).
        let mut moves = self.pool.moves.pop().unwrap_or_default();
        moves.clear();
        let Moves {
            futile_need,
            mut futile_dep,
            futile_bound,
            lazy,
        } = match self.moves_of(pos, or, depth, budget, &mut moves) {
            Ok(m) => m,
            Err(out) => {
                self.pool.moves.push(moves);
                return out;
            }
        };
        let my_pk = pos.position_key();
        self.path.insert(my_pk, key, depth);
        self.path_hash ^= mix(my_pk);
        let start_nodes = self.nodes;
        let child_budget = budget_minus(budget, 1);
        let mut children = self.pool.children.pop().unwrap_or_default();
        children.clear();
        children.reserve(moves.len());
        let mut early: Option<NodeOut> = None;
        // The children's keys, computed once (without playing them).
        let mut keys = self.pool.keys.pop().unwrap_or_default();
        keys.clear();
        keys.extend(moves.iter().map(|&m| pos.keys_after(m, self.attacker)));
        if PREFETCH_CHILDREN {
            let what = if or { Count::Replies } else { Count::Checks };
            for &(ckey, cpk, _) in &keys {
                self.table.prefetch(ckey);
                self.table.prefetch_count(cpk, what);
            }
        }
        for (&m, &k) in moves.iter().zip(&keys) {
            let c = self.child(pos, m, k, or, depth, child_budget, lazy);
            if or && c.pns.is_proven() {
                early = Some(NodeOut {
                    pns: ProofNumbers::PROVEN,
                    bound: bound_plus(c.bound),
                    dep: NO_DEP,
                    ph: or_proof_hand(c.ph, c.delta),
                });
            } else if !or && c.pns.is_disproven() && !c.pending {
                let ph = self.and_disproof(pos, &c, hand, budget);
                early = Some(NodeOut {
                    pns: ProofNumbers::DISPROVEN,
                    bound: bound_plus(c.bound),
                    dep: c.dep,
                    ph,
                });
            }
            if early.is_some() {
                break;
            }
            children.push(c);
        }
        let mut blocked = Vec::new();
        let mut th = th;
        if budget <= SOLVE_NEAR_HORIZON {
            // A few plies from the budget's end: solve the small subtree at once.
            th = ProofNumbers::NO_THRESHOLD;
        }
        let mut first = true;
        let result = if let Some(e) = early {
            e
        } else {
            // Children keep the values of their own last search: re-reading every sibling
            // from the table after each step (to see transpositions) cost ~10 % of the
            // time for ~1 % fewer nodes on 図巧/無双 1–10 and 2 % more on 21–40.
            let mut resolve = None;
            loop {
                let (pns, best, second, bound, dep, open) =
                    self.compute(or, &children, &mut blocked, &mut resolve);
                if let Some(i) = resolve {
                    // Every other reply is proven: is this interposition a 無駄合?
                    let r = self.futile(pos, children[i].mv, depth, budget);
                    if self.aborted {
                        break NodeOut {
                            pns,
                            bound: 0,
                            dep: NO_DEP,
                            ph: hand,
                        };
                    }
                    let c = &mut children[i];
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
                            futile_dep = futile_dep.min(d);
                            c.cap = budget;
                        }
                    }
                    continue;
                }
                if pns.is_solved() {
                    let ph = if !pns.is_proven() {
                        if !DISPROOF_PIECES {
                            hand
                        } else if or {
                            let min = children
                                .iter()
                                .map(|c| or_disproof_child(c.ph, c.delta))
                                .reduce(hand_min)
                                .unwrap_or(hand);
                            or_disproof_hand(min, hand)
                        } else {
                            let c = &children[best.expect("a disproven child")];
                            self.and_disproof(pos, c, hand, budget)
                        }
                    } else if or {
                        let c = &children[best.expect("a proven child")];
                        or_proof_hand(c.ph, c.delta)
                    } else {
                        let need = children.iter().fold(futile_need, |h, c| hand_max(h, c.ph));
                        and_proof_hand(need, hand, pos.hand_of(!self.attacker), pos.interposable())
                    };
                    break NodeOut {
                        pns,
                        bound,
                        dep,
                        ph,
                    };
                }
                if !inc
                    && children
                        .iter()
                        .any(|c| c.seen && !c.pns.is_solved() && c.ply <= depth)
                {
                    inc = true;
                }
                if first && inc {
                    th.pn = th.pn.max(pns.pn.saturating_add(1));
                    th.dn = th.dn.max(pns.dn.saturating_add(1));
                }
                first = false;
                if pns.pn >= th.pn || pns.dn >= th.dn || self.aborted {
                    break NodeOut {
                        pns,
                        bound: 0,
                        dep: NO_DEP,
                        ph: hand,
                    };
                }
                let bi = best.expect("an open child exists");
                let b = children[bi];
                // Weak numbers: the node reaches its threshold when the best child reaches th - (open - 1).
                let cth = if or {
                    let others = if WEAK { open - 1 } else { pns.dn - b.pns.dn };
                    ProofNumbers {
                        pn: th.pn.min(sibling_bound(second)),
                        dn: th.dn.saturating_sub(others),
                    }
                } else {
                    let others = if WEAK { open - 1 } else { pns.pn - b.pns.pn };
                    ProofNumbers {
                        pn: th.pn.saturating_sub(others),
                        dn: th.dn.min(sibling_bound(second)),
                    }
                };
                pos.play(b.mv);
                // TCA: a leaf (a child never searched before) starts with the flag off (seed 002).
                let out = self.mid(pos, cth, depth + 1, child_budget, inc && b.seen);
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
        };
        self.path.remove(&my_pk);
        self.path_hash ^= mix(my_pk);
        self.pool.moves.push(moves);
        self.pool.children.push(children);
        self.pool.keys.push(keys);
        let mut result = result;
        if result.pns.is_disproven() {
            result.dep = result.dep.min(futile_dep);
        }
        if result.pns.is_proven() {
            result.bound = result.bound.max(futile_bound);
        }
        let amount = self.nodes - start_nodes + 1;
        if result.pns.is_disproven() {
            if result.dep >= depth {
                self.table.store(
                    key,
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
            hand
        };
        self.table
            .store(key, stored, result.pns, result.bound, depth, amount);
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

    /// The child after `m` with its first proof numbers: a repetition of the path, a
    /// path-dependent disproof, the table, or (unstored) the 1-ply mate check with df-pn+
    /// at OR nodes / the attacker's check count at AND nodes (seed `004_…`).
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        pos: &mut P,
        m: P::Move,
        (ckey, cpk, chand): (u64, u64, Hand),
        or: bool,
        depth: u16,
        child_budget: u16,
        lazy: bool,
    ) -> Child<P::Move> {
        // At AND nodes only the dropped kind is used (disproof pieces).
        let delta = pos.hand_delta(m);
        let later =
            !or && UNGUARDED_DROPS_LAST && P::drop_square(m).is_some() && pos.guards_of(m) == 0;
        let pending = lazy && pos.interposes(m);

        // The child's keys (`keys_after`) come without playing it: most children are
        // answered by the path, the repetition table, the table or the count memo, and
        // only the others are played.
        let mut c = Child {
            mv: m,
            pns: ProofNumbers::LEAF,
            bound: 0,
            ply: depth + 1,
            dep: NO_DEP,
            fixed: false,
            seen: false,
            drop_sq: if or { None } else { P::drop_square(m) },
            later,
            pending,
            futile: false,
            cap: UNBOUNDED,
            ph: chand,
            delta,
        };
        let mut bounds = ProofNumbers { pn: 1, dn: 1 };
        let with_bounds = |pns: ProofNumbers, b: ProofNumbers| {
            if UNKNOWN_BOUNDS {
                ProofNumbers {
                    pn: pns.pn.max(b.pn),
                    dn: pns.dn.max(b.dn),
                }
            } else {
                pns
            }
        };
        if let Some(&d) = self.path.get(&cpk) {
            // Repetition on the path: 連続王手の千日手, a failure for the attacker, valid only on this path.
            c.pns = ProofNumbers::DISPROVEN;
            c.bound = UNBOUNDED;
            c.dep = d;
            c.fixed = true;
        } else if let Some(&(b, d)) = self
            .rep_table
            .get(&(cpk, self.path_hash))
            .filter(|x| x.0 >= child_budget)
        {
            c.pns = ProofNumbers::DISPROVEN;
            c.bound = b;
            c.dep = d;
            c.fixed = true;
        } else if let Some(f) = match self.table.lookup_or_bounds(ckey, chand, child_budget) {
            Ok(f) => Some(f),
            Err(b) => {
                // For a new child: the bounds the unsolved entries of its board imply
                // (`UNKNOWN_BOUNDS`; `Solver::with_bounds` from the same scan). Not from a
                // board on the path: an ancestor's numbers would feed back into themselves
                // through this child (新桃花源 looped at 84 M nodes, each round raising them
                // by a few, no entry added for 1.5 G nodes; `PathMap::has_board`).
                if !self.path.has_board(ckey) {
                    bounds = b;
                }
                None
            }
        } {
            c.pns = f.pns;
            c.bound = f.bound;
            c.ply = f.ply;
            c.seen = true;
            c.ph = f.hand;
        } else if or {
            // 1-ply mate check (seed 004): the defender's reply count is the child's proof
            // number. Counted without generating the replies (drops once per square, as
            // the lazy interposition expands them), memoised by position; the child is
            // played only to count, and when it is mated or out of plies.
            let memo = if child_budget != 0 {
                self.table.count(cpk, Count::Replies)
            } else {
                None
            };
            let replies = match memo {
                Some(n) => n,
                None => {
                    pos.play(m);
                    let n = if child_budget == 0 && pos.has_reply_besides_interposition() {
                        // Out of plies after the check with a reply that is no interposition
                        // (no 無駄合 test can remove it): refuted whatever the hands, as
                        // `moves_of` would find, without counting the replies (the count
                        // below is then unused).
                        c.pns = ProofNumbers::DISPROVEN;
                        c.fixed = true;
                        c.ph = if DISPROOF_PIECES {
                            any_hand(chand, pos.hand_of(!self.attacker))
                        } else {
                            chand
                        };
                        1
                    } else {
                        let n = pos.reply_count();
                        self.table.set_count(cpk, Count::Replies, n);
                        if n == 0 {
                            let ph = and_proof_hand(
                                Hand::EMPTY,
                                chand,
                                pos.hand_of(!self.attacker),
                                pos.interposable(),
                            );
                            self.table
                                .store(ckey, ph, ProofNumbers::PROVEN, 0, depth + 1, 1);
                            c.pns = ProofNumbers::PROVEN;
                            c.ph = ph;
                        }
                        n
                    };
                    pos.undo();
                    n
                }
            };
            if !c.pns.is_solved() {
                // df-pn+ (Nagai 2002): a check on a square two defenders guard looks harder.
                let guarded = u32::from(pos.defenders_of(m) >= 2);
                c.pns = ProofNumbers {
                    pn: replies.max(1) + guarded,
                    dn: 1,
                };
                c.pns = with_bounds(c.pns, bounds);
            }
        } else if INIT_DN_BY_CHECKS {
            // The defender's reply leaves the attacker this many checks: its disproof
            // number (counted, memoised by position).
            let checks = match self.table.count(cpk, Count::Checks) {
                Some(n) => n,
                None => {
                    pos.play(m);
                    let n = pos.check_count();
                    self.table.set_count(cpk, Count::Checks, n);
                    if n == 0 {
                        let dh = if DISPROOF_PIECES {
                            leaf_disproof_hand(chand, pos.hand_of(!self.attacker))
                        } else {
                            chand
                        };
                        self.table.store(
                            ckey,
                            dh,
                            ProofNumbers::DISPROVEN,
                            UNBOUNDED,
                            depth + 1,
                            1,
                        );
                        c.pns = ProofNumbers::DISPROVEN;
                        c.bound = UNBOUNDED;
                        c.ph = dh;
                    }
                    pos.undo();
                    n
                }
            };
            if checks != 0 {
                c.pns = ProofNumbers { pn: 1, dn: checks };
                c.pns = with_bounds(c.pns, bounds);
            }
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tsume::{load_problem, problems::read_problems, DefenderHand, SolverOptions};

    /// `sort_replies` (drops only, keys once) against sorting the whole list.
    #[test]
    fn sorted_replies_are_the_whole_list_sorted() {
        use crate::rules::{Move, Position};
        let whole = |pos: &Position, mut v: Vec<Move>| {
            v.sort_by_key(|&m| {
                <Position as MatePosition>::drop_square(m).map_or(0, |s| {
                    1 + MatePosition::king_distance(pos, s) as u32 * 128 + s as u32
                })
            });
            v
        };
        // Every move list along random play from the classics, in check or not, and the
        // same reversed (drops first: the fallback sorts the whole list).
        let text = include_str!("../../../specs/tsume/classics.sfen");
        let mut checked = 0;
        for p in read_problems(text).iter().take(40) {
            let mut pos = load_problem(&p.sfen, DefenderHand::Remaining).unwrap();
            for ply in 0..24 {
                let all = pos.legal_moves();
                if all.is_empty() {
                    break;
                }
                for list in [all.to_vec(), all.iter().rev().copied().collect()] {
                    let mut fast = list.clone();
                    sort_replies(&pos, &mut fast);
                    let sfen = crate::notation::sfen::write_sfen(&pos);
                    assert_eq!(fast, whole(&pos, list), "{sfen}");
                }
                checked += 1;
                pos.play_unchecked(all[(ply * 7 + 3) % all.len()]);
            }
        }
        assert!(checked > 500, "{checked}");
    }

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

    /// A child starts from the proof number an unsolved entry of its board implies by
    /// hand superiority, unless a position with that board is on the path (an
    /// ancestor's number would feed back into itself: the 新桃花源 livelock).
    #[test]
    fn no_unsolved_bound_from_a_board_on_the_path() {
        use crate::rules::{PieceKind, Position};
        let text = include_str!("../../../specs/tsume/classics.sfen");
        let p = read_problems(text)
            .into_iter()
            .find(|p| p.id == "zukou-002")
            .unwrap();
        let mut pos = load_problem(&p.sfen, DefenderHand::Remaining).unwrap();
        let mut s = Solver::<Position>::new(SolverOptions {
            memory_mib: 16,
            ..SolverOptions::default()
        });
        s.attacker = pos.side_to_move();
        let mut checks = Vec::new();
        pos.checks(&mut checks);
        // A check the defender can answer (the 1-ply mate test gives its reply count).
        let m = checks
            .into_iter()
            .find(|&m| {
                MatePosition::play(&mut pos, m);
                let n = pos.reply_count();
                MatePosition::undo(&mut pos);
                n > 0
            })
            .unwrap();
        let (ckey, cpk, chand) = pos.keys_after(m, s.attacker);
        // An unsolved entry of the child's board with one pawn more in hand: the child
        // (fewer pieces) needs at least its proof number.
        let richer = chand.add(PieceKind::Pawn);
        s.table
            .store(ckey, richer, ProofNumbers { pn: 1000, dn: 7 }, 0, 9, 50);
        let first = |s: &mut Solver<Position>, pos: &mut Position| {
            s.child(pos, m, (ckey, cpk, chand), true, 1, UNBOUNDED, false)
                .pns
        };
        assert!(first(&mut s, &mut pos).pn >= 1000);
        // Another position with the child's board (other hands) on the path.
        s.path.insert(cpk ^ 0x100, ckey, 1);
        assert!(first(&mut s, &mut pos).pn < 1000);
        s.path.remove(&(cpk ^ 0x100));
        assert!(first(&mut s, &mut pos).pn >= 1000);
    }
}
