//! A `u64 → V` map for keys pushed and popped like a stack: the path's positions and
//! boards ([`super::path::PathMap`]). Every expansion inserts and removes its position,
//! which `HashMap` did at 4–6 % of the profile of the long problems (図巧100,
//! ミクロコスモス); tested against `HashMap` on random operations.

/// One slot of a [`StackMap`].
#[derive(Clone, Copy, Default)]
struct Slot<V> {
    key: u64,
    value: V,
    full: bool,
}

/// A `u64 → V` map for keys that are pushed and popped like a stack (open addressing with
/// linear probing at most half full, deletion by backward shift: no tombstones, so no
/// rehash however many removals; Knuth, TAOCP vol. 3, 6.4 Algorithm R). Keys are
/// Zobrist-random; the slot is the top bits of a Fibonacci multiply.
pub(super) struct StackMap<V> {
    slots: Vec<Slot<V>>,
    len: usize,
    /// `64 - log2(slots.len())`.
    shift: u32,
}

impl<V: Copy + Default> Default for StackMap<V> {
    fn default() -> Self {
        StackMap::with_slots(256)
    }
}

impl<V: Copy + Default> StackMap<V> {
    fn with_slots(n: usize) -> Self {
        StackMap {
            slots: vec![Slot::default(); n],
            len: 0,
            shift: 64 - n.trailing_zeros(),
        }
    }

    #[inline]
    fn home(&self, key: u64) -> usize {
        (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize
    }

    #[inline]
    fn mask(&self) -> usize {
        self.slots.len() - 1
    }

    /// The slot holding `key`, or the empty slot ending its probe sequence.
    #[inline]
    fn find(&self, key: u64) -> (usize, bool) {
        let mask = self.mask();
        let mut i = self.home(key);
        loop {
            let s = &self.slots[i];
            if !s.full {
                return (i, false);
            }
            if s.key == key {
                return (i, true);
            }
            i = (i + 1) & mask;
        }
    }

    #[inline]
    pub(super) fn get(&self, key: u64) -> Option<&V> {
        match self.find(key) {
            (i, true) => Some(&self.slots[i].value),
            _ => None,
        }
    }

    #[inline]
    pub(super) fn get_mut(&mut self, key: u64) -> Option<&mut V> {
        match self.find(key) {
            (i, true) => Some(&mut self.slots[i].value),
            _ => None,
        }
    }

    /// Sets `key` to `value`; the old value if there was one.
    #[inline]
    pub(super) fn insert(&mut self, key: u64, value: V) -> Option<V> {
        let (i, found) = self.find(key);
        if found {
            return Some(std::mem::replace(&mut self.slots[i].value, value));
        }
        self.slots[i] = Slot {
            key,
            value,
            full: true,
        };
        self.len += 1;
        if self.len * 2 > self.slots.len() {
            self.grow();
        }
        None
    }

    fn grow(&mut self) {
        let old = std::mem::take(&mut self.slots);
        *self = StackMap::with_slots(old.len() * 2);
        for s in old.into_iter().filter(|s| s.full) {
            let (i, _) = self.find(s.key);
            self.slots[i] = s;
            self.len += 1;
        }
    }

    /// Removes `key`; its value if it was there. The entries behind it in its probe run
    /// move back so that every key stays reachable from its home slot.
    #[inline]
    pub(super) fn remove(&mut self, key: u64) -> Option<V> {
        let (mut hole, found) = self.find(key);
        if !found {
            return None;
        }
        let value = self.slots[hole].value;
        let mask = self.mask();
        let mut j = hole;
        loop {
            j = (j + 1) & mask;
            if !self.slots[j].full {
                break;
            }
            let home = self.home(self.slots[j].key);
            // The entry at j may move to the hole unless its home lies cyclically in (hole, j].
            if (j.wrapping_sub(home) & mask) >= (j.wrapping_sub(hole) & mask) {
                self.slots[hole] = self.slots[j];
                hole = j;
            }
        }
        self.slots[hole].full = false;
        self.len -= 1;
        Some(value)
    }

    pub(super) fn clear(&mut self) {
        if self.len != 0 {
            for s in &mut self.slots {
                s.full = false;
            }
            self.len = 0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use std::collections::HashMap;

    /// `StackMap` against `HashMap` on random inserts, removes and lookups, with keys
    /// from a pool large enough to grow it several times and to make long probe runs
    /// (removals from the middle of a run, runs wrapping around the end).
    #[test]
    fn stack_map_answers_as_hash_map() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(5);
        for pool_size in [40usize, 3000] {
            let pool: Vec<u64> = (0..pool_size).map(|_| rng.gen()).collect();
            let (mut fast, mut plain) = (StackMap::<u32>::default(), HashMap::new());
            for step in 0..100_000u32 {
                let k = pool[rng.gen_range(0..pool.len())];
                match rng.gen_range(0..4) {
                    0 => assert_eq!(fast.insert(k, step), plain.insert(k, step)),
                    1 => assert_eq!(fast.remove(k), plain.remove(&k)),
                    2 => {
                        if let (Some(a), Some(b)) = (fast.get_mut(k), plain.get_mut(&k)) {
                            *a += 1;
                            *b += 1;
                        }
                    }
                    _ => assert_eq!(fast.get(k), plain.get(&k)),
                }
                assert_eq!(fast.len, plain.len());
                if step % 30_000 == 29_999 {
                    for k in &pool {
                        assert_eq!(fast.get(*k), plain.get(k));
                    }
                    fast.clear();
                    plain.clear();
                }
            }
        }
    }
}
