//! The rules of one node on its own: its moves against the naive generator (legal,
//! listed once, checks where the attacker moves, every legal move or check where the
//! rules ask for all), the count its kind needs, the defender in check, and the
//! witnesses of version 3 ([`crate::certificate::futility`]), version 4's `by_checker`
//! leaves decided here ([`crate::certificate::shallow`]). What involves other
//! nodes is recorded in the [`Pass`].

use super::error::{invalid, unreadable, CheckError};
use super::pass::Pass;
use crate::certificate::futility;
use crate::certificate::key::{Key, MoveSet};
use crate::certificate::line::FutileWitness;
use crate::certificate::naive;
use crate::certificate::shallow;
use crate::notation::sfen::{parse_usi_move, UsiMove};
use crate::rules::Position;
use std::borrow::Cow;

/// `[USI move, node id]` pairs as written.
type Pairs<'a> = Vec<(Cow<'a, str>, u64)>;

/// One node line as its own rules need it (its position apart: it stays where it was
/// built).
pub(super) struct Node<'a> {
    pub(super) id: u64,
    /// Its index in the [`Pass`].
    pub(super) ix: u32,
    pub(super) key: Key,
    /// Whether the attacker is to move.
    pub(super) attacking: bool,
    /// Whether it follows the mate rules (a mate file's node without a budget).
    pub(super) mate: bool,
    pub(super) budget: Option<u32>,
    /// Version 4: a leaf whose claim (no mate within 1) the checker decides itself.
    pub(super) by_checker: bool,
    pub(super) moves: Option<Pairs<'a>>,
    pub(super) covered_by: Option<u64>,
    pub(super) futile: Option<Vec<FutileWitness<'a>>>,
    pub(super) nonfutile: Option<Pairs<'a>>,
}

/// The moves listed at the node being checked and the legal ones generated there;
/// kept from node to node (emptied by taking back what was put in).
pub(super) struct Listed {
    listed: MoveSet,
    all: MoveSet,
}

impl Listed {
    pub(super) fn new() -> Listed {
        Listed {
            listed: MoveSet::new(),
            all: MoveSet::new(),
        }
    }

    /// Up to three generated moves that are not listed, named on failure (USI, spaced;
    /// `…` after them when more are missing).
    fn missing(&self) -> String {
        let missing: Vec<String> = self
            .all
            .moves
            .iter()
            .filter(|&&m| !self.listed.contains(m))
            .map(|m| m.to_string())
            .collect();
        let more = if missing.len() > 3 { " …" } else { "" };
        format!("{}{more}", missing[..missing.len().min(3)].join(" "))
    }
}

/// Whether the side to move's king is attacked (no king: not in check).
fn attacked(p: &Position) -> bool {
    let us = p.side_to_move();
    p.king(us)
        .is_some_and(|k| !p.attackers_to(!us, k, p.occupied()).is_empty())
}

/// Whether the move just played gave check: the king of the side now to move attacked.
fn gave_check(p: &Position) -> bool {
    attacked(p)
}

/// Checks node `n` (on line `line`, position `p`) on its own and records in `out` its
/// edges, `covered_by` claim and witnesses.
///
/// # Errors
/// [`CheckError::Invalid`] for the first rule it breaks; unreadable when it has not
/// exactly one of `moves` and `covered_by`.
pub(super) fn check(
    mut n: Node,
    p: &mut Position,
    line: usize,
    version: u64,
    listed: &mut Listed,
    out: &mut Pass,
) -> Result<(), CheckError> {
    let id = n.id;
    if n.by_checker {
        return check_by_checker(&n, p);
    }
    let moves = match (n.moves.take(), n.covered_by) {
        (Some(m), None) => m,
        (None, Some(_)) if n.futile.is_some() || n.nonfutile.is_some() => {
            return Err(invalid(id, "a covered node has no witnesses"))
        }
        (None, Some(m)) => {
            out.covers.push((n.ix, m));
            return Ok(());
        }
        _ => {
            return Err(unreadable(
                line,
                1,
                "a node has exactly one of `moves` and `covered_by`",
            ))
        }
    };
    listed.listed.clear();
    listed.all.clear();
    check_moves(&n, p, &moves, listed, out)?;
    check_futile(&n, p, listed, out)?;
    check_count(&n, p, moves.len(), listed)?;
    if !n.attacking && !attacked(p) {
        return Err(invalid(id, "a defender node not in check"));
    }
    if version >= 3 && !n.mate && !n.attacking {
        check_nonfutile(&n, p, out)?;
    }
    Ok(())
}

/// Version 4, a `by_checker` leaf: an attacker node of the bounded no-mate graph with
/// budget 1 or 2 (no mate within 2 is no mate within 1, `specs/certificate.md`), nothing
/// listed, covered or witnessed, and no check that mates within 1 ply under the 無駄合
/// convention, decided here ([`shallow::mate_in_1`]).
fn check_by_checker(n: &Node, p: &mut Position) -> Result<(), CheckError> {
    let id = n.id;
    if !n.attacking || n.mate || !matches!(n.budget, Some(1 | 2)) {
        return Err(invalid(
            id,
            "by_checker only at an attacker node with budget 1 or 2",
        ));
    }
    if n.moves.is_some() || n.covered_by.is_some() || n.futile.is_some() || n.nonfutile.is_some() {
        return Err(invalid(
            id,
            "a by_checker node lists no moves, cover or witnesses",
        ));
    }
    match shallow::mate_in_1(p) {
        Ok(None) => Ok(()),
        Ok(Some(c)) => Err(invalid(id, format!("by_checker: {c} mates within 1 ply"))),
        Err(why) => Err(invalid(id, format!("by_checker: {why}"))),
    }
}

