//! [`Setup`] (any arrangement) → [`Position`] (a legal shogi position), legal
//! move generation, play/undo, check and mate, hashing.
//!
//! The key is the Zobrist board key plus the packed hand of the side to move
//! (seed `001_6ac4b9bdc74d4693.txt`, shogi686): two positions with the same
//! board and side differ in key exactly by the difference of their hands.

use super::bitboard::{
    attacks, between, bishop_attacks, bishop_pseudo, lance_attacks, line, rook_attacks,
    rook_pseudo, step_attacks, Bitboard,
};
use super::hand::Hand;
use super::moves::{Move, MoveList};
use super::types::{ByColor, Color, Piece, PieceKind, Square};
use std::fmt;
use thiserror::Error;

mod movegen;
pub(crate) use movegen::dead_squares;

/// Which kings a position must have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Rules {
    /// The side to move must have a king.
    pub king_to_move_required: bool,
    /// The side not to move must have a king.
    pub king_not_to_move_required: bool,
}

impl Rules {
    /// Ordinary shogi: both kings present.
    pub const STANDARD: Rules = Rules {
        king_to_move_required: true,
        king_not_to_move_required: true,
    };
    /// Tsume (詰将棋): the attacker (side to move) may have no king; the defender must.
    pub const TSUME: Rules = Rules {
        king_to_move_required: false,
        king_not_to_move_required: true,
    };

    /// Either king may be missing (move generation and perft: `shogi-lab moves`, `perft`,
    /// what `diff` reads): a tsume problem has no attacker king, and cshogi and YaneuraOu
    /// generate moves there. A missing king is never in check and never mated; the pieces
    /// are validated as under [`Rules::STANDARD`] (two kings of one side, 二歩, 行き所のない駒,
    /// the side not to move in check are still refused).
    pub const KINGS_OPTIONAL: Rules = Rules {
        king_to_move_required: false,
        king_not_to_move_required: false,
    };

    /// The same rules one ply later (the requirements of the two sides swap places).
    pub const fn swapped(self) -> Rules {
        Rules {
            king_to_move_required: self.king_not_to_move_required,
            king_not_to_move_required: self.king_to_move_required,
        }
    }

    /// The rules of a game or of a tsume problem, as the kings of `setup` say: a side
    /// without a king is a tsume attacker — [`Rules::TSUME`] when it is to move,
    /// [`Rules::TSUME`]`.swapped()` when the defender is (a problem after an odd number
    /// of moves) —, else [`Rules::STANDARD`] (both kings; with neither, the position is
    /// refused for both: a game and a tsume defender need a king). What a record's
    /// reader, `show` and the Python `Position` take.
    pub fn game_or_tsume(setup: &Setup) -> Rules {
        let has_king = |c: Color| {
            setup
                .board
                .iter()
                .flatten()
                .any(|p| p.kind == PieceKind::King && p.color == c)
        };
        match (has_king(setup.side_to_move), has_king(!setup.side_to_move)) {
            (false, true) => Rules::TSUME,
            (true, false) => Rules::TSUME.swapped(),
            _ => Rules::STANDARD,
        }
    }
}

impl Default for Rules {
    fn default() -> Self {
        Rules::STANDARD
    }
}

/// Any arrangement of pieces; turned into a [`Position`] only by [`Position::from_setup`].
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Setup {
    /// The piece on each square, by [`Square::index`].
    pub board: [Option<Piece>; 81],
    /// Both hands.
    pub hands: ByColor<Hand>,
    /// The side to move.
    pub side_to_move: Color,
    /// The move number (手数 + 1) as in SFEN.
    pub move_number: u32,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            board: [None; 81],
            hands: ByColor::default(),
            side_to_move: Color::Sente,
            move_number: 1,
        }
    }
}

impl Setup {
    /// Every piece (kings aside) neither on the board nor in `other`: the hand of the
    /// side holding "the rest" (KIF 残り全部, CSA `00AL`, a tsume defender's default hand).
    /// A kind already over its full set gets none.
    pub fn rest_of_pieces(&self, other: Hand) -> Hand {
        let mut used = [0u32; 14];
        for pc in self.board.iter().flatten() {
            used[pc.kind.unpromote().index()] += 1;
        }
        PieceKind::HAND.iter().fold(Hand::EMPTY, |h, &k| {
            let left = u32::from(k.max_count())
                .saturating_sub(used[k.index()] + u32::from(other.count(k)));
            h.with_count(k, left as u8)
        })
    }
}

/// One rule a [`Setup`] breaks.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[non_exhaustive]
pub enum Violation {
    /// 二歩: two unpromoted pawns of one color on one file.
    #[error("二歩: two {color:?} pawns on file {file}")]
    TwoPawns {
        /// The color.
        color: Color,
        /// The file.
        file: u8,
    },
    /// 行き所のない駒: a piece that could never move again.
    #[error("行き所のない駒: {}'s {} ({}) on {square} can never move", if piece.color == Color::Sente { "Sente" } else { "Gote" }, piece.kind.move_name(), piece.sfen())]
    DeadPiece {
        /// The piece.
        piece: Piece,
        /// Its square.
        square: Square,
    },
    /// More pieces of a kind than the set has.
    #[error("too many pieces: {count} of {kind:?} (at most {max})")]
    TooManyPieces {
        /// The unpromoted kind.
        kind: PieceKind,
        /// How many there are (board and hands, both colors).
        count: u32,
        /// How many a set has.
        max: u32,
    },
    /// A color has more than one king.
    #[error("{color:?} has {count} kings")]
    TooManyKings {
        /// The color.
        color: Color,
        /// How many.
        count: u32,
    },
    /// A required king is missing.
    #[error("{color:?} has no king")]
    MissingKing {
        /// The color.
        color: Color,
    },
    /// The side not to move is in check (its king could be captured).
    #[error("the side not to move ({color:?}) is in check")]
    OpponentInCheck {
        /// The side in check.
        color: Color,
    },
    /// The side to move is checked by more than two pieces, which no legal move produces.
    #[error("{color:?} is checked by {count} pieces")]
    ImpossibleCheck {
        /// The side in check.
        color: Color,
        /// Number of checkers.
        count: u32,
    },
}

