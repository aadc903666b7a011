//! The checker's move generator: the rules core's naive play-and-test definition
//! ([`Position::legal_moves_naive`]: every pseudo-move — each piece to each square it
//! attacks, walked square by square ([`attacks_naive`]), that is not its own, each drop on each empty square, every
//! promotion option — played and tested: own king attacked, dead piece, 二歩,
//! 打ち歩詰め by a full mate test), played and taken back on one position
//! ([`Position::undo`]) instead of on a copy per candidate, and for one move alone
//! ([`is_legal`]) without generating the others. The tests below compare all of it
//! with [`Position::legal_moves_naive`] move by move; nothing here comes from the solver.
//!
//! Moves are tested without playing them where that is exact. A drop
//! ([`drop_passes_tests`]) only adds one of the mover's pieces on an empty square: the
//! own king is attacked after it iff the opponent attacks the king with that square
//! occupied (one test per square, whatever the kind dropped), and the drop gives
//! check iff the dropped piece itself attacks the enemy king (it cannot uncover
//! anything). Only a pawn drop that gives check is played, for the full 打ち歩詰め mate
//! test. A board move ([`board_move_passes`]) leaves the occupancy without its origin
//! and with its target, and the opponent's pieces without the one captured there: the
//! own king (on the target if it moved) is attacked after it iff those pieces attack
//! it with that occupancy.
//!
//! The checks ([`legal_checks`]) use two more exact facts, both compared with the
//! play-and-test filter in the tests. Every shogi piece moves left-right
//! symmetrically, so a piece of `us` on `to` attacks the square `k` iff the same piece
//! of the other colour on `k` attacks `to` (sliders: the squares strictly between are
//! the same): the drops that give check are those onto the empty squares the enemy
//! king would attack as that piece. And before a move the enemy king is not attacked
//! (a legal position), so a board move from `from` to `to` can give check only by the
//! moved piece on `to` or by uncovering a line through `from`: when `from` shares no
//! file, rank or diagonal with the enemy king and the moved piece does not attack it,
//! the move is no check and is not played.

use crate::rules::bitboard::attacks_naive;
use crate::rules::{Color, Move, PieceKind, Position, Square};

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

/// The naive generator's board pseudo-moves (piece moves, promotions included), in its order.
fn board_candidates(p: &Position) -> Vec<Move> {
    let us = p.side_to_move();
    let occ = p.occupied();
    let mut out = Vec::with_capacity(64);
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
    out
}

/// The naive generator's pseudo-moves, in its order.
#[cfg(test)]
fn candidates(p: &Position) -> Vec<Move> {
    let us = p.side_to_move();
    let mut out = board_candidates(p);
    for kind in PieceKind::HAND {
        if p.hand(us).has(kind) {
            for to in !p.occupied() {
                out.push(Move::Drop { kind, to });
            }
        }
    }
    out
}

/// The tests of a move `m` of `us` just played (own king attacked, dead piece, and for
/// a pawn drop 二歩 and 打ち歩詰め).
fn played_passes(p: &mut Position, us: Color, m: Move) -> bool {
    // Own king attacked?
    if let Some(k) = p.king(us) {
        if !p.attackers_to(!us, k, p.occupied()).is_empty() {
            return false;
        }
    }
    // Dead piece?
    let to = m.to();
    let Some(moved) = p.piece_at(to) else {
        return false;
    };
    if dead(moved.kind, to.relative_rank(us)) {
        return false;
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
            return false;
        }
        if p.in_check() && !has_legal_move(p) {
            return false;
        }
    }
    true
}

/// Whether a piece of `kind` on relative rank `rr` could never move again.
fn dead(kind: PieceKind, rr: u8) -> bool {
    match kind {
        PieceKind::Pawn | PieceKind::Lance => rr == 1,
        PieceKind::Knight => rr <= 2,
        _ => false,
    }
}

/// The play-and-test half of the naive generator for a pseudo-move `m` of `p`
/// (played and taken back: `p` comes back unchanged); the twin that
/// [`board_move_passes`] and [`drop_passes_tests`] are tested against.
#[cfg(test)]
fn passes_tests(p: &mut Position, m: Move) -> bool {
    let us = p.side_to_move();
    p.play_unchecked(m);
    let ok = played_passes(p, us, m);
    p.undo();
    ok
}

