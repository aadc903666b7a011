//! The 無駄合 convention of version-3 and -4 certificates (`specs/certificate.md`), applied
//! from the witnesses alone with the rules core: which reply is an interposition, which
//! recaptures a witness must answer, and the futility test's position. Written apart
//! from the solver's own (`tsume::position`), from its definition (`specs/tsume.md`):
//! a reply to a check by a single distant checker X that lands strictly between X and
//! the king, not a king move, is an interposition; its test positions are, for every
//! legal recapture by X on that square that gives check, the position after it with the
//! captured piece's unpromoted kind moved from the attacker's hand back to the defender's.

use super::key::Key;
use super::line::FutileWitness;
use super::naive;
use crate::notation::sfen::{parse_usi_move, UsiMove};
use crate::rules::{Move, Position, Square};
use std::borrow::Cow;

/// A witness edge: the witness's node id and the key its position must have.
pub(super) type Edge = (u64, Key);

/// The squares strictly between `a` and `b` when they share a file, a rank or a
/// diagonal; none otherwise (a knight's check, or neighbours).
pub(super) fn between(a: Square, b: Square) -> Vec<Square> {
    let (df, dr) = (
        i32::from(b.file()) - i32::from(a.file()),
        i32::from(b.rank()) - i32::from(a.rank()),
    );
    if !(df == 0 || dr == 0 || df.abs() == dr.abs()) || (df, dr) == (0, 0) {
        return Vec::new();
    }
    let (sf, sr) = (df.signum(), dr.signum());
    let steps = df.abs().max(dr.abs());
    (1..steps)
        .filter_map(|i| {
            let f = u8::try_from(i32::from(a.file()) + sf * i).ok()?;
            let r = u8::try_from(i32::from(a.rank()) + sr * i).ok()?;
            Square::new(f, r)
        })
        .collect()
}

/// Where the defender to move in `p` may interpose: its king's square, the square of the
/// one piece attacking it, and the squares strictly between them (`None` unless exactly
/// one piece attacks the king).
pub(super) fn interposition_line(p: &Position) -> Option<(Square, Square, Vec<Square>)> {
    let us = p.side_to_move();
    let king = p.king(us)?;
    let checkers = p.attackers_to(!us, king, p.occupied());
    if checkers.count() != 1 {
        return None;
    }
    let x = checkers.first()?;
    Some((king, x, between(king, x)))
}

/// If the reply `r` of the defender to move in `p` is an interposition: the checker's
/// square. The king must be attacked by exactly one piece, and `r` must land strictly
/// between that piece and the king without moving the king.
pub(super) fn interposition(p: &Position, r: Move) -> Option<Square> {
    let (king, x, line) = interposition_line(p)?;
    (r.from() != Some(king) && line.contains(&r.to())).then_some(x)
}

/// Why `c` is no recapture a witness may use after the interposition `r` (checker on
/// `x`), or `None` when it is one: a legal move of the checker from `x` to `r`'s square
/// that gives check. `p` is left as it was.
pub(super) fn bad_recapture(p: &mut Position, r: Move, x: Square, c: Move) -> Option<String> {
    if c.from() != Some(x) || c.to() != r.to() {
        return Some(format!(
            "{c} is no recapture by the checker on {x} at {}",
            r.to()
        ));
    }
    p.play_unchecked(r);
    let why = if !naive::is_legal(p, c) {
        Some(format!("{c} is not legal after {r}"))
    } else {
        p.play_unchecked(c);
        let check = attacked(p);
        p.undo();
        (!check).then(|| format!("{c} after {r} does not give check"))
    };
    p.undo();
    why
}

/// Every recapture a non-futility witness must answer after the interposition `r`
/// (checker on `x`): the legal moves from `x` to `r`'s square, promoting or not, that
/// give check.
pub(super) fn recaptures(p: &mut Position, r: Move, x: Square) -> Vec<Move> {
    [false, true]
        .into_iter()
        .map(|promote| Move::Normal {
            from: x,
            to: r.to(),
            promote,
        })
        .filter(|&c| bad_recapture(p, r, x, c).is_none())
        .collect()
}