/// Why a [`Setup`] is not a legal position: every violated rule.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("illegal position: {}", .violations.iter().map(|v| v.to_string()).collect::<Vec<_>>().join("; "))]
pub struct PositionError {
    /// The violations, in board order.
    pub violations: Vec<Violation>,
}

/// Why a move cannot be played.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
#[error("illegal move {mv} in this position")]
pub struct IllegalMove {
    /// The rejected move.
    pub mv: Move,
}

#[derive(Clone, Copy, Debug)]
struct Undo {
    mv: Move,
    captured: Option<Piece>,
    board_key: u64,
    checkers: Bitboard,
    pinned: Bitboard,
}

/// A legal shogi position. Fields are private; the only way in is [`Position::from_setup`].
#[derive(Clone)]
pub struct Position {
    board: [Option<Piece>; 81],
    colors: ByColor<Bitboard>,
    kinds: [Bitboard; 14],
    hands: ByColor<Hand>,
    side: Color,
    move_number: u32,
    kings: ByColor<Option<Square>>,
    board_key: u64,
    checkers: Bitboard,
    /// The side to move's pieces pinned to its king (kept with `checkers`, one sniper scan).
    pinned: Bitboard,
    rules: Rules,
    history: Vec<Undo>,
}

const fn splitmix64(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn build_zobrist() -> [[u64; 81]; 28] {
    let mut t = [[0u64; 81]; 28];
    let mut state = 0x5348_4f47_495f_4c41; // "SHOGI_LA"
    let mut p = 0;
    while p < 28 {
        let mut s = 0;
        while s < 81 {
            let (ns, v) = splitmix64(state);
            state = ns;
            // Keep the low byte clear so the key's byte 0 carries only the side bit.
            t[p][s] = v & !0xff;
            s += 1;
        }
        p += 1;
    }
    t
}

/// Fixed Zobrist constants: `ZOBRIST[piece.index()][square.index()]` (SplitMix64 from a fixed seed).
static ZOBRIST: [[u64; 81]; 28] = build_zobrist();

impl Position {
    /// The standard starting position (平手).
    pub fn startpos() -> Position {
        use PieceKind::*;
        let mut setup = Setup::default();
        let back = [
            Lance, Knight, Silver, Gold, King, Gold, Silver, Knight, Lance,
        ];
        for file in 1..=9u8 {
            let k = back[file as usize - 1];
            setup.board[Square::new(file, 9).expect("sq").index()] =
                Some(Piece::new(Color::Sente, k));
            setup.board[Square::new(file, 1).expect("sq").index()] =
                Some(Piece::new(Color::Gote, k));
            setup.board[Square::new(file, 7).expect("sq").index()] =
                Some(Piece::new(Color::Sente, Pawn));
            setup.board[Square::new(file, 3).expect("sq").index()] =
                Some(Piece::new(Color::Gote, Pawn));
        }
        setup.board[Square::new(2, 8).expect("sq").index()] = Some(Piece::new(Color::Sente, Rook));
        setup.board[Square::new(8, 8).expect("sq").index()] =
            Some(Piece::new(Color::Sente, Bishop));
        setup.board[Square::new(8, 2).expect("sq").index()] = Some(Piece::new(Color::Gote, Rook));
        setup.board[Square::new(2, 2).expect("sq").index()] = Some(Piece::new(Color::Gote, Bishop));
        Position::from_setup(setup, Rules::STANDARD).expect("the starting position is legal")
    }

    /// The only gate from data to a legal position.
    ///
    /// # Errors
    /// A [`PositionError`] naming every violated rule: 二歩, 行き所のない駒,
    /// too many pieces or kings, a missing king (as `rules` requires), the
    /// side not to move in check, or an impossible triple check.
    pub fn from_setup(setup: Setup, rules: Rules) -> Result<Position, PositionError> {
        let mut pos = Position {
            board: [None; 81],
            colors: ByColor::default(),
            kinds: [Bitboard::EMPTY; 14],
            hands: setup.hands,
            side: setup.side_to_move,
            move_number: setup.move_number,
            kings: ByColor::default(),
            board_key: 0,
            checkers: Bitboard::EMPTY,
            pinned: Bitboard::EMPTY,
            rules,
            history: Vec::new(),
        };
        let mut v = Vec::new();
        let mut king_count = ByColor::<u32>::default();
        let mut totals = [0u32; 8];
        for sq in Square::all() {
            if let Some(pc) = setup.board[sq.index()] {
                pos.put(pc, sq);
                if pc.kind == PieceKind::King {
                    king_count[pc.color] += 1;
                    pos.kings[pc.color] = Some(sq);
                } else {
                    totals[pc.kind.unpromote().index()] += 1;
                }
                let rr = sq.relative_rank(pc.color);
                let dead = match pc.kind {
                    PieceKind::Pawn | PieceKind::Lance => rr == 1,
                    PieceKind::Knight => rr <= 2,
                    _ => false,
                };
                if dead {
                    v.push(Violation::DeadPiece {
                        piece: pc,
                        square: sq,
                    });
                }
            }
        }
        for c in Color::ALL {
            for (k, n) in setup.hands[c].iter() {
                totals[k.index()] += n as u32;
            }
            for file in 1..=9 {
                let pawns = pos.pieces(c, PieceKind::Pawn) & Bitboard::file_mask(file);
                if pawns.has_more_than_one() {
                    v.push(Violation::TwoPawns { color: c, file });
                }
            }
        }
        for k in PieceKind::HAND {
            let max = k.max_count() as u32;
            if totals[k.index()] > max {
                v.push(Violation::TooManyPieces {
                    kind: k,
                    count: totals[k.index()],
                    max,
                });
            }
        }
        for c in Color::ALL {
            let required = if c == pos.side {
                rules.king_to_move_required
            } else {
                rules.king_not_to_move_required
            };
            if king_count[c] > 1 {
                v.push(Violation::TooManyKings {
                    color: c,
                    count: king_count[c],
                });
            } else if king_count[c] == 0 && required {
                v.push(Violation::MissingKing { color: c });
            }
        }
        if v.iter()
            .all(|x| !matches!(x, Violation::TooManyKings { .. }))
        {
            let them = !pos.side;
            if let Some(k) = pos.kings[them] {
                if !pos.attackers_to(pos.side, k, pos.occupied()).is_empty() {
                    v.push(Violation::OpponentInCheck { color: them });
                }
            }
            pos.checkers = pos.compute_checkers();
            pos.pinned = match pos.kings[pos.side] {
                Some(k) => pos.pinned(pos.side, k),
                None => Bitboard::EMPTY,
            };
            if pos.checkers.count() > 2 {
                v.push(Violation::ImpossibleCheck {
                    color: pos.side,
                    count: pos.checkers.count(),
                });
            }
        }
        if v.is_empty() {
            Ok(pos)
        } else {
            Err(PositionError { violations: v })
        }
    }

    /// A copy without the history (as [`Position::from_setup`] of [`Position::to_setup`]
    /// would give, without re-deriving the board), under `rules`.
    pub(crate) fn detached(&self, rules: Rules) -> Position {
        Position {
            rules,
            ..self.without_history()
        }
    }

    /// Forgets the moves played (they can no longer be taken back).
    pub(crate) fn forget_history(&mut self) {
        self.history.clear();
    }

    /// Moves one `kind` from `from`'s hand to the other side's (the 無駄合 test hands a
    /// captured piece back); `false`, and nothing changes, if `from` holds none. Hands
    /// are not part of [`Position::board_key`], and the checks do not depend on them.
    pub(crate) fn hand_over(&mut self, from: Color, kind: PieceKind) -> bool {
        if !self.hands[from].has(kind) {
            return false;
        }
        self.hands[from] = self.hands[from].remove(kind);
        self.hands[!from] = self.hands[!from].add(kind);
        true
    }

    /// The position as a [`Setup`] (history dropped).
    pub fn to_setup(&self) -> Setup {
        Setup {
            board: self.board,
            hands: self.hands,
            side_to_move: self.side,
            move_number: self.move_number,
        }
    }

    #[inline]
    fn put(&mut self, pc: Piece, sq: Square) {
        self.board[sq.index()] = Some(pc);
        self.colors[pc.color] = self.colors[pc.color].with(sq);
        self.kinds[pc.kind.index()] = self.kinds[pc.kind.index()].with(sq);
        self.board_key ^= ZOBRIST[pc.index()][sq.index()];
    }

    /// [`Position::put`] without the key update (`undo` restores the key it saved).
    #[inline]
    fn put_keyless(&mut self, pc: Piece, sq: Square) {
        self.board[sq.index()] = Some(pc);
        self.colors[pc.color] = self.colors[pc.color].with(sq);
        self.kinds[pc.kind.index()] = self.kinds[pc.kind.index()].with(sq);
    }

    /// [`Position::take`] without the key update (`undo` restores the key it saved).
    #[inline]
    fn take_keyless(&mut self, pc: Piece, sq: Square) {
        self.board[sq.index()] = None;
        self.colors[pc.color] = self.colors[pc.color].without(sq);
        self.kinds[pc.kind.index()] = self.kinds[pc.kind.index()].without(sq);
    }

    #[inline]
    fn take(&mut self, pc: Piece, sq: Square) {
        self.board[sq.index()] = None;
        self.colors[pc.color] = self.colors[pc.color].without(sq);
        self.kinds[pc.kind.index()] = self.kinds[pc.kind.index()].without(sq);
        self.board_key ^= ZOBRIST[pc.index()][sq.index()];
    }

    /// The piece on `sq`.
    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.board[sq.index()]
    }
    /// The side to move.
    #[inline]
    pub fn side_to_move(&self) -> Color {
        self.side
    }
    /// The hand of `color`.
    #[inline]
    pub fn hand(&self, color: Color) -> Hand {
        self.hands[color]
    }
    /// The move number (starts at the SFEN's value, +1 per ply).
    pub fn move_number(&self) -> u32 {
        self.move_number
    }
    /// The rules this position was validated with.
    pub fn rules(&self) -> Rules {
        self.rules
    }
    /// The king square of `color`, if it has a king.
    #[inline]
    pub fn king(&self, color: Color) -> Option<Square> {
        self.kings[color]
    }
    /// All occupied squares.
    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.colors.sente | self.colors.gote
    }
    /// The squares of `color`'s pieces.
    #[inline]
    pub fn color_bb(&self, color: Color) -> Bitboard {
        self.colors[color]
    }
    /// The squares of `color`'s pieces of `kind`.
    #[inline]
    pub fn pieces(&self, color: Color, kind: PieceKind) -> Bitboard {
        self.kinds[kind.index()] & self.colors[color]
    }
    /// The pieces giving check to the side to move.
    #[inline]
    pub fn checkers(&self) -> Bitboard {
        self.checkers
    }
    /// The side to move's pieces pinned to its king (empty without a king); equals
    /// [`Position::pinned`]`(side, king)`, kept up to date by play and undo.
    #[inline]
    pub fn pinned_pieces(&self) -> Bitboard {
        self.pinned
    }
    /// Whether the side to move is in check.
    #[inline]
    pub fn in_check(&self) -> bool {
        !self.checkers.is_empty()
    }
    /// The Zobrist key of the board alone (pieces on squares).
    #[inline]
    pub fn board_key(&self) -> u64 {
        self.board_key
    }
    /// The position key: board key + packed hand of the side to move + side bit (seed `001_…`).
    #[inline]
    pub fn key(&self) -> u64 {
        self.board_key
            .wrapping_add(self.hands[self.side].raw())
            .wrapping_add(self.side as u64)
    }
    /// The board key and the mover's hand after the legal move `m`, without playing it:
    /// what [`Position::board_key`] and [`Position::hand`] of the side to move would be
    /// after [`Position::play_unchecked`]`(m)` (the other hand does not change). For
    /// searches that look up a child before (or instead of) playing it; tested against
    /// play.
    ///
    /// # Panics
    /// May panic if `m` moves from an empty square (same contract as `play_unchecked`).
    #[inline]
    pub fn board_key_and_hand_after(&self, m: Move) -> (u64, Hand) {
        let us = self.side;
        let mut key = self.board_key;
        let mut hand = self.hands[us];
        match m {
            Move::Normal { from, to, promote } => {
                let pc = self.board[from.index()]
                    .expect("board_key_and_hand_after: no piece on the origin square");
                if let Some(cap) = self.board[to.index()] {
                    key ^= ZOBRIST[cap.index()][to.index()];
                    hand = hand.add(cap.kind.unpromote());
                }
                let kind = if promote {
                    pc.kind.promote().unwrap_or(pc.kind)
                } else {
                    pc.kind
                };
                key ^= ZOBRIST[pc.index()][from.index()]
                    ^ ZOBRIST[Piece::new(us, kind).index()][to.index()];
            }
            Move::Drop { kind, to } => {
                hand = hand.remove(kind);
                key ^= ZOBRIST[Piece::new(us, kind).index()][to.index()];
            }
        }
        (key, hand)
    }
    /// The key recomputed from scratch (the naive twin of the incremental key).
    pub fn key_from_scratch(&self) -> u64 {
        let mut k = 0u64;
        for sq in Square::all() {
            if let Some(pc) = self.board[sq.index()] {
                k ^= ZOBRIST[pc.index()][sq.index()];
            }
        }
        k.wrapping_add(self.hands[self.side].raw())
            .wrapping_add(self.side as u64)
    }
    /// Number of plies played since this position was built.
    pub fn ply(&self) -> usize {
        self.history.len()
    }
    /// The moves played since this position was built.
    pub fn moves_played(&self) -> impl DoubleEndedIterator<Item = Move> + '_ {
        self.history.iter().map(|u| u.mv)
    }
    /// The last move played, if any.
    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|u| u.mv)
    }

    /// The pieces of `color` attacking `sq` with occupancy `occ`.
    pub fn attackers_to(&self, color: Color, sq: Square, occ: Bitboard) -> Bitboard {
        let k = &self.kinds;
        let theirs = self.colors[color];
        let rev = !color;
        let golds = k[4] | k[8] | k[9] | k[10] | k[11];
        let kingish = k[7] | k[12] | k[13];
        let mut a = ((step_attacks(rev, PieceKind::Pawn, sq) & k[0])
            | (step_attacks(rev, PieceKind::Knight, sq) & k[2])
            | (step_attacks(rev, PieceKind::Silver, sq) & k[3])
            | (step_attacks(rev, PieceKind::Gold, sq) & golds)
            | (step_attacks(rev, PieceKind::King, sq) & kingish))
            & theirs;
        // Slider rays are traced only when a slider of `color` stands on one of their lines.
        let diag = (k[5] | k[12]) & theirs & bishop_pseudo(sq);
        if !diag.is_empty() {
            a |= bishop_attacks(sq, occ) & diag;
        }
        let orth = (k[6] | k[13]) & theirs & rook_pseudo(sq);
        if !orth.is_empty() {
            a |= rook_attacks(sq, occ) & orth;
        }
        let lances = k[1] & theirs & rook_pseudo(sq);
        if !lances.is_empty() {
            a |= lance_attacks(rev, sq, occ) & lances;
        }
        a
    }

    fn compute_checkers(&self) -> Bitboard {
        match self.kings[self.side] {
            Some(k) => self.attackers_to(!self.side, k, self.occupied()),
            None => Bitboard::EMPTY,
        }
    }

    /// `color`'s pieces pinned to `color`'s king at `king` (blockers of enemy sliders).
    pub fn pinned(&self, color: Color, king: Square) -> Bitboard {
        self.blockers(color, king, !color, self.occupied())
    }

    /// Pieces of `of` that are the only piece between `king` and a slider of `slider_color`.
    fn blockers(&self, of: Color, king: Square, slider_color: Color, occ: Bitboard) -> Bitboard {
        let k = &self.kinds;
        let snipers = ((bishop_pseudo(king) & (k[5] | k[12]))
            | (rook_pseudo(king) & (k[6] | k[13]))
            | (lance_attacks(!slider_color, king, Bitboard::EMPTY) & k[1]))
            & self.colors[slider_color];
        let mut out = Bitboard::EMPTY;
        for s in snipers {
            let b = between(king, s) & occ;
            if !b.is_empty() && !b.has_more_than_one() {
                out |= b & self.colors[of];
            }
        }
        out
    }

    /// Whether `m` is legal here.
    pub fn is_legal(&self, m: Move) -> bool {
        // Cheap rejections first, then the generator decides.
        match m {
            Move::Normal { from, .. } => match self.board[from.index()] {
                Some(pc) if pc.color == self.side => {}
                _ => return false,
            },
            Move::Drop { kind, .. } => {
                if !kind.is_hand_kind() || !self.hands[self.side].has(kind) {
                    return false;
                }
            }
        }
        self.legal_moves().contains(&m)
    }

    /// Plays `m` if it is legal; otherwise leaves the position unchanged.
    ///
    /// # Errors
    /// [`IllegalMove`] if `m` is not legal here.
    pub fn play(&mut self, m: Move) -> Result<(), IllegalMove> {
        if self.is_legal(m) {
            self.play_unchecked(m);
            Ok(())
        } else {
            Err(IllegalMove { mv: m })
        }
    }

    /// Plays `m` without checking legality.
    ///
    /// Contract: `m` must be legal here (e.g. from [`Position::legal_moves`]);
    /// otherwise the position may become inconsistent (never memory-unsafe).
    ///
    /// # Panics
    /// May panic if `m` moves from an empty square or drops a piece not in hand.
    pub fn play_unchecked(&mut self, m: Move) {
        let u = self.apply_unchecked(m);
        self.history.push(u);
    }

    /// The position after `m` (played as [`Position::play_unchecked`], under the same
    /// contract) with an empty history: a child that does not copy the moves that led
    /// here (the certificate extractor builds millions of children, along lines up to
    /// ミクロコスモス's 1 525 plies).
    pub(crate) fn after_unchecked(&self, m: Move) -> Position {
        let mut p = self.without_history();
        p.apply_unchecked(m);
        p
    }

    /// Plays `m` unchecked and returns what [`Position::undo`] needs, without recording it.
    #[inline(always)]
    fn apply_unchecked(&mut self, m: Move) -> Undo {
        let us = self.side;
        let mut captured = None;
        let undo_key = self.board_key;
        let undo_checkers = self.checkers;
        let undo_pinned = self.pinned;
        let moved;
        match m {
            Move::Normal { from, to, promote } => {
                let pc = self.board[from.index()]
                    .expect("play_unchecked: no piece on the origin square");
                if let Some(cap) = self.board[to.index()] {
                    self.take(cap, to);
                    self.hands[us] = self.hands[us].add(cap.kind.unpromote());
                    if cap.kind == PieceKind::King {
                        self.kings[cap.color] = None;
                    }
                    captured = Some(cap);
                }
                self.take(pc, from);
                let kind = if promote {
                    pc.kind.promote().unwrap_or(pc.kind)
                } else {
                    pc.kind
                };
                self.put(Piece::new(us, kind), to);
                if kind == PieceKind::King {
                    self.kings[us] = Some(to);
                }
                moved = (kind, to);
            }
            Move::Drop { kind, to } => {
                self.hands[us] = self.hands[us].remove(kind);
                self.put(Piece::new(us, kind), to);
                moved = (kind, to);
            }
        }
        self.side = !us;
        self.move_number += 1;
        self.update_checkers_and_pins(moved.0, moved.1);
        Undo {
            mv: m,
            captured,
            board_key: undo_key,
            checkers: undo_checkers,
            pinned: undo_pinned,
        }
    }

    /// After `!self.side` moved a `kind` to `to`: the checkers of the side to move and its
    /// pinned pieces. The side that just moved was not in check before, so a stepping
    /// checker can only be the moved piece; every other checker is a slider, found with
    /// the pins in one scan of the sliders aligned with the king (as YaneuraOu and haitaka
    /// do). [`Position::compute_checkers`] and [`Position::pinned`] are the slow twins (tested).
    #[inline]
    fn update_checkers_and_pins(&mut self, kind: PieceKind, to: Square) {
        let us = self.side;
        let them = !us;
        let Some(k) = self.kings[us] else {
            self.checkers = Bitboard::EMPTY;
            self.pinned = Bitboard::EMPTY;
            return;
        };
        let mut checkers = Bitboard::EMPTY;
        if step_attacks(them, kind, to).has(k) {
            checkers = Bitboard::from_square(to);
        }
        let kinds = &self.kinds;
        let snipers = ((bishop_pseudo(k) & (kinds[5] | kinds[12]))
            | (rook_pseudo(k) & (kinds[6] | kinds[13]))
            | (lance_attacks(us, k, Bitboard::EMPTY) & kinds[1]))
            & self.colors[them];
        let mut pinned = Bitboard::EMPTY;
        if !snipers.is_empty() {
            let occ = self.occupied();
            for s in snipers {
                let b = between(k, s) & occ;
                if b.is_empty() {
                    checkers = checkers.with(s);
                } else if !b.has_more_than_one() {
                    pinned |= b;
                }
            }
            pinned &= self.colors[us];
        }
        self.checkers = checkers;
        self.pinned = pinned;
    }

    /// Takes back the last move; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<Move> {
        let u = self.history.pop()?;
        self.side = !self.side;
        self.move_number -= 1;
        let us = self.side;
        match u.mv {
            Move::Normal { from, to, .. } => {
                let pc = self.board[to.index()].expect("undo: moved piece");
                self.take_keyless(pc, to);
                let orig = if u.mv.is_promotion() {
                    Piece::new(us, pc.kind.unpromote())
                } else {
                    pc
                };
                self.put_keyless(orig, from);
                if orig.kind == PieceKind::King {
                    self.kings[us] = Some(from);
                }
                if let Some(cap) = u.captured {
                    self.hands[us] = self.hands[us].remove(cap.kind.unpromote());
                    self.put_keyless(cap, to);
                    if cap.kind == PieceKind::King {
                        self.kings[cap.color] = Some(to);
                    }
                }
            }
            Move::Drop { kind, to } => {
                self.take_keyless(Piece::new(us, kind), to);
                self.hands[us] = self.hands[us].add(kind);
            }
        }
        self.board_key = u.board_key;
        self.checkers = u.checkers;
        self.pinned = u.pinned;
        Some(u.mv)
    }

    /// Whether the legal move `m` gives check (directly or by discovery).
    pub fn gives_check(&self, m: Move) -> bool {
        let us = self.side;
        let Some(tk) = self.kings[!us] else {
            return false;
        };
        let occ = self.occupied();
        match m {
            Move::Drop { kind, to } => attacks(us, kind, to, occ).has(tk),
            Move::Normal { from, to, promote } => {
                let pc = self.board[from.index()].expect("gives_check: no piece");
                let kind = if promote {
                    pc.kind.promote().unwrap_or(pc.kind)
                } else {
                    pc.kind
                };
                let occ2 = occ.without(from).with(to);
                if attacks(us, kind, to, occ2).has(tk) {
                    return true;
                }
                // Discovered check: `from` was the only piece between the king and one of our sliders.
                if line(tk, from).is_empty() || line(tk, from).has(to) {
                    return false;
                }
                let k = &self.kinds;
                let ours = self.colors[us].without(from);
                let sliders = ((bishop_attacks(tk, occ2) & (k[5] | k[12]))
                    | (rook_attacks(tk, occ2) & (k[6] | k[13]))
                    | (lance_attacks(!us, tk, occ2) & k[1]))
                    & ours;
                !sliders.is_empty()
            }
        }
    }

    /// Whether the side to move is checkmated (in check with no legal move).
    pub fn is_mate(&self) -> bool {
        self.in_check() && self.legal_moves().is_empty()
    }

    /// This position with an empty history (undo and the played moves are lost).
    fn without_history(&self) -> Position {
        Position {
            board: self.board,
            colors: self.colors,
            kinds: self.kinds,
            hands: self.hands,
            side: self.side,
            move_number: self.move_number,
            kings: self.kings,
            board_key: self.board_key,
            checkers: self.checkers,
            pinned: self.pinned,
            rules: self.rules,
            history: Vec::new(),
        }
    }

    /// The naive twin of [`Position::legal_moves`]: every pseudo-move (each piece to
    /// each square it attacks that is not its own, each drop on each empty square,
    /// with every promotion option), filtered by playing it and testing the rules
    /// one by one (own king attacked, dead piece, 二歩, 打ち歩詰め by full mate test).
    pub fn legal_moves_naive(&self) -> Vec<Move> {
        let us = self.side;
        let occ = self.occupied();
        let mut cands = Vec::new();
        for from in self.colors[us] {
            let pc = self.board[from.index()].expect("occupied");
            for to in
                crate::rules::bitboard::attacks_naive(us, pc.kind, from, occ) & !self.colors[us]
            {
                let may_promote = pc.kind.promote().is_some()
                    && (from.relative_rank(us) <= 3 || to.relative_rank(us) <= 3);
                cands.push(Move::Normal {
                    from,
                    to,
                    promote: false,
                });
                if may_promote {
                    cands.push(Move::Normal {
                        from,
                        to,
                        promote: true,
                    });
                }
            }
        }
        for kind in PieceKind::HAND {
            if self.hands[us].has(kind) {
                for to in !occ {
                    cands.push(Move::Drop { kind, to });
                }
            }
        }
        let mut out = Vec::new();
        // Each candidate is played on a copy without the history, which none of these
        // rules reads: cloning a 1 573-ply line's history per candidate made replaying
        // that line quadratic (1–2 % of a long first proof's CPU).
        let base = self.without_history();
        for m in cands {
            let mut p = base.clone();
            p.play_unchecked(m);
            // Own king attacked?
            if let Some(k) = p.kings[us] {
                if !p.attackers_to(!us, k, p.occupied()).is_empty() {
                    continue;
                }
            }
            // Dead piece or 二歩?
            let to = m.to();
            let moved = p.board[to.index()].expect("moved piece");
            let rr = to.relative_rank(us);
            let dead = match moved.kind {
                PieceKind::Pawn | PieceKind::Lance => rr == 1,
                PieceKind::Knight => rr <= 2,
                _ => false,
            };
            if dead {
                continue;
            }
            if let Move::Drop {
                kind: PieceKind::Pawn,
                ..
            } = m
            {
                if p.pieces(us, PieceKind::Pawn)
                    .filter(|s| s.file() == to.file())
                    .count()
                    > 1
                {
                    continue;
                }
                if p.in_check() && p.legal_moves_naive().is_empty() {
                    continue; // 打ち歩詰め
                }
            }
            out.push(m);
        }
        out
    }
}

