//! The matching engine: Régin's global cardinality filtering (J.-C. Régin,
//! "Generalized arc consistency for global cardinality constraint", AAAI 1996).
//!
//! Pieces on one side, kinds on the other with capacities `cap(k)`; a world is
//! consistent iff a matching saturates all 20 pieces (one augmenting-path pass,
//! kinds taking up to `cap(k)` pieces). Given one such matching `M`, an edge
//! (piece `i`, kind `k`) lies in *some* maximum matching iff it is in `M` or
//! `i` and `k` lie in the same strongly connected component of the residual
//! graph: unmatched edges point piece → kind, matched edges kind → piece, and a
//! sink `t` carries `k → t` while `k` has spare capacity and `t → k` while it
//! has load (Régin 1996, §3; Berge's alternating-cycle theorem). The graph and
//! its components are built with `petgraph` ([`petgraph::algo::tarjan_scc`]).
//!
//! When no saturating matching exists, the pieces reachable by alternating
//! paths from an unmatched piece form a Hall violator: their domains lie in
//! the reached kinds, which are all full, so they have fewer copies than
//! pieces ([`hall_violator`]); [`super::certify`] uses it for removed kinds.

use super::{
    minimize_conflict, Contradiction, Converged, Convergence, Kind, KindSet, World, PIECES,
};
use petgraph::graph::{DiGraph, NodeIndex};

/// A matching of pieces to kinds respecting capacities.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Matching {
    /// The kind given to each piece (`None`: unmatched).
    pub kind_of: [Option<Kind>; PIECES],
    /// Pieces given each kind, indexed by [`Kind::index`].
    pub load: [u8; 8],
}

impl Matching {
    /// Whether every piece has a kind.
    pub fn is_complete(&self) -> bool {
        self.kind_of.iter().all(Option::is_some)
    }
}

/// Tries to give piece `p` a kind, re-assigning other pieces along an augmenting path.
fn augment(w: &World, m: &mut Matching, p: usize, seen: &mut KindSet) -> bool {
    for k in w.0[p].iter() {
        if seen.contains(k) {
            continue;
        }
        *seen = seen.or(KindSet::single(k));
        if m.load[k.index()] < k.capacity() {
            m.kind_of[p] = Some(k);
            m.load[k.index()] += 1;
            return true;
        }
        for q in 0..PIECES {
            if m.kind_of[q] == Some(k) && q != p {
                m.kind_of[q] = None;
                m.load[k.index()] -= 1;
                if augment(w, m, q, seen) {
                    m.kind_of[p] = Some(k);
                    m.load[k.index()] += 1;
                    return true;
                }
                m.kind_of[q] = Some(k);
                m.load[k.index()] += 1;
            }
        }
    }
    false
}

/// A maximum matching of the pieces of `w` to kind copies (Kuhn's augmenting paths).
pub fn maximum_matching(w: &World) -> Matching {
    let mut m = Matching {
        kind_of: [None; PIECES],
        load: [0; 8],
    };
    for p in 0..PIECES {
        let mut seen = KindSet::EMPTY;
        augment(w, &mut m, p, &mut seen);
    }
    m
}

/// For a maximum matching that leaves piece `u` unmatched: the pieces (bit mask)
/// reachable from `u` by alternating paths. Their domains together hold fewer
/// kind copies than pieces (a Hall violator).
pub fn hall_violator(w: &World, m: &Matching, u: usize) -> u32 {
    let mut pieces = 1u32 << u;
    let mut kinds = KindSet::EMPTY;
    let mut stack = vec![u];
    while let Some(p) = stack.pop() {
        for k in w.0[p].minus(kinds).iter() {
            kinds = kinds.or(KindSet::single(k));
            for q in 0..PIECES {
                if m.kind_of[q] == Some(k) && pieces >> q & 1 == 0 {
                    pieces |= 1 << q;
                    stack.push(q);
                }
            }
        }
    }
    pieces
}

/// A Hall violator of `w` (bit mask of pieces), or `None` when `w` is consistent.
pub fn find_violator(w: &World) -> Option<u32> {
    let m = maximum_matching(w);
    let u = (0..PIECES).find(|&p| m.kind_of[p].is_none())?;
    Some(hall_violator(w, &m, u))
}

/// The Régin filter: every (piece, kind) edge in some complete matching, given one complete matching `m`.
pub fn filter(w: &World, m: &Matching) -> World {
    let mut g: DiGraph<(), ()> = DiGraph::with_capacity(PIECES + 9, PIECES * 8 + 16);
    let piece: Vec<NodeIndex> = (0..PIECES).map(|_| g.add_node(())).collect();
    let kind: Vec<NodeIndex> = (0..8).map(|_| g.add_node(())).collect();
    let sink = g.add_node(());
    for p in 0..PIECES {
        for k in w.0[p].iter() {
            if m.kind_of[p] == Some(k) {
                g.add_edge(kind[k.index()], piece[p], ());
            } else {
                g.add_edge(piece[p], kind[k.index()], ());
            }
        }
    }
    for k in Kind::ALL {
        if m.load[k.index()] < k.capacity() {
            g.add_edge(kind[k.index()], sink, ());
        }
        if m.load[k.index()] > 0 {
            g.add_edge(sink, kind[k.index()], ());
        }
    }
    let mut comp = vec![usize::MAX; g.node_count()];
    for (c, scc) in petgraph::algo::tarjan_scc(&g).into_iter().enumerate() {
        for n in scc {
            comp[n.index()] = c;
        }
    }
    let mut out = World([KindSet::EMPTY; PIECES]);
    for p in 0..PIECES {
        for k in w.0[p].iter() {
            if m.kind_of[p] == Some(k) || comp[piece[p].index()] == comp[kind[k.index()].index()] {
                out.0[p] = out.0[p].or(KindSet::single(k));
            }
        }
    }
    out
}

/// The matching engine ([module docs](self)).
#[derive(Debug, Clone, Copy, Default)]
pub struct MatchingEngine;

impl Convergence for MatchingEngine {
    fn name(&self) -> &'static str {
        "matching"
    }

    fn feasible(&self, w: &World) -> bool {
        maximum_matching(w).is_complete()
    }

    fn converge(&self, w: &World) -> Result<Converged, Contradiction> {
        let m = maximum_matching(w);
        match (0..PIECES).find(|&p| m.kind_of[p].is_none()) {
            None => Ok(Converged::new(w, filter(w, &m))),
            Some(u) => {
                let start = hall_violator(w, &m, u);
                Err(Contradiction {
                    conflict: minimize_conflict(w, start, |x| self.feasible(x)),
                })
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantum::counting::SubsetPass;

    #[test]
    fn seed_example_4() {
        let w: World = "RL RL R".parse().unwrap();
        let c = MatchingEngine.converge(&w).unwrap();
        assert_eq!(c, SubsetPass.converge(&w).unwrap());
        assert_eq!(c.world.0[0], KindSet::of(&[Kind::Lance]));
    }

    #[test]
    fn violator_is_over_full() {
        let w: World = "BR BK RK BRK".parse().unwrap();
        let v = find_violator(&w).unwrap();
        let union = (0..PIECES)
            .filter(|&i| v >> i & 1 != 0)
            .fold(KindSet::EMPTY, |u, i| u.or(w.0[i]));
        assert!(union.capacity() < v.count_ones(), "{v:b} {union}");
        assert_eq!(
            MatchingEngine.converge(&w).unwrap_err().conflict,
            [0, 1, 2, 3]
        );
    }
}
