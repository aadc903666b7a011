//! Reading the line off the proof: a walk that keeps a ply budget (exact walks: each node
//! needs exactly its budget, `specs/tsume.md` "Shortest mate"), hides 無駄合, breaks ties by
//! 駒余り and backtracks GHI-safely (failures remembered with the path prefix they depend on).

use super::*;

/// State of one line walk ([`Solver::extract`]).
pub(super) struct WalkState {
    pub(super) exact: bool,
    pub(super) futility: bool,
    /// 無駄合 tested only where they matter ([`Solver::walk_and_lazy`]).
    pub(super) lazy: bool,
    /// `prefix[d]`: hash of the sequence of the path's first `d` positions.
    pub(super) prefix: Vec<u64>,
    /// `budgets[d]`: the budget the walk entered depth `d` with.
    pub(super) budgets: Vec<u16>,
    /// Positions that failed on some path: (prefix length they depend on, its hash).
    pub(super) failed: HashMap<u64, Vec<(u16, u64)>, KeyHash>,
    /// 駒余り tie-break (exact walks): further defender replies of the same length that may
    /// still be walked because a line left the attacker pieces in hand, and the node
    /// count after which no more are tried (the walk's own node limit must not be spent).
    pub(super) spare_tries: u32,
    pub(super) spare_until: u64,
    /// Defender nodes below which no line hides the 無駄合 (mate there only thanks to the
    /// budget), counted so that an attacker node above knows to prove its other checks
    /// ([`Solver::walk_unproven_checks`]).
    pub(super) futile_fails: u32,
}

/// The proven children of `bounds` as `(bound, index)`, the shortest proof first (ties by
/// index): the order in which an attacker node's walks try its checks.
pub(super) fn shortest_first(bounds: &[Option<u16>]) -> Vec<(u16, usize)> {
    let mut order: Vec<(u16, usize)> = bounds
        .iter()
        .enumerate()
        .filter_map(|(i, b)| b.map(|b| (b, i)))
        .collect();
    order.sort_unstable();
    order
}

/// At an AND node of an exact walk whose length is exact (mate within `budget`, not
/// within `budget` − 2) and whose every reply counts and is proven (`bounds`): the reply
/// that must be exact without a search, if the bounds single one out. Some reply `c` has
/// no mate within `budget` − 3 after it (else the node would be mate within `budget` − 2),
/// so its proof bound is at least `budget` − 2; if only one reply's bound is that large,
/// it is `c`, and with a bound of `budget` − 1 it qualifies for the line.
fn sole_exact(bounds: &[Option<u16>], budget: u16) -> Option<usize> {
    if budget == UNBOUNDED || budget < 3 || bounds.iter().any(|b| b.is_none()) {
        return None;
    }
    let mut long = bounds
        .iter()
        .enumerate()
        .filter(|(_, b)| b.is_some_and(|b| b + 2 >= budget));
    match (long.next(), long.next()) {
        (Some((i, &b)), None) if b == Some(budget - 1) => Some(i),
        _ => None,
    }
}

/// Extra exact-length defender replies the 駒余り tie-break may walk in one line walk.
const SPARE_TRIES: u32 = 64;

/// Why a walk below a node gave no line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum WalkFail {
    /// It fails on this path, depending on the path's first `j` positions only (0: on none).
    Dep(u16),
    /// The position at this depth recurs below with a smaller budget: walk it again from
    /// there within that budget.
    Restart(u16, u16),
}

impl<P: MatePosition> Solver<P> {
    /// Clears a stop left by an earlier phase and allows `extra_nodes` more nodes from here
    /// (the line walks and the 余詰 search each run on an allowance of their own).
    pub(super) fn reset_limits_for(&mut self, extra_nodes: u64) {
        self.aborted = false;
        self.node_limit = Some(self.nodes.saturating_add(extra_nodes));
    }

    /// Proves `pos` within `budget` plies (at path depth `depth`) if the table no longer knows it.
    pub(super) fn ensure(&mut self, pos: &mut P, depth: u16, budget: u16) -> Option<u16> {
        if let Some(f) = self
            .table
            .lookup(pos.board_key(), pos.hand_of(self.attacker), budget)
        {
            if f.pns.is_proven() {
                return Some(f.bound);
            }
        }
        let out = self.mid(pos, ProofNumbers::NO_THRESHOLD, depth, budget, false);
        out.pns.is_proven().then_some(out.bound)
    }

