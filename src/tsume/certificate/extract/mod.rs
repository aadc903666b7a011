//! The extractor (`specs/certificate.md`): the graph of a claim built node by node from
//! the solver's table, its state and the machinery the mate and nomate searches share.
//!
//! Transpositions share one node; a node whose board and side to move match a node
//! with hands at least as good is `covered_by` it (hand superiority), and a node whose
//! table entry holds for a more general hand is `covered_by` that general position
//! (proof and disproof pieces). The table is bounded, so a needed node may be missing:
//! extraction then solves that node afresh ([`fallback`]) and fails cleanly
//! ([`ExtractError`]) rather than guess. The graphs themselves: [`mate`], [`nomate`].

use super::{stuck, Body, Claim, ExtractError, ExtractLimits, Node, NodePosition, Witness};
use crate::notation::sfen::write_sfen;
use crate::rules::{Color, Hand, Move, PieceKind, Position};
use crate::tsume::key_hash::KeyHash;
use crate::tsume::table::UNBOUNDED;
use crate::tsume::{Control, Solver};
use std::collections::HashMap;

mod fallback;
mod futile;
mod mate;
mod nomate;
mod shallow;

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

/// The state of one extraction.
struct Extractor<'a> {
    root_solver: &'a Solver<Position>,
    /// Fallback solvers: a small table, a large one, then a deep one
    /// ([`fallback`]'s tiers).
    fallback: [Option<Solver<Position>>; 3],
    /// Nomate: the solver that searches a defender's reply with the graph so far taken
    /// as disproven ([`Solver::solve_assuming`]).
    assuming: Option<Solver<Position>>,
    /// Nodes the assuming solver searched since its table was last cleared, while that
    /// table is the small one (`None`: the large one).
    assuming_small: Option<u64>,
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
    ids: HashMap<Ident, Vec<usize>, KeyHash>,
    /// Per node: a no-mate node's budget (the claim "no mate within b";
    /// [`UNBOUNDED`]: no mate at all); unused for mate.
    budgets: Vec<u16>,
    /// Per finished mate node: its graph's depth (longest path, plies).
    depths: Vec<u32>,
    /// A bounded graph (a length claim): budgets count every reply, or none of the
    /// futile interpositions with `uncounted`.
    bounded: bool,
    /// The 無駄合 convention (versions 3 and 4): the solvers count no futile interposition, and
    /// defender nodes carry witnesses ([`futile`]).
    uncounted: bool,
    /// Nodes that may cover others, by board key: finished ones (mate), every node of
    /// the graph (nomate: covering a node not yet finished closes a cycle, allowed).
    finished: HashMap<u64, Vec<usize>, KeyHash>,
    on_stack: Vec<bool>,
    /// Positions whose settling failed inside a general position's (table only).
    spec_failed: std::collections::HashSet<(Ident, u16), KeyHash>,
}

/// Whether an error ends the whole extraction (no other choice is tried).
fn fatal(e: &ExtractError) -> bool {
    matches!(
        e,
        ExtractError::TooLarge(_)
            | ExtractError::Memory(_)
            | ExtractError::Budget { .. }
            | ExtractError::Stopped
    )
}

/// `a ≥ b` kind by kind.
fn at_least(a: Hand, b: Hand) -> bool {
    PieceKind::HAND.iter().all(|&k| a.count(k) >= b.count(k))
}

