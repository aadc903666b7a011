//! Strongest-first depth-first search with 劣化駒 pruning (seed
//! `003_88f5bd36583eaf31.txt`): pieces are placed from the strongest kind to
//! the weakest, identical pieces on increasing squares (each multiset once),
//! and a node is cut as soon as the pieces still to place, degraded to pawns
//! (every kind that attacks the square in front of it) and stones (桂, 角),
//! fail the exact pawn/stone test of [`super::feasibility`]. Counting in one
//! direction stops at the pawns: the placements of `n` Sente pawns on the
//! remaining free squares are counted in closed form (no two pawns adjacent in
//! a file, none right under an occupied square).

mod mirror;
mod pawn_leaf;
mod searcher;
mod tail_memo;

pub use searcher::STOP_POLL;
pub use tail_memo::{default_memo_bytes, MEMO_MAX_BYTES};

use super::feasibility::Directions;
use super::pieces::{Kind, PieceSet};
use super::Placement;
use crate::rules::{Bitboard, Color, PieceKind, Square};
use crate::shard::Shard;
use rayon::prelude::*;
use searcher::{Budget, Searcher};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use tail_memo::TailMemo;

/// Strongest kind first: the canonical text order and the two-directional search order.
pub const STRONGEST_FIRST: [PieceKind; 14] = [
    PieceKind::Dragon,
    PieceKind::Horse,
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::King,
    PieceKind::Gold,
    PieceKind::ProSilver,
    PieceKind::ProKnight,
    PieceKind::ProLance,
    PieceKind::ProPawn,
    PieceKind::Silver,
    PieceKind::Lance,
    PieceKind::Knight,
    PieceKind::Pawn,
];

/// The order in which the one-directional search places the groups: the
/// long-range pieces, then 桂 and 香, then the short-range kinds, pawns last
/// (for the closed-form leaf). Any order gives the same answers; this one was measured fastest for the 39-piece counts
/// (−角: 0.1 s against 9 s strongest-first, `paper/paper.md`). The
/// two-directional search keeps [`STRONGEST_FIRST`], which finds the published
/// maxima in far fewer nodes.
pub const SEARCH_ORDER_ONE: [PieceKind; 14] = [
    PieceKind::Dragon,
    PieceKind::Horse,
    PieceKind::Rook,
    PieceKind::Bishop,
    PieceKind::Knight,
    PieceKind::Lance,
    PieceKind::King,
    PieceKind::Gold,
    PieceKind::ProSilver,
    PieceKind::ProKnight,
    PieceKind::ProLance,
    PieceKind::ProPawn,
    PieceKind::Silver,
    PieceKind::Pawn,
];

/// Kinds whose attacks do not depend on their color: in two directions they
/// are placed as Sente only (the color changes nothing in the puzzle).
pub const fn color_symmetric(kind: PieceKind) -> bool {
    matches!(
        kind,
        PieceKind::King
            | PieceKind::Rook
            | PieceKind::Bishop
            | PieceKind::Horse
            | PieceKind::Dragon
    )
}

/// Whether a kind degrades to a stone (it does not attack the square in front of it).
pub const fn degrades_to_stone(kind: PieceKind) -> bool {
    matches!(kind, PieceKind::Knight | PieceKind::Bishop)
}

/// The colors the search tries for `kind` (queens: Sente only, like the color-symmetric kinds).
pub fn colors_for_kind(dirs: Directions, kind: Kind) -> &'static [Color] {
    match kind {
        Kind::Shogi(k) => colors_for(dirs, k),
        Kind::Queen => &[Color::Sente],
    }
}

/// The colors the search tries for `kind`.
pub fn colors_for(dirs: Directions, kind: PieceKind) -> &'static [Color] {
    if dirs == Directions::Two && !color_symmetric(kind) {
        &[Color::Sente, Color::Gote]
    } else {
        &[Color::Sente]
    }
}

/// A placement puzzle: which pieces, which directions, which squares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Problem {
    /// The pieces to place.
    pub set: PieceSet,
    /// One direction (all Sente) or two.
    pub dirs: Directions,
    /// The board: the `files × ranks` rectangle at files 1.. and ranks 1.. (9 × 9 normally).
    pub files: u8,
    /// See `files`.
    pub ranks: u8,
}

