//! A hasher for maps keyed by Zobrist position keys: the keys are already random, so
//! one multiply-xor per word replaces SipHash (the solver's path maps, the certificate
//! extractor's node maps).

/// Position keys are already Zobrist-random: hash them by one multiply-xor, not SipHash.
#[derive(Default, Clone, Copy)]
pub(crate) struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(29) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

/// [`std::collections::HashMap`]'s hasher for Zobrist-keyed maps.
pub(crate) type KeyHash = std::hash::BuildHasherDefault<KeyHasher>;