    /// The proof bounds of the children `moves` of `pos` within `cb` plies (`None`: a
    /// repetition on the path, or no proof). At OR nodes the table only; at AND nodes a
    /// reply the table no longer proves is proved again.
    pub(super) fn child_bounds(
        &mut self,
        pos: &mut P,
        moves: &[P::Move],
        or: bool,
        depth: u16,
        cb: u16,
    ) -> Vec<Option<u16>> {
        let mut bounds = Vec::with_capacity(moves.len());
        for &m in moves {
            let b = self.reply_bound(pos, m, or, depth, cb);
            bounds.push(b);
        }
        bounds
    }

    /// The proof bound within `cb` plies of the child after `m` (`None`: a repetition of
    /// the path, or no proof): from the table only when `table_only`, else proved again
    /// if the table no longer knows it.
    fn reply_bound(
        &mut self,
        pos: &mut P,
        m: P::Move,
        table_only: bool,
        depth: u16,
        cb: u16,
    ) -> Option<u16> {
        self.play(pos, m);
        let b = if self.path.contains_key(&pos.position_key()) {
            None
        } else if table_only {
            self.table
                .lookup(pos.board_key(), pos.hand_of(self.attacker), cb)
                .and_then(|f| f.pns.is_proven().then_some(f.bound))
        } else {
            self.ensure(pos, depth + 1, cb)
        };
        pos.undo();
        b
    }

    /// Searches `pos`, already on the walk's path at `depth`, again within `budget`.
    pub(super) fn reprove(&mut self, pos: &mut P, depth: u16, budget: u16) {
        let pk = pos.position_key();
        self.path.remove(&pk);
        self.path_hash ^= mix(pk);
        self.mid(pos, ProofNumbers::NO_THRESHOLD, depth, budget, false);
        self.path.insert(pk, pos.board_key(), depth);
        self.path_hash ^= mix(pk);
    }

    /// Walks the proof: the attacker takes a proven check with the smallest bound, the
    /// defender the reply with the largest (with `exact`: one whose mate is exactly one
    /// ply shorter).
    ///
    /// The walk keeps a ply budget: every child must be proven within the budget − 1, and
    /// the chosen child's bound becomes the new budget (with `exact`: budget − 1); a node
    /// whose proof was evicted is proved again within its budget. Table proofs ignore the
    /// path, so a defender reply may lead to a node whose only mating checks repeat a
    /// position of the line (図巧100: after 156 plies the defender's interposition cycle
    /// returned to the position of ply 115). Such a node fails on this path and the walk
    /// backtracks to the last attacker node with another proven check; failures are
    /// remembered with the path prefix they depend on (GHI-safe), so no subtree is walked
    /// twice under the same prefix. The walk stops at `cap` nodes in all
    /// ([`Solver::walk_cap`]). With `hide_futile` (exact walks, a ply limit, a cut
    /// minimality search's first try) the budgets count plies under the 無駄合 rule, so
    /// the line is no longer than `len`, and it shows no 無駄合 the walk tests (exact walks
    /// and ply limits test every reply they show; the cut search's line hides those the
    /// table knows); without it (`--any-mate`, `--count-futile`, fallbacks) they are
    /// `plain`: they bound the length only and every legal reply counts, and a node whose
    /// bounded re-proof fails may use any proof.
    pub(super) fn extract(
        &mut self,
        root: &mut P,
        len: u16,
        exact: bool,
        hide_futile: bool,
        cap: u64,
    ) -> Option<Vec<P::Move>> {
        let mut pos = root.clone();
        let extra = cap.saturating_sub(self.nodes);
        self.reset_limits_for(extra);
        self.path.clear();
        self.path_hash = 0;
        let futility = hide_futile && !self.opts.count_futile;
        self.plain = !futility;
        let mut st = WalkState {
            exact,
            futility,
            // Exact walks and the cut minimality search's line test lazily; within a ply
            // limit an inexact walk tests every interposition (it never shows a 無駄合).
            lazy: exact || self.opts.max_plies.is_none(),
            prefix: vec![0],
            budgets: vec![0],
            failed: HashMap::default(),
            spare_tries: SPARE_TRIES,
            spare_until: self.nodes.saturating_add(extra / 4),
            futile_fails: 0,
        };
        self.extracting = true;
        let line = self.walk(&mut pos, 1, len, &mut st).ok();
        self.extracting = false;
        self.plain = self.opts.count_futile;
        line
    }

