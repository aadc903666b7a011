//! The enumeration engine: a layered decision diagram over the 20 pieces whose
//! nodes are *remaining-capacity vectors* (copies of each kind still
//! unassigned; at most 2·2·2·3⁴·10 = 6 480 per level, mixed-radix indexed) and
//! whose edges assign the next piece a kind of its domain. Paths from the root
//! (full capacities) to the terminal (nothing left) are exactly the worlds,
//! so one forward pass (ways in) and one backward pass (ways out) give the
//! number of worlds and every per-piece per-kind count exactly (`u128`).
//! This is the counting the seed `000_…` attributes to the πDD idea, with a
//! capacity-vector diagram instead of a permutation diagram.

use super::ratio::Ratio;
use super::{
    minimize_conflict, Contradiction, Converged, Convergence, Kind, KindSet, World, PIECES,
};
use rand::Rng;

const RADIX: [usize; 8] = [2, 2, 2, 3, 3, 3, 3, 10];
const STRIDE: [usize; 8] = {
    let mut s = [1usize; 8];
    let mut k = 1;
    while k < 8 {
        s[k] = s[k - 1] * RADIX[k - 1];
        k += 1;
    }
    s
};
/// Number of capacity vectors.
pub const STATES: usize = 6480;
const ROOT: usize = {
    let mut r = 0;
    let mut k = 0;
    while k < 8 {
        r += Kind::CAPACITY[k] as usize * STRIDE[k];
        k += 1;
    }
    r
};

const fn left(state: usize, k: usize) -> usize {
    state / STRIDE[k] % RADIX[k]
}

/// One node: a remaining-capacity vector at a level, with its path counts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Node {
    /// Mixed-radix index of the remaining capacities.
    pub state: u16,
    /// Paths from the root.
    pub up: u128,
    /// Paths to the terminal.
    pub down: u128,
}

/// The diagram of one world.
#[derive(Debug, Clone)]
pub struct Diagram {
    world: World,
    /// `levels[i]`: nodes before piece `i` is assigned, sorted by state; only nodes on some root–terminal path.
    levels: Vec<Vec<Node>>,
    counts: [[u128; 8]; PIECES],
    total: u128,
}

impl Diagram {
    /// Builds the diagram of `w`.
    pub fn build(w: &World) -> Diagram {
        let mut levels: Vec<Vec<Node>> = Vec::with_capacity(PIECES + 1);
        levels.push(vec![Node {
            state: ROOT as u16,
            up: 1,
            down: 0,
        }]);
        let mut acc = vec![0u128; STATES];
        let mut touched: Vec<u16> = Vec::new();
        for i in 0..PIECES {
            let dom = w.0[i].0;
            for n in &levels[i] {
                let s = n.state as usize;
                for (k, &stride) in STRIDE.iter().enumerate() {
                    if dom >> k & 1 != 0 && left(s, k) > 0 {
                        let c = s - stride;
                        if acc[c] == 0 {
                            touched.push(c as u16);
                        }
                        acc[c] += n.up;
                    }
                }
            }
            touched.sort_unstable();
            let next = touched
                .iter()
                .map(|&c| Node {
                    state: c,
                    up: std::mem::take(&mut acc[c as usize]),
                    down: 0,
                })
                .collect();
            touched.clear();
            levels.push(next);
        }
        // Backward: the terminal is the all-zero vector (20 pieces use all 20 copies).
        let mut down_next = vec![0u128; STATES];
        for n in &mut levels[PIECES] {
            n.down = u128::from(n.state == 0);
            down_next[n.state as usize] = n.down;
        }
        let mut counts = [[0u128; 8]; PIECES];
        for i in (0..PIECES).rev() {
            let dom = w.0[i].0;
            let (head, tail) = levels.split_at_mut(i + 1);
            for n in head[i].iter_mut() {
                let s = n.state as usize;
                let mut d = 0u128;
                for (k, &stride) in STRIDE.iter().enumerate() {
                    if dom >> k & 1 != 0 && left(s, k) > 0 {
                        let c = down_next[s - stride];
                        d += c;
                        counts[i][k] += n.up * c;
                    }
                }
                n.down = d;
            }
            for n in &tail[0] {
                down_next[n.state as usize] = 0;
            }
            for n in &head[i] {
                down_next[n.state as usize] = n.down;
            }
        }
        let total = levels[0][0].down;
        for l in &mut levels {
            l.retain(|n| n.down > 0 && n.up > 0);
        }
        Diagram {
            world: *w,
            levels,
            counts,
            total,
        }
    }

