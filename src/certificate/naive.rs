//! The checker's move generator: the rules core's naive play-and-test definition
//! ([`Position::legal_moves_naive`]: every pseudo-move — each piece to each square it
//! attacks by [`attacks_naive`] that is not its own, each drop on each empty square,
//! every promotion option — played and tested: own king attacked, dead piece, 二歩,
//! 打ち歩詰め by a full mate test), played and taken back on one position
//! ([`Position::undo`]) instead of on a copy per candidate, and for one move alone
//! ([`is_legal`]) without generating the others. The tests below compare both with
//! [`Position::legal_moves_naive`] move by move; nothing here comes from the solver.
//!
//! Drops are tested without playing them ([`drop_passes_tests`]), which is exact
//! because a drop only adds one of the mover's pieces on an empty square: the own
//! king is attacked after it iff the opponent attacks the king with that square
//! occupied, and the drop gives check iff the dropped piece itself attacks the enemy
//! king (it cannot uncover anything). Only a pawn drop that gives check is played,
//! for the full 打ち歩詰め mate test. The same tests compare this with the play-and-test
//! definition.

use crate::rules::bitboard::attacks_naive;
use crate::rules::{Move, PieceKind, Position, Square};

/// Whether `m` is one of the naive generator's pseudo-moves (before the play-and-test).
fn is_candidate(p: &Position, m: Move) -> bool {
    let us = p.side_to_move();
    let occ = p.occupied();
    match m {
        Move::Normal { from, to, promote } => {
            let Some(pc) = p.piece_at(from).filter(|pc| pc.color == us) else {
                return false;
            };
            if !(attacks_naive(us, pc.kind, from, occ) & !p.color_bb(us)).has(to) {
                return false;
            }
            let may_promote = pc.kind.promote().is_some()
                && (from.relative_rank(us) <= 3 || to.relative_rank(us) <= 3);
            !promote || may_promote
        }
        Move::Drop { kind, to } => {
            PieceKind::HAND.contains(&kind) && p.hand(us).has(kind) && !occ.has(to)
        }
    }
}

/// The naive generator's pseudo-moves, in its order.
fn candidates(p: &Position) -> Vec<Move> {
    let us = p.side_to_move();
    let occ = p.occupied();
    let mut out = Vec::new();
    for from in p.color_bb(us) {
        let Some(pc) = p.piece_at(from) else { continue };
        for to in attacks_naive(us, pc.kind, from, occ) & !p.color_bb(us) {
            out.push(Move::Normal {
                from,
                to,
                promote: false,
            });
            if pc.kind.promote().is_some()
                && (from.relative_rank(us) <= 3 || to.relative_rank(us) <= 3)
            {
                out.push(Move::Normal {
                    from,
                    to,
                    promote: true,
                });
            }
        }
    }
    for kind in PieceKind::HAND {
        if p.hand(us).has(kind) {
            for to in !occ {
                out.push(Move::Drop { kind, to });
            }
        }
    }
    out
}

/// The play-and-test half of the naive generator for a pseudo-move `m` of `p`
/// (played and taken back: `p` comes back unchanged).
fn passes_tests(p: &mut Position, m: Move) -> bool {
    let us = p.side_to_move();
    p.play_unchecked(m);
    let ok = 'test: {
        // Own king attacked?
        if let Some(k) = p.king(us) {
            if !p.attackers_to(!us, k, p.occupied()).is_empty() {
                break 'test false;
            }
        }
        // Dead piece?
        let to = m.to();
        let Some(moved) = p.piece_at(to) else {
            break 'test false;
        };
        let rr = to.relative_rank(us);
        let dead = match moved.kind {
            PieceKind::Pawn | PieceKind::Lance => rr == 1,
            PieceKind::Knight => rr <= 2,
            _ => false,
        };
        if dead {
            break 'test false;
        }
        if let Move::Drop {
            kind: PieceKind::Pawn,
            ..
        } = m
        {
            // 二歩, then 打ち歩詰め (a full mate test: in check and no legal reply).
            if p.pieces(us, PieceKind::Pawn)
                .into_iter()
                .filter(|s| s.file() == to.file())
                .count()
                > 1
            {
                break 'test false;
            }
            if p.in_check() && !has_legal_move(p) {
                break 'test false;
            }
        }
        true
    };
    p.undo();
    ok
}