    /// The walk below `pos` at `depth` within `budget`: the line, or why there is none.
    pub(super) fn walk(
        &mut self,
        pos: &mut P,
        depth: u16,
        budget: u16,
        st: &mut WalkState,
    ) -> Result<Vec<P::Move>, WalkFail> {
        if self.aborted {
            return Err(WalkFail::Dep(0));
        }
        if depth >= MAX_DEPTH {
            return Err(WalkFail::Dep(depth - 1));
        }
        let pk = pos.position_key();
        if let Some(v) = st.failed.get(&pk) {
            if let Some(&(j, _)) = v
                .iter()
                .find(|&&(j, h)| j < depth && st.prefix[j as usize] == h)
            {
                return Err(WalkFail::Dep(j));
            }
        }
        let prefix = mix(st.prefix[depth as usize - 1] ^ pk);
        st.prefix.push(prefix);
        st.budgets.push(budget);
        self.path.insert(pk, pos.board_key(), depth);
        self.path_hash ^= mix(pk);
        let or = pos.side_to_move() == self.attacker;
        let mut budget = budget;
        let r = loop {
            let r = if or {
                self.walk_or(pos, depth, budget, st)
            } else {
                self.walk_and(pos, depth, budget, st)
            };
            match r {
                Err(WalkFail::Restart(j, b)) if j == depth => {
                    // A shorter proof of this very position showed up below: prove it again
                    // within that budget and walk from here once more.
                    self.reprove(pos, depth, b);
                    let proven = self
                        .table
                        .lookup(pos.board_key(), pos.hand_of(self.attacker), b)
                        .is_some_and(|f| f.pns.is_proven());
                    if !proven || self.aborted {
                        break Err(WalkFail::Dep(depth - 1));
                    }
                    budget = b;
                    st.budgets[depth as usize] = b;
                }
                r => break r,
            }
        };
        // An exact line needs exactly its budget from every node (a budget lowered by
        // 無駄合 below would show a shorter line).
        let r = match r {
            Ok(line) if st.exact && line.len() != usize::from(budget) => {
                Err(WalkFail::Dep(depth - 1))
            }
            r => r,
        };
        self.path.remove(&pk);
        self.path_hash ^= mix(pk);
        st.prefix.pop();
        st.budgets.pop();
        if let Err(WalkFail::Dep(j)) = r {
            if !self.aborted {
                let h = st.prefix[j as usize];
                st.failed.entry(pk).or_default().push((j, h));
            }
        }
        r
    }

    /// How a child's failure below a node at `depth` depends on the path above the node.
    pub(super) fn above(j: u16, depth: u16) -> u16 {
        if j < depth {
            j
        } else {
            0
        }
    }

    /// Why the child after `m` has no usable proof: a repetition of the path's position at
    /// depth `j` depends on the first `j` positions; a disproof in the table on none; any
    /// other miss (perhaps a path-dependent re-proof failure) on the whole path.
    pub(super) fn miss_dep(&mut self, pos: &mut P, m: P::Move, depth: u16, cb: u16) -> u16 {
        self.play(pos, m);
        let dep = if let Some(&j) = self.path.get(&pos.position_key()) {
            Self::above(j, depth)
        } else if self
            .table
            .lookup(pos.board_key(), pos.hand_of(self.attacker), cb)
            .is_some_and(|f| f.pns.is_disproven())
        {
            0
        } else {
            depth - 1
        };
        pos.undo();
        dep
    }

