//! Attacker nodes one ply from the end of a ply budget, decided without expanding them:
//! such a node has no mate when every check leaves the defender a reply that is no
//! interposition (no 無駄合 test can remove it, `specs/tsume.md`), and the defender node
//! above it (two plies left) is then refuted by the reply that led there. `mid` would find
//! the same at those nodes; this test skips its children's keys, table probes and stores.
//! Only refutations are decided here: a node that may be mated is left to `mid`.

use super::hands::*;
use super::*;

/// A node refuted within its budget: no mate within `bound` plies, for every attacker
/// hand up to `hand` (disproof pieces, as `mid` computes them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Refuted {
    pub(super) bound: u16,
    pub(super) hand: Hand,
}

impl<P: MatePosition> Solver<P> {
    /// At an attacker node (`pos`, the attacker to move) with one ply left: its number of
    /// checks, and whether it is refuted within 1 ply (no check: whatever the budget; or
    /// every check leaves a reply that is no interposition, within more plies when the
    /// table refutes every check's child). `None`: some check may mate.
    pub(super) fn refuted_within_one(&mut self, pos: &mut P) -> (u32, Option<Refuted>) {
        let mut checks = self.pool.moves.pop().unwrap_or_default();
        checks.clear();
        pos.checks(&mut checks);
        let attacker = pos.hand_of(self.attacker);
        let n = checks.len() as u32;
        let mut min: Option<Hand> = None;
        let mut refuted = true;
        for &m in checks.iter() {
            let delta = pos.hand_delta(m);
            self.play(pos, m);
            let reply = pos.has_reply_besides_interposition();
            let ph = any_hand(pos.hand_of(self.attacker), pos.hand_of(!self.attacker));
            pos.undo();
            if !reply {
                refuted = false;
                break;
            }
            let h = or_disproof_child(ph, delta);
            min = Some(min.map_or(h, |m| hand_min(m, h)));
        }
        if !refuted {
            self.pool.moves.push(checks);
            return (n, None);
        }
        let known = self.known_refutations(pos, &checks);
        self.pool.moves.push(checks);
        if let Some(r) = known {
            return (n, Some(r));
        }
        let r = match min {
            // No check: refuted whatever the budget (as `moves_of` stores it).
            None => Refuted {
                bound: UNBOUNDED,
                hand: if DISPROOF_PIECES {
                    leaf_disproof_hand(attacker, pos.hand_of(!self.attacker))
                } else {
                    attacker
                },
            },
            Some(min) => Refuted {
                bound: 1,
                hand: if DISPROOF_PIECES {
                    or_disproof_hand(min, attacker)
                } else {
                    attacker
                },
            },
        };
        (n, Some(r))
    }

