//! The long-range pieces (飛 角 龍 馬, queens), laid out before the sweep by plain
//! enumeration.

use super::budget::{layout_bytes, Budget};
use super::Problem;
use crate::placement::feasibility::{feasible, Directions};
use crate::placement::pieces::Kind;
use crate::rules::{Bitboard, Color, PieceKind, Square};
use crate::shard::Shard;

/// Kinds laid out before the sweep (their attacks reach across the board).
const LONG_RANGE: [Kind; 5] = [
    Kind::Queen,
    Kind::Shogi(PieceKind::Dragon),
    Kind::Shogi(PieceKind::Horse),
    Kind::Shogi(PieceKind::Rook),
    Kind::Shogi(PieceKind::Bishop),
];

pub(super) fn is_long_range(kind: Kind) -> bool {
    LONG_RANGE.contains(&kind)
}

/// A layout of the long-range pieces.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Layout {
    /// Squares holding a long-range piece.
    pub(super) occ: Bitboard,
    /// Squares they attack (their lines run to the edge: nothing may stand on them).
    pub(super) att: Bitboard,
    /// The pieces, sorted (for comparing with the mirror image).
    pub(super) pieces: Vec<(Kind, Square)>,
}

impl Layout {
    pub(super) fn mirror(&self, region: Bitboard) -> Layout {
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

    pub(super) fn key(&self) -> Vec<(usize, usize)> {
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
pub(super) fn long_range_layouts(
    problem: &Problem,
    shard: Shard,
    budget: &Budget<'_>,
) -> Option<Vec<Layout>> {
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
