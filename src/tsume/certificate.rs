//! Certificate extraction: the proof or disproof graph of a solved problem,
//! read from the solver's table ([`Solver::probe`]) and written as JSON lines
//! (`specs/certificate.md`). The checker lives outside the solver, in
//! [`crate::certificate`].
//!
//! - mate: an attacker node takes one proven check (the one with the smallest
//!   proven length bound that closes without a cycle); a defender node lists
//!   every legal reply (futile interpositions too: the graph proves plain mate);
//! - nomate: an attacker node lists every legal check; a defender node takes one
//!   reply into the graph (a repetition), into a covered or disproven position, or
//!   one a search with the graph taken as disproven refutes
//!   ([`Solver::solve_assuming`]), taking back a choice that fails.
//!
//! Transpositions share one node; a node whose board and side to move match a node
//! with hands at least as good is `covered_by` it (hand superiority), and a node whose
//! table entry holds for a more general hand is `covered_by` that general position
//! (proof and disproof pieces). The table is bounded, so a needed node may be missing:
//! extraction then solves that node afresh with a node budget (a small solver whose
//! table also serves as hints) and fails cleanly ([`ExtractError`]) rather than guess.

use crate::notation::sfen::write_sfen;
use crate::rules::{Color, Hand, Move, PieceKind, Position};
use crate::tsume::table::UNBOUNDED;
use crate::tsume::{Outcome, SolveResult, Solver, SolverOptions};
use serde::Serialize;
use std::collections::HashMap;
use std::io::Write;

/// What a certificate proves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Claim {
    /// The attacker mates (plain mate: every defender reply answered).
    Mate,
    /// The attacker cannot mate (perpetual check fails).
    Nomate,
}

/// One node of the graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Node {
    /// The position.
    pub pos: Position,
    /// Its moves and children, or the node that covers it.
    pub body: Body,
    /// For a node of a bounded no-mate graph: its budget `b`, the claim "no mate within
    /// `b` plies" (`None`: a node of a plain mate or no-mate graph).
    pub budget: Option<u16>,
}

/// How a node is settled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Body {
    /// Moves (USI) and child node ids.
    Moves(Vec<(Move, usize)>),
    /// Settled by hand superiority over this node.
    CoveredBy(usize),
}

/// A proof (mate) or disproof (nomate) graph.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Certificate {
    /// What it proves.
    pub result: Claim,
    /// The root's id.
    pub root: usize,
    /// For mate: the longest path of the graph in plies.
    pub plies: Option<u32>,
    /// Nodes, indexed by id.
    pub nodes: Vec<Node>,
    /// The length claim of a proven-shortest answer (version 2 files), else `None`.
    pub length: Option<Length>,
}

/// The certified length claim of a `shortest: true` answer counting every reply
/// (`--count-futile`): mate within `plies` (the mate graph's depth is at most that)
/// and no mate within `plies` − 2 (a bounded no-mate graph from `nomate_root`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Length {
    /// The claimed shortest mate length L.
    pub plies: u32,
    /// The root of the bounded no-mate graph (budget ≥ L − 2); `None` when L < 3.
    pub nomate_root: Option<usize>,
}

/// Why no certificate was produced (the answer is then reported uncertified).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ExtractError {
    /// The result is `unknown` or a bounded no-mate: nothing to certify.
    #[error("nothing to certify for an {0} result")]
    NotSolved(&'static str),
    /// A node could not be settled from the table or a fresh bounded solve.
    #[error("node {sfen}: {why}")]
    Stuck {
        /// The node.
        sfen: String,
        /// What failed.
        why: String,
    },
    /// The fallback solves' node budget ran out.
    #[error("node {sfen}: {why}")]
    Budget {
        /// The node.
        sfen: String,
        /// Which budget.
        why: String,
    },
    /// The extraction budget (graph nodes) ran out.
    #[error("certificate larger than {0} nodes")]
    TooLarge(usize),
    /// A fallback solver could not get its memory.
    #[error("{0}")]
    Memory(String),
}

/// Node budget of a fallback solve on the small (1 MiB) table.
const SMALL_SOLVE_NODES: u64 = 20_000;

/// Node budgets of the rounds in which a nomate defender node searches its open
/// replies (with the graph taken as disproven), before one of
/// [`ExtractLimits::fallback_nodes`]: a round stops at the budget where some reply is
/// refuted, so a reply hard to decide costs little while an easy refutation exists
/// (the assuming solver keeps its table, so a later round goes on where the last
/// stopped).
const NOMATE_REPLY_NODES: [u64; 3] = [256, 4096, SMALL_SOLVE_NODES];

/// Limits of one extraction.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExtractLimits {
    /// Most graph nodes.
    pub max_nodes: usize,
    /// Most nodes created in all, those taken back included (table-only work is
    /// bounded by this; fallback solves by the node budgets below).
    pub max_created: u64,
    /// Node budget of each fallback solve.
    pub fallback_nodes: u64,
    /// Table size of each fallback solver (MiB).
    pub fallback_mib: usize,
    /// Most fallback solves.
    pub fallback_solves: usize,
    /// Most nodes of all fallback solves together; [`extract`] raises it to the root
    /// solve's own nodes, so that a failing extraction costs at most about one more solve.
    pub fallback_total_nodes: u64,
}

