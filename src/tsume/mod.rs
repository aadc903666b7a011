//! df-pn checkmate (詰将棋) solver.
//!
//! Depth-first proof-number search (Nagai 2002) with the threshold
//! controlling algorithm TCA (Kishimoto & Müller; Kishimoto 2010), as laid out
//! in seed `002_c06e8a0a879c6957.txt`, over a small [`MatePosition`] trait.
//! Proof numbers at AND nodes and disproof numbers at OR nodes are *weak*
//! (Ueda et al. 2008: max + number of other open children), which keeps the
//! DAG double counting of seed `004_d068d5324a939a29.txt` from blowing up;
//! every OR node also runs the 1-ply mate check of that seed.
//!
//! The transposition table ([`table`]) is bounded, keyed by board hash and
//! stores the attacker's hand; lookups use hand superiority (優越, seed
//! `001_6ac4b9bdc74d4693.txt`). Repetitions are path-dependent: reaching a
//! position already on the path is a failure for the attacker (連続王手の千日手),
//! and a disproof that leans on an ancestor above the node is never stored
//! (GHI-safe).
//!
//! Every mate is returned as a line that [`checker::verify_mate_line`] replays
//! with the rules core; [`naive`] is the exhaustive minimax twin.
//!
//! ```
//! use shogi_lab::tsume::{load_problem, solve, DefenderHand, Outcome, SolverOptions};
//!
//! // 1-move mate: ▲1二金 (G*1b).
//! let pos = load_problem("8k/9/8P/9/9/9/9/9/9 b G 1", DefenderHand::Remaining).unwrap();
//! let r = solve(&pos, &SolverOptions::default());
//! assert_eq!(r.outcome, Outcome::Mate);
//! assert_eq!(r.line_usi(), "G*1b");
//! ```

pub mod certificate;
pub mod checker;
mod control;
pub mod dfpn;
mod key_hash;
pub mod naive;
pub mod position;
pub mod problems;
pub mod table;
pub mod usi;

pub use control::{
    plies, watched, watched_with, Control, MateBounds, Phase, ProvenLine, SearchControl,
};
pub use dfpn::{solve, try_solve, Outcome, SolveResult, Solver, Stats};

pub use position::{load_problem, DefenderHand, ProblemError};

use crate::rules::{Color, Hand, PieceKind};
use std::fmt;

/// A position the solver can search: the attacker gives check on every move.
///
/// `rules::Position` implements it; a quantum position may later.
pub trait MatePosition: Clone {
    /// A move.
    type Move: Copy + Eq + fmt::Debug + fmt::Display;
    /// The side to move.
    fn side_to_move(&self) -> Color;
    /// A hash of the board and the side to move (not the hands).
    fn board_key(&self) -> u64;
    /// A hash of the whole position (board, side to move, hands) for repetition.
    fn position_key(&self) -> u64;
    /// The hand of `color`.
    fn hand_of(&self, color: Color) -> Hand;
    /// Whether the side to move is in check.
    fn in_check(&self) -> bool;
    /// Appends every legal move of the side to move that gives check.
    fn checks(&self, out: &mut Vec<Self::Move>);
    /// The number of moves [`MatePosition::checks`] appends (the solver's first disproof
    /// number of a new node). The default generates them; an implementation may count.
    fn check_count(&self) -> u32 {
        let mut moves = Vec::new();
        self.checks(&mut moves);
        moves.len() as u32
    }
    /// Appends every legal move of the side to move (used when it is in check).
    fn evasions(&self, out: &mut Vec<Self::Move>);
    /// The legal moves of the side to move counted as the solver's first proof number of
    /// a defender: moves other than drops, plus the squares drops can go to, each once.
    /// The default counts [`MatePosition::evasions`]; an implementation may count
    /// without generating.
    fn reply_count(&self) -> u32 {
        let mut moves = Vec::new();
        self.evasions(&mut moves);
        let mut squares = 0u128;
        let mut n = 0u32;
        for &m in &moves {
            match Self::drop_square(m) {
                None => n += 1,
                Some(s) => squares |= 1u128 << s,
            }
        }
        n + squares.count_ones()
    }
    /// Whether the side to move, in check, has a legal reply that does not interpose
    /// ([`MatePosition::interposes`]): out of plies, such a reply refutes the attacker
    /// whatever the hands, while an interposition may be 無駄合. The default generates the
    /// replies; an implementation may test without generating.
    fn has_reply_besides_interposition(&self) -> bool {
        let mut moves = Vec::new();
        self.evasions(&mut moves);
        moves.iter().any(|&m| !self.interposes(m))
    }
    /// For a drop, the index of its destination square (the solver orders interpositions by
    /// square and opens them one at a time).
    fn drop_square(m: Self::Move) -> Option<u8>;
    /// For a legal move about to be played: the hand kind it drops and the hand kind it
    /// captures (unpromoted), for proof pieces (証明駒).
    fn hand_delta(&self, m: Self::Move) -> (Option<PieceKind>, Option<PieceKind>);
    /// Whether the side to move is in check by one piece with empty squares between it and
    /// the king (a drop could interpose there).
    fn interposable(&self) -> bool;
    /// For df-pn+ initial proof numbers (Nagai 2002): how many of the defender's pieces
    /// (king included) reach the destination of `m`, a move about to be played.
    fn defenders_of(&self, m: Self::Move) -> u32;
    /// How many pieces of the side to move (king included) reach the destination of `m`.
    fn guards_of(&self, m: Self::Move) -> u32;
    /// Chebyshev distance from the side to move's king to square `sq` (0 without a king).
    fn king_distance(&self, sq: u8) -> u8;
    /// 無駄合 (futile interposition; definition 1 of `specs/tsume.md`): if `m`, a reply of
    /// the side to move, interposes on the line of a single sliding checker, the positions
    /// after `m` and each legal recapture by that checker that gives check, with the
    /// captured piece moved from the attacker's hand back to the defender's (the attacker
    /// "does not use it"). Empty when `m` is no interposition.
    fn futility_tests(&self, m: Self::Move) -> Vec<Self>;
    /// Whether the reply `m` interposes on the line of a single distant checker (a king
    /// move never does): the replies [`MatePosition::futility_tests`] may find futile.
    fn interposes(&self, m: Self::Move) -> bool;
    /// After the legal move `m`: its [`MatePosition::board_key`],
    /// [`MatePosition::position_key`] and the hand of `attacker`, as `play(m)` would give
    /// them. The default plays and takes back; an implementation may compute them
    /// without playing (the solver looks children up in its table this way).
    fn keys_after(&mut self, m: Self::Move, attacker: Color) -> (u64, u64, Hand) {
        self.play(m);
        let out = (
            self.board_key(),
            self.position_key(),
            self.hand_of(attacker),
        );
        self.undo();
        out
    }
    /// Plays a legal move.
    fn play(&mut self, m: Self::Move);
    /// Takes back the last move.
    fn undo(&mut self);
    /// The independent certificate check of a mate line from this position
    /// (for `rules::Position`: [`checker::verify_mate_line`]).
    ///
    /// # Errors
    /// [`checker::LineError`] naming the first bad ply.
    fn check_mate_line(&self, line: &[Self::Move]) -> Result<(), checker::LineError>;
}