/// Result of counting. The counts saturate at `u64::MAX` ([`Count::overflowed`]): a count
/// that does not fit is never reported wrapped around.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Count {
    /// Placements (mirror images counted separately).
    pub count: u64,
    /// Placements equal to their own left-right mirror image (on a board of
    /// `files` files: file f ↔ files + 1 − f; f ↔ 10 − f on the full board).
    pub symmetric: u64,
    /// Search nodes visited (pieces placed).
    pub nodes: u64,
    /// Subtrees whose count was taken from the tail memo instead of searched.
    pub memo_hits: u64,
}

impl Count {
    /// Placements up to left-right mirror symmetry (Burnside: `(count + symmetric) / 2`).
    pub fn up_to_mirror(&self) -> u64 {
        self.count.saturating_add(self.symmetric) / 2
    }

    /// Whether the count reached `u64::MAX`: it does not fit in 64 bits (or is exactly
    /// 2^64 − 1), so it is no answer (P18N3 has 35 431 992 821 189 507 720 placements; the
    /// sum wrapped round to 16 985 248 747 479 956 104 before it saturated).
    pub fn overflowed(&self) -> bool {
        self.count == u64::MAX || self.symmetric == u64::MAX
    }
}

/// Result of looking for one placement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum First {
    /// A placement (check it with [`super::check_placement`]).
    Found(Placement),
    /// The search was exhaustive and found none.
    Impossible,
    /// The node limit was reached first: nothing is proved.
    Unknown,
}

impl Problem {
    /// The puzzle on the full 9 × 9 board.
    pub fn new(set: PieceSet, dirs: Directions) -> Problem {
        Problem {
            set,
            dirs,
            files: 9,
            ranks: 9,
        }
    }

    /// The same puzzle on the `files × ranks` corner (files 1–`files`, ranks 1–`ranks`).
    ///
    /// # Panics
    /// If a size is 0 or more than 9.
    pub fn on_board(mut self, files: u8, ranks: u8) -> Problem {
        assert!(
            (1..=9).contains(&files) && (1..=9).contains(&ranks),
            "board size {files}×{ranks}"
        );
        self.files = files;
        self.ranks = ranks;
        self
    }