/// [`passes_tests`] for a board candidate `m`, without playing it: after a board move
/// the occupancy is the old one without `from` and with `to`, the opponent's pieces
/// are the old ones but a piece captured on `to`, and the own king stands on `to` if
/// it moved; the own king is attacked after the move iff those pieces attack it with
/// that occupancy. A board move is no drop, so the dead-piece test is all that
/// remains. Compared with [`passes_tests`] in the tests.
fn board_move_passes(p: &Position, m: Move) -> bool {
    let Move::Normal { from, to, promote } = m else {
        return false;
    };
    let us = p.side_to_move();
    let Some(pc) = p.piece_at(from) else {
        return false;
    };
    let king = if pc.kind == PieceKind::King {
        Some(to)
    } else {
        p.king(us)
    };
    if let Some(k) = king {
        let occ = p.occupied().without(from).with(to);
        if !(p.attackers_to(!us, k, occ).without(to)).is_empty() {
            return false;
        }
    }
    let kind = if promote {
        pc.kind.promote().unwrap_or(pc.kind)
    } else {
        pc.kind
    };
    !dead(kind, to.relative_rank(us))
}

/// Whether the side to move's king (if any) is safe once the empty square `to` is
/// occupied by one of its own pieces: the own-king test of every drop on `to`.
fn drop_square_safe(p: &Position, to: Square) -> bool {
    let us = p.side_to_move();
    p.king(us).map_or(true, |k| {
        p.attackers_to(!us, k, p.occupied().with(to)).is_empty()
    })
}

