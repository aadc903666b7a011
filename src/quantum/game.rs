//! Quantum shogi games as shogitter plays them (rule 108, seed
//! `000_f094134babe25b9a.txt`, 収束アルゴリズム): every piece is a
//! superposition of kinds in its **original** side's [`World`]; a move is
//! legal iff some remaining kind could make it and the world still converges.
//!
//! World slots are assigned in order of first observation (first move or
//! capture), like shogitter's `xys`/`kinds` lists; unassigned slots are the
//! never-observed pieces, whose converged domain is `ALL − used up`.

use super::enumeration::Diagram;
use super::{
    counting, enumeration, sat, Contradiction, Converged, Convergence, Kind, KindSet, Observation,
    World, PIECES,
};
use crate::render::{Glyph, HandItem, Picture};
use crate::rules::bitboard::attacks;
use crate::rules::{Bitboard, Color, PieceKind, Square};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt;

/// Number of pieces in a game.
pub const TOTAL: usize = 2 * PIECES;
const NONE: u8 = u8::MAX;

/// Which [`Convergence`] engine a game uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EngineKind {
    /// [`counting::SubsetPass`].
    Counting,
    /// [`counting::Peel`].
    Peel,
    /// [`sat::SatEngine`].
    Sat,
    /// [`enumeration::DiagramEngine`].
    Enumeration,
    /// [`enumeration::TailEngine`].
    Tail,
}

impl EngineKind {
    /// Every engine.
    pub const ALL: [EngineKind; 5] = [
        EngineKind::Counting,
        EngineKind::Peel,
        EngineKind::Sat,
        EngineKind::Enumeration,
        EngineKind::Tail,
    ];
    /// The engine.
    pub fn engine(self) -> &'static dyn Convergence {
        match self {
            EngineKind::Counting => &counting::SubsetPass,
            EngineKind::Peel => &counting::Peel,
            EngineKind::Sat => &sat::SatEngine,
            EngineKind::Enumeration => &enumeration::DiagramEngine,
            EngineKind::Tail => &enumeration::TailEngine,
        }
    }
    /// Its name.
    pub fn name(self) -> &'static str {
        self.engine().name()
    }
    /// By name (`counting`, `peel`, `sat`, `enumeration`, `enumeration-tail`).
    pub fn from_name(name: &str) -> Option<EngineKind> {
        EngineKind::ALL.into_iter().find(|e| e.name() == name)
    }
}

/// The capture rule.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Variant {
    /// shogitter: a captured piece is observed as "not the king".
    #[default]
    Standard,
    /// The seed's alternative: a captured piece collapses to one kind drawn
    /// with its exact probability; if that is the king, the capturer wins.
    Observe,
}

/// A move: a board move or a drop of the hand piece at `hand_index` (the
/// position in the mover's ordered hand, shogitter's `mochiD-i`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum QMove {
    /// Board move.
    Board {
        /// From.
        from: Square,
        /// To.
        to: Square,
        /// Promote.
        promote: bool,
    },
    /// Drop.
    Drop {
        /// Index in the mover's hand.
        hand_index: u8,
        /// To.
        to: Square,
    },
}

impl QMove {
    /// The destination.
    pub fn to(self) -> Square {
        match self {
            QMove::Board { to, .. } | QMove::Drop { to, .. } => to,
        }
    }
}

/// USI-like text: `5g5c+`, `7g7f`, drops `h2*4d` (hand entry 2).
impl fmt::Display for QMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            QMove::Board { from, to, promote } => {
                write!(f, "{from}{to}{}", if promote { "+" } else { "" })
            }
            QMove::Drop { hand_index, to } => write!(f, "h{hand_index}*{to}"),
        }
    }
}

/// A malformed move text.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("bad quantum move {0:?} (expected e.g. 7g7f, 5g5c+ or h2*4d)")]
pub struct MoveParseError(pub String);

fn parse_square(s: &str) -> Option<Square> {
    let b = s.as_bytes();
    if b.len() != 2 || !(b'1'..=b'9').contains(&b[0]) || !(b'a'..=b'i').contains(&b[1]) {
        return None;
    }
    Square::new(b[0] - b'0', b[1] - b'a' + 1)
}

impl std::str::FromStr for QMove {
    type Err = MoveParseError;
    fn from_str(s: &str) -> Result<QMove, MoveParseError> {
        let bad = || MoveParseError(s.to_string());
        if let Some(rest) = s.strip_prefix('h') {
            let (idx, sq) = rest.split_once('*').ok_or_else(bad)?;
            return Ok(QMove::Drop {
                hand_index: idx.parse().map_err(|_| bad())?,
                to: parse_square(sq).ok_or_else(bad)?,
            });
        }
        let (body, promote) = match s.strip_suffix('+') {
            Some(b) => (b, true),
            None => (s, false),
        };
        if body.len() != 4 || !body.is_ascii() {
            return Err(bad());
        }
        Ok(QMove::Board {
            from: parse_square(&body[..2]).ok_or_else(bad)?,
            to: parse_square(&body[2..]).ok_or_else(bad)?,
            promote,
        })
    }
}

