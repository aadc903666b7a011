//! The dynamic programme under one long-range layout: the short-range pieces
//! counted cell by cell over a [`Grid`] (the state is described in [`super`]).

use super::budget::{Budget, Held, MAP_BYTES_PER_SLOT};
use super::grid::{Grid, AHEAD, BACK};
use super::layouts::Layout;
use super::short_kinds::ShortKinds;
use crate::placement::feasibility::{feasible, Directions};
use crate::rules::Square;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The state key: the occupancy window in the low [`BACK`] bits, then the
/// lookahead, the file bit and the count index.
const SHIFT_ATT: u32 = BACK;
const SHIFT_FILE: u32 = BACK + AHEAD;
const SHIFT_IDX: u32 = SHIFT_FILE + 1;
const BACK_MASK: u64 = (1u64 << BACK) - 1;
const AHEAD_MASK: u64 = (1u64 << AHEAD) - 1;
const ALL81: u128 = (1 << 81) - 1;

type Map = HashMap<u64, u128, BuildHasherDefault<MixHasher>>;

/// What one layout leaves of the grid: where each kind may stand, and the
/// per-cell masks the DP reads.
struct Open {
    /// Cells nothing may stand on: off the board, a long-range piece or its attack.
    blocked: Vec<bool>,
    /// Per kind, per cell: a free cell whose piece would attack no long-range
    /// piece (a 香: none in its file ahead).
    allowed: Vec<Vec<bool>>,
    /// See [`Grid::needed`].
    needed: Vec<Vec<u32>>,
    /// Lookahead bits of cells not blocked (attacks on blocked cells change nothing).
    usable_ahead: Vec<u32>,
    /// Pieces that still fit from cell i on: the free cells, weighted.
    capacity: Vec<u32>,
    /// Lookahead bits of cells that stand for two (folded).
    double_ahead: Vec<u32>,
    /// The blocked cells as a bitboard (for the pawn/stone test).
    blocked_bb: u128,
    /// The long-range pieces.
    lr_bb: u128,
    /// Per cell: a 香 may still stand below it in its file (the file bit matters).
    lance_below: Vec<bool>,
    /// The lances' bit in a set of kinds (0 without lances).
    lance_bit: u16,
}

