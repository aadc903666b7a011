//! perft whose count cannot wrap, and the up-front check that refuses a depth whose count
//! is beyond reach (the front ends: CLI `perft` and `quantum perft`).
//!
//! A count is a `u64`; the sums are checked, so a count that would pass 2^64 − 1 is an
//! error ([`PerftError::Overflow`]), never a wrapped number. Counting 2^64 leaves takes
//! 585 years at 10^9 leaves a second (bulk-counted, our perft counts about 10^8 a second
//! on one core), so a depth whose count would pass 2^64 − 1 is refused before counting
//! ([`perft_reach`]): from the exact counts at the shallow depths, the count at the asked
//! depth is extrapolated by the smallest growth a ply measured there.

use super::position::{Position, MAX_PERFT_DEPTH};
use super::MoveList;

/// Why a perft count gave no number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PerftError {
    /// The count passed the largest value its type holds (2^64 − 1 for a `u64`).
    #[error("the count passed {max}, the most a count holds")]
    Overflow {
        /// The largest value of the count's type.
        max: u128,
    },
    /// A stop request ended the count.
    #[error("stopped before the count was complete")]
    Stopped,
}

/// A count type for [`perft_count`]: `u64` for the front ends, a narrow one in the tests
/// of the overflow path.
pub trait PerftCount: Copy {
    /// The count of the empty sequence (perft 0).
    const ONE: Self;
    /// No sequence.
    const ZERO: Self;
    /// The largest value.
    const MAX: u128;
    /// `n` as a count, `None` if it does not fit.
    fn from_usize(n: usize) -> Option<Self>;
    /// The sum, `None` if it does not fit.
    fn add(self, other: Self) -> Option<Self>;
}

macro_rules! perft_count {
    ($($t:ty),*) => {$(
        impl PerftCount for $t {
            const ONE: Self = 1;
            const ZERO: Self = 0;
            const MAX: u128 = <$t>::MAX as u128;
            fn from_usize(n: usize) -> Option<Self> {
                Self::try_from(n).ok()
            }
            fn add(self, other: Self) -> Option<Self> {
                self.checked_add(other)
            }
        }
    )*};
}
perft_count!(u8, u16, u32, u64, u128);

/// The leaves of the legal move tree of `depth` plies (bulk-counted at the last ply) in
/// the count type `C`; `stop()` is asked at every node above the last ply. The position
/// comes back unchanged whatever the result.
///
/// # Errors
/// [`PerftError::Overflow`] when a sum passes `C`'s largest value (no count wraps);
/// [`PerftError::Stopped`] once `stop()` said so.
pub fn perft_count<C: PerftCount>(
    pos: &mut Position,
    depth: u32,
    stop: &impl Fn() -> bool,
) -> Result<C, PerftError> {
    let overflow = PerftError::Overflow { max: C::MAX };
    if depth == 0 {
        return Ok(C::ONE);
    }
    if depth == 1 {
        return C::from_usize(pos.count_legal_moves()).ok_or(overflow);
    }
    if stop() {
        return Err(PerftError::Stopped);
    }
    let mut moves = MoveList::new();
    pos.generate(&mut moves);
    let mut n = C::ZERO;
    for &m in &moves {
        pos.play_unchecked(m);
        let leaves = perft_count::<C>(pos, depth - 1, stop);
        pos.undo();
        n = n.add(leaves?).ok_or(overflow)?;
    }
    Ok(n)
}

/// [`perft_count`] as a `u64` without a stop request.
///
/// # Errors
/// [`PerftError::Overflow`] when the count passes 2^64 − 1.
pub fn perft_checked(pos: &mut Position, depth: u32) -> Result<u64, PerftError> {
    perft_count(pos, depth, &|| false)
}

/// A depth refused by [`perft_reach`]: its count would pass 2^64 − 1.
#[derive(Debug, Clone, Copy, PartialEq, thiserror::Error)]
#[error(
    "perft depth {depth} is beyond reach: its count would pass 2^64 - 1 = {max} (about \
     10^{log10:.0} leaves, growing at least {growth:.1}-fold a ply at depths 1-{measured}), \
     and counting 2^64 leaves takes 585 years at 10^9 a second; the deepest depth under \
     that limit here is {deepest}",
    max = u64::MAX,
    log10 = self.log2_leaves * std::f64::consts::LOG10_2,
)]
pub struct TooDeep {
    /// The depth asked.
    pub depth: u32,
    /// The deepest depth counted exactly for the estimate.
    pub measured: u32,
    /// The smallest growth a ply among the exact counts (leaves at `d` over leaves at
    /// `d − 1`, `d` from 1 to `measured`).
    pub growth: f64,
    /// log2 of the estimated count at `depth`.
    pub log2_leaves: f64,
    /// The deepest depth whose estimated count stays under 2^64.
    pub deepest: u32,
}

/// Leaves the shallow counts of [`perft_reach`] may cost in all (a few milliseconds).
const REACH_BUDGET: u64 = 4_000_000;

