//! Strongest-first depth-first search with 劣化駒 pruning (seed
//! `003_88f5bd36583eaf31.txt`): pieces are placed from the strongest kind to
//! the weakest, identical pieces on increasing squares (each multiset once),
//! and a node is cut as soon as the pieces still to place, degraded to pawns
//! (every kind that attacks the square in front of it) and stones (桂, 角),
//! fail the exact pawn/stone test of [`super::feasibility`]. Counting in one
//! direction stops at the pawns: the placements of `n` Sente pawns on the
//! remaining free squares are counted in closed form (no two pawns adjacent in
//! a file, none right under an occupied square).

use super::feasibility::{feasible, Directions};
use super::pieces::{Cell, Kind, PieceSet};
use super::Placement;
use crate::rules::{Bitboard, Color, PieceKind, Square};
use crate::shard::Shard;
use rayon::prelude::*;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Mutex;

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

/// Result of counting.
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
        (self.count + self.symmetric) / 2
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

#[derive(Debug, Clone, Copy)]
struct Group {
    kind: Kind,
    count: u32,
    colors: &'static [Color],
}

#[derive(Debug, Clone, Copy)]
struct Node {
    occ: u128,
    att: u128,
    gi: usize,
    left: u32,
    min_sq: usize,
    pawns: u32,
    stones: u32,
    /// Squares holding Sente pieces.
    sente: u128,
    /// `occ` when the current group started.
    gstart: u128,
    /// Mirror canonicalisation: `true` once this branch is known to be the
    /// lesser of a mirror pair (its leaves then count twice, none symmetric).
    doubled: bool,
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

    fn groups(&self) -> Vec<Group> {
        let order = match self.dirs {
            Directions::One => &SEARCH_ORDER_ONE,
            Directions::Two => &STRONGEST_FIRST,
        };
        // Queens (N-queens oracle) first: they are the longest-range pieces.
        std::iter::once(Kind::Queen)
            .chain(order.iter().map(|&k| Kind::Shogi(k)))
            .filter(|&k| self.set.count_kind(k) > 0)
            .map(|k| Group {
                kind: k,
                count: self.set.count_kind(k),
                colors: colors_for_kind(self.dirs, k),
            })
            .collect()
    }

    fn root(&self, groups: &[Group]) -> Node {
        let stones: u32 = groups
            .iter()
            .filter(|g| {
                g.kind == Kind::Shogi(PieceKind::Knight) || g.kind == Kind::Shogi(PieceKind::Bishop)
            })
            .map(|g| g.count)
            .sum();
        Node {
            occ: 0,
            // Squares off the board count as attacked: nothing goes there, attacking them is harmless.
            att: !self.region().0 & Bitboard::FULL.0,
            gi: 0,
            left: groups.first().map_or(0, |g| g.count),
            min_sq: 0,
            pawns: self.set.total() - stones,
            stones,
            sente: 0,
            gstart: 0,
            doubled: false,
        }
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
                count: a.count + b.count,
                symmetric: a.symmetric + b.symmetric,
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

/// Pieces placed so far, in placement order.
type Placed = Vec<(Square, Cell)>;
/// A listing callback.
type Visit<'v> = dyn FnMut(&[(Square, Cell)]) -> ControlFlow<()> + 'v;

/// The shared limits of [`Problem::first`]'s workers.
struct Budget<'a> {
    /// Set when the search is over (a placement found, the node limit passed, a stop).
    stop: AtomicBool,
    nodes: AtomicU64,
    limit: u64,
    /// Asked with the node limit ([`Problem::first_until`]).
    interrupt: Option<&'a (dyn Fn() -> bool + Sync)>,
    /// `interrupt` said so.
    interrupted: AtomicBool,
}

/// How many nodes a counting worker searches between two calls of its stop closure
/// ([`Problem::count_shard_until`]): the call and the test stay off the hot path.
pub const STOP_POLL: u64 = 1 << 14;

struct Searcher<'a> {
    dirs: Directions,
    groups: &'a [Group],
    placed: Placed,
    nodes: u64,
    flushed: u64,
    budget: Option<&'a Budget<'a>>,
    /// Counting: asked every [`STOP_POLL`] nodes ([`Problem::count_shard_until`]).
    stop: Option<&'a (dyn Fn() -> bool + Sync)>,
    /// `stop` said so: the count is abandoned (what it returns is meaningless).
    stopped: bool,
    /// One direction and the last group is the pawns: count them in closed form.
    pawn_leaf: Option<usize>,
    files: u8,
    region: u128,
    /// Counting with closed-form pawn leaves: count one placement of each
    /// mirror pair (see [`Searcher::children`]).
    mirror_canon: bool,
    /// Counting: the shared memo of tail counts (see [`TailMemo`]).
    memo: Option<&'a TailMemo>,
    memo_hits: u64,
}

