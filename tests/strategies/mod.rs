//! Generators shared by the integration tests: positions built by random
//! legal playouts (valid by construction).
#![allow(dead_code)]

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use shogi_lab::notation::sfen::parse_position;
use shogi_lab::rules::{Position, Rules};

/// Start positions for playouts: the usual start, drop-heavy and promotion-heavy positions.
pub const STARTS: &[&str] = &[
    "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
    "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
    "4k4/9/9/9/9/9/9/9/4K4 b RBGSNLPrbgsnlp 1",
    "8k/9/7GP/9/9/9/9/9/K8 b Pp 1",
];

/// Plays `plies` random legal moves from `STARTS[start % len]`, preferring captures and checks a little
/// so that hands fill up; stops early at mate.
pub fn playout(start: usize, seed: u64, plies: usize) -> Position {
    playout_line(start, seed, plies).2
}

/// [`playout`] with its start position and the moves played: (start, line, end).
pub fn playout_line(
    start: usize,
    seed: u64,
    plies: usize,
) -> (Position, Vec<shogi_lab::rules::Move>, Position) {
    let first =
        parse_position(STARTS[start % STARTS.len()], Rules::STANDARD).expect("start is legal");
    let mut pos = first.clone();
    let mut line = Vec::new();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        let captures: Vec<_> = moves
            .iter()
            .copied()
            .filter(|m| pos.piece_at(m.to()).is_some())
            .collect();
        let m = if !captures.is_empty() && rng.gen_bool(0.5) {
            captures[rng.gen_range(0..captures.len())]
        } else {
            moves[rng.gen_range(0..moves.len())]
        };
        pos.play_unchecked(m);
        line.push(m);
    }
    (first, line, pos)
}

/// Positions from random playouts of 0–160 plies.
pub fn position() -> impl Strategy<Value = Position> {
    (0..STARTS.len(), any::<u64>(), 0usize..160).prop_map(|(s, seed, n)| playout(s, seed, n))
}

/// A random game of up to `len` plies from the start: (start position, moves).
pub fn game(seed: u64, len: usize) -> (Position, Vec<shogi_lab::rules::Move>) {
    let start = Position::startpos();
    let mut p = start.clone();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves = Vec::new();
    for _ in 0..len {
        let legal = p.legal_moves();
        if legal.is_empty() {
            break;
        }
        let m = legal[rng.gen_range(0..legal.len())];
        p.play(m).expect("legal");
        moves.push(m);
    }
    (start, moves)
}