    /// Number of worlds (assignments of kinds to the 20 pieces using each kind exactly its capacity).
    pub fn total(&self) -> u128 {
        self.total
    }
    /// Worlds giving piece `i` kind `k`.
    pub fn count(&self, i: usize, k: Kind) -> u128 {
        self.counts[i][k.index()]
    }
    /// All counts, `[piece][kind]` in canonical order.
    pub fn counts(&self) -> &[[u128; 8]; PIECES] {
        &self.counts
    }
    /// Probability that piece `i` is `k` under the uniform distribution on worlds; `None` if there is no world.
    pub fn probability(&self, i: usize, k: Kind) -> Option<Ratio> {
        Ratio::new(self.count(i, k), self.total)
    }
    /// Nodes per level (after removing dead nodes).
    pub fn level_sizes(&self) -> Vec<usize> {
        self.levels.iter().map(Vec::len).collect()
    }
    /// The converged domains (kinds with a positive count).
    pub fn domains(&self) -> World {
        let mut out = World([KindSet::EMPTY; PIECES]);
        for (i, row) in self.counts.iter().enumerate() {
            for k in Kind::ALL {
                if row[k.index()] > 0 {
                    out.0[i] = out.0[i].or(KindSet::single(k));
                }
            }
        }
        out
    }

    fn down_of(&self, level: usize, state: usize) -> u128 {
        self.levels[level]
            .binary_search_by_key(&(state as u16), |n| n.state)
            .map_or(0, |j| self.levels[level][j].down)
    }

    /// Every world, in lexicographic order of kinds (canonical `KRBGSNLP`).
    pub fn iter(&self) -> WorldIter<'_> {
        WorldIter {
            d: self,
            stack: if self.total > 0 {
                vec![(ROOT, 0)]
            } else {
                Vec::new()
            },
            path: [Kind::King; PIECES],
        }
    }

    /// One world drawn uniformly at random; `None` if there is none.
    pub fn sample(&self, rng: &mut impl Rng) -> Option<[Kind; PIECES]> {
        if self.total == 0 {
            return None;
        }
        let mut out = [Kind::King; PIECES];
        let mut s = ROOT;
        for (i, o) in out.iter_mut().enumerate() {
            let here = self.down_of(i, s);
            let mut r = rng.gen_range(0..here);
            for k in Kind::ALL {
                let ki = k.index();
                if !self.world.0[i].contains(k) || left(s, ki) == 0 {
                    continue;
                }
                let d = self.down_of(i + 1, s - STRIDE[ki]);
                if r < d {
                    *o = k;
                    s -= STRIDE[ki];
                    break;
                }
                r -= d;
            }
        }
        Some(out)
    }

    /// Observation for the "fully observed when captured" variant (seed `000_…`,
    /// πDD remark): piece `i` collapses to one kind drawn with its exact
    /// probability; returns the kind and the converged world. `None` if there is no world.
    pub fn observe(&self, i: usize, rng: &mut impl Rng) -> Option<(Kind, World)> {
        if self.total == 0 {
            return None;
        }
        let mut r = rng.gen_range(0..self.total);
        for k in Kind::ALL {
            let c = self.count(i, k);
            if r < c {
                let mut w = self.world;
                w.0[i] = KindSet::single(k);
                return Some((k, Diagram::build(&w).domains()));
            }
            r -= c;
        }
        None
    }
}

/// Depth-first iterator over the worlds of a [`Diagram`].
pub struct WorldIter<'a> {
    d: &'a Diagram,
    /// (state, next kind index to try) per level on the current path.
    stack: Vec<(usize, usize)>,
    path: [Kind; PIECES],
}