/// The futility test's position (its [`Key`]) for the reply `r` and the recapture `c`
/// from the position `k`: after both, the captured piece's unpromoted kind moved from
/// the attacker's hand (the side that recaptured) back to the defender's. `None` if a
/// move does not fit the position (no piece to move or to capture).
pub(super) fn test_key(k: &Key, r: Move, c: Move) -> Option<Key> {
    let after = k.after(r)?;
    let kind = after.piece(r.to())?.kind.unpromote();
    let mut q = after.after(c)?;
    let (att, def) = (after.side.index(), q.side.index());
    if q.hands[att].count(kind) == 0 {
        return None;
    }
    q.hands[att] = q.hands[att].remove(kind);
    q.hands[def] = q.hands[def].add(kind);
    Some(q)
}

/// A witness's USI move.
fn read_move(usi: &str) -> Result<Move, String> {
    match parse_usi_move(usi) {
        Ok(UsiMove(m)) => Ok(m),
        Err(_) => Err(format!("{usi} is not legal")),
    }
}

/// A mate defender node's futility witnesses `[reply, recapture, node]` at `p` (key
/// `key`): each reply a legal interposition, each recapture one [`bad_recapture`]
/// accepts. Returns the replies they leave out (the caller checks that each is listed
/// once) and the witness edges: the node id and the key its position must have.
pub(super) fn futile(
    p: &mut Position,
    key: &Key,
    list: &[FutileWitness<'_>],
) -> Result<(Vec<Move>, Vec<Edge>), String> {
    let mut replies = Vec::with_capacity(list.len());
    let mut edges = Vec::with_capacity(list.len());
    for (ru, cu, node) in list {
        let (r, c) = (read_move(ru)?, read_move(cu)?);
        // Legal first: the tests below play it.
        if !naive::is_legal(p, r) {
            return Err(format!("futile {r} is not legal"));
        }
        let x = interposition(p, r).ok_or_else(|| format!("futile {r} is no interposition"))?;
        if let Some(why) = bad_recapture(p, r, x, c) {
            return Err(format!("futile {r}: {why}"));
        }
        let q = test_key(key, r, c).ok_or_else(|| format!("futile {r}: {c} does not fit"))?;
        replies.push(r);
        edges.push((*node, q));
    }
    Ok((replies, edges))
}

/// A no-mate defender node's non-futility witnesses `[recapture, node]` for its one
/// reply `r` at `p` (key `key`): none unless `r` is an interposition, and then exactly
/// one per recapture of [`recaptures`]. `r` must be legal (the caller checked it).
/// Returns the witness edges.
pub(super) fn nonfutile(
    p: &mut Position,
    key: &Key,
    r: Move,
    list: &[(Cow<'_, str>, u64)],
) -> Result<Vec<Edge>, String> {
    let Some(x) = interposition(p, r) else {
        return match list.first() {
            None => Ok(Vec::new()),
            Some(_) => Err(format!("{r} is no interposition: no non-futility witness")),
        };
    };
    let need = recaptures(p, r, x);
    let mut edges = Vec::with_capacity(list.len());
    let mut seen = Vec::with_capacity(list.len());
    for (cu, node) in list {
        let c = read_move(cu)?;
        if let Some(why) = bad_recapture(p, r, x, c) {
            return Err(format!("nonfutile: {why}"));
        }
        if seen.contains(&c) {
            return Err(format!("nonfutile: {c} listed twice"));
        }
        seen.push(c);
        let q = test_key(key, r, c).ok_or_else(|| format!("nonfutile: {c} does not fit"))?;
        edges.push((*node, q));
    }
    if let Some(c) = need.iter().find(|c| !seen.contains(c)) {
        return Err(format!(
            "interposition {r}: no non-futility witness for the recapture {c}"
        ));
    }
    Ok(edges)
}

/// Whether the side to move's king is attacked.
fn attacked(p: &Position) -> bool {
    let us = p.side_to_move();
    p.king(us)
        .is_some_and(|k| !p.attackers_to(!us, k, p.occupied()).is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::certificate::key::key_of;
    use crate::notation::sfen::parse_setup;
    use crate::rules::{bitboard, Rules};

    fn pos(sfen: &str) -> Position {
        Position::from_setup(parse_setup(sfen).unwrap(), Rules::TSUME.swapped()).unwrap()
    }

    fn mv(usi: &str) -> Move {
        parse_usi_move(usi).unwrap().0
    }

    /// The checker's definition against the solver's (`tsume::MatePosition`, used here
    /// in the test only): for every reply of every defender node on a few solution
    /// lines, the same interpositions and the same test positions.
    #[test]
    fn the_definition_is_the_solvers() {
        use crate::tsume::{load_problem, solve, DefenderHand, MatePosition, SolverOptions};
        let mut compared = 0;
        for sfen in [
            "8k/8p/6P2/9/9/9/9/9/B8 b - 1",
            "8k/6S2/7G1/9/9/9/8N/9/8L b - 1",
            "9/1k7/9/B2+R5/N8/9/9/9/9 b Lrb4g4s3n3l18p 1",
            "7n1/5+B+P1r/7k1/7+p1/6P2/7N1/7N1/8B/9 b N2Pr4g4s4l13p 1",
            "l8/1n7/np3B3/SR1+P5/k1N6/9/1Ps6/1N7/5+B3 b r4g2s3l15p 1",
        ] {
            let root = load_problem(sfen, DefenderHand::Remaining).unwrap();
            let r = solve(&root, &SolverOptions::default());
            let mut pos = root.clone();
            for (i, &m) in r.line.iter().enumerate() {
                pos.play_unchecked(m);
                if i % 2 == 1 {
                    continue;
                }
                let mut p = pos.clone();
                let k = key_of(&p.to_setup());
                for reply in pos.legal_moves() {
                    let x = interposition(&p, reply);
                    assert_eq!(
                        x.is_some(),
                        MatePosition::interposes(&pos, reply),
                        "{reply}"
                    );
                    let mine: Vec<Key> = x.map_or(Vec::new(), |x| {
                        recaptures(&mut p, reply, x)
                            .into_iter()
                            .map(|c| test_key(&k, reply, c).unwrap())
                            .collect()
                    });
                    let theirs: Vec<Key> = pos
                        .futility_tests(reply)
                        .iter()
                        .map(|q| key_of(&q.to_setup()))
                        .collect();
                    // The same positions, in any order.
                    assert_eq!(mine.len(), theirs.len(), "{sfen} {reply}");
                    assert!(mine.iter().all(|q| theirs.contains(q)), "{sfen} {reply}");
                    compared += usize::from(!mine.is_empty());
                }
            }
        }
        assert!(compared >= 20, "{compared}");
    }

    #[test]
    fn between_is_the_rules_cores_between() {
        for a in Square::all() {
            for b in Square::all() {
                let mine: Vec<Square> = between(a, b);
                let core: Vec<Square> = bitboard::between(a, b).collect();
                let mut m = mine.clone();
                m.sort_by_key(|s| s.index());
                assert_eq!(m, core, "{a} {b}");
            }
        }
    }

    /// A bishop checking from afar: a drop on its line interposes, the bishop's
    /// recapture is the one test, and the test position hands the pawn back.
    #[test]
    fn an_interposition_and_its_recaptures() {
        // Gote's king on 1a, Sente's bishop on 9i checks along the diagonal.
        let mut p = pos("8k/9/9/9/9/9/9/9/B8 w 2rb4g4s4n4l18p 1");
        let drop = mv("P*5e");
        let x = interposition(&p, drop).expect("an interposition");
        assert_eq!(x.usi(), "9i");
        // A king move and a drop off the line are none.
        assert_eq!(interposition(&p, mv("1a2a")), None);
        assert_eq!(interposition(&p, mv("P*5d")), None);
        // The bishop recaptures on 5e, promoting or not (5e is outside the zone: not).
        let rs = recaptures(&mut p, drop, x);
        assert_eq!(rs, vec![mv("9i5e")]);
        assert!(bad_recapture(&mut p, drop, x, mv("9i5e+")).is_some());
        assert!(bad_recapture(&mut p, drop, x, mv("9i8h")).is_some());
        // The test position: the bishop on 5e, the pawn back in Gote's hand.
        let q = test_key(&key_of(&p.to_setup()), drop, rs[0]).unwrap();
        let want = pos("8k/9/9/9/4B4/9/9/9/9 w 2rb4g4s4n4l18p 1");
        assert!(q == key_of(&want.to_setup()));
    }
}
