//! The depth-first search itself: nodes, their children under the pruning test,
//! and the three walks over them (count, raw completion count, listing).

use super::mirror::{is_mirror_symmetric, mirror_bb};
use super::pawn_leaf::pawn_completions;
use super::tail_memo::TailMemo;
use super::{
    colors_for_kind, degrades_to_stone, Count, Problem, SEARCH_ORDER_ONE, STRONGEST_FIRST,
};
use crate::placement::feasibility::{feasible, Directions};
use crate::placement::pieces::{Cell, Kind};
use crate::rules::{Bitboard, Color, PieceKind, Square};
use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

#[derive(Debug, Clone, Copy)]
pub(super) struct Group {
    pub(super) kind: Kind,
    pub(super) count: u32,
    colors: &'static [Color],
}

#[derive(Debug, Clone, Copy)]
pub(super) struct Node {
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
    pub(super) fn groups(&self) -> Vec<Group> {
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

    pub(super) fn root(&self, groups: &[Group]) -> Node {
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
}

/// Pieces placed so far, in placement order.
pub(super) type Placed = Vec<(Square, Cell)>;
/// A listing callback.
type Visit<'v> = dyn FnMut(&[(Square, Cell)]) -> ControlFlow<()> + 'v;

/// The shared limits of [`Problem::first`]'s workers.
pub(super) struct Budget<'a> {
    /// Set when the search is over (a placement found, the node limit passed, a stop).
    pub(super) stop: AtomicBool,
    pub(super) nodes: AtomicU64,
    pub(super) limit: u64,
    /// Asked with the node limit ([`Problem::first_until`]).
    pub(super) interrupt: Option<&'a (dyn Fn() -> bool + Sync)>,
    /// `interrupt` said so.
    pub(super) interrupted: AtomicBool,
}

/// How many nodes a counting worker searches between two calls of its stop closure
/// ([`Problem::count_shard_until`]): the call and the test stay off the hot path.
pub const STOP_POLL: u64 = 1 << 14;

pub(super) struct Searcher<'a> {
    dirs: Directions,
    groups: &'a [Group],
    pub(super) placed: Placed,
    pub(super) nodes: u64,
    pub(super) flushed: u64,
    budget: Option<&'a Budget<'a>>,
    /// Counting: asked every [`STOP_POLL`] nodes ([`Problem::count_shard_until`]).
    pub(super) stop: Option<&'a (dyn Fn() -> bool + Sync)>,
    /// `stop` said so: the count is abandoned (what it returns is meaningless).
    pub(super) stopped: bool,
    /// One direction and the last group is the pawns: count them in closed form.
    pawn_leaf: Option<usize>,
    files: u8,
    region: u128,
    /// Counting with closed-form pawn leaves: count one placement of each
    /// mirror pair (see [`Searcher::children`]).
    pub(super) mirror_canon: bool,
    /// Counting: the shared memo of tail counts (see [`TailMemo`]).
    pub(super) memo: Option<&'a TailMemo>,
    pub(super) memo_hits: u64,
}

impl<'a> Searcher<'a> {
    pub(super) fn new(
        p: &Problem,
        groups: &'a [Group],
        budget: Option<&'a Budget<'a>>,
    ) -> Searcher<'a> {
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
    pub(super) fn frontier(&self, root: Node, depth: u32) -> (Vec<(Node, Placed)>, u64) {
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

    pub(super) fn count(&mut self, n: Node, c: &mut Count, closed_form: bool) {
        if n.doubled && closed_form && self.memo.is_some() {
            // The lesser of a mirror pair: no more mirror bookkeeping below,
            // every completion counts twice.
            let raw = self.raw(n);
            c.count = c.count.saturating_add(raw.saturating_mul(2));
            return;
        }
        if self.is_leaf(&n) {
            if n.doubled {
                c.count = c.count.saturating_add(2);
            } else {
                c.count = c.count.saturating_add(1);
                c.symmetric = c
                    .symmetric
                    .saturating_add(is_mirror_symmetric(&self.placed, self.files) as u64);
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
            c.count = c.count.saturating_add(if n.doubled {
                all.saturating_mul(2)
            } else {
                all
            });
            c.symmetric = c.symmetric.saturating_add(sym);
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
            total = self.raw(child).saturating_add(total);
        }
        if let (Some(m), Some(k)) = (self.memo, key) {
            m.insert(k, total);
        }
        total
    }

    pub(super) fn list(&mut self, n: Node, visit: &mut Visit<'_>) -> ControlFlow<()> {
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
