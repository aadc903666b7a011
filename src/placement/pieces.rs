//! Piece sets written in USI letters with counts: `P18L4N4S4G4K2R2B2`, `+P8`.

use crate::rules::PieceKind;
use std::fmt;

/// A multiset of piece kinds to place (colors are chosen by the search).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PieceSet {
    counts: [u8; PieceKind::NUM],
    /// Chess queens (`Q`), for the N-queens sanity check.
    queens: u8,
}

/// A kind the puzzle places: a shogi kind, or the chess queen (the moves of
/// 飛 and 角 together; not a shogi piece, supported for the classic N-queens
/// counts, a sanity oracle for the search).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A shogi kind.
    Shogi(PieceKind),
    /// The chess queen.
    Queen,
}

/// A placed piece: color and kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Cell {
    /// Sente or Gote (queens are always Sente: their color changes nothing).
    pub color: crate::rules::Color,
    /// The kind.
    pub kind: Kind,
}

impl Kind {
    /// The squares attacked from `sq` (sliders stop at the first piece of `occ`, inclusive).
    #[inline]
    pub fn attacks(
        self,
        color: crate::rules::Color,
        sq: crate::rules::Square,
        occ: crate::rules::Bitboard,
    ) -> crate::rules::Bitboard {
        use crate::rules::bitboard::attacks;
        match self {
            Kind::Shogi(k) => attacks(color, k, sq, occ),
            Kind::Queen => {
                attacks(color, PieceKind::Rook, sq, occ)
                    | attacks(color, PieceKind::Bishop, sq, occ)
            }
        }
    }

    /// The same from the rules core's naive square-walking generator (for the checker).
    pub fn attacks_naive(
        self,
        color: crate::rules::Color,
        sq: crate::rules::Square,
        occ: crate::rules::Bitboard,
    ) -> crate::rules::Bitboard {
        use crate::rules::bitboard::attacks_naive;
        match self {
            Kind::Shogi(k) => attacks_naive(color, k, sq, occ),
            Kind::Queen => {
                attacks_naive(color, PieceKind::Rook, sq, occ)
                    | attacks_naive(color, PieceKind::Bishop, sq, occ)
            }
        }
    }
}

/// What is wrong with a piece-set text. Byte offsets point into the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PieceSetError {
    /// The text names no piece.
    #[error("empty piece set")]
    Empty,
    /// A character that is not `+`, a USI piece letter or a digit.
    #[error("byte {at}: {ch:?} is not a piece letter (P L N S G B R K, optionally after +; Q)")]
    UnknownLetter {
        /// Byte offset.
        at: usize,
        /// The character.
        ch: char,
    },
    /// `+G`, `+K` or `+Q`.
    #[error("byte {at}: {kind} does not promote")]
    NotPromotable {
        /// Byte offset of the `+`.
        at: usize,
        /// The kanji of the kind (`Q` for the queen).
        kind: char,
    },
    /// `+` at the end of the text.
    #[error("byte {at}: `+` must be followed by a piece letter")]
    DanglingPlus {
        /// Byte offset.
        at: usize,
    },
    /// A count that is not a number from 1 to 81 (`P0` is refused: leave the letter out).
    #[error("byte {at}: count must be a number from 1 to 81 (leave out a kind to place none)")]
    BadCount {
        /// Byte offset of the count.
        at: usize,
    },
    /// More pieces than squares.
    #[error("{total} pieces cannot fit on 81 squares")]
    TooMany {
        /// Total number of pieces.
        total: u32,
    },
}

impl PieceSet {
    /// The 40 pieces of a game of shogi: `P18L4N4S4G4K2R2B2`.
    pub const FULL_GAME: PieceSet = PieceSet {
        counts: [18, 4, 4, 4, 4, 2, 2, 2, 0, 0, 0, 0, 0, 0],
        queens: 0,
    };

    /// The empty set.
    pub const fn empty() -> PieceSet {
        PieceSet {
            counts: [0; PieceKind::NUM],
            queens: 0,
        }
    }

