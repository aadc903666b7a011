//! The mate graph (`specs/certificate.md`): an attacker node takes one proven check
//! (the one with the smallest proven length bound that closes without a cycle, a fresh
//! solve of the node when the table has none); a defender node lists every legal reply
//! (futile interpositions too: the graph proves plain mate). Under a budget the graph's
//! depth stays within it; under the 無駄合 convention an interposition may be left out
//! with a futility witness (`futile`).

use super::super::{stuck, Body, ExtractError};
use super::futile::Answer;
use super::{budget_minus, fatal, Extractor};
use crate::rules::{Move, Position};
use crate::tsume::MatePosition;
use crate::tsume::Outcome;

impl Extractor<'_> {
    pub(super) fn mate_attacker(&mut self, pos: &Position, b: u16) -> Result<usize, ExtractError> {
        self.memo_failure(pos, b, Self::mate_attacker_)
    }

    fn mate_attacker_(&mut self, pos: &Position, b: u16) -> Result<usize, ExtractError> {
        if self.on_path(pos) {
            return Err(stuck(pos, "cycle"));
        }
        if let Some(id) = self.known(pos, b)? {
            return Ok(id);
        }
        if b == 0 {
            return Err(stuck(pos, "no plies left to mate"));
        }
        if let Some(r) = self.via_general(pos, b, Self::mate_attacker) {
            return r;
        }
        let id = self.new_id(pos, b)?;
        let mut last = None;
        // The table's proven checks first; then a fresh solve of this node one level down.
        for attempt in 0..2 {
            if attempt == 1 {
                match self.fresh(pos, b) {
                    Ok(Outcome::Mate) => {}
                    Ok(_) => break,
                    Err(e) => {
                        self.forget(id, pos);
                        return Err(e);
                    }
                }
            }
            for (_, m) in self.proven_checks(pos, b) {
                let child = pos.after_unchecked(m);
                if self.on_path(&child) {
                    continue;
                }
                match self.mate_defender(&child, budget_minus(b)) {
                    Ok(c) => {
                        self.finish(id, pos, Body::Moves(vec![(m, c)]));
                        return Ok(id);
                    }
                    Err(e) if fatal(&e) => {
                        self.forget(id, pos);
                        return Err(e);
                    }
                    Err(e) => last = Some(e),
                }
            }
        }
        self.forget(id, pos);
        Err(last.unwrap_or_else(|| stuck(pos, "no proven check in the table")))
    }

    /// Checks whose child is proven within `b` − 1 plies: those into a finished node of
    /// the graph first (a transposition costs nothing), then those into a position a
    /// finished node covers (one node), then the rest; shortest bound first within each
    /// group.
    fn proven_checks(&self, pos: &Position, b: u16) -> Vec<(u16, Move)> {
        let cb = budget_minus(b);
        let mut v: Vec<(u8, u16, Move)> = Self::checks(pos)
            .into_iter()
            .filter_map(|m| {
                let c = pos.after_unchecked(m);
                let group = if self.on_path(&c) {
                    return None;
                } else if self.find(&c, cb).is_some() {
                    0
                } else if self.cover(&c, cb).is_some() {
                    1
                } else {
                    2
                };
                let bound = if group == 2 {
                    self.probe_proven(&c, cb)?
                } else {
                    0
                };
                Some((group, bound, m))
            })
            .collect();
        v.sort_by_key(|&(g, b, _)| (g, b));
        v.into_iter().map(|(_, b, m)| (b, m)).collect()
    }

    pub(super) fn mate_defender(&mut self, pos: &Position, b: u16) -> Result<usize, ExtractError> {
        self.memo_failure(pos, b, Self::mate_defender_)
    }

    fn mate_defender_(&mut self, pos: &Position, b: u16) -> Result<usize, ExtractError> {
        if self.on_path(pos) {
            return Err(stuck(pos, "cycle"));
        }
        if let Some(id) = self.known(pos, b)? {
            return Ok(id);
        }
        if let Some(r) = self.via_general(pos, b, Self::mate_defender) {
            return r;
        }
        let replies = pos.legal_moves();
        // Under the convention an interposition may be left out as futile (a witness).
        let futile = |r: &Move| self.uncounted && pos.interposes(*r);
        if b == 0 && replies.iter().any(|r| !futile(r)) {
            return Err(stuck(pos, "not mated within the budget"));
        }
        let id = self.new_id(pos, b)?;
        let mut moves = Vec::new();
        let mut witnesses = Vec::new();
        for r in replies {
            let answer = if self.uncounted && pos.interposes(r) {
                self.mate_interposition(pos, r, b)
            } else {
                let child = pos.after_unchecked(r);
                self.mate_attacker(&child, budget_minus(b))
                    .map(Answer::Reply)
            };
            match answer {
                Ok(Answer::Reply(c)) => moves.push((r, c)),
                Ok(Answer::Futile(w)) => witnesses.push(w),
                Err(e) => {
                    self.forget(id, pos);
                    return Err(e);
                }
            }
        }
        self.finish_with(id, pos, Body::Moves(moves), witnesses);
        Ok(id)
    }
}
