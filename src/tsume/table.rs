//! The bounded transposition table with hand superiority (優越).
//!
//! Entries are keyed by the board hash (board + side to move) and hold the
//! attacker's hand. A proof stored for hand `H` answers every hand that
//! dominates `H`; a disproof stored for `H` answers every hand `H` dominates
//! (seed `001_6ac4b9bdc74d4693.txt`; `Hand::dominates`). Memory is fixed at
//! creation: entries live in clusters of [`CLUSTER`]; a full cluster replaces
//! its least-searched entry, and when the table is 90 % full a sweep (garbage
//! collection) drops unsolved entries with little search behind them, so the
//! search never stops for lack of memory. A solved entry that superiority makes
//! redundant is not stored, and storing one drops the entries of the same board it
//! makes redundant (long chases fill a cluster with one board under many hands;
//! evicting a proof there broke the line walk of 図巧100).
//!
//! Bounds: a proof records `len`, an upper bound on the mate length of its
//! proof tree (it answers a query only when the query allows that many plies);
//! a disproof records the ply budget it was proven under ([`UNBOUNDED`] for a
//! complete disproof).

use super::ProofNumbers;
use crate::resources::{check_memory_request, MemoryError};
use crate::rules::{Hand, PieceKind};

/// Entries per cluster.
pub const CLUSTER: usize = 8;
/// "No ply limit".
pub const UNBOUNDED: u16 = u16::MAX;

/// [`Hand::dominates`] on packed hands (one byte per kind, byte 0 spare; a
/// borrow into any kind byte's top bit means some count is smaller). Tested
/// against `Hand::dominates`.
#[inline]
const fn dominates(a: u64, b: u64) -> bool {
    a.wrapping_sub(b) & 0x8080_8080_8080_8000 == 0
}

/// One stored node.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Entry {
    /// Board key (board + side to move).
    pub key: u64,
    /// The attacker's hand, packed ([`Hand::raw`]).
    pub hand: u64,
    /// Proof number.
    pub pn: u32,
    /// Disproof number.
    pub dn: u32,
    /// For a proof: its mate length bound; for a disproof: the ply budget; else unused.
    pub bound: u16,
    /// The smallest search depth at which the node was stored (TCA's "old child" test).
    pub ply: u16,
    /// Nodes searched below this entry (0 = empty slot).
    pub amount: u32,
}

impl Entry {
    fn class(&self) -> u8 {
        if self.pn == 0 {
            0
        } else if self.dn == 0 {
            1
        } else {
            2
        }
    }
}

/// What a lookup found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Found {
    /// Proof numbers (terminal only when applicable to the query).
    pub pns: ProofNumbers,
    /// Mate length bound of a proof / budget of a disproof.
    pub bound: u16,
    /// Stored search depth.
    pub ply: u16,
    /// For a proof: the stored proof pieces (証明駒) it needs; for a disproof: the stored
    /// disproof pieces (反証駒, the largest hand it refutes); otherwise the queried hand.
    pub hand: Hand,
}

/// The [`Hand`] whose [`Hand::raw`] is `raw`.
pub fn hand_from_raw(raw: u64) -> Hand {
    PieceKind::HAND.iter().fold(Hand::EMPTY, |h, &k| {
        h.with_count(k, (raw >> ((k as u32 + 1) * 8)) as u8)
    })
}

/// Table statistics.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct TableStats {
    /// Entries replaced because their cluster was full.
    pub replaced: u64,
    /// Garbage-collection sweeps.
    pub gc_runs: u64,
    /// Entries dropped by sweeps.
    pub gc_dropped: u64,
    /// Entries dropped because a new solved entry made them useless (superiority).
    pub dominated: u64,
}

/// Words ([`u64`]) per cluster: the [`CLUSTER`] keys (one cache line), then three words
/// per entry, so that a lookup scans one cache line and a matching entry sits in the
/// lines right behind it, on the same page.
const CLUSTER_WORDS: usize = CLUSTER * 4;

/// The table's memory: one anonymous mapping, advised for transparent huge pages on
/// Linux (with 4 KiB pages almost every lookup in a 1 GiB table also misses the TLB),
/// zeroed lazily by the kernel on first touch, so a large table costs nothing until
/// used. A heap vector (allocated fallibly) if the mapping fails.
enum Memory {
    Mapped(memmap2::MmapMut),
    Heap(Vec<u64>),
}

