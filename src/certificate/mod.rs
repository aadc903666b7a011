//! The independent checker of tsume certificates ([`check`]): it shares no code
//! with the solver. Node lines are read by `line` (serde_json beyond the plain form),
//! positions from each node's SFEN by `sfen` (`parse_setup` beyond the plain form) and
//! [`crate::rules::Position::from_setup`], moves from the rules core's naive
//! play-and-test definition ([`crate::rules::Position::legal_moves_naive`], as `naive`),
//! acyclicity and depth from `petgraph`, the 無駄合 convention of version-3 and -4 files from
//! their witnesses by `futility`, version 4's `by_checker` leaves by `shallow`, the
//! compact per-node state in `key`. The extraction
//! lives beside the solver ([`crate::tsume::certificate`]); the format is
//! `specs/certificate.md`.

pub mod check;
mod futility;
mod key;
mod line;
mod naive;
mod sfen;
mod shallow;

pub use check::{check_text, CheckError, Checked};

/// Random byte edits for the fuzz tests of the plain readers (`line`, `sfen`).
#[cfg(test)]
mod mutate {
    use rand::Rng;

    /// `base` with 1 to `max_edits` random edits (replace, insert or remove one byte,
    /// the new bytes from `alphabet`); never empty.
    pub(super) fn mutate(
        rng: &mut impl Rng,
        base: &str,
        alphabet: &[u8],
        max_edits: usize,
    ) -> String {
        let mut b = base.as_bytes().to_vec();
        for _ in 0..rng.gen_range(1..=max_edits) {
            let i = rng.gen_range(0..b.len());
            let c = alphabet[rng.gen_range(0..alphabet.len())];
            match rng.gen_range(0..3) {
                0 => b[i] = c,
                1 => b.insert(i, c),
                _ => {
                    b.remove(i);
                }
            }
            if b.is_empty() {
                b.push(c);
            }
        }
        String::from_utf8(b).expect("ASCII edits of ASCII text")
    }
}