/// Why a move was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum IllegalMove {
    /// The game has ended.
    #[error("the game is over")]
    GameOver,
    /// No own piece on the from-square, or no such hand entry.
    #[error("no piece of the side to move there")]
    NoPiece,
    /// The destination holds an own piece (board move) or any piece (drop).
    #[error("destination occupied")]
    Occupied,
    /// Promotion outside the zone, or by an already promoted piece.
    #[error("cannot promote here")]
    BadPromotion,
    /// No remaining kind can make the move (the world would contradict).
    #[error("no remaining kind can make this move: {0}")]
    Contradiction(Contradiction),
    /// In the observe variant a capture needs the drawn kind, which must be possible.
    #[error("capture outcome missing or impossible")]
    BadOutcome,
}

/// How a game ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GameResult {
    /// `winner` captured a piece that could only be (or, observe variant, collapsed to) the king.
    KingCapture {
        /// The capturer.
        winner: Color,
    },
    /// 千日手: the same board + hands + side to move for the 4th time (a draw).
    Repetition,
}

/// One piece's state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct PieceInfo {
    /// Original side (its world).
    pub side: Color,
    /// Index 0..20 among its side's starting squares (file 9→1 of the back rank, the two
    /// pieces of the second rank, then the pawn rank; seen from that side).
    pub index: u8,
    /// Current owner.
    pub owner: Color,
    /// Promoted.
    pub promoted: bool,
    /// Where it is: `Some(square)` on the board, `None` in its owner's hand.
    pub square: Option<Square>,
    /// Slot in its side's world, assigned at first observation.
    pub slot: Option<u8>,
}

/// The copyable part of a position (undo restores a snapshot of it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
struct State {
    board: [u8; 81],
    owner: [Color; TOTAL],
    promoted: u64,
    square: [u8; TOTAL],
    slot: [u8; TOTAL],
    assigned: [u8; 2],
    hands: [[u8; TOTAL]; 2],
    hand_len: [u8; 2],
    worlds: [Converged; 2],
    occ: [Bitboard; 2],
    stm: Color,
    result: Option<GameResult>,
}

/// A quantum shogi position with its history (for undo and 千日手).
#[derive(Debug, Clone)]
pub struct QuantumPosition {
    s: State,
    engine: EngineKind,
    variant: Variant,
    history: Vec<(State, QMove)>,
    keys: Vec<u64>,
}

impl PartialEq for QuantumPosition {
    fn eq(&self, o: &QuantumPosition) -> bool {
        self.s == o.s && self.keys == o.keys && self.variant == o.variant
    }
}

fn quantum_to_rules(k: Kind, promoted: bool) -> Option<PieceKind> {
    Some(match (k, promoted) {
        (Kind::King, false) => PieceKind::King,
        (Kind::Rook, false) => PieceKind::Rook,
        (Kind::Bishop, false) => PieceKind::Bishop,
        (Kind::Gold, false) => PieceKind::Gold,
        (Kind::Silver, false) => PieceKind::Silver,
        (Kind::Knight, false) => PieceKind::Knight,
        (Kind::Lance, false) => PieceKind::Lance,
        (Kind::Pawn, false) => PieceKind::Pawn,
        (Kind::Rook, true) => PieceKind::Dragon,
        (Kind::Bishop, true) => PieceKind::Horse,
        (Kind::Silver, true) => PieceKind::ProSilver,
        (Kind::Knight, true) => PieceKind::ProKnight,
        (Kind::Lance, true) => PieceKind::ProLance,
        (Kind::Pawn, true) => PieceKind::ProPawn,
        (Kind::Gold | Kind::King, true) => return None,
    })
}

/// The starting squares of `side`, in piece-index order.
pub fn start_squares(side: Color) -> [Square; PIECES] {
    let mut out = [Square::from_index_unchecked(0); PIECES];
    let mut n = 0;
    let mut push = |file: u8, rank: u8| {
        let sq = Square::new(file, rank).unwrap_or(Square::from_index_unchecked(0));
        out[n] = if side == Color::Sente { sq } else { sq.flip() };
        n += 1;
    };
    for f in (1..=9).rev() {
        push(f, 9);
    }
    push(8, 8);
    push(2, 8);
    for f in (1..=9).rev() {
        push(f, 7);
    }
    out
}

/// Kinds compatible with ending unpromoted on relative rank `rr` (or being dropped there).
fn rank_allowed(rr: u8) -> KindSet {
    match rr {
        1 => Observation::FarRank.allowed(),
        2 => Observation::SecondRank.allowed(),
        _ => KindSet::ALL,
    }
}

/// `(|dx|, dy)` from `mover`'s view, `dy < 0` forward.
fn vector(mover: Color, from: Square, to: Square) -> (i8, i8) {
    let dx = to.file() as i8 - from.file() as i8;
    let dy = to.rank() as i8 - from.rank() as i8;
    match mover {
        Color::Sente => (dx, dy),
        Color::Gote => (-dx, -dy),
    }
}

impl Default for QuantumPosition {
    fn default() -> QuantumPosition {
        QuantumPosition::new(EngineKind::Counting, Variant::Standard)
    }
}

