//! Vocabulary types: [`Color`], [`Square`], [`PieceKind`], [`Piece`], [`ByColor`].

use std::fmt;
use std::ops::{Index, IndexMut, Not};

/// The side: 先手 (Sente, black, `b`, ▲) or 後手 (Gote, white, `w`, △).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Color {
    /// 先手, moves first, toward rank 1.
    Sente = 0,
    /// 後手, toward rank 9.
    Gote = 1,
}

impl Color {
    /// Both colors, Sente first.
    pub const ALL: [Color; 2] = [Color::Sente, Color::Gote];
    /// Index 0 (Sente) or 1 (Gote).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
    /// The SFEN letter: `b` or `w`.
    pub const fn sfen(self) -> char {
        match self {
            Color::Sente => 'b',
            Color::Gote => 'w',
        }
    }
    /// The Japanese side mark: ▲ or △.
    pub const fn mark(self) -> char {
        match self {
            Color::Sente => '▲',
            Color::Gote => '△',
        }
    }
}

impl Not for Color {
    type Output = Color;
    #[inline]
    fn not(self) -> Color {
        match self {
            Color::Sente => Color::Gote,
            Color::Gote => Color::Sente,
        }
    }
}

/// A value per color, indexed by [`Color`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ByColor<T> {
    /// Sente's value.
    pub sente: T,
    /// Gote's value.
    pub gote: T,
}

impl<T> ByColor<T> {
    /// Builds from a function of the color.
    pub fn new_with(mut f: impl FnMut(Color) -> T) -> Self {
        ByColor {
            sente: f(Color::Sente),
            gote: f(Color::Gote),
        }
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: Color) -> &T {
        match c {
            Color::Sente => &self.sente,
            Color::Gote => &self.gote,
        }
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::Sente => &mut self.sente,
            Color::Gote => &mut self.gote,
        }
    }
}

/// A square: file 1–9 (筋, right to left from Sente's view) × rank 1–9 (段, a–i in USI).
///
/// Index = `(file − 1) · 9 + (rank − 1)`, so a file is 9 consecutive bits of a
/// [`Bitboard`](crate::rules::Bitboard).
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(std::num::NonZeroU8);

/// Builds a square from an index known to be < 81 (stored as index + 1 so that `Option<Square>` is one byte).
const fn sq(i: u8) -> Square {
    match std::num::NonZeroU8::new(i + 1) {
        Some(n) => Square(n),
        None => panic!("square index overflow"),
    }
}

impl Square {
    /// Number of squares.
    pub const NUM: usize = 81;

    /// The square at `file` and `rank` (both 1–9), or `None`.
    #[inline]
    pub const fn new(file: u8, rank: u8) -> Option<Square> {
        if file >= 1 && file <= 9 && rank >= 1 && rank <= 9 {
            Some(sq((file - 1) * 9 + rank - 1))
        } else {
            None
        }
    }
    /// The square with index `i` (0–80), or `None`.
    #[inline]
    pub const fn from_index(i: usize) -> Option<Square> {
        if i < 81 {
            Some(sq(i as u8))
        } else {
            None
        }
    }
    /// Same as [`Square::from_index`] for an index known to be < 81.
    ///
    /// # Panics
    /// In debug builds, if `i >= 81`.
    #[inline]
    pub const fn from_index_unchecked(i: usize) -> Square {
        debug_assert!(i < 81);
        sq(i as u8)
    }
    /// The index 0–80.
    #[inline]
    pub const fn index(self) -> usize {
        self.0.get() as usize - 1
    }
    /// The file, 1–9.
    #[inline]
    pub const fn file(self) -> u8 {
        (self.0.get() - 1) / 9 + 1
    }
    /// The rank, 1–9.
    #[inline]
    pub const fn rank(self) -> u8 {
        (self.0.get() - 1) % 9 + 1
    }
    /// The rank counted from `color`'s far side: 1 is the last rank for `color`.
    #[inline]
    pub const fn relative_rank(self, color: Color) -> u8 {
        match color {
            Color::Sente => self.rank(),
            Color::Gote => 10 - self.rank(),
        }
    }
    /// All 81 squares in index order.
    pub fn all() -> impl Iterator<Item = Square> {
        (0..81u8).map(sq)
    }
    /// The square mirrored left-right (file f → 10 − f).
    #[inline]
    pub const fn mirror(self) -> Square {
        sq((9 - self.file()) * 9 + self.rank() - 1)
    }
    /// The square seen from the other side (180° rotation).
    #[inline]
    pub const fn flip(self) -> Square {
        sq(81 - self.0.get())
    }
    /// USI text, e.g. `7g`.
    pub fn usi(self) -> String {
        format!("{}{}", self.file(), (b'a' + self.rank() - 1) as char)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SQ_{}{}", self.file(), (b'A' + self.rank() - 1) as char)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file(), (b'a' + self.rank() - 1) as char)
    }
}

