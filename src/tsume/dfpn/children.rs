//! A node's children and their first proof numbers (df-pn, Nagai 2002): a repetition of
//! the path, a path-dependent disproof, the table, or, for a new child, the 1-ply mate
//! check with df-pn+ at OR nodes and the attacker's check count at AND nodes (seed
//! `004_…`); and the order the defender's replies are searched in.

use super::hands::*;
use super::*;
use crate::rules::PieceKind;
use crate::tsume::table::Count;

/// One child of a node under expansion, with what the search knows about it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Child<M> {
    /// The move to the child.
    pub(super) mv: M,
    /// Its current numbers.
    pub(super) pns: ProofNumbers,
    /// Solved: the ply bound of its proof or disproof.
    pub(super) bound: u16,
    /// The ply of its table entry (its own ply when new); TCA: a child seen at or above
    /// this node's ply may be on a cycle.
    pub(super) ply: u16,
    /// Disproven: its path dependency (`NO_DEP`: none).
    pub(super) dep: u16,
    /// Its value is final (solved).
    pub(super) fixed: bool,
    /// Searched before (in the table or by this expansion), not a fresh leaf.
    pub(super) seen: bool,
    /// At AND nodes: the square of a drop (lazy interpositions).
    pub(super) drop_sq: Option<u8>,
    /// An interposition on a square no defender guards: searched after the other replies.
    pub(super) later: bool,
    /// Under a ply budget: an interposition whose futility (無駄合) is not yet known. It is
    /// tested only when every other reply is proven (`LAZY_FUTILITY`); until then it is
    /// neither searched nor a refutation.
    pub(super) pending: bool,
    /// A 無駄合 (tested): no reply; `bound` is the budget from which it is futile.
    pub(super) futile: bool,
    /// An interposition found no 無駄合 within its node's budget: it refutes only up to
    /// that budget (with more plies it may be futile), so a disproof it gives is capped.
    pub(super) cap: u16,
    /// For a proven child: its proof pieces (the attacker hand its proof needs).
    pub(super) ph: Hand,
    /// For a check: the hand kinds it drops / captures.
    pub(super) delta: (Option<PieceKind>, Option<PieceKind>),
}

/// A defender's replies in search order: board moves first (in generation order), then
/// the drops by square (nearest the king first under [`SERIAL_INTERPOSITIONS`]), a stable
/// sort. The generator lists drops last, so only they are sorted, each key computed once
/// (the whole-list `sort_by_key` was 2 % of a minimality proof's profile); the same order
/// as sorting the whole list (tested).
pub(super) fn sort_replies<P: MatePosition>(pos: &P, moves: &mut [P::Move]) {
    let key = |m: P::Move| {
        P::drop_square(m).map_or(0, |s| {
            if SERIAL_INTERPOSITIONS {
                1 + pos.king_distance(s) as u32 * 128 + s as u32
            } else {
                s as u32 + 1
            }
        })
    };
    let first_drop = moves
        .iter()
        .position(|&m| P::drop_square(m).is_some())
        .unwrap_or(moves.len());
    let drops = &mut moves[first_drop..];
    if drops.len() > crate::rules::MAX_MOVES || drops.iter().any(|&m| P::drop_square(m).is_none()) {
        moves.sort_by_key(|&m| key(m));
        return;
    }
    if drops.len() < 2 {
        return;
    }
    let mut keyed = arrayvec::ArrayVec::<(u32, P::Move), { crate::rules::MAX_MOVES }>::new();
    keyed.extend(drops.iter().map(|&m| (key(m), m)));
    keyed.sort_by_key(|&(k, _)| k);
    for (slot, (_, m)) in drops.iter_mut().zip(keyed) {
        *slot = m;
    }
}

/// A new child's numbers raised to the bounds the table's unsolved entries imply
/// ([`UNKNOWN_BOUNDS`]).
#[inline]
fn with_bounds(pns: ProofNumbers, b: ProofNumbers) -> ProofNumbers {
    if UNKNOWN_BOUNDS {
        ProofNumbers {
            pn: pns.pn.max(b.pn),
            dn: pns.dn.max(b.dn),
        }
    } else {
        pns
    }
}