impl Default for ExtractLimits {
    fn default() -> Self {
        ExtractLimits {
            max_nodes: 2_000_000,
            max_created: 10_000_000,
            fallback_nodes: 2_000_000,
            fallback_mib: 16,
            fallback_solves: 20_000,
            fallback_total_nodes: 1_000_000,
        }
    }
}

/// Position identity: the Zobrist board key, the side to move and both hands exact. A
/// board-key collision (64 bits) could only yield a certificate the checker rejects.
type Ident = (u64, Color, u64, u64);

fn ident(pos: &Position) -> Ident {
    (
        pos.board_key(),
        pos.side_to_move(),
        pos.hand(Color::Sente).raw(),
        pos.hand(Color::Gote).raw(),
    )
}

struct Extractor<'a> {
    root_solver: &'a Solver<Position>,
    /// Fallback solvers: a small table, then a large one.
    fallback: [Option<Solver<Position>>; 2],
    /// Nomate: the solver that searches a defender's reply with the graph so far taken
    /// as disproven ([`Solver::solve_assuming`]).
    assuming: Option<Solver<Position>>,
    /// How many nodes of `created` the assuming solver's table holds as disproven
    /// (`None`: its table must start afresh, after a rollback took some back).
    assumed: Option<usize>,
    fresh_solves: usize,
    fresh_nodes: u64,
    /// Nodes created in all, those taken back included.
    created_total: u64,
    /// Inside the settling of a general position ([`Extractor::via_general`]): table
    /// only, no fresh solves (a general position the table cannot settle is not worth
    /// the budget the node itself may need).
    speculative: usize,
    limits: ExtractLimits,
    attacker: Color,
    claim: Claim,
    nodes: Vec<Option<Node>>,
    /// Each id's position identity and hands (sente, gote), finished or not.
    created: Vec<(Ident, [Hand; 2])>,
    /// Nodes by position identity: one per position, except that a bounded graph may
    /// hold a position at several budgets (mate: depths).
    ids: HashMap<Ident, Vec<usize>>,
    /// Per node: a no-mate node's budget (the claim "no mate within b";
    /// [`UNBOUNDED`]: no mate at all); unused for mate.
    budgets: Vec<u16>,
    /// Per finished mate node: its graph's depth (longest path, plies).
    depths: Vec<u32>,
    /// Budgets count every reply (the solvers count futile interpositions).
    bounded: bool,
    /// Nodes that may cover others, by board key: finished ones (mate), every node of
    /// the graph (nomate: covering a node not yet finished closes a cycle, allowed).
    finished: HashMap<u64, Vec<usize>>,
    on_stack: Vec<bool>,
    /// Positions whose settling failed inside a general position's (table only).
    spec_failed: std::collections::HashSet<(Ident, u16)>,
}

/// Whether an error ends the whole extraction (no other choice is tried).
fn fatal(e: &ExtractError) -> bool {
    matches!(
        e,
        ExtractError::TooLarge(_) | ExtractError::Memory(_) | ExtractError::Budget { .. }
    )
}

fn stuck(pos: &Position, why: impl Into<String>) -> ExtractError {
    ExtractError::Stuck {
        sfen: write_sfen(pos),
        why: why.into(),
    }
}

/// `a ≥ b` kind by kind.
fn at_least(a: Hand, b: Hand) -> bool {
    PieceKind::HAND.iter().all(|&k| a.count(k) >= b.count(k))
}

