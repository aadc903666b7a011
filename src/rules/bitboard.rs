//! 81-square bitboards (`u128`, bit = [`Square::index`]) and attack tables
//! computed at compile time by `const fn`. Sliders use ray tables and the
//! first blocker (lowest set bit for rays toward higher indices, highest for
//! the others). Every table has a naive square-walking twin
//! ([`attacks_naive`]) compared exhaustively in the tests.

use super::types::{Color, PieceKind, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Bitboard(pub u128);

const FULL: u128 = (1u128 << 81) - 1;

impl Bitboard {
    /// No squares.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// All 81 squares.
    pub const FULL: Bitboard = Bitboard(FULL);

    /// The set holding only `sq`.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1u128 << sq.index())
    }
    /// Whether `sq` is in the set.
    #[inline]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }
    /// Whether the set is empty.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Number of squares (the CPU's `popcnt` when it has one: `rules::popcount`).
    #[inline]
    pub fn count(self) -> u32 {
        super::popcount::count(self.0)
    }
    /// Whether more than one square is set.
    #[inline]
    pub const fn has_more_than_one(self) -> bool {
        self.0 & self.0.wrapping_sub(1) != 0
    }
    /// The lowest square, if any.
    #[inline]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(
                self.0.trailing_zeros() as usize
            ))
        }
    }
    /// The set with `sq` added.
    #[inline]
    pub const fn with(self, sq: Square) -> Bitboard {
        Bitboard(self.0 | 1u128 << sq.index())
    }
    /// The set with `sq` removed.
    #[inline]
    pub const fn without(self, sq: Square) -> Bitboard {
        Bitboard(self.0 & !(1u128 << sq.index()))
    }
    /// All squares of file `file` (1–9).
    pub const fn file_mask(file: u8) -> Bitboard {
        Bitboard(0x1ffu128 << ((file as u32 - 1) * 9))
    }
    /// All squares of rank `rank` (1–9).
    pub const fn rank_mask(rank: u8) -> Bitboard {
        let mut b = 0u128;
        let mut f = 0;
        while f < 9 {
            b |= 1u128 << (f * 9 + rank as u32 - 1);
            f += 1;
        }
        Bitboard(b)
    }
    /// Ranks whose relative rank for `color` is in `lo..=hi` (1 = far rank).
    pub const fn relative_ranks(color: Color, lo: u8, hi: u8) -> Bitboard {
        let mut b = 0u128;
        let mut r = lo;
        while r <= hi {
            let rank = match color {
                Color::Sente => r,
                Color::Gote => 10 - r,
            };
            b |= Self::rank_mask(rank).0;
            r += 1;
        }
        Bitboard(b)
    }
}

impl Iterator for Bitboard {
    type Item = Square;
    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(Square::from_index_unchecked(i))
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

macro_rules! bit_ops {
    ($tr:ident, $f:ident, $tra:ident, $fa:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, o: Bitboard) -> Bitboard { Bitboard(self.0 $op o.0) }
        }
        impl $tra for Bitboard {
            #[inline]
            fn $fa(&mut self, o: Bitboard) { self.0 = self.0 $op o.0; }
        }
    };
}
bit_ops!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_ops!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_ops!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0 & FULL)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "Bitboard(")?;
        for rank in 1..=9 {
            for file in (1..=9).rev() {
                let sq = Square::new(file, rank).expect("valid");
                write!(f, "{}", if self.has(sq) { 'x' } else { '.' })?;
            }
            writeln!(f)?;
        }
        write!(f, ")")
    }
}

/// The eight directions as (Δfile, Δrank) with rank growing toward Sente
/// (rank 9). Directions 0–3 raise the square index, 4–7 lower it.
pub const DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),
    (1, 0),
    (1, -1),
    (1, 1),
    (0, -1),
    (-1, 0),
    (-1, 1),
    (-1, -1),
];
// Invariant: direction d + 4 is the opposite of direction d.

const fn step(sq: usize, df: i8, dr: i8) -> Option<usize> {
    let f = (sq / 9) as i8 + df;
    let r = (sq % 9) as i8 + dr;
    if f >= 0 && f < 9 && r >= 0 && r < 9 {
        Some(f as usize * 9 + r as usize)
    } else {
        None
    }
}