macro_rules! square_consts {
    ($($name:ident = $file:literal, $rank:literal;)*) => {
        $(
            #[doc = concat!("File ", $file, ", rank ", $rank, ".")]
            pub const $name: Square = match Square::new($file, $rank) { Some(s) => s, None => panic!() };
        )*
    };
}

square_consts! {
    SQ_1A = 1,1; SQ_1B = 1,2; SQ_1C = 1,3; SQ_1D = 1,4; SQ_1E = 1,5; SQ_1F = 1,6; SQ_1G = 1,7; SQ_1H = 1,8; SQ_1I = 1,9;
    SQ_2A = 2,1; SQ_2B = 2,2; SQ_2C = 2,3; SQ_2D = 2,4; SQ_2E = 2,5; SQ_2F = 2,6; SQ_2G = 2,7; SQ_2H = 2,8; SQ_2I = 2,9;
    SQ_3A = 3,1; SQ_3B = 3,2; SQ_3C = 3,3; SQ_3D = 3,4; SQ_3E = 3,5; SQ_3F = 3,6; SQ_3G = 3,7; SQ_3H = 3,8; SQ_3I = 3,9;
    SQ_4A = 4,1; SQ_4B = 4,2; SQ_4C = 4,3; SQ_4D = 4,4; SQ_4E = 4,5; SQ_4F = 4,6; SQ_4G = 4,7; SQ_4H = 4,8; SQ_4I = 4,9;
    SQ_5A = 5,1; SQ_5B = 5,2; SQ_5C = 5,3; SQ_5D = 5,4; SQ_5E = 5,5; SQ_5F = 5,6; SQ_5G = 5,7; SQ_5H = 5,8; SQ_5I = 5,9;
    SQ_6A = 6,1; SQ_6B = 6,2; SQ_6C = 6,3; SQ_6D = 6,4; SQ_6E = 6,5; SQ_6F = 6,6; SQ_6G = 6,7; SQ_6H = 6,8; SQ_6I = 6,9;
    SQ_7A = 7,1; SQ_7B = 7,2; SQ_7C = 7,3; SQ_7D = 7,4; SQ_7E = 7,5; SQ_7F = 7,6; SQ_7G = 7,7; SQ_7H = 7,8; SQ_7I = 7,9;
    SQ_8A = 8,1; SQ_8B = 8,2; SQ_8C = 8,3; SQ_8D = 8,4; SQ_8E = 8,5; SQ_8F = 8,6; SQ_8G = 8,7; SQ_8H = 8,8; SQ_8I = 8,9;
    SQ_9A = 9,1; SQ_9B = 9,2; SQ_9C = 9,3; SQ_9D = 9,4; SQ_9E = 9,5; SQ_9F = 9,6; SQ_9G = 9,7; SQ_9H = 9,8; SQ_9I = 9,9;
}

