//! The positions on the current path and the path-dependent disproofs, as hash maps
//! behind a filter: the search asks both about every child it looks at, and the answer
//! is almost always "absent", which the filter gives without hashing into the map.
//! Every answer is the map's own (the filter only skips lookups that must fail); tested
//! against a plain `HashMap` on random operations.
//!
//! The path's maps are [`StackMap`]s (`stack_map`: open addressing, backward-shift
//! deletion).

use super::stack_map::StackMap;
use super::KeyHash;
use std::collections::HashMap;

/// Filter slots of [`PathMap`] (a path holds at most [`super::MAX_DEPTH`] positions).
const PATH_SLOTS: usize = 1 << 12;

/// Bits of [`RepTable`]'s filter.
const REP_BITS: usize = 1 << 18;

#[inline]
fn slot(key: u64, slots: usize) -> usize {
    // Position keys: byte 0 is the side to move, the other bits Zobrist + packed hand.
    ((key >> 8) ^ (key >> 37)) as usize & (slots - 1)
}

/// Position key → depth on the path, with a counting filter of the keys present; and the
/// boards of the path's positions (board key → how many), behind their own filter.
pub(super) struct PathMap {
    map: StackMap<(u16, u64)>,
    /// Keys of the map per filter slot.
    counts: Box<[u16; PATH_SLOTS]>,
    boards: StackMap<u16>,
    board_counts: Box<[u16; PATH_SLOTS]>,
}

impl Default for PathMap {
    fn default() -> Self {
        PathMap {
            map: StackMap::default(),
            counts: Box::new([0; PATH_SLOTS]),
            boards: StackMap::default(),
            board_counts: Box::new([0; PATH_SLOTS]),
        }
    }
}

impl PathMap {
    #[inline]
    pub(super) fn get(&self, key: &u64) -> Option<&u16> {
        if self.counts[slot(*key, PATH_SLOTS)] == 0 {
            return None;
        }
        self.map.get(*key).map(|(d, _)| d)
    }

    #[inline]
    pub(super) fn contains_key(&self, key: &u64) -> bool {
        self.get(key).is_some()
    }

    /// Puts the position `key` (board key `board`) on the path at `depth`; the old depth
    /// if it was there.
    #[inline]
    pub(super) fn insert(&mut self, key: u64, board: u64, depth: u16) -> Option<u16> {
        match self.map.insert(key, (depth, board)) {
            Some((old, old_board)) => {
                if old_board != board {
                    self.remove_board(old_board);
                    self.add_board(board);
                }
                Some(old)
            }
            None => {
                self.counts[slot(key, PATH_SLOTS)] += 1;
                self.add_board(board);
                None
            }
        }
    }

    #[inline]
    pub(super) fn remove(&mut self, key: &u64) -> Option<u16> {
        let (old, board) = self.map.remove(*key)?;
        self.counts[slot(*key, PATH_SLOTS)] -= 1;
        self.remove_board(board);
        Some(old)
    }

    /// Whether some position of the path has this board (any hands).
    #[inline]
    pub(super) fn has_board(&self, board: u64) -> bool {
        self.board_counts[slot(board, PATH_SLOTS)] != 0 && self.boards.get(board).is_some()
    }

    #[inline]
    fn add_board(&mut self, board: u64) {
        match self.boards.get_mut(board) {
            Some(n) => *n += 1,
            None => {
                self.boards.insert(board, 1);
            }
        }
        self.board_counts[slot(board, PATH_SLOTS)] += 1;
    }

    #[inline]
    fn remove_board(&mut self, board: u64) {
        if let Some(n) = self.boards.get_mut(board) {
            *n -= 1;
            if *n == 0 {
                self.boards.remove(board);
            }
            self.board_counts[slot(board, PATH_SLOTS)] -= 1;
        }
    }

    pub(super) fn clear(&mut self) {
        self.map.clear();
        self.counts.fill(0);
        self.boards.clear();
        self.board_counts.fill(0);
    }
}

