//! Counting engines: exhausted kind sets (使い切り) and the 相見合い peel of
//! seed `000_f094134babe25b9a.txt`.
//!
//! For a kind set `C` let `n(C)` be the number of pieces whose domain is a
//! subset of `C`, and `cap(C)` its number of copies. By Hall's theorem (the 20
//! pieces against the 20 kind copies) an assignment exists iff `n(C) ≤ cap(C)`
//! for every `C`. If so, piece `i` can be `k` iff no *tight* set `C`
//! (`n(C) = cap(C)`) has `k ∈ C` while `dom(i) ⊄ C`: fixing `i` to `k` raises
//! `n(C)` by one exactly for those sets. So one pass over the tight sets is
//! exact; no iteration is needed.

use super::{minimize_conflict, Contradiction, Converged, Convergence, KindSet, World, PIECES};

/// The 255 kind-subset pass: `n(C)` for all 256 sets by a subset-sum (zeta)
/// transform, then every tight set is removed from the pieces not inside it.
#[derive(Debug, Clone, Copy, Default)]
pub struct SubsetPass;

/// `n(C)` for every kind set `C`.
fn subset_counts(w: &World) -> [u8; 256] {
    let mut n = [0u8; 256];
    for d in w.0 {
        n[d.0 as usize] += 1;
    }
    for bit in 0..8 {
        let b = 1usize << bit;
        for base in (0..256).step_by(2 * b) {
            for c in base + b..base + 2 * b {
                n[c] += n[c - b];
            }
        }
    }
    n
}

/// `cap(C)` for every kind set, as `u8`.
const CAP: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        t[c] = KindSet(c as u8).capacity() as u8;
        c += 1;
    }
    t
};

/// Pieces (as a bit mask) whose domain is inside `c`.
fn pieces_inside(w: &World, c: KindSet) -> u32 {
    (0..PIECES)
        .filter(|&i| w.0[i].is_subset(c))
        .fold(0, |m, i| m | 1 << i)
}

impl SubsetPass {
    /// The over-full kind set with the fewest pieces inside, if any.
    fn violation(n: &[u8; 256]) -> Option<KindSet> {
        if (0..256).all(|c| n[c] <= CAP[c]) {
            return None;
        }
        (0..256usize)
            .filter(|&c| n[c] > CAP[c])
            .min_by_key(|&c| (n[c], c))
            .map(|c| KindSet(c as u8))
    }
}

impl Convergence for SubsetPass {
    fn name(&self) -> &'static str {
        "counting"
    }

    fn feasible(&self, w: &World) -> bool {
        Self::violation(&subset_counts(w)).is_none()
    }

    fn converge(&self, w: &World) -> Result<Converged, Contradiction> {
        let n = subset_counts(w);
        if let Some(c) = Self::violation(&n) {
            let start = pieces_inside(w, c);
            return Err(Contradiction {
                conflict: minimize_conflict(w, start, |x| self.feasible(x)),
            });
        }
        // Tight sets, skipping C = ALL (always tight with 20 pieces, removes nothing) and C = ∅.
        let mut tight = [0u8; 254];
        let mut nt = 0;
        for c in 1..255usize {
            if n[c] == CAP[c] {
                tight[nt] = c as u8;
                nt += 1;
            }
        }
        // Pieces with equal domains lose the same kinds: work per distinct domain.
        let mut doms = [0u8; PIECES];
        let mut lost = [0u8; PIECES];
        let mut nd = 0;
        let mut out = *w;
        for (i, d) in w.0.iter().enumerate() {
            let j = match doms[..nd].iter().position(|&x| x == d.0) {
                Some(j) => j,
                None => {
                    doms[nd] = d.0;
                    let mut l = 0u8;
                    for &c in &tight[..nt] {
                        if d.0 & !c != 0 {
                            l |= c;
                        }
                    }
                    lost[nd] = l;
                    nd += 1;
                    nd - 1
                }
            };
            out.0[i] = KindSet(d.0 & !lost[j]);
        }
        Ok(Converged::new(w, out))
    }
}

/// The shogitter 相見合い peel (seed `000_…`, steps 1–4): group pieces by
/// domain ("classes", skipping never-observed pieces), find the tight groups
/// among unions of classes (step 1-2), then repeatedly take an
/// inclusion-minimal tight group, fix its pieces to its kinds and remove its
/// kinds and pieces from the remaining groups (step 3, `compactAimiai`);
/// pieces in no group lose every used-up kind (step 4).
///
/// The seed enumerates all `2^m` subsets of the `m` classes; for a given union
/// `C` the subset with the most pieces is "every class inside `C`", so we
/// enumerate the distinct unions instead (at most 256, as the seed's
/// 高速化 section suggests), with the same verdicts. Every tight set is a
/// union of classes, so no group is missed. Groups need not be nested
/// (`{R}`, `{B,R}`, `{R,K}`), hence *minimal*, not *minimum*.
#[derive(Debug, Clone, Copy, Default)]
pub struct Peel;