    /// Parses `P18L4N4S4G4K2R2B2`-style text: a sequence of `[+]LETTER[COUNT]`
    /// (count defaults to 1; letters in either case; the same kind may repeat
    /// and adds up). `Q` is the chess queen (no `+Q`). Whitespace is ignored.
    ///
    /// # Errors
    /// [`PieceSetError`] naming the offending byte.
    pub fn parse(text: &str) -> Result<PieceSet, PieceSetError> {
        let b = text.as_bytes();
        let mut set = PieceSet::empty();
        let mut total: u32 = 0;
        let mut any = false;
        let mut i = 0;
        while i < b.len() {
            if b[i].is_ascii_whitespace() {
                i += 1;
                continue;
            }
            let start = i;
            let promoted = b[i] == b'+';
            if promoted {
                i += 1;
                if i >= b.len() {
                    return Err(PieceSetError::DanglingPlus { at: start });
                }
            }
            let ch = text[i..].chars().next().unwrap_or('?');
            if ch.eq_ignore_ascii_case(&'q') {
                if promoted {
                    return Err(PieceSetError::NotPromotable {
                        at: start,
                        kind: 'Q',
                    });
                }
                i += 1;
                let digits_start = i;
                while i < b.len() && b[i].is_ascii_digit() {
                    i += 1;
                }
                let count = parse_count(text, digits_start, i)?;
                total += count;
                if total > 81 {
                    return Err(PieceSetError::TooMany { total });
                }
                set.queens += count as u8;
                any = true;
                continue;
            }
            let base =
                PieceKind::from_letter(ch).ok_or(PieceSetError::UnknownLetter { at: i, ch })?;
            i += ch.len_utf8();
            let kind = if promoted {
                base.promote().ok_or(PieceSetError::NotPromotable {
                    at: start,
                    kind: base.kanji(),
                })?
            } else {
                base
            };
            let digits_start = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            let count = parse_count(text, digits_start, i)?;
            total += count;
            if total > 81 {
                return Err(PieceSetError::TooMany { total });
            }
            set.counts[kind.index()] += count as u8;
            any = true;
        }
        if !any {
            return Err(PieceSetError::Empty);
        }
        Ok(set)
    }

    /// How many pieces of `kind`.
    pub const fn count(&self, kind: PieceKind) -> u32 {
        self.counts[kind.index()] as u32
    }

    /// How many pieces of `kind` (shogi kind or queen).
    pub const fn count_kind(&self, kind: Kind) -> u32 {
        match kind {
            Kind::Shogi(k) => self.count(k),
            Kind::Queen => self.queens as u32,
        }
    }

    /// The set with `n` pieces of `kind` (shogi kind or queen).
    pub fn with_count_kind(self, kind: Kind, n: u32) -> PieceSet {
        match kind {
            Kind::Shogi(k) => self.with_count(k, n),
            Kind::Queen => PieceSet {
                queens: n.min(81) as u8,
                ..self
            },
        }
    }

    /// The set with `n` pieces of `kind` (saturating at 81 in total is the caller's concern).
    pub fn with_count(mut self, kind: PieceKind, n: u32) -> PieceSet {
        self.counts[kind.index()] = n.min(81) as u8;
        self
    }

    /// Total number of pieces.
    pub fn total(&self) -> u32 {
        self.counts.iter().map(|&c| c as u32).sum::<u32>() + self.queens as u32
    }
}

/// The count written at `text[from..to]` (empty: 1), from 1 to 81. An explicit 0 is
/// refused: `P0` is more likely a typo than a wish to place nothing (specs/placement.md).
fn parse_count(text: &str, from: usize, to: usize) -> Result<u32, PieceSetError> {
    let count: u32 = if to == from {
        1
    } else {
        text[from..to]
            .parse()
            .map_err(|_| PieceSetError::BadCount { at: from })?
    };
    if !(1..=81).contains(&count) {
        return Err(PieceSetError::BadCount { at: from });
    }
    Ok(count)
}