impl Memory {
    fn new(words: usize) -> Result<Memory, MemoryError> {
        let bytes = words as u64 * 8;
        check_memory_request(bytes, "transposition table")?;
        match memmap2::MmapMut::map_anon(words * 8) {
            Ok(map) => {
                #[cfg(target_os = "linux")]
                {
                    // Only advice: without huge pages the table works the same, slower.
                    let _ = map.advise(memmap2::Advice::HugePage);
                }
                Ok(Memory::Mapped(map))
            }
            Err(_) => {
                let mut v = Vec::new();
                v.try_reserve_exact(words).map_err(|_| MemoryError {
                    what: "transposition table".to_string(),
                    requested: bytes,
                    available: None,
                })?;
                v.resize(words, 0);
                Ok(Memory::Heap(v))
            }
        }
    }

    /// Zeroes the memory: a fresh mapping (the kernel zeroes only the pages used
    /// again; the old one is unmapped first, so the memory in use never doubles), or
    /// in place if mapping fails.
    fn zero(&mut self) {
        if let Memory::Mapped(m) = self {
            let bytes = m.len();
            *self = Memory::Heap(Vec::new());
            if let Ok(map) = memmap2::MmapMut::map_anon(bytes) {
                #[cfg(target_os = "linux")]
                {
                    let _ = map.advise(memmap2::Advice::HugePage);
                }
                *self = Memory::Mapped(map);
                return;
            }
            let mut v = Vec::new();
            if v.try_reserve_exact(bytes / 8).is_ok() {
                v.resize(bytes / 8, 0);
                *self = Memory::Heap(v);
                return;
            }
            panic!("transposition table: {bytes} bytes could not be mapped again");
        }
        if let Memory::Heap(v) = self {
            v.fill(0);
        }
    }

    #[inline]
    fn words(&self) -> &[u64] {
        match self {
            Memory::Mapped(m) => bytemuck::cast_slice(m),
            Memory::Heap(v) => v,
        }
    }

    #[inline]
    fn words_mut(&mut self) -> &mut [u64] {
        match self {
            Memory::Mapped(m) => bytemuck::cast_slice_mut(m),
            Memory::Heap(v) => v,
        }
    }
}

/// Word index of slot `i`'s key.
#[inline]
fn key_word(i: usize) -> usize {
    i / CLUSTER * CLUSTER_WORDS + i % CLUSTER
}

/// Word index of slot `i`'s first data word.
#[inline]
fn data_word(i: usize) -> usize {
    i / CLUSTER * CLUSTER_WORDS + CLUSTER + 3 * (i % CLUSTER)
}

/// Clusters in use at the start (512 KiB).
const INITIAL_CLUSTERS: usize = 2048;

/// The share of the slots in use (numerator, denominator) at which a table of at least
/// [`DENSE_FROM_SLOTS`] slots doubles. Three quarters, not one half: every doubling maps
/// fresh memory, which the kernel zeroes on first touch, and a first touch was a tenth
/// of the CPU of a 14 M-node solve in a 1 GiB table (`paper/tsume-log.md` S21).
const GROW_AT: (usize, usize) = (3, 4);

/// Below this many slots in use (256 MiB) the table doubles when half full: zeroing that
/// little memory is cheap, and a sparser table keeps more of what a small solve stored
/// (growing at three quarters from the start lost two first proofs and a proven length
/// among the 200 classics at 2 M nodes, `paper/tsume-log.md` S21). Solves that stay below
/// it are unchanged.
const DENSE_FROM_SLOTS: usize = (256 << 20) / (CLUSTER_WORDS * 8) * CLUSTER;

/// Whether a table with `active` slots in use, `used` of them occupied, doubles: at half
/// full below [`DENSE_FROM_SLOTS`], at [`GROW_AT`] from there.
const fn grows(used: usize, active: usize) -> bool {
    let (num, den) = if active < DENSE_FROM_SLOTS {
        (1, 2)
    } else {
        GROW_AT
    };
    used * den >= active * num
}

/// The transposition table.
pub struct Table {
    mem: Memory,
    /// Slots of the whole mapping (the memory limit).
    slots: usize,
    /// Clusters in use: a power of two that doubles (entries rehashed) when half its
    /// slots are used, from [`DENSE_FROM_SLOTS`] on when [`GROW_AT`] are, up to the whole
    /// mapping; small problems touch little memory.
    clusters_mask: usize,
    used: usize,
    gc_threshold: u32,
    /// Statistics.
    pub stats: TableStats,
    /// Move counts memoised by position ([`Table::count`]).
    counts: CountCache,
}

/// Which move count [`Table::count`] memoises.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Count {
    /// A defender's replies as the solver counts them (`MatePosition::reply_count`).
    Replies,
    /// An attacker's checks (`MatePosition::check_count`).
    Checks,
}

/// A direct-mapped memo of move counts by position key: a node's children are counted
/// each time the node is expanded, and df-pn expands most nodes many times (on 図巧1 29 %
/// of the counts repeat a position already counted). A count is a function of the
/// position (board, side to move, the mover's hand), which the position key identifies
/// as the table's keys do; an entry is `[key ^ tag, count]`, 0 = empty (zero counts are
/// never stored).
struct CountCache {
    /// Off: [`Table::count`] finds nothing and nothing is stored (the slow twin, tested).
    on: bool,
    entries: Vec<[u64; 2]>,
    /// `64 - log2(entries)`.
    shift: u32,
}