#[derive(Debug, Clone, Copy)]
struct Group {
    kinds: KindSet,
    pieces: u32,
}

impl Peel {
    /// Tight groups, or the over-full group with the fewest pieces.
    fn groups(w: &World) -> Result<Vec<Group>, Group> {
        let mut classes: Vec<(KindSet, u32)> = Vec::new();
        for (i, &d) in w.0.iter().enumerate() {
            if d == KindSet::ALL {
                continue;
            }
            match classes.iter_mut().find(|(c, _)| *c == d) {
                Some((_, m)) => *m |= 1 << i,
                None => classes.push((d, 1 << i)),
            }
        }
        let mut seen = [false; 256];
        let mut unions: Vec<u8> = Vec::new();
        for &(d, _) in &classes {
            let before = unions.len();
            for j in 0..before {
                let u = unions[j] | d.0;
                if !seen[u as usize] {
                    seen[u as usize] = true;
                    unions.push(u);
                }
            }
            if !seen[d.0 as usize] {
                seen[d.0 as usize] = true;
                unions.push(d.0);
            }
        }
        let mut tight = Vec::new();
        let mut worst: Option<Group> = None;
        for u in unions {
            let kinds = KindSet(u);
            let pieces = classes
                .iter()
                .filter(|(c, _)| c.is_subset(kinds))
                .fold(0, |m, (_, p)| m | p);
            let count = pieces.count_ones();
            if count > kinds.capacity() {
                if worst.map_or(true, |g| count < g.pieces.count_ones()) {
                    worst = Some(Group { kinds, pieces });
                }
            } else if count == kinds.capacity() {
                tight.push(Group { kinds, pieces });
            }
        }
        match worst {
            Some(g) => Err(g),
            None => Ok(tight),
        }
    }
}

impl Convergence for Peel {
    fn name(&self) -> &'static str {
        "peel"
    }

    fn feasible(&self, w: &World) -> bool {
        Self::groups(w).is_ok()
    }

    fn converge(&self, w: &World) -> Result<Converged, Contradiction> {
        let mut groups = match Self::groups(w) {
            Ok(g) => g,
            Err(g) => {
                return Err(Contradiction {
                    conflict: minimize_conflict(w, g.pieces, |x| self.feasible(x)),
                })
            }
        };
        let full = groups.iter().fold(KindSet::EMPTY, |a, g| a.or(g.kinds));
        let mut fixed: [Option<KindSet>; PIECES] = [None; PIECES];
        groups.retain(|g| !g.kinds.is_empty());
        while !groups.is_empty() {
            // An inclusion-minimal group: no other group's kinds are a proper subset of it.
            let at = groups
                .iter()
                .position(|g| {
                    groups
                        .iter()
                        .all(|h| h.kinds == g.kinds || !h.kinds.is_subset(g.kinds))
                })
                .unwrap_or(0);
            let found = groups.swap_remove(at);
            for (i, f) in fixed.iter_mut().enumerate() {
                if found.pieces >> i & 1 != 0 {
                    *f = Some(found.kinds);
                }
            }
            for g in &mut groups {
                g.kinds = g.kinds.minus(found.kinds);
                g.pieces &= !found.pieces;
            }
            groups.retain(|g| !g.kinds.is_empty());
        }
        let mut out = *w;
        for i in 0..PIECES {
            out.0[i] = match fixed[i] {
                Some(k) => w.0[i].and(k),
                None => w.0[i].minus(full),
            };
        }
        Ok(Converged::new(w, out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zeta_counts_match_naive() {
        let w: World = "RL RL R S SB SB GS GS P - KP".parse().unwrap();
        let n = subset_counts(&w);
        for c in 0..256usize {
            assert_eq!(
                n[c] as u32,
                pieces_inside(&w, KindSet(c as u8)).count_ones(),
                "set {c}"
            );
        }
    }

    #[test]
    fn non_nested_groups_peel() {
        let w: World = "R BR RK".parse().unwrap();
        for e in [&SubsetPass as &dyn Convergence, &Peel] {
            let c = e.converge(&w).unwrap();
            assert_eq!(
                c.world.0[..3],
                [KindSet(2), KindSet(4), KindSet(1)],
                "{}",
                e.name()
            );
        }
    }
}