const fn build_rays() -> [[u128; 81]; 8] {
    let mut t = [[0u128; 81]; 8];
    let mut d = 0;
    while d < 8 {
        let mut sq = 0;
        while sq < 81 {
            let mut cur = sq;
            let mut b = 0u128;
            while let Some(n) = step(cur, DIRECTIONS[d].0, DIRECTIONS[d].1) {
                b |= 1u128 << n;
                cur = n;
            }
            t[d][sq] = b;
            sq += 1;
        }
        d += 1;
    }
    t
}

/// `RAYS[d][sq]`: the squares from `sq` (exclusive) to the edge in direction `d`.
pub static RAYS: [[u128; 81]; 8] = build_rays();

/// Step vectors (Δfile, Δrank) of the non-sliding part of each kind, for Sente.
const fn steps_of(kind: usize) -> &'static [(i8, i8)] {
    const PAWN: [(i8, i8); 1] = [(0, -1)];
    const KNIGHT: [(i8, i8); 2] = [(1, -2), (-1, -2)];
    const SILVER: [(i8, i8); 5] = [(0, -1), (1, -1), (-1, -1), (1, 1), (-1, 1)];
    const GOLD: [(i8, i8); 6] = [(0, -1), (1, -1), (-1, -1), (1, 0), (-1, 0), (0, 1)];
    const KING: [(i8, i8); 8] = [
        (0, -1),
        (1, -1),
        (-1, -1),
        (1, 0),
        (-1, 0),
        (0, 1),
        (1, 1),
        (-1, 1),
    ];
    const NONE: [(i8, i8); 0] = [];
    match kind {
        0 => &PAWN,
        2 => &KNIGHT,
        3 => &SILVER,
        4 | 8 | 9 | 10 | 11 => &GOLD,
        7 | 12 | 13 => &KING,
        _ => &NONE,
    }
}

/// Non-sliding attacks per color, kind and square (the full table behind [`STEPS`]).
pub(crate) const fn build_steps() -> [[[u128; 81]; 14]; 2] {
    let mut t = [[[0u128; 81]; 14]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 14 {
            let steps = steps_of(k);
            let mut sq = 0;
            while sq < 81 {
                let mut b = 0u128;
                let mut i = 0;
                while i < steps.len() {
                    let (df, dr) = steps[i];
                    let dr = if c == 0 { dr } else { -dr };
                    if let Some(n) = step(sq, df, dr) {
                        b |= 1u128 << n;
                    }
                    i += 1;
                }
                t[c][k][sq] = b;
                sq += 1;
            }
            k += 1;
        }
        c += 1;
    }
    t
}

const fn build_step_rows() -> [[[u128; 81]; STEP_ROWS]; 2] {
    let all = build_steps();
    let mut t = [[[0u128; 81]; STEP_ROWS]; 2];
    let mut c = 0;
    while c < 2 {
        let mut k = 0;
        while k < 14 {
            t[c][STEP_ROW[k] as usize] = all[c][k];
            k += 1;
        }
        c += 1;
    }
    t
}

/// Distinct step patterns: 歩, 桂, 銀, 金 (and と 杏 圭 全), 玉 (and the steps of 馬 龍), none (香 角 飛).
const STEP_ROWS: usize = 6;
/// The row of [`STEPS`] holding each kind's steps.
const STEP_ROW: [u8; 14] = [0, 5, 1, 2, 3, 5, 5, 4, 3, 3, 3, 3, 4, 4];
/// Non-sliding attacks per color, step pattern and square (15.5 KiB, so it stays in L1).
static STEPS: [[[u128; 81]; STEP_ROWS]; 2] = build_step_rows();

const fn build_direction_table() -> [[u8; 81]; 81] {
    let mut t = [[8u8; 81]; 81];
    let mut a = 0;
    while a < 81 {
        let mut d = 0;
        while d < 8 {
            let mut b = 0;
            while b < 81 {
                if RAYS_CONST[d][a] >> b & 1 != 0 {
                    t[a][b] = d as u8;
                }
                b += 1;
            }
            d += 1;
        }
        a += 1;
    }
    t
}
const RAYS_CONST: [[u128; 81]; 8] = build_rays();
/// `DIRECTION_TO[a][b]`: the direction from `a` to `b` if aligned, else 8.
static DIRECTION_TO: [[u8; 81]; 81] = build_direction_table();

