//! The pawn/stone feasibility test of seed `003_88f5bd36583eaf31.txt`
//! (劣化駒): can `pawns` pawns and `stones` stones (pieces without attacks)
//! still be added to a board whose occupied squares are `occ` and whose
//! attacked-but-empty squares are `att`?
//!
//! The free squares of each file split into vertical *runs*. A run's top is
//! *soft* if the square above it is rank 0 (off the board) or attacked (a
//! Sente pawn on the top square then attacks nothing that matters), *hard* if
//! it is occupied; the same for its bottom and Gote pawns. Pawns only attack
//! within their file, so runs are independent; [`RUN_TABLE`] holds, for each
//! run shape, the least number of free squares that `k` pawns use up (the
//! pawn squares and the empty squares they attack), found by brute force over
//! every filling of the run. Every entry has the form
//! `cost(k) = k` for `k ≤ a` and `k + extra(k − a)` up to a maximum `K`,
//! with `extra(x) = x` (one direction) or `⌈x/2⌉` (two directions: the
//! △歩 空 ▲歩 triple shares one attacked square) — a test checks this for
//! every entry. Summing over runs, the least total cost for `n` pawns has a
//! closed form ([`min_cost_one`], [`min_cost_two`]; checked against a knapsack
//! over the run costs), and the pawns and stones fit iff that cost plus
//! `stones` is at most the number of free squares. [`brute_feasible`] checks
//! the whole test against exhaustive search on boards with few free squares.

use std::sync::LazyLock;

/// Pawn directions allowed: Sente only, or either.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Directions {
    /// Every piece is Sente (単方向).
    One,
    /// Each piece is Sente or Gote (双方向).
    Two,
}

/// A run's cost table entry: at most `max` pawns fit; the first `free`
/// pawns cost one square each; `cost[k]` is the least squares used by `k`
/// pawns (`u8::MAX` when `k > max`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunCost {
    /// The most pawns that fit (`K`).
    pub max: u8,
    /// Pawns that attack no free square of the run (`a`).
    pub free: u8,
    /// Least squares used by `k` pawns, `k = 0..=9`.
    pub cost: [u8; 10],
}

/// Brute-force cost of one run of `len` free squares (top = index 0).
pub fn run_cost_brute(dirs: Directions, len: usize, top_soft: bool, bottom_soft: bool) -> RunCost {
    let mut cost = [u8::MAX; 10];
    // 0 = empty, 1 = Sente pawn (attacks i−1), 2 = Gote pawn (attacks i+1).
    let kinds = if dirs == Directions::One { 2u32 } else { 3u32 };
    for code in 0..kinds.pow(len as u32) {
        let mut cells = [0u8; 9];
        let mut c = code;
        for cell in cells.iter_mut().take(len) {
            *cell = (c % kinds) as u8;
            c /= kinds;
        }
        let mut ok = true;
        let mut attacked = [false; 9];
        for i in 0..len {
            match cells[i] {
                1 => {
                    if i == 0 {
                        ok &= top_soft;
                    } else {
                        ok &= cells[i - 1] == 0;
                        attacked[i - 1] = true;
                    }
                }
                2 => {
                    if i + 1 == len {
                        ok &= bottom_soft;
                    } else {
                        ok &= cells[i + 1] == 0;
                        attacked[i + 1] = true;
                    }
                }
                _ => {}
            }
        }
        if !ok {
            continue;
        }
        let pawns = cells[..len].iter().filter(|&&x| x != 0).count();
        let killed = (0..len).filter(|&i| cells[i] == 0 && attacked[i]).count();
        let c = &mut cost[pawns];
        *c = (*c).min((pawns + killed) as u8);
    }
    let max = (0..10).rev().find(|&k| cost[k] != u8::MAX).unwrap_or(0) as u8;
    let free = (0..=max as usize)
        .take_while(|&k| cost[k] == k as u8)
        .last()
        .unwrap_or(0) as u8;
    RunCost { max, free, cost }
}