/// Whether perft at `depth` is within reach: `counts(d)` is the exact count at depth `d`
/// (called for d = 1, 2, … while the next count is expected to cost at most a few million
/// leaves, and `d < depth`); the count at `depth` is extrapolated from the deepest one by
/// the smallest growth a ply among them, and refused when that estimate reaches 2^64. A
/// tree that does not grow (growth ≤ 1, or no leaves) is always within reach. (Depths
/// above [`MAX_PERFT_DEPTH`], the stack's limit, are refused by the front ends' argument
/// check before this one.)
///
/// This is an estimate, not a proof: a tree whose growth falls deeper down could be
/// refused although its count fits — but only where the estimate says 2^64 leaves or
/// more, centuries of counting. A depth it lets through is counted with checked sums
/// ([`perft_count`]), so an estimate too low still gives no wrapped count.
///
/// # Errors
/// [`TooDeep`] with the estimate and the deepest depth under the limit.
pub fn perft_reach(mut counts: impl FnMut(u32) -> u64, depth: u32) -> Result<(), TooDeep> {
    debug_assert!(depth <= MAX_PERFT_DEPTH);
    let mut last = 1u64; // perft 0
    let mut growth = f64::INFINITY;
    let mut measured = 0;
    let mut spent = 0u64;
    while measured + 1 < depth {
        let guess = if growth.is_finite() {
            last as f64 * growth
        } else {
            0.0
        };
        if measured > 0 && (guess > REACH_BUDGET as f64 || spent > REACH_BUDGET) {
            break;
        }
        let n = counts(measured + 1);
        measured += 1;
        if n == 0 {
            return Ok(());
        }
        growth = growth.min(n as f64 / last as f64);
        spent = spent.saturating_add(n);
        last = n;
    }
    if measured == 0 || growth <= 1.0 {
        return Ok(());
    }
    let log2_leaves = (last as f64).log2() + f64::from(depth - measured) * growth.log2();
    if log2_leaves < 64.0 {
        return Ok(());
    }
    let plies_left = ((64.0 - (last as f64).log2()) / growth.log2()).ceil() as u32;
    let deepest = measured + plies_left.saturating_sub(1);
    Err(TooDeep {
        depth,
        measured,
        growth,
        log2_leaves,
        deepest,
    })
}

/// [`perft_reach`] of perft from `pos` (the shallow counts taken on a copy).
///
/// # Errors
/// [`TooDeep`], as [`perft_reach`].
pub fn position_reach(pos: &Position, depth: u32) -> Result<(), TooDeep> {
    perft_reach(
        |d| perft_checked(&mut pos.clone(), d).unwrap_or(u64::MAX),
        depth,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A count that passes its type's largest value is an error, never a wrapped number:
    /// 900 two-ply sequences from the start do not fit a `u8` (900 mod 256 = 132), 30
    /// one-ply ones do; and the position comes back unchanged.
    #[test]
    fn a_count_too_large_for_its_type_is_an_error_not_a_wrapped_number() {
        let mut pos = Position::startpos();
        let go = || false;
        assert_eq!(perft_count::<u8>(&mut pos, 1, &go), Ok(30));
        assert_eq!(
            perft_count::<u8>(&mut pos, 2, &go),
            Err(PerftError::Overflow { max: 255 })
        );
        assert_eq!(perft_count::<u16>(&mut pos, 2, &go), Ok(900));
        assert_eq!(
            perft_count::<u16>(&mut pos, 4, &go),
            Err(PerftError::Overflow { max: 65_535 })
        );
        assert_eq!(perft_checked(&mut pos, 3), Ok(25_470));
        assert_eq!(pos, Position::startpos());
        assert_eq!(
            perft_count::<u64>(&mut pos, 3, &|| true),
            Err(PerftError::Stopped)
        );
        assert_eq!(pos, Position::startpos());
    }

    /// From the start the count grows about 28-fold a ply: depth 13 (about 10^18.8
    /// leaves) is let through, 14 and 99 are refused naming 13 as the deepest.
    #[test]
    fn the_start_position_is_refused_from_depth_14() {
        let pos = Position::startpos();
        let counts = |d| perft_checked(&mut pos.clone(), d).unwrap();
        assert_eq!(perft_reach(counts, 13), Ok(()));
        for depth in [14, 99, MAX_PERFT_DEPTH] {
            let e = perft_reach(counts, depth).unwrap_err();
            assert_eq!(e.deepest, 13, "{e}");
            assert_eq!(e.measured, 4, "{e}");
            assert!(e.log2_leaves >= 64.0, "{e}");
        }
        let text = perft_reach(counts, 99).unwrap_err().to_string();
        assert!(text.starts_with("perft depth 99 is beyond reach: its count would pass 2^64 - 1 = 18446744073709551615 (about 10^"), "{text}");
        assert!(
            text.ends_with("the deepest depth under that limit here is 13"),
            "{text}"
        );
    }

    /// A tree that does not grow (one legal move a ply, no leaves) is counted at any
    /// depth; so are shallow depths, counted exactly.
    #[test]
    fn trees_that_do_not_grow_are_never_refused() {
        assert_eq!(perft_reach(|_| 1, MAX_PERFT_DEPTH), Ok(()));
        assert_eq!(perft_reach(|d| u64::from(d < 3), MAX_PERFT_DEPTH), Ok(()));
        assert_eq!(perft_reach(|_| panic!("not asked"), 1), Ok(()));
        assert_eq!(perft_reach(|_| panic!("not asked"), 0), Ok(()));
        // Two moves a ply: 2^63 leaves at depth 63 fit, 2^64 at depth 64 do not.
        assert_eq!(perft_reach(|d| 1 << d, 63), Ok(()));
        assert_eq!(perft_reach(|d| 1 << d, 64).unwrap_err().deepest, 63);
    }
}
