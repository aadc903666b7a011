//! The naive twin: exhaustive AND/OR minimax without tables, proof numbers or
//! heuristics. `mate_length(pos, max)` is the shortest mate (攻方最短・玉方最長,
//! every legal defender move counted) of at most `max` plies. A repetition on
//! the path fails for the attacker, as in the solver. Exponential: for
//! problems of a few plies only.

use crate::rules::Position;

fn or_node(pos: &mut Position, d: u32, path: &mut Vec<u64>) -> bool {
    if d == 0 {
        return false;
    }
    path.push(pos.key());
    let mut found = false;
    for m in pos.legal_moves() {
        pos.play_unchecked(m);
        let ok = pos.in_check() && !path.contains(&pos.key()) && and_node(pos, d - 1, path);
        pos.undo();
        if ok {
            found = true;
            break;
        }
    }
    path.pop();
    found
}

fn and_node(pos: &mut Position, d: u32, path: &mut Vec<u64>) -> bool {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return true;
    }
    if d == 0 {
        return false;
    }
    path.push(pos.key());
    let mut all = true;
    for m in moves {
        pos.play_unchecked(m);
        let ok = !path.contains(&pos.key()) && or_node(pos, d - 1, path);
        pos.undo();
        if !ok {
            all = false;
            break;
        }
    }
    path.pop();
    all
}

/// The shortest mate length of at most `max` plies, if any.
pub fn mate_length(root: &Position, max: u32) -> Option<u32> {
    let mut pos = root.clone();
    let mut path = Vec::new();
    (1..=max)
        .step_by(2)
        .find(|&d| or_node(&mut pos, d, &mut path))
}

/// The first moves that mate within `plies` plies.
pub fn mating_first_moves(root: &Position, plies: u32) -> Vec<crate::rules::Move> {
    let mut pos = root.clone();
    let mut path = vec![pos.key()];
    let mut out = Vec::new();
    for m in pos.legal_moves() {
        pos.play_unchecked(m);
        if pos.in_check() && and_node(&mut pos, plies.saturating_sub(1), &mut path) {
            out.push(m);
        }
        pos.undo();
    }
    out
}
