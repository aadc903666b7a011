//! The nomate graph (`specs/certificate.md`): an attacker node lists every legal check;
//! a defender node takes one reply into the graph (a repetition), into a covered or
//! disproven position, or one a search with the graph taken as disproven refutes
//! ([`Solver::solve_assuming`](crate::tsume::Solver::solve_assuming)), taking back a choice that fails. Under a budget `b`
//! each node claims no mate within `b` plies; under the 無駄合 convention a chosen
//! interposition carries its non-futility witnesses (`futile`).

use super::super::{stuck, Body, ExtractError};
use super::fallback::SMALL_SOLVE_NODES;
use super::{budget_minus, fatal, shallow, Extractor};
use crate::rules::{Move, Position};
use crate::tsume::table::UNBOUNDED;
use crate::tsume::{MatePosition, Outcome};

/// Node budgets of the rounds in which a nomate defender node searches its open
/// replies (with the graph taken as disproven), before one of
/// [`ExtractLimits::fallback_nodes`](super::super::ExtractLimits::fallback_nodes): a round stops at the budget where some reply is
/// refuted, so a reply hard to decide costs little while an easy refutation exists
/// (the assuming solver keeps its table, so a later round goes on where the last
/// stopped). The rounds of 100 000 and 500 000 nodes keep a reply that is hard to
/// decide from costing the full fallback budget while a cheaper refutation needs a few
/// hundred thousand: 無双84's length certificate fell from 244 296 nodes and 4.7 s of
/// extraction to 97 224 and 1.6 s (session 14, bounded graphs); in plain graphs too
/// since session 28, where a random nomate solved in 35 979 nodes had run out of its
/// 1 M fallback nodes at one defender node (eight replies searched with 2 M nodes each
/// after 20 000, one refuted within 2 404 more; `tests/tsume_certificate.rs`).
const NOMATE_REPLY_NODES: [u64; 5] = [256, 4096, SMALL_SOLVE_NODES, 100_000, 500_000];

/// Under a budget, a reply that a round's search refutes within this many nodes is taken
/// at once, before the node's other open replies are searched. Searching every open reply
/// first (to take the cheapest refutation) spent most of a hard length certificate's
/// fallback nodes on replies no 256-node search decides: 図巧91's no-mate half ran out of
/// its 54.1 M nodes in 672 k searches, 23 M of them on such replies, and is now built
/// within the total (session 29). On all 200 classics at 2 M nodes the 145 certified
/// lengths have 23.03 M graph nodes instead of 23.10 M and take 193.8 instead of 221.0
/// CPU s of extraction (`paper/results/certificates.md`, session 29).
const QUICK_REFUTATION_NODES: u64 = 32;

/// One round of a nomate defender node's choice of reply.
#[derive(Clone, Copy)]
enum Round {
    /// Replies into the graph, a covered position or a table's disproof (no search).
    Known,
    /// Every open reply searched with the graph taken as disproven, within this many nodes.
    Search(u64),
    /// Under a budget: every open reply searched on the deep tier ([`Extractor::deep`]).
    Deep,
}