impl<P: MatePosition> Solver<P> {
    /// The child after `m` with its first proof numbers: a repetition of the path, a
    /// path-dependent disproof, the table, or (unstored) the 1-ply mate check with df-pn+
    /// at OR nodes / the attacker's check count at AND nodes (seed `004_…`).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn child(
        &mut self,
        pos: &mut P,
        m: P::Move,
        (ckey, cpk, chand): (u64, u64, Hand),
        or: bool,
        depth: u16,
        child_budget: u16,
        lazy: bool,
    ) -> Child<P::Move> {
        // At AND nodes only the dropped kind is used (disproof pieces).
        let delta = pos.hand_delta(m);
        let later =
            !or && UNGUARDED_DROPS_LAST && P::drop_square(m).is_some() && pos.guards_of(m) == 0;
        let pending = lazy && pos.interposes(m);

        // The child's keys (`keys_after`) come without playing it: most children are
        // answered by the path, the repetition table, the table or the count memo, and
        // only the others are played.
        let mut c = Child {
            mv: m,
            pns: ProofNumbers::LEAF,
            bound: 0,
            ply: depth + 1,
            dep: NO_DEP,
            fixed: false,
            seen: false,
            drop_sq: if or { None } else { P::drop_square(m) },
            later,
            pending,
            futile: false,
            cap: UNBOUNDED,
            ph: chand,
            delta,
        };
        let Err(bounds) = self.known_child(&mut c, ckey, cpk, chand, child_budget) else {
            return c;
        };
        if or {
            self.count_replies(pos, &mut c, (ckey, cpk, chand), depth, child_budget, bounds);
        } else if INIT_DN_BY_CHECKS {
            if self.refute_near_horizon && child_budget == 1 && !c.pending {
                self.refute_within_one(pos, &mut c, (ckey, cpk), depth, bounds);
            } else {
                self.count_checks(pos, &mut c, (ckey, cpk, chand), depth, bounds);
            }
        }
        c
    }

    /// Fills `c` from what is already known about it: a repetition on the path, a
    /// path-dependent disproof, or the table (`Ok`). A new child gets `Err` with the
    /// bounds the table's unsolved entries of its board imply (`LEAF` when none apply).
    fn known_child(
        &self,
        c: &mut Child<P::Move>,
        ckey: u64,
        cpk: u64,
        chand: Hand,
        child_budget: u16,
    ) -> Result<(), ProofNumbers> {
        if let Some(&d) = self.path.get(&cpk) {
            // Repetition on the path: 連続王手の千日手, a failure for the attacker, valid only on this path.
            c.pns = ProofNumbers::DISPROVEN;
            c.bound = UNBOUNDED;
            c.dep = d;
            c.fixed = true;
            return Ok(());
        }
        if let Some(&(b, d)) = self
            .rep_table
            .get(&(cpk, self.path_hash))
            .filter(|x| x.0 >= child_budget)
        {
            c.pns = ProofNumbers::DISPROVEN;
            c.bound = b;
            c.dep = d;
            c.fixed = true;
            return Ok(());
        }
        match self.table.lookup_or_bounds(ckey, chand, child_budget) {
            Ok(f) => {
                c.pns = f.pns;
                c.bound = f.bound;
                c.ply = f.ply;
                c.seen = true;
                c.ph = f.hand;
                Ok(())
            }
            // For a new child: the bounds the unsolved entries of its board imply
            // (`UNKNOWN_BOUNDS`; `Solver::with_bounds` from the same scan). Not from a
            // board on the path: an ancestor's numbers would feed back into themselves
            // through this child (新桃花源 looped at 84 M nodes, each round raising them
            // by a few, no entry added for 1.5 G nodes; `PathMap::has_board`).
            Err(b) if !self.path.has_board(ckey) => Err(b),
            Err(_) => Err(ProofNumbers { pn: 1, dn: 1 }),
        }
    }

    /// A new check `c.mv`'s first numbers (seed 004's 1-ply mate check): the defender's
    /// reply count is its proof number. Counted without generating the replies (drops
    /// once per square, as the lazy interposition expands them), memoised by position;
    /// the child is played only to count, and when it is mated or out of plies.
    fn count_replies(
        &mut self,
        pos: &mut P,
        c: &mut Child<P::Move>,
        (ckey, cpk, chand): (u64, u64, Hand),
        depth: u16,
        child_budget: u16,
        bounds: ProofNumbers,
    ) {
        let memo = if child_budget != 0 {
            self.table.count(cpk, Count::Replies)
        } else {
            None
        };
        let replies = match memo {
            Some(n) => n,
            None => {
                self.play(pos, c.mv);
                let n = if child_budget == 0 && pos.has_reply_besides_interposition() {
                    // Out of plies after the check with a reply that is no interposition
                    // (no 無駄合 test can remove it): refuted whatever the hands, as
                    // `moves_of` would find, without counting the replies (the count
                    // below is then unused).
                    c.pns = ProofNumbers::DISPROVEN;
                    c.fixed = true;
                    c.ph = if DISPROOF_PIECES {
                        any_hand(chand, pos.hand_of(!self.attacker))
                    } else {
                        chand
                    };
                    1
                } else {
                    let n = pos.reply_count();
                    self.table.set_count(cpk, Count::Replies, n);
                    if n == 0 {
                        let ph = and_proof_hand(
                            Hand::EMPTY,
                            chand,
                            pos.hand_of(!self.attacker),
                            pos.interposable(),
                        );
                        self.table
                            .store(ckey, ph, ProofNumbers::PROVEN, 0, depth + 1, 1);
                        c.pns = ProofNumbers::PROVEN;
                        c.ph = ph;
                    }
                    n
                };
                pos.undo();
                n
            }
        };
        if !c.pns.is_solved() {
            // df-pn+ (Nagai 2002): a check on a square two defenders guard looks harder.
            let guarded = u32::from(pos.defenders_of(c.mv) >= 2);
            c.pns = ProofNumbers {
                pn: replies.max(1) + guarded,
                dn: 1,
            };
            c.pns = with_bounds(c.pns, bounds);
        }
    }

    /// A new reply `c.mv` with one ply left after it (its node has budget 2): the attacker
    /// node it leads to is decided without being expanded when every check there leaves a
    /// reply that is no interposition ([`Solver::refuted_within_one`]); otherwise the
    /// reply gets its check count, as [`Solver::count_checks`] gives it.
    fn refute_within_one(
        &mut self,
        pos: &mut P,
        c: &mut Child<P::Move>,
        (ckey, cpk): (u64, u64),
        depth: u16,
        bounds: ProofNumbers,
    ) {
        self.play(pos, c.mv);
        let (n, refuted) = self.refuted_within_one(pos);
        pos.undo();
        self.table.set_count(cpk, Count::Checks, n);
        match refuted {
            Some(r) => {
                self.table
                    .store(ckey, r.hand, ProofNumbers::DISPROVEN, r.bound, depth + 1, 1);
                c.pns = ProofNumbers::DISPROVEN;
                c.bound = r.bound;
                c.fixed = n != 0;
                c.ph = r.hand;
            }
            None => c.pns = with_bounds(ProofNumbers { pn: 1, dn: n }, bounds),
        }
    }

    /// A new reply `c.mv`'s first numbers: the checks it leaves the attacker are its
    /// disproof number (df-pn+, counted and memoised by position); none is a disproof.
    fn count_checks(
        &mut self,
        pos: &mut P,
        c: &mut Child<P::Move>,
        (ckey, cpk, chand): (u64, u64, Hand),
        depth: u16,
        bounds: ProofNumbers,
    ) {
        let checks = match self.table.count(cpk, Count::Checks) {
            Some(n) => n,
            None => {
                self.play(pos, c.mv);
                let n = pos.check_count();
                self.table.set_count(cpk, Count::Checks, n);
                if n == 0 {
                    let dh = if DISPROOF_PIECES {
                        leaf_disproof_hand(chand, pos.hand_of(!self.attacker))
                    } else {
                        chand
                    };
                    self.table
                        .store(ckey, dh, ProofNumbers::DISPROVEN, UNBOUNDED, depth + 1, 1);
                    c.pns = ProofNumbers::DISPROVEN;
                    c.bound = UNBOUNDED;
                    c.ph = dh;
                }
                pos.undo();
                n
            }
        };
        if checks != 0 {
            c.pns = with_bounds(ProofNumbers { pn: 1, dn: checks }, bounds);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tsume::{load_problem, problems::read_problems, DefenderHand, SolverOptions};

    /// `sort_replies` (drops only, keys once) against sorting the whole list.
    #[test]
    fn sorted_replies_are_the_whole_list_sorted() {
        use crate::rules::{Move, Position};
        let whole = |pos: &Position, mut v: Vec<Move>| {
            v.sort_by_key(|&m| {
                <Position as MatePosition>::drop_square(m).map_or(0, |s| {
                    1 + MatePosition::king_distance(pos, s) as u32 * 128 + s as u32
                })
            });
            v
        };
        // Every move list along random play from the classics, in check or not, and the
        // same reversed (drops first: the fallback sorts the whole list).
        let text = include_str!("../../../specs/tsume/classics.sfen");
        let mut checked = 0;
        for p in read_problems(text).iter().take(40) {
            let mut pos = load_problem(&p.sfen, DefenderHand::Remaining).unwrap();
            for ply in 0..24 {
                let all = pos.legal_moves();
                if all.is_empty() {
                    break;
                }
                for list in [all.to_vec(), all.iter().rev().copied().collect()] {
                    let mut fast = list.clone();
                    sort_replies(&pos, &mut fast);
                    let sfen = crate::notation::sfen::write_sfen(&pos);
                    assert_eq!(fast, whole(&pos, list), "{sfen}");
                }
                checked += 1;
                pos.play_unchecked(all[(ply * 7 + 3) % all.len()]);
            }
        }
        assert!(checked > 500, "{checked}");
    }

    /// A child starts from the proof number an unsolved entry of its board implies by
    /// hand superiority, unless a position with that board is on the path (an
    /// ancestor's number would feed back into itself: the 新桃花源 livelock).
    #[test]
    fn no_unsolved_bound_from_a_board_on_the_path() {
        use crate::rules::{PieceKind, Position};
        let text = include_str!("../../../specs/tsume/classics.sfen");
        let p = read_problems(text)
            .into_iter()
            .find(|p| p.id == "zukou-002")
            .unwrap();
        let mut pos = load_problem(&p.sfen, DefenderHand::Remaining).unwrap();
        let mut s = Solver::<Position>::new(SolverOptions {
            memory_mib: 16,
            ..SolverOptions::default()
        });
        s.attacker = pos.side_to_move();
        let mut checks = Vec::new();
        pos.checks(&mut checks);
        // A check the defender can answer (the 1-ply mate test gives its reply count).
        let m = checks
            .into_iter()
            .find(|&m| {
                MatePosition::play(&mut pos, m);
                let n = pos.reply_count();
                MatePosition::undo(&mut pos);
                n > 0
            })
            .unwrap();
        let (ckey, cpk, chand) = pos.keys_after(m, s.attacker);
        // An unsolved entry of the child's board with one pawn more in hand: the child
        // (fewer pieces) needs at least its proof number.
        let richer = chand.add(PieceKind::Pawn);
        s.table
            .store(ckey, richer, ProofNumbers { pn: 1000, dn: 7 }, 0, 9, 50);
        let first = |s: &mut Solver<Position>, pos: &mut Position| {
            s.child(pos, m, (ckey, cpk, chand), true, 1, UNBOUNDED, false)
                .pns
        };
        assert!(first(&mut s, &mut pos).pn >= 1000);
        // Another position with the child's board (other hands) on the path.
        s.path.insert(cpk ^ 0x100, ckey, 1);
        assert!(first(&mut s, &mut pos).pn < 1000);
        s.path.remove(&(cpk ^ 0x100));
        assert!(first(&mut s, &mut pos).pn >= 1000);
    }
}