impl<'a> Searcher<'a> {
    fn new(p: &Problem, groups: &'a [Group], budget: Option<&'a Budget<'a>>) -> Searcher<'a> {
        let pawn_leaf = match groups.last() {
            Some(g) if g.kind == Kind::Shogi(PieceKind::Pawn) && p.dirs == Directions::One => {
                Some(groups.len() - 1)
            }
            _ => None,
        };
        Searcher {
            dirs: p.dirs,
            groups,
            placed: Vec::new(),
            nodes: 0,
            flushed: 0,
            budget,
            stop: None,
            stopped: false,
            pawn_leaf,
            files: p.files,
            region: p.region().0,
            mirror_canon: false,
            memo: None,
            memo_hits: 0,
        }
    }

    /// Calls `f` for each child of a non-leaf node that passes the pruning test.
    #[inline]
    fn children(
        &self,
        n: &Node,
        mut f: impl FnMut(Node, Square, Cell) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let g = self.groups[n.gi];
        let stone = matches!(g.kind, Kind::Shogi(k) if degrades_to_stone(k));
        let (pawns, stones) = if stone {
            (n.pawns, n.stones - 1)
        } else {
            (n.pawns - 1, n.stones)
        };
        let free = !(n.occ | n.att) & Bitboard::FULL.0 & (!0u128 << n.min_sq);
        let last = n.gi + 1 == self.groups.len();
        for sq in Bitboard(free) {
            let bit = 1u128 << sq.index();
            for &color in g.colors {
                let a = g.kind.attacks(color, sq, Bitboard(n.occ)).0;
                if a & n.occ != 0 {
                    continue;
                }
                let (occ, att) = (n.occ | bit, n.att | a);
                // In the last group the remaining pieces go on later squares only:
                // for the test, the earlier free squares count as attacked (never used).
                let test_att = if last { (att | (bit - 1)) & !occ } else { att };
                if !feasible(self.dirs, occ, test_att, pawns, stones) {
                    continue;
                }
                let mut child = Node {
                    occ,
                    att,
                    gi: n.gi,
                    left: n.left - 1,
                    min_sq: sq.index() + 1,
                    pawns,
                    stones,
                    sente: if color == Color::Sente {
                        n.sente | bit
                    } else {
                        n.sente
                    },
                    gstart: n.gstart,
                    doubled: n.doubled,
                };
                if child.left == 0 {
                    if self.mirror_canon && !child.doubled {
                        // Every earlier group is its own mirror image; this group
                        // decides which of a mirror pair is searched: the one whose
                        // group is smaller than its mirror image, counted twice.
                        let g = (child.sente & !n.gstart, occ & !child.sente & !n.gstart);
                        let m = (mirror_bb(g.0, self.files), mirror_bb(g.1, self.files));
                        match g.cmp(&m) {
                            std::cmp::Ordering::Greater => continue,
                            std::cmp::Ordering::Less => child.doubled = true,
                            std::cmp::Ordering::Equal => {}
                        }
                    }
                    child.gstart = occ;
                    child.gi += 1;
                    child.min_sq = 0;
                    child.left = self.groups.get(child.gi).map_or(0, |g| g.count);
                }
                f(
                    child,
                    sq,
                    Cell {
                        color,
                        kind: g.kind,
                    },
                )?;
            }
        }
        ControlFlow::Continue(())
    }

    fn is_leaf(&self, n: &Node) -> bool {
        n.gi == self.groups.len()
    }

    /// Expands `depth` plies breadth-first (leaves and closed-form leaves stay as they are).
    fn frontier(&self, root: Node, depth: u32) -> (Vec<(Node, Placed)>, u64) {
        let mut level = vec![(root, Vec::new())];
        let mut nodes = 0;
        for _ in 0..depth {
            let mut next = Vec::new();
            for (n, placed) in level {
                if self.is_leaf(&n) || self.pawn_leaf == Some(n.gi) {
                    next.push((n, placed));
                    continue;
                }
                let _ = self.children(&n, |c, sq, p| {
                    let mut pl = placed.clone();
                    pl.push((sq, p));
                    nodes += 1;
                    next.push((c, pl));
                    ControlFlow::Continue(())
                });
            }
            level = next;
        }
        (level, nodes)
    }

    /// Whether the count is abandoned (called as each node is counted): `stop` is asked
    /// when the node count reaches a multiple of [`STOP_POLL`].
    #[inline]
    fn stopping(&mut self) -> bool {
        if self.nodes % STOP_POLL == 0 {
            if let Some(stop) = self.stop {
                self.stopped |= stop();
            }
        }
        self.stopped
    }

    fn count(&mut self, n: Node, c: &mut Count, closed_form: bool) {
        if n.doubled && closed_form && self.memo.is_some() {
            // The lesser of a mirror pair: no more mirror bookkeeping below,
            // every completion counts twice.
            c.count += 2 * self.raw(n);
            return;
        }
        if self.is_leaf(&n) {
            if n.doubled {
                c.count += 2;
            } else {
                c.count += 1;
                c.symmetric += is_mirror_symmetric(&self.placed, self.files) as u64;
            }
            return;
        }
        if closed_form && self.pawn_leaf == Some(n.gi) {
            let region_att = n.att & self.region;
            let symmetric_board = !n.doubled
                && mirror_bb(region_att, self.files) == region_att
                && is_mirror_symmetric(&self.placed, self.files);
            let (all, sym) =
                pawn_completions(n.occ, n.att, n.left as usize, symmetric_board, self.files);
            c.count += if n.doubled { 2 * all } else { all };
            c.symmetric += sym;
            return;
        }
        let mut kids = arrayvec::ArrayVec::<(Node, Square, Cell), 162>::new();
        let _ = self.children(&n, |child, sq, p| {
            kids.push((child, sq, p));
            ControlFlow::Continue(())
        });
        // Iterate by reference: moving the whole buffer costs more than the search.
        for &(child, sq, p) in kids.iter() {
            self.nodes += 1;
            if self.stopping() {
                return;
            }
            self.placed.push((sq, p));
            self.count(child, c, closed_form);
            self.placed.pop();
        }
    }

    /// Number of completions of `n` (no mirror bookkeeping), memoised at group
    /// boundaries by [`TailMemo`]; pawn leaves in closed form.
    fn raw(&mut self, n: Node) -> u64 {
        if self.is_leaf(&n) {
            return 1;
        }
        if self.pawn_leaf == Some(n.gi) {
            return pawn_completions(n.occ, n.att, n.left as usize, false, self.files).0;
        }
        let key = match self.memo {
            // Only at the start of a group (no piece of it placed yet, `min_sq` = 0).
            Some(m) if n.left == self.groups[n.gi].count => m.key(n.gi, n.occ, n.att),
            _ => None,
        };
        if let (Some(m), Some(k)) = (self.memo, key) {
            if let Some(v) = m.get(&k) {
                self.memo_hits += 1;
                return v;
            }
        }
        let mut kids = arrayvec::ArrayVec::<Node, 162>::new();
        let _ = self.children(&n, |child, _, _| {
            kids.push(child);
            ControlFlow::Continue(())
        });
        let mut total = 0;
        for &child in kids.iter() {
            self.nodes += 1;
            if self.stopping() {
                // Abandoned: the partial total is not remembered.
                return total;
            }
            total += self.raw(child);
        }
        if let (Some(m), Some(k)) = (self.memo, key) {
            m.insert(k, total);
        }
        total
    }

    fn list(&mut self, n: Node, visit: &mut Visit<'_>) -> ControlFlow<()> {
        if self.is_leaf(&n) {
            return visit(&self.placed);
        }
        if let Some(b) = self.budget {
            if self.nodes - self.flushed >= 4096 {
                let total = b
                    .nodes
                    .fetch_add(self.nodes - self.flushed, Ordering::Relaxed)
                    + self.nodes
                    - self.flushed;
                self.flushed = self.nodes;
                if total > b.limit {
                    b.stop.store(true, Ordering::Relaxed);
                }
                if b.interrupt.is_some_and(|f| f()) {
                    b.interrupted.store(true, Ordering::Relaxed);
                    b.stop.store(true, Ordering::Relaxed);
                }
            }
            if b.stop.load(Ordering::Relaxed) {
                return ControlFlow::Break(());
            }
        }
        let mut kids = arrayvec::ArrayVec::<(Node, Square, Cell), 162>::new();
        let _ = self.children(&n, |child, sq, p| {
            kids.push((child, sq, p));
            ControlFlow::Continue(())
        });
        for &(child, sq, p) in kids.iter() {
            self.nodes += 1;
            self.placed.push((sq, p));
            let r = self.list(child, visit);
            self.placed.pop();
            r?;
        }
        ControlFlow::Continue(())
    }
}

/// Memo of completion counts at group boundaries (counting only).
///
/// When a group starts, the pieces still to place are fixed by the group
/// index, and the completions depend only on the free squares `F` and on
/// which squares of `R` are occupied, where `R` is every square a remaining
/// kind could attack from a square of `F` on an empty board: each new piece
/// goes on a square of `F`; whether its (blocked) attacks hit a piece and
/// which squares they take away from `F` is decided by the occupancy of its
/// unblocked attack set, which lies in `R`. Squares outside `F ∪ R` —
/// occupied or attacked — change nothing. So the key is
/// `(group, F, occupied ∩ R)`, and boards that differ only outside it share
/// one count. Groups still holding a long-range slider other than the lance
/// (飛 角 龍 馬) are not memoised (their `R` is nearly the whole board).
pub(crate) struct TailMemo {
    /// `reach[gi][sq]`: squares any kind of groups `gi..` attacks from `sq` (empty board);
    /// `None` where the group is not memoised.
    reach: Vec<Option<[u128; 81]>>,
    shards: Vec<Mutex<MemoShard>>,
    /// Each shard's share of the memory budget, in bytes.
    shard_bytes: u64,
}

type MemoShard = HashMap<MemoKey, u64, BuildHasherDefault<PassHasher>>;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct MemoKey {
    gi: u8,
    free: u128,
    occ: u128,
    hash: u64,
}

/// The key's `hash` field is already mixed: pass it through.
#[derive(Default)]
struct PassHasher(u64);

impl Hasher for PassHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u8(&mut self, _: u8) {}
    fn write_u128(&mut self, _: u128) {}
    fn write_u64(&mut self, h: u64) {
        self.0 = h;
    }
}