impl QuantumPosition {
    /// The start: 20 unknown pieces per side on the usual squares, hands empty, Sente to move.
    pub fn new(engine: EngineKind, variant: Variant) -> QuantumPosition {
        let mut board = [NONE; 81];
        let mut owner = [Color::Sente; TOTAL];
        let mut square = [NONE; TOTAL];
        let mut occ = [Bitboard::EMPTY; 2];
        for side in Color::ALL {
            for (i, sq) in start_squares(side).into_iter().enumerate() {
                let id = side.index() * PIECES + i;
                board[sq.index()] = id as u8;
                owner[id] = side;
                square[id] = sq.index() as u8;
                occ[side.index()] = occ[side.index()].with(sq);
            }
        }
        let w = Converged::new(&World::UNOBSERVED, World::UNOBSERVED);
        let s = State {
            board,
            owner,
            promoted: 0,
            square,
            slot: [NONE; TOTAL],
            assigned: [0; 2],
            hands: [[NONE; TOTAL]; 2],
            hand_len: [0; 2],
            worlds: [w; 2],
            occ,
            stm: Color::Sente,
            result: None,
        };
        QuantumPosition {
            s,
            engine,
            variant,
            history: Vec::new(),
            keys: Vec::new(),
        }
    }

    /// The engine used for convergence.
    pub fn engine(&self) -> EngineKind {
        self.engine
    }
    /// Switches the convergence engine (all engines compute the same function).
    pub fn set_engine(&mut self, e: EngineKind) {
        self.engine = e;
    }
    /// The capture rule.
    pub fn variant(&self) -> Variant {
        self.variant
    }
    /// Side to move.
    pub fn side_to_move(&self) -> Color {
        self.s.stm
    }
    /// The result, once the game has ended.
    pub fn result(&self) -> Option<GameResult> {
        self.s.result
    }
    /// Plies played.
    pub fn ply(&self) -> usize {
        self.history.len()
    }
    /// The moves played so far.
    pub fn moves(&self) -> impl Iterator<Item = QMove> + '_ {
        self.history.iter().map(|(_, m)| *m)
    }
    /// The converged world of original side `c` (slots in order of first observation).
    pub fn world(&self, c: Color) -> &Converged {
        &self.s.worlds[c.index()]
    }
    /// Number of observed pieces (assigned slots) of `c`'s world.
    pub fn observed(&self, c: Color) -> usize {
        self.s.assigned[c.index()] as usize
    }
    /// Piece ids (0..40: `side·20 + index`) in `c`'s hand, in hand order.
    pub fn hand(&self, c: Color) -> &[u8] {
        &self.s.hands[c.index()][..self.s.hand_len[c.index()] as usize]
    }
    /// The piece id on `sq`.
    pub fn piece_at(&self, sq: Square) -> Option<u8> {
        Some(self.s.board[sq.index()]).filter(|&p| p != NONE)
    }
    /// Everything about piece `id` (0..40).
    pub fn piece(&self, id: u8) -> PieceInfo {
        let i = id as usize;
        PieceInfo {
            side: if i < PIECES {
                Color::Sente
            } else {
                Color::Gote
            },
            index: (i % PIECES) as u8,
            owner: self.s.owner[i],
            promoted: self.s.promoted >> i & 1 != 0,
            square: Square::from_index(self.s.square[i] as usize),
            slot: Some(self.s.slot[i]).filter(|&s| s != NONE),
        }
    }
    /// The piece occupying world slot `slot` of side `c`.
    pub fn piece_of_slot(&self, c: Color, slot: usize) -> Option<u8> {
        (0..PIECES)
            .map(|i| (c.index() * PIECES + i) as u8)
            .find(|&id| self.s.slot[id as usize] as usize == slot)
    }
    /// The kinds piece `id` can still be.
    pub fn domain(&self, id: u8) -> KindSet {
        let i = id as usize;
        let side = i / PIECES;
        let w = &self.s.worlds[side].world;
        match self.s.slot[i] {
            NONE => w.0[self.s.assigned[side] as usize],
            s => w.0[s as usize],
        }
    }
    /// Occupied squares of `c`.
    pub fn occupied(&self, c: Color) -> Bitboard {
        self.s.occ[c.index()]
    }

    /// 千日手 key: board (owner, promoted per square), hand sizes and side to move; the quantum state is ignored.
    pub fn key(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut mix = |b: u8| {
            h ^= b as u64;
            h = h.wrapping_mul(0x0100_0000_01b3);
        };
        for &p in &self.s.board {
            mix(if p == NONE {
                0
            } else {
                1 + self.s.owner[p as usize] as u8 * 2 + (self.s.promoted >> p & 1) as u8
            });
        }
        mix(self.s.hand_len[0]);
        mix(self.s.hand_len[1]);
        mix(self.s.stm as u8);
        h
    }

    /// Destinations piece `id` (on the board) could reach with some remaining kind.
    fn reach(&self, id: u8, from: Square) -> Bitboard {
        let c = self.s.owner[id as usize];
        let promoted = self.s.promoted >> id & 1 != 0;
        let occ = self.s.occ[0] | self.s.occ[1];
        let mut bb = Bitboard::EMPTY;
        for k in self.domain(id).iter() {
            if let Some(pk) = quantum_to_rules(k, promoted) {
                bb |= attacks(c, pk, from, occ);
            }
        }
        bb & !self.s.occ[c.index()]
    }

    /// The narrowed domain of a board move's piece, or `None` if the move is impossible.
    fn board_narrowing(&self, from: Square, to: Square, promote: bool) -> Option<KindSet> {
        let id = self.piece_at(from)?;
        let c = self.s.stm;
        if self.s.owner[id as usize] != c || self.s.occ[c.index()].has(to) {
            return None;
        }
        let promoted = self.s.promoted >> id & 1 != 0;
        let (dx, dy) = vector(c, from, to);
        let mut d = self
            .domain(id)
            .and(Observation::Move { dx, dy, promoted }.allowed());
        if promote {
            let zone = from.relative_rank(c) <= 3 || to.relative_rank(c) <= 3;
            if promoted || !zone {
                return None;
            }
            d = d.and(Observation::Promote.allowed());
        } else if !promoted {
            d = d.and(rank_allowed(to.relative_rank(c)));
        }
        // Some remaining kind must make the move *with the path clear*: the
        // clamped vector tables know nothing of blockers.
        if !self.reach(id, from).has(to) {
            return None;
        }
        let geometric = d.iter().any(|k| {
            quantum_to_rules(k, promoted)
                .is_some_and(|pk| attacks(c, pk, from, self.s.occ[0] | self.s.occ[1]).has(to))
        });
        (geometric && !d.is_empty()).then_some(d)
    }

    /// Legal moves, in a fixed order. Drops: one per (hand piece class, square),
    /// where hand pieces of the same original side with equal domains are one
    /// class (they are interchangeable); the first of each class in hand order is used.
    pub fn legal_moves(&self) -> Vec<QMove> {
        let mut out = Vec::new();
        if self.s.result.is_some() {
            return out;
        }
        let c = self.s.stm;
        for from in self.s.occ[c.index()] {
            let Some(id) = self.piece_at(from) else {
                continue;
            };
            for to in self.reach(id, from) {
                for promote in [false, true] {
                    if self.board_narrowing(from, to, promote).is_some() {
                        out.push(QMove::Board { from, to, promote });
                    }
                }
            }
        }
        let empty = !(self.s.occ[0] | self.s.occ[1]) & Bitboard::FULL;
        let mut seen: Vec<(usize, KindSet)> = Vec::new();
        for (hi, &id) in self.hand(c).iter().enumerate() {
            let class = (id as usize / PIECES, self.domain(id));
            if seen.contains(&class) {
                continue;
            }
            seen.push(class);
            for to in empty {
                if !class.1.and(rank_allowed(to.relative_rank(c))).is_empty() {
                    out.push(QMove::Drop {
                        hand_index: hi as u8,
                        to,
                    });
                }
            }
        }
        out
    }

    fn assign_slot(&mut self, id: u8) -> usize {
        let side = id as usize / PIECES;
        if self.s.slot[id as usize] == NONE {
            self.s.slot[id as usize] = self.s.assigned[side];
            self.s.assigned[side] += 1;
        }
        self.s.slot[id as usize] as usize
    }

    /// Narrows piece `id` to `d` and converges its world.
    fn narrow(&mut self, id: u8, d: KindSet) -> Result<(), Contradiction> {
        let side = id as usize / PIECES;
        let slot = self.assign_slot(id);
        let mut w = self.s.worlds[side].world;
        // Unassigned slots restart from "all kinds" so that used-up kinds are recomputed.
        for j in self.s.assigned[side] as usize..PIECES {
            w.0[j] = KindSet::ALL;
        }
        w.0[slot] = w.0[slot].and(d);
        self.s.worlds[side] = self.engine.engine().converge(&w)?;
        Ok(())
    }

    /// The piece a capture by `mv` would take, if any.
    pub fn captured_by(&self, mv: QMove) -> Option<u8> {
        match mv {
            QMove::Board { to, .. } => self.piece_at(to),
            QMove::Drop { .. } => None,
        }
    }

    /// Exact distribution of the captured piece's kind in the observe variant,
    /// *after* the mover's own observation; `None` for a non-capture or an illegal move.
    pub fn capture_distribution(&self, mv: QMove) -> Option<Vec<(Kind, super::ratio::Ratio)>> {
        let cap = self.captured_by(mv)?;
        let mut p = self.clone();
        p.variant = Variant::Standard;
        p.play_mover(mv).ok()?;
        let side = cap as usize / PIECES;
        let slot = p.assign_slot(cap);
        let mut w = p.s.worlds[side].world;
        for j in p.s.assigned[side] as usize..PIECES {
            w.0[j] = KindSet::ALL;
        }
        let d = Diagram::build(&w);
        Some(
            Kind::ALL
                .into_iter()
                .filter_map(|k| Some((k, d.probability(slot, k)?)))
                .filter(|(_, r)| r.numer() > 0)
                .collect(),
        )
    }

    /// The mover's half of a move (piece moved or dropped, its world converged); no capture handling.
    fn play_mover(&mut self, mv: QMove) -> Result<Option<u8>, IllegalMove> {
        let c = self.s.stm;
        match mv {
            QMove::Board { from, to, promote } => {
                let id = self.piece_at(from).ok_or(IllegalMove::NoPiece)?;
                if self.s.owner[id as usize] != c {
                    return Err(IllegalMove::NoPiece);
                }
                if self.s.occ[c.index()].has(to) {
                    return Err(IllegalMove::Occupied);
                }
                let promoted = self.s.promoted >> id & 1 != 0;
                if promote && (promoted || (from.relative_rank(c) > 3 && to.relative_rank(c) > 3)) {
                    return Err(IllegalMove::BadPromotion);
                }
                let d = self
                    .board_narrowing(from, to, promote)
                    .unwrap_or(KindSet::EMPTY);
                let before = self.s;
                if let Err(e) = self.narrow(id, d) {
                    self.s = before;
                    return Err(IllegalMove::Contradiction(e));
                }
                let captured = self.piece_at(to);
                self.s.board[from.index()] = NONE;
                self.s.occ[c.index()] = self.s.occ[c.index()].without(from);
                if let Some(q) = captured {
                    let qi = q as usize;
                    self.s.occ[(!c).index()] = self.s.occ[(!c).index()].without(to);
                    self.s.owner[qi] = c;
                    self.s.promoted &= !(1u64 << qi);
                    self.s.square[qi] = NONE;
                    let n = self.s.hand_len[c.index()] as usize;
                    self.s.hands[c.index()][n] = q;
                    self.s.hand_len[c.index()] += 1;
                }
                self.s.board[to.index()] = id;
                self.s.square[id as usize] = to.index() as u8;
                self.s.occ[c.index()] = self.s.occ[c.index()].with(to);
                if promote {
                    self.s.promoted |= 1u64 << id;
                }
                Ok(captured)
            }
            QMove::Drop { hand_index, to } => {
                let hi = hand_index as usize;
                let n = self.s.hand_len[c.index()] as usize;
                if hi >= n {
                    return Err(IllegalMove::NoPiece);
                }
                if (self.s.occ[0] | self.s.occ[1]).has(to) {
                    return Err(IllegalMove::Occupied);
                }
                let id = self.s.hands[c.index()][hi];
                let rr = to.relative_rank(c);
                if rr <= 2 {
                    let before = self.s;
                    if let Err(e) = self.narrow(id, rank_allowed(rr)) {
                        self.s = before;
                        return Err(IllegalMove::Contradiction(e));
                    }
                }
                let hand = &mut self.s.hands[c.index()];
                hand.copy_within(hi + 1..n, hi);
                hand[n - 1] = NONE;
                self.s.hand_len[c.index()] -= 1;
                self.s.board[to.index()] = id;
                self.s.square[id as usize] = to.index() as u8;
                self.s.occ[c.index()] = self.s.occ[c.index()].with(to);
                Ok(None)
            }
        }
    }

    /// Plays `mv` (standard variant).
    ///
    /// # Errors
    /// [`IllegalMove`]; the position is unchanged.
    pub fn play(&mut self, mv: QMove) -> Result<(), IllegalMove> {
        self.play_with(mv, None)
    }

    /// Plays `mv`; in the observe variant a capture needs `observed`, the kind the captured
    /// piece collapses to (drawn by the caller, see [`QuantumPosition::capture_distribution`]).
    ///
    /// # Errors
    /// [`IllegalMove`]; the position is unchanged.
    pub fn play_with(&mut self, mv: QMove, observed: Option<Kind>) -> Result<(), IllegalMove> {
        if self.s.result.is_some() {
            return Err(IllegalMove::GameOver);
        }
        let before = self.s;
        let captured = self.play_mover(mv)?;
        let c = self.s.stm;
        if let Some(q) = captured {
            let narrowing = match (self.variant, observed) {
                (Variant::Standard, _) => Observation::Captured.allowed(),
                (Variant::Observe, Some(k)) => KindSet::single(k),
                (Variant::Observe, None) => {
                    self.s = before;
                    return Err(IllegalMove::BadOutcome);
                }
            };
            if self.narrow(q, narrowing).is_err() {
                match self.variant {
                    Variant::Standard => {
                        // Only the king remains possible: the capturer wins (seed: 玉に確定した駒を取った).
                        let ok = self.narrow(q, KindSet::single(Kind::King));
                        if ok.is_err() {
                            self.s = before;
                            return Err(IllegalMove::BadOutcome);
                        }
                        self.s.result = Some(GameResult::KingCapture { winner: c });
                    }
                    Variant::Observe => {
                        self.s = before;
                        return Err(IllegalMove::BadOutcome);
                    }
                }
            } else if observed == Some(Kind::King) {
                self.s.result = Some(GameResult::KingCapture { winner: c });
            }
        }
        self.s.stm = !c;
        self.history.push((before, mv));
        // As shogitter (`Kifu.checkSennichite`): only positions after moves count, not the
        // start (specs/quantum/README.md, 千日手).
        let key = self.key();
        let reps = self.keys.iter().filter(|&&k| k == key).count();
        self.keys.push(key);
        if self.s.result.is_none() && reps >= 3 {
            self.s.result = Some(GameResult::Repetition);
        }
        Ok(())
    }

    /// Takes back the last move; `None` at the start.
    pub fn undo(&mut self) -> Option<QMove> {
        let (s, mv) = self.history.pop()?;
        self.s = s;
        self.keys.pop();
        Some(mv)
    }

    /// The previous move's destination (for 同).
    pub fn last_to(&self) -> Option<Square> {
        self.history.last().map(|(_, m)| m.to())
    }

    /// shogitter's move text, e.g. `☗5三量子成`, `☖同量子`, `☗8八成量子`, `☖4四量子打`.
    /// `打` is written only when an own board piece could also move there; `不成` for an unpromoted
    /// piece moving into, within or out of the zone (as shogitter, whatever its kinds).
    pub fn move_text(&self, mv: QMove) -> String {
        let c = self.s.stm;
        let mark = if c == Color::Sente { '☗' } else { '☖' };
        let to = mv.to();
        let place = if self.last_to() == Some(to) {
            "同".to_string()
        } else {
            format!("{}{}", to.file(), KANJI_RANK[to.rank() as usize - 1])
        };
        match mv {
            QMove::Board { from, promote, .. } => {
                let promoted = self
                    .piece_at(from)
                    .is_some_and(|id| self.s.promoted >> id & 1 != 0);
                let name = if promoted { "成量子" } else { "量子" };
                let suffix = if promote {
                    "成"
                } else if !promoted && (from.relative_rank(c) <= 3 || to.relative_rank(c) <= 3) {
                    "不成"
                } else {
                    ""
                };
                format!("{mark}{place}{name}{suffix}")
            }
            QMove::Drop { .. } => {
                // Only an unpromoted quantum piece (shogitter's species `ff`) makes a drop ambiguous.
                let ambiguous = self.legal_moves().iter().any(|m| {
                    matches!(m, QMove::Board { from, to: t, .. }
                        if *t == to && self.piece_at(*from).is_some_and(|id| self.s.promoted >> id & 1 == 0))
                });
                format!("{mark}{place}量子{}", if ambiguous { "打" } else { "" })
            }
        }
    }

    /// Number of legal move sequences of length `depth` (standard variant; ended games have none).
    ///
    /// # Panics
    /// If the count passes 2^64 − 1 rather than wrap (the front ends refuse such a depth
    /// first, [`crate::rules::perft_reach`]: above 8 from the start).
    pub fn perft(&mut self, depth: u32) -> u64 {
        if depth == 0 {
            return 1;
        }
        let moves = self.legal_moves();
        if depth == 1 {
            return moves.len() as u64;
        }
        let mut n = 0;
        for m in moves {
            if self.play(m).is_ok() {
                n = add_leaves(n, self.perft(depth - 1));
                self.undo();
            }
        }
        n
    }

    /// The part of [`QuantumPosition::perft`] under the root moves (in
    /// generation order) that `shard` owns (round robin); the shards sum to the
    /// whole count. At depth 0 shard 0 has the one (empty) sequence.
    pub fn perft_shard(&mut self, depth: u32, shard: crate::shard::Shard) -> u64 {
        if depth == 0 {
            return u64::from(shard.index() == 0);
        }
        let moves = self.legal_moves();
        let mut n = 0;
        for (k, m) in moves.into_iter().enumerate() {
            if !shard.owns(k) {
                continue;
            }
            if depth == 1 {
                n = add_leaves(n, 1);
            } else if self.play(m).is_ok() {
                n = add_leaves(n, self.perft(depth - 1));
                self.undo();
            }
        }
        n
    }

    /// [`QuantumPosition::perft`] that gives up once `stop()` says so (`None`), checked at
    /// every node above the last ply: for a caller on another thread that must stay
    /// interruptible (Python's Ctrl-C). The position comes back unchanged either way.
    pub fn perft_until(&mut self, depth: u32, stop: &impl Fn() -> bool) -> Option<u64> {
        if stop() {
            return None;
        }
        if depth <= 1 {
            return Some(self.perft(depth));
        }
        let mut n = 0;
        for m in self.legal_moves() {
            if self.play(m).is_ok() {
                let leaves = self.perft_until(depth - 1, stop);
                self.undo();
                n = add_leaves(n, leaves?);
            }
        }
        Some(n)
    }

    /// [`QuantumPosition::perft_shard`] that gives up once `stop()` says so (`None`), as
    /// [`QuantumPosition::perft_until`].
    pub fn perft_shard_until(
        &mut self,
        depth: u32,
        shard: crate::shard::Shard,
        stop: &impl Fn() -> bool,
    ) -> Option<u64> {
        if depth <= 1 {
            return Some(self.perft_shard(depth, shard));
        }
        let mut n = 0;
        for (k, m) in self.legal_moves().into_iter().enumerate() {
            if shard.owns(k) && self.play(m).is_ok() {
                let leaves = self.perft_until(depth - 1, stop);
                self.undo();
                n = add_leaves(n, leaves?);
            }
        }
        Some(n)
    }

    /// The glyph of piece `id` in a diagram: its kanji once its kinds are down to one
    /// (`龍` for a promoted rook), else `量` (`成` promoted) with its kinds (`飛香`).
    fn glyph(&self, id: u8) -> Glyph {
        let info = self.piece(id);
        let dom = self.domain(id);
        let mut kinds = dom.iter();
        let single = match (kinds.next(), kinds.next()) {
            (Some(k), None) => quantum_to_rules(k, info.promoted).map(PieceKind::kanji),
            _ => None,
        };
        Glyph {
            owner: info.owner,
            label: single.unwrap_or(if info.promoted { '成' } else { '量' }),
            promoted: info.promoted,
            kinds: (dom.len() > 1).then(|| dom.iter().map(Kind::kanji).collect()),
        }
    }

    /// The position as a [`Picture`], drawn by the one board renderer
    /// ([`crate::render`]: BOD text by `Display`, SVG by `render::svg::picture_svg`).
    /// Each piece's glyph is its kanji once its kinds are down to one, else `量`
    /// (`成` when promoted) carrying its remaining kinds; a hand lists its pieces
    /// grouped by label (`量三　歩　`).
    pub fn picture(&self) -> Picture {
        let mut pic = Picture::empty();
        for sq in Square::all() {
            pic.board[sq.index()] = self.piece_at(sq).map(|id| self.glyph(id));
        }
        for c in Color::ALL {
            let mut items: Vec<HandItem> = Vec::new();
            for &id in self.hand(c) {
                let label = self.glyph(id).label.to_string();
                match items.iter_mut().find(|h| h.label == label) {
                    Some(h) => h.count += 1,
                    None => items.push(HandItem { label, count: 1 }),
                }
            }
            pic.hands[c] = items;
        }
        pic.side_to_move = self.side_to_move();
        pic.last_move = self.history.last().map(|(_, m)| match *m {
            QMove::Board { from, to, .. } => (Some(from), to),
            QMove::Drop { to, .. } => (None, to),
        });
        pic
    }

    /// The BOD text diagram of [`QuantumPosition::picture`].
    pub fn diagram(&self) -> String {
        self.picture().to_string()
    }

    /// Where piece `id` is, shogitter-style: `5三` or `☗持3` (hand entry 3).
    pub fn place(&self, id: u8) -> String {
        let i = self.piece(id);
        match i.square {
            Some(sq) => format!("{}{}", sq.file(), KANJI_RANK[sq.rank() as usize - 1]),
            None => {
                let pos = self
                    .hand(i.owner)
                    .iter()
                    .position(|&p| p == id)
                    .unwrap_or(0);
                format!(
                    "{}持{pos}",
                    if i.owner == Color::Sente {
                        '☗'
                    } else {
                        '☖'
                    }
                )
            }
        }
    }
}