impl CountCache {
    /// At most this many entries (1 MiB), fewer for small tables.
    const MAX: usize = 1 << 16;
    const CHECKS_TAG: u64 = 0x5bd1_e995_6c07_8965;

    fn new(slots: usize) -> CountCache {
        let n = (slots / 4).clamp(1, Self::MAX).next_power_of_two();
        CountCache {
            on: true,
            entries: vec![[0, 0]; n],
            shift: 64 - n.trailing_zeros(),
        }
    }

    #[inline]
    fn slot(&self, key: u64, what: Count) -> (usize, u64) {
        let k = match what {
            Count::Replies => key,
            Count::Checks => key ^ Self::CHECKS_TAG,
        };
        // Fibonacci hashing of the whole key (the index needs no bits of its own).
        let i = k
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .checked_shr(self.shift);
        (i.unwrap_or(0) as usize, k)
    }
}

impl Table {
    /// A table using about `mib` MiB (at least one cluster; rounded down to a power of two clusters).
    ///
    /// # Panics
    /// If the machine cannot give that memory; use [`Table::try_new`] for sizes a user chose.
    pub fn new(mib: usize) -> Table {
        match Table::try_new(mib) {
            Ok(t) => t,
            Err(e) => panic!("{e}"),
        }
    }

    /// A table using about `mib` MiB, or a one-line error if the machine cannot give it.
    ///
    /// # Errors
    /// [`MemoryError`] when the request exceeds the available memory.
    pub fn try_new(mib: usize) -> Result<Table, MemoryError> {
        let bytes = mib.max(1).saturating_mul(1024 * 1024);
        let per_cluster = CLUSTER_WORDS * 8;
        let mut clusters = 1usize;
        // Checked: near `usize::MAX` (a `memory_mib` of 2^44 or more, as Python can pass) the
        // product wraps to 0 and the loop never ended; the largest power of two that fits
        // is then refused by `Memory::new`.
        while clusters
            .checked_mul(2 * per_cluster)
            .is_some_and(|b| b <= bytes)
        {
            clusters *= 2;
        }
        Ok(Table {
            mem: Memory::new(clusters * CLUSTER_WORDS)?,
            slots: clusters * CLUSTER,
            clusters_mask: clusters.min(INITIAL_CLUSTERS) - 1,
            used: 0,
            gc_threshold: 2,
            stats: TableStats::default(),
            counts: CountCache::new(clusters * CLUSTER),
        })
    }

    /// Number of slots.
    pub fn capacity(&self) -> usize {
        self.slots
    }

    #[inline]
    fn key(&self, i: usize) -> u64 {
        self.mem.words()[key_word(i)]
    }

    #[inline]
    fn get(&self, i: usize) -> Entry {
        let w = self.mem.words();
        let d = data_word(i);
        let (hand, pns, rest) = (w[d], w[d + 1], w[d + 2]);
        Entry {
            key: w[key_word(i)],
            hand,
            pn: pns as u32,
            dn: (pns >> 32) as u32,
            bound: rest as u16,
            ply: (rest >> 16) as u16,
            amount: (rest >> 32) as u32,
        }
    }

    #[inline]
    fn set(&mut self, i: usize, e: Entry) {
        let w = self.mem.words_mut();
        w[key_word(i)] = e.key;
        let d = data_word(i);
        w[d] = e.hand;
        w[d + 1] = e.pn as u64 | (e.dn as u64) << 32;
        w[d + 2] = e.bound as u64 | (e.ply as u64) << 16 | (e.amount as u64) << 32;
    }

    #[inline]
    fn erase(&mut self, i: usize) {
        self.set(i, Entry::default());
    }

    /// Occupied slots.
    pub fn used(&self) -> usize {
        self.used
    }

    #[inline]
    fn cluster_of(key: u64, mask: usize) -> usize {
        ((key >> 8) ^ (key >> 40)) as usize & mask
    }

    #[inline]
    fn cluster(&self, key: u64) -> std::ops::Range<usize> {
        let c = Self::cluster_of(key, self.clusters_mask);
        c * CLUSTER..(c + 1) * CLUSTER
    }

    /// Slots in use.
    fn active_slots(&self) -> usize {
        (self.clusters_mask + 1) * CLUSTER
    }