impl Iterator for WorldIter<'_> {
    type Item = [Kind; PIECES];
    fn next(&mut self) -> Option<[Kind; PIECES]> {
        loop {
            let depth = self.stack.len();
            if depth == 0 {
                return None;
            }
            if depth == PIECES + 1 {
                self.stack.pop();
                return Some(self.path);
            }
            let i = depth - 1;
            let (s, k) = self.stack[i];
            if k == 8 {
                self.stack.pop();
                continue;
            }
            self.stack[i].1 = k + 1;
            if self.d.world.0[i].0 >> k & 1 != 0
                && left(s, k) > 0
                && self.d.down_of(i + 1, s - STRIDE[k]) > 0
            {
                self.path[i] = Kind::ALL[k];
                self.stack.push((s - STRIDE[k], 0));
            }
        }
    }
}

/// [`Diagram`] as a [`Convergence`] engine.
#[derive(Debug, Clone, Copy, Default)]
pub struct DiagramEngine;

impl Convergence for DiagramEngine {
    fn name(&self) -> &'static str {
        "enumeration"
    }

    fn feasible(&self, w: &World) -> bool {
        Diagram::build(w).total() > 0
    }

    fn converge(&self, w: &World) -> Result<Converged, Contradiction> {
        let d = Diagram::build(w);
        if d.total() == 0 {
            return Err(Contradiction {
                conflict: minimize_conflict(w, (1 << PIECES) - 1, |x| self.feasible(x)),
            });
        }
        Ok(Converged::new(w, d.domains()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn untouched_world_count_is_the_multinomial() {
        let d = Diagram::build(&World::UNOBSERVED);
        // 20! / (9! · 2!^4) = 419 026 608 000
        assert_eq!(d.total(), 419_026_608_000);
        assert!(d.level_sizes().iter().all(|&n| n <= STATES));
        // Each piece is a pawn with probability 9/20.
        assert_eq!(d.probability(7, Kind::Pawn), Ratio::new(9, 20));
        assert_eq!(d.probability(0, Kind::King), Ratio::new(1, 20));
    }

    #[test]
    fn iterator_and_counts_agree_with_brute_force() {
        let w: World = "KR KR BG GS GS SN NL NL LP P P P P P P P P P P *"
            .parse()
            .unwrap();
        let d = Diagram::build(&w);
        let b = super::super::brute::count(&w, 1_000_000).unwrap();
        assert_eq!(d.total(), b.total);
        assert_eq!(d.counts(), &b.per_kind);
        let all: Vec<_> = d.iter().collect();
        assert_eq!(all.len() as u128, d.total());
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), all.len());
    }
}

/// A human-readable table of a diagram: the number of worlds and, per piece,
/// its domain and the exact probability of each kind (`·` for zero).
pub fn render_table(d: &Diagram) -> String {
    use std::fmt::Write;
    let mut s = format!("worlds: {}\n", d.total());
    let _ = write!(s, "{:>5} {:<9}", "piece", "domain");
    for k in Kind::ALL {
        let _ = write!(s, " {:>12}", format!("{}{}", k.letter(), k.kanji()));
    }
    s.push('\n');
    for i in 0..PIECES {
        let _ = write!(s, "{:>5} {:<9}", i, d.world.0[i].to_string());
        for k in Kind::ALL {
            let cell = match d.probability(i, k) {
                Some(r) if r != Ratio::ZERO => r.to_string(),
                _ => "·".to_string(),
            };
            let _ = write!(s, " {:>12}", cell);
        }
        s.push('\n');
    }
    s
}

/// `n! / ∏ rem_k!` over the capacity vector `state` whose entries sum to `n`:
/// the ways to give `n` unobserved pieces exactly the remaining copies.
fn multinomial(state: usize, n: usize) -> u128 {
    const FACT: [u128; 21] = {
        let mut f = [1u128; 21];
        let mut i = 1;
        while i < 21 {
            f[i] = f[i - 1] * i as u128;
            i += 1;
        }
        f
    };
    let mut d = 1u128;
    for k in 0..8 {
        d *= FACT[left(state, k)];
    }
    FACT[n] / d
}

