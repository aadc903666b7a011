//! The tail memo of the count: completion counts remembered at group
//! boundaries, within a memory budget.

use super::colors_for_kind;
use super::searcher::Group;
use crate::placement::feasibility::Directions;
use crate::placement::pieces::Kind;
use crate::rules::{Bitboard, PieceKind, Square};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::sync::Mutex;

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
pub(super) struct TailMemo {
    /// `reach[gi][sq]`: squares any kind of groups `gi..` attacks from `sq` (empty board);
    /// `None` where the group is not memoised.
    reach: Vec<Option<[u128; 81]>>,
    shards: Vec<Mutex<MemoShard>>,
    /// Each shard's share of the memory budget, in bytes.
    shard_bytes: u64,
}

type MemoShard = HashMap<MemoKey, u64, BuildHasherDefault<PassHasher>>;

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(super) struct MemoKey {
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
    pub(super) fn new(groups: &[Group], dirs: Directions, budget: u64) -> TailMemo {
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
    pub(super) fn key(&self, gi: usize, occ: u128, att: u128) -> Option<MemoKey> {
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

    pub(super) fn get(&self, k: &MemoKey) -> Option<u64> {
        let shard = self.shards[k.hash as usize % MEMO_SHARDS]
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        shard.get(k).copied()
    }

    pub(super) fn insert(&self, k: MemoKey, v: u64) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::placement::pieces::PieceSet;
    use crate::placement::Problem;

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
}