const MEMO_SHARDS: usize = 64;

/// The largest default budget of the tail memo: 2.5 GiB, which its tables fill
/// to 64 × 2¹⁹ buckets × 65 bytes = 2.18 GB (29 M entries; the next doubling would
/// not fit).
pub const MEMO_MAX_BYTES: u64 = 5 << 29;

/// The tail memo's default budget: [`MEMO_MAX_BYTES`], or half the memory available
/// when the count starts if that is less ([`crate::resources::default_memory_limit`]).
pub fn default_memo_bytes() -> u64 {
    crate::resources::default_memory_limit().min(MEMO_MAX_BYTES)
}

/// The buckets of a shard table that holds `capacity` entries without growing: the
/// hash table (hashbrown) has a power of two of them, at least 4, and keeps at most
/// 7/8 of them full (all but one below 8).
fn buckets(capacity: usize) -> u64 {
    let c = capacity as u64;
    match c {
        0 => 0,
        1..=7 => (c + 1).next_power_of_two(),
        _ => (c * 8 / 7).next_power_of_two(),
    }
}

/// The bytes of a shard table of `buckets` buckets: one entry and one control byte each.
fn table_bytes(buckets: u64) -> u64 {
    buckets * (std::mem::size_of::<(MemoKey, u64)>() as u64 + 1)
}

