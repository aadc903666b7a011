//! `diff moves`: another program's legal moves against ours on the positions of
//! seeded random walks (from game starts, or tsume starts without the attacker's king);
//! a disagreement is shrunk to a short move path from the walk's start that still
//! reaches a disagreement.
//!
//! Protocol: the program reads one SFEN a line on stdin and prints that
//! position's legal moves in USI, separated by spaces, one line per position
//! (an empty line when there are none); order does not matter, but a move listed
//! twice is a disagreement (it would be counted twice in perft).
//!
//! Shrinking (in the spirit of delta debugging, Zeller 2002): from the path to
//! the first disagreement, every path obtained by cutting it short, by deleting a
//! block of consecutive moves of even length (an odd block would hand the remaining
//! moves to the other side), or by deleting two moves of opposite sides, is replayed;
//! those that stay legal are asked in one batch, the shortest that still disagrees is
//! kept, and this repeats until none disagrees. What the result guarantees is
//! [`shrink`]'s contract; it is not a shortest path from the start (that would need a
//! search over all move sequences).

use super::engine::{EngineError, LineEngine};
use super::walk::{random_walk, replay, start_of, Starts};
use crate::notation::sfen::write_sfen;
use crate::rules::{Move, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::BTreeSet;

/// A position where the two move lists differ.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MoveMismatch {
    /// The walk's start.
    pub start: Position,
    /// The moves from the start to the position.
    pub path: Vec<Move>,
    /// The position (SFEN).
    pub sfen: String,
    /// Legal here, but not listed by the program (USI, sorted).
    pub missing: Vec<String>,
    /// Listed by the program, but not legal here (USI, sorted).
    pub extra: Vec<String>,
    /// Listed by the program more than once (USI, sorted, each once): a generator that
    /// makes a move twice counts it twice in perft.
    pub duplicated: Vec<String>,
}

/// The result of [`diff_moves`].
#[derive(Debug, Clone)]
pub struct MovesReport {
    /// Positions compared.
    pub positions: usize,
    /// Walks they came from.
    pub walks: usize,
    /// Legal moves compared (ours, summed).
    pub moves: usize,
    /// Positions that differ.
    pub mismatches: usize,
    /// The first mismatch, shrunk; `None` when all agree.
    pub first: Option<MoveMismatch>,
    /// The first mismatch's path length before shrinking.
    pub unshrunk_plies: usize,
    /// Positions asked while shrinking.
    pub shrink_positions: usize,
}

/// Our legal moves as sorted USI strings.
pub fn our_moves(pos: &Position) -> Vec<String> {
    let mut v: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    v.sort();
    v
}

/// How a program's move list differs from ours at one position.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
struct MoveDiff {
    /// Legal, not listed.
    missing: Vec<String>,
    /// Listed, not legal.
    extra: Vec<String>,
    /// Listed more than once.
    duplicated: Vec<String>,
}

/// The difference between our legal moves at `pos` and the program's `answer` line;
/// `None` when it lists each legal move exactly once and nothing else.
fn compare(pos: &Position, answer: &str) -> Option<MoveDiff> {
    let ours: BTreeSet<String> = our_moves(pos).into_iter().collect();
    let mut theirs = BTreeSet::new();
    let mut duplicated = BTreeSet::new();
    for m in answer.split_whitespace() {
        if !theirs.insert(m.to_string()) {
            duplicated.insert(m.to_string());
        }
    }
    if ours == theirs && duplicated.is_empty() {
        return None;
    }
    Some(MoveDiff {
        missing: ours.difference(&theirs).cloned().collect(),
        extra: theirs.difference(&ours).cloned().collect(),
        duplicated: duplicated.into_iter().collect(),
    })
}

/// Compares `engine`'s legal moves with ours on `positions` distinct positions from
/// random walks (seeded by `seed`, each walk 20–219 plies from [`super::walk::STARTS`],
/// or with [`Starts::Tsume`] from [`super::walk::TSUME_STARTS`], the attacker without a
/// king).
///
/// # Errors
/// [`EngineError`] if the program fails.
pub fn diff_moves(
    engine: &LineEngine,
    positions: usize,
    seed: u64,
    starts: Starts,
) -> Result<MovesReport, EngineError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut seen = std::collections::HashSet::new();
    // (walk index, ply) of each asked position, in order.
    let mut asked: Vec<(usize, usize)> = Vec::new();
    let mut sfens = Vec::new();
    let mut walks: Vec<(Position, Vec<Move>)> = Vec::new();
    while asked.len() < positions {
        let w = walks.len();
        let s = start_of(starts, w);
        let plies = rng.gen_range(20..220);
        let moves = random_walk(&s, plies, &mut rng);
        let mut pos = s.clone();
        for ply in 0..=moves.len() {
            if asked.len() >= positions {
                break;
            }
            let sfen = write_sfen(&pos);
            // Distinct positions: the SFEN without its move number.
            let without_number = sfen
                .rsplit_once(' ')
                .map_or(sfen.clone(), |x| x.0.to_string());
            if seen.insert(without_number) {
                asked.push((w, ply));
                sfens.push(sfen);
            }
            if ply < moves.len() {
                pos.play_unchecked(moves[ply]);
            }
        }
        walks.push((s, moves));
    }
    let answers = engine.ask(&sfens)?;
    let mut report = MovesReport {
        positions: asked.len(),
        walks: walks.len(),
        moves: 0,
        mismatches: 0,
        first: None,
        unshrunk_plies: 0,
        shrink_positions: 0,
    };
    let mut first: Option<(usize, usize)> = None;
    for (i, &(w, ply)) in asked.iter().enumerate() {
        let (s, moves) = &walks[w];
        let pos = replay(s, &moves[..ply]).expect("walks are legal");
        report.moves += pos.legal_moves().len();
        if compare(&pos, &answers[i]).is_some() {
            report.mismatches += 1;
            first.get_or_insert((w, ply));
        }
    }
    if let Some((w, ply)) = first {
        let (s, moves) = &walks[w];
        report.unshrunk_plies = ply;
        let (path, asked_while_shrinking) = shrink(engine, s, &moves[..ply])?;
        report.shrink_positions = asked_while_shrinking;
        let pos = replay(s, &path).expect("shrunk paths are legal");
        let answer = engine.ask(&[write_sfen(&pos)])?;
        let d = compare(&pos, &answer[0]).unwrap_or_default();
        report.first = Some(MoveMismatch {
            start: s.clone(),
            sfen: write_sfen(&pos),
            path,
            missing: d.missing,
            extra: d.extra,
            duplicated: d.duplicated,
        });
    }
    Ok(report)
}

