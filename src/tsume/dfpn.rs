//! The df-pn search (Nagai 2002) with TCA (Kishimoto 2010; pseudo-code in seed
//! `002_c06e8a0a879c6957.txt`), weak proof numbers at AND nodes / weak disproof
//! numbers at OR nodes (Ueda et al. 2008, against DAG double counting, seed
//! `004_…`), a 1-ply mate check at every OR node (seed `004_…`), lazy
//! interpositions, path-dependent repetition handling and an optional ply
//! budget (used for the shortest mate).

use super::table::{Table, UNBOUNDED};
use super::{MatePosition, ProofNumbers, SolverOptions};
use crate::rules::{Color, Hand, PieceKind};
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// How a search ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// A mate, with a line the checker has replayed.
    Mate,
    /// A complete disproof: no mate exists.
    NoMate,
    /// Limits reached before a proof or a complete disproof.
    Unknown,
}

impl Outcome {
    /// `mate`, `nomate` or `unknown`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Mate => "mate",
            Outcome::NoMate => "nomate",
            Outcome::Unknown => "unknown",
        }
    }
}

/// Search statistics.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// Nodes expanded (all searches of this solve: proof, extraction, shortest, 余詰).
    pub nodes: u64,
    /// Wall time.
    pub time: Duration,
    /// Deepest ply reached.
    pub max_depth: u16,
    /// Table statistics.
    pub table: super::table::TableStats,
}

/// The answer to one problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SolveResult<M> {
    /// Mate, no mate, or unknown.
    pub outcome: Outcome,
    /// For a mate: the moves, verified by [`crate::tsume::checker::verify_mate_line`].
    pub line: Vec<M>,
    /// With `shortest`: whether the line is the proven shortest mate (攻方最短・玉方最長).
    pub shortest: Option<bool>,
    /// Other first moves that also mate (余詰), when `alt_nodes > 0`.
    pub alternatives: Vec<M>,
    /// With `max_plies`: the limit, if no mate of at most that many plies exists.
    pub no_mate_within: Option<u16>,
    /// Statistics.
    pub stats: Stats,
}

impl<M: std::fmt::Display> SolveResult<M> {
    /// The line as space-separated USI moves.
    pub fn line_usi(&self) -> String {
        self.line
            .iter()
            .map(|m| m.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// "Depends on no path": the node's disproof holds wherever it is reached.
const NO_DEP: u16 = u16::MAX;
/// Deepest ply searched; deeper nodes are cut (a cut is never a disproof).
pub const MAX_DEPTH: u16 = 4000;
/// Weak proof numbers (Ueda et al. 2008) instead of sums; measured slower on 図巧/無双 here, kept off
/// (re-measured with serial interpositions: weak AND pn 5.9 -> 8.0 M nodes on 図巧/無双 1–10;
/// weak OR dn helped there, 6.2 -> 5.9 M, but lost on 21–40, 5.4 -> 6.7 M).
const WEAK: bool = false;
/// One open interposition at a time, nearest the king first (shtsume's lazy drops): the
/// drops form one chain behind the other replies instead of one open drop per square.
/// All 20 of 図巧/無双 1–10 at 1 M nodes: 7.55 -> 6.37 M nodes; 21–40: 7.07 -> 6.49 M.
const SERIAL_INTERPOSITIONS: bool = true;
/// Interpositions on squares no defender guards wait until the other replies are proven
/// (they are usually captured at once): 1–10 6.37 -> 6.20 M nodes, 21–40 6.49 -> 5.40 M.
const UNGUARDED_DROPS_LAST: bool = true;
/// Initialise a new OR leaf's disproof number with its number of checks (df-pn+, Nagai 2002);
/// with the 1+ε trick it pays off on 図巧/無双 (paper/paper.md).
const INIT_DN_BY_CHECKS: bool = true;
/// Store disproofs with disproof pieces (反証駒): the largest attacker hand the disproof
/// also refutes (only for complete disproofs, no ply budget).
const DISPROOF_PIECES: bool = true;
/// A child not in the table starts from the proof numbers the table's unsolved entries of
/// its board imply by hand superiority ([`Table::bounds`]; shtsume does the same): all 200
/// of 図巧/無双 at 1 M nodes 34.2 -> 29.9 M nodes.
const UNKNOWN_BOUNDS: bool = true;

/// Position keys are already Zobrist-random: hash them by one multiply-xor, not SipHash.
#[derive(Default, Clone, Copy)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0 ^ b as u64).wrapping_mul(0x100_0000_01b3);
        }
    }
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(29) ^ x).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    }
}

type KeyHash = std::hash::BuildHasherDefault<KeyHasher>;
const REP_TABLE_MAX: usize = 1 << 20;

