//! A node's proof and disproof numbers from its children's (df-pn, Nagai 2002): the
//! minimum at the side to move, the sum (or the weak value, Ueda et al. 2008, seed
//! `004_…`) at the other; at defender nodes the lazy interposition rules decide which
//! replies are open (one drop at a time, unguarded drops last, 無駄合 tests pending).

use super::children::Child;
use super::*;

/// A node's value from its children, and where the search goes next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Summary {
    /// The node's numbers (proven, disproven or open).
    pub(super) pns: ProofNumbers,
    /// Open: the child to search next; solved: the child that decided it (AND proven: none).
    pub(super) best: Option<usize>,
    /// The second best child's number (the 1+ε sibling bound of the best one's threshold).
    pub(super) second: u32,
    /// Solved: the ply bound of the proof or disproof.
    pub(super) bound: u16,
    /// Disproven: the shallowest path dependency (`NO_DEP`: none).
    pub(super) dep: u16,
    /// Open: how many children are open (weak numbers).
    pub(super) open: u32,
    /// At an AND node: an interposition whose futility (無駄合) must be tested before the
    /// node's value is known (the caller tests it and computes again).
    pub(super) resolve: Option<usize>,
}

impl Summary {
    fn solved(pns: ProofNumbers, best: Option<usize>, bound: u16, dep: u16) -> Self {
        Summary {
            pns,
            best,
            second: 0,
            bound,
            dep,
            open: 0,
            resolve: None,
        }
    }
}

/// The value of an OR node (the attacker to move) from its checks.
pub(super) fn or_numbers<M>(ch: &[Child<M>]) -> Summary {
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
            return Summary::solved(ProofNumbers::PROVEN, Some(i), bound_plus(c.bound), NO_DEP);
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
        return Summary::solved(ProofNumbers::DISPROVEN, None, bound_plus(dis_bound), dep);
    }
    let dn = if WEAK {
        max_dn.saturating_add(open - 1)
    } else {
        sum_dn
    }
    .min(CAP);
    Summary {
        pns: ProofNumbers { pn: min_pn, dn },
        best,
        second,
        bound: 0,
        dep: NO_DEP,
        open,
        resolve: None,
    }
}

/// The value of an AND node (the defender to move) from its replies. `blocked` is
/// scratch space (the drop squares with an open drop). A 無駄合 (`futile`) is no reply;
/// a pending interposition that would refute (or, without [`REFUTING_FUTILITY`], any
/// pending one once the others are proven) is returned in `resolve` with no value.
pub(super) fn and_numbers<M>(ch: &[Child<M>], blocked: &mut Vec<u8>) -> Summary {
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
    let mut resolve = None;
    for (i, c) in ch.iter().enumerate() {
        if c.futile {
            futile_bound = futile_bound.max(c.bound);
            continue;
        }
        if c.pending && !c.pns.is_proven() && (!REFUTING_FUTILITY || c.pns.is_disproven()) {
            if resolve.is_none() {
                resolve = Some(i);
            }
            continue;
        }
        if c.pns.is_disproven() {
            // A pending interposition seen before still gets its test first (the caller
            // tests `resolve` before it reads the value).
            return Summary {
                resolve,
                ..Summary::solved(
                    ProofNumbers::DISPROVEN,
                    Some(i),
                    bound_plus(c.bound).min(c.cap),
                    c.dep,
                )
            };
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
    if resolve.is_some() && (REFUTING_FUTILITY || best.is_none()) {
        // An interposition would refute the node, or every other reply is proven: the
        // caller tests whether it is a 無駄合.
        return Summary {
            resolve,
            ..Summary::solved(ProofNumbers::LEAF, None, 0, NO_DEP)
        };
    }
    if best.is_none() {
        // Every child is proven (blocked drops exist only behind open ones); a 無駄合
        // adds no ply but holds only from its budget on.
        let bound = if real { bound_plus(proof_bound) } else { 0 };
        return Summary::solved(ProofNumbers::PROVEN, None, bound.max(futile_bound), NO_DEP);
    }
    let pn = if WEAK {
        max_pn.saturating_add(open - 1)
    } else {
        sum_pn
    }
    .min(CAP);
    Summary {
        pns: ProofNumbers { pn, dn: min_dn },
        best,
        second,
        bound: 0,
        dep: NO_DEP,
        open,
        resolve: None,
    }
}
