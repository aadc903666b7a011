//! The line a front end is shown while the search goes on (the USI engine's `info … score
//! mate L … pv …`, Python's `progress`): at each mate proven (the first proof, then each
//! shorter proof of the minimality search) a line read off the table alone, with no
//! search, so that the search's node counts and its table stay as they were.
//!
//! The walk is the cut minimality search's line walk ([`super::line`], inexact, hiding
//! the 無駄合 the table knows) without its searches: the attacker takes the check with the
//! smallest proof bound within the budget, the defender the reply with the largest (board
//! moves before drops on ties), skipping interpositions the table shows futile; each
//! child's bound is the next budget, so the line has at most the proven bound's plies.
//! Where that walk would search (a proof the table lost, a 無駄合 not yet tested), this one
//! passes the child over: a reply the table no longer proves is not shown, so the line
//! shows a defence the table holds, not one shown longest, and can be shorter than the
//! bound. A node with nothing left to take fails and the walk backtracks, within
//! [`LOOKS_PER_PLY`] look-ups a ply of the bound. The checker replays the line before it
//! is handed on.

use super::*;
use crate::tsume::ProvenLine;

/// Children looked up (and 無駄合 looked up) by one read, in all, per ply of the bound
/// (plus one): the read's cost is bounded by the bound, whatever the table holds.
const LOOKS_PER_PLY: u64 = 64;

impl<P: MatePosition> Solver<P> {
    /// When the driving thread asks for lines ([`crate::tsume::Control::with_line_hook`]):
    /// reads a mate line within `len` plies off the table from `root` (the solve's root,
    /// left as it was) and hands it on if the checker accepts it.
    pub(super) fn show_line(&mut self, root: &mut P, len: u16) {
        let Some(control) = self.opts.control.clone() else {
            return;
        };
        if !control.0.wants_lines() {
            return;
        }
        let Some(line) = self.table_line(root, len) else {
            return;
        };
        if root.check_mate_line(&line).is_err() {
            return;
        }
        control.0.report_line(ProvenLine {
            mate_within: len,
            usi: line
                .iter()
                .map(|m| m.to_string())
                .collect::<Vec<_>>()
                .join(" "),
            plies: line.len() as u16,
            nodes: self.nodes,
        });
    }

    /// A line within `len` plies from `root` (the attacker to move) read off the table, or
    /// `None` when the look-ups run out or no line is found.
    pub(super) fn table_line(&mut self, root: &mut P, len: u16) -> Option<Vec<P::Move>> {
        let mut looks = LOOKS_PER_PLY.saturating_mul(u64::from(len) + 1);
        let mut line = Vec::new();
        self.table_or(root, len, &mut looks, &mut line)
            .then_some(line)
    }

    /// The table's proof bounds within `cb` of the children `moves` of `pos`, each look-up
    /// spending one of `looks`; `None` when they run out.
    fn table_bounds(
        &self,
        pos: &mut P,
        moves: &[P::Move],
        cb: u16,
        looks: &mut u64,
    ) -> Option<Vec<Option<u16>>> {
        let mut bounds = Vec::with_capacity(moves.len());
        for &m in moves {
            *looks = looks.checked_sub(1)?;
            let (board, _, hand) = pos.keys_after(m, self.attacker);
            let found = self.table.lookup(board, hand, cb);
            bounds.push(found.and_then(|f| f.pns.is_proven().then_some(f.bound)));
        }
        Some(bounds)
    }

    /// The line from the attacker node `pos` within `budget`, appended to `line`.
    fn table_or(
        &mut self,
        pos: &mut P,
        budget: u16,
        looks: &mut u64,
        line: &mut Vec<P::Move>,
    ) -> bool {
        if budget == 0 {
            return false;
        }
        let mut moves = Vec::new();
        pos.checks(&mut moves);
        let Some(bounds) = self.table_bounds(pos, &moves, budget - 1, looks) else {
            return false;
        };
        for (b, i) in super::line::shortest_first(&bounds) {
            if self.table_child(pos, moves[i], b, looks, line) {
                return true;
            }
            if *looks == 0 {
                return false;
            }
        }
        false
    }