    /// When the table already refutes every check's child within more than 0 plies (a
    /// complete disproof, often), the attacker node is refuted within the least of
    /// those bounds + 1 with the disproof pieces those entries give, as `mid` would find
    /// there; `None` at the first child the table does not refute (the node is then
    /// refuted within 1 ply only). Without this, ミクロコスモス's minimality proof took
    /// 27 % more nodes: its complete disproofs came back as refutations within 1 ply.
    fn known_refutations(&self, pos: &mut P, checks: &[P::Move]) -> Option<Refuted> {
        let mut bound = UNBOUNDED;
        let mut min: Option<Hand> = None;
        for &m in checks {
            let (ckey, _, chand) = pos.keys_after(m, self.attacker);
            let f = self.table.lookup(ckey, chand, 0)?;
            if !f.pns.is_disproven() || f.bound == 0 {
                return None;
            }
            bound = bound.min(f.bound);
            let h = or_disproof_child(f.hand, pos.hand_delta(m));
            min = Some(min.map_or(h, |x| hand_min(x, h)));
        }
        let attacker = pos.hand_of(self.attacker);
        Some(Refuted {
            bound: bound_plus(bound),
            hand: match min {
                Some(min) if DISPROOF_PIECES => or_disproof_hand(min, attacker),
                _ => attacker,
            },
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{PieceKind, Position};
    use crate::tsume::{load_problem, naive, problems::read_problems, DefenderHand, SolverOptions};

    /// `refuted_within_one` against the naive twin (exhaustive, 無駄合 by definition 1):
    /// at the attacker's nodes of random check-and-reply walks from the classics, a
    /// refutation means no mate within 1 ply, its bound is unbounded exactly when there is
    /// no check (the table is empty here), and its disproof pieces cover the hand; a mate
    /// in 1 is never refuted.
    #[test]
    fn refuted_within_one_agrees_with_the_naive_twin() {
        let text = include_str!("../../../specs/tsume/classics.sfen");
        let mut s = Solver::<Position>::new(SolverOptions {
            memory_mib: 16,
            ..SolverOptions::default()
        });
        let (mut refuted, mut open, mut mates) = (0, 0, 0);
        for (i, p) in read_problems(text).iter().enumerate() {
            let mut pos = load_problem(&p.sfen, DefenderHand::Remaining).unwrap();
            s.attacker = pos.side_to_move();
            for ply in 0..40usize {
                let mut moves = Vec::new();
                if pos.side_to_move() == s.attacker {
                    let (n, r) = s.refuted_within_one(&mut pos);
                    pos.checks(&mut moves);
                    assert_eq!(n as usize, moves.len());
                    let sfen = crate::notation::sfen::write_sfen(&pos);
                    let naive1 = naive::mate_length(&pos, 1);
                    match r {
                        Some(r) => {
                            refuted += 1;
                            assert_eq!(naive1, None, "{sfen}");
                            assert_eq!(r.bound == UNBOUNDED, n == 0, "{sfen}");
                            let hand = pos.hand_of(s.attacker);
                            for &k in PieceKind::HAND.iter() {
                                assert!(r.hand.count(k) >= hand.count(k), "{sfen}");
                            }
                        }
                        None => {
                            open += 1;
                            mates += usize::from(naive1 == Some(1));
                        }
                    }
                } else {
                    pos.evasions(&mut moves);
                }
                if moves.is_empty() {
                    break;
                }
                let m = moves[(i * 31 + ply * 7 + 3) % moves.len()];
                MatePosition::play(&mut pos, m);
            }
        }
        assert!(
            refuted > 1000 && open > 150 && mates > 100,
            "{refuted} {open} {mates}"
        );
    }

    /// With the table refuting every check's child (within 5 plies, one of them whatever
    /// the budget), the node is refuted within 6 with those entries' pieces; with one
    /// child unknown to the table, within 1 ply only.
    #[test]
    fn the_tables_refutations_raise_the_bound() {
        let text = include_str!("../../../specs/tsume/classics.sfen");
        let mut tried = 0;
        for p in read_problems(text).iter().take(40) {
            let mut pos = load_problem(&p.sfen, DefenderHand::Remaining).unwrap();
            let mut s = Solver::<Position>::new(SolverOptions {
                memory_mib: 16,
                ..SolverOptions::default()
            });
            s.attacker = pos.side_to_move();
            let (n, Some(plain)) = s.refuted_within_one(&mut pos) else {
                continue;
            };
            if n < 2 {
                continue;
            }
            assert_eq!(plain.bound, 1, "{}", p.id);
            let mut checks = Vec::new();
            pos.checks(&mut checks);
            let keys: Vec<_> = checks
                .iter()
                .map(|&m| pos.keys_after(m, s.attacker))
                .collect();
            // Every child but the last refuted in the table: still within 1 ply only.
            for (i, &(ckey, _, chand)) in keys.iter().enumerate().skip(1) {
                let bound = if i == 1 { UNBOUNDED } else { 5 };
                s.table
                    .store(ckey, chand, ProofNumbers::DISPROVEN, bound, 2, 1);
            }
            assert_eq!(s.refuted_within_one(&mut pos).1.unwrap().bound, 1);
            let (ckey, _, chand) = keys[0];
            s.table.store(ckey, chand, ProofNumbers::DISPROVEN, 5, 2, 1);
            let r = s.refuted_within_one(&mut pos).1.unwrap();
            assert_eq!(r.bound, 6, "{}", p.id);
            assert_eq!(r.hand, pos.hand_of(s.attacker), "{}", p.id);
            tried += 1;
        }
        assert!(tried >= 5, "{tried}");
    }
}
