//! Witnesses of the 無駄合 convention (`specs/certificate.md`, version 3) for the
//! bounded graphs of a default-mode length claim: an interposition in the mate graph is
//! answered by a reply's subgraph or left out with a futility witness (a futility test
//! proven mate within the node's budget); in the no-mate graph the chosen interposition
//! needs a non-futility witness for each futility test (no mate within the budget).

use super::super::{stuck, ExtractError, Witness};
use super::{budget_minus, fatal, Extractor};
use crate::rules::{Move, Position, Rules};
use crate::tsume::MatePosition;

/// The futility tests of the reply `r` at the defender node `pos`, each with its
/// recapture: the solver's [`MatePosition::futility_tests`] (`specs/tsume.md`), with the
/// move kept. Empty unless `r` is an interposition.
pub(super) fn tests(pos: &Position, r: Move) -> Vec<(Move, Position)> {
    if !pos.interposes(r) {
        return Vec::new();
    }
    let Some(x) = pos.checkers().first() else {
        return Vec::new();
    };
    let mut after = pos.clone();
    after.play_unchecked(r);
    let Some(piece) = after.piece_at(r.to()) else {
        return Vec::new();
    };
    let kind = piece.kind.unpromote();
    let (def, att) = (pos.side_to_move(), after.side_to_move());
    let mut out = Vec::new();
    for c in after.legal_moves() {
        if c.from() != Some(x) || c.to() != r.to() {
            continue;
        }
        let mut q = after.clone();
        q.play_unchecked(c);
        if !MatePosition::in_check(&q) {
            continue;
        }
        let mut setup = q.to_setup();
        setup.hands[att] = setup.hands[att].remove(kind);
        setup.hands[def] = setup.hands[def].add(kind);
        // The defender to move, the attacker possibly without a king (as the solver's).
        if let Ok(q) = Position::from_setup(setup, Rules::TSUME.swapped()) {
            out.push((c, q));
        }
    }
    out
}

/// How a mate defender node answers one interposition.
pub(super) enum Answer {
    /// A reply with its child's node (the interposition counted).
    Reply(usize),
    /// Left out: futile within the node's budget.
    Futile(Witness),
}

impl Extractor<'_> {
    /// Mate, under the convention: the interposition `r` at the defender node `pos`
    /// (budget `b`) answered by its child within `b` − 1 when a table proves that, else
    /// by a futility test mate within `b` (the tables' first, then any), else by its
    /// child after all (fresh solves below).
    pub(super) fn mate_interposition(
        &mut self,
        pos: &Position,
        r: Move,
        b: u16,
    ) -> Result<Answer, ExtractError> {
        let mut child = pos.clone();
        child.play_unchecked(r);
        let cb = budget_minus(b);
        let mut last = None;
        let settled = |x: &Self, p: &Position, b: u16| {
            x.find(p, b).is_some() || x.cover(p, b).is_some() || x.probe_proven(p, b).is_some()
        };
        let child_first = b > 0 && settled(self, &child, cb);
        if child_first {
            match self.mate_attacker(&child, cb) {
                Ok(c) => return Ok(Answer::Reply(c)),
                Err(e) if fatal(&e) => return Err(e),
                Err(e) => last = Some(e),
            }
        }
        let tests = tests(pos, r);
        let mut order: Vec<usize> = (0..tests.len()).collect();
        order.sort_by_key(|&i| !settled(self, &tests[i].1, b));
        for i in order {
            let (c, q) = &tests[i];
            match self.mate_defender(q, b) {
                Ok(n) => {
                    return Ok(Answer::Futile(Witness {
                        reply: r,
                        recapture: *c,
                        node: n,
                    }))
                }
                Err(e) if fatal(&e) => return Err(e),
                Err(e) => last = Some(e),
            }
        }
        if b > 0 && !child_first {
            return self.mate_attacker(&child, cb).map(Answer::Reply);
        }
        Err(last.unwrap_or_else(|| stuck(pos, format!("{r} is neither mated nor futile"))))
    }

    /// No mate, under the convention: the non-futility witnesses of the reply `r` at the
    /// defender node `pos` (budget `b`): each futility test no mate within `b`.
    pub(super) fn nonfutile(
        &mut self,
        pos: &Position,
        r: Move,
        b: u16,
    ) -> Result<Vec<Witness>, ExtractError> {
        let mut out = Vec::new();
        for (c, q) in tests(pos, r) {
            let n = self.nomate_defender(&q, b)?;
            out.push(Witness {
                reply: r,
                recapture: c,
                node: n,
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tsume::{load_problem, solve, DefenderHand, SolverOptions};

    /// The tests with their recaptures are the solver's `futility_tests`, position by
    /// position, for every reply of every defender node on a few solution lines.
    #[test]
    fn tests_are_the_solvers_futility_tests() {
        let mut compared = 0;
        for sfen in [
            "8k/8p/6P2/9/9/9/9/9/B8 b - 1",
            "8k/6S2/7G1/9/9/9/8N/9/8L b - 1",
            "9/1k7/9/B2+R5/N8/9/9/9/9 b Lrb4g4s3n3l18p 1",
            "7n1/5+B+P1r/7k1/7+p1/6P2/7N1/7N1/8B/9 b N2Pr4g4s4l13p 1",
        ] {
            let root = load_problem(sfen, DefenderHand::Remaining).unwrap();
            let r = solve(&root, &SolverOptions::default());
            let mut pos = root.clone();
            for (i, &m) in r.line.iter().enumerate() {
                pos.play_unchecked(m);
                if i % 2 == 1 {
                    continue;
                }
                for reply in pos.legal_moves() {
                    let mine: Vec<Position> = tests(&pos, reply).into_iter().map(|t| t.1).collect();
                    assert_eq!(mine, pos.futility_tests(reply), "{sfen} {reply}");
                    compared += usize::from(!mine.is_empty());
                }
            }
        }
        assert!(compared >= 20, "{compared}");
    }
}
