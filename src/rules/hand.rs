//! Packed hands (持ち駒): a `u64` with one byte per hand kind, after
//! shogi686 (seed `001_6ac4b9bdc74d4693.txt`): byte 0 is spare (used for the
//! side-to-move bit in the position key), bytes 1–7 count 歩 香 桂 銀 金 角 飛.
//! Adding or removing a piece adds or subtracts a constant; superiority
//! (優越) is a subtraction and a mask test.

use super::types::PieceKind;
use std::fmt;

/// A hand of pieces, packed one byte per kind.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Hand(u64);

/// The high bit of every kind byte: set after a subtraction iff some count borrowed.
const BORROW_MASK: u64 = 0x8080_8080_8080_8000;

impl Hand {
    /// The empty hand.
    pub const EMPTY: Hand = Hand(0);

    #[inline]
    const fn shift(kind: PieceKind) -> u32 {
        (kind as u32 + 1) * 8
    }
    /// The raw packed value (byte 0 is always zero).
    #[inline]
    pub const fn raw(self) -> u64 {
        self.0
    }
    /// How many pieces of a hand kind this hand holds (0 for other kinds).
    #[inline]
    pub const fn count(self, kind: PieceKind) -> u8 {
        if !kind.is_hand_kind() {
            return 0;
        }
        (self.0 >> Self::shift(kind)) as u8
    }
    /// Whether any piece of `kind` is held.
    #[inline]
    pub const fn has(self, kind: PieceKind) -> bool {
        self.count(kind) > 0
    }
    /// The hand with one more `kind`.
    ///
    /// # Panics
    /// If `kind` is not a hand kind (a promoted kind or the king).
    #[inline]
    pub const fn add(self, kind: PieceKind) -> Hand {
        assert!(kind.is_hand_kind());
        Hand(self.0 + (1u64 << Self::shift(kind)))
    }
    /// The hand with one fewer `kind`.
    ///
    /// # Panics
    /// In debug builds if the hand holds none; always if `kind` is not a hand kind.
    #[inline]
    pub const fn remove(self, kind: PieceKind) -> Hand {
        assert!(kind.is_hand_kind());
        debug_assert!(self.count(kind) > 0);
        Hand(self.0 - (1u64 << Self::shift(kind)))
    }
    /// The hand with `n` pieces of `kind`.
    ///
    /// # Panics
    /// If `kind` is not a hand kind or `n > 38`.
    pub const fn with_count(self, kind: PieceKind, n: u8) -> Hand {
        assert!(kind.is_hand_kind() && n <= 38);
        let s = Self::shift(kind);
        Hand((self.0 & !(0xffu64 << s)) | ((n as u64) << s))
    }
    /// Total number of pieces.
    pub fn total(self) -> u32 {
        PieceKind::HAND.iter().map(|&k| self.count(k) as u32).sum()
    }
    /// Whether the hand is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// 優越: `self` holds at least as many of every kind as `other`
    /// (subtract, then test the borrow bits).
    #[inline]
    pub const fn dominates(self, other: Hand) -> bool {
        self.0.wrapping_sub(other.0) & BORROW_MASK == 0
    }
    /// The naive twin of [`Hand::dominates`]: compare kind by kind.
    pub fn dominates_naive(self, other: Hand) -> bool {
        PieceKind::HAND.iter().all(|&k| self.count(k) >= other.count(k))
    }
    /// Kinds held, with counts, in hand order 歩 … 飛.
    pub fn iter(self) -> impl Iterator<Item = (PieceKind, u8)> {
        PieceKind::HAND.into_iter().map(move |k| (k, self.count(k))).filter(|&(_, n)| n > 0)
    }
}

impl fmt::Debug for Hand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Hand(")?;
        for (k, n) in self.iter() {
            write!(f, "{}{}", k.letter(), n)?;
        }
        write!(f, ")")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use quickcheck::quickcheck;

    fn hand_from(counts: [u8; 7]) -> Hand {
        let caps = [18u8, 4, 4, 4, 4, 2, 2];
        let mut h = Hand::EMPTY;
        for (i, k) in PieceKind::HAND.into_iter().enumerate() {
            h = h.with_count(k, counts[i] % (caps[i] + 1));
        }
        h
    }

    quickcheck! {
        fn dominates_matches_per_kind_comparison(a: (u8,u8,u8,u8,u8,u8,u8), b: (u8,u8,u8,u8,u8,u8,u8)) -> bool {
            let ha = hand_from([a.0, a.1, a.2, a.3, a.4, a.5, a.6]);
            let hb = hand_from([b.0, b.1, b.2, b.3, b.4, b.5, b.6]);
            ha.dominates(hb) == ha.dominates_naive(hb) && hb.dominates(ha) == hb.dominates_naive(ha)
        }
        fn near_hands_dominate_like_naive(a: (u8,u8,u8,u8,u8,u8,u8), k: u8) -> bool {
            // Hands that differ by one piece are where borrows matter most.
            let ha = hand_from([a.0, a.1, a.2, a.3, a.4, a.5, a.6]);
            let kind = PieceKind::HAND[(k % 7) as usize];
            if ha.count(kind) == 0 { return true; }
            let hb = ha.remove(kind);
            ha.dominates(hb) && !hb.dominates(ha) && hb.dominates_naive(hb) && hb.dominates(hb)
        }
    }

    #[test]
    fn add_remove_count() {
        let h = Hand::EMPTY.add(PieceKind::Pawn).add(PieceKind::Pawn).add(PieceKind::Rook);
        assert_eq!(h.count(PieceKind::Pawn), 2);
        assert_eq!(h.count(PieceKind::Rook), 1);
        assert_eq!(h.count(PieceKind::Gold), 0);
        assert_eq!(h.remove(PieceKind::Pawn).count(PieceKind::Pawn), 1);
        assert_eq!(h.total(), 3);
        assert_eq!(h.raw() & 0xff, 0);
        assert!(!Hand::EMPTY.add(PieceKind::Gold).dominates(Hand::EMPTY.add(PieceKind::Silver)));
    }
}