/// The squares of ray `d` from `sq` up to and including the first blocker, branch-free:
/// toward higher indices the first blocker is the lowest set bit (`b & -b`), toward lower
/// indices the highest; an empty blocker set yields the whole ray. The highest bit is
/// found per 64-bit half, each known non-zero, so that the baseline build needs one `bsr`
/// each and a select (the `u128` leading-zero count adds the zero and `63 -` fix-ups).
#[inline(always)]
fn ray_attack(d: usize, sq: usize, occ: u128) -> u128 {
    let ray = RAYS[d][sq];
    let blockers = ray & occ;
    if d < 4 {
        let lowest = blockers & blockers.wrapping_neg();
        ray & (lowest << 1).wrapping_sub(1)
    } else {
        ray & (u128::MAX << highest_bit(blockers | 1))
    }
}

/// The index of the highest set bit of `x`, which is non-zero.
#[inline(always)]
fn highest_bit(x: u128) -> u32 {
    let (hi, lo) = ((x >> 64) as u64, x as u64);
    if hi != 0 {
        64 + hi.ilog2()
    } else {
        // Only reached with `lo != 0` (`x` is non-zero); `| 1` keeps `ilog2` total.
        (lo | 1).ilog2()
    }
}

/// Lance attacks of `color` from `sq`.
#[inline]
pub fn lance_attacks(color: Color, sq: Square, occ: Bitboard) -> Bitboard {
    // Sente's lance moves toward rank 1: direction (0,-1) = 4; Gote's (0,1) = 0.
    let d = if color == Color::Sente { 4 } else { 0 };
    Bitboard(ray_attack(d, sq.index(), occ.0))
}

/// Bishop attacks from `sq`.
#[inline]
pub fn bishop_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let s = sq.index();
    Bitboard(
        ray_attack(2, s, occ.0)
            | ray_attack(3, s, occ.0)
            | ray_attack(6, s, occ.0)
            | ray_attack(7, s, occ.0),
    )
}

/// Rook attacks from `sq`.
#[inline]
pub fn rook_attacks(sq: Square, occ: Bitboard) -> Bitboard {
    let s = sq.index();
    Bitboard(
        ray_attack(0, s, occ.0)
            | ray_attack(1, s, occ.0)
            | ray_attack(4, s, occ.0)
            | ray_attack(5, s, occ.0),
    )
}

const fn build_pseudo(dirs: [usize; 4]) -> [u128; 81] {
    let rays = build_rays();
    let mut t = [0u128; 81];
    let mut sq = 0;
    while sq < 81 {
        let mut i = 0;
        while i < 4 {
            t[sq] |= rays[dirs[i]][sq];
            i += 1;
        }
        sq += 1;
    }
    t
}
static BISHOP_PSEUDO: [u128; 81] = build_pseudo([2, 3, 6, 7]);
static ROOK_PSEUDO: [u128; 81] = build_pseudo([0, 1, 4, 5]);

/// Bishop attacks from `sq` on an empty board.
#[inline]
pub fn bishop_pseudo(sq: Square) -> Bitboard {
    Bitboard(BISHOP_PSEUDO[sq.index()])
}

/// Rook attacks from `sq` on an empty board (contains both lance rays).
#[inline]
pub fn rook_pseudo(sq: Square) -> Bitboard {
    Bitboard(ROOK_PSEUDO[sq.index()])
}

/// Non-sliding attacks of a piece (the king-step part for 馬 and 龍; empty for 香 角 飛).
#[inline]
pub fn step_attacks(color: Color, kind: PieceKind, sq: Square) -> Bitboard {
    Bitboard(STEPS[color.index()][STEP_ROW[kind.index()] as usize][sq.index()])
}

/// The squares a piece of `color` and `kind` on `sq` attacks, given occupancy `occ`.
#[inline(always)]
pub fn attacks(color: Color, kind: PieceKind, sq: Square, occ: Bitboard) -> Bitboard {
    match kind {
        PieceKind::Lance => lance_attacks(color, sq, occ),
        PieceKind::Bishop => bishop_attacks(sq, occ),
        PieceKind::Rook => rook_attacks(sq, occ),
        PieceKind::Horse => bishop_attacks(sq, occ) | step_attacks(color, kind, sq),
        PieceKind::Dragon => rook_attacks(sq, occ) | step_attacks(color, kind, sq),
        _ => step_attacks(color, kind, sq),
    }
}

