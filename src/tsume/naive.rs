//! The naive twin: exhaustive AND/OR minimax without tables, proof numbers or
//! heuristics. `mate_length(pos, max)` is the shortest mate (攻方最短・玉方最長)
//! of at most `max` plies, every legal defender move counted except 無駄合
//! (definition 1 of `specs/tsume.md`, decided here by building the position
//! without the captured piece and searching it). A repetition on the path fails
//! for the attacker, as in the solver. `mate_length_counted` counts every legal reply
//! (the `count_futile` convention). Exponential: for problems of a few plies only.

use crate::rules::{Move, Position, Square};

type Memo = std::collections::HashMap<(u64, u32, Vec<u64>), bool>;

thread_local! {
    /// Futility answers by (position, budget, path); cleared by every public entry point.
    static FUTILE_MEMO: std::cell::RefCell<Memo> = std::cell::RefCell::new(Memo::new());
}

fn clear_memo() {
    FUTILE_MEMO.with(|m| m.borrow_mut().clear());
}

/// The squares strictly between `a` and `b` if they share a rank, file or diagonal.
fn squares_between(a: Square, b: Square) -> Vec<Square> {
    let (af, ar) = (a.file() as i32, a.rank() as i32);
    let (bf, br) = (b.file() as i32, b.rank() as i32);
    let (df, dr) = (bf - af, br - ar);
    if !(df == 0 || dr == 0 || df.abs() == dr.abs()) {
        return Vec::new();
    }
    let n = df.abs().max(dr.abs());
    (1..n)
        .filter_map(|i| Square::new((af + df / n * i) as u8, (ar + dr / n * i) as u8))
        .collect()
}

/// Whether the reply `m` is a 無駄合 within `d` plies: the side to move is checked by one
/// piece, `m` (not a king move) lands between it and the king, and after some legal
/// recapture by that piece that checks, the position with the captured piece handed back
/// to the defender is mate within `d` plies.
fn futile(pos: &Position, m: Move, d: u32, path: &mut Vec<u64>) -> bool {
    let me = pos.side_to_move();
    let Some(king) = pos.king(me) else {
        return false;
    };
    let checkers = pos.attackers_to(!me, king, pos.occupied());
    let Some(checker) = checkers.first() else {
        return false;
    };
    if checkers.has_more_than_one()
        || m.from() == Some(king)
        || !squares_between(king, checker).contains(&m.to())
    {
        return false;
    }
    let mut after = pos.clone();
    after.play_unchecked(m);
    let Some(piece) = after.piece_at(m.to()) else {
        return false;
    };
    let kind = piece.kind.unpromote();
    for c in after.legal_moves() {
        if c.from() != Some(checker) || c.to() != m.to() {
            continue;
        }
        let mut q = after.clone();
        q.play_unchecked(c);
        if !q.in_check() {
            continue;
        }
        let mut setup = q.to_setup();
        setup.hands[!me] = setup.hands[!me].remove(kind);
        setup.hands[me] = setup.hands[me].add(kind);
        if let Ok(mut p) = Position::from_setup(setup, crate::rules::Rules::TSUME.swapped()) {
            // Every kind interposed on one square leaves the same position here (the piece
            // goes back to the defender): remember the answer for this exact path.
            let memo_key = (p.key(), d, path.clone());
            let known = FUTILE_MEMO.with(|m| m.borrow().get(&memo_key).copied());
            let mated = match known {
                Some(v) => v,
                None => {
                    let v = !path.contains(&p.key()) && and_node(&mut p, d, path, false);
                    FUTILE_MEMO.with(|m| m.borrow_mut().insert(memo_key, v));
                    v
                }
            };
            if mated {
                return true;
            }
        }
    }
    false
}

/// `counted`: every legal reply counts (`count_futile`), no 無駄合 test.
fn or_node(pos: &mut Position, d: u32, path: &mut Vec<u64>, counted: bool) -> bool {
    if d == 0 {
        return false;
    }
    path.push(pos.key());
    let mut found = false;
    for m in pos.legal_moves() {
        pos.play_unchecked(m);
        let ok =
            pos.in_check() && !path.contains(&pos.key()) && and_node(pos, d - 1, path, counted);
        pos.undo();
        if ok {
            found = true;
            break;
        }
    }
    path.pop();
    found
}

