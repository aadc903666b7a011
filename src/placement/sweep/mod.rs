//! Transfer-matrix counting ("sweep") for one direction: an independent
//! second counting method, fast where the search's tail memo is weak (few
//! long-range pieces, e.g. the 39-piece set without a rook).
//!
//! The long-range kinds (飛 角 龍 馬, queens) are laid out first by plain
//! enumeration (every mutually non-attacking layout; layouts whose remaining
//! pieces, degraded to pawns and stones, do not fit are dropped by the exact
//! test of [`super::feasibility`]). Their attacked squares must stay empty.
//! Every other kind attacks at most two ranks and one file away, except 香,
//! which needs its whole file ahead empty. So the short-range pieces are
//! counted by a dynamic programme over the squares file by file (file 1
//! first, rank 1 to 9 in each file; cell `i` is the square of index `i`),
//! whose state is
//!
//! * which of the last 11 squares hold a piece (a 桂 looks back one file and
//!   two ranks),
//! * which of the next 10 squares are attacked by a piece already placed
//!   (backward and sideways steps of 金 銀 玉 and the promoted kinds, a 桂
//!   into the next file),
//! * one bit "a piece stands above in this file" (all a 香 needs),
//! * how many pieces of each kind are left,
//!
//! each reduced to what later squares can still look at, so equal futures
//! merge. Every attack relation joins two squares within that window (or a
//! 香 and the squares above it), and it is checked once, at the later of the
//! two squares: the DP counts exactly the placements the puzzle allows.
//! States are cut by two necessary conditions: enough free squares ahead,
//! and the degraded pawn/stone test on the squares ahead.
//!
//! Placements equal to their own mirror image are counted by the same DP on
//! the folded board (files 1–5 on 9 files): a square left of the middle file
//! stands for itself and its mirror image (two pieces), an attack on a square
//! right of the middle looks at its mirror image instead, and a piece that
//! would attack its own mirror image (金 玉 beside the middle of an even
//! board) cannot stand there.

use super::feasibility::{feasible, Directions};
use super::pieces::{Kind, PieceSet};
use super::search::Problem;
use crate::rules::bitboard::attacks;
use crate::rules::{Bitboard, Color, PieceKind, Square};
use crate::shard::Shard;
use rayon::prelude::*;
use std::collections::hash_map::Entry;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Result of [`sweep_count`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SweepCount {
    /// Placements (mirror images counted separately).
    pub count: u64,
    /// Placements equal to their own mirror image.
    pub symmetric: u64,
    /// Long-range layouts (up to mirror) whose short-range completions were counted.
    pub layouts: u64,
    /// DP states expanded, summed over every layout and square.
    pub states: u64,
    /// The most states alive at one square in one layout.
    pub peak_states: u64,
}

impl SweepCount {
    /// Placements up to left-right mirror symmetry (Burnside: `(count + symmetric) / 2`).
    pub fn up_to_mirror(&self) -> u64 {
        (self.count + self.symmetric) / 2
    }
}

/// Why the sweep cannot count a problem.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SweepError {
    /// Two-directional problems are counted by the search only.
    #[error("the sweep counts one-directional placements only")]
    TwoDirections,
    /// The counts of the short-range kinds do not fit the 64-bit state key.
    #[error("too many short-range pieces for the sweep's state key")]
    TooManyPieces,
    /// The answer does not fit in 64 bits.
    #[error("the count exceeds 2^64")]
    Overflow,
    /// The layouts and DP states would need more memory than the limit.
    #[error("the sweep needs more than its memory limit of {limit_mib} MiB (long-range layouts and DP states; raise it with --memory, or count with the search)")]
    MemoryLimit {
        /// The limit, in MiB.
        limit_mib: u64,
    },
}

/// Bytes held by the sweep (the long-range layouts and every thread's DP maps),
/// against a limit; a charge that would pass it fails and the whole count stops. A stop
/// request ([`sweep_count_shard_until`]) stops it the same way.
struct Budget<'a> {
    limit: u64,
    used: AtomicU64,
    exceeded: AtomicBool,
    /// Asked at each layout and at each square of a layout's sweep.
    stop: Option<&'a (dyn Fn() -> bool + Sync)>,
    /// `stop` said so.
    stopped: AtomicBool,
}

