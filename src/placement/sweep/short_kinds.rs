//! The short-range kinds of a set and the count index of the pieces left (the DP's
//! piece budget).

use super::layouts::is_long_range;
use super::SweepError;
use crate::placement::pieces::{Kind, PieceSet};
use crate::rules::PieceKind;

/// The short-range kinds of a set with their counts (the DP's piece budget).
#[derive(Debug, Clone)]
pub(super) struct ShortKinds {
    pub(super) kinds: Vec<PieceKind>,
    counts: Vec<u32>,
    /// Mixed-radix place value of each kind in the count index.
    pub(super) stride: Vec<u64>,
    /// Pieces left for each count index.
    pub(super) total_of: Vec<u32>,
    /// Per count index: pieces left of each kind, 6 bits per kind.
    left_of: Vec<u64>,
    /// Per count index: the kinds with pieces left, one bit per kind.
    pub(super) present_of: Vec<u16>,
    /// Bit width of the count index.
    pub(super) bits: u32,
}

impl ShortKinds {
    pub(super) fn of(set: &PieceSet) -> Result<ShortKinds, SweepError> {
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

    pub(super) fn full_index(&self) -> u64 {
        self.counts
            .iter()
            .zip(&self.stride)
            .map(|(&n, &s)| u64::from(n) * s)
            .sum()
    }

    #[inline]
    pub(super) fn left(&self, idx: u64, j: usize) -> u32 {
        (self.left_of[idx as usize] >> (6 * j) & 63) as u32
    }
}