#[inline]
fn mix(k: u64) -> u64 {
    let mut z = k.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const CAP: u32 = ProofNumbers::INF - 1;

#[derive(Debug, Clone, Copy)]
struct Child<M> {
    mv: M,
    pns: ProofNumbers,
    bound: u16,
    ply: u16,
    dep: u16,
    fixed: bool,
    seen: bool,
    drop_sq: Option<u8>,
    /// An interposition on a square no defender guards: searched after the other replies.
    later: bool,
    /// For a proven child: its proof pieces (the attacker hand its proof needs).
    ph: Hand,
    /// For a check: the hand kinds it drops / captures.
    delta: (Option<PieceKind>, Option<PieceKind>),
}

#[derive(Debug, Clone, Copy)]
struct NodeOut {
    pns: ProofNumbers,
    bound: u16,
    dep: u16,
    /// For a proof: the proof pieces (証明駒).
    ph: Hand,
}

/// Componentwise maximum of two hands.
fn hand_max(a: Hand, b: Hand) -> Hand {
    PieceKind::HAND.iter().fold(a, |h, &k| {
        if b.count(k) > h.count(k) {
            h.with_count(k, b.count(k))
        } else {
            h
        }
    })
}

/// Proof pieces of an OR node proven by a check whose child needs `child`: give back
/// what the check captured (it came for free), add what it dropped.
fn or_proof_hand(child: Hand, delta: (Option<PieceKind>, Option<PieceKind>)) -> Hand {
    let mut h = child;
    if let Some(c) = delta.1 {
        if h.count(c) > 0 {
            h = h.remove(c);
        }
    }
    if let Some(d) = delta.0 {
        h = h.add(d);
    }
    h
}

/// Proof pieces of an AND node whose replies need `need`: if a drop could interpose,
/// every kind the defender lacks must stay out of its reach, so the attacker keeps all
/// of it (証明駒, as in shtsume / KomoringHeights).
fn and_proof_hand(need: Hand, attacker: Hand, defender: Hand, interposable: bool) -> Hand {
    if !interposable {
        return need;
    }
    PieceKind::HAND.iter().fold(need, |h, &k| {
        if defender.count(k) == 0 {
            h.with_count(k, attacker.count(k))
        } else {
            h
        }
    })
}

/// Componentwise minimum of two hands.
fn hand_min(a: Hand, b: Hand) -> Hand {
    PieceKind::HAND.iter().fold(a, |h, &k| {
        if b.count(k) < h.count(k) {
            h.with_count(k, b.count(k))
        } else {
            h
        }
    })
}

/// Disproof pieces (反証駒) of an OR node without checks: the attacker may hold every
/// piece of a kind it already holds (more copies of a held kind give no new check; as in
/// shtsume's `disproof_koma`), nothing of the kinds it lacks.
fn leaf_disproof_hand(attacker: Hand, defender: Hand) -> Hand {
    PieceKind::HAND.iter().fold(attacker, |h, &k| {
        if attacker.count(k) > 0 {
            h.with_count(k, attacker.count(k) + defender.count(k))
        } else {
            h
        }
    })
}

/// The disproof pieces a disproven check's child `child` (the attacker hand its disproof
/// allows) gives its OR node: take back what the check dropped, give back what it captured.
fn or_disproof_child(child: Hand, delta: (Option<PieceKind>, Option<PieceKind>)) -> Hand {
    let mut h = child;
    if let Some(d) = delta.0 {
        h = h.add(d);
    }
    if let Some(c) = delta.1 {
        if h.count(c) > 0 {
            h = h.remove(c);
        }
    }
    h
}

/// Disproof pieces of an OR node whose checks' children allow `min` (componentwise
/// minimum of [`or_disproof_child`]): kinds the attacker lacks stay absent (a piece of
/// such a kind would add drops that were never refuted); never below the actual hand.
fn or_disproof_hand(min: Hand, attacker: Hand) -> Hand {
    let h = PieceKind::HAND.iter().fold(min, |h, &k| {
        if attacker.count(k) == 0 {
            h.with_count(k, 0)
        } else {
            h
        }
    });
    hand_max(h, attacker)
}

/// Disproof pieces of an AND node refuted by the reply `drop_kind` (a drop of that kind,
/// or `None`) whose child allows `child`: the defender must still hold the dropped
/// piece, so the attacker gets no more of that kind.
fn and_disproof_hand(child: Hand, attacker: Hand, drop_kind: Option<PieceKind>) -> Hand {
    let h = match drop_kind {
        Some(k) => child.with_count(k, child.count(k).min(attacker.count(k))),
        None => child,
    };
    hand_max(h, attacker)
}

/// State of one line walk ([`Solver::extract`]).
struct WalkState {
    exact: bool,
    futility: bool,
    /// `prefix[d]`: hash of the sequence of the path's first `d` positions.
    prefix: Vec<u64>,
    /// `budgets[d]`: the budget the walk entered depth `d` with.
    budgets: Vec<u16>,
    /// Positions that failed on some path: (prefix length they depend on, its hash).
    failed: HashMap<u64, Vec<(u16, u64)>, KeyHash>,
}

/// Why a walk below a node gave no line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum WalkFail {
    /// It fails on this path, depending on the path's first `j` positions only (0: on none).
    Dep(u16),
    /// The position at this depth recurs below with a smaller budget: walk it again from
    /// there within that budget.
    Restart(u16, u16),
}

/// The df-pn solver: one table, reusable across problems with the same piece set.
pub struct Solver<P: MatePosition> {
    table: Table,
    opts: SolverOptions,
    attacker: Color,
    nodes: u64,
    node_limit: Option<u64>,
    deadline: Option<Instant>,
    aborted: bool,
    max_depth: u16,
    path: HashMap<u64, u16, KeyHash>,
    /// Hash of the set of positions on the path (order-free: repetition depends only on the set).
    path_hash: u64,
    /// Path-dependent disproofs: (position key, path hash) → (budget bound, dependency depth).
    /// Sound because the same path set gives the same repetitions; cleared when large.
    rep_table: HashMap<(u64, u64), (u16, u16), KeyHash>,
    /// Finite ply budgets only bound the mate length (every legal reply counts, no 無駄合
    /// rule): set while the default line walk re-proves nodes within their proof bounds.
    plain: bool,
    _pos: std::marker::PhantomData<P>,
}

/// The 1+ε trick (Pawlewicz & Lew 2007) with ε = 1/4: the best child may run until it is
/// a quarter worse than its best sibling, not merely one worse, which damps the seesaw
/// of df-pn between siblings of similar value.
#[inline]
fn sibling_bound(second: u32) -> u32 {
    second.saturating_add(1 + second / 4)
}

fn budget_minus(b: u16, n: u16) -> u16 {
    if b == UNBOUNDED {
        UNBOUNDED
    } else {
        b.saturating_sub(n)
    }
}

fn bound_plus(b: u16) -> u16 {
    if b == UNBOUNDED {
        UNBOUNDED
    } else {
        b.saturating_add(1).min(UNBOUNDED - 1)
    }
}

impl<P: MatePosition> Solver<P> {
    /// A solver with a fresh table of `opts.memory_mib` MiB.
    pub fn new(opts: SolverOptions) -> Self {
        Solver {
            table: Table::new(opts.memory_mib),
            opts,
            attacker: Color::Sente,
            nodes: 0,
            node_limit: None,
            deadline: None,
            aborted: false,
            max_depth: 0,
            path: HashMap::default(),
            path_hash: 0,
            rep_table: HashMap::default(),
            plain: false,
            _pos: std::marker::PhantomData,
        }
    }

