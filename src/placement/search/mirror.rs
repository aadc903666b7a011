//! Left-right mirror images on a board of `files` files (file f ↔ files + 1 − f),
//! for counting one placement of each mirror pair.

use crate::placement::pieces::Cell;
use crate::rules::Square;

/// The mirror image of a square on a board of `files` files (file f → files + 1 − f).
fn mirror_sq(s: Square, files: u8) -> Square {
    Square::new(files + 1 - s.file(), s.rank()).expect("on the board")
}

/// Whether a list of pieces equals its left-right mirror image on a board of `files` files.
pub(super) fn is_mirror_symmetric(placed: &[(Square, Cell)], files: u8) -> bool {
    let occ: u128 = placed.iter().map(|(s, _)| 1u128 << s.index()).sum();
    let mirrored: u128 = placed
        .iter()
        .map(|&(s, _)| 1u128 << mirror_sq(s, files).index())
        .sum();
    occ == mirrored
        && placed.iter().all(|&(s, p)| {
            placed
                .iter()
                .any(|&(t, q)| t == mirror_sq(s, files) && q == p)
        })
}

/// A bitboard of the first `files` files mirrored left-right (file f → files + 1 − f).
pub(super) fn mirror_bb(b: u128, files: u8) -> u128 {
    let n = files as u32;
    (0..n).fold(0u128, |m, f| {
        m | ((b >> (9 * f)) & 0x1ff) << (9 * (n - 1 - f))
    })
}