    /// Doubles the clusters in use: an entry of cluster `c` stays or moves to the
    /// new cluster `c + old` (then empty), by the next bit of its key.
    fn grow(&mut self) {
        let old = self.clusters_mask + 1;
        let mask = old * 2 - 1;
        for c in 0..old {
            let mut free = (c + old) * CLUSTER;
            for i in c * CLUSTER..(c + 1) * CLUSTER {
                let e = self.get(i);
                if e.amount != 0 && Self::cluster_of(e.key, mask) != c {
                    self.set(free, e);
                    self.erase(i);
                    free += 1;
                }
            }
        }
        self.clusters_mask = mask;
    }

    /// Starts loading the cluster of `key` into the cache (a lookup of it follows soon):
    /// lookups are one cache miss each and dominate the profile.
    #[inline]
    #[allow(unsafe_code)]
    pub fn prefetch(&self, key: u64) {
        let i = self.cluster(key).start;
        let p = self.mem.words()[key_word(i)..key_word(i) + CLUSTER_WORDS].as_ptr();
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is a hint; it never faults and reads nothing into the program.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            for line in 0..CLUSTER_WORDS / 8 {
                _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(line * 8).cast());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = p;
    }

    /// Looks up a node whose attacker holds `hand`, for a search allowed `budget` more plies.
    pub fn lookup(&self, key: u64, hand: Hand, budget: u16) -> Option<Found> {
        let query = hand;
        let hand = hand.raw();
        let mut exact: Option<Found> = None;
        let mut proof: Option<Entry> = None;
        for i in self.cluster(key) {
            // Compare the raw key word before decoding the entry (lookups dominate the profile).
            if self.key(i) != key {
                continue;
            }
            let e = self.get(i);
            if e.amount == 0 {
                continue;
            }
            if e.pn == 0 && dominates(hand, e.hand) && e.bound <= budget {
                // The shortest of the applicable proofs (the line walk relies on it).
                if proof.map_or(true, |p: Entry| e.bound < p.bound) {
                    proof = Some(e);
                }
                continue;
            }
            if e.dn == 0 && dominates(e.hand, hand) && e.bound >= budget {
                return Some(Found {
                    pns: ProofNumbers::DISPROVEN,
                    bound: e.bound,
                    ply: e.ply,
                    hand: hand_from_raw(e.hand),
                });
            }
            if e.hand == hand && e.pn != 0 && e.dn != 0 {
                exact = Some(Found {
                    pns: ProofNumbers { pn: e.pn, dn: e.dn },
                    bound: e.bound,
                    ply: e.ply,
                    hand: query,
                });
            }
        }
        if let Some(e) = proof {
            return Some(Found {
                pns: ProofNumbers::PROVEN,
                bound: e.bound,
                ply: e.ply,
                hand: hand_from_raw(e.hand),
            });
        }
        exact
    }

    /// [`Table::lookup`], or when it finds nothing, [`Table::bounds`]: both from one scan
    /// of the cluster (a new child needs both). Tested against the two.
    #[inline]
    pub fn lookup_or_bounds(
        &self,
        key: u64,
        hand: Hand,
        budget: u16,
    ) -> Result<Found, ProofNumbers> {
        let query = hand;
        let hand = hand.raw();
        let mut exact: Option<Found> = None;
        let mut proof: Option<Entry> = None;
        let mut bounds = ProofNumbers { pn: 1, dn: 1 };
        for i in self.cluster(key) {
            if self.key(i) != key {
                continue;
            }
            let e = self.get(i);
            if e.amount == 0 {
                continue;
            }
            if e.pn == 0 {
                if dominates(hand, e.hand)
                    && e.bound <= budget
                    && proof.map_or(true, |p: Entry| e.bound < p.bound)
                {
                    proof = Some(e);
                }
                continue;
            }
            if e.dn == 0 {
                if dominates(e.hand, hand) && e.bound >= budget {
                    return Ok(Found {
                        pns: ProofNumbers::DISPROVEN,
                        bound: e.bound,
                        ply: e.ply,
                        hand: hand_from_raw(e.hand),
                    });
                }
                continue;
            }
            if e.hand == hand {
                exact = Some(Found {
                    pns: ProofNumbers { pn: e.pn, dn: e.dn },
                    bound: e.bound,
                    ply: e.ply,
                    hand: query,
                });
            }
            if dominates(e.hand, hand) {
                bounds.pn = bounds.pn.max(e.pn);
            }
            if dominates(hand, e.hand) {
                bounds.dn = bounds.dn.max(e.dn);
            }
        }
        if let Some(e) = proof {
            return Ok(Found {
                pns: ProofNumbers::PROVEN,
                bound: e.bound,
                ply: e.ply,
                hand: hand_from_raw(e.hand),
            });
        }
        exact.ok_or(bounds)
    }