impl Extractor<'_> {
    /// The graph's size, to go back to with [`Self::rollback`].
    fn snapshot(&self) -> usize {
        self.nodes.len()
    }

    /// Forgets every node created since `snap` (a nomate choice that failed).
    fn rollback(&mut self, snap: usize) {
        // Under a budget no assumption is passed (every entry of the assuming solver's
        // table is its own search's), so its table outlives the nodes taken back.
        if !self.bounded && self.assumed.is_some_and(|a| a > snap) {
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
    fn probe<'s>(
        &'s self,
        pos: &'s Position,
        b: u16,
    ) -> impl Iterator<Item = crate::tsume::table::Found> + 's {
        std::iter::once(self.root_solver)
            .chain(self.fallback.iter().flatten())
            .chain(self.assuming.iter())
            .filter_map(move |s| s.probe_within(pos, b))
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

    /// The node for `pos` under budget `b` if the graph settles it already
    /// ([`Self::find`]) or a node covers it by hand superiority (a new `covered_by`
    /// node); `None`: it has to be built.
    fn known(&mut self, pos: &Position, b: u16) -> Result<Option<usize>, ExtractError> {
        if let Some(id) = self.find(pos, b) {
            return Ok(Some(id));
        }
        if let Some(m) = self.cover(pos, b) {
            let id = self.new_id(pos, b)?;
            self.finish(id, pos, Body::CoveredBy(m));
            return Ok(Some(id));
        }
        Ok(None)
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
        if self.stop_requested() {
            return Err(ExtractError::Stopped);
        }
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

    /// Whether the root solve's driver asked it to stop (its [`Control`]).
    fn stop_requested(&self) -> bool {
        self.control().is_some_and(|c| c.0.is_stopped())
    }

    /// The root solve's control, if it had one: the fallback solves get a
    /// [`Control::child`] of it, so that a stop request ends them too.
    fn control(&self) -> Option<&Control> {
        self.root_solver.options().control.as_ref()
    }

    fn finish(&mut self, id: usize, pos: &Position, body: Body) {
        self.finish_with(id, pos, body, Vec::new());
    }

    /// [`Self::finish`] with the witnesses of a defender node (versions 3 and 4); a mate
    /// node's depth counts a futility witness's depth with 0 plies.
    fn finish_with(&mut self, id: usize, pos: &Position, body: Body, witnesses: Vec<Witness>) {
        if self.claim == Claim::Mate {
            self.finished.entry(pos.board_key()).or_default().push(id);
            self.depths[id] = match &body {
                Body::Moves(v) => v
                    .iter()
                    .map(|&(_, c)| self.depths[c].saturating_add(1))
                    .max()
                    .unwrap_or(0),
                Body::CoveredBy(m) => self.depths[*m],
                Body::ByChecker => 0,
            };
            for w in &witnesses {
                self.depths[id] = self.depths[id].max(self.depths[w.node]);
            }
        }
        let budget = (self.claim == Claim::Nomate && self.bounded).then_some(self.budgets[id]);
        self.nodes[id] = Some(Node {
            // The graph keeps the position packed (no history, bitboards or keys).
            pos: NodePosition::of(pos),
            body,
            budget,
            witnesses,
        });
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
}

impl<'a> Extractor<'a> {
    /// An extraction of `claim` from `root` under budget `budget` on `solver`'s table.
    fn new(
        solver: &'a Solver<Position>,
        root: &Position,
        claim: Claim,
        budget: u16,
        uncounted: bool,
        limits: ExtractLimits,
    ) -> Self {
        Extractor {
            root_solver: solver,
            fallback: [None, None, None],
            assuming: None,
            assuming_small: Some(0),
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
            ids: HashMap::default(),
            budgets: Vec::new(),
            depths: Vec::new(),
            bounded: budget != UNBOUNDED,
            uncounted: uncounted && budget != UNBOUNDED,
            finished: HashMap::default(),
            on_stack: Vec::new(),
            spec_failed: Default::default(),
        }
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

/// Settles `root` for `claim` under budget `budget` ([`UNBOUNDED`]: a plain certificate;
/// else mate within `budget` plies or no mate within `budget`, every reply counted, the
/// solvers counting futile interpositions, or with `uncounted` under the 無駄合
/// convention, the solvers counting none): the extractor's nodes, indexed by id (those
/// taken back are `None`), and the root's id.
pub(super) fn settle(
    solver: &Solver<Position>,
    root: &Position,
    claim: Claim,
    budget: u16,
    uncounted: bool,
    limits: ExtractLimits,
) -> Result<(Vec<Option<Node>>, usize), ExtractError> {
    let mut x = Extractor::new(solver, root, claim, budget, uncounted, limits);
    let r = match claim {
        Claim::Mate => x.mate_attacker(root, budget),
        Claim::Nomate => x.nomate_attacker(root, budget),
    };
    match r {
        // A stopped fallback solve answers `unknown`, which the extractor takes for a
        // node it cannot settle: whatever failed after a stop request failed by it.
        Err(_) if x.stop_requested() => Err(ExtractError::Stopped),
        Err(e) => Err(e),
        Ok(r) => Ok((x.nodes, r)),
    }
}