/// Each listed move legal, listed once, a check where the attacker moves; its edge
/// recorded. Where every legal move must be listed, they are generated once and a
/// listed move's legality is membership; elsewhere it is tested alone.
fn check_moves(
    n: &Node,
    p: &mut Position,
    moves: &Pairs,
    listed: &mut Listed,
    out: &mut Pass,
) -> Result<(), CheckError> {
    let (id, attacking) = (n.id, n.attacking);
    let leaf = attacking && n.budget == Some(0);
    // A nomate attacker node must list its legal checks: those alone are generated.
    let generated = n.mate != attacking && !leaf;
    if generated {
        let all = if attacking {
            naive::legal_checks(p)
        } else {
            naive::legal_moves(p)
        };
        for m in all {
            listed.all.insert(m);
        }
    }
    for (usi, c) in moves {
        let m = match parse_usi_move(usi) {
            Ok(UsiMove(m)) => m,
            Err(_) => return Err(invalid(id, format!("{usi} is not legal"))),
        };
        if !listed.listed.insert(m) {
            return Err(invalid(id, format!("{usi} listed twice")));
        }
        // Where all legal moves were generated, a defender's move is legal iff it is
        // one of them; an attacker's move not among the checks is tested alone (and
        // then gives no check).
        let member = generated && listed.all.contains(m);
        let legal = member || ((!generated || attacking) && naive::is_legal(p, m));
        if !legal {
            return Err(invalid(id, format!("{usi} is not legal")));
        }
        // A generated check gives check; any other attacker move is played to see.
        if attacking && !member {
            p.play_unchecked(m);
            let check = gave_check(p);
            p.undo();
            if !check {
                return Err(invalid(id, format!("{usi} does not give check")));
            }
        }
        out.edges.push((n.ix, *c, m));
    }
    Ok(())
}

/// Version 3: a mate defender node leaves out the replies its futility witnesses show
/// futile (each legal, listed or left out once); a no-mate defender node's
/// interposition needs its non-futility witnesses ([`check_nonfutile`]); no other node
/// carries any.
fn check_futile(
    n: &Node,
    p: &mut Position,
    listed: &mut Listed,
    out: &mut Pass,
) -> Result<(), CheckError> {
    let (id, mate, attacking) = (n.id, n.mate, n.attacking);
    match (&n.futile, &n.nonfutile) {
        (Some(f), None) if mate && !attacking => {
            let (replies, edges) =
                futility::futile(p, &n.key, f).map_err(|w| invalid(id, w))?;
            for r in replies {
                if !listed.all.contains(r) {
                    return Err(invalid(id, format!("futile {r} is not legal")));
                }
                if !listed.listed.insert(r) {
                    return Err(invalid(id, format!("{r} listed twice")));
                }
            }
            let ix = n.ix;
            out.witnesses
                .extend(edges.into_iter().map(|(c, k)| (ix, c, k)));
        }
        (None, Some(_)) if !mate && !attacking => {}
        (None, None) => {}
        _ => {
            return Err(invalid(
                id,
                "futility witnesses only at mate defender nodes, non-futility ones at no-mate defender nodes",
            ))
        }
    }
    Ok(())
}

/// The number of moves its kind needs: one at a mate attacker node and a no-mate
/// defender node, none at a no-mate attacker leaf (budget 0), every legal reply at a
/// mate defender node (which, with none, must be in check) and every legal check at a
/// no-mate attacker node. Every listed move is legal and listed once, so "every legal
/// move (check) is listed" is a count; the missing ones are named only on failure.
fn check_count(n: &Node, p: &Position, moves: usize, listed: &Listed) -> Result<(), CheckError> {
    let id = n.id;
    let all = listed.listed.len() == listed.all.len();
    match (n.mate, n.attacking) {
        (false, true) if n.budget == Some(0) && moves != 0 => {
            return Err(invalid(
                id,
                "an attacker node with budget 0 is a leaf: it lists no moves",
            ))
        }
        (false, true) if n.budget == Some(0) => {}
        (true, true) if moves != 1 => {
            return Err(invalid(
                id,
                format!("a mate attacker node has {moves} moves, not 1"),
            ))
        }
        (true, false) => {
            if !all {
                return Err(invalid(
                    id,
                    format!("defender replies missing: {}", listed.missing()),
                ));
            }
            if moves == 0 && !attacked(p) {
                return Err(invalid(id, "a leaf that is not in check"));
            }
        }
        (false, true) if !all => {
            return Err(invalid(id, format!("checks missing: {}", listed.missing())))
        }
        (false, false) if moves != 1 => {
            return Err(invalid(
                id,
                format!("a nomate defender node has {moves} replies, not 1"),
            ))
        }
        _ => {}
    }
    Ok(())
}

/// Version 3, a no-mate defender node: the non-futility witnesses of its one reply
/// (the last edge recorded), one per recapture when the reply is an interposition.
fn check_nonfutile(n: &Node, p: &mut Position, out: &mut Pass) -> Result<(), CheckError> {
    let id = n.id;
    let r = out
        .edges
        .last()
        .map(|e| e.2)
        .ok_or_else(|| invalid(id, "no reply"))?;
    let edges = futility::nonfutile(p, &n.key, r, n.nonfutile.as_deref().unwrap_or(&[]))
        .map_err(|w| invalid(id, w))?;
    let ix = n.ix;
    out.witnesses
        .extend(edges.into_iter().map(|(c, k)| (ix, c, k)));
    Ok(())
}