impl Extractor<'_> {
    pub(super) fn nomate_attacker(
        &mut self,
        pos: &Position,
        b: u16,
    ) -> Result<usize, ExtractError> {
        self.memo_failure(pos, b, Self::nomate_attacker_)
    }

    fn nomate_attacker_(&mut self, pos: &Position, b: u16) -> Result<usize, ExtractError> {
        if let Some(id) = self.known(pos, b)? {
            return Ok(id); // cycles are allowed
        }
        if b == 0 {
            // No plies left: no mate within 0 (a leaf of the bounded graph).
            let id = self.new_id(pos, b)?;
            self.finish(id, pos, Body::Moves(Vec::new()));
            return Ok(id);
        }
        // Under the convention one ply from the end: a leaf the checker decides (version
        // 4), when the claim holds (else the checks below find the mate and fail).
        if self.uncounted && shallow::leaf_budget(b) && !shallow::mates_in_1(pos) {
            let id = self.new_id(pos, b)?;
            self.finish(id, pos, Body::ByChecker);
            return Ok(id);
        }
        if let Some(r) = self.via_general(pos, b, Self::nomate_attacker) {
            return r;
        }
        let id = self.new_id(pos, b)?;
        let mut moves = Vec::new();
        for m in Self::checks(pos) {
            let child = pos.after_unchecked(m);
            moves.push((m, self.nomate_defender(&child, budget_minus(b))?));
        }
        self.finish(id, pos, Body::Moves(moves));
        Ok(id)
    }

    /// A nomate defender node: one reply into a position that is no mate given the
    /// graph (cycles allowed). Replies into the graph first, then into a position a
    /// graph node covers, then into a disproven position of a table, then each reply
    /// searched with the graph taken as disproven ([`Solver::solve_assuming`](crate::tsume::Solver::solve_assuming): this is
    /// what certifies disproofs that lean on a repetition of the path), every open reply
    /// searched in each round of [`NOMATE_REPLY_NODES`], then with
    /// [`ExtractLimits::fallback_nodes`](super::super::ExtractLimits::fallback_nodes). A reply whose subgraph cannot be completed is
    /// taken back ([`Self::rollback`]) and the next one tried.
    pub(super) fn nomate_defender(
        &mut self,
        pos: &Position,
        b: u16,
    ) -> Result<usize, ExtractError> {
        self.memo_failure(pos, b, Self::nomate_defender_)
    }

    fn nomate_defender_(&mut self, pos: &Position, b: u16) -> Result<usize, ExtractError> {
        if let Some(id) = self.known(pos, b)? {
            return Ok(id);
        }
        if let Some(r) = self.via_general(pos, b, Self::nomate_defender) {
            return r;
        }
        let cb = budget_minus(b);
        let replies: Vec<(Move, Position)> = pos
            .legal_moves()
            .into_iter()
            .map(|r| (r, pos.after_unchecked(r)))
            .collect();
        let id = self.new_id(pos, b)?;
        // The last failure below this node, if any.
        let mut last = None;
        let mut tried = vec![false; replies.len()];
        // Replies a search found mated within the budget (whatever the graph).
        let mut mated = 0usize;
        // Graph, cover and table first (no search).
        let mut order: Vec<(u8, usize)> = replies
            .iter()
            .enumerate()
            .filter_map(|(i, (_, c))| {
                let rank = if self.find(c, cb).is_some() {
                    0
                } else if self.cover(c, cb).is_some() {
                    1
                } else if cb == 0 || self.probe_disproven(c, cb) {
                    // (With no plies left the child is a leaf.)
                    2
                } else if self.uncounted && shallow::leaf_budget(cb) {
                    // One ply left, under the convention: a leaf the checker decides
                    // when no check mates, else mated, with no search (図巧75 at 2 M
                    // nodes: 470 369 one-node searches found such mates).
                    if !shallow::mates_in_1(c) {
                        2
                    } else {
                        tried[i] = true;
                        mated += 1;
                        return None;
                    }
                } else {
                    return None;
                };
                Some((rank, i))
            })
            .collect();
        // Under the convention a reply that is no interposition needs no witness.
        if self.uncounted {
            order.sort_by_key(|&(rank, i)| (pos.interposes(replies[i].0), rank, i));
        } else {
            order.sort_unstable();
        }
        // The table round, the search rounds, and under a budget (no assumptions to
        // pass) a last search of each reply still undecided on the deep tier, with what
        // is left of the fallback total up to `deep_reply_nodes` (図巧1 at 20 M nodes:
        // one reply, no mate within 55 plies undecided after 2 M nodes; session 24; it
        // needs about 3.8 M, more than the solve's, session 29).
        let rounds: Vec<Round> = std::iter::once(Round::Known)
            .chain(
                NOMATE_REPLY_NODES
                    .iter()
                    .map(|&n| Round::Search(self.limits.fallback_nodes.min(n))),
            )
            .chain(std::iter::once(Round::Search(self.limits.fallback_nodes)))
            .chain(self.bounded.then_some(Round::Deep))
            .collect();
        for round in rounds {
            // Under a budget, with `first_found`, a round larger than the first searches
            // reply by reply and takes each refutation as soon as it is found (session
            // 14: 図巧73 certified so, 無双84 not: its first-found refutations have
            // large subgraphs); the deep round always does.
            let lazy = match round {
                Round::Known => false,
                Round::Search(n) => {
                    self.bounded && self.limits.first_found && n > NOMATE_REPLY_NODES[0]
                }
                Round::Deep => true,
            };
            let candidates: Vec<usize> = match round {
                Round::Known => order.iter().map(|&(_, i)| i).collect(),
                Round::Search(_) | Round::Deep => {
                    // Every open reply searched; the refutations tried cheapest first
                    // (the one the search disproves with the fewest nodes leans most on
                    // the graph, and keeps it small). Once one is found, the next ones
                    // get no more nodes than it took: a costlier refutation would be
                    // tried after it anyway, and a reply left open so is searched again
                    // in the next round (図巧73 at 2 M nodes: twelve replies searched
                    // with 500 000 nodes each, ten refuted).
                    let mut found = Vec::new();
                    let mut cheapest = u64::MAX;
                    let open: Vec<usize> = (0..replies.len()).filter(|&i| !tried[i]).collect();
                    for i in open {
                        let before = self.fresh_nodes;
                        let searched = match round {
                            Round::Search(n) => {
                                self.solve_assuming(&replies[i].1, n.min(cheapest), cb)
                            }
                            _ => self.deep(&replies[i].1, cb),
                        };
                        let quick =
                            self.bounded && self.fresh_nodes - before <= QUICK_REFUTATION_NODES;
                        match searched {
                            Ok(Outcome::NoMate) if lazy || quick => {
                                tried[i] = true;
                                match self.take_reply(pos, id, &replies[i], b)? {
                                    Ok(done) => return Ok(done),
                                    Err(e) => last = Some(e),
                                }
                            }
                            Ok(Outcome::NoMate) => {
                                let used = self.fresh_nodes - before;
                                cheapest = cheapest.min(used);
                                found.push((used, i));
                            }
                            // Mate whatever the graph: no refutation.
                            Ok(Outcome::Mate) => {
                                tried[i] = true;
                                mated += 1;
                            }
                            Ok(Outcome::Unknown) => {}
                            Err(e) if fatal(&e) => {
                                self.rollback(id);
                                return Err(e);
                            }
                            Err(e) => last = Some(e),
                        }
                    }
                    found.sort_unstable();
                    found.into_iter().map(|(_, i)| i).collect()
                }
            };
            for i in candidates {
                if tried[i] {
                    continue;
                }
                tried[i] = true;
                match self.take_reply(pos, id, &replies[i], b)? {
                    Ok(done) => return Ok(done),
                    Err(e) => last = Some(e),
                }
            }
        }
        self.rollback(id);
        // A node below got stuck: pass its failure up.
        let below = matches!(&last, Some(ExtractError::Stuck { sfen, .. }) if !sfen.is(pos));
        match last {
            Some(e) if below => Err(e),
            _ => {
                // The failure is this node's own: say how its replies fared.
                let failed = tried.iter().filter(|&&t| t).count() - mated;
                let open = replies.len() - mated - failed;
                let within = if cb == UNBOUNDED {
                    String::new()
                } else {
                    format!(" within {}", crate::tsume::plies(cb.into()))
                };
                Err(stuck(
                    pos,
                    format!(
                        "no reply known to refute the mate: of {} replies {mated} mated{within}, \
                         {failed} failed below, {open} undecided within the search limits",
                        replies.len()
                    ),
                ))
            }
        }
    }

    /// Takes the reply `(r, child)` at the nomate defender node `id` (`pos`, budget
    /// `b`): `Ok(Ok(id))` when its subgraph (and under the convention its non-futility
    /// witnesses) is complete and the node finished; `Ok(Err(e))` when it failed, the
    /// nodes it created taken back; `Err` on a fatal error, the node taken back too.
    fn take_reply(
        &mut self,
        pos: &Position,
        id: usize,
        (r, child): &(Move, Position),
        b: u16,
    ) -> Result<Result<usize, ExtractError>, ExtractError> {
        let snap = self.snapshot();
        let settled = self.nomate_attacker(child, budget_minus(b)).and_then(|c| {
            // Under the convention an interposition must be shown no 無駄合.
            let w = if self.uncounted {
                self.nonfutile(pos, *r, b)?
            } else {
                Vec::new()
            };
            Ok((c, w))
        });
        match settled {
            Ok((c, w)) => {
                self.finish_with(id, pos, Body::Moves(vec![(*r, c)]), w);
                Ok(Ok(id))
            }
            Err(e) if fatal(&e) => {
                self.rollback(id);
                Err(e)
            }
            Err(e) => {
                self.rollback(snap);
                Ok(Err(e))
            }
        }
    }
}