/// [`passes_tests`] for a drop candidate of `kind` on the empty square `to`, without
/// playing it unless it is a pawn drop giving check (then the full 打ち歩詰め test).
/// Exact by the argument in the module doc; `p` comes back unchanged.
fn drop_passes_tests(p: &mut Position, kind: PieceKind, to: Square) -> bool {
    let us = p.side_to_move();
    let occ = p.occupied().with(to);
    // Own king attacked once `to` is occupied? (Our piece there attacks nothing of ours.)
    if p.king(us)
        .is_some_and(|k| !p.attackers_to(!us, k, occ).is_empty())
    {
        return false;
    }
    // Dead piece?
    let rr = to.relative_rank(us);
    let dead = match kind {
        PieceKind::Pawn | PieceKind::Lance => rr == 1,
        PieceKind::Knight => rr <= 2,
        _ => false,
    };
    if dead {
        return false;
    }
    if kind != PieceKind::Pawn {
        return true;
    }
    // 二歩: another pawn of ours on the file (unpromoted: `pieces` is by kind).
    if p.pieces(us, PieceKind::Pawn)
        .into_iter()
        .any(|s| s.file() == to.file())
    {
        return false;
    }
    // 打ち歩詰め: only a pawn drop that attacks the enemy king gives check; that one is
    // played and the full naive mate test run.
    let gives_check = p
        .king(!us)
        .is_some_and(|k| attacks_naive(us, PieceKind::Pawn, to, occ).has(k));
    if !gives_check {
        return true;
    }
    p.play_unchecked(Move::Drop { kind, to });
    let mate = p.in_check() && !has_legal_move(p);
    p.undo();
    !mate
}

/// The tests for any candidate: drops by [`drop_passes_tests`], board moves played.
fn candidate_passes(p: &mut Position, m: Move) -> bool {
    match m {
        Move::Drop { kind, to } => drop_passes_tests(p, kind, to),
        Move::Normal { .. } => passes_tests(p, m),
    }
}

/// Whether the side to move has any legal move (the naive definition, stopping at the first).
fn has_legal_move(p: &mut Position) -> bool {
    candidates(p).into_iter().any(|m| candidate_passes(p, m))
}

/// Every legal move of `p` (as a set, [`Position::legal_moves_naive`]).
pub fn legal_moves(p: &mut Position) -> Vec<Move> {
    candidates(p)
        .into_iter()
        .filter(|&m| candidate_passes(p, m))
        .collect()
}

/// Every legal move of `p` that gives check (the enemy king attacked after it): as
/// [`legal_moves`] filtered by playing each move again, but a board move is played once
/// for both tests and a drop not at all (it gives check iff the dropped piece attacks
/// the enemy king, by the module doc's argument). Compared with that filter in the tests.
pub fn legal_checks(p: &mut Position) -> Vec<Move> {
    let us = p.side_to_move();
    let enemy_king = p.king(!us);
    let mut out = Vec::new();
    for m in candidates(p) {
        let ok = match m {
            Move::Drop { kind, to } => {
                let occ = p.occupied().with(to);
                enemy_king.is_some_and(|k| attacks_naive(us, kind, to, occ).has(k))
                    && drop_passes_tests(p, kind, to)
            }
            Move::Normal { .. } => {
                p.play_unchecked(m);
                let check =
                    enemy_king.is_some_and(|k| !p.attackers_to(us, k, p.occupied()).is_empty());
                p.undo();
                check && passes_tests(p, m)
            }
        };
        if ok {
            out.push(m);
        }
    }
    out
}