/// Exact world count and per-piece per-kind counts, like [`Diagram::build`]
/// but faster: the diagram covers only the observed pieces; the `m`
/// unobserved pieces (all 8 kinds) are closed-form — from a capacity vector
/// `r` with `Σr = m` they can be completed in `m!/∏ r_k!` ways, and one of
/// them is `k` in `(m−1)!/∏ (r − e_k)!` of those. Tested against the full diagram.
pub fn marginals(w: &World) -> (u128, [[u128; 8]; PIECES]) {
    thread_local! {
        // Two dense per-state arrays, all zero between calls (each call clears what it set).
        static SCRATCH: std::cell::RefCell<(Vec<u128>, Vec<u128>)> =
            std::cell::RefCell::new((vec![0; STATES], vec![0; STATES]));
    }
    SCRATCH.with(|cell| {
        let mut guard = cell.borrow_mut();
        let (acc, down_next) = &mut *guard;
        marginals_with(w, acc, down_next)
    })
}

fn marginals_with(
    w: &World,
    acc: &mut [u128],
    down_next: &mut [u128],
) -> (u128, [[u128; 8]; PIECES]) {
    let observed: Vec<usize> = (0..PIECES).filter(|&i| w.0[i] != KindSet::ALL).collect();
    let m = PIECES - observed.len();
    let mut levels: Vec<Vec<(u16, u128)>> = Vec::with_capacity(observed.len() + 1);
    levels.push(vec![(ROOT as u16, 1)]);
    let mut touched: Vec<u16> = Vec::new();
    for &i in &observed {
        let dom = w.0[i].0;
        for &(s, up) in levels.last().map(Vec::as_slice).unwrap_or(&[]) {
            let s = s as usize;
            for (k, &stride) in STRIDE.iter().enumerate() {
                if dom >> k & 1 != 0 && left(s, k) > 0 {
                    let c = s - stride;
                    if acc[c] == 0 {
                        touched.push(c as u16);
                    }
                    acc[c] += up;
                }
            }
        }
        let next = touched
            .iter()
            .map(|&c| (c, std::mem::take(&mut acc[c as usize])))
            .collect();
        touched.clear();
        levels.push(next);
    }
    let mut counts = [[0u128; 8]; PIECES];
    // Boundary: the unobserved tail.
    let mut tail_counts = [0u128; 8];
    for &(s, up) in levels.last().map(Vec::as_slice).unwrap_or(&[]) {
        let s = s as usize;
        down_next[s] = multinomial(s, m);
        if m > 0 {
            for (k, t) in tail_counts.iter_mut().enumerate() {
                if left(s, k) > 0 {
                    *t += up * multinomial(s - STRIDE[k], m - 1);
                }
            }
        }
    }
    for i in 0..PIECES {
        if w.0[i] == KindSet::ALL {
            counts[i] = tail_counts;
        }
    }
    for (li, &i) in observed.iter().enumerate().rev() {
        let dom = w.0[i].0;
        let mut downs = Vec::with_capacity(levels[li].len());
        for &(s, up) in &levels[li] {
            let s = s as usize;
            let mut d = 0u128;
            for (k, &stride) in STRIDE.iter().enumerate() {
                if dom >> k & 1 != 0 && left(s, k) > 0 {
                    let c = down_next[s - stride];
                    d += c;
                    counts[i][k] += up * c;
                }
            }
            downs.push(d);
        }
        for &(s, _) in &levels[li + 1] {
            down_next[s as usize] = 0;
        }
        for (&(s, _), d) in levels[li].iter().zip(downs) {
            down_next[s as usize] = d;
        }
    }
    let total = std::mem::take(&mut down_next[ROOT]);
    (total, counts)
}

/// [`marginals`] as a [`Convergence`] engine (the fast twin of [`DiagramEngine`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct TailEngine;

impl Convergence for TailEngine {
    fn name(&self) -> &'static str {
        "enumeration-tail"
    }

    fn feasible(&self, w: &World) -> bool {
        marginals(w).0 > 0
    }

    fn converge(&self, w: &World) -> Result<Converged, Contradiction> {
        let (total, counts) = marginals(w);
        if total == 0 {
            return Err(Contradiction {
                conflict: minimize_conflict(w, (1 << PIECES) - 1, |x| self.feasible(x)),
            });
        }
        let mut out = World([KindSet::EMPTY; PIECES]);
        for (i, row) in counts.iter().enumerate() {
            out.0[i] = KindSet((0..8).filter(|&k| row[k] > 0).fold(0, |a, k| a | 1 << k));
        }
        Ok(Converged::new(w, out))
    }
}
