//! The sweep's memory budget: the bytes its layouts and DP maps hold, against a
//! limit, and its stop request.

use super::layouts::Layout;
use super::SweepError;
use crate::placement::pieces::Kind;
use crate::rules::Square;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Bytes held by the sweep (the long-range layouts and every thread's DP maps),
/// against a limit; a charge that would pass it fails and the whole count stops. A stop
/// request ([`sweep_count_shard_until`](super::sweep_count_shard_until)) stops it the same way.
pub(super) struct Budget<'a> {
    limit: u64,
    pub(super) used: AtomicU64,
    exceeded: AtomicBool,
    /// Asked at each layout and at each square of a layout's sweep.
    stop: Option<&'a (dyn Fn() -> bool + Sync)>,
    /// `stop` said so.
    pub(super) stopped: AtomicBool,
}

impl<'a> Budget<'a> {
    pub(super) fn new(limit: u64, stop: Option<&'a (dyn Fn() -> bool + Sync)>) -> Budget<'a> {
        Budget {
            limit,
            used: AtomicU64::new(0),
            exceeded: AtomicBool::new(false),
            stop,
            stopped: AtomicBool::new(false),
        }
    }

    /// Whether the count must end: the memory limit was passed, or `stop` said so.
    pub(super) fn ending(&self) -> bool {
        if self.stop.is_some_and(|s| s()) {
            self.stopped.store(true, Ordering::Relaxed);
        }
        self.exceeded() || self.stopped.load(Ordering::Relaxed)
    }

    /// Takes `bytes` more; `false` (and the budget marked exceeded) if they do not fit.
    pub(super) fn charge(&self, bytes: u64) -> bool {
        let before = self.used.fetch_add(bytes, Ordering::Relaxed);
        if before.saturating_add(bytes) > self.limit {
            self.used.fetch_sub(bytes, Ordering::Relaxed);
            self.exceeded.store(true, Ordering::Relaxed);
            return false;
        }
        true
    }

    fn release(&self, bytes: u64) {
        self.used.fetch_sub(bytes, Ordering::Relaxed);
    }

    fn exceeded(&self) -> bool {
        self.exceeded.load(Ordering::Relaxed)
    }

    pub(super) fn error(&self) -> SweepError {
        SweepError::MemoryLimit {
            limit_mib: self.limit >> 20,
        }
    }
}

/// What one thread's DP maps hold, kept charged to the [`Budget`] (released on drop).
pub(super) struct Held<'a, 'b> {
    pub(super) budget: &'a Budget<'b>,
    pub(super) bytes: u64,
}

impl Held<'_, '_> {
    /// Charges or releases the difference to `bytes`; `false` if the budget cannot give it.
    pub(super) fn set(&mut self, bytes: u64) -> bool {
        if bytes > self.bytes {
            if !self.budget.charge(bytes - self.bytes) {
                return false;
            }
        } else {
            self.budget.release(self.bytes - bytes);
        }
        self.bytes = bytes;
        true
    }
}

impl Drop for Held<'_, '_> {
    fn drop(&mut self) {
        self.budget.release(self.bytes);
    }
}

/// Bytes per unit of a DP map's `capacity()`: a `(u64, u128)` bucket and its
/// control byte, with hashbrown's 7/8 load factor.
pub(super) const MAP_BYTES_PER_SLOT: u64 =
    (std::mem::size_of::<(u64, u128)>() as u64 + 1) * 8 / 7 + 1;

/// Bytes one stored long-range layout holds: the struct, its piece list, and the
/// list's doubling slack.
pub(super) fn layout_bytes(pieces: usize) -> u64 {
    2 * (std::mem::size_of::<Layout>() + pieces * std::mem::size_of::<(Kind, Square)>()) as u64
}