/// The 14 piece kinds. The first seven are the hand kinds (持ち駒), in the
/// order of the packed [`Hand`](crate::rules::Hand) bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum PieceKind {
    /// 歩
    Pawn = 0,
    /// 香
    Lance,
    /// 桂
    Knight,
    /// 銀
    Silver,
    /// 金
    Gold,
    /// 角
    Bishop,
    /// 飛
    Rook,
    /// 玉
    King,
    /// と
    ProPawn,
    /// 成香 (杏)
    ProLance,
    /// 成桂 (圭)
    ProKnight,
    /// 成銀 (全)
    ProSilver,
    /// 馬
    Horse,
    /// 龍
    Dragon,
}

impl PieceKind {
    /// Number of kinds.
    pub const NUM: usize = 14;
    /// All kinds in index order.
    pub const ALL: [PieceKind; 14] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
        PieceKind::King,
        PieceKind::ProPawn,
        PieceKind::ProLance,
        PieceKind::ProKnight,
        PieceKind::ProSilver,
        PieceKind::Horse,
        PieceKind::Dragon,
    ];
    /// The seven kinds that can be held in hand.
    pub const HAND: [PieceKind; 7] = [
        PieceKind::Pawn,
        PieceKind::Lance,
        PieceKind::Knight,
        PieceKind::Silver,
        PieceKind::Gold,
        PieceKind::Bishop,
        PieceKind::Rook,
    ];
    /// Index 0–13.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }
    /// The kind with index `i`, or `None`.
    pub const fn from_index(i: usize) -> Option<PieceKind> {
        if i < 14 {
            Some(Self::ALL[i])
        } else {
            None
        }
    }
    /// The promoted form, if this kind promotes.
    pub const fn promote(self) -> Option<PieceKind> {
        match self {
            PieceKind::Pawn => Some(PieceKind::ProPawn),
            PieceKind::Lance => Some(PieceKind::ProLance),
            PieceKind::Knight => Some(PieceKind::ProKnight),
            PieceKind::Silver => Some(PieceKind::ProSilver),
            PieceKind::Bishop => Some(PieceKind::Horse),
            PieceKind::Rook => Some(PieceKind::Dragon),
            _ => None,
        }
    }
    /// The unpromoted form (itself if unpromoted).
    pub const fn unpromote(self) -> PieceKind {
        match self {
            PieceKind::ProPawn => PieceKind::Pawn,
            PieceKind::ProLance => PieceKind::Lance,
            PieceKind::ProKnight => PieceKind::Knight,
            PieceKind::ProSilver => PieceKind::Silver,
            PieceKind::Horse => PieceKind::Bishop,
            PieceKind::Dragon => PieceKind::Rook,
            k => k,
        }
    }
    /// Whether this is a promoted kind.
    pub const fn is_promoted(self) -> bool {
        self as u8 >= PieceKind::ProPawn as u8
    }
    /// Whether this kind can be held in hand (unpromoted, not the king).
    pub const fn is_hand_kind(self) -> bool {
        (self as u8) < PieceKind::King as u8
    }
    /// The USI/SFEN letter of Sente's piece (`P`, `L`, …, `K`; promoted kinds as their base letter).
    pub const fn letter(self) -> char {
        match self.unpromote() {
            PieceKind::Pawn => 'P',
            PieceKind::Lance => 'L',
            PieceKind::Knight => 'N',
            PieceKind::Silver => 'S',
            PieceKind::Gold => 'G',
            PieceKind::Bishop => 'B',
            PieceKind::Rook => 'R',
            _ => 'K',
        }
    }
    /// The unpromoted kind for a USI letter (either case).
    pub const fn from_letter(c: char) -> Option<PieceKind> {
        match c.to_ascii_uppercase() {
            'P' => Some(PieceKind::Pawn),
            'L' => Some(PieceKind::Lance),
            'N' => Some(PieceKind::Knight),
            'S' => Some(PieceKind::Silver),
            'G' => Some(PieceKind::Gold),
            'B' => Some(PieceKind::Bishop),
            'R' => Some(PieceKind::Rook),
            'K' => Some(PieceKind::King),
            _ => None,
        }
    }
    /// The one-character kanji used in diagrams (歩 香 桂 銀 金 角 飛 玉 と 杏 圭 全 馬 龍).
    pub const fn kanji(self) -> char {
        match self {
            PieceKind::Pawn => '歩',
            PieceKind::Lance => '香',
            PieceKind::Knight => '桂',
            PieceKind::Silver => '銀',
            PieceKind::Gold => '金',
            PieceKind::Bishop => '角',
            PieceKind::Rook => '飛',
            PieceKind::King => '玉',
            PieceKind::ProPawn => 'と',
            PieceKind::ProLance => '杏',
            PieceKind::ProKnight => '圭',
            PieceKind::ProSilver => '全',
            PieceKind::Horse => '馬',
            PieceKind::Dragon => '龍',
        }
    }
    /// The name used in move text (成香, 成桂, 成銀 for the promoted minors).
    pub const fn move_name(self) -> &'static str {
        match self {
            PieceKind::Pawn => "歩",
            PieceKind::Lance => "香",
            PieceKind::Knight => "桂",
            PieceKind::Silver => "銀",
            PieceKind::Gold => "金",
            PieceKind::Bishop => "角",
            PieceKind::Rook => "飛",
            PieceKind::King => "玉",
            PieceKind::ProPawn => "と",
            PieceKind::ProLance => "成香",
            PieceKind::ProKnight => "成桂",
            PieceKind::ProSilver => "成銀",
            PieceKind::Horse => "馬",
            PieceKind::Dragon => "龍",
        }
    }
    /// How many of this unpromoted kind exist in a full set (both sides, board and hands).
    pub const fn max_count(self) -> u8 {
        match self.unpromote() {
            PieceKind::Pawn => 18,
            PieceKind::Lance | PieceKind::Knight | PieceKind::Silver | PieceKind::Gold => 4,
            _ => 2,
        }
    }
}

