//! `diff perft`: another program's perft counts against ours on walk positions;
//! a disagreement is followed down the tree (perft divide: the subcounts of our moves
//! compared, the first that differs entered) to a position whose counts at depth 1
//! differ — there the move lists differ, and the path to it is then shrunk as `diff
//! moves` shrinks its paths ([`super::diff_moves::shrink_by`], depth-1 counts compared) —
//! or to the shallowest position where the counts differ although the numbers of moves
//! and every subcount of our moves agree (then the program's move list there has a move
//! in place of one of ours, or its count is not the sum over its moves).
//!
//! Protocol: the program reads `<depth> <SFEN>` a line and prints the count a line.

use super::diff_moves::shrink_by;
use super::engine::{EngineError, LineEngine};
use super::walk::{random_walk, replay, start_of, Starts};
use crate::notation::sfen::write_sfen;
use crate::rules::{perft, Move, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Where the descent of [`diff_perft`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Localised {
    /// The numbers of legal moves differ at the position (depth 1): the move lists differ
    /// there. The path to it is shrunk.
    MoveCount,
    /// The count differs at the position at depth 2 or more, but the numbers of moves
    /// agree there and so does each of our moves' subcount at one ply less: the program
    /// lists a move we do not in place of one we do, or its count is not the sum over its
    /// moves. The path is not shrunk (each candidate would cost a deep count).
    ChildrenAgree,
}

impl Localised {
    /// The word in the JSON report (`localised`).
    pub const fn name(self) -> &'static str {
        match self {
            Localised::MoveCount => "move-count",
            Localised::ChildrenAgree => "children-agree",
        }
    }
}

/// Where two perft counts differ.
#[derive(Debug, Clone)]
pub struct PerftMismatch {
    /// The walk's start.
    pub start: Position,
    /// The moves from the start to the position.
    pub path: Vec<Move>,
    /// The position (SFEN).
    pub sfen: String,
    /// The depth at which the counts differ there.
    pub depth: u32,
    /// Our count.
    pub ours: u64,
    /// The program's count (`None` if its answer was not a number).
    pub theirs: Option<u64>,
    /// The program's answer line as it printed it (without its line end).
    pub answer: String,
    /// Where the descent ended.
    pub localised: Localised,
    /// The path's length before shrinking: the walk's moves to the first position whose
    /// counts differed, then the moves of the descent.
    pub unshrunk_plies: usize,
}

/// The result of [`diff_perft`].
#[derive(Debug, Clone)]
pub struct PerftReport {
    /// Positions compared at the full depth.
    pub positions: usize,
    /// Our leaves summed over them (a `u128`: a million counts below 2^64 cannot
    /// overflow it).
    pub nodes: u128,
    /// Positions whose counts differ.
    pub mismatches: usize,
    /// The first mismatch, followed down the tree; `None` when all agree.
    pub first: Option<PerftMismatch>,
}

/// The program's answer lines to `<depth> <SFEN>` for each position.
fn ask_counts(
    engine: &LineEngine,
    depth: u32,
    positions: &[Position],
) -> Result<Vec<String>, EngineError> {
    let lines: Vec<String> = positions
        .iter()
        .map(|p| format!("{depth} {}", write_sfen(p)))
        .collect();
    engine.ask(&lines)
}

/// The count an answer line gives (surrounding blanks allowed), `None` if it is not a
/// number.
fn count(answer: &str) -> Option<u64> {
    answer.trim().parse().ok()
}

/// Compares perft at `depth` on `positions` walk positions (seeded by `seed`, one every
/// few plies of each walk, the walks from `starts`).
///
/// # Errors
/// [`EngineError`] if the program fails.
pub fn diff_perft(
    engine: &LineEngine,
    depth: u32,
    positions: usize,
    seed: u64,
    starts: Starts,
) -> Result<PerftReport, EngineError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut items: Vec<(Position, Vec<Move>)> = Vec::new();
    let mut w = 0;
    while items.len() < positions {
        let s = start_of(starts, w);
        w += 1;
        let moves = random_walk(&s, rng.gen_range(0..120), &mut rng);
        let mut ply = rng.gen_range(0..=moves.len().min(10));
        while ply <= moves.len() && items.len() < positions {
            items.push((s.clone(), moves[..ply].to_vec()));
            ply += rng.gen_range(8..30);
        }
    }
    let tips: Vec<Position> = items
        .iter()
        .map(|(s, p)| replay(s, p).expect("walks are legal"))
        .collect();
    let theirs = ask_counts(engine, depth, &tips)?;
    let mut report = PerftReport {
        positions: tips.len(),
        nodes: 0,
        mismatches: 0,
        first: None,
    };
    let mut first = None;
    for (i, tip) in tips.iter().enumerate() {
        let ours = perft(&mut tip.clone(), depth);
        report.nodes += u128::from(ours);
        if count(&theirs[i]) != Some(ours) {
            report.mismatches += 1;
            first.get_or_insert(i);
        }
    }
    if let Some(i) = first {
        let (s, path) = &items[i];
        let found = descend(engine, s, path.clone(), depth)?;
        report.first = Some(match found.localised {
            Localised::MoveCount => shrunk(engine, found)?,
            Localised::ChildrenAgree => found,
        });
    }
    Ok(report)
}