    /// Solves `root` (the side to move attacks). The table is cleared first.
    pub fn solve(&mut self, root: &P) -> SolveResult<P::Move> {
        let start = Instant::now();
        self.table.clear();
        self.rep_table.clear();
        self.attacker = root.side_to_move();
        self.nodes = 0;
        self.max_depth = 0;
        self.node_limit = self.opts.nodes;
        self.deadline = self.opts.time.map(|t| start + t);
        self.aborted = false;
        let mut pos = root.clone();
        let mut result = SolveResult {
            outcome: Outcome::Unknown,
            line: Vec::new(),
            shortest: None,
            alternatives: Vec::new(),
            no_mate_within: None,
            stats: Stats::default(),
        };
        let root_budget = self
            .opts
            .max_plies
            .map_or(UNBOUNDED, |p| p.min(UNBOUNDED - 1));
        let out = self.search_root(&mut pos, root_budget);
        if out.pns.is_proven() {
            let mut len = out.bound;
            let mut exact = false;
            if self.opts.shortest {
                let (l, e) = self.shortest_len(&mut pos, len);
                len = l;
                exact = e;
            }
            if let Some(line) = self.extract(&mut pos, len, exact) {
                if root.check_mate_line(&line).is_ok() {
                    result.outcome = Outcome::Mate;
                    result.line = line;
                    if self.opts.shortest {
                        result.shortest = Some(exact);
                    }
                }
            }
            if result.outcome == Outcome::Mate && self.opts.alt_nodes > 0 {
                let budget = if exact { len - 1 } else { UNBOUNDED };
                result.alternatives = self.alternatives(&mut pos, result.line[0], budget);
            }
        } else if out.pns.is_disproven() && out.dep != 0 && !self.aborted {
            if root_budget == UNBOUNDED {
                result.outcome = Outcome::NoMate;
            } else {
                result.no_mate_within = Some(root_budget);
            }
        }
        result.stats = Stats {
            nodes: self.nodes,
            time: start.elapsed(),
            max_depth: self.max_depth,
            table: self.table.stats,
        };
        result
    }

    /// `pns` raised to the bounds the table's unsolved entries imply ([`UNKNOWN_BOUNDS`]).
    fn with_bounds(&self, pns: ProofNumbers, key: u64, hand: Hand) -> ProofNumbers {
        if !UNKNOWN_BOUNDS {
            return pns;
        }
        let b = self.table.bounds(key, hand);
        ProofNumbers {
            pn: pns.pn.max(b.pn),
            dn: pns.dn.max(b.dn),
        }
    }