/// Whether `m` is legal in `p` (`legal_moves_naive().contains(&m)`).
pub fn is_legal(p: &mut Position, m: Move) -> bool {
    is_candidate(p, m) && candidate_passes(p, m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::sfen::parse_setup;
    use crate::rules::{Rules, Square};

    fn pos(sfen: &str, rules: Rules) -> Position {
        Position::from_setup(parse_setup(sfen).unwrap(), rules).unwrap()
    }

    const UCHIFUZUME: &str = "kn7/9/1G7/9/9/9/9/9/9 b LP2r2b3g4s3n3l17p 1";

    #[test]
    fn a_pawn_drop_mate_is_not_legal() {
        let mut p = pos(UCHIFUZUME, Rules::TSUME);
        let m = crate::notation::sfen::parse_usi_move("P*9b").unwrap().0;
        assert!(!p.legal_moves_naive().contains(&m));
        assert!(!is_legal(&mut p, m));
        assert!(!legal_moves(&mut p).contains(&m));
        // A lance drop there mates and is legal.
        let l = crate::notation::sfen::parse_usi_move("L*9b").unwrap().0;
        assert!(is_legal(&mut p, l));
    }

    /// Every pseudo-move of every kind and square, legal or not.
    fn all_moves() -> Vec<Move> {
        let mut v = Vec::new();
        for from in Square::all() {
            for to in Square::all() {
                for promote in [false, true] {
                    v.push(Move::Normal { from, to, promote });
                }
            }
        }
        for kind in PieceKind::HAND {
            for to in Square::all() {
                v.push(Move::Drop { kind, to });
            }
        }
        v
    }

    /// Positions with drops, promotions, pins, 二歩 and 打ち歩詰め, and those a few
    /// random plies away.
    fn positions() -> Vec<Position> {
        use rand::{Rng, SeedableRng};
        let base = [
            (
                "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1",
                Rules::STANDARD,
            ),
            ("8k/9/8P/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1", Rules::TSUME),
            ("7nk/9/7PP/9/9/9/9/9/9 b P2r2b4g4s3n4l15p 1", Rules::TSUME),
            (
                "4k4/9/4P4/9/9/9/9/9/4K4 b P2r2b4g4s4n4l15p 1",
                Rules::STANDARD,
            ),
            (
                "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w RGgsn5p 1",
                Rules::STANDARD,
            ),
            (
                "1pG1B4/Gs+P6/pP7/n1ls5/3k5/nL4+r1b/1+p1p+R4/1S7/2N6 b SP2gn2l11p 1",
                Rules::TSUME,
            ),
            // ▲9二歩打 would be 打ち歩詰め.
            (UCHIFUZUME, Rules::TSUME),
        ];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
        let mut out = Vec::new();
        for (s, r) in base {
            let p0 = pos(s, r);
            out.push(p0.clone());
            for _ in 0..6 {
                let mut p = p0.clone();
                for _ in 0..rng.gen_range(1..8) {
                    let moves = p.legal_moves_naive();
                    if moves.is_empty() {
                        break;
                    }
                    p.play_unchecked(moves[rng.gen_range(0..moves.len())]);
                }
                out.push(p);
            }
        }
        out
    }

    #[test]
    fn same_moves_as_the_rules_core_naive_generator() {
        for p in positions() {
            let mut want = p.legal_moves_naive();
            let mut q = p.clone();
            let mut got = legal_moves(&mut q);
            assert_eq!(q, p, "the position comes back unchanged");
            want.sort_by_key(|m| m.to_string());
            got.sort_by_key(|m| m.to_string());
            assert_eq!(got, want, "{p:?}");
        }
    }

    #[test]
    fn drops_tested_unplayed_agree_with_play_and_test() {
        for p in positions() {
            let mut q = p.clone();
            for m in candidates(&p) {
                if let Move::Drop { kind, to } = m {
                    let want = passes_tests(&mut q, m);
                    assert_eq!(drop_passes_tests(&mut q, kind, to), want, "{m} in {p:?}");
                }
            }
            assert_eq!(q, p);
        }
    }

    #[test]
    fn legal_checks_agree_with_play_and_test() {
        for p in positions() {
            let mut q = p.clone();
            let want: Vec<Move> = p
                .legal_moves_naive()
                .into_iter()
                .filter(|&m| {
                    let mut r = p.clone();
                    r.play_unchecked(m);
                    let us = r.side_to_move();
                    r.king(us)
                        .is_some_and(|k| !r.attackers_to(!us, k, r.occupied()).is_empty())
                })
                .collect();
            let mut got = legal_checks(&mut q);
            assert_eq!(q, p, "the position comes back unchanged");
            let mut want = want;
            want.sort_by_key(|m| m.to_string());
            got.sort_by_key(|m| m.to_string());
            assert_eq!(got, want, "{p:?}");
        }
    }

    #[test]
    fn one_move_legality_agrees_with_the_generator() {
        let every = all_moves();
        for p in positions() {
            let legal = p.legal_moves_naive();
            let mut q = p.clone();
            for &m in &every {
                assert_eq!(is_legal(&mut q, m), legal.contains(&m), "{m} in {p:?}");
            }
            assert_eq!(q, p);
        }
    }
}