    /// Lower bounds on the proof numbers of an unstored node from the unsolved entries
    /// of the same board (superiority, as for solved entries): with fewer pieces in hand
    /// than an entry the attacker needs at least its proof number, with more the
    /// defender needs at least its disproof number. `(1, 1)` without such entries.
    pub fn bounds(&self, key: u64, hand: Hand) -> ProofNumbers {
        let hand = hand.raw();
        let mut out = ProofNumbers { pn: 1, dn: 1 };
        for i in self.cluster(key) {
            if self.key(i) != key {
                continue;
            }
            let e = self.get(i);
            if e.amount == 0 || e.class() != 2 {
                continue;
            }
            if dominates(e.hand, hand) {
                out.pn = out.pn.max(e.pn);
            }
            if dominates(hand, e.hand) {
                out.dn = out.dn.max(e.dn);
            }
        }
        out
    }

    /// Stores a node. Proofs keep the shortest bound, disproofs the largest budget;
    /// an unsolved value never overwrites a solved one.
    pub fn store(
        &mut self,
        key: u64,
        hand: Hand,
        pns: ProofNumbers,
        bound: u16,
        ply: u16,
        amount: u64,
    ) {
        let amount = amount.clamp(1, u32::MAX as u64) as u32;
        let hand = hand.raw();
        let new = Entry {
            key,
            hand,
            pn: pns.pn,
            dn: pns.dn,
            bound,
            ply,
            amount,
        };
        let range = self.cluster(key);
        let mut empty = None;
        let mut victim = range.start;
        let mut victim_amount = u32::MAX;
        for i in range {
            let mut e = self.get(i);
            if e.amount == 0 {
                empty.get_or_insert(i);
                continue;
            }
            if e.key == key && e.hand == hand && e.class() == new.class() {
                e.ply = e.ply.min(ply);
                e.amount = e.amount.saturating_add(amount);
                e.pn = new.pn;
                e.dn = new.dn;
                e.bound = match new.class() {
                    0 => e.bound.min(bound),
                    1 => e.bound.max(bound),
                    _ => bound,
                };
                self.set(i, e);
                return;
            }
            if e.key == key {
                // Entries one solved entry makes useless (same board, hand superiority).
                let (proof, disproof) = (new.class() == 0, new.class() == 1);
                let redundant_new = (proof
                    && e.class() == 0
                    && dominates(hand, e.hand)
                    && e.bound <= bound)
                    || (disproof && e.class() == 1 && dominates(e.hand, hand) && e.bound >= bound);
                if redundant_new {
                    e.ply = e.ply.min(ply);
                    e.amount = e.amount.saturating_add(amount);
                    self.set(i, e);
                    return;
                }
                let redundant_old = (proof
                    && dominates(e.hand, hand)
                    && (e.class() == 2 || (e.class() == 0 && bound <= e.bound)))
                    || (disproof
                        && dominates(hand, e.hand)
                        && ((e.class() == 2 && bound == UNBOUNDED)
                            || (e.class() == 1 && e.bound <= bound)));
                if redundant_old {
                    self.erase(i);
                    self.used -= 1;
                    self.stats.dominated += 1;
                    empty.get_or_insert(i);
                    continue;
                }
            }
            // Solved entries are worth more than their node count says.
            let worth = if e.class() == 2 {
                e.amount
            } else {
                e.amount.saturating_mul(4)
            };
            if worth < victim_amount {
                victim_amount = worth;
                victim = i;
            }
        }
        match empty {
            Some(i) => {
                self.set(i, new);
                self.used += 1;
                if grows(self.used, self.active_slots()) && self.active_slots() < self.slots {
                    self.grow();
                } else if self.used * 10 >= self.slots * 9 {
                    self.gc();
                }
            }
            None => {
                self.set(victim, new);
                self.stats.replaced += 1;
            }
        }
    }

    /// Garbage collection: drops unsolved entries with little search behind them
    /// (the threshold doubles until at least a quarter of the table is free). When
    /// solved entries alone fill more than three quarters, the solved ones with the
    /// least search behind them go too (one histogram pass, one sweep; entries of
    /// 2^31 nodes or more stay): else every later store into an empty slot would sweep
    /// the whole table again (a 16 MiB table of solved entries made certificate
    /// extraction spend 85 % of its time here).
    pub fn gc(&mut self) {
        self.stats.gc_runs += 1;
        loop {
            for i in 0..self.active_slots() {
                let e = self.get(i);
                if e.amount != 0 && e.class() == 2 && e.amount < self.gc_threshold {
                    self.erase(i);
                    self.used -= 1;
                    self.stats.gc_dropped += 1;
                }
            }
            if self.used * 4 <= self.slots * 3 || self.gc_threshold >= u32::MAX / 2 {
                break;
            }
            self.gc_threshold *= 2;
        }
        if self.used * 4 > self.slots * 3 {
            self.gc_solved();
        }
    }

