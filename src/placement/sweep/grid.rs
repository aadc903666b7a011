//! The squares in sweep order and the attack relations of every short kind on
//! them, for the full board and the folded one.

use super::short_kinds::ShortKinds;
use super::Problem;
use crate::rules::bitboard::attacks;
use crate::rules::{Bitboard, Color, PieceKind, Square};

/// Occupancy window (bit d: the cell d + 1 places back) and lookahead (bit d: d + 1 places ahead).
pub(super) const BACK: u32 = 11;
pub(super) const AHEAD: u32 = 10;

/// The squares in sweep order (file by file, rank 1 to 9 in each file; cell
/// `i` is the square of index `i`, so windows shift straight into bitboards)
/// with the attack relations of every short kind.
#[derive(Debug, Clone)]
pub(super) struct Grid {
    /// Cells: 9 per file, files 1.. (folded: up to the middle file).
    pub(super) cells: usize,
    /// Whether the cell is on the board.
    pub(super) inside: Vec<bool>,
    /// Pieces one piece on the cell stands for (2 left of the middle when folded).
    pub(super) mult: Vec<u32>,
    /// Per kind, per cell: targets already swept (as window bits), or `None`
    /// if the kind cannot stand there (it would attack its own mirror image).
    pub(super) back: Vec<Vec<Option<u32>>>,
    /// Per kind, per cell: targets still ahead (as lookahead bits).
    pub(super) ahead: Vec<Vec<u32>>,
    /// Per kind, per cell: all target cells (to test against the layout).
    pub(super) targets: Vec<Vec<Vec<usize>>>,
    /// Knights (stones in the pawn/stone test), if any.
    pub(super) knight: Option<usize>,
    /// Lances, if any: instead of looking back at its whole file, a 香 tests
    /// one state bit, "a piece stands above in this file".
    pub(super) lance: Option<usize>,
    /// Folded (mirror-symmetric placements).
    pub(super) folded: bool,
}

impl Grid {
    pub(super) fn new(problem: &Problem, folded: bool, short: &ShortKinds) -> Grid {
        let files = usize::from(problem.files);
        let ranks = usize::from(problem.ranks);
        let cols = if folded { files.div_ceil(2) } else { files };
        let n = cols * 9;
        // Folded, file f > cols stands for its mirror image files + 1 − f.
        let cell_of = |s: Square| -> Option<usize> {
            let (f, r) = (usize::from(s.file()), usize::from(s.rank()));
            if f > files || r > ranks {
                return None;
            }
            let f = if f > cols { files + 1 - f } else { f };
            Some((f - 1) * 9 + r - 1)
        };
        let inside: Vec<bool> = (0..n).map(|i| i % 9 < ranks).collect();
        let mult = (0..n)
            .map(|i| {
                let f = i / 9 + 1;
                if folded && files + 1 - f != f {
                    2
                } else {
                    1
                }
            })
            .collect();
        let mut back = Vec::new();
        let mut ahead = Vec::new();
        let mut targets = Vec::new();
        let mut knight = None;
        let mut lance = None;
        for (j, &k) in short.kinds.iter().enumerate() {
            if k == PieceKind::Knight {
                knight = Some(j);
            }
            if k == PieceKind::Lance {
                lance = Some(j);
            }
            let r = Relations::of(k, &inside, cell_of);
            back.push(r.back);
            ahead.push(r.ahead);
            targets.push(r.targets);
        }
        Grid {
            cells: n,
            inside,
            mult,
            back,
            ahead,
            targets,
            knight,
            lance,
            folded,
        }
    }

    /// `needed[i][kinds]`: the bits of the window after cell `i` that a later
    /// cell tests when the kinds left are `kinds` (a bit set): the rest of
    /// the window is dropped from the state, so equal futures merge.
    pub(super) fn needed(&self, allowed: &[Vec<bool>], masks: usize) -> Vec<Vec<u32>> {
        let n = self.cells;
        let per_kind: Vec<Vec<u32>> = allowed
            .iter()
            .enumerate()
            .map(|(j, allowed)| {
                let mut nd = vec![0u32; n];
                for (i2, b) in self.back[j].iter().enumerate() {
                    let Some(b) = b.filter(|_| allowed[i2]) else {
                        continue;
                    };
                    for d in 0..BACK as usize {
                        if b >> d & 1 == 1 {
                            // Target t = i2 − 1 − d is bit i − t of the window after cell i (t ≤ i < i2).
                            let t = i2 - 1 - d;
                            for (i, slot) in nd.iter_mut().enumerate().take(i2).skip(t) {
                                *slot |= 1 << (i - t);
                            }
                        }
                    }
                }
                nd
            })
            .collect();
        (0..n)
            .map(|i| {
                (0..masks)
                    .map(|mask| {
                        (0..per_kind.len())
                            .filter(|j| mask >> j & 1 == 1)
                            .fold(0u32, |m, j| m | per_kind[j][i])
                    })
                    .collect()
            })
            .collect()
    }
}

/// The attack relations of one short kind, per cell (see [`Grid`]).
struct Relations {
    back: Vec<Option<u32>>,
    ahead: Vec<u32>,
    targets: Vec<Vec<usize>>,
}

impl Relations {
    /// The relations of `k` on the cells (`inside`: on the board), its targets
    /// mapped to cells by `cell_of`.
    ///
    /// # Panics
    /// If an attack reaches beyond the window.
    fn of(k: PieceKind, inside: &[bool], cell_of: impl Fn(Square) -> Option<usize>) -> Relations {
        let n = inside.len();
        let mut bk = Vec::with_capacity(n);
        let mut ah = Vec::with_capacity(n);
        let mut tg = Vec::with_capacity(n);
        for (i, &on_board) in inside.iter().enumerate() {
            let s = Square::from_index_unchecked(i);
            // A 香's targets are its whole file ahead: all of it must stay empty.
            let ts: Vec<usize> = if on_board {
                Square::all()
                    .filter(|&t| attacks(Color::Sente, k, s, Bitboard::EMPTY).has(t))
                    .filter_map(&cell_of)
                    .collect()
            } else {
                Vec::new()
            };
            let (mut b, mut a, mut own) = (0u32, 0u32, !on_board);
            for &t in &ts {
                match t.cmp(&i) {
                    std::cmp::Ordering::Less => {
                        assert!(
                            i - t <= BACK as usize,
                            "short-range attack beyond the window"
                        );
                        b |= 1 << (i - 1 - t);
                    }
                    std::cmp::Ordering::Greater => {
                        assert!(
                            t - i <= AHEAD as usize,
                            "short-range attack beyond the window"
                        );
                        a |= 1 << (t - i - 1);
                    }
                    std::cmp::Ordering::Equal => own = true,
                }
            }
            // A 香's targets all lie above it in its file: the file bit tests them.
            if k == PieceKind::Lance {
                b = 0;
            }
            bk.push(if own { None } else { Some(b) });
            ah.push(a);
            tg.push(ts);
        }
        Relations {
            back: bk,
            ahead: ah,
            targets: tg,
        }
    }
}
