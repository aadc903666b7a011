//! Version 4's `by_checker` leaves (`specs/certificate.md`): under the 無駄合
//! convention an attacker node with budget 1 or 2 whose claim "no mate within 1 ply"
//! holds is written as a leaf the checker decides itself, instead of every check with
//! its refuting reply and that reply's leaf (two thirds of 図巧35's length certificate).
//! The extractor decides the claim first with the solver's move generation, so that it
//! never writes a leaf the checker would reject; test positions' answers are remembered
//! within one decision, as the checker does (`src/certificate/shallow.rs`).

use crate::rules::{Move, Position};
use crate::tsume::MatePosition;
use std::collections::HashMap;

/// M(D, 0) of the test positions met so far, by position key (board, side, hands).
type Memo = HashMap<u64, bool>;

/// The budgets at which an attacker node may be a `by_checker` leaf (no mate within 2
/// is no mate within 1: the attacker's own plies are odd).
pub(super) fn leaf_budget(b: u16) -> bool {
    matches!(b, 1 | 2)
}

/// Whether the attacker to move in `pos` mates within 1 ply under the 無駄合 convention:
/// some check after which every reply is a futile interposition within 0 plies.
pub(super) fn mates_in_1(pos: &Position) -> bool {
    let mut checks = Vec::new();
    MatePosition::checks(pos, &mut checks);
    let mut memo = Memo::new();
    checks
        .into_iter()
        .any(|c| mated_within_0(&pos.after_unchecked(c), &mut memo))
}

/// Whether the defender to move in `d` (in check) is mated within 0 plies: every legal
/// reply an interposition that one of its futility tests shows futile within 0.
fn mated_within_0(d: &Position, memo: &mut Memo) -> bool {
    let mut replies: Vec<Move> = Vec::new();
    d.evasions(&mut replies);
    replies.into_iter().all(|r| {
        d.interposes(r)
            && d.futility_tests(r).iter().any(|q| {
                let k = q.position_key();
                if let Some(&m) = memo.get(&k) {
                    return m;
                }
                let m = mated_within_0(q, memo);
                memo.insert(k, m);
                m
            })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tsume::{load_problem, DefenderHand};

    fn pos(sfen: &str) -> Position {
        load_problem(sfen, DefenderHand::Remaining).unwrap()
    }

    #[test]
    fn mate_in_1_under_the_convention() {
        // A gold drop mates on the spot.
        assert!(mates_in_1(&pos("4k4/9/4P4/9/9/9/9/9/9 b G 1")));
        // ▲３二歩成 mates only because every drop on the bishop's diagonal is futile
        // (specs/certificate.md's example).
        assert!(mates_in_1(&pos("8k/8p/6P2/9/9/9/9/9/B8 b - 1")));
        // A lone king in the open with a gold in hand: no mate in 1.
        assert!(!mates_in_1(&pos("9/9/9/9/4k4/9/9/9/9 b G 1")));
    }

    /// The decision against the naive twin's mate within 1 ply (`tsume::naive`, which
    /// decides 無駄合 by its own search) on random walks from the classics.
    #[test]
    fn mate_in_1_is_the_naive_twins() {
        let (mut yes, mut no) = (0, 0);
        for p in crate::tsume::naive::attacker_walk_positions(11, 200, 24) {
            let want = crate::tsume::naive::mate_length(&p, 1).is_some();
            assert_eq!(
                mates_in_1(&p),
                want,
                "{}",
                crate::notation::sfen::write_sfen(&p)
            );
            if want {
                yes += 1;
            } else {
                no += 1;
            }
        }
        eprintln!("{yes} mate in 1, {no} not");
        assert!(yes > 50 && no > 1000, "{yes} {no}");
    }
}