/// A random game (ChaCha8 seeded with `seed`): uniformly random legal moves until the game ends or
/// `plies` are played; in the observe variant captured pieces collapse with their exact probabilities.
/// Returns the position and the observed kind of every ply (`None` where nothing was observed).
pub fn random_game(
    seed: u64,
    plies: usize,
    variant: Variant,
    engine: EngineKind,
) -> (QuantumPosition, Vec<Option<Kind>>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut p = QuantumPosition::new(engine, variant);
    let mut observed = Vec::new();
    while p.ply() < plies {
        let moves = p.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        let obs = match (variant, p.capture_distribution(mv)) {
            (Variant::Observe, Some(dist)) => {
                // Draw with the exact probabilities: a common denominator, then one integer draw.
                let den = dist.iter().fold(1u128, |l, (_, r)| lcm(l, r.denom()));
                let mut x = rng.gen_range(0..den);
                dist.iter()
                    .find(|(_, r)| {
                        let w = r.numer() * (den / r.denom());
                        if x < w {
                            true
                        } else {
                            x -= w;
                            false
                        }
                    })
                    .map(|(k, _)| *k)
            }
            _ => None,
        };
        if p.play_with(mv, obs).is_err() {
            break;
        }
        observed.push(obs);
    }
    (p, observed)
}