/// `RUN_TABLE[dirs][len][top_soft][bottom_soft]`, by [`run_cost_brute`].
pub static RUN_TABLE: LazyLock<[[[[RunCost; 2]; 2]; 10]; 2]> = LazyLock::new(|| {
    let mut t = [[[[RunCost {
        max: 0,
        free: 0,
        cost: [0; 10],
    }; 2]; 2]; 10]; 2];
    for (d, dirs) in [Directions::One, Directions::Two].into_iter().enumerate() {
        for (len, row) in t[d].iter_mut().enumerate() {
            for (ts, col) in row.iter_mut().enumerate() {
                for (bs, e) in col.iter_mut().enumerate() {
                    *e = run_cost_brute(dirs, len, ts == 1, bs == 1);
                }
            }
        }
    }
    t
});

/// The runs of a board, summarised for the closed forms.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RunSummary {
    /// Free squares.
    pub free_squares: u32,
    /// Σ K (most pawns).
    pub max_pawns: u32,
    /// Σ a (pawns costing one square).
    pub cheap: u32,
    /// Σ 2⌊(K − a)/2⌋.
    pub even_extra: u32,
    /// #runs with K − a odd.
    pub odd_extra: u32,
}

const FILE_MASK: u128 = 0x1ff;

/// Scans the runs of free squares (`!occ & !att`) file by file: the slow
/// twin of [`summarize`], which looks each file up in [`FILE_TABLE`].
pub fn summarize_scan(dirs: Directions, occ: u128, att: u128) -> RunSummary {
    let free_all = !(occ | att) & ((1u128 << 81) - 1);
    let mut s = RunSummary {
        free_squares: free_all.count_ones(),
        ..RunSummary::default()
    };
    for f in 0..9 {
        let free = ((free_all >> (9 * f)) & FILE_MASK) as u32;
        let att9 = ((att >> (9 * f)) & FILE_MASK) as u32;
        let t = scan_file(dirs, free, att9);
        s.max_pawns += t & 0xff;
        s.cheap += t >> 8 & 0xff;
        s.even_extra += t >> 16 & 0xff;
        s.odd_extra += t >> 24;
    }
    s
}

/// One file: packed `max | cheap << 8 | even_extra << 16 | odd_extra << 24`.
fn scan_file(dirs: Directions, mut free: u32, att9: u32) -> u32 {
    let table = &RUN_TABLE[dirs as usize];
    let (mut max, mut cheap, mut even, mut odd) = (0u32, 0u32, 0u32, 0u32);
    while free != 0 {
        let top = free.trailing_zeros();
        let len = (!(free >> top)).trailing_zeros();
        let bottom = top + len - 1;
        let top_soft = top == 0 || att9 >> (top - 1) & 1 == 1;
        let bottom_soft = bottom == 8 || att9 >> (bottom + 1) & 1 == 1;
        let e = &table[len as usize][top_soft as usize][bottom_soft as usize];
        max += e.max as u32;
        cheap += e.free as u32;
        let x = (e.max - e.free) as u32;
        even += x & !1;
        odd += x & 1;
        free &= !(((1u32 << len) - 1) << top);
    }
    max | cheap << 8 | even << 16 | odd << 24
}

/// `FILE_TABLE[dirs][free9 | att9 << 9]`: `scan_file` for every file pattern.
pub static FILE_TABLE: LazyLock<[Vec<u32>; 2]> = LazyLock::new(|| {
    let build = |dirs| {
        (0..1u32 << 18)
            .map(|key| scan_file(dirs, key & 0x1ff & !(key >> 9), key >> 9))
            .collect()
    };
    [build(Directions::One), build(Directions::Two)]
});

/// The runs of the free squares (`!occ & !att`), summarised.
#[inline]
pub fn summarize(dirs: Directions, occ: u128, att: u128) -> RunSummary {
    let table = &FILE_TABLE[dirs as usize];
    let free_all = !(occ | att) & ((1u128 << 81) - 1);
    let mut packed = 0u32;
    for f in 0..9 {
        let free = ((free_all >> (9 * f)) & FILE_MASK) as usize;
        let att9 = ((att >> (9 * f)) & FILE_MASK) as usize;
        // Each field stays below 256: at most 9 per file.
        packed += table[free | att9 << 9];
    }
    RunSummary {
        free_squares: free_all.count_ones(),
        max_pawns: packed & 0xff,
        cheap: packed >> 8 & 0xff,
        even_extra: packed >> 16 & 0xff,
        odd_extra: packed >> 24,
    }
}

