//! The brute-force oracle: walk every assignment of kinds to the 20 pieces
//! (piece by piece, a kind from its domain with a copy left) and count. No
//! sharing, no pruning beyond "a copy is left", so obviously correct — and
//! only usable on tiny cases, hence the node budget. Pieces are visited in
//! order of increasing domain size (any order is correct; this one finds
//! conflicts among small domains without first enumerating the large ones).

use super::{
    minimize_conflict, Contradiction, Converged, Convergence, Kind, KindSet, World, PIECES,
};

/// Exact counts by exhaustive search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Counts {
    /// Number of assignments.
    pub total: u128,
    /// `per_kind[i][k]`: assignments giving piece `i` kind `k`.
    pub per_kind: [[u128; 8]; PIECES],
}

/// Walks all assignments, visiting at most `budget` search nodes; `None` if exceeded.
pub fn count(w: &World, budget: u64) -> Option<Counts> {
    let mut c = Counts {
        total: 0,
        per_kind: [[0; 8]; PIECES],
    };
    let mut left = Kind::CAPACITY;
    let mut path = [0usize; PIECES];
    let mut nodes = 0u64;
    let order = visit_order(w);
    if walk(
        w, &order, 0, &mut left, &mut path, &mut c, &mut nodes, budget,
    ) {
        Some(c)
    } else {
        None
    }
}

/// Pieces by increasing domain size (stable).
fn visit_order(w: &World) -> [usize; PIECES] {
    let mut o: [usize; PIECES] = std::array::from_fn(|i| i);
    o.sort_by_key(|&i| w.0[i].len());
    o
}

#[allow(clippy::too_many_arguments)]
fn walk(
    w: &World,
    order: &[usize; PIECES],
    depth: usize,
    left: &mut [u8; 8],
    path: &mut [usize; PIECES],
    c: &mut Counts,
    nodes: &mut u64,
    budget: u64,
) -> bool {
    *nodes += 1;
    if *nodes > budget {
        return false;
    }
    if depth == PIECES {
        c.total += 1;
        for (p, &k) in path.iter().enumerate() {
            c.per_kind[p][k] += 1;
        }
        return true;
    }
    let i = order[depth];
    for k in 0..8 {
        if w.0[i].0 >> k & 1 != 0 && left[k] > 0 {
            left[k] -= 1;
            path[i] = k;
            let ok = walk(w, order, depth + 1, left, path, c, nodes, budget);
            left[k] += 1;
            if !ok {
                return false;
            }
        }
    }
    true
}

/// Whether some assignment exists (stops at the first), within `budget` nodes.
pub fn feasible(w: &World, budget: u64) -> Option<bool> {
    fn go(
        w: &World,
        order: &[usize; PIECES],
        d: usize,
        left: &mut [u8; 8],
        nodes: &mut u64,
        budget: u64,
    ) -> Option<bool> {
        *nodes += 1;
        if *nodes > budget {
            return None;
        }
        if d == PIECES {
            return Some(true);
        }
        let i = order[d];
        for k in 0..8 {
            if w.0[i].0 >> k & 1 != 0 && left[k] > 0 {
                left[k] -= 1;
                let r = go(w, order, d + 1, left, nodes, budget);
                left[k] += 1;
                if r != Some(false) {
                    return r;
                }
            }
        }
        Some(false)
    }
    go(
        w,
        &visit_order(w),
        0,
        &mut Kind::CAPACITY.clone(),
        &mut 0,
        budget,
    )
}

/// Checks a conflict certificate by exhaustive search: the pieces cannot all
/// be given kinds, and without any one of them they can. `None` if over budget.
pub fn check_conflict(w: &World, conflict: &[usize], budget: u64) -> Option<bool> {
    let mask = conflict.iter().fold(0u32, |m, &i| m | 1 << i);
    if conflict.is_empty() || feasible(&w.restrict(mask), budget)? {
        return Some(false);
    }
    for &i in conflict {
        if !feasible(&w.restrict(mask & !(1 << i)), budget)? {
            return Some(false);
        }
    }
    Some(true)
}

/// The oracle as an engine (panics over budget; tiny inputs only).
#[derive(Debug, Clone, Copy)]
pub struct Brute {
    /// Node budget per walk.
    pub budget: u64,
}

impl Default for Brute {
    fn default() -> Brute {
        Brute { budget: 20_000_000 }
    }
}

impl Convergence for Brute {
    fn name(&self) -> &'static str {
        "brute"
    }

    /// # Panics
    /// Over budget.
    fn feasible(&self, w: &World) -> bool {
        feasible(w, self.budget).expect("brute-force budget exceeded")
    }

    /// # Panics
    /// Over budget.
    fn converge(&self, w: &World) -> Result<Converged, Contradiction> {
        let c = count(w, self.budget).expect("brute-force budget exceeded");
        if c.total == 0 {
            return Err(Contradiction {
                conflict: minimize_conflict(w, (1 << PIECES) - 1, |x| self.feasible(x)),
            });
        }
        let mut out = World([KindSet::EMPTY; PIECES]);
        for i in 0..PIECES {
            for k in Kind::ALL {
                if c.per_kind[i][k.index()] > 0 {
                    out.0[i] = out.0[i].or(KindSet::single(k));
                }
            }
        }
        Ok(Converged::new(w, out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_a_fully_determined_world() {
        let w: World = "K R B G G S S N N L L P P P P P P P P P".parse().unwrap();
        let c = count(&w, 1000).unwrap();
        assert_eq!(c.total, 1);
        let swapped: World = "K R B G G S S N N L L P P P P P P P P GP".parse().unwrap();
        assert_eq!(count(&swapped, 1000).unwrap().total, 1);
        let two: World = "K R B G G S S N N L L P P P P P P P P *".parse().unwrap();
        assert_eq!(count(&two, 1000).unwrap().total, 1);
        let bad: World = "K K".parse().unwrap();
        assert_eq!(feasible(&bad, 1000), Some(false));
        assert_eq!(check_conflict(&bad, &[0, 1], 1000), Some(true));
        assert_eq!(check_conflict(&bad, &[0, 1, 2], 1000), Some(false));
    }
}
