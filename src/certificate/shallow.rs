//! Version 4's `by_checker` leaves: an attacker node one ply from the bounded no-mate
//! graph's end claims "no mate within 1 ply under the 無駄合 convention" and lists
//! nothing; the checker decides the claim itself from the definition
//! (`specs/certificate.md`, "Budgets"), with the naive generator and the convention's
//! rules of [`super::futility`], nothing from the solver:
//!
//! - M(P, 1) for the attacker: some legal check c with M(P·c, 0);
//! - M(D, 0) for the defender in check: every legal reply r is an interposition and
//!   futile within 0, i.e. M(q(D, r, c), 0) for some recapture c.
//!
//! The recursion through test positions ends: each test position has the checker
//! strictly closer to the king (its recapture lands between it and the king). Its
//! answers are remembered by exact position ([`Key`]) within one decision: without that,
//! a bishop checking along a long diagonal with a defender rich in pieces costs a tree of
//! every sequence of drops (seconds for one node); the distinct test positions are few
//! (a drop and its recapture leave the same board whatever kind was dropped).

use super::futility::{interposition_line, recaptures};
use super::key::{key_of, Key};
use super::naive;
use crate::rules::{Move, Position, Rules};
use std::collections::HashMap;

/// M(D, 0) of the test positions met so far.
type Memo = HashMap<Key, bool>;

/// A check of the attacker to move in `p` that mates within 1 ply under the 無駄合
/// convention, or `None` when there is none (the node's claim holds). `p` comes back
/// unchanged.
///
/// # Errors
/// A test position that is no legal position (not expected: it is one of the rules
/// core's positions with a piece moved between the hands).
pub(super) fn mate_in_1(p: &mut Position) -> Result<Option<Move>, String> {
    let mut memo = Memo::new();
    for c in naive::legal_checks(p) {
        p.play_unchecked(c);
        let mated = mated_within_0(p, &mut memo);
        p.undo();
        if mated? {
            return Ok(Some(c));
        }
    }
    Ok(None)
}

/// M(D, 0): whether the defender to move in `d` (in check) has only interpositions that
/// are futile within 0 plies. `d` comes back unchanged.
fn mated_within_0(d: &mut Position, memo: &mut Memo) -> Result<bool, String> {
    // The first legal reply that is no interposition refutes; else collect them all
    // (`futility::interposition`'s rule, its line computed once).
    let line = interposition_line(d);
    let mut interpositions = Vec::new();
    let escaped = naive::any_legal(d, |r| {
        let interposes = line
            .as_ref()
            .is_some_and(|(king, _, between)| r.from() != Some(*king) && between.contains(&r.to()));
        if interposes {
            interpositions.push(r);
        }
        !interposes
    });
    if escaped {
        return Ok(false);
    }
    for r in interpositions {
        // (Some: `r` interposed on it.)
        let Some((_, x, _)) = line else {
            return Ok(false);
        };
        let mut futile = false;
        for c in recaptures(d, r, x) {
            let mut q = test_position(d, r, c)?;
            let k = key_of(&q.to_setup());
            let mated = match memo.get(&k) {
                Some(&m) => m,
                None => {
                    let m = mated_within_0(&mut q, memo)?;
                    memo.insert(k, m);
                    m
                }
            };
            if mated {
                futile = true;
                break;
            }
        }
        if !futile {
            return Ok(false);
        }
    }
    Ok(true)
}

/// The futility test's position after the interposition `r` and the recapture `c` in
/// `d`: both played, the captured piece's unpromoted kind moved from the attacker's hand
/// back to the defender's (as [`super::futility::test_key`] does on keys).
fn test_position(d: &mut Position, r: Move, c: Move) -> Result<Position, String> {
    let defender = d.side_to_move();
    d.play_unchecked(r);
    let kind = d.piece_at(r.to()).map(|pc| pc.kind.unpromote());
    d.play_unchecked(c);
    let mut setup = d.to_setup();
    d.undo();
    d.undo();
    let kind = kind.ok_or_else(|| format!("{r} left no piece on {}", r.to()))?;
    let attacker = !defender;
    if !setup.hands[attacker].has(kind) {
        return Err(format!("{c} captured no {}", kind.letter()));
    }
    setup.hands[attacker] = setup.hands[attacker].remove(kind);
    setup.hands[defender] = setup.hands[defender].add(kind);
    // The defender is to move again (the attacker may lack a king).
    Position::from_setup(setup, Rules::TSUME.swapped()).map_err(|e| format!("test position: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::sfen::write_sfen;

    /// The checker's decision against the naive twin's mate within 1 ply
    /// (`tsume::naive`, used here in the test only) on random walks from the classics;
    /// some of the mates are mates only because every interposition is futile.
    #[test]
    fn mate_in_1_is_the_naive_twins() {
        let (mut yes, mut no, mut futile_only) = (0, 0, 0);
        for mut p in crate::tsume::naive::attacker_walk_positions(11, 200, 24) {
            let want = crate::tsume::naive::mate_length(&p, 1).is_some();
            let sfen = write_sfen(&p);
            let got = mate_in_1(&mut p).unwrap();
            assert_eq!(got.is_some(), want, "{sfen}");
            assert_eq!(write_sfen(&p), sfen, "the position comes back");
            if let Some(c) = got {
                yes += 1;
                p.play_unchecked(c);
                futile_only += usize::from(!p.legal_moves_naive().is_empty());
                p.undo();
            } else {
                no += 1;
            }
        }
        assert!(
            yes > 50 && no > 1000 && futile_only > 0,
            "{yes} {no} {futile_only}"
        );
    }

    /// The format's example: ▲３二歩成 mates only because the drops on the bishop's
    /// diagonal are all futile; without the bishop they are no interpositions.
    #[test]
    fn futile_interpositions_make_a_mate_in_1() {
        let pos = |s: &str| {
            Position::from_setup(crate::notation::sfen::parse_setup(s).unwrap(), Rules::TSUME)
                .unwrap()
        };
        let mut p = pos("8k/8p/6P2/9/9/9/9/9/B8 b 2rb4g4s4n4l16p 1");
        assert_eq!(
            mate_in_1(&mut p).unwrap().map(|m| m.to_string()),
            Some("3c3b+".into())
        );
        // Without the bishop the drops are no interpositions: no mate in 1.
        let mut p = pos("8k/8p/6P2/9/9/9/9/9/9 b 2r2b4g4s4n4l16p 1");
        assert_eq!(mate_in_1(&mut p).unwrap(), None);
    }
}