    /// Searches from `pos` (at ply 1 of the current path) until solved or aborted.
    fn search_root(&mut self, pos: &mut P, budget: u16) -> NodeOut {
        self.path.clear();
        self.path_hash = 0;
        loop {
            let out = self.mid(pos, ProofNumbers::NO_THRESHOLD, 1, budget, false);
            if out.pns.is_solved() || self.aborted {
                return out;
            }
        }
    }

    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes & 1023 == 0 {
            if let Some(d) = self.deadline {
                if Instant::now() >= d {
                    self.aborted = true;
                }
            }
        }
        if let Some(l) = self.node_limit {
            if self.nodes >= l {
                self.aborted = true;
            }
        }
    }

    /// The node's proof numbers from its children, plus (best index, second best value, bound, dep).
    fn compute(
        &self,
        or: bool,
        ch: &[Child<P::Move>],
        blocked: &mut Vec<u8>,
    ) -> (ProofNumbers, Option<usize>, u32, u16, u16, u32) {
        if or {
            let mut min_pn = ProofNumbers::INF;
            let mut second = ProofNumbers::INF;
            let mut best = None;
            let mut max_dn = 0u32;
            let mut sum_dn = 0u32;
            let mut open = 0u32;
            let mut dis_bound = UNBOUNDED;
            let mut dep = NO_DEP;
            for (i, c) in ch.iter().enumerate() {
                if c.pns.is_proven() {
                    return (
                        ProofNumbers::PROVEN,
                        Some(i),
                        0,
                        bound_plus(c.bound),
                        NO_DEP,
                        0,
                    );
                }
                if c.pns.is_disproven() {
                    dis_bound = dis_bound.min(c.bound);
                    dep = dep.min(c.dep);
                    continue;
                }
                open += 1;
                max_dn = max_dn.max(c.pns.dn);
                sum_dn = sum_dn.saturating_add(c.pns.dn);
                if c.pns.pn < min_pn {
                    second = min_pn;
                    min_pn = c.pns.pn;
                    best = Some(i);
                } else if c.pns.pn < second {
                    second = c.pns.pn;
                }
            }
            if open == 0 {
                return (
                    ProofNumbers::DISPROVEN,
                    None,
                    0,
                    bound_plus(dis_bound),
                    dep,
                    0,
                );
            }
            let dn = if WEAK {
                max_dn.saturating_add(open - 1)
            } else {
                sum_dn
            }
            .min(CAP);
            (
                ProofNumbers { pn: min_pn, dn },
                best,
                second,
                0,
                NO_DEP,
                open,
            )
        } else {
            blocked.clear();
            let hold = UNGUARDED_DROPS_LAST && ch.iter().any(|c| !c.later && !c.pns.is_solved());
            let mut min_dn = ProofNumbers::INF;
            let mut second = ProofNumbers::INF;
            let mut best = None;
            let mut max_pn = 0u32;
            let mut sum_pn = 0u32;
            let mut open = 0u32;
            let mut proof_bound = 0u16;
            for (i, c) in ch.iter().enumerate() {
                if c.pns.is_disproven() {
                    return (
                        ProofNumbers::DISPROVEN,
                        Some(i),
                        0,
                        bound_plus(c.bound),
                        c.dep,
                        0,
                    );
                }
                if c.pns.is_proven() {
                    proof_bound = proof_bound.max(c.bound);
                    continue;
                }
                if hold && c.later {
                    continue;
                }
                if let Some(sq) = c.drop_sq {
                    // Lazy interposition: one open drop per square at a time.
                    let sq = if SERIAL_INTERPOSITIONS { 0 } else { sq };
                    if blocked.contains(&sq) {
                        continue;
                    }
                    blocked.push(sq);
                }
                open += 1;
                max_pn = max_pn.max(c.pns.pn);
                sum_pn = sum_pn.saturating_add(c.pns.pn);
                if c.pns.dn < min_dn {
                    second = min_dn;
                    min_dn = c.pns.dn;
                    best = Some(i);
                } else if c.pns.dn < second {
                    second = c.pns.dn;
                }
            }
            if best.is_none() {
                // Every child is proven (blocked drops exist only behind open ones).
                return (
                    ProofNumbers::PROVEN,
                    None,
                    0,
                    bound_plus(proof_bound),
                    NO_DEP,
                    0,
                );
            }
            let pn = if WEAK {
                max_pn.saturating_add(open - 1)
            } else {
                sum_pn
            }
            .min(CAP);
            (
                ProofNumbers { pn, dn: min_dn },
                best,
                second,
                0,
                NO_DEP,
                open,
            )
        }
    }

    /// Multiple iterative deepening at one node (`depth` is 1 at the root).
    fn mid(
        &mut self,
        pos: &mut P,
        th: ProofNumbers,
        depth: u16,
        budget: u16,
        mut inc: bool,
    ) -> NodeOut {
        self.tick();
        self.max_depth = self.max_depth.max(depth);
        let key = pos.board_key();
        let hand = pos.hand_of(self.attacker);
        let or = pos.side_to_move() == self.attacker;
        if depth >= MAX_DEPTH {
            return NodeOut {
                pns: ProofNumbers::DISPROVEN,
                bound: 0,
                dep: 0,
                ph: Hand::EMPTY,
            };
        }
        let mut moves = Vec::new();
        // Proof pieces needed by the futile replies' refutations, and the shallowest path
        // dependency of a futility test that failed (its reply then stays a reply).
        let mut futile_need = Hand::EMPTY;
        let mut futile_dep = NO_DEP;
        if or {
            if budget == 0 {
                self.table
                    .store(key, hand, ProofNumbers::DISPROVEN, 0, depth, 1);
                return NodeOut {
                    pns: ProofNumbers::DISPROVEN,
                    bound: 0,
                    dep: NO_DEP,
                    ph: hand,
                };
            }
            pos.checks(&mut moves);
            if moves.is_empty() {
                let dh = if DISPROOF_PIECES {
                    leaf_disproof_hand(hand, pos.hand_of(!self.attacker))
                } else {
                    hand
                };
                self.table
                    .store(key, dh, ProofNumbers::DISPROVEN, UNBOUNDED, depth, 1);
                return NodeOut {
                    pns: ProofNumbers::DISPROVEN,
                    bound: UNBOUNDED,
                    dep: NO_DEP,
                    ph: dh,
                };
            }
        } else {
            pos.evasions(&mut moves);
            let legal_replies = moves.len();
            if budget != UNBOUNDED && !self.plain && !moves.is_empty() && pos.interposable() {
                // Ply budgets count no 無駄合: futile interpositions are no replies (specs/tsume.md).
                let pk = pos.position_key();
                self.path.insert(pk, depth);
                self.path_hash ^= mix(pk);
                (futile_need, futile_dep) = self.drop_futile(pos, &mut moves, depth, budget);
                self.path.remove(&pk);
                self.path_hash ^= mix(pk);
            }
            if moves.is_empty() {
                let ph = and_proof_hand(
                    futile_need,
                    hand,
                    pos.hand_of(!self.attacker),
                    pos.interposable(),
                );
                let amount = (legal_replies as u64).max(1);
                self.table
                    .store(key, ph, ProofNumbers::PROVEN, 0, depth, amount);
                return NodeOut {
                    pns: ProofNumbers::PROVEN,
                    bound: 0,
                    dep: NO_DEP,
                    ph,
                };
            }
            if budget == 0 {
                if futile_dep >= depth {
                    self.table
                        .store(key, hand, ProofNumbers::DISPROVEN, 0, depth, 1);
                }
                return NodeOut {
                    pns: ProofNumbers::DISPROVEN,
                    bound: 0,
                    dep: if futile_dep >= depth {
                        NO_DEP
                    } else {
                        futile_dep
                    },
                    ph: hand,
                };
            }
            // Board moves first, then drops grouped by square (lazy interposition chains).
            if SERIAL_INTERPOSITIONS {
                moves.sort_by_key(|&m| {
                    P::drop_square(m)
                        .map_or(0, |s| 1 + pos.king_distance(s) as u32 * 128 + s as u32)
                });
            } else {
                moves.sort_by_key(|&m| P::drop_square(m).map_or(0, |s| s as u32 + 1));
            }
        }
        let my_pk = pos.position_key();
        self.path.insert(my_pk, depth);
        self.path_hash ^= mix(my_pk);
        let start_nodes = self.nodes;
        let child_budget = budget_minus(budget, 1);
        let mut children: Vec<Child<P::Move>> = Vec::with_capacity(moves.len());
        let mut scratch = Vec::new();
        let mut early: Option<NodeOut> = None;
        for &m in &moves {
            // At AND nodes only the dropped kind is used (disproof pieces).
            let delta = pos.hand_delta(m);
            let defenders = if or { pos.defenders_of(m) } else { 0 };
            let later =
                !or && UNGUARDED_DROPS_LAST && P::drop_square(m).is_some() && pos.guards_of(m) == 0;

            pos.play(m);
            let ckey = pos.board_key();
            let chand = pos.hand_of(self.attacker);
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
                ph: chand,
                delta,
            };
            let cpk = pos.position_key();
            if let Some(&d) = self.path.get(&cpk) {
                // Repetition on the path: 連続王手の千日手, a failure for the attacker, valid only on this path.
                c.pns = ProofNumbers::DISPROVEN;
                c.bound = UNBOUNDED;
                c.dep = d;
                c.fixed = true;
            } else if let Some(&(b, d)) = self
                .rep_table
                .get(&(cpk, self.path_hash))
                .filter(|x| x.0 >= child_budget)
            {
                c.pns = ProofNumbers::DISPROVEN;
                c.bound = b;
                c.dep = d;
                c.fixed = true;
            } else if let Some(f) = self.table.lookup(ckey, chand, child_budget) {
                c.pns = f.pns;
                c.bound = f.bound;
                c.ply = f.ply;
                c.seen = true;
                c.ph = f.hand;
            } else if or {
                // 1-ply mate check (seed 004): the defender's reply count is the child's proof number.
                scratch.clear();
                pos.evasions(&mut scratch);
                if scratch.is_empty() {
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
                } else {
                    // Count drops once per square, as the lazy interposition expands them.
                    let mut squares = 0u128;
                    let mut n = 0u32;
                    for &e in &scratch {
                        match P::drop_square(e) {
                            None => n += 1,
                            Some(s) => squares |= 1u128 << s,
                        }
                    }
                    let squares = squares.count_ones();
                    // df-pn+ (Nagai 2002): a check on a square two defenders guard looks harder.
                    let guarded = u32::from(defenders >= 2);
                    c.pns = ProofNumbers {
                        pn: (n + squares).max(1) + guarded,
                        dn: 1,
                    };
                    c.pns = self.with_bounds(c.pns, ckey, chand);
                }
            } else if INIT_DN_BY_CHECKS {
                // The defender's reply leaves the attacker this many checks: its disproof number.
                scratch.clear();
                pos.checks(&mut scratch);
                if scratch.is_empty() {
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
                } else {
                    c.pns = ProofNumbers {
                        pn: 1,
                        dn: scratch.len() as u32,
                    };
                    c.pns = self.with_bounds(c.pns, ckey, chand);
                }
            }
            pos.undo();
            if or && c.pns.is_proven() {
                early = Some(NodeOut {
                    pns: ProofNumbers::PROVEN,
                    bound: bound_plus(c.bound),
                    dep: NO_DEP,
                    ph: or_proof_hand(c.ph, c.delta),
                });
            } else if !or && c.pns.is_disproven() {
                let ph = if DISPROOF_PIECES && budget == UNBOUNDED {
                    and_disproof_hand(c.ph, hand, c.delta.0)
                } else {
                    hand
                };
                early = Some(NodeOut {
                    pns: ProofNumbers::DISPROVEN,
                    bound: bound_plus(c.bound),
                    dep: c.dep,
                    ph,
                });
            }
            if early.is_some() {
                break;
            }
            children.push(c);
        }
        let mut blocked = Vec::new();
        let mut th = th;
        let mut first = true;
        let result = if let Some(e) = early {
            e
        } else {
            // Children keep the values of their own last search: re-reading every sibling
            // from the table after each step (to see transpositions) cost ~10 % of the
            // time for ~1 % fewer nodes on 図巧/無双 1–10 and 2 % more on 21–40.
            loop {
                let (pns, best, second, bound, dep, open) =
                    self.compute(or, &children, &mut blocked);
                if pns.is_solved() {
                    let ph = if !pns.is_proven() {
                        if !DISPROOF_PIECES || budget != UNBOUNDED {
                            hand
                        } else if or {
                            let min = children
                                .iter()
                                .map(|c| or_disproof_child(c.ph, c.delta))
                                .reduce(hand_min)
                                .unwrap_or(hand);
                            or_disproof_hand(min, hand)
                        } else {
                            let c = &children[best.expect("a disproven child")];
                            and_disproof_hand(c.ph, hand, c.delta.0)
                        }
                    } else if or {
                        let c = &children[best.expect("a proven child")];
                        or_proof_hand(c.ph, c.delta)
                    } else {
                        let need = children.iter().fold(futile_need, |h, c| hand_max(h, c.ph));
                        and_proof_hand(need, hand, pos.hand_of(!self.attacker), pos.interposable())
                    };
                    break NodeOut {
                        pns,
                        bound,
                        dep,
                        ph,
                    };
                }
                if !inc
                    && children
                        .iter()
                        .any(|c| c.seen && !c.pns.is_solved() && c.ply <= depth)
                {
                    inc = true;
                }
                if first && inc {
                    th.pn = th.pn.max(pns.pn.saturating_add(1));
                    th.dn = th.dn.max(pns.dn.saturating_add(1));
                }
                first = false;
                if pns.pn >= th.pn || pns.dn >= th.dn || self.aborted {
                    break NodeOut {
                        pns,
                        bound: 0,
                        dep: NO_DEP,
                        ph: hand,
                    };
                }
                let bi = best.expect("an open child exists");
                let b = children[bi];
                // Weak numbers: the node reaches its threshold when the best child reaches th - (open - 1).
                let cth = if or {
                    let others = if WEAK { open - 1 } else { pns.dn - b.pns.dn };
                    ProofNumbers {
                        pn: th.pn.min(sibling_bound(second)),
                        dn: th.dn.saturating_sub(others),
                    }
                } else {
                    let others = if WEAK { open - 1 } else { pns.pn - b.pns.pn };
                    ProofNumbers {
                        pn: th.pn.saturating_sub(others),
                        dn: th.dn.min(sibling_bound(second)),
                    }
                };
                pos.play(b.mv);
                // TCA: a leaf (a child never searched before) starts with the flag off (seed 002).
                let out = self.mid(pos, cth, depth + 1, child_budget, inc && b.seen);
                pos.undo();
                let c = &mut children[bi];
                c.pns = out.pns;
                c.bound = out.bound;
                c.seen = true;
                c.ph = out.ph;
                if out.pns.is_solved() {
                    c.fixed = true;
                    c.dep = out.dep;
                }
            }
        };
        self.path.remove(&my_pk);
        self.path_hash ^= mix(my_pk);
        let mut result = result;
        if result.pns.is_disproven() {
            result.dep = result.dep.min(futile_dep);
        }
        let amount = self.nodes - start_nodes + 1;
        if result.pns.is_disproven() {
            if result.dep >= depth {
                self.table.store(
                    key,
                    result.ph,
                    ProofNumbers::DISPROVEN,
                    result.bound,
                    depth,
                    amount,
                );
                return NodeOut {
                    dep: NO_DEP,
                    ..result
                };
            }
            // Path-dependent (GHI): stored only for this exact path set.
            if self.rep_table.len() >= REP_TABLE_MAX {
                self.rep_table.clear();
            }

            self.rep_table
                .insert((my_pk, self.path_hash), (result.bound, result.dep));
            return result;
        }
        let stored = if result.pns.is_proven() {
            result.ph
        } else {
            hand
        };
        self.table
            .store(key, stored, result.pns, result.bound, depth, amount);
        result
    }

    /// Whether the reply `m` at the AND node `pos` (path depth `depth`, ply budget `budget`)
    /// is a 無駄合: some recapture by the checker leaves a position that is mate within
    /// the same budget without the captured piece. `Ok(proof pieces)` if so, else
    /// `Err(path dependency)` of the failed tests.
    fn futile(&mut self, pos: &P, m: P::Move, depth: u16, budget: u16) -> Result<Hand, u16> {
        let mut dep = NO_DEP;
        for mut q in pos.futility_tests(m) {
            let h = q.hand_of(self.attacker);
            if let Some(f) = self.table.lookup(q.board_key(), h, budget) {
                if f.pns.is_proven() {
                    return Ok(f.hand);
                }
                if f.pns.is_disproven() {
                    continue;
                }
            }
            if self.path.contains_key(&q.position_key()) {
                dep = dep.min(self.path[&q.position_key()]);
                continue;
            }
            let out = self.mid(&mut q, ProofNumbers::NO_THRESHOLD, depth + 2, budget, false);
            if out.pns.is_proven() {
                return Ok(out.ph);
            }
            dep = dep.min(out.dep);
            if self.aborted {
                break;
            }
        }
        Err(dep)
    }

    /// Removes the 無駄合 among the replies `moves` at the AND node `pos` (already on the
    /// path); returns the proof pieces their refutations need and the shallowest path
    /// dependency of the tests that failed.
    fn drop_futile(
        &mut self,
        pos: &P,
        moves: &mut Vec<P::Move>,
        depth: u16,
        budget: u16,
    ) -> (Hand, u16) {
        let (mut need, mut dep) = (Hand::EMPTY, NO_DEP);
        let mut kept = Vec::with_capacity(moves.len());
        for &m in moves.iter() {
            match self.futile(pos, m, depth, budget) {
                Ok(ph) => need = hand_max(need, ph),
                Err(d) => {
                    dep = dep.min(d);
                    kept.push(m);
                }
            }
        }
        *moves = kept;
        (need, dep)
    }

    fn reset_limits_for(&mut self, extra_nodes: u64) {
        self.aborted = false;
        self.node_limit = Some(self.nodes.saturating_add(extra_nodes));
    }

    /// The shortest mate length at most `upper`, by searching with ply budgets
    /// `upper - 2`, … until a budget is disproven; `exact` is false if limits cut it short.
    fn shortest_len(&mut self, pos: &mut P, upper: u16) -> (u16, bool) {
        let mut len = upper;
        loop {
            if len < 3 {
                return (len, true);
            }
            let out = self.search_root(pos, len - 2);
            if out.pns.is_proven() {
                len = out.bound.min(len - 2);
            } else if out.pns.is_disproven() && out.dep != 0 && !self.aborted {
                return (len, true);
            } else {
                return (len, false);
            }
        }
    }

    /// Proves `pos` within `budget` plies (at path depth `depth`) if the table no longer knows it.
    fn ensure(&mut self, pos: &mut P, depth: u16, budget: u16) -> Option<u16> {
        if let Some(f) = self
            .table
            .lookup(pos.board_key(), pos.hand_of(self.attacker), budget)
        {
            if f.pns.is_proven() {
                return Some(f.bound);
            }
        }
        let out = self.mid(pos, ProofNumbers::NO_THRESHOLD, depth, budget, false);
        out.pns.is_proven().then_some(out.bound)
    }

    /// The proof bounds of the children `moves` of `pos` within `cb` plies (`None`: a
    /// repetition on the path, or no proof). At OR nodes the table only; at AND nodes a
    /// reply the table no longer proves is proved again.
    fn child_bounds(
        &mut self,
        pos: &mut P,
        moves: &[P::Move],
        or: bool,
        depth: u16,
        cb: u16,
    ) -> Vec<Option<u16>> {
        let mut bounds = Vec::with_capacity(moves.len());
        for &m in moves {
            pos.play(m);
            let b = if self.path.contains_key(&pos.position_key()) {
                None
            } else if or {
                self.table
                    .lookup(pos.board_key(), pos.hand_of(self.attacker), cb)
                    .and_then(|f| f.pns.is_proven().then_some(f.bound))
            } else {
                self.ensure(pos, depth + 1, cb)
            };
            pos.undo();
            bounds.push(b);
        }
        bounds
    }

    /// Searches `pos`, already on the walk's path at `depth`, again within `budget`.
    fn reprove(&mut self, pos: &mut P, depth: u16, budget: u16) {
        let pk = pos.position_key();
        self.path.remove(&pk);
        self.path_hash ^= mix(pk);
        self.mid(pos, ProofNumbers::NO_THRESHOLD, depth, budget, false);
        self.path.insert(pk, depth);
        self.path_hash ^= mix(pk);
    }

    /// Walks the proof: the attacker takes a proven check with the smallest bound, the
    /// defender the reply with the largest (with `exact`: one whose mate is exactly one
    /// ply shorter).
    ///
    /// The walk keeps a ply budget: every child must be proven within the budget − 1, and
    /// the chosen child's bound becomes the new budget (with `exact`: budget − 1); a node
    /// whose proof was evicted is proved again within its budget. Table proofs ignore the
    /// path, so a defender reply may lead to a node whose only mating checks repeat a
    /// position of the line (図巧100: after 156 plies the defender's interposition cycle
    /// returned to the position of ply 115). Such a node fails on this path and the walk
    /// backtracks to the last attacker node with another proven check; failures are
    /// remembered with the path prefix they depend on (GHI-safe), so no subtree is walked
    /// twice under the same prefix. Without a ply limit (the default) the budgets are
    /// `plain`: they bound the length only and every legal reply counts (no 無駄合 rule),
    /// and a node whose bounded re-proof fails may use any proof.
    fn extract(&mut self, root: &mut P, len: u16, exact: bool) -> Option<Vec<P::Move>> {
        let mut pos = root.clone();
        let extra = self.nodes.saturating_mul(2).saturating_add(1_000_000);
        self.reset_limits_for(extra);
        self.path.clear();
        self.path_hash = 0;
        let futility = exact || self.opts.max_plies.is_some();
        self.plain = !futility;
        let mut st = WalkState {
            exact,
            futility,
            prefix: vec![0],
            budgets: vec![0],
            failed: HashMap::default(),
        };
        let line = self.walk(&mut pos, 1, len, &mut st).ok();
        self.plain = false;
        line
    }

    /// The walk below `pos` at `depth` within `budget`: the line, or why there is none.
    fn walk(
        &mut self,
        pos: &mut P,
        depth: u16,
        budget: u16,
        st: &mut WalkState,
    ) -> Result<Vec<P::Move>, WalkFail> {
        if self.aborted {
            return Err(WalkFail::Dep(0));
        }
        if depth >= MAX_DEPTH {
            return Err(WalkFail::Dep(depth - 1));
        }
        let pk = pos.position_key();
        if let Some(v) = st.failed.get(&pk) {
            if let Some(&(j, _)) = v
                .iter()
                .find(|&&(j, h)| j < depth && st.prefix[j as usize] == h)
            {
                return Err(WalkFail::Dep(j));
            }
        }
        let prefix = mix(st.prefix[depth as usize - 1] ^ pk);
        st.prefix.push(prefix);
        st.budgets.push(budget);
        self.path.insert(pk, depth);
        self.path_hash ^= mix(pk);
        let or = pos.side_to_move() == self.attacker;
        let mut budget = budget;
        let r = loop {
            let r = if or {
                self.walk_or(pos, depth, budget, st)
            } else {
                self.walk_and(pos, depth, budget, st)
            };
            match r {
                Err(WalkFail::Restart(j, b)) if j == depth => {
                    // A shorter proof of this very position showed up below: prove it again
                    // within that budget and walk from here once more.
                    self.reprove(pos, depth, b);
                    let proven = self
                        .table
                        .lookup(pos.board_key(), pos.hand_of(self.attacker), b)
                        .is_some_and(|f| f.pns.is_proven());
                    if !proven || self.aborted {
                        break Err(WalkFail::Dep(depth - 1));
                    }
                    budget = b;
                    st.budgets[depth as usize] = b;
                }
                r => break r,
            }
        };
        self.path.remove(&pk);
        self.path_hash ^= mix(pk);
        st.prefix.pop();
        st.budgets.pop();
        if let Err(WalkFail::Dep(j)) = r {
            if !self.aborted {
                let h = st.prefix[j as usize];
                st.failed.entry(pk).or_default().push((j, h));
            }
        }
        r
    }

    /// How a child's failure below a node at `depth` depends on the path above the node.
    fn above(j: u16, depth: u16) -> u16 {
        if j < depth {
            j
        } else {
            0
        }
    }

    /// Why the child after `m` has no usable proof: a repetition of the path's position at
    /// depth `j` depends on the first `j` positions; a disproof in the table on none; any
    /// other miss (perhaps a path-dependent re-proof failure) on the whole path.
    fn miss_dep(&mut self, pos: &mut P, m: P::Move, depth: u16, cb: u16) -> u16 {
        pos.play(m);
        let dep = if let Some(&j) = self.path.get(&pos.position_key()) {
            Self::above(j, depth)
        } else if self
            .table
            .lookup(pos.board_key(), pos.hand_of(self.attacker), cb)
            .is_some_and(|f| f.pns.is_disproven())
        {
            0
        } else {
            depth - 1
        };
        pos.undo();
        dep
    }

    fn walk_or(
        &mut self,
        pos: &mut P,
        depth: u16,
        budget: u16,
        st: &mut WalkState,
    ) -> Result<Vec<P::Move>, WalkFail> {
        let mut moves = Vec::new();
        pos.checks(&mut moves);
        let cb = budget_minus(budget, 1);
        let mut bounds = self.child_bounds(pos, &moves, true, depth, cb);
        if bounds.iter().all(|b| b.is_none()) {
            // The proof was evicted: prove this node again within its budget.
            self.reprove(pos, depth, budget);
            bounds = self.child_bounds(pos, &moves, true, depth, cb);
        }
        let mut dep = 0;
        let tried = bounds.iter().any(|b| b.is_some());
        if let Some(line) = self.walk_checks(pos, &moves, &bounds, depth, cb, st, &mut dep)? {
            return Ok(line);
        }
        if !st.exact && cb != UNBOUNDED {
            // A check repeating a line position that was entered with a larger budget: this
            // node is proven within `budget`, so that position is within `cb` (table bounds
            // are upper bounds; its shorter proof was evicted). Walk again from there.
            let mut target: Option<u16> = None;
            for &m in &moves {
                pos.play(m);
                if let Some(&j) = self.path.get(&pos.position_key()) {
                    if cb < st.budgets[j as usize] && target.map_or(true, |t| j < t) {
                        target = Some(j);
                    }
                }
                pos.undo();
            }
            if let Some(j) = target {
                return Err(WalkFail::Restart(j, cb));
            }
        }
        if !tried && !st.futility && budget != UNBOUNDED {
            // Last resort: any proof, whatever its length.
            self.reprove(pos, depth, UNBOUNDED);
            bounds = self.child_bounds(pos, &moves, true, depth, UNBOUNDED);
            if let Some(line) =
                self.walk_checks(pos, &moves, &bounds, depth, UNBOUNDED, st, &mut dep)?
            {
                return Ok(line);
            }
        }
        Err(WalkFail::Dep(dep))
    }

    /// Tries the proven checks (`bounds`) of the OR node `pos`, shortest first; `dep`
    /// collects how the failures depend on the path.
    #[allow(clippy::too_many_arguments)]
    fn walk_checks(
        &mut self,
        pos: &mut P,
        moves: &[P::Move],
        bounds: &[Option<u16>],
        depth: u16,
        cb: u16,
        st: &mut WalkState,
        dep: &mut u16,
    ) -> Result<Option<Vec<P::Move>>, WalkFail> {
        let mut order: Vec<(u16, usize)> = bounds
            .iter()
            .enumerate()
            .filter_map(|(i, b)| b.map(|b| (b, i)))
            .collect();
        order.sort_unstable();
        for (i, &m) in moves.iter().enumerate() {
            if bounds[i].is_none() {
                *dep = (*dep).max(self.miss_dep(pos, m, depth, cb));
            }
        }
        for (b, i) in order {
            let m = moves[i];
            pos.play(m);
            let r = self.walk(pos, depth + 1, if st.exact { cb } else { b }, st);
            pos.undo();
            match r {
                Ok(mut rest) => {
                    rest.insert(0, m);
                    return Ok(Some(rest));
                }
                Err(WalkFail::Dep(j)) => {
                    if self.aborted {
                        return Err(WalkFail::Dep(0));
                    }
                    *dep = (*dep).max(Self::above(j, depth));
                }
                Err(restart) => return Err(restart),
            }
        }
        Ok(None)
    }

    fn walk_and(
        &mut self,
        pos: &mut P,
        depth: u16,
        budget: u16,
        st: &mut WalkState,
    ) -> Result<Vec<P::Move>, WalkFail> {
        let mut moves = Vec::new();
        pos.evasions(&mut moves);
        if st.futility && budget != UNBOUNDED && !moves.is_empty() && pos.interposable() {
            // The line never shows a 無駄合 (the budget does not count them).
            self.drop_futile(pos, &mut moves, depth, budget);
        }
        if moves.is_empty() {
            return Ok(Vec::new());
        }
        moves.sort_by_key(|&m| P::drop_square(m).map_or(0, |s| s as u32 + 1));
        let mut cb = budget_minus(budget, 1);
        let mut bounds = self.child_bounds(pos, &moves, false, depth, cb);
        if bounds.iter().any(|b| b.is_none()) && !st.futility && budget != UNBOUNDED {
            cb = UNBOUNDED;
            bounds = self.child_bounds(pos, &moves, false, depth, cb);
        }
        if bounds.iter().any(|b| b.is_none()) {
            let mut dep = 0;
            for (i, &m) in moves.iter().enumerate() {
                if bounds[i].is_none() {
                    dep = dep.max(self.miss_dep(pos, m, depth, cb));
                }
            }
            return Err(WalkFail::Dep(dep));
        }
        let max = bounds.iter().flatten().copied().max().unwrap_or(0);
        let mut pick = bounds.iter().position(|&b| b == Some(max)).unwrap_or(0);
        if st.exact && budget >= 3 {
            for (i, &m) in moves.iter().enumerate() {
                if bounds[i] != Some(budget - 1) {
                    continue;
                }
                pos.play(m);
                let out = self.mid(
                    pos,
                    ProofNumbers::NO_THRESHOLD,
                    depth + 1,
                    budget - 3,
                    false,
                );
                pos.undo();
                if out.pns.is_disproven() && out.dep != 0 {
                    pick = i;
                    break;
                }
            }
        }
        let m = moves[pick];
        let b = bounds[pick].unwrap_or(cb);
        pos.play(m);
        let r = self.walk(pos, depth + 1, if st.exact { cb } else { b }, st);
        pos.undo();
        match r {
            Ok(mut rest) => {
                rest.insert(0, m);
                Ok(rest)
            }
            Err(WalkFail::Dep(j)) => Err(WalkFail::Dep(Self::above(j, depth))),
            Err(restart) => Err(restart),
        }
    }

    /// Other first moves that mate within `budget` more plies (余詰), each searched with `alt_nodes` nodes.
    fn alternatives(&mut self, root: &mut P, first: P::Move, budget: u16) -> Vec<P::Move> {
        let mut moves = Vec::new();
        root.checks(&mut moves);
        let mut out = Vec::new();
        for m in moves {
            if m == first {
                continue;
            }
            self.reset_limits_for(self.opts.alt_nodes);
            self.path.clear();
            self.path.insert(root.position_key(), 1);
            self.path_hash = mix(root.position_key());
            root.play(m);
            let r = self.mid(root, ProofNumbers::NO_THRESHOLD, 2, budget, false);
            root.undo();
            if r.pns.is_proven() {
                out.push(m);
            }
        }
        out
    }
}