/// Squares strictly between `a` and `b` if they share a line, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    let d = DIRECTION_TO[a.index()][b.index()] as usize;
    if d == 8 {
        return Bitboard::EMPTY;
    }
    Bitboard(RAYS[d][a.index()] ^ RAYS[d][b.index()] ^ (1u128 << b.index()))
}

/// The whole line through `a` and `b` (edge to edge) if aligned, else empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    let d = DIRECTION_TO[a.index()][b.index()] as usize;
    if d == 8 {
        return Bitboard::EMPTY;
    }
    Bitboard(RAYS[d][a.index()] | RAYS[(d + 4) % 8][a.index()] | (1u128 << a.index()))
}

/// One direction of a piece: (Δfile, Δforward, slides).
type Step = (i8, i8, bool);

const GOLD: [Step; 6] = [
    (0, 1, false),
    (1, 1, false),
    (-1, 1, false),
    (1, 0, false),
    (-1, 0, false),
    (0, -1, false),
];
const KING: [Step; 8] = [
    (0, 1, false),
    (1, 1, false),
    (-1, 1, false),
    (1, 0, false),
    (-1, 0, false),
    (0, -1, false),
    (1, -1, false),
    (-1, -1, false),
];
const SILVER: [Step; 5] = [
    (0, 1, false),
    (1, 1, false),
    (-1, 1, false),
    (1, -1, false),
    (-1, -1, false),
];
const BISHOP: [Step; 4] = [(1, 1, true), (1, -1, true), (-1, 1, true), (-1, -1, true)];
const ROOK: [Step; 4] = [(0, 1, true), (0, -1, true), (1, 0, true), (-1, 0, true)];
const HORSE: [Step; 8] = [
    (1, 1, true),
    (1, -1, true),
    (-1, 1, true),
    (-1, -1, true),
    (0, 1, false),
    (0, -1, false),
    (1, 0, false),
    (-1, 0, false),
];
const DRAGON: [Step; 8] = [
    (0, 1, true),
    (0, -1, true),
    (1, 0, true),
    (-1, 0, true),
    (1, 1, false),
    (1, -1, false),
    (-1, 1, false),
    (-1, -1, false),
];

/// The directions of `kind` (seen from its owner: Δforward > 0 is forward).
fn steps(kind: PieceKind) -> &'static [Step] {
    match kind {
        PieceKind::Pawn => &[(0, 1, false)],
        PieceKind::Lance => &[(0, 1, true)],
        PieceKind::Knight => &[(1, 2, false), (-1, 2, false)],
        PieceKind::Silver => &SILVER,
        PieceKind::King => &KING,
        PieceKind::Bishop => &BISHOP,
        PieceKind::Rook => &ROOK,
        PieceKind::Horse => &HORSE,
        PieceKind::Dragon => &DRAGON,
        PieceKind::Gold
        | PieceKind::ProPawn
        | PieceKind::ProLance
        | PieceKind::ProKnight
        | PieceKind::ProSilver => &GOLD,
    }
}