/// A depth-1 mismatch with its path shrunk: the shortest path [`shrink_by`] finds from the
/// start to a position whose number of legal moves the program gets wrong.
fn shrunk(engine: &LineEngine, found: PerftMismatch) -> Result<PerftMismatch, EngineError> {
    let (path, _) = shrink_by(&found.start, &found.path, |positions| {
        let answers = ask_counts(engine, 1, positions)?;
        Ok(positions
            .iter()
            .zip(&answers)
            .map(|(p, a)| count(a) != Some(p.count_legal_moves() as u64))
            .collect())
    })?;
    let pos = replay(&found.start, &path).expect("shrunk paths are legal");
    let answer = ask_counts(engine, 1, std::slice::from_ref(&pos))?.remove(0);
    Ok(PerftMismatch {
        path,
        sfen: write_sfen(&pos),
        depth: 1,
        ours: pos.count_legal_moves() as u64,
        theirs: count(&answer),
        answer,
        ..found
    })
}

/// From a position whose counts differ at `depth`, goes down through a child whose
/// counts differ at `depth - 1` until depth 1 or until every child agrees.
fn descend(
    engine: &LineEngine,
    start: &Position,
    mut path: Vec<Move>,
    mut depth: u32,
) -> Result<PerftMismatch, EngineError> {
    loop {
        let pos = replay(start, &path).expect("legal");
        let ours = perft(&mut pos.clone(), depth);
        let answer = ask_counts(engine, depth, std::slice::from_ref(&pos))?.remove(0);
        let here = PerftMismatch {
            start: start.clone(),
            path: path.clone(),
            sfen: write_sfen(&pos),
            depth,
            ours,
            theirs: count(&answer),
            answer,
            localised: Localised::ChildrenAgree,
            unshrunk_plies: path.len(),
        };
        if depth == 1 {
            return Ok(PerftMismatch {
                localised: Localised::MoveCount,
                ..here
            });
        }
        // The depth-1 lists already differ here: the shallowest evidence.
        let d1 = ask_counts(engine, 1, std::slice::from_ref(&pos))?.remove(0);
        if count(&d1) != Some(pos.legal_moves().len() as u64) {
            return Ok(PerftMismatch {
                depth: 1,
                ours: pos.legal_moves().len() as u64,
                theirs: count(&d1),
                answer: d1,
                localised: Localised::MoveCount,
                ..here
            });
        }
        let moves = pos.legal_moves();
        let children: Vec<Position> = moves
            .iter()
            .map(|&m| {
                let mut c = pos.clone();
                c.play_unchecked(m);
                c
            })
            .collect();
        let answers = ask_counts(engine, depth - 1, &children)?;
        let bad = children
            .iter()
            .zip(&answers)
            .position(|(c, a)| count(a) != Some(perft(&mut c.clone(), depth - 1)));
        match bad {
            Some(j) => {
                path.push(moves[j]);
                depth -= 1;
            }
            None => return Ok(here),
        }
    }
}