    /// Drops the solved entries with the smallest amounts until at most three quarters
    /// of the table are used: amounts below `2^b` for the least such `b` ≤ 31.
    fn gc_solved(&mut self) {
        let mut by_log = [0usize; 33];
        for i in 0..self.active_slots() {
            let e = self.get(i);
            if e.amount != 0 {
                by_log[32 - e.amount.leading_zeros() as usize] += 1;
            }
        }
        let target = self.slots * 3 / 4;
        let (mut b, mut left) = (0usize, self.used);
        // Dropping amounts below 2^b removes the buckets 1..=b (bucket k: 2^(k-1) ≤ a < 2^k).
        while left > target && b < 31 {
            b += 1;
            left -= by_log[b];
        }
        let limit = 1u64 << b;
        for i in 0..self.active_slots() {
            let e = self.get(i);
            if e.amount != 0 && u64::from(e.amount) < limit {
                self.erase(i);
                self.used -= 1;
                self.stats.gc_dropped += 1;
            }
        }
    }

    /// The count `what` memoised for the position with key `position_key`, if any (never 0).
    #[inline]
    pub fn count(&self, position_key: u64, what: Count) -> Option<u32> {
        let (i, k) = self.counts.slot(position_key, what);
        let e = self.counts.entries[i];
        (e[0] == k && e[1] != 0).then_some(e[1] as u32)
    }

    /// Turns the count memo on or off (on by default; off, every count is recomputed: the
    /// slow twin the tests compare against).
    pub fn set_count_memo(&mut self, on: bool) {
        self.counts.on = on;
        self.counts.entries.fill([0, 0]);
    }