/// A piece: a kind and the color that owns it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Piece {
    /// The kind.
    pub kind: PieceKind,
    /// The owner.
    pub color: Color,
}

impl Piece {
    /// A piece of `color` and `kind`.
    #[inline]
    pub const fn new(color: Color, kind: PieceKind) -> Piece {
        Piece { kind, color }
    }
    /// Index 0–27: kind + 14 · color.
    #[inline]
    pub const fn index(self) -> usize {
        self.kind as usize + 14 * self.color as usize
    }
    /// SFEN text: `P`, `+p`, …
    pub fn sfen(self) -> String {
        let mut s = String::with_capacity(2);
        self.push_sfen(&mut s);
        s
    }

    /// Appends [`Piece::sfen`]'s text to `s` (no allocation per piece).
    pub fn push_sfen(self, s: &mut String) {
        if self.kind.is_promoted() {
            s.push('+');
        }
        let l = self.kind.letter();
        s.push(if self.color == Color::Sente {
            l
        } else {
            l.to_ascii_lowercase()
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn niches_keep_options_small() {
        assert_eq!(std::mem::size_of::<Option<Square>>(), 1);
        assert_eq!(std::mem::size_of::<Square>(), 1);
        assert_eq!(std::mem::size_of::<Option<Piece>>(), 2);
        assert_eq!(std::mem::size_of::<Option<Color>>(), 1);
    }

    #[test]
    fn square_coordinates_round_trip() {
        for s in Square::all() {
            assert_eq!(Square::new(s.file(), s.rank()), Some(s));
            assert_eq!(s.mirror().mirror(), s);
            assert_eq!(s.flip().flip(), s);
            assert_eq!(s.flip().file(), 10 - s.file());
            assert_eq!(s.flip().rank(), 10 - s.rank());
        }
        assert_eq!(SQ_7G.to_string(), "7g");
        assert_eq!(SQ_7G.file(), 7);
        assert_eq!(SQ_7G.rank(), 7);
        assert_eq!(Square::new(0, 1), None);
        assert_eq!(Square::new(1, 10), None);
    }

    #[test]
    fn promotion_is_an_involution_on_promotable_kinds() {
        for k in PieceKind::ALL {
            if let Some(p) = k.promote() {
                assert_eq!(p.unpromote(), k);
                assert!(p.is_promoted());
            }
        }
    }
}