fn and_node(pos: &mut Position, d: u32, path: &mut Vec<u64>, counted: bool) -> bool {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return true;
    }
    path.push(pos.key());
    let snapshot = pos.clone();
    let moves: Vec<Move> = if counted || pos.checkers().has_more_than_one() {
        moves.into_iter().collect()
    } else {
        moves
            .into_iter()
            .filter(|&m| !futile(&snapshot, m, d, path))
            .collect()
    };
    if moves.is_empty() || d == 0 {
        path.pop();
        return moves.is_empty();
    }
    let mut all = true;
    for m in moves {
        pos.play_unchecked(m);
        let ok = !path.contains(&pos.key()) && or_node(pos, d - 1, path, counted);
        pos.undo();
        if !ok {
            all = false;
            break;
        }
    }
    path.pop();
    all
}

/// Whether the side to move (in check) is mated: it has no legal move, or every legal
/// move is a 無駄合 (which the tsume convention does not count as a reply).
pub fn mated(pos: &Position) -> bool {
    clear_memo();
    pos.in_check() && and_node(&mut pos.clone(), 0, &mut Vec::new(), false)
}

/// The shortest mate length of at most `max` plies, if any.
pub fn mate_length(root: &Position, max: u32) -> Option<u32> {
    clear_memo();
    let mut pos = root.clone();
    let mut path = Vec::new();
    (1..=max)
        .step_by(2)
        .find(|&d| or_node(&mut pos, d, &mut path, false))
}

/// The shortest mate length of at most `max` plies with every legal reply counted, futile
/// interpositions (無駄合) included: the convention of `count_futile` (KomoringHeights'
/// MinLength), if any.
pub fn mate_length_counted(root: &Position, max: u32) -> Option<u32> {
    let mut pos = root.clone();
    let mut path = Vec::new();
    (1..=max)
        .step_by(2)
        .find(|&d| or_node(&mut pos, d, &mut path, true))
}

/// The first moves that mate within `plies` plies.
pub fn mating_first_moves(root: &Position, plies: u32) -> Vec<crate::rules::Move> {
    clear_memo();
    let mut pos = root.clone();
    let mut path = vec![pos.key()];
    let mut out = Vec::new();
    for m in pos.legal_moves() {
        pos.play_unchecked(m);
        if pos.in_check() && and_node(&mut pos, plies.saturating_sub(1), &mut path, false) {
            out.push(m);
        }
        pos.undo();
    }
    out
}

/// Attacker-to-move positions along random walks (`plies` random legal moves from each
/// of the first `problems` classics, seeded by `seed`): test material for the shallow
/// decisions of the certificate's extractor and checker.
#[cfg(test)]
pub(crate) fn attacker_walk_positions(seed: u64, problems: usize, plies: usize) -> Vec<Position> {
    use rand::{Rng, SeedableRng};
    let text = include_str!("../../specs/tsume/classics.sfen");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut out = Vec::new();
    for p in super::problems::read_problems(text).iter().take(problems) {
        let root = super::load_problem(&p.sfen, super::DefenderHand::Remaining).unwrap();
        let attacker = root.side_to_move();
        let mut pos = root;
        for _ in 0..plies {
            if pos.side_to_move() == attacker {
                out.push(pos.clone());
            }
            // Checks half of the time at the attacker's turn, to stay near the king.
            let all = pos.legal_moves();
            let checks: Vec<Move> = all
                .iter()
                .copied()
                .filter(|&m| pos.gives_check(m))
                .collect();
            let pick = if pos.side_to_move() == attacker && !checks.is_empty() && rng.gen_bool(0.5)
            {
                checks[rng.gen_range(0..checks.len())]
            } else if all.is_empty() {
                break;
            } else {
                all[rng.gen_range(0..all.len())]
            };
            pos.play_unchecked(pick);
        }
    }
    out
}