    /// The line from an attacker node that must mate within `budget` plies: a check the
    /// table proves within `budget` − 1 (re-proven if evicted), walked in turn until one's
    /// line below does not fail ([`Self::walk_checks`]).
    pub(super) fn walk_or(
        &mut self,
        pos: &mut P,
        depth: u16,
        budget: u16,
        st: &mut WalkState,
    ) -> Result<Vec<P::Move>, WalkFail> {
        let mut moves = Vec::new();
        pos.checks(&mut moves);
        let cb = budget_minus(budget, 1);
        let mut bounds = self.child_bounds(pos, &moves, true, depth, cb);
        if bounds.iter().all(|b| b.is_none()) {
            // The proof was evicted: prove this node again within its budget.
            self.reprove(pos, depth, budget);
            bounds = self.child_bounds(pos, &moves, true, depth, cb);
        }
        let mut dep = 0;
        let tried = bounds.iter().any(|b| b.is_some());
        let futile_fails = st.futile_fails;
        if let Some(line) = self.walk_checks(pos, &moves, &bounds, depth, cb, st, &mut dep)? {
            return Ok(line);
        }
        if st.futility && cb != UNBOUNDED && st.futile_fails > futile_fails {
            if let Some(line) =
                self.walk_unproven_checks(pos, &moves, &bounds, depth, cb, st, &mut dep)?
            {
                return Ok(line);
            }
        }
        if !st.exact && cb != UNBOUNDED {
            // A check repeating a line position that was entered with a larger budget: this
            // node is proven within `budget`, so that position is within `cb` (table bounds
            // are upper bounds; its shorter proof was evicted). Walk again from there.
            let mut target: Option<u16> = None;
            for &m in &moves {
                self.play(pos, m);
                if let Some(&j) = self.path.get(&pos.position_key()) {
                    if cb < st.budgets[j as usize] && target.map_or(true, |t| j < t) {
                        target = Some(j);
                    }
                }
                pos.undo();
            }
            if let Some(j) = target {
                return Err(WalkFail::Restart(j, cb));
            }
        }
        if !tried && !st.exact && !st.futility && budget != UNBOUNDED {
            // Last resort: any proof, whatever its length.
            self.reprove(pos, depth, UNBOUNDED);
            bounds = self.child_bounds(pos, &moves, true, depth, UNBOUNDED);
            if let Some(line) =
                self.walk_checks(pos, &moves, &bounds, depth, UNBOUNDED, st, &mut dep)?
            {
                return Ok(line);
            }
        }
        Err(WalkFail::Dep(dep))
    }