/// Solves one problem with a fresh solver on a thread with a deep stack
/// (ミクロコスモス needs recursion over 1 500 plies).
pub fn solve<P>(root: &P, opts: &SolverOptions) -> SolveResult<P::Move>
where
    P: MatePosition + Send + Sync,
    P::Move: Send,
{
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(256 << 20)
            .spawn_scoped(s, || Solver::<P>::new(opts.clone()).solve(root))
            .expect("spawn solver thread")
            .join()
            .expect("solver thread panicked")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn h(pairs: &[(PieceKind, u8)]) -> Hand {
        pairs
            .iter()
            .fold(Hand::EMPTY, |h, &(k, n)| h.with_count(k, n))
    }

    #[test]
    fn disproof_pieces_follow_the_rules() {
        use PieceKind::{Bishop, Gold, Pawn};
        // No checks: held kinds may grow to every remaining piece, absent kinds stay absent.
        let leaf = leaf_disproof_hand(h(&[(Gold, 1)]), h(&[(Gold, 2), (Pawn, 17)]));
        assert_eq!(leaf, h(&[(Gold, 3)]));
        // A check that dropped a gold and captured a pawn: undo both.
        let c = or_disproof_child(h(&[(Gold, 2), (Pawn, 3)]), (Some(Gold), Some(Pawn)));
        assert_eq!(c, h(&[(Gold, 3), (Pawn, 2)]));
        // OR node: kinds the attacker lacks are cleared, never below the actual hand.
        let or = or_disproof_hand(h(&[(Bishop, 1), (Gold, 1)]), h(&[(Gold, 2)]));
        assert_eq!(or, h(&[(Gold, 2)]));
        // AND node refuted by a gold drop: no extra golds for the attacker.
        let and = and_disproof_hand(h(&[(Gold, 3), (Pawn, 5)]), h(&[(Gold, 1)]), Some(Gold));
        assert_eq!(and, h(&[(Gold, 1), (Pawn, 5)]));
        assert_eq!(
            and_disproof_hand(h(&[(Gold, 3)]), h(&[(Gold, 1)]), None),
            h(&[(Gold, 3)])
        );
    }
}