impl fmt::Debug for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(
            f,
            "Position {{ side: {:?}, hands: {:?} / {:?}",
            self.side, self.hands.sente, self.hands.gote
        )?;
        for rank in 1..=9 {
            for file in (1..=9).rev() {
                let sq = Square::new(file, rank).expect("sq");
                match self.board[sq.index()] {
                    Some(p) => write!(f, "{:>3}", p.sfen())?,
                    None => write!(f, "  .")?,
                }
            }
            writeln!(f)?;
        }
        write!(f, "}}")
    }
}

impl PartialEq for Position {
    /// Equal boards, hands and side to move (history and move number ignored).
    fn eq(&self, other: &Self) -> bool {
        self.board == other.board && self.hands == other.hands && self.side == other.side
    }
}
impl Eq for Position {}

/// The deepest perft the front ends take (CLI `perft` and `quantum perft`, Python's
/// `Position.perft` and `quantum.perft`): a recursion an 8 MiB stack holds (a depth of
/// 100 000 overflowed it: an abort). The CLI also refuses, before counting, a depth whose
/// count would pass 2^64 − 1 ([`super::perft::perft_reach`]; from the start position,
/// depths above 13).
pub const MAX_PERFT_DEPTH: u32 = 1000;

/// Counts the leaves of the legal move tree of `depth` plies (bulk-counted at the last ply).
///
/// # Panics
/// If the count passes 2^64 − 1 (2^64 leaves: centuries of counting) rather than wrap;
/// [`super::perft::perft_checked`] returns that as an error.
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if depth == 1 {
        return pos.count_legal_moves() as u64;
    }
    let mut moves = MoveList::new();
    pos.generate(&mut moves);
    let mut n = 0;
    for &m in &moves {
        pos.play_unchecked(m);
        let leaves = perft(pos, depth - 1);
        pos.undo();
        n = add_leaves(n, leaves);
    }
    n
}

