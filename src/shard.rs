//! Shards: a deterministic partition of a batch into `count` parts, so that a
//! job can be split across processes or machines (`--shard I/N`, the Python
//! `shard=(i, n)`, the Ray driver) and the parts merged by concatenation or by
//! summing counts. Indices are 0-based: `0/8` … `7/8`.
//!
//! ```
//! use shogi_lab::shard::Shard;
//!
//! let s: Shard = "1/3".parse().unwrap();
//! assert_eq!(s.items(7).collect::<Vec<_>>(), vec![3, 4]);
//! assert!(s.owns(4) && !s.owns(3));
//! ```

use std::ops::Range;

/// Part `index` of `count` (0 ≤ index < count).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shard {
    index: u32,
    count: u32,
}

/// Why a shard specification is rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ShardError {
    /// Not of the form `I/N` with decimal numbers.
    #[error("bad shard {0:?}: expected I/N, e.g. 0/8 (0-based index I of N parts)")]
    Syntax(String),
    /// `N` is 0 or `I` is not below `N`.
    #[error("bad shard {index}/{count}: need 0 <= I < N")]
    OutOfRange {
        /// The index given.
        index: u64,
        /// The number of parts given.
        count: u64,
    },
}

impl Shard {
    /// The whole batch as one part (`0/1`).
    pub const WHOLE: Shard = Shard { index: 0, count: 1 };

    /// Part `index` of `count`.
    ///
    /// # Errors
    /// [`ShardError::OutOfRange`] unless `0 <= index < count`.
    pub fn new(index: u64, count: u64) -> Result<Shard, ShardError> {
        if count == 0 || index >= count || count > u64::from(u32::MAX) {
            return Err(ShardError::OutOfRange { index, count });
        }
        Ok(Shard {
            index: index as u32,
            count: count as u32,
        })
    }

    /// The 0-based index of this part.
    pub fn index(self) -> u32 {
        self.index
    }

    /// The number of parts.
    pub fn count(self) -> u32 {
        self.count
    }

    /// Whether the `k`-th work item belongs to this part (round robin: `k mod N = I`).
    /// Used where items are of uneven size and the results are summed
    /// (placement branches and layouts, quantum perft root moves).
    pub fn owns(self, k: usize) -> bool {
        k % self.count as usize == self.index as usize
    }

    /// This part's contiguous block of `0..total` (sizes differ by at most one;
    /// the blocks of `0/N` … `N−1/N` concatenated are `0..total` in order). Used
    /// where outputs merge by concatenation (tsume problem lists).
    pub fn items(self, total: usize) -> Range<usize> {
        let (i, n) = (self.index as usize, self.count as usize);
        let start = |i: usize| i * (total / n) + i.min(total % n);
        start(i)..start(i + 1)
    }
}

impl std::str::FromStr for Shard {
    type Err = ShardError;

    fn from_str(s: &str) -> Result<Shard, ShardError> {
        let syntax = || ShardError::Syntax(s.to_string());
        let (i, n) = s.split_once('/').ok_or_else(syntax)?;
        let num = |t: &str| -> Result<u64, ShardError> {
            if t.is_empty() || !t.bytes().all(|b| b.is_ascii_digit()) {
                return Err(syntax());
            }
            t.parse().map_err(|_| syntax())
        };
        Shard::new(num(i)?, num(n)?)
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn blocks_partition_in_order() {
        for total in 0..40 {
            for n in 1..10u64 {
                let all: Vec<usize> = (0..n)
                    .flat_map(|i| Shard::new(i, n).unwrap().items(total))
                    .collect();
                assert_eq!(all, (0..total).collect::<Vec<_>>(), "{total} in {n}");
            }
        }
    }

    #[test]
    fn round_robin_partitions() {
        for n in 1..10u64 {
            for k in 0..50 {
                let owners = (0..n)
                    .filter(|&i| Shard::new(i, n).unwrap().owns(k))
                    .count();
                assert_eq!(owners, 1);
            }
        }
    }

    #[test]
    fn parse_errors() {
        assert_eq!("3/8".parse::<Shard>().unwrap(), Shard::new(3, 8).unwrap());
        for bad in ["", "3", "3/", "/8", "a/8", "-1/8", "3/8/1", " 3/8"] {
            assert!(
                matches!(bad.parse::<Shard>(), Err(ShardError::Syntax(_))),
                "{bad}"
            );
        }
        for bad in ["8/8", "0/0", "9/8"] {
            assert!(
                matches!(bad.parse::<Shard>(), Err(ShardError::OutOfRange { .. })),
                "{bad}"
            );
        }
        assert_eq!(
            "8/8".parse::<Shard>().unwrap_err().to_string(),
            "bad shard 8/8: need 0 <= I < N"
        );
    }
}