/// Least squares used by `n` Sente pawns, or `None` if they do not fit.
#[inline]
pub fn min_cost_one(s: &RunSummary, n: u32) -> Option<u32> {
    (n <= s.max_pawns).then(|| n + n.saturating_sub(s.cheap))
}

/// Least squares used by `n` pawns of either color, or `None` if they do not fit.
#[inline]
pub fn min_cost_two(s: &RunSummary, n: u32) -> Option<u32> {
    if n > s.max_pawns {
        return None;
    }
    if n <= s.cheap {
        return Some(n);
    }
    let r = n - s.cheap;
    // r extra pawns over runs with capacities X_i cost Σ⌈x_i/2⌉ = (r + #odd x_i)/2;
    // the fewest odd x_i is max(r mod 2, r − Σ 2⌊X_i/2⌋).
    let odd = (r & 1).max(r.saturating_sub(s.even_extra));
    Some(n + (r + odd) / 2)
}

/// Whether `pawns` pawns and `stones` stones can be added without any piece
/// standing on an attacked square (`occ`: occupied, `att`: attacked and empty;
/// the two must be disjoint). Exact (see the module docs).
#[inline]
pub fn feasible(dirs: Directions, occ: u128, att: u128, pawns: u32, stones: u32) -> bool {
    let s = summarize(dirs, occ, att);
    let cost = match dirs {
        Directions::One => min_cost_one(&s, pawns),
        Directions::Two => min_cost_two(&s, pawns),
    };
    cost.is_some_and(|c| c + stones <= s.free_squares)
}