impl Grid {
    /// Counts the short-range completions of a layout; also `(states expanded, peak states)`.
    /// `None` when its maps would pass the budget (or another thread passed it, or a stop
    /// request came).
    pub(super) fn count(
        &self,
        layout: &Layout,
        short: &ShortKinds,
        budget: &Budget<'_>,
    ) -> Option<(u128, (u64, u64))> {
        let n = self.cells;
        let nk = short.kinds.len();
        if nk == 0 {
            return Some((1, (0, 0)));
        }
        let mut held = Held { budget, bytes: 0 };
        let open = self.open(layout, nk);
        assert!(SHIFT_IDX + short.bits <= 64, "state key width");

        let mut cur: Map = Map::default();
        cur.insert(short.full_index() << SHIFT_IDX, 1);
        let mut next: Map = Map::default();
        let (mut expanded, mut peak) = (0u64, 0u64);
        let mut over = false;
        for i in 0..n {
            next.clear();
            let slots = (cur.capacity() + next.capacity()) as u64;
            if budget.ending() || !held.set(slots * MAP_BYTES_PER_SLOT) {
                return None;
            }
            expanded += cur.len() as u64;
            peak = peak.max(cur.len() as u64);
            let m = self.mult[i];
            let step = Step {
                grid: self,
                open: &open,
                short,
                i,
                swept: (1u128 << (i + 1)) - 1,
            };
            for (&key, &ways) in &cur {
                let occ = key & BACK_MASK;
                let att = (key >> SHIFT_ATT) & AHEAD_MASK;
                let idx = key >> SHIFT_IDX;
                let above = key >> SHIFT_FILE & 1 == 1;
                let attacked = att & 1 == 1;
                let mut push = |placed: Option<usize>, new_idx: u64| {
                    let Some(s) = step.successor(occ, att, above, placed, new_idx) else {
                        return;
                    };
                    if over {
                        return;
                    }
                    if next.len() == next.capacity() && !next.contains_key(&s.key) {
                        // The map is about to grow: the old table and one of twice its
                        // size are both alive while it rehashes.
                        let grown = cur.capacity() + 3 * next.capacity().max(4);
                        if !held.set(grown as u64 * MAP_BYTES_PER_SLOT) {
                            over = true;
                            return;
                        }
                    }
                    let slot = match next.entry(s.key) {
                        Entry::Occupied(mut o) => {
                            *o.get_mut() += ways;
                            return;
                        }
                        Entry::Vacant(v) => v,
                    };
                    // States merged under one key have the same completions, so a
                    // state cut here has none, and testing only the first state of
                    // a key loses nothing.
                    if step.fits_ahead(&s) {
                        slot.insert(ways);
                    }
                };
                push(None, idx);
                if attacked || open.blocked[i] {
                    continue;
                }
                for (j, allowed) in open.allowed.iter().enumerate() {
                    if !allowed[i] || short.left(idx, j) < m {
                        continue;
                    }
                    let b = self.back[j][i].expect("allowed");
                    if occ & u64::from(b) != 0 || (above && Some(j) == self.lance) {
                        continue;
                    }
                    push(Some(j), idx - u64::from(m) * short.stride[j]);
                }
            }
            if over {
                return None;
            }
            std::mem::swap(&mut cur, &mut next);
        }
        let done: u128 = cur
            .iter()
            .filter(|(&k, _)| k >> SHIFT_IDX == 0)
            .map(|(_, &w)| w)
            .sum();
        Some((done, (expanded, peak)))
    }

    /// The cells `layout` leaves open to the `nk` short kinds.
    fn open(&self, layout: &Layout, nk: usize) -> Open {
        let n = self.cells;
        let blocked: Vec<bool> = (0..n)
            .map(|i| {
                let s = Square::from_index_unchecked(i);
                !self.inside[i] || layout.occ.has(s) || layout.att.has(s)
            })
            .collect();
        let lr: Vec<bool> = (0..n)
            .map(|i| layout.occ.has(Square::from_index_unchecked(i)))
            .collect();
        // Where each kind may stand in this layout: a free square, attacking
        // no long-range piece (a 香: none in its file ahead).
        let allowed: Vec<Vec<bool>> = (0..nk)
            .map(|j| {
                (0..n)
                    .map(|i| {
                        !blocked[i]
                            && self.back[j][i].is_some()
                            && !self.targets[j][i].iter().any(|&t| lr[t])
                    })
                    .collect()
            })
            .collect();
        let needed = self.needed(&allowed, 1 << nk);
        // Attacks on blocked squares change nothing (they stay empty).
        let usable_ahead: Vec<u32> = (0..n)
            .map(|i| {
                (0..AHEAD as usize)
                    .filter(|d| i + d + 1 < n && !blocked[i + d + 1])
                    .fold(0u32, |m, d| m | 1 << d)
            })
            .collect();
        // Pieces that still fit from cell i on: the free cells, weighted.
        let mut capacity = vec![0u32; n + 1];
        for i in (0..n).rev() {
            capacity[i] = capacity[i + 1] + if blocked[i] { 0 } else { self.mult[i] };
        }
        let double_ahead: Vec<u32> = (0..n)
            .map(|i| {
                (0..AHEAD as usize)
                    .filter(|d| i + d + 1 < n && self.mult[i + d + 1] == 2)
                    .fold(0u32, |m, d| m | 1 << d)
            })
            .collect();
        // For the pawn/stone test (unfolded only): every cell, taken as empty
        // and attacked (nothing more goes there), blocked or not yet swept.
        let blocked_bb: u128 = (0..n).filter(|&i| blocked[i]).fold(0, |m, i| m | 1 << i);
        let lr_bb: u128 = layout.occ.0;

        // The file bit matters while a 香 may still stand below in this file.
        let lance_below: Vec<bool> = (0..n)
            .map(|i| {
                self.lance
                    .is_some_and(|j| (i + 1..(i / 9 + 1) * 9).any(|i2| allowed[j][i2]))
            })
            .collect();
        let lance_bit = self.lance.map_or(0u16, |j| 1 << j);
        Open {
            blocked,
            allowed,
            needed,
            usable_ahead,
            capacity,
            double_ahead,
            blocked_bb,
            lr_bb,
            lance_below,
            lance_bit,
        }
    }
}