/// The candidate paths one shrinking round tries: every proper prefix; for paths up to
/// [`PAIR_LIMIT`] plies every deletion of a block of consecutive moves of even length and
/// every deletion of two moves of opposite sides (indices `i < j`, `j − i` odd), for
/// longer paths every deletion of a block of 2, 4, 8, … moves.
fn candidates(path: &[Move]) -> Vec<Vec<Move>> {
    let mut out: Vec<Vec<Move>> = (0..path.len()).map(|n| path[..n].to_vec()).collect();
    if path.len() <= PAIR_LIMIT {
        for i in 0..path.len() {
            for j in (i + 1..path.len()).step_by(2) {
                let c: Vec<Move> = path
                    .iter()
                    .enumerate()
                    .filter(|&(k, _)| k != i && k != j)
                    .map(|(_, &m)| m)
                    .collect();
                out.push(c);
            }
        }
    }
    let mut block = 2;
    while block <= path.len() {
        for i in 0..=path.len() - block {
            let mut c = path[..i].to_vec();
            c.extend_from_slice(&path[i + block..]);
            out.push(c);
        }
        block = if path.len() <= PAIR_LIMIT {
            block + 2
        } else {
            block * 2
        };
    }
    out
}

/// Longest path whose even-block and two-move deletions are all tried (about `n²/2`
/// candidates a round, asked in one batch).
pub const PAIR_LIMIT: usize = 160;

/// Shrinks a disagreeing path from `start`: returns the shrunk path and the number of
/// positions asked.
///
/// Contract (for a program whose answers depend only on the position asked): the
/// returned path `P` is legal from `start`, the program disagrees with us at its end,
/// and — asked in the last round — no path that is legal from `start` and obtained
/// from `P` by
/// 1. cutting it short (so `P`'s end is the first disagreement along `P`), or, when
///    `P` has at most [`PAIR_LIMIT`] plies,
/// 2. deleting any block of consecutive moves of even length, or
/// 3. deleting two moves of opposite sides,
///
/// reaches a disagreement (1-minimal for these deletions; longer paths: blocks of
/// 2, 4, 8, … only). Each round keeps the shortest disagreeing candidate. `P` need not
/// be a shortest disagreeing path from `start`: paths that differ from it by other
/// moves, or by deleting three or more scattered moves, are not tried.
///
/// # Errors
/// [`EngineError`] if the program fails.
pub fn shrink(
    engine: &LineEngine,
    start: &Position,
    path: &[Move],
) -> Result<(Vec<Move>, usize), EngineError> {
    shrink_by(start, path, |positions| {
        let sfens: Vec<String> = positions.iter().map(write_sfen).collect();
        let answers = engine.ask(&sfens)?;
        Ok(positions
            .iter()
            .zip(&answers)
            .map(|(p, a)| compare(p, a).is_some())
            .collect())
    })
}

/// [`shrink`] with another test of disagreement: `disagree(positions)` says, for each
/// position, whether the program disagrees with us there (asked once a round, with every
/// legal candidate; `diff perft` asks depth-1 counts). The same contract, with
/// "disagrees" meaning what `disagree` says.
///
/// # Errors
/// What `disagree` returns.
pub fn shrink_by(
    start: &Position,
    path: &[Move],
    mut disagree: impl FnMut(&[Position]) -> Result<Vec<bool>, EngineError>,
) -> Result<(Vec<Move>, usize), EngineError> {
    let mut best = path.to_vec();
    let mut asked = 0;
    loop {
        let mut tried = std::collections::HashSet::new();
        let mut cands: Vec<(Vec<Move>, Position)> = candidates(&best)
            .into_iter()
            .filter(|c| tried.insert(c.clone()))
            .filter_map(|c| replay(start, &c).map(|p| (c, p)))
            .collect();
        cands.sort_by_key(|(c, _)| c.len());
        if cands.is_empty() {
            return Ok((best, asked));
        }
        let positions: Vec<Position> = cands.iter().map(|(_, p)| p.clone()).collect();
        let answers = disagree(&positions)?;
        asked += positions.len();
        let shorter = cands
            .iter()
            .zip(&answers)
            .find(|((c, _), &differs)| c.len() < best.len() && differs);
        match shorter {
            Some(((c, _), _)) => best = c.clone(),
            None => return Ok((best, asked)),
        }
    }
}