impl<'a> Budget<'a> {
    fn new(limit: u64, stop: Option<&'a (dyn Fn() -> bool + Sync)>) -> Budget<'a> {
        Budget {
            limit,
            used: AtomicU64::new(0),
            exceeded: AtomicBool::new(false),
            stop,
            stopped: AtomicBool::new(false),
        }
    }

    /// Whether the count must end: the memory limit was passed, or `stop` said so.
    fn ending(&self) -> bool {
        if self.stop.is_some_and(|s| s()) {
            self.stopped.store(true, Ordering::Relaxed);
        }
        self.exceeded() || self.stopped.load(Ordering::Relaxed)
    }

    /// Takes `bytes` more; `false` (and the budget marked exceeded) if they do not fit.
    fn charge(&self, bytes: u64) -> bool {
        let before = self.used.fetch_add(bytes, Ordering::Relaxed);
        if before.saturating_add(bytes) > self.limit {
            self.used.fetch_sub(bytes, Ordering::Relaxed);
            self.exceeded.store(true, Ordering::Relaxed);
            return false;
        }
        true
    }

    fn release(&self, bytes: u64) {
        self.used.fetch_sub(bytes, Ordering::Relaxed);
    }

    fn exceeded(&self) -> bool {
        self.exceeded.load(Ordering::Relaxed)
    }

    fn error(&self) -> SweepError {
        SweepError::MemoryLimit {
            limit_mib: self.limit >> 20,
        }
    }
}

/// What one thread's DP maps hold, kept charged to the [`Budget`] (released on drop).
struct Held<'a, 'b> {
    budget: &'a Budget<'b>,
    bytes: u64,
}

impl Held<'_, '_> {
    /// Charges or releases the difference to `bytes`; `false` if the budget cannot give it.
    fn set(&mut self, bytes: u64) -> bool {
        if bytes > self.bytes {
            if !self.budget.charge(bytes - self.bytes) {
                return false;
            }
        } else {
            self.budget.release(self.bytes - bytes);
        }
        self.bytes = bytes;
        true
    }
}

impl Drop for Held<'_, '_> {
    fn drop(&mut self) {
        self.budget.release(self.bytes);
    }
}

/// Bytes per unit of a DP map's `capacity()`: a `(u64, u128)` bucket and its
/// control byte, with hashbrown's 7/8 load factor.
const MAP_BYTES_PER_SLOT: u64 = (std::mem::size_of::<(u64, u128)>() as u64 + 1) * 8 / 7 + 1;

/// Bytes one stored long-range layout holds: the struct, its piece list, and the
/// list's doubling slack.
fn layout_bytes(pieces: usize) -> u64 {
    2 * (std::mem::size_of::<Layout>() + pieces * std::mem::size_of::<(Kind, Square)>()) as u64
}

/// Kinds laid out before the sweep (their attacks reach across the board).
const LONG_RANGE: [Kind; 5] = [
    Kind::Queen,
    Kind::Shogi(PieceKind::Dragon),
    Kind::Shogi(PieceKind::Horse),
    Kind::Shogi(PieceKind::Rook),
    Kind::Shogi(PieceKind::Bishop),
];

fn is_long_range(kind: Kind) -> bool {
    LONG_RANGE.contains(&kind)
}

/// Counts every one-directional placement of `problem` by the sweep, within
/// [`crate::resources::default_memory_limit`].
pub fn sweep_count(problem: &Problem) -> Result<SweepCount, SweepError> {
    sweep_count_with_progress(problem, &|_, _| {})
}

/// [`sweep_count`] reporting `(done, total)` long-range layouts.
pub fn sweep_count_with_progress(
    problem: &Problem,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<SweepCount, SweepError> {
    sweep_count_shard(problem, Shard::WHOLE, progress)
}

/// The part of [`sweep_count`] over the long-range layouts (in their
/// deterministic order) that `shard` owns (round robin); the shards' counts
/// sum to the whole count. Progress reports `(done, total)` of this shard's layouts.
/// Memory: [`crate::resources::default_memory_limit`].
pub fn sweep_count_shard(
    problem: &Problem,
    shard: Shard,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<SweepCount, SweepError> {
    sweep_count_limited(
        problem,
        shard,
        crate::resources::default_memory_limit(),
        progress,
    )
}

/// [`sweep_count_shard`] holding at most `memory_limit` bytes in layouts and DP
/// states (an estimate from their sizes, kept as they grow).
///
/// # Errors
/// [`SweepError::MemoryLimit`] as soon as the limit would be passed (the count stops);
/// the other [`SweepError`]s.
pub fn sweep_count_limited(
    problem: &Problem,
    shard: Shard,
    memory_limit: u64,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<SweepCount, SweepError> {
    let budget = Budget::new(memory_limit, None);
    sweep(problem, shard, &budget, progress).map(|c| c.expect("no stop request"))
}

/// [`sweep_count_shard`] that gives up once `stop()` says so (`Ok(None)`), asked at each
/// long-range layout and at each square of a layout's sweep. For a caller on another
/// thread that must stay interruptible (Python's Ctrl-C).
///
/// # Errors
/// As [`sweep_count_limited`] (with [`crate::resources::default_memory_limit`]).
pub fn sweep_count_shard_until(
    problem: &Problem,
    shard: Shard,
    progress: &(dyn Fn(u64, u64) + Sync),
    stop: &(dyn Fn() -> bool + Sync),
) -> Result<Option<SweepCount>, SweepError> {
    let budget = Budget::new(crate::resources::default_memory_limit(), Some(stop));
    sweep(problem, shard, &budget, progress)
}

/// The sweep within `budget`; `Ok(None)` when its stop request came.
fn sweep(
    problem: &Problem,
    shard: Shard,
    budget: &Budget<'_>,
    progress: &(dyn Fn(u64, u64) + Sync),
) -> Result<Option<SweepCount>, SweepError> {
    if problem.dirs != Directions::One {
        return Err(SweepError::TwoDirections);
    }
    let short = ShortKinds::of(&problem.set)?;
    let full = Grid::new(problem, false, &short);
    let folded = Grid::new(problem, true, &short);
    let stopped = || budget.stopped.load(Ordering::Relaxed);
    let Some(layouts) = long_range_layouts(problem, shard, budget) else {
        return if stopped() {
            Ok(None)
        } else {
            Err(budget.error())
        };
    };
    let region = problem.region();
    let done = AtomicU64::new(0);
    let total_layouts = layouts.len() as u64;
    progress(0, total_layouts);
    // Per layout: (count, symmetric, layouts counted, states, peak states).
    type Part = (u128, u128, u64, u64, u64);
    let results: Result<Vec<Part>, _> = layouts
        .par_iter()
        .map(|layout| {
            let mirror = layout.mirror(region);
            let symmetric_layout = mirror == *layout;
            let mut out = (0u128, 0u128, 0u64, 0u64, 0u64);
            if symmetric_layout || layout.key() < mirror.key() {
                let (n, stats) = full
                    .count(layout, &short, budget)
                    .ok_or_else(|| budget.error())?;
                out.0 = if symmetric_layout { n } else { 2 * n };
                out.2 = 1;
                out.3 += stats.0;
                out.4 = out.4.max(stats.1);
            }
            if symmetric_layout {
                let (n, stats) = folded
                    .count(layout, &short, budget)
                    .ok_or_else(|| budget.error())?;
                out.1 = n;
                out.3 += stats.0;
                out.4 = out.4.max(stats.1);
            }
            progress(done.fetch_add(1, Ordering::Relaxed) + 1, total_layouts);
            Ok(out)
        })
        .collect::<Result<_, SweepError>>();
    if stopped() {
        return Ok(None);
    }
    let results = results?;
    let mut total = SweepCount::default();
    let (mut count, mut symmetric) = (0u128, 0u128);
    for (c, s, l, st, peak) in results {
        count += c;
        symmetric += s;
        total.layouts += l;
        total.states += st;
        total.peak_states = total.peak_states.max(peak);
    }
    total.count = u64::try_from(count).map_err(|_| SweepError::Overflow)?;
    total.symmetric = u64::try_from(symmetric).map_err(|_| SweepError::Overflow)?;
    Ok(Some(total))
}

/// A layout of the long-range pieces.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Layout {
    /// Squares holding a long-range piece.
    occ: Bitboard,
    /// Squares they attack (their lines run to the edge: nothing may stand on them).
    att: Bitboard,
    /// The pieces, sorted (for comparing with the mirror image).
    pieces: Vec<(Kind, Square)>,
}

impl Layout {
    fn mirror(&self, region: Bitboard) -> Layout {
        let files = region_files(region);
        let m = |s: Square| Square::new(files + 1 - s.file(), s.rank()).expect("in range");
        let mut pieces: Vec<(Kind, Square)> = self.pieces.iter().map(|&(k, s)| (k, m(s))).collect();
        pieces.sort_by_key(|&(k, s)| (kind_order(k), s.index()));
        let mut occ = Bitboard::EMPTY;
        let mut att = Bitboard::EMPTY;
        for s in Square::all() {
            if self.occ.has(s) {
                occ = occ.with(m(s));
            }
            if self.att.has(s) {
                att = att.with(m(s));
            }
        }
        Layout { occ, att, pieces }
    }

    fn key(&self) -> Vec<(usize, usize)> {
        self.pieces
            .iter()
            .map(|&(k, s)| (kind_order(k), s.index()))
            .collect()
    }
}

fn kind_order(k: Kind) -> usize {
    LONG_RANGE
        .iter()
        .position(|&l| l == k)
        .unwrap_or(usize::MAX)
}

fn region_files(region: Bitboard) -> u8 {
    Square::all()
        .filter(|&s| region.has(s))
        .map(|s| s.file())
        .max()
        .unwrap_or(0)
}

/// Every mutually non-attacking layout of the long-range pieces whose
/// remaining pieces (degraded to pawns and stones) still fit, of those `shard`
/// owns (round robin in enumeration order); `None` when they pass the budget.
fn long_range_layouts(problem: &Problem, shard: Shard, budget: &Budget<'_>) -> Option<Vec<Layout>> {
    let region = problem.region();
    let groups: Vec<(Kind, u32)> = LONG_RANGE
        .iter()
        .map(|&k| (k, problem.set.count_kind(k)))
        .filter(|&(_, n)| n > 0)
        .collect();
    let all_kinds = [Kind::Queen].into_iter().chain(
        (0..PieceKind::NUM).map(|i| Kind::Shogi(PieceKind::from_index(i).expect("kind index"))),
    );
    let (mut pawns, mut stones) = (0, 0);
    for k in all_kinds.filter(|&k| !is_long_range(k)) {
        let n = problem.set.count_kind(k);
        if k == Kind::Shogi(PieceKind::Knight) {
            stones += n;
        } else {
            pawns += n;
        }
    }
    let mut out = Vec::new();
    let mut seen = 0usize;
    let mut layout = Layout {
        occ: Bitboard::EMPTY,
        att: Bitboard::EMPTY,
        pieces: Vec::new(),
    };
    #[allow(clippy::too_many_arguments)]
    fn go(
        region: Bitboard,
        groups: &[(Kind, u32)],
        gi: usize,
        left: u32,
        min_sq: usize,
        layout: &mut Layout,
        fits: &dyn Fn(&Layout) -> bool,
        keep: &mut dyn FnMut(&Layout) -> bool,
    ) -> bool {
        if gi == groups.len() {
            return !fits(layout) || keep(layout);
        }
        if left == 0 {
            let next = groups.get(gi + 1).map_or(0, |g| g.1);
            return go(region, groups, gi + 1, next, 0, layout, fits, keep);
        }
        let kind = groups[gi].0;
        for i in min_sq..81 {
            let s = Square::from_index_unchecked(i);
            if !region.has(s) || layout.occ.has(s) || layout.att.has(s) {
                continue;
            }
            let a = kind.attacks(Color::Sente, s, layout.occ) & region;
            if !(a & layout.occ).is_empty() {
                continue;
            }
            let saved = (layout.occ, layout.att);
            layout.occ = layout.occ.with(s);
            layout.att |= a;
            layout.pieces.push((kind, s));
            let more = go(region, groups, gi, left - 1, i + 1, layout, fits, keep);
            layout.pieces.pop();
            (layout.occ, layout.att) = saved;
            if !more {
                return false;
            }
        }
        true
    }
    let fits = |l: &Layout| {
        // Squares off the board count as attacked (as in the search).
        let att = (l.att.0 | (!region.0 & Bitboard::FULL.0)) & !l.occ.0;
        feasible(Directions::One, l.occ.0, att, pawns, stones)
    };
    let mut keep = |l: &Layout| {
        seen += 1;
        if !shard.owns(seen - 1) {
            return true;
        }
        if budget.ending() || !budget.charge(layout_bytes(l.pieces.len())) {
            return false;
        }
        out.push(l.clone());
        true
    };
    let first = groups.first().map_or(0, |g| g.1);
    go(region, &groups, 0, first, 0, &mut layout, &fits, &mut keep).then_some(out)
}

/// The short-range kinds of a set with their counts (the DP's piece budget).
#[derive(Debug, Clone)]
struct ShortKinds {
    kinds: Vec<PieceKind>,
    counts: Vec<u32>,
    /// Mixed-radix place value of each kind in the count index.
    stride: Vec<u64>,
    /// Pieces left for each count index.
    total_of: Vec<u32>,
    /// Per count index: pieces left of each kind, 6 bits per kind.
    left_of: Vec<u64>,
    /// Per count index: the kinds with pieces left, one bit per kind.
    present_of: Vec<u16>,
    /// Bit width of the count index.
    bits: u32,
}

impl ShortKinds {
    fn of(set: &PieceSet) -> Result<ShortKinds, SweepError> {
        let mut kinds = Vec::new();
        let mut counts = Vec::new();
        for i in 0..PieceKind::NUM {
            let k = PieceKind::from_index(i).expect("kind index");
            let n = set.count(k);
            if n > 0 && !is_long_range(Kind::Shogi(k)) {
                kinds.push(k);
                counts.push(n);
            }
        }
        let mut stride = Vec::new();
        let mut size = 1u64;
        for &n in &counts {
            stride.push(size);
            size = size
                .checked_mul(u64::from(n) + 1)
                .ok_or(SweepError::TooManyPieces)?;
        }
        if size > 1 << 22 || counts.len() > 10 {
            return Err(SweepError::TooManyPieces);
        }
        let lefts = |idx: u64| -> Vec<u64> {
            (0..counts.len())
                .map(|j| (idx / stride[j]) % (u64::from(counts[j]) + 1))
                .collect()
        };
        let total_of = (0..size)
            .map(|idx| lefts(idx).iter().sum::<u64>() as u32)
            .collect();
        let left_of = (0..size)
            .map(|idx| {
                lefts(idx)
                    .iter()
                    .enumerate()
                    .fold(0u64, |m, (j, &n)| m | n << (6 * j))
            })
            .collect();
        let present_of = (0..size)
            .map(|idx| {
                lefts(idx)
                    .iter()
                    .enumerate()
                    .fold(0u16, |m, (j, &n)| m | u16::from(n > 0) << j)
            })
            .collect();
        let bits = 64 - (size - 1).leading_zeros();
        Ok(ShortKinds {
            kinds,
            counts,
            stride,
            total_of,
            left_of,
            present_of,
            bits,
        })
    }

    fn full_index(&self) -> u64 {
        self.counts
            .iter()
            .zip(&self.stride)
            .map(|(&n, &s)| u64::from(n) * s)
            .sum()
    }

    #[inline]
    fn left(&self, idx: u64, j: usize) -> u32 {
        (self.left_of[idx as usize] >> (6 * j) & 63) as u32
    }
}

/// Occupancy window (bit d: the cell d + 1 places back) and lookahead (bit d: d + 1 places ahead).
const BACK: u32 = 11;
const AHEAD: u32 = 10;

/// The squares in sweep order (file by file, rank 1 to 9 in each file; cell
/// `i` is the square of index `i`, so windows shift straight into bitboards)
/// with the attack relations of every short kind.
#[derive(Debug, Clone)]
struct Grid {
    /// Cells: 9 per file, files 1.. (folded: up to the middle file).
    cells: usize,
    /// Whether the cell is on the board.
    inside: Vec<bool>,
    /// Pieces one piece on the cell stands for (2 left of the middle when folded).
    mult: Vec<u32>,
    /// Per kind, per cell: targets already swept (as window bits), or `None`
    /// if the kind cannot stand there (it would attack its own mirror image).
    back: Vec<Vec<Option<u32>>>,
    /// Per kind, per cell: targets still ahead (as lookahead bits).
    ahead: Vec<Vec<u32>>,
    /// Per kind, per cell: all target cells (to test against the layout).
    targets: Vec<Vec<Vec<usize>>>,
    /// Knights (stones in the pawn/stone test), if any.
    knight: Option<usize>,
    /// Lances, if any: instead of looking back at its whole file, a 香 tests
    /// one state bit, "a piece stands above in this file".
    lance: Option<usize>,
    /// Folded (mirror-symmetric placements).
    folded: bool,
}

impl Grid {
    fn new(problem: &Problem, folded: bool, short: &ShortKinds) -> Grid {
        let files = usize::from(problem.files);
        let ranks = usize::from(problem.ranks);
        let cols = if folded { files.div_ceil(2) } else { files };
        let n = cols * 9;
        // Folded, file f > cols stands for its mirror image files + 1 − f.
        let cell_of = |s: Square| -> Option<usize> {
            let (f, r) = (usize::from(s.file()), usize::from(s.rank()));
            if f > files || r > ranks {
                return None;
            }
            let f = if f > cols { files + 1 - f } else { f };
            Some((f - 1) * 9 + r - 1)
        };
        let inside: Vec<bool> = (0..n).map(|i| i % 9 < ranks).collect();
        let mult = (0..n)
            .map(|i| {
                let f = i / 9 + 1;
                if folded && files + 1 - f != f {
                    2
                } else {
                    1
                }
            })
            .collect();
        let mut back = Vec::new();
        let mut ahead = Vec::new();
        let mut targets = Vec::new();
        let mut knight = None;
        let mut lance = None;
        for (j, &k) in short.kinds.iter().enumerate() {
            if k == PieceKind::Knight {
                knight = Some(j);
            }
            if k == PieceKind::Lance {
                lance = Some(j);
            }
            let mut bk = Vec::with_capacity(n);
            let mut ah = Vec::with_capacity(n);
            let mut tg = Vec::with_capacity(n);
            for (i, &on_board) in inside.iter().enumerate() {
                let s = Square::from_index_unchecked(i);
                // A 香's targets are its whole file ahead: all of it must stay empty.
                let ts: Vec<usize> = if on_board {
                    Square::all()
                        .filter(|&t| attacks(Color::Sente, k, s, Bitboard::EMPTY).has(t))
                        .filter_map(cell_of)
                        .collect()
                } else {
                    Vec::new()
                };
                let (mut b, mut a, mut own) = (0u32, 0u32, !on_board);
                for &t in &ts {
                    match t.cmp(&i) {
                        std::cmp::Ordering::Less => {
                            assert!(
                                i - t <= BACK as usize,
                                "short-range attack beyond the window"
                            );
                            b |= 1 << (i - 1 - t);
                        }
                        std::cmp::Ordering::Greater => {
                            assert!(
                                t - i <= AHEAD as usize,
                                "short-range attack beyond the window"
                            );
                            a |= 1 << (t - i - 1);
                        }
                        std::cmp::Ordering::Equal => own = true,
                    }
                }
                // A 香's targets all lie above it in its file: the file bit tests them.
                if k == PieceKind::Lance {
                    b = 0;
                }
                bk.push(if own { None } else { Some(b) });
                ah.push(a);
                tg.push(ts);
            }
            back.push(bk);
            ahead.push(ah);
            targets.push(tg);
        }
        Grid {
            cells: n,
            inside,
            mult,
            back,
            ahead,
            targets,
            knight,
            lance,
            folded,
        }
    }

    /// `needed[i][kinds]`: the bits of the window after cell `i` that a later
    /// cell tests when the kinds left are `kinds` (a bit set): the rest of
    /// the window is dropped from the state, so equal futures merge.
    fn needed(&self, allowed: &[Vec<bool>], masks: usize) -> Vec<Vec<u32>> {
        let n = self.cells;
        let per_kind: Vec<Vec<u32>> = allowed
            .iter()
            .enumerate()
            .map(|(j, allowed)| {
                let mut nd = vec![0u32; n];
                for (i2, b) in self.back[j].iter().enumerate() {
                    let Some(b) = b.filter(|_| allowed[i2]) else {
                        continue;
                    };
                    for d in 0..BACK as usize {
                        if b >> d & 1 == 1 {
                            // Target t = i2 − 1 − d is bit i − t of the window after cell i (t ≤ i < i2).
                            let t = i2 - 1 - d;
                            for (i, slot) in nd.iter_mut().enumerate().take(i2).skip(t) {
                                *slot |= 1 << (i - t);
                            }
                        }
                    }
                }
                nd
            })
            .collect();
        (0..n)
            .map(|i| {
                (0..masks)
                    .map(|mask| {
                        (0..per_kind.len())
                            .filter(|j| mask >> j & 1 == 1)
                            .fold(0u32, |m, j| m | per_kind[j][i])
                    })
                    .collect()
            })
            .collect()
    }

    /// Counts the short-range completions of a layout; also `(states expanded, peak states)`.
    /// `None` when its maps would pass the budget (or another thread passed it, or a stop
    /// request came).
    fn count(
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
        let all81: u128 = (1 << 81) - 1;
        let lr_bb: u128 = layout.occ.0;

        // The file bit matters while a 香 may still stand below in this file.
        let lance_below: Vec<bool> = (0..n)
            .map(|i| {
                self.lance
                    .is_some_and(|j| (i + 1..(i / 9 + 1) * 9).any(|i2| allowed[j][i2]))
            })
            .collect();
        let lance_bit = self.lance.map_or(0u16, |j| 1 << j);
        let shift_att = BACK;
        let shift_file = BACK + AHEAD;
        let shift_idx = shift_file + 1;
        assert!(shift_idx + short.bits <= 64, "state key width");
        let back_mask = (1u64 << BACK) - 1;
        let ahead_mask = (1u64 << AHEAD) - 1;

        type Map = HashMap<u64, u128, BuildHasherDefault<MixHasher>>;
        let mut cur: Map = Map::default();
        cur.insert(short.full_index() << shift_idx, 1);
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
            let swept: u128 = (1u128 << (i + 1)) - 1;
            for (&key, &ways) in &cur {
                let occ = key & back_mask;
                let att = (key >> shift_att) & ahead_mask;
                let idx = key >> shift_idx;
                let above = key >> shift_file & 1 == 1;
                let attacked = att & 1 == 1;
                let mut push = |placed: Option<usize>, new_idx: u64| {
                    let mut occ2 = occ << 1;
                    let mut att2 = att >> 1;
                    if let Some(j) = placed {
                        occ2 |= 1;
                        att2 |= u64::from(self.ahead[j][i]);
                    }
                    att2 &= u64::from(usable_ahead[i]);
                    let left = short.total_of[new_idx as usize];
                    // Prune: the pieces left must fit on the free cells not yet attacked.
                    let lost = (att2 & u64::from(usable_ahead[i])).count_ones()
                        + (att2 & u64::from(double_ahead[i])).count_ones();
                    if left + lost > capacity[i + 1] {
                        return;
                    }
                    // Keep only what a later cell can look at.
                    let here = occ2 & 1 == 1;
                    let present = short.present_of[new_idx as usize];
                    occ2 &= u64::from(needed[i][usize::from(present)]);
                    let file2 = (above || here) && lance_below[i] && present & lance_bit != 0;
                    let k2 = occ2
                        | att2 << shift_att
                        | u64::from(file2) << shift_file
                        | new_idx << shift_idx;
                    if over {
                        return;
                    }
                    if next.len() == next.capacity() && !next.contains_key(&k2) {
                        // The map is about to grow: the old table and one of twice its
                        // size are both alive while it rehashes.
                        let grown = cur.capacity() + 3 * next.capacity().max(4);
                        if !held.set(grown as u64 * MAP_BYTES_PER_SLOT) {
                            over = true;
                            return;
                        }
                    }
                    let slot = match next.entry(k2) {
                        Entry::Occupied(mut o) => {
                            *o.get_mut() += ways;
                            return;
                        }
                        Entry::Vacant(v) => v,
                    };
                    // Exact pawn/stone test on the cells still ahead (a
                    // necessary condition: 劣化駒, as in the search). States
                    // merged under one key have the same completions, so a
                    // state cut here has none, and testing only the first
                    // state of a key loses nothing.
                    if !self.folded && left > 0 {
                        let stones = self.knight.map_or(0, |j| short.left(new_idx, j));
                        let occ_bb = lr_bb | if here { 1 << i } else { 0 };
                        let att_bb =
                            ((blocked_bb | swept | u128::from(att2) << (i + 1)) & all81) & !occ_bb;
                        if !feasible(Directions::One, occ_bb, att_bb, left - stones, stones) {
                            return;
                        }
                    }
                    slot.insert(ways);
                };
                push(None, idx);
                if attacked || blocked[i] {
                    continue;
                }
                for (j, allowed) in allowed.iter().enumerate() {
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
            .filter(|(&k, _)| k >> shift_idx == 0)
            .map(|(_, &w)| w)
            .sum();
        Some((done, (expanded, peak)))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn both(text: &str, files: u8, ranks: u8) {
        let p =
            Problem::new(PieceSet::parse(text).unwrap(), Directions::One).on_board(files, ranks);
        let s = sweep_count(&p).unwrap();
        let c = p.count_by_listing();
        assert_eq!(
            (s.count, s.symmetric),
            (c.count, c.symmetric),
            "{text} on {files}x{ranks}"
        );
    }

    #[test]
    fn memory_limit_stops_the_count_and_a_fitting_limit_changes_nothing() {
        let p = Problem::new(PieceSet::parse("RB2G2K").unwrap(), Directions::One).on_board(6, 6);
        let whole = sweep_count(&p).unwrap();
        let roomy = sweep_count_limited(&p, Shard::WHOLE, 1 << 30, &|_, _| {}).unwrap();
        assert_eq!(roomy, whole);
        // 4 KiB cannot hold the layouts of a rook and two bishops.
        let e = sweep_count_limited(&p, Shard::WHOLE, 4 << 10, &|_, _| {}).unwrap_err();
        assert_eq!(e, SweepError::MemoryLimit { limit_mib: 0 });
        // Enough for the layouts but not for the DP maps (`layout_bytes` per layout).
        let budget = Budget::new(u64::MAX, None);
        let n = long_range_layouts(&p, Shard::WHOLE, &budget).unwrap().len() as u64;
        assert!(n * layout_bytes(3) > 4 << 10, "{n} layouts");
        let layouts_only = n * layout_bytes(3) + 1024;
        let e = sweep_count_limited(&p, Shard::WHOLE, layouts_only, &|_, _| {}).unwrap_err();
        assert!(matches!(e, SweepError::MemoryLimit { .. }), "{e:?}");
        assert_eq!(budget.used.load(Ordering::Relaxed), n * layout_bytes(3));
    }

    /// A stop request ends the sweep (`Ok(None)`), in the layouts' enumeration or in a
    /// layout's DP; without one the count is the plain one.
    #[test]
    fn a_stop_request_ends_the_sweep() {
        let p = Problem::new(PieceSet::parse("RB2G2K").unwrap(), Directions::One).on_board(6, 6);
        let whole = sweep_count(&p).unwrap();
        let never = sweep_count_shard_until(&p, Shard::WHOLE, &|_, _| {}, &|| false);
        assert_eq!(never, Ok(Some(whole)));
        for n in [1, 2, 50] {
            let calls = AtomicU64::new(0);
            let stop = || calls.fetch_add(1, Ordering::Relaxed) + 1 >= n;
            let r = sweep_count_shard_until(&p, Shard::WHOLE, &|_, _| {}, &stop);
            assert_eq!(r, Ok(None), "stopped at call {n}");
        }
    }

    #[test]
    fn small_sets_match_listing() {
        for (set, f, r) in [
            ("P3", 3, 3),
            ("L2P2", 3, 4),
            ("N2S", 4, 4),
            ("G2K", 4, 4),
            ("K2G", 5, 3),
            ("RB", 4, 4),
            ("R+B", 5, 5),
            ("Q4", 6, 6),
            ("RN2P", 4, 5),
            ("BL2S", 5, 5),
            ("+P2+SN", 4, 4),
            ("+RG", 5, 4),
            ("S2N2", 6, 5),
        ] {
            both(set, f, r);
        }
    }
}