fn mix(mut x: u64) -> u64 {
    x ^= x >> 33;
    x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
    x ^= x >> 33;
    x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    x ^ (x >> 33)
}

impl TailMemo {
    /// The memo of `groups`, its tables kept within `budget` bytes (a shard grows only
    /// while its doubled table fits its 1/64 share; then it stops taking entries).
    fn new(groups: &[Group], dirs: Directions, budget: u64) -> TailMemo {
        let long = |k: Kind| {
            matches!(
                k,
                Kind::Queen
                    | Kind::Shogi(
                        PieceKind::Rook | PieceKind::Bishop | PieceKind::Dragon | PieceKind::Horse
                    )
            )
        };
        let reach = (0..groups.len())
            .map(|gi| {
                let rest = &groups[gi..];
                if gi == 0 || rest.iter().any(|g| long(g.kind)) {
                    return None;
                }
                let mut t = [0u128; 81];
                for (i, e) in t.iter_mut().enumerate() {
                    let sq = Square::from_index(i).expect("index < 81");
                    for g in rest {
                        for &color in colors_for_kind(dirs, g.kind) {
                            *e |= g.kind.attacks(color, sq, Bitboard::EMPTY).0;
                        }
                    }
                }
                Some(t)
            })
            .collect();
        TailMemo {
            reach,
            shards: (0..MEMO_SHARDS).map(|_| Mutex::default()).collect(),
            shard_bytes: budget / MEMO_SHARDS as u64,
        }
    }