/// The naive twin of [`attacks`]: walks the board square by square, along the steps
/// of `steps` (no allocation: the certificate checker calls it for every move).
pub fn attacks_naive(color: Color, kind: PieceKind, sq: Square, occ: Bitboard) -> Bitboard {
    let fwd: i8 = if color == Color::Sente { -1 } else { 1 };
    let mut out = Bitboard::EMPTY;
    for &(df, dfwd, slides) in steps(kind) {
        let (mut f, mut r) = (sq.file() as i8, sq.rank() as i8);
        loop {
            f += df;
            r += dfwd * fwd;
            let Some(to) = Square::new(f as u8, r as u8).filter(|_| f >= 1 && r >= 1) else {
                break;
            };
            out = out.with(to);
            if !slides || occ.has(to) {
                break;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every subset of `mask` (carry-rippler enumeration).
    fn subsets(mask: u128) -> impl Iterator<Item = u128> {
        let mut sub: Option<u128> = Some(0);
        std::iter::from_fn(move || {
            let cur = sub?;
            let next = cur.wrapping_sub(mask) & mask;
            sub = if next == 0 { None } else { Some(next) };
            Some(cur)
        })
    }

    #[test]
    fn step_tables_match_naive_exhaustively() {
        for c in Color::ALL {
            for k in PieceKind::ALL {
                if matches!(
                    k,
                    PieceKind::Lance
                        | PieceKind::Bishop
                        | PieceKind::Rook
                        | PieceKind::Horse
                        | PieceKind::Dragon
                ) {
                    continue;
                }
                for sq in Square::all() {
                    assert_eq!(
                        attacks(c, k, sq, Bitboard::EMPTY),
                        attacks_naive(c, k, sq, Bitboard::EMPTY),
                        "{c:?} {k:?} {sq:?}"
                    );
                    assert_eq!(
                        attacks(c, k, sq, Bitboard::FULL),
                        attacks_naive(c, k, sq, Bitboard::FULL)
                    );
                }
            }
        }
    }

    /// Every slider on every square against every occupancy of the squares it can see.
    #[test]
    fn slider_tables_match_naive_on_every_relevant_occupancy() {
        for c in Color::ALL {
            for k in [
                PieceKind::Lance,
                PieceKind::Bishop,
                PieceKind::Rook,
                PieceKind::Horse,
                PieceKind::Dragon,
            ] {
                for sq in Square::all() {
                    let relevant = attacks_naive(c, k, sq, Bitboard::EMPTY).0;
                    let mut n = 0;
                    for occ in subsets(relevant) {
                        let occ = Bitboard(occ);
                        assert_eq!(
                            attacks(c, k, sq, occ),
                            attacks_naive(c, k, sq, occ),
                            "{c:?} {k:?} {sq:?}"
                        );
                        n += 1;
                    }
                    assert_eq!(n, 1u64 << relevant.count_ones());
                }
            }
        }
    }

    /// `highest_bit` against the `u128` leading-zero count on single bits and their
    /// neighbours (the half boundaries included).
    #[test]
    fn highest_bit_is_127_minus_leading_zeros() {
        for i in 0..128 {
            for x in [
                1u128 << i,
                (1u128 << i) | 1,
                (1u128 << i).wrapping_mul(3) | (1 << i),
            ] {
                assert_eq!(highest_bit(x), 127 - x.leading_zeros(), "{x:#x}");
            }
        }
    }

    #[test]
    fn pseudo_attacks_are_empty_board_attacks() {
        for sq in Square::all() {
            let b = attacks_naive(Color::Sente, PieceKind::Bishop, sq, Bitboard::EMPTY);
            let r = attacks_naive(Color::Sente, PieceKind::Rook, sq, Bitboard::EMPTY);
            assert_eq!(bishop_pseudo(sq), b);
            assert_eq!(rook_pseudo(sq), r);
            for c in Color::ALL {
                let l = attacks_naive(c, PieceKind::Lance, sq, Bitboard::EMPTY);
                assert_eq!(l & !r, Bitboard::EMPTY);
            }
        }
    }

    #[test]
    fn between_and_line_match_walks() {
        for a in Square::all() {
            for b in Square::all() {
                let (df, dr) = (
                    b.file() as i8 - a.file() as i8,
                    b.rank() as i8 - a.rank() as i8,
                );
                let aligned = a != b && (df == 0 || dr == 0 || df.abs() == dr.abs());
                let mut expect = Bitboard::EMPTY;
                if aligned {
                    let (sf, sr) = (df.signum(), dr.signum());
                    let (mut f, mut r) = (a.file() as i8 + sf, a.rank() as i8 + sr);
                    while (f, r) != (b.file() as i8, b.rank() as i8) {
                        expect = expect.with(Square::new(f as u8, r as u8).unwrap());
                        f += sf;
                        r += sr;
                    }
                }
                assert_eq!(between(a, b), expect);
                assert_eq!(line(a, b).is_empty(), !aligned);
                if aligned {
                    assert!(line(a, b).has(a) && line(a, b).has(b));
                    assert_eq!(line(a, b), line(b, a));
                }
            }
        }
    }
}