    /// Starts loading the memo entry of [`Table::count`]`(position_key, what)` into the cache.
    #[inline]
    #[allow(unsafe_code)]
    pub fn prefetch_count(&self, position_key: u64, what: Count) {
        let (i, _) = self.counts.slot(position_key, what);
        let p = self.counts.entries[i..].as_ptr();
        #[cfg(target_arch = "x86_64")]
        // SAFETY: a prefetch is a hint; it never faults and reads nothing into the program.
        unsafe {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            _mm_prefetch::<_MM_HINT_T0>(p.cast());
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = p;
    }

    /// Memoises the count `what` of the position with key `position_key` (0 is not stored).
    #[inline]
    pub fn set_count(&mut self, position_key: u64, what: Count, n: u32) {
        if n != 0 && self.counts.on {
            let (i, k) = self.counts.slot(position_key, what);
            self.counts.entries[i] = [k, n as u64];
        }
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.counts.entries.fill([0, 0]);
        if self.used == 0 && self.stats == TableStats::default() {
            return;
        }
        self.mem.zero();
        self.clusters_mask = (self.slots / CLUSTER).min(INITIAL_CLUSTERS) - 1;
        self.used = 0;
        self.gc_threshold = 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A request too large for any machine is refused, whatever its size: from 2^44 MiB
    /// the byte count saturates and the sizing loop used to wrap around forever.
    #[test]
    fn an_impossible_size_is_an_error() {
        for mib in [1 << 40, 1 << 44, usize::MAX / 2, usize::MAX] {
            assert!(Table::try_new(mib).is_err(), "{mib} MiB");
        }
    }

    #[test]
    fn superiority() {
        let mut t = Table::new(1);
        let h = Hand::EMPTY.add(PieceKind::Gold);
        let more = h.add(PieceKind::Pawn);
        t.store(42 << 8, h, ProofNumbers::PROVEN, 3, 0, 10);
        assert_eq!(
            t.lookup(42 << 8, more, UNBOUNDED).unwrap().pns,
            ProofNumbers::PROVEN
        );
        assert!(t.lookup(42 << 8, Hand::EMPTY, UNBOUNDED).is_none());
        // A proof of length 3 does not answer a 1-ply budget.
        assert!(t.lookup(42 << 8, more, 1).is_none());
        t.store(7 << 8, more, ProofNumbers::DISPROVEN, UNBOUNDED, 0, 10);
        assert_eq!(
            t.lookup(7 << 8, h, UNBOUNDED).unwrap().pns,
            ProofNumbers::DISPROVEN
        );
        assert!(t
            .lookup(7 << 8, more.add(PieceKind::Rook), UNBOUNDED)
            .is_none());
        // A budget-limited disproof does not answer a larger budget.
        t.store(9 << 8, h, ProofNumbers::DISPROVEN, 5, 0, 10);
        assert!(t.lookup(9 << 8, h, 7).is_none());
        assert_eq!(t.lookup(9 << 8, h, 5).unwrap().pns, ProofNumbers::DISPROVEN);
    }

    #[test]
    fn solved_entries_drop_what_they_make_redundant() {
        let mut t = Table::new(1);
        let h = Hand::EMPTY.add(PieceKind::Gold);
        let more = h.add(PieceKind::Pawn);
        let k = 5 << 8;
        t.store(k, more, ProofNumbers { pn: 3, dn: 2 }, 0, 1, 10);
        t.store(k, more, ProofNumbers::PROVEN, 9, 1, 10);
        assert_eq!(
            t.used(),
            1,
            "the proof replaces the unsolved entry of its hand"
        );
        t.store(k, h, ProofNumbers::PROVEN, 7, 1, 10);
        assert_eq!(
            t.used(),
            1,
            "a shorter proof with fewer pieces replaces the longer one"
        );
        assert_eq!(t.lookup(k, more, UNBOUNDED).unwrap().bound, 7);
        t.store(k, more, ProofNumbers::PROVEN, 8, 1, 10);
        assert_eq!(t.used(), 1, "a proof the stored one implies is not stored");
        // A longer proof with fewer pieces is kept beside a shorter one with more.
        t.store(k, Hand::EMPTY, ProofNumbers::PROVEN, 11, 1, 10);
        assert_eq!(t.used(), 2);
        assert_eq!(t.lookup(k, more, UNBOUNDED).unwrap().bound, 7);
        assert_eq!(t.lookup(k, Hand::EMPTY, UNBOUNDED).unwrap().bound, 11);
        // Disproofs: a complete one with more pieces drops the weaker ones.
        let d = 6 << 8;
        t.store(d, h, ProofNumbers::DISPROVEN, 5, 1, 10);
        t.store(d, Hand::EMPTY, ProofNumbers { pn: 2, dn: 2 }, 0, 1, 10);
        t.store(d, more, ProofNumbers::DISPROVEN, UNBOUNDED, 1, 10);
        assert_eq!(t.used(), 3);
        t.store(d, h, ProofNumbers::DISPROVEN, UNBOUNDED, 1, 10);
        assert_eq!(t.used(), 3, "implied by the stored disproof");
        assert_eq!(
            t.lookup(d, Hand::EMPTY, UNBOUNDED).unwrap().pns,
            ProofNumbers::DISPROVEN
        );
    }

    #[test]
    fn packed_dominance_is_hand_dominance() {
        let kinds = PieceKind::HAND;
        let mut hands = vec![Hand::EMPTY];
        for (i, &k) in kinds.iter().enumerate() {
            let n = hands.len();
            for j in 0..n {
                let h = hands[j];
                hands.push(h.with_count(k, k.max_count()));
                if i % 2 == 0 {
                    hands.push(h.with_count(k, 1));
                }
            }
        }
        for &a in &hands {
            for &b in &hands {
                assert_eq!(dominates(a.raw(), b.raw()), a.dominates(b), "{a:?} {b:?}");
            }
        }
    }

    #[test]
    fn counts_are_memoised_by_key_and_kind() {
        let mut t = Table::new(1);
        let k = 0x1234_5678_9abc_de00;
        assert_eq!(t.count(k, Count::Replies), None);
        t.set_count(k, Count::Replies, 7);
        t.set_count(k, Count::Checks, 3);
        assert_eq!(t.count(k, Count::Replies), Some(7));
        assert_eq!(t.count(k, Count::Checks), Some(3));
        // Another hand on the same board is another position.
        assert_eq!(t.count(k + (1 << 8), Count::Replies), None);
        t.set_count(k + 1, Count::Replies, 0);
        assert_eq!(t.count(k + 1, Count::Replies), None, "zero is not stored");
        t.clear();
        assert_eq!(t.count(k, Count::Replies), None);
    }

    /// The one-scan `lookup_or_bounds` against `lookup` and `bounds`, on clusters filled
    /// with proofs, disproofs and unsolved entries of a few boards under related hands.
    #[test]
    fn lookup_or_bounds_is_lookup_then_bounds() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        let hand = |rng: &mut rand_chacha::ChaCha8Rng| {
            [PieceKind::Pawn, PieceKind::Gold, PieceKind::Rook]
                .iter()
                .fold(Hand::EMPTY, |h, &k| h.with_count(k, rng.gen_range(0..3)))
        };
        let (mut found, mut bounded) = (0, 0);
        for round in 0..200 {
            let mut t = Table::new(1);
            let keys: Vec<u64> = (0..3).map(|i| (round * 8 + i + 1) << 8).collect();
            for _ in 0..rng.gen_range(1..30) {
                let key = keys[rng.gen_range(0..keys.len())];
                let pns = match rng.gen_range(0..3) {
                    0 => ProofNumbers::PROVEN,
                    1 => ProofNumbers::DISPROVEN,
                    _ => ProofNumbers {
                        pn: rng.gen_range(1..50),
                        dn: rng.gen_range(1..50),
                    },
                };
                let bound = [0, 3, 7, 11, UNBOUNDED][rng.gen_range(0..5)];
                t.store(key, hand(&mut rng), pns, bound, 1, rng.gen_range(1..20));
            }
            for _ in 0..50 {
                let key = keys[rng.gen_range(0..keys.len())];
                let h = hand(&mut rng);
                let budget = [0, 5, 9, UNBOUNDED][rng.gen_range(0..4)];
                let slow = t.lookup(key, h, budget).ok_or_else(|| t.bounds(key, h));
                assert_eq!(t.lookup_or_bounds(key, h, budget), slow);
                match slow {
                    Ok(_) => found += 1,
                    Err(b) => bounded += (b != ProofNumbers { pn: 1, dn: 1 }) as u32,
                }
            }
        }
        assert!(found > 1000 && bounded > 300, "{found} {bounded}");
    }

    #[test]
    fn hand_round_trip() {
        let h = Hand::EMPTY
            .with_count(PieceKind::Pawn, 18)
            .with_count(PieceKind::Rook, 2)
            .add(PieceKind::Knight);
        assert_eq!(hand_from_raw(h.raw()), h);
    }

    #[test]
    fn growing_keeps_every_entry() {
        let mut t = Table::new(16);
        let start = t.active_slots();
        let n = 40_000u64;
        let key = |i: u64| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) & !0xff;
        for i in 0..n {
            t.store(key(i), Hand::EMPTY, ProofNumbers::PROVEN, i as u16, 1, 1);
        }
        assert!(t.active_slots() > start, "the table grew");
        assert_eq!(t.used() as u64 + t.stats.replaced, n);
        let found = (0..n)
            .filter(|&i| {
                t.lookup(key(i), Hand::EMPTY, UNBOUNDED).map(|f| f.bound) == Some(i as u16)
            })
            .count() as u64;
        assert_eq!(found, t.used() as u64);
        // Below `DENSE_FROM_SLOTS` the table grows at half full: under 1 % of random
        // keys meet a full cluster of 8 first.
        let replaced = t.stats.replaced;
        assert!(
            replaced * 100 < n,
            "few replacements while growing: {replaced}"
        );
    }

