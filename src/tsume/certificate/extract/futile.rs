//! Witnesses of the 無駄合 convention (`specs/certificate.md`, versions 3 and 4) for the
//! bounded graphs of a default-mode length claim: an interposition in the mate graph is
//! answered by a reply's subgraph or left out with a futility witness (a futility test
//! proven mate within the node's budget); in the no-mate graph the chosen interposition
//! needs a non-futility witness for each futility test (no mate within the budget).

use super::super::{stuck, ExtractError, Witness};
use super::{budget_minus, fatal, Extractor};
use crate::rules::{Move, Position};

/// The futility tests of the reply `r` at the defender node `pos`, each with its
/// recapture (the solver's, `specs/tsume.md`); empty unless `r` is an interposition.
pub(super) fn tests(pos: &Position, r: Move) -> Vec<(Move, Position)> {
    crate::tsume::position::futility_recaptures(pos, r)
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
        let child = pos.after_unchecked(r);
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