impl Extractor<'_> {
    /// Solves `pos` (attacker to move) afresh on the fallback solver, replacing its
    /// table. Every table's solved entries hold wherever they are reached (disproofs
    /// that lean on a path are never stored), so they stay valid hints.
    /// Under a budget `b` (bounded extraction) the solve proves mate within `b` plies,
    /// every reply counted.
    fn fresh(&mut self, pos: &Position, b: u16) -> Result<Outcome, ExtractError> {
        if self.speculative > 0 {
            return Err(stuck(pos, "not in the table (general position)"));
        }
        self.spend(pos)?;
        // Most fallback solves are a few nodes: a 1 MiB table first (clearing the large
        // one each time would dominate), the large one only when that runs out.
        let tiers = [
            (1, self.limits.fallback_nodes.min(SMALL_SOLVE_NODES)),
            (self.limits.fallback_mib, self.limits.fallback_nodes),
        ];
        for (tier, (mib, nodes)) in tiers.into_iter().enumerate() {
            if self.fallback[tier].is_none() {
                let opts = SolverOptions {
                    nodes: Some(nodes),
                    memory_mib: mib,
                    shortest: false,
                    count_futile: self.bounded,
                    ..SolverOptions::default()
                };
                let s = Solver::try_new(opts).map_err(|e| ExtractError::Memory(e.to_string()))?;
                self.fallback[tier] = Some(s);
            }
            let (outcome, nodes) =
                self.fallback[tier]
                    .as_mut()
                    .map_or((Outcome::Unknown, 0), |s| {
                        if b == UNBOUNDED {
                            let r = s.solve(pos);
                            (r.outcome, r.stats.nodes)
                        } else {
                            s.solve_assuming(pos, &[], nodes, false, b)
                        }
                    });
            self.fresh_nodes += nodes;
            if outcome != Outcome::Unknown {
                return Ok(outcome);
            }
        }
        Ok(Outcome::Unknown)
    }

    /// Counts one fallback solve, or fails when the solves' budget is spent.
    fn spend(&mut self, pos: &Position) -> Result<(), ExtractError> {
        let budget = |why: String| ExtractError::Budget {
            sfen: write_sfen(pos),
            why,
        };
        if self.fresh_solves >= self.limits.fallback_solves {
            return Err(budget(format!(
                "more than {} fallback solves",
                self.limits.fallback_solves
            )));
        }
        if self.fresh_nodes >= self.limits.fallback_total_nodes {
            return Err(budget(format!(
                "fallback solves used more than {} nodes",
                self.limits.fallback_total_nodes
            )));
        }
        self.fresh_solves += 1;
        Ok(())
    }

    /// Nomate: searches `pos` (attacker to move) with every node of the graph taken as
    /// disproven, within `nodes` nodes.
    fn solve_assuming(
        &mut self,
        pos: &Position,
        nodes: u64,
        budget: u16,
    ) -> Result<Outcome, ExtractError> {
        if self.speculative > 0 {
            return Err(stuck(pos, "not in the table (general position)"));
        }
        self.spend(pos)?;
        if self.assuming.is_none() {
            let opts = SolverOptions {
                memory_mib: self.limits.fallback_mib,
                shortest: false,
                count_futile: self.bounded,
                ..SolverOptions::default()
            };
            let s = Solver::try_new(opts).map_err(|e| ExtractError::Memory(e.to_string()))?;
            self.assuming = Some(s);
        }
        let att = self.attacker;
        let from = self.assumed.unwrap_or(0);
        let assumed: Vec<(u64, Hand, u16)> = self.created[from..]
            .iter()
            .zip(&self.budgets[from..])
            .map(|((id, hands), &b)| (id.0 | id.1 as u64, hands[att.index()], b))
            .collect();
        let keep = self.assumed.is_some();
        self.assumed = Some(self.created.len());
        // Under a budget every disproof is finite (no repetition needs the graph), and
        // a large graph's assumed entries would fill the table: none are passed.
        let assumed = if self.bounded { Vec::new() } else { assumed };
        let left = self.limits.fallback_total_nodes - self.fresh_nodes;
        let (outcome, used) = match self.assuming.as_mut() {
            Some(s) => s.solve_assuming(pos, &assumed, nodes.min(left), keep, budget),
            None => (Outcome::Unknown, 0),
        };
        self.fresh_nodes += used;
        Ok(outcome)
    }

    /// The graph's size, to go back to with [`Self::rollback`].
    fn snapshot(&self) -> usize {
        self.nodes.len()
    }

    /// Forgets every node created since `snap` (a nomate choice that failed).
    fn rollback(&mut self, snap: usize) {
        if self.assumed.is_some_and(|a| a > snap) {
            self.assumed = None;
        }
        for (id, _) in self.created.drain(snap..) {
            if let Some(list) = self.ids.get_mut(&id) {
                list.retain(|&m| m < snap);
                if list.is_empty() {
                    self.ids.remove(&id);
                }
            }
            if let Some(list) = self.finished.get_mut(&id.0) {
                list.retain(|&m| m < snap);
            }
        }
        self.nodes.truncate(snap);
        self.on_stack.truncate(snap);
        self.budgets.truncate(snap);
        self.depths.truncate(snap);
    }

    /// What the tables know of `pos` under budget `b`: proofs within `b`, disproofs
    /// holding under `b` ([`UNBOUNDED`]: complete ones).
    fn probe(
        &self,
        pos: &Position,
        b: u16,
    ) -> impl Iterator<Item = crate::tsume::table::Found> + '_ {
        let pos = pos.clone();
        std::iter::once(self.root_solver)
            .chain(self.fallback.iter().flatten())
            .chain(self.assuming.iter())
            .filter_map(move |s| s.probe_within(&pos, b))
    }

    fn probe_proven(&self, pos: &Position, b: u16) -> Option<u16> {
        self.probe(pos, b)
            .filter(|f| f.pns.pn == 0)
            .map(|f| f.bound)
            .min()
    }

    fn probe_disproven(&self, pos: &Position, b: u16) -> bool {
        self.probe(pos, b).any(|f| f.pns.dn == 0)
    }

    /// A node of the graph that settles `pos` under budget `b` as it stands: mate, a
    /// finished node of depth at most `b`; nomate, a node (finished or not: a cycle is
    /// allowed) whose budget is at least `b`.
    fn find(&self, pos: &Position, b: u16) -> Option<usize> {
        let list = self.ids.get(&ident(pos))?;
        list.iter().copied().find(|&id| match self.claim {
            Claim::Mate => !self.on_stack[id] && (b == UNBOUNDED || self.depths[id] <= b as u32),
            Claim::Nomate => self.budgets[id] >= b,
        })
    }

    /// Mate: whether `pos` is on the extraction's stack (a cycle).
    fn on_path(&self, pos: &Position) -> bool {
        self.ids
            .get(&ident(pos))
            .is_some_and(|l| l.iter().any(|&id| self.on_stack[id]))
    }

    /// The position the table's proof (mate) or disproof (nomate) of `pos` speaks for,
    /// when it is more general than `pos`: same board and side to move, the attacker's
    /// hand the stored proof pieces (mate: ≤ `pos`'s) or disproof pieces (nomate: ≥
    /// `pos`'s, capped by the pieces there are), the difference moved between the hands
    /// (the box never changes within a solve). `pos` is then `covered_by` it, and so is
    /// every later node of that board whose hands it covers: one proof of the general
    /// position instead of one per hand (優越; Nagai 2002 §5.3 proof and disproof pieces).
    fn general(&self, pos: &Position, b: u16) -> Option<Position> {
        let (att, def) = (pos.hand(self.attacker), pos.hand(!self.attacker));
        let found = self.probe(pos, b).find_map(|f| match self.claim {
            Claim::Mate if f.pns.pn == 0 && f.hand != att && at_least(att, f.hand) => Some(f.hand),
            Claim::Nomate if f.pns.dn == 0 => {
                let capped = PieceKind::HAND.iter().fold(Hand::EMPTY, |h, &k| {
                    h.with_count(k, f.hand.count(k).min(att.count(k) + def.count(k)))
                });
                (capped != att && at_least(capped, att)).then_some(capped)
            }
            _ => None,
        })?;
        let mut setup = pos.to_setup();
        let new_def = PieceKind::HAND.iter().fold(Hand::EMPTY, |h, &k| {
            let total = att.count(k) + def.count(k);
            h.with_count(k, total - found.count(k))
        });
        setup.hands[self.attacker] = found;
        setup.hands[!self.attacker] = new_def;
        Position::from_setup(setup, pos.rules()).ok()
    }

    /// Settles `pos` through its general position ([`Self::general`]) with `settle`:
    /// `None` when there is none or it could not be settled (the caller then settles
    /// `pos` itself), else `pos`'s id, covered by the general node.
    fn via_general(
        &mut self,
        pos: &Position,
        b: u16,
        settle: fn(&mut Self, &Position, u16) -> Result<usize, ExtractError>,
    ) -> Option<Result<usize, ExtractError>> {
        let g = self.general(pos, b)?;
        let snap = self.snapshot();
        self.speculative += 1;
        let r = settle(self, &g, b);
        self.speculative -= 1;
        if r.as_ref().is_err_and(|e| !fatal(e)) && self.claim == Claim::Nomate {
            self.rollback(snap);
        }
        match r {
            // The general node's graph may have settled `pos` itself on the way.
            Ok(_) if self.find(pos, b).is_some() => self.find(pos, b).map(Ok),
            Ok(gid) => Some(
                self.new_id(pos, b)
                    .inspect(|&id| self.finish(id, pos, Body::CoveredBy(gid))),
            ),
            Err(e) if fatal(&e) => Some(Err(e)),
            Err(_) => None,
        }
    }

    /// A finished node with the same board that covers `pos` for the claim under budget
    /// `b` (mate: depth at most `b`; nomate: budget at least `b`).
    fn cover(&self, pos: &Position, b: u16) -> Option<usize> {
        let list = self.finished.get(&pos.board_key())?;
        let def = !self.attacker;
        list.iter().copied().find(|&m| {
            let (mid, hands) = &self.created[m];
            let (ma, md) = (hands[self.attacker.index()], hands[def.index()]);
            let (na, nd) = (pos.hand(self.attacker), pos.hand(def));
            mid.1 == pos.side_to_move()
                && match self.claim {
                    Claim::Mate => {
                        at_least(na, ma)
                            && at_least(md, nd)
                            && (b == UNBOUNDED || self.depths[m] <= b as u32)
                    }
                    Claim::Nomate => at_least(ma, na) && at_least(nd, md) && self.budgets[m] >= b,
                }
        })
    }

    /// A new node for `pos` under budget `b` (nomate: its claim).
    fn new_id(&mut self, pos: &Position, b: u16) -> Result<usize, ExtractError> {
        if self.nodes.len() >= self.limits.max_nodes {
            return Err(ExtractError::TooLarge(self.limits.max_nodes));
        }
        self.created_total += 1;
        if self.created_total > self.limits.max_created {
            return Err(ExtractError::Budget {
                sfen: write_sfen(pos),
                why: format!("more than {} nodes created", self.limits.max_created),
            });
        }
        let id = self.nodes.len();
        self.nodes.push(None);
        self.on_stack.push(true);
        self.budgets.push(b);
        self.depths.push(u32::MAX);
        self.ids.entry(ident(pos)).or_default().push(id);
        self.created
            .push((ident(pos), [pos.hand(Color::Sente), pos.hand(Color::Gote)]));
        if self.claim == Claim::Nomate {
            self.finished.entry(pos.board_key()).or_default().push(id);
        }
        Ok(id)
    }

    fn finish(&mut self, id: usize, pos: &Position, body: Body) {
        // A played position carries its move history; the graph keeps the bare position.
        let pos = Position::from_setup(pos.to_setup(), pos.rules()).unwrap_or_else(|_| pos.clone());
        if self.claim == Claim::Mate {
            self.finished.entry(pos.board_key()).or_default().push(id);
            self.depths[id] = match &body {
                Body::Moves(v) => v
                    .iter()
                    .map(|&(_, c)| self.depths[c].saturating_add(1))
                    .max()
                    .unwrap_or(0),
                Body::CoveredBy(m) => self.depths[*m],
            };
        }
        let budget = (self.claim == Claim::Nomate && self.bounded).then_some(self.budgets[id]);
        self.nodes[id] = Some(Node { pos, body, budget });
        self.on_stack[id] = false;
    }

    /// Forgets a node that could not be settled (mate: the caller tries another move).
    fn forget(&mut self, id: usize, pos: &Position) {
        let key = ident(pos);
        if let Some(list) = self.ids.get_mut(&key) {
            list.retain(|&m| m != id);
            if list.is_empty() {
                self.ids.remove(&key);
            }
        }
        self.on_stack[id] = false;
    }

    fn checks(pos: &Position) -> Vec<Move> {
        pos.legal_moves()
            .into_iter()
            .filter(|&m| pos.gives_check(m))
            .collect()
    }

    // ---- mate ----

    fn mate_attacker(&mut self, pos: &Position, b: u16) -> Result<usize, ExtractError> {
        self.memo_failure(pos, b, Self::mate_attacker_)
    }

    fn mate_attacker_(&mut self, pos: &Position, b: u16) -> Result<usize, ExtractError> {
        if self.on_path(pos) {
            return Err(stuck(pos, "cycle"));
        }
        if let Some(id) = self.find(pos, b) {
            return Ok(id);
        }
        if let Some(m) = self.cover(pos, b) {
            let id = self.new_id(pos, b)?;
            self.finish(id, pos, Body::CoveredBy(m));
            return Ok(id);
        }
        if b == 0 {
            return Err(stuck(pos, "no plies left to mate"));
        }
        if let Some(r) = self.via_general(pos, b, Self::mate_attacker) {
            return r;
        }
        let id = self.new_id(pos, b)?;
        let mut last = stuck(pos, "no proven check in the table");
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
                let mut child = pos.clone();
                child.play_unchecked(m);
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
                    Err(e) => last = e,
                }
            }
        }
        self.forget(id, pos);
        Err(last)
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
                let mut c = pos.clone();
                c.play_unchecked(m);
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

    fn mate_defender(&mut self, pos: &Position, b: u16) -> Result<usize, ExtractError> {
        self.memo_failure(pos, b, Self::mate_defender_)
    }

    fn mate_defender_(&mut self, pos: &Position, b: u16) -> Result<usize, ExtractError> {
        if self.on_path(pos) {
            return Err(stuck(pos, "cycle"));
        }
        if let Some(id) = self.find(pos, b) {
            return Ok(id);
        }
        if let Some(m) = self.cover(pos, b) {
            let id = self.new_id(pos, b)?;
            self.finish(id, pos, Body::CoveredBy(m));
            return Ok(id);
        }
        if let Some(r) = self.via_general(pos, b, Self::mate_defender) {
            return r;
        }
        let replies = pos.legal_moves();
        if b == 0 && !replies.is_empty() {
            return Err(stuck(pos, "not mated within the budget"));
        }
        let id = self.new_id(pos, b)?;
        let mut moves = Vec::new();
        for r in replies {
            let mut child = pos.clone();
            child.play_unchecked(r);
            match self.mate_attacker(&child, budget_minus(b)) {
                Ok(c) => moves.push((r, c)),
                Err(e) => {
                    self.forget(id, pos);
                    return Err(e);
                }
            }
        }
        self.finish(id, pos, Body::Moves(moves));
        Ok(id)
    }

    // ---- nomate ----

    fn nomate_attacker(&mut self, pos: &Position, b: u16) -> Result<usize, ExtractError> {
        self.memo_failure(pos, b, Self::nomate_attacker_)
    }

    /// Runs `settle` on `pos`; inside the settling of a general position (table only), a
    /// position whose settling failed there before fails again at once. Without this
    /// memory 無双37's extraction rebuilt and took back the same subgraphs: 142 866
    /// rollbacks of 630 439 nodes for a certificate of 109 471.
    fn memo_failure(
        &mut self,
        pos: &Position,
        b: u16,
        settle: fn(&mut Self, &Position, u16) -> Result<usize, ExtractError>,
    ) -> Result<usize, ExtractError> {
        if self.speculative == 0 {
            return settle(self, pos, b);
        }
        let key = (ident(pos), b);
        if !self.ids.contains_key(&key.0) && self.spec_failed.contains(&key) {
            return Err(stuck(pos, "failed before (general position)"));
        }
        let r = settle(self, pos, b);
        if r.as_ref().is_err_and(|e| !fatal(e)) {
            self.spec_failed.insert(key);
        }
        r
    }

    fn nomate_attacker_(&mut self, pos: &Position, b: u16) -> Result<usize, ExtractError> {
        if let Some(id) = self.find(pos, b) {
            return Ok(id); // cycles are allowed
        }
        if let Some(m) = self.cover(pos, b) {
            let id = self.new_id(pos, b)?;
            self.finish(id, pos, Body::CoveredBy(m));
            return Ok(id);
        }
        if b == 0 {
            // No plies left: no mate within 0 (a leaf of the bounded graph).
            let id = self.new_id(pos, b)?;
            self.finish(id, pos, Body::Moves(Vec::new()));
            return Ok(id);
        }
        if let Some(r) = self.via_general(pos, b, Self::nomate_attacker) {
            return r;
        }
        let id = self.new_id(pos, b)?;
        let mut moves = Vec::new();
        for m in Self::checks(pos) {
            let mut child = pos.clone();
            child.play_unchecked(m);
            moves.push((m, self.nomate_defender(&child, budget_minus(b))?));
        }
        self.finish(id, pos, Body::Moves(moves));
        Ok(id)
    }

    /// A nomate defender node: one reply into a position that is no mate given the
    /// graph (cycles allowed). Replies into the graph first, then into a position a
    /// graph node covers, then into a disproven position of a table, then each reply
    /// searched with the graph taken as disproven ([`Solver::solve_assuming`]: this is
    /// what certifies disproofs that lean on a repetition of the path), every open reply
    /// searched in each round of [`NOMATE_REPLY_NODES`], then with
    /// [`ExtractLimits::fallback_nodes`]. A reply whose subgraph cannot be completed is
    /// taken back ([`Self::rollback`]) and the next one tried.
    fn nomate_defender(&mut self, pos: &Position, b: u16) -> Result<usize, ExtractError> {
        self.memo_failure(pos, b, Self::nomate_defender_)
    }

    fn nomate_defender_(&mut self, pos: &Position, b: u16) -> Result<usize, ExtractError> {
        if let Some(id) = self.find(pos, b) {
            return Ok(id);
        }
        if let Some(m) = self.cover(pos, b) {
            let id = self.new_id(pos, b)?;
            self.finish(id, pos, Body::CoveredBy(m));
            return Ok(id);
        }
        if let Some(r) = self.via_general(pos, b, Self::nomate_defender) {
            return r;
        }
        let cb = budget_minus(b);
        let after = |r: Move| {
            let mut c = pos.clone();
            c.play_unchecked(r);
            c
        };
        let replies: Vec<(Move, Position)> = pos
            .legal_moves()
            .into_iter()
            .map(|r| (r, after(r)))
            .collect();
        let id = self.new_id(pos, b)?;
        let mut last = stuck(pos, "no reply known to refute the mate");
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
                } else {
                    return None;
                };
                Some((rank, i))
            })
            .collect();
        order.sort_unstable();
        let rounds: Vec<Option<u64>> = std::iter::once(None)
            .chain(
                NOMATE_REPLY_NODES
                    .iter()
                    .map(|&n| Some(self.limits.fallback_nodes.min(n))),
            )
            .chain(std::iter::once(Some(self.limits.fallback_nodes)))
            .collect();
        for round in rounds {
            let candidates: Vec<usize> = match round {
                None => order.iter().map(|&(_, i)| i).collect(),
                Some(n) => {
                    // Every open reply searched; the refutations tried cheapest first
                    // (the one the search disproves with the fewest nodes leans most on
                    // the graph, and keeps it small).
                    let mut found = Vec::new();
                    let open: Vec<usize> = (0..replies.len()).filter(|&i| !tried[i]).collect();
                    for i in open {
                        let before = self.fresh_nodes;
                        match self.solve_assuming(&replies[i].1, n, cb) {
                            Ok(Outcome::NoMate) => found.push((self.fresh_nodes - before, i)),
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
                            Err(e) => last = e,
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
                let snap = self.snapshot();
                match self.nomate_attacker(&replies[i].1, cb) {
                    Ok(c) => {
                        self.finish(id, pos, Body::Moves(vec![(replies[i].0, c)]));
                        return Ok(id);
                    }
                    Err(e) if fatal(&e) => {
                        self.rollback(id);
                        return Err(e);
                    }
                    Err(e) => {
                        self.rollback(snap);
                        last = e;
                    }
                }
            }
        }
        self.rollback(id);
        if !matches!(&last, ExtractError::Stuck { sfen, .. } if *sfen != write_sfen(pos)) {
            // The failure is this node's own: say how its replies fared.
            let failed = tried.iter().filter(|&&t| t).count() - mated;
            let open = replies.len() - mated - failed;
            let within = if cb == UNBOUNDED {
                String::new()
            } else {
                format!(" within {cb} plies")
            };
            last = stuck(
                pos,
                format!(
                    "no reply known to refute the mate: of {} replies {mated} mated{within}, \
                     {failed} failed below, {open} undecided within the search limits",
                    replies.len()
                ),
            );
        }
        Err(last)
    }
}

/// `b` − 1 plies, saturating at 0; [`UNBOUNDED`] stays.
fn budget_minus(b: u16) -> u16 {
    if b == UNBOUNDED {
        b
    } else {
        b.saturating_sub(1)
    }
}

/// Longest path (in plies) from `root` in an acyclic graph; covered_by edges count 0.
fn longest(nodes: &[Node], root: usize) -> u32 {
    let mut memo: Vec<Option<u32>> = vec![None; nodes.len()];
    // Iterative post-order to survive deep graphs.
    let mut stack = vec![(root, false)];
    while let Some((n, done)) = stack.pop() {
        if memo[n].is_some() {
            continue;
        }
        let kids: Vec<(usize, u32)> = match &nodes[n].body {
            Body::Moves(v) => v.iter().map(|&(_, c)| (c, 1)).collect(),
            Body::CoveredBy(m) => vec![(*m, 0)],
        };
        if done {
            memo[n] = Some(
                kids.iter()
                    .map(|&(c, w)| memo[c].unwrap_or(0) + w)
                    .max()
                    .unwrap_or(0),
            );
        } else {
            stack.push((n, true));
            for (c, _) in kids {
                if memo[c].is_none() {
                    stack.push((c, false));
                }
            }
        }
    }
    memo[root].unwrap_or(0)
}

/// Extracts the certificate of `result` (from `solver`'s last solve of `root`).
///
/// # Errors
/// [`ExtractError`] when the result is not `mate`/`nomate` or the graph cannot
/// be completed within `limits`: the answer is then *uncertified*, never wrongly certified.
pub fn extract_with(
    solver: &Solver<Position>,
    root: &Position,
    result: &SolveResult<Move>,
    limits: ExtractLimits,
) -> Result<Certificate, ExtractError> {
    let claim = match result.outcome {
        Outcome::Mate => Claim::Mate,
        Outcome::NoMate => Claim::Nomate,
        Outcome::Unknown => return Err(ExtractError::NotSolved("unknown")),
    };
    graph(solver, root, claim, UNBOUNDED, limits)
}

/// The graph of `claim` from `root` under budget `budget` ([`UNBOUNDED`]: a plain
/// certificate; else mate within `budget` plies or no mate within `budget`, every reply
/// counted, the solvers counting futile interpositions), its nodes numbered from 0 in
/// depth-first order.
fn graph(
    solver: &Solver<Position>,
    root: &Position,
    claim: Claim,
    budget: u16,
    limits: ExtractLimits,
) -> Result<Certificate, ExtractError> {
    let mut x = Extractor {
        root_solver: solver,
        fallback: [None, None],
        assuming: None,
        assumed: None,
        created: Vec::new(),
        fresh_solves: 0,
        fresh_nodes: 0,
        created_total: 0,
        speculative: 0,
        limits,
        attacker: root.side_to_move(),
        claim,
        nodes: Vec::new(),
        ids: HashMap::new(),
        budgets: Vec::new(),
        depths: Vec::new(),
        bounded: budget != UNBOUNDED,
        finished: HashMap::new(),
        on_stack: Vec::new(),
        spec_failed: Default::default(),
    };
    let r = match claim {
        Claim::Mate => x.mate_attacker(root, budget)?,
        Claim::Nomate => x.nomate_attacker(root, budget)?,
    };
    // Forgotten (failed) nodes leave holes: renumber the reachable ones from 0.
    let mut map = vec![usize::MAX; x.nodes.len()];
    let mut order = Vec::new();
    let mut stack = vec![r];
    map[r] = 0;
    order.push(r);
    while let Some(n) = stack.pop() {
        let node = x.nodes[n]
            .as_ref()
            .ok_or_else(|| stuck(root, "unfinished node"))?;
        let kids: Vec<usize> = match &node.body {
            Body::Moves(v) => v.iter().map(|&(_, c)| c).collect(),
            Body::CoveredBy(m) => vec![*m],
        };
        for c in kids {
            if map[c] == usize::MAX {
                map[c] = order.len();
                order.push(c);
                stack.push(c);
            }
        }
    }
    let mut nodes = Vec::with_capacity(order.len());
    for &o in &order {
        let mut n = x.nodes[o]
            .take()
            .ok_or_else(|| stuck(root, "unfinished node"))?;
        n.body = match n.body {
            Body::Moves(v) => Body::Moves(v.into_iter().map(|(m, c)| (m, map[c])).collect()),
            Body::CoveredBy(m) => Body::CoveredBy(map[m]),
        };
        nodes.push(n);
    }
    let plies = (claim == Claim::Mate).then(|| longest(&nodes, 0));
    Ok(Certificate {
        result: claim,
        root: 0,
        plies,
        nodes,
        length: None,
    })
}

/// The certificate of a proven-shortest mate counting every reply (`count_futile`,
/// `shortest: Some(true)`): a mate graph of depth at most L (the line's length), built
/// from proofs whose length bounds fit the remaining budget, and a bounded no-mate graph
/// proving no mate within L − 2 (absent when L < 3), built from the solver's budgeted
/// disproofs and budgeted searches with the graph assumed ([`Solver::solve_assuming`]);
/// one version-2 file (`specs/certificate.md`). Each half gets `limits` of its own.
///
/// # Errors
/// [`ExtractError::NotSolved`] unless `result` is such an answer of a solver that counted
/// futile interpositions; else as [`extract_with`].
pub fn extract_length_with(
    solver: &Solver<Position>,
    root: &Position,
    result: &SolveResult<Move>,
    limits: ExtractLimits,
) -> Result<Certificate, ExtractError> {
    if result.outcome != Outcome::Mate || result.shortest != Some(true) {
        return Err(ExtractError::NotSolved("unproven-length"));
    }
    if !solver.options().count_futile {
        return Err(ExtractError::NotSolved("uncounted-futile"));
    }
    let len = u16::try_from(result.line.len())
        .ok()
        .filter(|&l| l < UNBOUNDED)
        .ok_or_else(|| stuck(root, "line too long"))?;
    let mut cert = graph(solver, root, Claim::Mate, len, limits)?;
    let mut nomate_root = None;
    if len >= 3 {
        let no = graph(solver, root, Claim::Nomate, len - 2, limits)?;
        let off = cert.nodes.len();
        nomate_root = Some(off + no.root);
        for mut n in no.nodes {
            n.body = match n.body {
                Body::Moves(v) => Body::Moves(v.into_iter().map(|(m, c)| (m, c + off)).collect()),
                Body::CoveredBy(m) => Body::CoveredBy(m + off),
            };
            cert.nodes.push(n);
        }
    }
    cert.length = Some(Length {
        plies: u32::from(len),
        nomate_root,
    });
    Ok(cert)
}

/// [`extract_length_with`] under the limits of [`extract`].
///
/// # Errors
/// As [`extract_length_with`].
pub fn extract_length(
    solver: &Solver<Position>,
    root: &Position,
    result: &SolveResult<Move>,
) -> Result<Certificate, ExtractError> {
    // A bounded no-mate graph settles many defender nodes by small budgeted searches
    // (the table keeps few budgeted disproofs): the node total, not the count, limits them.
    let limits = ExtractLimits {
        fallback_solves: 200_000,
        ..default_limits(result)
    };
    extract_length_with(solver, root, result, limits)
}

fn default_limits(result: &SolveResult<Move>) -> ExtractLimits {
    let d = ExtractLimits::default();
    ExtractLimits {
        fallback_total_nodes: d.fallback_total_nodes.max(result.stats.nodes),
        ..d
    }
}

/// [`extract_with`] under the default [`ExtractLimits`], the fallback node total raised
/// to the root solve's nodes.
///
/// # Errors
/// As [`extract_with`].
pub fn extract(
    solver: &Solver<Position>,
    root: &Position,
    result: &SolveResult<Move>,
) -> Result<Certificate, ExtractError> {
    extract_with(solver, root, result, default_limits(result))
}

#[derive(Serialize)]
struct Header {
    format: &'static str,
    version: u32,
    result: Claim,
    root: usize,
    plies: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    length: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    nomate_root: Option<Option<usize>>,
}

/// Writes `cert` as JSON lines (`specs/certificate.md`).
///
/// # Errors
/// I/O errors of `out`.
pub fn write_jsonl(cert: &Certificate, out: &mut impl Write) -> std::io::Result<()> {
    let h = Header {
        format: "shogi-lab/tsume-certificate",
        version: if cert.length.is_some() { 2 } else { 1 },
        result: cert.result,
        root: cert.root,
        plies: cert.plies,
        length: cert.length.map(|l| l.plies),
        nomate_root: cert.length.map(|l| l.nomate_root),
    };
    writeln!(
        out,
        "{}",
        serde_json::to_string(&h).map_err(std::io::Error::other)?
    )?;
    for (id, n) in cert.nodes.iter().enumerate() {
        let sfen = write_sfen(&n.pos);
        let mut line = match &n.body {
            Body::Moves(v) => {
                let moves: Vec<(String, usize)> =
                    v.iter().map(|(m, c)| (m.to_string(), *c)).collect();
                serde_json::json!({"id": id, "sfen": sfen, "moves": moves})
            }
            Body::CoveredBy(m) => serde_json::json!({"id": id, "sfen": sfen, "covered_by": m}),
        };
        if let Some(b) = n.budget {
            line["budget"] = b.into();
        }
        writeln!(out, "{line}")?;
    }
    Ok(())
}
