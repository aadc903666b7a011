//! `diff perft`: another program's perft counts against ours on walk positions;
//! a disagreement is followed down the tree (divide) to a position whose counts
//! at depth 1 differ, or to the shallowest position where the counts differ
//! although every child agrees (then the program's move list there is wrong).
//!
//! Protocol: the program reads `<depth> <SFEN>` a line and prints the count a line.

use super::engine::{EngineError, LineEngine};
use super::walk::{random_walk, replay, start};
use crate::notation::sfen::write_sfen;
use crate::rules::{perft, Move, Position};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

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
}

/// The result of [`diff_perft`].
#[derive(Debug, Clone)]
pub struct PerftReport {
    /// Positions compared at the full depth.
    pub positions: usize,
    /// Our leaves summed over them.
    pub nodes: u64,
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
/// few plies of each walk).
///
/// # Errors
/// [`EngineError`] if the program fails.
pub fn diff_perft(
    engine: &LineEngine,
    depth: u32,
    positions: usize,
    seed: u64,
) -> Result<PerftReport, EngineError> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut items: Vec<(Position, Vec<Move>)> = Vec::new();
    let mut w = 0;
    while items.len() < positions {
        let s = start(w);
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
        report.nodes += ours;
        if count(&theirs[i]) != Some(ours) {
            report.mismatches += 1;
            first.get_or_insert(i);
        }
    }
    if let Some(i) = first {
        let (s, path) = &items[i];
        report.first = Some(descend(engine, s, path.clone(), depth)?);
    }
    Ok(report)
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
        };
        if depth == 1 {
            return Ok(here);
        }
        // The depth-1 lists already differ here: the shallowest evidence.
        let d1 = ask_counts(engine, 1, std::slice::from_ref(&pos))?.remove(0);
        if count(&d1) != Some(pos.legal_moves().len() as u64) {
            return Ok(PerftMismatch {
                depth: 1,
                ours: pos.legal_moves().len() as u64,
                theirs: count(&d1),
                answer: d1,
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