    /// Half full below 256 MiB of slots in use, three quarters from there.
    #[test]
    fn the_table_doubles_at_half_then_three_quarters() {
        let small = DENSE_FROM_SLOTS / 2;
        assert!(!grows(small / 2 - 1, small));
        assert!(grows(small / 2, small));
        let large = DENSE_FROM_SLOTS;
        assert!(!grows(large / 2, large));
        assert!(!grows(large / 4 * 3 - 1, large));
        assert!(grows(large / 4 * 3, large));
        assert_eq!(DENSE_FROM_SLOTS * 32, 256 << 20, "slots of 32 bytes");
    }

    #[test]
    fn bounded_memory_never_fails() {
        let mut t = Table::new(1);
        let cap = t.capacity();
        for i in 0..(cap as u64 * 4) {
            t.store(
                i << 8,
                Hand::EMPTY,
                ProofNumbers { pn: 3, dn: 4 },
                0,
                0,
                i % 7 + 1,
            );
            assert!(t.used() <= cap);
        }
        assert!(t.stats.gc_runs > 0 || t.stats.replaced > 0);
    }

    #[test]
    fn a_table_of_solved_entries_is_swept_rarely() {
        // Solved entries alone fill the table: the sweep must drop the cheap ones (an
        // unsolved-only sweep freed nothing and ran again on every store).
        let mut t = Table::new(1);
        let cap = t.capacity() as u64;
        let key = |i: u64| i.wrapping_mul(0x9E37_79B9_7F4A_7C15) & !0xff;
        let n = cap * 4;
        for i in 0..n {
            let pns = if i % 2 == 0 {
                ProofNumbers::PROVEN
            } else {
                ProofNumbers::DISPROVEN
            };
            // Every 64th entry is expensive (as the extractor's assumptions, u64::MAX).
            let amount = if i % 64 == 0 { u64::MAX } else { i % 5 + 1 };
            t.store(key(i), Hand::EMPTY, pns, 3, 1, amount);
            assert!(t.used() as u64 <= cap);
        }
        // Each sweep frees at least 15 % of the slots.
        assert!(t.stats.gc_runs > 0);
        assert!(
            t.stats.gc_runs * cap * 15 / 100 <= n,
            "{} sweeps",
            t.stats.gc_runs
        );
        let kept = (0..n)
            .step_by(64)
            .filter(|&i| t.lookup(key(i), Hand::EMPTY, UNBOUNDED).is_some())
            .count() as u64;
        // Expensive entries are never swept; only a full cluster replaces one.
        assert!(kept + t.stats.replaced >= n / 64, "{kept} kept");
        assert!(kept * 10 >= n / 64 * 9, "{kept} kept");
    }
}