/// Proof and disproof numbers (Allis 1994), saturating at [`ProofNumbers::INF`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ProofNumbers {
    /// Proof number: how hard it looks to prove the mate.
    pub pn: u32,
    /// Disproof number: how hard it looks to refute it.
    pub dn: u32,
}

impl ProofNumbers {
    /// Infinity.
    pub const INF: u32 = u32::MAX;
    /// A proven node.
    pub const PROVEN: ProofNumbers = ProofNumbers {
        pn: 0,
        dn: Self::INF,
    };
    /// A disproven node.
    pub const DISPROVEN: ProofNumbers = ProofNumbers {
        pn: Self::INF,
        dn: 0,
    };
    /// A fresh leaf.
    pub const LEAF: ProofNumbers = ProofNumbers { pn: 1, dn: 1 };
    /// Thresholds that never stop a search: solve completely (or until a limit).
    pub const NO_THRESHOLD: ProofNumbers = ProofNumbers {
        pn: ProofNumbers::INF,
        dn: ProofNumbers::INF,
    };
    /// Whether proven.
    pub const fn is_proven(self) -> bool {
        self.pn == 0
    }
    /// Whether disproven.
    pub const fn is_disproven(self) -> bool {
        self.dn == 0
    }
    /// Whether proven or disproven.
    pub const fn is_solved(self) -> bool {
        self.pn == 0 || self.dn == 0
    }
}

/// The longest time limit front ends accept, in seconds (`tsume --time`, Python's
/// `tsume.solve(time=…)`): about 31 years, far beyond any search, and well inside what
/// [`std::time::Duration`] and [`std::time::Instant`] can hold.
pub const MAX_TIME_SECS: f64 = 1e9;

/// Limits of one search.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolverOptions {
    /// Stop after this many nodes (`None`: no limit).
    pub nodes: Option<u64>,
    /// Stop after this much wall-clock time (`None`: no limit). Reading off a proven line
    /// is not bounded by the clock, so a mate proven in time is never lost to it.
    pub time: Option<std::time::Duration>,
    /// Transposition table size in MiB (bounded; full clusters replace their least-searched entry).
    pub memory_mib: usize,
    /// Answer the solution: the proven-shortest mate (攻方最短・玉方最長, 無駄合 not counted;
    /// `specs/tsume.md`). `false`: the first proof found, any length (`--any-mate`).
    pub shortest: bool,
    /// Count 無駄合 (futile interpositions) as replies and plies, the convention of
    /// KomoringHeights' MinLength and of the 詰将棋500万問 data (`specs/tsume.md`); the
    /// default (`false`) neither counts nor shows them, as composed problems do.
    pub count_futile: bool,
    /// Look for other mating first moves (余詰) with this many nodes each (0: off).
    pub alt_nodes: u64,
    /// Only look for mates of at most this many plies (`None`: any length). A refutation
    /// within the limit is reported in `no_mate_within`, never as [`Outcome::NoMate`].
    pub max_plies: Option<u16>,
    /// A handle another thread uses to stop the search and watch its progress (a USI
    /// front end's `stop`/`quit`, Python's Ctrl-C): polled every 1024 nodes, and at every
    /// node while a line is read ([`SearchControl::stop`]).
    pub control: Option<Control>,
}

impl Default for SolverOptions {
    fn default() -> Self {
        SolverOptions {
            nodes: None,
            time: None,
            memory_mib: 256,
            shortest: true,
            count_futile: false,
            alt_nodes: 0,
            max_plies: None,
            control: None,
        }
    }
}