/// Writes the canonical text (strongest first): `R2B2G4S4N4L4P18K2`-style,
/// order (queens) 龍 馬 飛 角 玉 金 全 圭 杏 と 銀 香 桂 歩; counts of 1 are omitted.
impl fmt::Display for PieceSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.queens {
            0 => {}
            1 => write!(f, "Q")?,
            n => write!(f, "Q{n}")?,
        }
        for k in super::search::STRONGEST_FIRST {
            let n = self.count(k);
            if n == 0 {
                continue;
            }
            if k.is_promoted() {
                write!(f, "+")?;
            }
            write!(f, "{}", k.letter())?;
            if n != 1 {
                write!(f, "{n}")?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Issue 15: `P0` is refused (a zero count), while counts beyond a shogi set (K3,
    /// P22) are a valid question about attack patterns (specs/placement.md).
    #[test]
    fn zero_counts_are_refused_and_counts_beyond_a_set_are_not() {
        assert_eq!(
            PieceSet::parse("P0"),
            Err(PieceSetError::BadCount { at: 1 })
        );
        assert_eq!(
            PieceSet::parse("K2P0"),
            Err(PieceSetError::BadCount { at: 3 })
        );
        assert_eq!(
            PieceSet::parse("P00"),
            Err(PieceSetError::BadCount { at: 1 })
        );
        assert_eq!(PieceSet::parse(""), Err(PieceSetError::Empty));
        assert_eq!(PieceSet::parse("K3").unwrap().count(PieceKind::King), 3);
        assert_eq!(PieceSet::parse("P22").unwrap().count(PieceKind::Pawn), 22);
        assert_eq!(PieceSet::parse("P81").unwrap().total(), 81);
        assert_eq!(
            PieceSet::parse("P82"),
            Err(PieceSetError::BadCount { at: 1 })
        );
    }

    #[test]
    fn parses_the_full_set_and_promoted_pieces() {
        let s = PieceSet::parse("P18L4N4S4G4K2R2B2").unwrap();
        assert_eq!(s, PieceSet::FULL_GAME);
        assert_eq!(s.total(), 40);
        let p = PieceSet::parse("+P8 N").unwrap();
        assert_eq!(p.count(PieceKind::ProPawn), 8);
        assert_eq!(p.count(PieceKind::Knight), 1);
        assert_eq!(p.count(PieceKind::Pawn), 0);
        assert_eq!(PieceSet::parse("p2P").unwrap().count(PieceKind::Pawn), 3);
        assert_eq!(PieceSet::parse(&s.to_string()).unwrap(), s);
        assert_eq!(PieceSet::parse("+R+B2").unwrap().to_string(), "+R+B2");
        let q = PieceSet::parse("Q8").unwrap();
        assert_eq!((q.count_kind(Kind::Queen), q.total()), (8, 8));
        assert_eq!(q.to_string(), "Q8");
        assert_eq!(PieceSet::parse("RqQ2").unwrap().to_string(), "Q3R");
    }

    #[test]
    fn rejects_bad_text_with_offsets() {
        assert_eq!(PieceSet::parse(""), Err(PieceSetError::Empty));
        assert_eq!(
            PieceSet::parse("P2X"),
            Err(PieceSetError::UnknownLetter { at: 2, ch: 'X' })
        );
        assert_eq!(
            PieceSet::parse("P+G"),
            Err(PieceSetError::NotPromotable { at: 1, kind: '金' })
        );
        assert_eq!(
            PieceSet::parse("P+"),
            Err(PieceSetError::DanglingPlus { at: 1 })
        );
        assert_eq!(
            PieceSet::parse("P99"),
            Err(PieceSetError::BadCount { at: 1 })
        );
        assert_eq!(
            PieceSet::parse("P81L"),
            Err(PieceSetError::TooMany { total: 82 })
        );
        assert_eq!(
            PieceSet::parse("+Q"),
            Err(PieceSetError::NotPromotable { at: 0, kind: 'Q' })
        );
        assert_eq!(
            PieceSet::parse("歩"),
            Err(PieceSetError::UnknownLetter { at: 0, ch: '歩' })
        );
    }
}