    /// The line from the defender node `pos` within `budget`, appended to `line`: none
    /// more when it is mate.
    fn table_and(
        &mut self,
        pos: &mut P,
        budget: u16,
        looks: &mut u64,
        line: &mut Vec<P::Move>,
    ) -> bool {
        let mut moves = Vec::new();
        pos.evasions(&mut moves);
        if moves.is_empty() {
            return true;
        }
        if budget == 0 {
            return false;
        }
        moves.sort_by_key(|&m| P::drop_square(m).map_or(0, |s| s as u32 + 1));
        let Some(bounds) = self.table_bounds(pos, &moves, budget - 1, looks) else {
            return false;
        };
        let mut order: Vec<usize> = (0..moves.len()).filter(|&i| bounds[i].is_some()).collect();
        // Longest proof first; the sort is stable, so board moves come before drops.
        order.sort_by_key(|&i| std::cmp::Reverse(bounds[i]));
        for i in order {
            let m = moves[i];
            if !self.opts.count_futile && pos.interposes(m) {
                *looks = looks.saturating_sub(1);
                if self.known_futile(pos, m, budget) {
                    continue;
                }
            }
            let b = bounds[i].expect("only proven replies are ordered");
            if self.table_child(pos, m, b, looks, line) {
                return true;
            }
            if *looks == 0 {
                return false;
            }
        }
        false
    }

    /// Plays `m` (counted in [`Stats::plays`]) and walks the child within `budget`; `m`
    /// and the child's line stay in `line` if it has one.
    fn table_child(
        &mut self,
        pos: &mut P,
        m: P::Move,
        budget: u16,
        looks: &mut u64,
        line: &mut Vec<P::Move>,
    ) -> bool {
        let attacker_moved = pos.side_to_move() == self.attacker;
        self.play(pos, m);
        line.push(m);
        let found = if attacker_moved {
            self.table_and(pos, budget, looks, line)
        } else {
            self.table_or(pos, budget, looks, line)
        };
        pos.undo();
        if !found {
            line.pop();
        }
        found
    }
}

#[cfg(test)]
mod tests {
    use crate::tsume::{
        load_problem, problems::read_problems, Control, DefenderHand, MatePosition, ProvenLine,
        SolverOptions,
    };
    use std::sync::{Arc, Mutex};

    /// The lines handed on while classics are solved: each replays as a mate line within
    /// its proven bound, the bounds only fall, the last is the answer's bound, and the
    /// search's node counts are those of the same solve without a hook (the read searches
    /// nothing; only the moves it plays are counted, in `plays`). 図巧33 proves 21, 19 and
    /// 17 plies on its way (its 17 shown by a 13-ply line), 図巧34 23 down to 17, 無双55
    /// 17 down to 13.
    #[test]
    fn lines_read_at_each_proof_are_mates_within_their_bounds_and_cost_no_nodes() {
        let text = include_str!("../../../specs/tsume/classics.sfen");
        let problems = read_problems(text);
        for (id, at_least) in [("zukou-033", 3), ("zukou-034", 4), ("musou-055", 3)] {
            let p = problems.iter().find(|p| p.id == id).unwrap();
            let pos = load_problem(&p.sfen, DefenderHand::Remaining).unwrap();
            let opts = SolverOptions {
                nodes: Some(1_000_000),
                memory_mib: 64,
                ..SolverOptions::default()
            };
            let plain = super::Solver::<crate::rules::Position>::new(SolverOptions {
                control: Some(Control::default()),
                ..opts.clone()
            })
            .solve(&pos);
            let seen: Arc<Mutex<Vec<ProvenLine>>> = Arc::default();
            let sink = Arc::clone(&seen);
            let control = Control::with_line_hook(move |l| sink.lock().unwrap().push(l));
            let r = super::Solver::<crate::rules::Position>::new(SolverOptions {
                control: Some(control),
                ..opts
            })
            .solve(&pos);
            assert_eq!(r.stats.nodes, plain.stats.nodes, "{id}");
            assert_eq!(r.line, plain.line, "{id}");
            let lines = seen.lock().unwrap().clone();
            assert!(lines.len() >= at_least, "{id}: {lines:?}");
            assert!(r.stats.plays > plain.stats.plays, "{id}");
            let mut last = u16::MAX;
            for l in &lines {
                let mut q = pos.clone();
                let moves: Vec<_> = l
                    .usi
                    .split(' ')
                    .map(|t| {
                        let m = crate::notation::sfen::resolve_usi_move(&q, t)
                            .unwrap_or_else(|e| panic!("{id}: {}: {t}: {e}", l.usi));
                        q.play_unchecked(m);
                        m
                    })
                    .collect();
                assert!(pos.check_mate_line(&moves).is_ok(), "{id}: {}", l.usi);
                assert_eq!(usize::from(l.plies), moves.len(), "{id}");
                assert!(l.plies <= l.mate_within, "{id}: {l:?}");
                assert!(l.mate_within < last, "{id}: {lines:?}");
                assert!(l.nodes <= r.stats.nodes, "{id}");
                last = l.mate_within;
            }
            assert_eq!(Some(last), r.mate_within, "{id}");
            assert_eq!(r.shortest, Some(true), "{id}");
        }
    }
}
