//! The population count of a bitboard, with the CPU's `popcnt` instruction when it has
//! one. The release build targets baseline x86-64 (no `target-cpu` flag, STYLE 15),
//! where `u128::count_ones` is a bit-twiddling sequence of some two dozen instructions;
//! the tsume solver's reply and check counts (`Position::count_replies`,
//! `Position::count_checks`) call it tens of times per node. The instruction is asked
//! for by inline assembly, which, unlike a `#[target_feature]` function, inlines into
//! its callers, behind a run-time CPU test made once. The naive twin is `count_ones`,
//! compared on random and edge-case words in the tests.

#[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
use std::sync::atomic::{AtomicU8, Ordering};

/// Whether the CPU has `popcnt`: 0 not yet asked, 1 no, 2 yes.
#[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
static POPCNT: AtomicU8 = AtomicU8::new(0);

/// The number of set bits of `x`.
#[inline(always)]
pub(crate) fn count(x: u128) -> u32 {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
    {
        if has_popcnt() {
            return popcnt(x);
        }
    }
    x.count_ones()
}

#[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
#[inline(always)]
fn has_popcnt() -> bool {
    match POPCNT.load(Ordering::Relaxed) {
        2 => true,
        1 => false,
        _ => detect(),
    }
}

#[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
#[cold]
fn detect() -> bool {
    let yes = std::arch::is_x86_feature_detected!("popcnt");
    POPCNT.store(if yes { 2 } else { 1 }, Ordering::Relaxed);
    yes
}

/// `count` by the `popcnt` instruction, one per 64-bit half.
#[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
#[inline(always)]
#[allow(unsafe_code)]
fn popcnt(x: u128) -> u32 {
    let (lo, hi) = (x as u64, (x >> 64) as u64);
    let (a, b): (u64, u64);
    // `a` is a plain output: written by the first instruction, it must not share a
    // register with `hi`, read by the second (a `lateout` may, and did).
    // SAFETY: `popcnt` reads and writes registers only (and the flags, which `asm!`
    // treats as clobbered); it runs only after CPUID reported it (`has_popcnt`).
    unsafe {
        std::arch::asm!(
            "popcnt {a}, {lo}",
            "popcnt {b}, {hi}",
            lo = in(reg) lo,
            hi = in(reg) hi,
            a = out(reg) a,
            b = lateout(reg) b,
            options(pure, nomem, nostack),
        );
    }
    (a + b) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// Random words of every density, single bits and the edges, against `count_ones`
    /// (through whichever path this CPU takes, and through `popcnt` directly when the
    /// CPU has it).
    #[test]
    fn count_matches_count_ones() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(81);
        let mut words = vec![0u128, u128::MAX, (1u128 << 81) - 1, 1u128 << 127];
        words.extend((0..128).map(|i| 1u128 << i));
        for _ in 0..100_000 {
            // AND-ing random words gives sparse ones, OR-ing dense ones.
            let (a, b) = (rng.gen::<u128>(), rng.gen::<u128>());
            words.extend([a, a & b, a & b & rng.gen::<u128>(), a | b]);
        }
        for &w in &words {
            assert_eq!(count(w), w.count_ones(), "{w:#x}");
            #[cfg(all(target_arch = "x86_64", not(target_feature = "popcnt")))]
            if std::arch::is_x86_feature_detected!("popcnt") {
                assert_eq!(popcnt(w), w.count_ones(), "{w:#x}");
            }
        }
    }
}