/// `n + leaves` for [`perft`] and [`perft_until`], which panic rather than wrap.
fn add_leaves(n: u64, leaves: u64) -> u64 {
    n.checked_add(leaves)
        .expect("the perft count passed 2^64 - 1 (perft_checked reports it as an error)")
}

/// [`perft`] that gives up once `stop()` says so (`None`), checked at every node above the
/// bulk-counted last ply: for a caller on another thread that must stay interruptible
/// (Python's Ctrl-C). The position comes back unchanged either way.
///
/// # Panics
/// If the count passes 2^64 − 1, as [`perft`];
/// [`super::perft::perft_count`] returns that as an error.
pub fn perft_until(pos: &mut Position, depth: u32, stop: &impl Fn() -> bool) -> Option<u64> {
    if stop() {
        return None;
    }
    if depth <= 1 {
        return Some(perft(pos, depth));
    }
    let mut moves = MoveList::new();
    pos.generate(&mut moves);
    let mut n = 0;
    for &m in &moves {
        pos.play_unchecked(m);
        let leaves = perft_until(pos, depth - 1, stop);
        pos.undo();
        n = add_leaves(n, leaves?);
    }
    Some(n)
}

/// [`perft`] split by first move: `(move, leaves)` for each legal move.
///
/// # Panics
/// If a count passes 2^64 − 1, as [`perft`].
pub fn perft_divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    let moves = pos.legal_moves();
    moves
        .iter()
        .map(|&m| {
            pos.play_unchecked(m);
            let n = if depth <= 1 { 1 } else { perft(pos, depth - 1) };
            pos.undo();
            (m, n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A side without a king is the tsume attacker, whoever is to move; both kings or
    /// neither: the standard rules (which refuse neither).
    #[test]
    fn game_or_tsume_rules_follow_the_kings() {
        use crate::notation::sfen::parse_setup;
        for (sfen, rules) in [
            ("4k4/9/9/9/9/9/9/9/4K4 b - 1", Rules::STANDARD),
            ("8k/9/8P/9/9/9/9/9/9 b G 1", Rules::TSUME),
            ("8k/9/8P/9/9/9/9/9/9 w G 2", Rules::TSUME.swapped()),
            ("9/9/9/9/9/9/9/9/K8 b - 1", Rules::TSUME.swapped()),
            ("9/9/9/9/9/9/9/9/K8 w - 1", Rules::TSUME),
            ("9/9/9/9/9/9/9/9/9 b - 1", Rules::STANDARD),
        ] {
            let setup = parse_setup(sfen).unwrap();
            assert_eq!(Rules::game_or_tsume(&setup), rules, "{sfen}");
            let legal = Position::from_setup(setup, rules);
            assert_eq!(legal.is_ok(), sfen.contains(['k', 'K']), "{sfen}");
        }
    }

    /// The rest of the pieces: none at the start; on a bare board with two kings, the
    /// full set less the other hand; a kind over its full set gets none.
    #[test]
    fn rest_of_pieces_is_the_full_set_less_board_and_other_hand() {
        let start = crate::notation::sfen::parse_setup(crate::notation::sfen::STARTPOS).unwrap();
        assert_eq!(start.rest_of_pieces(Hand::EMPTY), Hand::EMPTY);
        let bare = crate::notation::sfen::parse_setup("4k4/9/9/9/9/9/9/9/4K4 b - 1").unwrap();
        let other = Hand::EMPTY
            .with_count(PieceKind::Gold, 3)
            .with_count(PieceKind::Pawn, 20);
        let rest = bare.rest_of_pieces(other);
        for k in PieceKind::HAND {
            let want = match k {
                PieceKind::Gold => 1,
                PieceKind::Pawn => 0,
                _ => k.max_count(),
            };
            assert_eq!(rest.count(k), want, "{k:?}");
        }
    }

    /// Starts of the random games of the history tests: the initial position, and a
    /// tsume position (no attacker king) with pieces in hand.
    const WALK_STARTS: [(&str, Rules); 2] = [
        (
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
            Rules::STANDARD,
        ),
        ("4k4/9/4P4/9/4R4/9/9/9/9 b 2B2G2S2N2L2P 1", Rules::TSUME),
    ];

    /// `perft_until` without a stop is `perft` (depths 0-3 from both walk starts); with
    /// the stop set it gives up and leaves the position as it was.
    #[test]
    fn perft_until_counts_as_perft_and_stops() {
        for (sfen, rules) in WALK_STARTS {
            let mut pos = crate::notation::sfen::parse_position(sfen, rules).unwrap();
            let before = crate::notation::sfen::write_sfen(&pos);
            for depth in 0..=3 {
                let go = || false;
                assert_eq!(
                    perft_until(&mut pos, depth, &go),
                    Some(perft(&mut pos, depth)),
                    "{sfen} depth {depth}"
                );
            }
            assert_eq!(perft_until(&mut pos, 3, &|| true), None);
            assert_eq!(crate::notation::sfen::write_sfen(&pos), before);
        }
    }

    /// `after_unchecked` is `clone` + `play_unchecked` without the history: on every
    /// legal move along random games, the same board, hands, side, move number, key,
    /// checkers, pins and legal moves, and an empty history.
    #[test]
    fn after_unchecked_is_a_played_copy_without_history() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(24);
        let mut compared = 0;
        for (sfen, rules) in WALK_STARTS {
            let start = crate::notation::sfen::parse_position(sfen, rules).unwrap();
            for _ in 0..3 {
                let mut p = start.clone();
                for _ in 0..60 {
                    let moves = p.legal_moves().to_vec();
                    if moves.is_empty() {
                        break;
                    }
                    for &m in &moves {
                        let fast = p.after_unchecked(m);
                        let mut slow = p.clone();
                        slow.play_unchecked(m);
                        assert!(fast.to_setup() == slow.to_setup(), "{m}");
                        assert_eq!(fast.board_key(), slow.board_key());
                        assert_eq!(fast.key(), slow.key());
                        assert_eq!(fast.checkers(), slow.checkers());
                        assert_eq!(fast.pinned_pieces(), slow.pinned_pieces());
                        assert_eq!(fast.rules(), slow.rules());
                        assert_eq!(fast.legal_moves().to_vec(), slow.legal_moves().to_vec());
                        assert_eq!(fast.ply(), 0);
                        compared += 1;
                    }
                    p.play_unchecked(moves[rng.gen_range(0..moves.len())]);
                }
            }
        }
        assert!(compared > 5000, "{compared}");
    }

    /// `legal_moves_naive` plays its candidates on a copy without the history: along
    /// random games (histories up to 80 plies) it lists the fast generator's moves, and
    /// the same moves as the position rebuilt without a history.
    #[test]
    fn naive_moves_ignore_the_history() {
        use rand::{Rng, SeedableRng};
        let sorted = |mut v: Vec<Move>| {
            v.sort_by_key(|m| m.to_string());
            v
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(13);
        let mut compared = 0;
        for (sfen, rules) in WALK_STARTS {
            let start = crate::notation::sfen::parse_position(sfen, rules).unwrap();
            for _ in 0..4 {
                let mut p = start.clone();
                for _ in 0..80 {
                    let naive = sorted(p.legal_moves_naive());
                    assert_eq!(naive, sorted(p.legal_moves().to_vec()), "{p:?}");
                    assert_eq!(naive, sorted(p.without_history().legal_moves_naive()));
                    compared += 1;
                    if naive.is_empty() {
                        break;
                    }
                    p.play_unchecked(naive[rng.gen_range(0..naive.len())]);
                }
                assert!(p.ply() > 0);
            }
        }
        assert!(compared > 100, "{compared}");
    }

    /// The incremental checkers and pins of play/undo against their slow twins
    /// (`attackers_to` the king, `pinned` by a full sniper scan), along random games from
    /// the perft positions (pins, discovered checks, double checks, drops, no-king tsume).
    #[test]
    fn incremental_checkers_and_pins_match_the_slow_twins() {
        use rand::{Rng, SeedableRng};
        let slow = |p: &Position| match p.king(p.side_to_move()) {
            Some(k) => (
                p.attackers_to(!p.side_to_move(), k, p.occupied()),
                p.pinned(p.side_to_move(), k),
            ),
            None => (Bitboard::EMPTY, Bitboard::EMPTY),
        };
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(18);
        let (mut checks, mut pins) = (0, 0);
        for (sfen, rules) in [
            (
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                Rules::STANDARD,
            ),
            (
                "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
                Rules::STANDARD,
            ),
            ("R6sk/9/8G/9/9/9/9/9/K8 b Pp 1", Rules::STANDARD),
            ("4k4/4r4/9/2b6/3PS4/4KG3/5n3/9/9 b Pp 1", Rules::STANDARD),
            ("4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrbgsnlp 1", Rules::STANDARD),
            ("4k4/9/4P4/9/4R4/9/9/9/9 b 2B2G2S2N2L2P 1", Rules::TSUME),
        ] {
            let start = crate::notation::sfen::parse_position(sfen, rules).unwrap();
            for _ in 0..200 {
                let mut p = start.clone();
                let mut trail = vec![(p.checkers(), p.pinned_pieces())];
                assert_eq!(trail[0], slow(&p), "{p:?}");
                for _ in 0..40 {
                    let moves = p.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    p.play_unchecked(moves[rng.gen_range(0..moves.len())]);
                    let now = (p.checkers(), p.pinned_pieces());
                    assert_eq!(now, slow(&p), "{p:?}");
                    checks += !now.0.is_empty() as u32;
                    pins += !now.1.is_empty() as u32;
                    trail.push(now);
                }
                while p.undo().is_some() {
                    trail.pop();
                    assert_eq!(Some(&(p.checkers(), p.pinned_pieces())), trail.last());
                }
            }
        }
        // The walk must actually meet checks and pins, or it tests nothing.
        assert!(checks > 100 && pins > 100, "{checks} checks, {pins} pins");
    }

    #[test]
    fn a_dead_piece_is_named_in_words_not_debug_text() {
        let v = Violation::DeadPiece {
            piece: Piece::new(Color::Gote, PieceKind::Pawn),
            square: Square::new(1, 9).unwrap(),
        };
        assert_eq!(
            v.to_string(),
            "行き所のない駒: Gote's 歩 (p) on 1i can never move"
        );
    }
}