/// The slow twin of [`feasible`]: tries every way to put the pawns and
/// stones on the free squares. Exponential; for boards with ≲ 12 free squares.
pub fn brute_feasible(dirs: Directions, occ: u128, att: u128, pawns: u32, stones: u32) -> bool {
    let free: Vec<usize> = (0..81).filter(|&i| (occ | att) >> i & 1 == 0).collect();
    // Piece codes: 1 stone, 2 Sente pawn, 3 Gote pawn.
    fn go(
        dirs: Directions,
        occ: u128,
        free: &[usize],
        i: usize,
        cells: &mut [u8; 81],
        p: u32,
        s: u32,
    ) -> bool {
        if p == 0 && s == 0 {
            // Check every new pawn: the square it attacks holds no piece.
            return (0..81).all(|sq| {
                let (file, rank) = (sq / 9, sq % 9);
                let target = match cells[sq] {
                    2 if rank > 0 => Some(file * 9 + rank - 1),
                    3 if rank < 8 => Some(file * 9 + rank + 1),
                    _ => None,
                };
                target.map_or(true, |t| occ >> t & 1 == 0 && cells[t] == 0)
            });
        }
        if free.len() - i < (p + s) as usize {
            return false;
        }
        let sq = free[i];
        if go(dirs, occ, free, i + 1, cells, p, s) {
            return true;
        }
        let mut options = vec![];
        if s > 0 {
            options.push(1);
        }
        if p > 0 {
            options.push(2);
            if dirs == Directions::Two {
                options.push(3);
            }
        }
        for o in options {
            cells[sq] = o;
            let (p2, s2) = if o == 1 { (p, s - 1) } else { (p - 1, s) };
            let found = go(dirs, occ, free, i + 1, cells, p2, s2);
            cells[sq] = 0;
            if found {
                return true;
            }
        }
        false
    }
    go(dirs, occ, &free, 0, &mut [0u8; 81], pawns, stones)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    #[test]
    fn every_run_cost_has_the_closed_form() {
        for (d, dirs) in [Directions::One, Directions::Two].into_iter().enumerate() {
            for len in 0..10 {
                for ts in 0..2 {
                    for bs in 0..2 {
                        let e = RUN_TABLE[d][len][ts][bs];
                        for k in 0..10u8 {
                            let want = if k > e.max {
                                u8::MAX
                            } else if k <= e.free {
                                k
                            } else {
                                let x = k - e.free;
                                k + if dirs == Directions::One {
                                    x
                                } else {
                                    x.div_ceil(2)
                                }
                            };
                            assert_eq!(
                                e.cost[k as usize], want,
                                "{dirs:?} len {len} top {ts} bottom {bs} k {k}: {e:?}"
                            );
                        }
                    }
                }
            }
        }
        // Spot values from the seed: a soft-topped column of 9 holds 5 Sente pawns.
        assert_eq!(RUN_TABLE[0][9][1][1].max, 5);
        // Facing pawns (▲△ 空 ▲△ …) hold more in two directions.
        assert_eq!(RUN_TABLE[1][9][1][1].max, 6); // ▲△ 空 ▲△ 空 ▲ 空 △
        assert_eq!(RUN_TABLE[1][3][0][0].cost[2], 3);
    }

    /// Least total cost by a knapsack over the runs: the slow twin of the closed forms.
    fn knapsack(runs: &[RunCost], n: usize) -> Option<u32> {
        let mut best = vec![None::<u32>; n + 1];
        best[0] = Some(0);
        for r in runs {
            let mut next = vec![None::<u32>; n + 1];
            for (have, b) in best.iter().enumerate() {
                let Some(b) = b else { continue };
                for k in 0..=(r.max as usize).min(n - have) {
                    let c = b + r.cost[k] as u32;
                    let slot = &mut next[have + k];
                    *slot = Some(slot.map_or(c, |x: u32| x.min(c)));
                }
            }
            best = next;
        }
        best[n]
    }

    #[test]
    fn closed_forms_match_knapsack_on_random_run_sets() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(6);
        for _ in 0..20_000 {
            let dirs = if rng.gen() {
                Directions::One
            } else {
                Directions::Two
            };
            let nruns = rng.gen_range(0..12);
            let mut s = RunSummary::default();
            let mut runs = vec![];
            for _ in 0..nruns {
                let e = RUN_TABLE[dirs as usize][rng.gen_range(1..10)][rng.gen_range(0..2)]
                    [rng.gen_range(0..2)];
                s.max_pawns += e.max as u32;
                s.cheap += e.free as u32;
                s.even_extra += ((e.max - e.free) & !1) as u32;
                s.odd_extra += ((e.max - e.free) & 1) as u32;
                runs.push(e);
            }
            for n in 0..=s.max_pawns as usize + 2 {
                let fast = match dirs {
                    Directions::One => min_cost_one(&s, n as u32),
                    Directions::Two => min_cost_two(&s, n as u32),
                };
                assert_eq!(fast, knapsack(&runs, n), "{dirs:?} n={n} runs={runs:?}");
            }
        }
    }

    #[test]
    fn file_table_matches_scan_on_random_boards() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
        for _ in 0..20_000 {
            let (mut occ, mut att) = (0u128, 0u128);
            for i in 0..81 {
                match rng.gen_range(0..3) {
                    0 => occ |= 1u128 << i,
                    1 => att |= 1u128 << i,
                    _ => {}
                }
            }
            for dirs in [Directions::One, Directions::Two] {
                assert_eq!(summarize(dirs, occ, att), summarize_scan(dirs, occ, att));
            }
        }
    }

    #[test]
    fn feasible_matches_brute_force_on_random_sparse_boards() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        for _ in 0..3000 {
            // Few free squares, the rest occupied or attacked at random.
            let nfree = rng.gen_range(0..11);
            let mut free = 0u128;
            if rng.gen() {
                // Long vertical runs: segments of one or two files.
                while free.count_ones() < nfree {
                    let (file, top) = (rng.gen_range(0..9u32), rng.gen_range(0..9u32));
                    let len = rng.gen_range(1..=9 - top).min(nfree - free.count_ones());
                    free |= ((1u128 << len) - 1) << (9 * file + top);
                }
            } else {
                while free.count_ones() < nfree {
                    free |= 1u128 << rng.gen_range(0..81);
                }
            }
            let mut occ = 0u128;
            for i in 0..81 {
                if free >> i & 1 == 0 && rng.gen_bool(0.4) {
                    occ |= 1u128 << i;
                }
            }
            let att = !(free | occ) & ((1u128 << 81) - 1);
            for dirs in [Directions::One, Directions::Two] {
                for p in 0..=nfree.min(7) {
                    for s in 0..=(nfree - p).min(4) {
                        assert_eq!(
                            feasible(dirs, occ, att, p, s),
                            brute_feasible(dirs, occ, att, p, s),
                            "{dirs:?} p={p} s={s} free={free:#x} occ={occ:#x}"
                        );
                    }
                }
            }
        }
    }
}