    /// Tries the proven checks (`bounds`) of the OR node `pos`, shortest first; `dep`
    /// collects how the failures depend on the path.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn walk_checks(
        &mut self,
        pos: &mut P,
        moves: &[P::Move],
        bounds: &[Option<u16>],
        depth: u16,
        cb: u16,
        st: &mut WalkState,
        dep: &mut u16,
    ) -> Result<Option<Vec<P::Move>>, WalkFail> {
        let order = shortest_first(bounds);
        for (i, &m) in moves.iter().enumerate() {
            if bounds[i].is_none() {
                *dep = (*dep).max(self.miss_dep(pos, m, depth, cb));
            }
        }
        for (b, i) in order {
            let m = moves[i];
            self.play(pos, m);
            let r = self.walk(pos, depth + 1, if st.exact { cb } else { b }, st);
            pos.undo();
            match r {
                Ok(mut rest) => {
                    rest.insert(0, m);
                    return Ok(Some(rest));
                }
                Err(WalkFail::Dep(j)) => {
                    if self.aborted {
                        return Err(WalkFail::Dep(0));
                    }
                    *dep = (*dep).max(Self::above(j, depth));
                }
                Err(restart) => return Err(restart),
            }
        }
        Ok(None)
    }

    /// After every check the table proves within `cb` failed below only because no line
    /// hides a 無駄合 there (the search proved the node through a check after which every
    /// reply is futile only thanks to the budget, a mate no line can show): the other
    /// checks of the OR node `pos`, proved within `cb` now (the search never needed them),
    /// shortest first. A seed-102 twin position (`tests/tsume_twin.rs`) has its 5-ply
    /// mate only through such a check.
    #[allow(clippy::too_many_arguments)]
    fn walk_unproven_checks(
        &mut self,
        pos: &mut P,
        moves: &[P::Move],
        bounds: &[Option<u16>],
        depth: u16,
        cb: u16,
        st: &mut WalkState,
        dep: &mut u16,
    ) -> Result<Option<Vec<P::Move>>, WalkFail> {
        let mut again = vec![None; moves.len()];
        for (i, &m) in moves.iter().enumerate() {
            if bounds[i].is_none() {
                again[i] = self.reply_bound(pos, m, false, depth, cb);
                if self.aborted {
                    return Err(WalkFail::Dep(0));
                }
            }
        }
        self.walk_checks(pos, moves, &again, depth, cb, st, dep)
    }

    /// The line from a defender node mated within `budget` plies: its replies longest proof
    /// first (無駄合 hidden; under an exact walk only those needing exactly `budget` − 1 more
    /// plies, ties broken by 駒余り and `specs/tsume.md`'s order), walked until one's line
    /// below does not fail.
    pub(super) fn walk_and(
        &mut self,
        pos: &mut P,
        depth: u16,
        budget: u16,
        st: &mut WalkState,
    ) -> Result<Vec<P::Move>, WalkFail> {
        let mut moves = Vec::new();
        pos.evasions(&mut moves);
        if st.futility && st.lazy && budget != UNBOUNDED && budget >= 3 && pos.interposable() {
            if let Some(r) = self.walk_and_lazy(pos, &moves, depth, budget, st) {
                return r;
            }
        }
        let mut budget = budget;
        // Whether a reply was left out as 無駄合 or the budget lowered: the node's exact
        // length then says nothing about the replies left (`sole_exact`).
        let mut pruned = false;
        if st.futility && budget != UNBOUNDED && !moves.is_empty() && pos.interposable() {
            // The line never shows a 無駄合 (the budget does not count them).
            let all = moves.clone();
            self.drop_futile(pos, &mut moves, depth, budget);
            pruned = moves.len() != all.len();
            if moves.is_empty() && budget > 0 && st.exact {
                // Mate here only thanks to the budget: any line from here is shorter than
                // the budget, which an exact walk never shows (`walk`).
                st.futile_fails += 1;
                return Err(WalkFail::Dep(depth - 1));
            }
            if moves.is_empty() && budget > 0 {
                // Every reply is futile only thanks to the budget (the recapture mates in
                // `budget` more plies): walk on from the least budget that still mates, so
                // that the line ends in a position that is mate as it stands.
                let mut found = false;
                let upper = budget;
                for b in 0..upper {
                    let mut real = all.clone();
                    self.drop_futile(pos, &mut real, depth, b);
                    if real.is_empty() {
                        // Mate as it stands only if every reply is futile without a budget.
                        found = b == 0;
                        break;
                    }
                    if b > 0 && self.all_proven(pos, &real, depth, b - 1) {
                        moves = real;
                        budget = b;
                        found = true;
                        break;
                    }
                }
                if !found {
                    // No line hides the 無駄合 here: let the walk take another reply.
                    st.futile_fails += 1;
                    return Err(WalkFail::Dep(depth - 1));
                }
            }
        }
        if moves.is_empty() {
            return Ok(Vec::new());
        }
        moves.sort_by_key(|&m| P::drop_square(m).map_or(0, |s| s as u32 + 1));
        let mut cb = budget_minus(budget, 1);
        let mut bounds = self.child_bounds(pos, &moves, false, depth, cb);
        if bounds.iter().any(|b| b.is_none()) && !st.futility && budget != UNBOUNDED {
            cb = UNBOUNDED;
            bounds = self.child_bounds(pos, &moves, false, depth, cb);
        }
        if bounds.iter().any(|b| b.is_none()) {
            let mut dep = 0;
            for (i, &m) in moves.iter().enumerate() {
                if bounds[i].is_none() {
                    dep = dep.max(self.miss_dep(pos, m, depth, cb));
                }
            }
            return Err(WalkFail::Dep(dep));
        }
        // The defender's replies, longest proof first (board moves before drops on ties;
        // the exact pass takes first those the table already shows exact);
        // with `exact`, only replies whose mate needs exactly `budget` − 1 plies (proven
        // within it, disproven within 2 less) qualify. If the line below one fails (a
        // repetition on this path, or a node mate only by 無駄合 at a budget), the next
        // reply is walked.
        let sole = if st.exact && !pruned {
            sole_exact(&bounds, budget)
        } else {
            None
        };
        let mut order: Vec<usize> = (0..moves.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(bounds[i].unwrap_or(0)));
        // The exact pass takes first the replies the table already shows exact.
        let exact_order = if st.exact && budget >= 3 {
            self.known_exact_first(pos, &moves, &order, budget - 3)
        } else {
            order.clone()
        };
        let mut dep = 0;
        // A line of the exact length that leaves the attacker pieces (駒余り), kept while
        // another reply of the same length is tried.
        let mut kept: Option<Vec<P::Move>> = None;
        // An exact walk shows only exact replies: with none that leads to a line, the node
        // fails and the walk takes another check above (before, a reply not shown exact was
        // walked then, and 図巧20 showed 11 plies for its proven 37).
        for &i in &exact_order {
            let m = moves[i];
            if st.exact && bounds[i] != Some(budget - 1) {
                continue;
            }
            if st.exact
                && budget >= 3
                && sole != Some(i)
                && !self.no_mate_after(pos, m, depth, budget - 3)
            {
                continue;
            }
            let b = bounds[i].unwrap_or(cb);
            self.play(pos, m);
            let r = self.walk(pos, depth + 1, if st.exact { cb } else { b }, st);
            pos.undo();
            match r {
                Ok(mut rest) => {
                    rest.insert(0, m);
                    let spare = if st.exact {
                        self.spare_pieces(pos, &rest, st)
                    } else {
                        Some(false)
                    };
                    if let Some(line) = Self::tie_break(&mut kept, rest, spare) {
                        return Ok(line);
                    }
                }
                Err(WalkFail::Dep(j)) => {
                    if self.aborted {
                        return Err(WalkFail::Dep(0));
                    }
                    dep = dep.max(Self::above(j, depth));
                }
                Err(restart) => return Err(restart),
            }
        }
        if let Some(line) = kept {
            return Ok(line);
        }
        Err(WalkFail::Dep(dep))
    }

    /// The walk that hides 無駄合 at an AND node with interpositions, testing 無駄合 only
    /// where it matters: for one the table does not prove within `budget` − 1 (the search
    /// removed it as futile, or lost its proof) and, in an exact walk, for an interposition
    /// about to be shown (a reply whose mate needs exactly `budget` − 1 plies). Testing
    /// every interposition up front, as [`Solver::walk_and`] does, costs one search each, a
    /// disproof when the interposition is no 無駄合 (図巧23: > 7 M nodes at one node of the
    /// exact line). An inexact walk (a fallback line, no solution) shows the longest proven
    /// reply the table does not show futile: proving it no 無駄合 can cost more than the
    /// walk has (無双8 cut short after its 35-ply proof: > 1.15 M nodes at ply 12).
    /// `None`: no reply qualified here; the caller walks the node the eager way.
    fn walk_and_lazy(
        &mut self,
        pos: &mut P,
        all: &[P::Move],
        depth: u16,
        budget: u16,
        st: &mut WalkState,
    ) -> Option<Result<Vec<P::Move>, WalkFail>> {
        let mut moves = all.to_vec();
        moves.sort_by_key(|&m| P::drop_square(m).map_or(0, |s| s as u32 + 1));
        let cb = budget - 1;
        let mut kept: Option<Vec<P::Move>> = None;
        let mut walked = false;
        let mut bounds = Vec::with_capacity(moves.len());
        for &m in &moves {
            let inter = pos.interposes(m);
            let b = self.reply_bound(pos, m, inter, depth, cb);
            match b {
                Some(b) => bounds.push(Some(b)),
                None if !inter => return None,
                None => {
                    // Not proven within the budget: it must be a 無駄合 (or be proved again).
                    match self.futile(pos, m, depth, budget) {
                        Ok(_) => bounds.push(None),
                        Err(_) => {
                            let again = self.reply_bound(pos, m, false, depth, cb);
                            again?;
                            bounds.push(again);
                        }
                    }
                }
            }
            if self.aborted {
                return Some(Err(WalkFail::Dep(0)));
            }
        }
        let sole = sole_exact(&bounds, budget);
        let mut order: Vec<usize> = (0..moves.len()).collect();
        if st.exact {
            order = self.known_exact_first(pos, &moves, &order, budget - 3);
        } else {
            // Longest proof first, board moves before drops on ties (`moves` is so sorted).
            order.sort_by_key(|&i| std::cmp::Reverse(bounds[i].unwrap_or(0)));
        }
        for i in order {
            let m = moves[i];
            let Some(b) = bounds[i] else {
                continue;
            };
            if st.exact
                && (b != cb || sole != Some(i) && !self.no_mate_after(pos, m, depth, budget - 3))
            {
                continue;
            }
            let futile = pos.interposes(m)
                && if st.exact {
                    self.futile(pos, m, depth, budget).is_ok()
                } else {
                    self.known_futile(pos, m, budget)
                };
            if futile {
                continue;
            }
            if self.aborted {
                return Some(Err(WalkFail::Dep(0)));
            }
            self.play(pos, m);
            let r = self.walk(pos, depth + 1, if st.exact { cb } else { b }, st);
            pos.undo();
            match r {
                Ok(mut rest) => {
                    rest.insert(0, m);
                    let spare = if st.exact {
                        self.spare_pieces(pos, &rest, st)
                    } else {
                        Some(false)
                    };
                    if let Some(line) = Self::tie_break(&mut kept, rest, spare) {
                        return Some(Ok(line));
                    }
                }
                // Failures are remembered (`WalkState::failed`): the eager walk skips them.
                Err(WalkFail::Dep(_)) if self.aborted => return Some(Err(WalkFail::Dep(0))),
                Err(WalkFail::Dep(_)) => walked = true,
                Err(restart) => return Some(Err(restart)),
            }
        }
        if kept.is_none() && walked && !st.exact {
            // The eager walk would take the same replies again (their failures are
            // remembered), after testing every interposition: fail here.
            return Some(Err(WalkFail::Dep(depth - 1)));
        }
        kept.map(Ok)
    }

    /// Whether the reply `m` at the AND node `pos` (path depth `depth`) leaves no mate
    /// within `nb` plies (searched to the end): the exact walk's test that a reply needs
    /// the whole remaining budget.
    fn no_mate_after(&mut self, pos: &mut P, m: P::Move, depth: u16, nb: u16) -> bool {
        self.play(pos, m);
        let out = self.mid(pos, ProofNumbers::NO_THRESHOLD, depth + 1, nb, false);
        pos.undo();
        out.pns.is_disproven() && out.dep != 0
    }

    /// `order` (indices into the replies `moves` of the AND node `pos`) with the replies
    /// after which the table already holds a disproof within `nb` plies first, each group
    /// in its given order. The exact walk needs such a disproof for the reply it shows
    /// (its mate is not shorter); the minimality search's disproof of the root stored one
    /// for some reply at every node of the line, so taking it first spares a search.
    fn known_exact_first(
        &mut self,
        pos: &mut P,
        moves: &[P::Move],
        order: &[usize],
        nb: u16,
    ) -> Vec<usize> {
        let mut known = vec![false; moves.len()];
        for &i in order {
            self.play(pos, moves[i]);
            known[i] = self
                .table
                .lookup(pos.board_key(), pos.hand_of(self.attacker), nb)
                .is_some_and(|f| f.pns.is_disproven());
            pos.undo();
        }
        let mut out = order.to_vec();
        out.sort_by_key(|&i| !known[i]);
        out
    }

    /// Whether `line` (from the AND node `pos`) leaves the attacker pieces in hand at the
    /// mate (駒余り), spending one of the walk's spare tries if so; `None` when no tries
    /// are left.
    fn spare_pieces(&mut self, pos: &mut P, line: &[P::Move], st: &mut WalkState) -> Option<bool> {
        if st.spare_tries == 0 || self.nodes >= st.spare_until {
            return None;
        }
        for &m in line {
            self.play(pos, m);
        }
        let spare = pos.hand_of(self.attacker) != Hand::EMPTY;
        for _ in line {
            pos.undo();
        }
        if spare {
            st.spare_tries -= 1;
        }
        Some(spare)
    }

    /// The 駒余り tie-break (specs/tsume.md) at an AND node of the exact walk, given the
    /// line through one more reply of the exact length and whether it leaves pieces
    /// (`spare`, `None`: no tries left): the line to answer with, or `None` to try the
    /// next reply while `kept` holds the first line found. Only a line as long as the
    /// first replaces it (a walk below may fall back to a shorter, inexact line).
    fn tie_break(
        kept: &mut Option<Vec<P::Move>>,
        line: Vec<P::Move>,
        spare: Option<bool>,
    ) -> Option<Vec<P::Move>> {
        match (kept.as_ref(), spare) {
            (None, Some(true)) => {
                *kept = Some(line);
                None
            }
            (None, _) => Some(line),
            (Some(k), Some(false)) if k.len() == line.len() => Some(line),
            (Some(_), None) => kept.take(),
            (Some(_), _) => None,
        }
    }

    /// Whether every reply in `moves` at the AND node `pos` leads to a mate within `cb` plies.
    pub(super) fn all_proven(
        &mut self,
        pos: &mut P,
        moves: &[P::Move],
        depth: u16,
        cb: u16,
    ) -> bool {
        moves.iter().all(|&m| {
            self.play(pos, m);
            let ok = self.ensure(pos, depth + 1, cb).is_some();
            pos.undo();
            ok
        })
    }
}