/// The tests of a drop of `kind` on the empty square `to` other than the own king's
/// ([`drop_square_safe`]): dead piece, 二歩, 打ち歩詰め. `p` comes back unchanged.
fn drop_rest_passes(p: &mut Position, kind: PieceKind, to: Square) -> bool {
    let us = p.side_to_move();
    if dead(kind, to.relative_rank(us)) {
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
    let occ = p.occupied().with(to);
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

/// [`passes_tests`] for a drop candidate of `kind` on the empty square `to`, without
/// playing it unless it is a pawn drop giving check (then the full 打ち歩詰め test).
/// Exact by the argument in the module doc; `p` comes back unchanged.
fn drop_passes_tests(p: &mut Position, kind: PieceKind, to: Square) -> bool {
    drop_square_safe(p, to) && drop_rest_passes(p, kind, to)
}

/// The tests for any candidate: drops by [`drop_passes_tests`], board moves played.
fn candidate_passes(p: &mut Position, m: Move) -> bool {
    match m {
        Move::Drop { kind, to } => drop_passes_tests(p, kind, to),
        Move::Normal { .. } => board_move_passes(p, m),
    }
}

/// Calls `f` on the legal moves of `p` (board moves, then drops square by square) until
/// it returns `false`; returns whether it stopped early. `p` comes back unchanged.
fn for_each_legal(p: &mut Position, mut f: impl FnMut(Move) -> bool) -> bool {
    for m in board_candidates(p) {
        if board_move_passes(p, m) && !f(m) {
            return true;
        }
    }
    let hand = p.hand(p.side_to_move());
    if hand.is_empty() {
        return false;
    }
    for to in !p.occupied() {
        // The own-king test is the same for every kind dropped on `to`.
        if !drop_square_safe(p, to) {
            continue;
        }
        for kind in PieceKind::HAND {
            if hand.has(kind) && drop_rest_passes(p, kind, to) && !f(Move::Drop { kind, to }) {
                return true;
            }
        }
    }
    false
}

/// Whether the side to move has any legal move (the naive definition, stopping at the first).
fn has_legal_move(p: &mut Position) -> bool {
    for_each_legal(p, |_| false)
}

/// Whether `pred` holds for some legal move of `p`, in [`for_each_legal`]'s order,
/// stopping at the first (`pred` sees every legal move before it).
pub(super) fn any_legal(p: &mut Position, mut pred: impl FnMut(Move) -> bool) -> bool {
    for_each_legal(p, |m| !pred(m))
}

/// Every legal move of `p` (as a set, [`Position::legal_moves_naive`]).
pub fn legal_moves(p: &mut Position) -> Vec<Move> {
    let mut out = Vec::new();
    for_each_legal(p, |m| {
        out.push(m);
        true
    });
    out
}

/// Every legal move of `p` that gives check (the enemy king attacked after it): as
/// [`legal_moves`] filtered by playing each move again, but a board move is played at
/// most once for both tests and a drop not at all, and moves that cannot give check
/// are skipped untested (the module doc's two facts). Compared with that filter in the
/// tests. `p` must be legal (the enemy king not attacked).
pub fn legal_checks(p: &mut Position) -> Vec<Move> {
    let us = p.side_to_move();
    let mut out = Vec::new();
    let Some(k) = p.king(!us) else {
        return out;
    };
    let occ = p.occupied();
    let own = p.color_bb(us);
    // By kind: the squares from which a piece of `us` attacks the king. For a move
    // from a square off the king's lines it is the same with the mover's square
    // emptied and its target filled (neither lies strictly between the two).
    let mut checking = [None; PieceKind::NUM];
    let mut checking_from = |kind: PieceKind| {
        *checking[kind.index()].get_or_insert_with(|| attacks_naive(!us, kind, k, occ))
    };
    for from in own {
        let Some(pc) = p.piece_at(from) else { continue };
        let aligned = {
            let (df, dr) = (
                from.file().abs_diff(k.file()),
                from.rank().abs_diff(k.rank()),
            );
            df == 0 || dr == 0 || df == dr
        };
        let promoted = pc.kind.promote();
        // Off the king's lines only the moved piece can give check: the targets it
        // attacks the king from (as it is, or promoted), and the king's square itself.
        let targets = attacks_naive(us, pc.kind, from, occ) & !own;
        let targets = if aligned {
            targets
        } else {
            let mut t = checking_from(pc.kind);
            if let Some(pk) = promoted {
                t |= checking_from(pk);
            }
            targets & t.with(k)
        };
        for to in targets {
            let may_promote =
                promoted.is_some() && (from.relative_rank(us) <= 3 || to.relative_rank(us) <= 3);
            for promote in [false, true] {
                if promote && !may_promote {
                    continue;
                }
                let m = Move::Normal { from, to, promote };
                let kind = if promote {
                    promoted.unwrap_or(pc.kind)
                } else {
                    pc.kind
                };
                if !aligned && to != k && !checking_from(kind).has(to) {
                    continue;
                }
                p.play_unchecked(m);
                let ok = !p.attackers_to(us, k, p.occupied()).is_empty() && played_passes(p, us, m);
                p.undo();
                if ok {
                    out.push(m);
                }
            }
        }
    }
    let hand = p.hand(us);
    for kind in PieceKind::HAND {
        if !hand.has(kind) {
            continue;
        }
        // The empty squares from which the dropped piece attacks the king.
        for to in checking_from(kind) & !occ {
            if drop_passes_tests(p, kind, to) {
                out.push(Move::Drop { kind, to });
            }
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
    use crate::rules::Rules;

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
            // Discovered checks: the silvers stand between the rook, the bishop and
            // the king.
            (
                "4k4/9/2S6/9/B3S4/9/9/9/4R4 b GNLPr2g2s2n3l17p 1",
                Rules::TSUME,
            ),
            // Gote attacks; the lance pins the gold.
            (
                "9/9/4l4/9/5p3/9/4G4/4K4/9 w RBSN2Prb3g3s3n3l15p 1",
                Rules::TSUME,
            ),
        ];
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(17);
        let mut out = Vec::new();
        for (s, r) in base {
            let p0 = pos(s, r);
            out.push(p0.clone());
            for _ in 0..30 {
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
    fn has_legal_move_agrees_with_the_generator() {
        for p in positions() {
            let mut q = p.clone();
            assert_eq!(has_legal_move(&mut q), !p.legal_moves_naive().is_empty());
            assert_eq!(q, p);
        }
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
    fn board_moves_tested_unplayed_agree_with_play_and_test() {
        for p in positions() {
            let mut q = p.clone();
            for m in board_candidates(&p) {
                let want = passes_tests(&mut q, m);
                assert_eq!(board_move_passes(&q, m), want, "{m} in {p:?}");
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