/// One step of the sweep: cell `i`, with what its states' successors read.
struct Step<'a> {
    grid: &'a Grid,
    open: &'a Open,
    short: &'a ShortKinds,
    /// Its index.
    i: usize,
    /// The cells swept once it is: `0..=i`.
    swept: u128,
}

/// A state after the cell: its key and what the pawn/stone test reads.
struct Successor {
    key: u64,
    /// A piece stands on the cell.
    here: bool,
    /// The lookahead (bit d: d + 1 places after the cell).
    att: u64,
    /// Pieces left.
    left: u32,
    /// Their count index.
    idx: u64,
}

impl Step<'_> {
    /// The successor of the state `(occ, att, above)` with a piece of kind `placed`
    /// (or none) on the cell and `new_idx` left, reduced to what later cells can look
    /// at; `None` when the pieces left cannot fit on the free cells not yet attacked.
    #[inline]
    fn successor(
        &self,
        occ: u64,
        att: u64,
        above: bool,
        placed: Option<usize>,
        new_idx: u64,
    ) -> Option<Successor> {
        let (i, open) = (self.i, self.open);
        let mut occ2 = occ << 1;
        let mut att2 = att >> 1;
        if let Some(j) = placed {
            occ2 |= 1;
            att2 |= u64::from(self.grid.ahead[j][i]);
        }
        att2 &= u64::from(open.usable_ahead[i]);
        let left = self.short.total_of[new_idx as usize];
        // Prune: the pieces left must fit on the free cells not yet attacked.
        let lost = (att2 & u64::from(open.usable_ahead[i])).count_ones()
            + (att2 & u64::from(open.double_ahead[i])).count_ones();
        if left + lost > open.capacity[i + 1] {
            return None;
        }
        // Keep only what a later cell can look at.
        let here = occ2 & 1 == 1;
        let present = self.short.present_of[new_idx as usize];
        occ2 &= u64::from(open.needed[i][usize::from(present)]);
        let file2 = (above || here) && open.lance_below[i] && present & open.lance_bit != 0;
        let key = occ2 | att2 << SHIFT_ATT | u64::from(file2) << SHIFT_FILE | new_idx << SHIFT_IDX;
        Some(Successor {
            key,
            here,
            att: att2,
            left,
            idx: new_idx,
        })
    }

    /// Exact pawn/stone test on the cells still ahead (a necessary condition:
    /// 劣化駒, as in the search); unfolded only.
    #[inline]
    fn fits_ahead(&self, s: &Successor) -> bool {
        if self.grid.folded || s.left == 0 {
            return true;
        }
        let stones = self.grid.knight.map_or(0, |j| self.short.left(s.idx, j));
        let occ_bb = self.open.lr_bb | if s.here { 1 << self.i } else { 0 };
        let att_bb = ((self.open.blocked_bb | self.swept | u128::from(s.att) << (self.i + 1))
            & ALL81)
            & !occ_bb;
        feasible(Directions::One, occ_bb, att_bb, s.left - stones, stones)
    }
}

/// A multiplicative mixer for the 64-bit state keys.
#[derive(Default)]
struct MixHasher(u64);

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        let x = self.0.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        x ^ (x >> 29)
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 << 8 | u64::from(b)).rotate_left(5);
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}