    /// The squares of the board.
    pub fn region(&self) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for f in 1..=self.files {
            for r in 1..=self.ranks {
                b = b.with(Square::new(f, r).expect("in range"));
            }
        }
        b
    }
    /// Counts all placements, using every core (rayon over the first two plies).
    pub fn count(&self) -> Count {
        self.count_with_progress(&|_, _| {})
    }

    /// [`Problem::count`] reporting `(done, total)` top-level branches.
    pub fn count_with_progress(&self, progress: &(dyn Fn(u64, u64) + Sync)) -> Count {
        self.count_impl(Some(default_memo_bytes()), Shard::WHOLE, progress, None)
            .expect("no stop request")
    }

    /// The part of [`Problem::count`] under the top-level branches (the
    /// two-ply frontier, in its deterministic order) that `shard` owns (round
    /// robin). The shards' counts sum to the whole count; the frontier's own
    /// expansion nodes are reported by shard 0 only, so nodes sum too.
    pub fn count_shard(&self, shard: Shard, progress: &(dyn Fn(u64, u64) + Sync)) -> Count {
        self.count_impl(Some(default_memo_bytes()), shard, progress, None)
            .expect("no stop request")
    }

    /// [`Problem::count_shard`] with the tail memo's tables kept within `memo_bytes`
    /// (see `TailMemo`): a full memo stops remembering, so the count is the same for
    /// every budget; only the nodes searched grow as the budget shrinks.
    pub fn count_shard_limited(
        &self,
        shard: Shard,
        memo_bytes: u64,
        progress: &(dyn Fn(u64, u64) + Sync),
    ) -> Count {
        self.count_impl(Some(memo_bytes), shard, progress, None)
            .expect("no stop request")
    }

    /// [`Problem::count`] without the tail memo (every subtree searched, closed-form
    /// pawn leaves and mirror pairs as in `count`): the twin the memo is tested against.
    pub fn count_unmemoised(&self) -> Count {
        self.count_impl(None, Shard::WHOLE, &|_, _| {}, None)
            .expect("no stop request")
    }

    /// [`Problem::count_shard`] that gives up once `stop()` says so (`None`): each worker
    /// asks every [`STOP_POLL`] nodes, and no new top-level branch starts after it said
    /// so. For a caller on another thread that must stay interruptible (Python's Ctrl-C).
    pub fn count_shard_until(
        &self,
        shard: Shard,
        progress: &(dyn Fn(u64, u64) + Sync),
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<Count> {
        self.count_impl(Some(default_memo_bytes()), shard, progress, Some(stop))
    }

    /// `memo_bytes`: the tail memo's budget, `None` for no memo; `None` back only when
    /// `stop` said so.
    fn count_impl(
        &self,
        memo_bytes: Option<u64>,
        shard: Shard,
        progress: &(dyn Fn(u64, u64) + Sync),
        stop: Option<&(dyn Fn() -> bool + Sync)>,
    ) -> Option<Count> {
        let groups = self.groups();
        let memo = TailMemo::new(&groups, self.dirs, memo_bytes.unwrap_or(0));
        let memo = memo_bytes.map(|_| &memo);
        let mut s = Searcher::new(self, &groups, None);
        s.mirror_canon = true;
        let (frontier, expand_nodes) = s.frontier(self.root(&groups), 2);
        let frontier: Vec<_> = frontier
            .into_iter()
            .enumerate()
            .filter(|&(k, _)| shard.owns(k))
            .map(|(_, branch)| branch)
            .collect();
        let done = AtomicU64::new(0);
        let stopped = AtomicBool::new(false);
        let total = frontier.len() as u64;
        progress(0, total);
        let mut c = frontier
            .into_par_iter()
            .map(|(node, placed)| {
                let mut c = Count::default();
                if stopped.load(Ordering::Relaxed) || stop.is_some_and(|s| s()) {
                    stopped.store(true, Ordering::Relaxed);
                    return c;
                }
                let mut w = Searcher::new(self, &groups, None);
                w.mirror_canon = true;
                w.memo = memo;
                w.placed = placed;
                w.stop = stop;
                w.count(node, &mut c, true);
                if w.stopped {
                    stopped.store(true, Ordering::Relaxed);
                }
                c.nodes = w.nodes;
                c.memo_hits = w.memo_hits;
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, total);
                c
            })
            .reduce(Count::default, |a, b| Count {
                count: a.count.saturating_add(b.count),
                symmetric: a.symmetric.saturating_add(b.symmetric),
                nodes: a.nodes + b.nodes,
                memo_hits: a.memo_hits + b.memo_hits,
            });
        if stopped.load(Ordering::Relaxed) {
            return None;
        }
        if shard.index() == 0 {
            c.nodes += expand_nodes;
        }
        Some(c)
    }

    /// Counts by listing every placement one by one (no closed-form leaves,
    /// one thread): the slow twin of [`Problem::count`].
    pub fn count_by_listing(&self) -> Count {
        let groups = self.groups();
        let mut s = Searcher::new(self, &groups, None);
        let mut c = Count::default();
        s.count(self.root(&groups), &mut c, false);
        c.nodes = s.nodes;
        c
    }

    /// Streams every placement to `visit` (in search order, one thread) until it breaks.
    /// Returns the number of search nodes.
    pub fn for_each(&self, mut visit: impl FnMut(&Placement) -> ControlFlow<()>) -> u64 {
        let groups = self.groups();
        let mut s = Searcher::new(self, &groups, None);
        let _ = s.list(self.root(&groups), &mut |placed| {
            visit(&Placement::from_cells(placed))
        });
        s.nodes
    }

    /// Looks for one placement, in parallel, visiting at most about `node_limit`
    /// nodes (`None`: no limit). `Impossible` only after an exhaustive search.
    /// Returns the answer and the nodes visited.
    pub fn first(&self, node_limit: Option<u64>) -> (First, u64) {
        self.first_impl(node_limit, None).expect("no stop request")
    }

    /// [`Problem::first`] that gives up once `stop()` says so (`None`), asked every 4 096
    /// nodes of each worker (where the node limit is checked). For a caller on another
    /// thread that must stay interruptible (Python's Ctrl-C). A placement found before the
    /// stop is still answered.
    pub fn first_until(
        &self,
        node_limit: Option<u64>,
        stop: &(dyn Fn() -> bool + Sync),
    ) -> Option<(First, u64)> {
        self.first_impl(node_limit, Some(stop))
    }

    fn first_impl(
        &self,
        node_limit: Option<u64>,
        interrupt: Option<&(dyn Fn() -> bool + Sync)>,
    ) -> Option<(First, u64)> {
        let groups = self.groups();
        let budget = Budget {
            stop: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            limit: node_limit.unwrap_or(u64::MAX),
            interrupt,
            interrupted: AtomicBool::new(false),
        };
        let s = Searcher::new(self, &groups, None);
        let (frontier, expand_nodes) = s.frontier(self.root(&groups), 1);
        budget.nodes.fetch_add(expand_nodes, Ordering::Relaxed);
        let found = frontier.into_par_iter().find_map_any(|(node, placed)| {
            let mut w = Searcher::new(self, &groups, Some(&budget));
            w.placed = placed;
            let mut answer = None;
            let _ = w.list(node, &mut |p| {
                answer = Some(Placement::from_cells(p));
                ControlFlow::Break(())
            });
            budget
                .nodes
                .fetch_add(w.nodes - w.flushed, Ordering::Relaxed);
            if answer.is_some() {
                budget.stop.store(true, Ordering::Relaxed);
            }
            answer
        });
        let nodes = budget.nodes.load(Ordering::Relaxed);
        Some(match found {
            Some(p) => (First::Found(p), nodes),
            None if budget.interrupted.load(Ordering::Relaxed) => return None,
            None if nodes > budget.limit || budget.stop.load(Ordering::Relaxed) => {
                (First::Unknown, nodes)
            }
            None => (First::Impossible, nodes),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A stop closure that says "stop" from its `n`-th call on, and counts its calls.
    fn stop_after(n: u64) -> (AtomicU64, impl Fn(&AtomicU64) -> bool) {
        (AtomicU64::new(0), move |calls: &AtomicU64| {
            calls.fetch_add(1, Ordering::Relaxed) + 1 >= n
        })
    }

    /// A stop request ends a count, a search for one placement and a worker deep in its
    /// recursion (asked every `STOP_POLL` nodes); without one the answers are the plain ones.
    #[test]
    fn stop_requests_end_counts_and_searches() {
        let p = Problem::new(PieceSet::parse("R2B2").unwrap(), Directions::One);
        let whole = p.count();
        let never = p.count_shard_until(Shard::WHOLE, &|_, _| {}, &|| false);
        assert_eq!(never, Some(whole));
        let (calls, stop) = stop_after(1);
        assert_eq!(
            p.count_shard_until(Shard::WHOLE, &|_, _| {}, &|| stop(&calls)),
            None
        );
        // One worker over the whole tree (711 526 nodes): the second call, at node
        // 2 × STOP_POLL, ends it; the levels above count one more node each as they end.
        let groups = p.groups();
        let memo = TailMemo::new(&groups, p.dirs, default_memo_bytes());
        let (calls, stop) = stop_after(2);
        let stop = || stop(&calls);
        let mut w = Searcher::new(&p, &groups, None);
        w.mirror_canon = true;
        w.memo = Some(&memo);
        w.stop = Some(&stop);
        let mut c = Count::default();
        w.count(p.root(&groups), &mut c, true);
        assert!(w.stopped);
        assert_eq!(calls.load(Ordering::Relaxed), 2);
        assert!(
            (2 * STOP_POLL..2 * STOP_POLL + 4).contains(&w.nodes),
            "{}",
            w.nodes
        );
        assert!(c.count < whole.count);
        // `first`: an exhaustive search (R9K is impossible: 12.5 M nodes) stopped at its
        // first check, and one that finds a placement before it is asked.
        let hard = Problem::new(PieceSet::parse("R9K").unwrap(), Directions::One);
        let (calls, stop) = stop_after(1);
        assert_eq!(hard.first_until(None, &|| stop(&calls)), None);
        assert_eq!(
            p.first_until(None, &|| false).map(|(f, _)| f),
            Some(p.first(None).0)
        );
    }

    #[test]
    fn counts_do_not_depend_on_the_memo_budget() {
        let p = Problem::new(PieceSet::parse("R2LN3P2").unwrap(), Directions::One).on_board(5, 5);
        let plain = p.count_unmemoised();
        let mut hits = Vec::new();
        for budget in [0, 64 * 600, 64 * 4_000, MEMO_MAX_BYTES] {
            let c = p.count_shard_limited(Shard::WHOLE, budget, &|_, _| {});
            assert_eq!((c.count, c.symmetric), (plain.count, plain.symmetric));
            hits.push(c.memo_hits);
        }
        assert!(plain.count > 0);
        // A smaller memo remembers less: the budgets make a difference.
        assert_eq!(hits[0], 0, "{hits:?}");
        assert!(hits[0] < hits[1] && hits[1] < hits[3], "{hits:?}");
    }
}