fn lcm(a: u128, b: u128) -> u128 {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, x % y);
    }
    a / x * b
}

/// 一..九.
pub const KANJI_RANK: [char; 9] = ['一', '二', '三', '四', '五', '六', '七', '八', '九'];

/// `n + leaves` for the quantum perft counts, which panic rather than wrap.
fn add_leaves(n: u64, leaves: u64) -> u64 {
    n.checked_add(leaves)
        .expect("the quantum perft count passed 2^64 - 1 (the front ends refuse such a depth)")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The stoppable perft counts as `perft_shard` (depths 0-2, whole and in 3 shards)
    /// A sum past 2^64 − 1 is a panic naming the count, never a wrapped number.
    #[test]
    #[should_panic(expected = "the quantum perft count passed 2^64 - 1")]
    fn a_count_past_the_largest_u64_panics_rather_than_wraps() {
        assert_eq!(super::add_leaves(u64::MAX - 1, 1), u64::MAX);
        super::add_leaves(u64::MAX, 1);
    }

    /// and gives up at once when stopped.
    #[test]
    fn perft_until_counts_as_perft_and_stops() {
        let mut p = QuantumPosition::new(EngineKind::Counting, Variant::Standard);
        let go = || false;
        for depth in 0..=2 {
            for shard in [
                crate::shard::Shard::WHOLE,
                crate::shard::Shard::new(1, 3).unwrap(),
            ] {
                assert_eq!(
                    p.perft_shard_until(depth, shard, &go),
                    Some(p.perft_shard(depth, shard)),
                    "depth {depth}"
                );
            }
            assert_eq!(p.perft_until(depth, &go), Some(p.perft(depth)));
        }
        assert_eq!(p.perft_until(2, &|| true), None);
        assert_eq!(
            p.perft_shard_until(2, crate::shard::Shard::WHOLE, &|| true),
            None
        );
    }

    #[test]
    fn the_picture_shows_every_piece_with_its_kinds() {
        for seed in 0..6 {
            let (p, _) = random_game(seed, 120, Variant::Standard, EngineKind::Counting);
            let pic = p.picture();
            for sq in Square::all() {
                let got = pic.board[sq.index()].as_ref();
                let Some(id) = p.piece_at(sq) else {
                    assert!(got.is_none(), "{sq}");
                    continue;
                };
                let g = got.expect("a glyph on an occupied square");
                let info = p.piece(id);
                let dom = p.domain(id);
                assert_eq!((g.owner, g.promoted), (info.owner, info.promoted));
                let kinds: Vec<Kind> = dom.iter().collect();
                if let [k] = kinds[..] {
                    let want = quantum_to_rules(k, info.promoted).expect("a legal state");
                    assert_eq!((g.label, g.kinds.as_deref()), (want.kanji(), None));
                } else {
                    let label = if info.promoted { '成' } else { '量' };
                    let names: String = kinds.iter().map(|k| k.kanji()).collect();
                    assert_eq!((g.label, g.kinds.as_deref()), (label, Some(names.as_str())));
                }
            }
            for c in Color::ALL {
                let n: usize = pic.hands[c].iter().map(|h| h.count as usize).sum();
                assert_eq!(n, p.hand(c).len());
            }
            assert_eq!(pic.side_to_move, p.side_to_move());
            assert_eq!(pic.last_move.map(|l| l.1), p.last_to());
            let bod = pic.to_string();
            assert_eq!(bod, p.diagram());
            assert_eq!(bod.lines().filter(|l| l.starts_with('|')).count(), 9);
        }
        let start = QuantumPosition::default().picture();
        assert_eq!(start.board.iter().flatten().count(), 40);
        assert!(start
            .board
            .iter()
            .flatten()
            .all(|g| g.label == '量' && g.kinds.as_deref() == Some("玉飛角金銀桂香歩")));
    }

    #[test]
    fn start_has_legal_moves_and_text_round_trips() {
        let p = QuantumPosition::default();
        let moves = p.legal_moves();
        assert!(!moves.is_empty());
        for m in &moves {
            assert_eq!(m.to_string().parse::<QMove>().as_ref(), Ok(m));
        }
        assert!("h2*4d".parse::<QMove>().is_ok());
        assert!("5g5".parse::<QMove>().is_err());
        // The pawn-rank piece on 5七 can go straight up to 5三 (lance or rook) and capture.
        let m: QMove = "5g5c+".parse().unwrap();
        assert!(moves.contains(&m));
        assert_eq!(p.move_text(m), "☗5三量子成");
        // No drops at the start, and nothing moves onto an own piece.
        assert!(moves.iter().all(|m| matches!(m, QMove::Board { .. })));
        assert!(!moves.contains(&"8i7g".parse().unwrap()));
    }

    #[test]
    fn capture_observes_and_undo_restores() {
        let mut p = QuantumPosition::default();
        let start = p.clone();
        p.play("5g5c+".parse().unwrap()).unwrap();
        assert_eq!(
            p.world(Color::Sente).world.0[0],
            KindSet::of(&[Kind::Rook, Kind::Lance])
        );
        assert_eq!(
            p.world(Color::Gote).world.0[0],
            KindSet::ALL.minus(KindSet::single(Kind::King))
        );
        assert_eq!(p.hand(Color::Sente).len(), 1);
        p.undo();
        assert_eq!(p, start);
    }

    #[test]
    fn fourth_repetition_is_a_draw() {
        let mut p = QuantumPosition::default();
        let cycle = ["5g5f", "5c5d", "5f5g", "5d5c"];
        for round in 0..3 {
            for (j, m) in cycle.iter().enumerate() {
                assert_eq!(p.result(), None, "round {round} move {j}");
                p.play(m.parse().unwrap()).unwrap();
            }
        }
        // The start position is on the board for the 4th time, but only the 3rd time
        // after a move: shogitter (and we) count positions after moves only.
        assert_eq!(p.result(), None);
        // The position after 5g5f has now occurred 4 times after a move: ply 13.
        p.play(cycle[0].parse().unwrap()).unwrap();
        assert_eq!(p.ply(), 13);
        assert_eq!(p.result(), Some(GameResult::Repetition));
        assert!(p.legal_moves().is_empty());
        assert_eq!(p.play("5g5f".parse().unwrap()), Err(IllegalMove::GameOver));
        p.undo();
        assert_eq!(p.result(), None);
    }

    #[test]
    fn observe_variant_collapses_captured_piece() {
        let m: QMove = "5g5c+".parse().unwrap();
        let p = QuantumPosition::new(EngineKind::Counting, Variant::Observe);
        let dist = p.capture_distribution(m).unwrap();
        let mut sum = super::super::ratio::Ratio::ZERO;
        for (_, r) in &dist {
            sum = sum.checked_add(*r).unwrap();
        }
        assert_eq!(sum, super::super::ratio::Ratio::ONE);
        assert_eq!(
            dist.iter().find(|(k, _)| *k == Kind::King).map(|(_, r)| *r),
            super::super::ratio::Ratio::new(1, 20)
        );
        let mut q = p.clone();
        assert_eq!(q.play(m), Err(IllegalMove::BadOutcome));
        assert_eq!(q, p);
        q.play_with(m, Some(Kind::Pawn)).unwrap();
        assert_eq!(q.world(Color::Gote).world.0[0], KindSet::single(Kind::Pawn));
        assert_eq!(q.result(), None);
        let mut k = p.clone();
        k.play_with(m, Some(Kind::King)).unwrap();
        assert_eq!(
            k.result(),
            Some(GameResult::KingCapture {
                winner: Color::Sente
            })
        );
    }

    #[test]
    fn illegal_moves_leave_the_position_unchanged() {
        let mut p = QuantumPosition::default();
        let start = p.clone();
        for m in ["5g5b", "5i5g", "5g5f+", "h0*5e", "5c5d", "8i7g"] {
            assert!(p.play(m.parse().unwrap()).is_err(), "{m}");
            assert_eq!(p, start);
        }
    }
}
