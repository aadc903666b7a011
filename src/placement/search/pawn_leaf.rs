//! The closed-form pawn leaf of the one-directional count: the placements of the
//! last pawns on the free squares, counted run by run instead of searched.

use crate::rules::Bitboard;

/// Ways to choose `k` of `n` squares in a row with no two adjacent: C(n − k + 1, k).
fn non_adjacent(n: usize, k: usize) -> u64 {
    match k {
        0 => 1,
        k if k > n => 0,
        k => binomial((n + 1 - k) as u64, k as u64),
    }
}

fn binomial(n: u64, k: u64) -> u64 {
    if k > n {
        return 0;
    }
    (0..k).fold(1u64, |acc, i| acc * (n - i) / (i + 1))
}

/// Placements of `n` Sente pawns on the free squares (`!occ & !att`): a pawn
/// attacks the square above it, so in each vertical run of free squares the
/// pawns are pairwise non-adjacent, and the run's top square is unusable when
/// the square above it is occupied. Returns (all, mirror-symmetric), the
/// latter counted only when `board_symmetric` (the board so far is its own
/// mirror image on its `files` files): pairs of mirrored files count once (x → x²), the middle file (odd `files`) as is.
pub(super) fn pawn_completions(
    occ: u128,
    att: u128,
    n: usize,
    board_symmetric: bool,
    files: u8,
) -> (u64, u64) {
    let files = files as usize;
    let free_all = !(occ | att) & Bitboard::FULL.0;
    // At most 81 pawns fit on the board: fixed buffers, no allocation per leaf.
    let len = (n + 1).min(82);
    if n > 81 {
        return (0, 0);
    }
    let mut all = [0u64; 82];
    all[0] = 1;
    let mut sym = all;
    for f in 0..9 {
        let mut free = ((free_all >> (9 * f)) & 0x1ff) as u32;
        let occ9 = ((occ >> (9 * f)) & 0x1ff) as u32;
        while free != 0 {
            let top = free.trailing_zeros();
            let run = (!(free >> top)).trailing_zeros() as usize;
            let hard_top = top > 0 && occ9 >> (top - 1) & 1 == 1;
            let usable = run - usize::from(hard_top);
            let w = &NON_ADJACENT[usable][..=usable.div_ceil(2)];
            multiply(&mut all[..len], w, 1);
            if board_symmetric && 2 * f + 1 < files {
                multiply(&mut sym[..len], w, 2);
            } else if board_symmetric && 2 * f + 1 == files {
                multiply(&mut sym[..len], w, 1);
            }
            free &= !(((1u32 << run) - 1) << top);
        }
    }
    (all[n], if board_symmetric { sym[n] } else { 0 })
}

/// `NON_ADJACENT[m][k]` = [`non_adjacent`]`(m, k)` for runs of up to 9 squares.
static NON_ADJACENT: std::sync::LazyLock<[[u64; 10]; 10]> = std::sync::LazyLock::new(|| {
    let mut t = [[0u64; 10]; 10];
    for (m, row) in t.iter_mut().enumerate() {
        for (k, e) in row.iter_mut().enumerate() {
            *e = non_adjacent(m, k);
        }
    }
    t
});

/// `acc ← acc · Σ w[k] x^(stride·k)`, truncated at the length of `acc`.
fn multiply(acc: &mut [u64], w: &[u64], stride: usize) {
    let mut buf = [0u64; 82];
    let out = &mut buf[..acc.len()];
    for (i, &a) in acc.iter().enumerate() {
        if a == 0 {
            continue;
        }
        for (k, &wk) in w.iter().enumerate() {
            let j = i + stride * k;
            if j >= acc.len() {
                break;
            }
            // Saturating: a count past 2^64 − 1 stays there (`Count::overflowed`).
            out[j] = out[j].saturating_add(a.saturating_mul(wk));
        }
    }
    acc.copy_from_slice(out);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn non_adjacent_counts_small_rows() {
        // Brute force over subsets of a row of n.
        for n in 0..=9usize {
            for k in 0..=9usize {
                let brute = (0u32..1 << n)
                    .filter(|m| m.count_ones() as usize == k && m & (m >> 1) == 0)
                    .count() as u64;
                assert_eq!(non_adjacent(n, k), brute, "n={n} k={k}");
            }
        }
    }
}