    /// The key of a node at the start of group `gi`, or `None` if that group is not memoised.
    fn key(&self, gi: usize, occ: u128, att: u128) -> Option<MemoKey> {
        let reach = self.reach[gi].as_ref()?;
        let free = !(occ | att) & Bitboard::FULL.0;
        let r = Bitboard(free).fold(0u128, |r, sq| r | reach[sq.index()]);
        let occ = occ & r;
        let h = [
            free as u64,
            (free >> 64) as u64,
            occ as u64,
            (occ >> 64) as u64,
        ]
        .into_iter()
        .fold(gi as u64, |h, w| mix(h ^ w));
        Some(MemoKey {
            gi: gi as u8,
            free,
            occ,
            hash: h,
        })
    }

    fn get(&self, k: &MemoKey) -> Option<u64> {
        let shard = self.shards[k.hash as usize % MEMO_SHARDS]
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        shard.get(k).copied()
    }

    fn insert(&self, k: MemoKey, v: u64) {
        let mut shard = self.shards[k.hash as usize % MEMO_SHARDS]
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        // Room without growing, or a doubled table that still fits the shard's share
        // (a new table starts at 4 buckets, then doubles).
        let room = shard.len() < shard.capacity()
            || shard.contains_key(&k)
            || table_bytes((2 * buckets(shard.capacity())).max(4)) <= self.shard_bytes;
        if room {
            shard.insert(k, v);
        }
    }
}

/// The mirror image of a square on a board of `files` files (file f → files + 1 − f).
fn mirror_sq(s: Square, files: u8) -> Square {
    Square::new(files + 1 - s.file(), s.rank()).expect("on the board")
}

/// Whether a list of pieces equals its left-right mirror image on a board of `files` files.
fn is_mirror_symmetric(placed: &[(Square, Cell)], files: u8) -> bool {
    let occ: u128 = placed.iter().map(|(s, _)| 1u128 << s.index()).sum();
    let mirrored: u128 = placed
        .iter()
        .map(|&(s, _)| 1u128 << mirror_sq(s, files).index())
        .sum();
    occ == mirrored
        && placed.iter().all(|&(s, p)| {
            placed
                .iter()
                .any(|&(t, q)| t == mirror_sq(s, files) && q == p)
        })
}

/// A bitboard of the first `files` files mirrored left-right (file f → files + 1 − f).
fn mirror_bb(b: u128, files: u8) -> u128 {
    let n = files as u32;
    (0..n).fold(0u128, |m, f| {
        m | ((b >> (9 * f)) & 0x1ff) << (9 * (n - 1 - f))
    })
}

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
fn pawn_completions(
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
            out[j] += a * wk;
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

    fn key(i: u64) -> MemoKey {
        MemoKey {
            gi: 1,
            free: i as u128,
            occ: 0,
            hash: mix(i),
        }
    }

    #[test]
    fn memo_tables_stay_within_their_budget() {
        let p = Problem::new(PieceSet::parse("GSP").unwrap(), Directions::One);
        let groups = p.groups();
        for budget in [0u64, 64 * 600, 64 * 40_000, 1 << 30] {
            let memo = TailMemo::new(&groups, p.dirs, budget);
            for i in 0..200_000 {
                memo.insert(key(i), i);
            }
            let mut kept = 0;
            for shard in &memo.shards {
                let shard = shard.lock().unwrap();
                assert!(
                    table_bytes(buckets(shard.capacity())) <= memo.shard_bytes,
                    "budget {budget}: a shard of {} entries",
                    shard.capacity()
                );
                kept += shard.len();
            }
            // What is kept is remembered; a large budget keeps everything.
            assert_eq!(memo.get(&key(0)).is_some(), kept > 0 && budget > 0);
            if budget == 1 << 30 {
                assert_eq!(kept, 200_000);
                assert!((0..200_000).all(|i| memo.get(&key(i)) == Some(i)));
            } else {
                assert!(kept < 200_000, "budget {budget}: {kept} kept");
            }
        }
    }

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
