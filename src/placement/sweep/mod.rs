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

mod budget;
mod dp;
mod grid;
mod layouts;
mod short_kinds;

use super::feasibility::Directions;
use super::search::Problem;
use crate::shard::Shard;
use budget::Budget;
use grid::Grid;
use layouts::long_range_layouts;
use rayon::prelude::*;
use short_kinds::ShortKinds;
use std::sync::atomic::{AtomicU64, Ordering};

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
    #[error("the count does not fit in 64 bits")]
    Overflow,
    /// The layouts and DP states would need more memory than the limit.
    #[error("the sweep needs more than its memory limit of {limit_mib} MiB (long-range layouts and DP states; raise it with --memory, or count with the search)")]
    MemoryLimit {
        /// The limit, in MiB.
        limit_mib: u64,
    },
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

#[cfg(test)]
mod tests {
    use super::budget::layout_bytes;
    use super::*;
    use crate::placement::pieces::PieceSet;

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