impl std::ops::Index<&u64> for PathMap {
    type Output = u16;
    /// # Panics
    /// If `key` is not on the path (as `HashMap`'s index).
    fn index(&self, key: &u64) -> &u16 {
        match self.map.get(*key) {
            Some((d, _)) => d,
            None => panic!("position {key:#x} is not on the path"),
        }
    }
}

/// (position key, path hash) → path-dependent disproof (budget, dependency depth), with a
/// bit filter of the position keys present (the map only grows until cleared).
pub(super) struct RepTable {
    map: HashMap<(u64, u64), (u16, u16), KeyHash>,
    bits: Box<[u64; REP_BITS / 64]>,
}

impl Default for RepTable {
    fn default() -> Self {
        RepTable {
            map: HashMap::default(),
            bits: Box::new([0; REP_BITS / 64]),
        }
    }
}

impl RepTable {
    #[inline]
    pub(super) fn get(&self, key: &(u64, u64)) -> Option<&(u16, u16)> {
        let s = slot(key.0, REP_BITS);
        if self.bits[s / 64] >> (s % 64) & 1 == 0 {
            return None;
        }
        self.map.get(key)
    }

    #[inline]
    pub(super) fn insert(&mut self, key: (u64, u64), value: (u16, u16)) -> Option<(u16, u16)> {
        let s = slot(key.0, REP_BITS);
        self.bits[s / 64] |= 1 << (s % 64);
        self.map.insert(key, value)
    }

    pub(super) fn len(&self) -> usize {
        self.map.len()
    }

    pub(super) fn clear(&mut self) {
        if !self.map.is_empty() {
            self.map.clear();
            self.bits.fill(0);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Random inserts, removes and lookups (keys from a small pool, so that they repeat,
    /// collide in the filter and are removed while present or absent) answer as a plain
    /// `HashMap` does, and `has_board` as a scan of the plain map's boards.
    #[test]
    fn filtered_maps_answer_as_hash_maps() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
        let pool: Vec<u64> = (0..6000).map(|_| rng.gen::<u64>() & !0xfe).collect();
        let (mut path, mut plain) = (PathMap::default(), HashMap::<u64, (u16, u64)>::new());
        // A position's board: a few boards shared by many positions (hands differ).
        let board_of = |k: u64| (k % 97).wrapping_mul(0x9E37_79B9_7F4A_7C15) & !0xff;
        let (mut rep, mut rep_plain) = (RepTable::default(), HashMap::new());
        let mut hits = 0;
        for step in 0..200_000u32 {
            let k = pool[rng.gen_range(0..pool.len())];
            let d = rng.gen::<u16>();
            match rng.gen_range(0..5) {
                0 | 1 => assert_eq!(
                    path.insert(k, board_of(k), d),
                    plain.insert(k, (d, board_of(k))).map(|x| x.0)
                ),
                2 => assert_eq!(path.remove(&k), plain.remove(&k).map(|x| x.0)),
                _ => {
                    assert_eq!(path.get(&k), plain.get(&k).map(|x| &x.0));
                    assert_eq!(path.contains_key(&k), plain.contains_key(&k));
                    if plain.contains_key(&k) {
                        assert_eq!(path[&k], plain[&k].0);
                        hits += 1;
                    }
                }
            }
            let b = board_of(pool[rng.gen_range(0..pool.len())]);
            assert_eq!(path.has_board(b), plain.values().any(|x| x.1 == b));
            let rk = (k, rng.gen_range(0..4u64));
            if rng.gen_bool(0.3) {
                assert_eq!(rep.insert(rk, (d, d ^ 1)), rep_plain.insert(rk, (d, d ^ 1)));
            } else {
                assert_eq!(rep.get(&rk), rep_plain.get(&rk));
            }
            assert_eq!(rep.len(), rep_plain.len());
            if step % 50_000 == 49_999 {
                path.clear();
                plain.clear();
                rep.clear();
                rep_plain.clear();
            }
        }
        assert!(hits > 10_000, "{hits}");
    }
}