#[cfg(test)]
mod tests {
    use super::sole_exact;
    use crate::tsume::table::UNBOUNDED;
    use crate::tsume::{
        load_problem, problems::read_problems, DefenderHand, MatePosition, SolverOptions,
    };

    /// A stop request ends the line walks too: from the first node they see it at, they
    /// search at most `STOP_WALK_NODES` more, and the answer is what the table held then
    /// (before, the walks ignored stops: 図巧69 stopped in its exact walk at 0.3 M nodes went
    /// on to 453 195, a GUI's `stop` unheard). In a 16 MiB table: 図巧69 stopped in its exact
    /// walk still shows its proven 19 plies; 無双8 stopped deep in its minimality search
    /// shows its 31-ply mate, not proven shortest; 無双23 stopped there has lost too much of
    /// its proof to read a line in the allowance: `unknown`, while the answer and the bounds
    /// on its control keep the mate within 29 plies it proved.
    #[test]
    fn a_stop_ends_the_line_walk_within_its_allowance() {
        let text = include_str!("../../../specs/tsume/classics.sfen");
        let problems = read_problems(text);
        let cases = [
            ("zukou-069", 300_000, Some((19, true))),
            ("musou-008", 1_500_000, Some((31, false))),
            ("musou-023", 1_000_000, None),
        ];
        for (id, stop, expect) in cases {
            let p = problems.iter().find(|p| p.id == id).unwrap();
            let pos = load_problem(&p.sfen, DefenderHand::Remaining).unwrap();
            let control = crate::tsume::Control::default();
            let mut s = super::Solver::<crate::rules::Position>::new(SolverOptions {
                memory_mib: 16,
                control: Some(control.clone()),
                ..SolverOptions::default()
            });
            s.stop_at = Some(stop);
            let r = s.solve(&pos);
            // Seen within 1 024 nodes by the search, at once by a walk.
            let most = stop + 1024 + super::STOP_WALK_NODES;
            assert!(r.stats.nodes <= most, "{id}: {} nodes", r.stats.nodes);
            let within = control.0.bounds().mate_within;
            match expect {
                Some((plies, shortest)) => {
                    assert_eq!(r.outcome, super::Outcome::Mate, "{id}");
                    assert!(pos.check_mate_line(&r.line).is_ok(), "{id}");
                    assert_eq!(r.line.len(), plies, "{id}");
                    assert_eq!(r.shortest, Some(shortest), "{id}");
                    assert_eq!(
                        (r.mate_within, within),
                        (Some(plies as u16), Some(plies as u16))
                    );
                }
                None => {
                    assert_eq!(r.outcome, super::Outcome::Unknown, "{id}");
                    assert_eq!(within, Some(29), "{id}");
                    // The answer keeps the bound its line could not show.
                    assert_eq!(r.mate_within, Some(29), "{id}");
                }
            }
        }
    }

    /// The reply singled out needs the node's budget − 1 and is the only one whose bound
    /// reaches budget − 2; anything else leaves the choice to the disproofs.
    #[test]
    fn a_sole_exact_reply_is_the_only_one_long_enough() {
        assert_eq!(sole_exact(&[Some(3), Some(8), Some(5)], 9), Some(1));
        // A second reply that may still need budget − 2: no shortcut.
        assert_eq!(sole_exact(&[Some(7), Some(8)], 9), None);
        // The only long reply is one ply short of the budget − 1: no exact candidate.
        assert_eq!(sole_exact(&[Some(7), Some(3)], 9), None);
        // A reply without a proof (left out, or lost): no shortcut.
        assert_eq!(sole_exact(&[Some(8), None], 9), None);
        assert_eq!(sole_exact(&[Some(2)], 3), Some(0));
        assert_eq!(sole_exact(&[Some(0)], 1), None);
        assert_eq!(sole_exact(&[Some(8)], UNBOUNDED), None);
    }
}
