//! The df-pn search (Nagai 2002) with TCA (Kishimoto 2010; pseudo-code in seed
//! `002_c06e8a0a879c6957.txt`), summed proof and disproof numbers (weak numbers,
//! Ueda et al. 2008, exist behind `WEAK` and are off), a 1-ply mate check at every
//! OR node (seed `004_…`), interpositions opened one at a time, path-dependent
//! repetition handling and an optional ply budget (the proven-shortest mate), one
//! concept a file:
//!
//! - this file: the solver, its limits and [`Solver::solve`] (proof, minimality, line);
//! - `search`: one node's moves and the multiple iterative deepening (`mid`);
//! - `children`: a node's children with their first numbers (table, 1-ply mate check,
//!   check counts) and the defender's reply order;
//! - `numbers`: a node's proof and disproof numbers from its children's;
//! - `futility`: 無駄合 tests under a ply budget (`specs/tsume.md`);
//! - `horizon`: attacker nodes one ply from a budget's end refuted without expansion;
//! - `hands`: proof and disproof pieces (証明駒・反証駒), the hand algebra;
//! - `path`: the positions on the path and the path-dependent disproofs (filtered maps);
//! - `minimality`: the proven-shortest length (budgets below the first proof);
//! - [`line`]: reading a line off the proof (the walk that keeps a ply budget);
//! - `table_line`: the line shown while the search goes on, read off the table alone at
//!   each mate proven (no search);
//! - `alternatives`: the 余詰 search.

mod alternatives;
mod certify;
mod children;
#[cfg(test)]
mod counted;
mod futility;
mod hands;
mod horizon;
mod line;
mod minimality;
mod numbers;
mod path;
mod search;
mod stack_map;
mod table_line;

use super::key_hash::KeyHash;
use super::table::{Table, UNBOUNDED};
use super::{MatePosition, Phase, ProofNumbers, SolverOptions};
use crate::rules::{Color, Hand};
use search::NodeOut;
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
    /// Positions entered by a move: the search's descents, the children played to count
    /// their replies or checks, the checks of a 1-ply refutation, the line walk, and one
    /// per 無駄合 test position (its construction plays the interposition and recaptures on
    /// copies, counted as that one). This is close to the unit YaneuraOu-based engines
    /// report as nodes (`Thread::nodes`, one per `Position::do_move`), KomoringHeights among
    /// them; a node expansion plays about three (`paper/results/tsume-node-rate.md`). The
    /// independent checker's replay of the answer is not counted.
    pub plays: u64,
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
    /// For a mate with `shortest`: the least budget within which the root is proven mate,
    /// so the shortest mate has at most this many plies (with `no_mate_within` N, between
    /// N + 2 and this). It is the line's length when `shortest` is true; it can differ
    /// when a limit cut the minimality search or when no line of exact replies shows the
    /// proven length (無双47: 15, its line 21; specs/tsume.md).
    pub mate_within: Option<u16>,
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
/// also refutes. Under a ply budget a defender node refuted by an interposition keeps the
/// searched hand (more attacker pieces can make it 無駄合; `hands.rs`).
const DISPROOF_PIECES: bool = true;
/// A child not in the table starts from the proof numbers the table's unsolved entries of
/// its board imply by hand superiority ([`Table::bounds`]; shtsume does the same): all 200
/// of 図巧/無双 at 1 M nodes 34.2 -> 29.9 M nodes.
const UNKNOWN_BOUNDS: bool = true;

/// Under a ply budget, an interposition is tested for futility (無駄合) only once every
/// other reply at its node is proven (most budgeted nodes are refuted by another reply
/// first); `false`: every interposition is tested when its node is expanded.
const LAZY_FUTILITY: bool = true;

/// With [`LAZY_FUTILITY`]: an untested interposition is searched like any reply, and its
/// futility is tested only when it would refute its node (its child is disproven); a
/// proven interposition needs no test.
const REFUTING_FUTILITY: bool = true;

const REP_TABLE_MAX: usize = 1 << 20;

/// Node expansions the line walks may still make after they see a stop request (a few
/// milliseconds): enough to prove again what a small table lost of a proof, so a stop
/// during the minimality search still gets the line of the shortest mate found (無双8 in
/// 16 MiB, stopped at every 0.1 M nodes from 0.2 M to 3 M: a line all 29 times with
/// 4 096, 9 times with none; 65 536 saves no more there, nor on 無双23, 図巧35 and 図巧69;
/// `a_stop_ends_the_line_walk_within_its_allowance`).
const STOP_WALK_NODES: u64 = 4096;

#[inline]
fn mix(k: u64) -> u64 {
    let mut z = k.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

const CAP: u32 = ProofNumbers::INF - 1;

/// The df-pn solver: one table, reusable across problems with the same piece set.
pub struct Solver<P: MatePosition> {
    table: Table,
    opts: SolverOptions,
    attacker: Color,
    nodes: u64,
    /// Positions entered by a move ([`Stats::plays`]).
    plays: u64,
    node_limit: Option<u64>,
    deadline: Option<Instant>,
    aborted: bool,
    max_depth: u16,
    path: path::PathMap,
    /// Hash of the set of positions on the path (order-free: repetition depends only on the set).
    path_hash: u64,
    /// Path-dependent disproofs: (position key, path hash) → (budget bound, dependency depth).
    /// Sound because the same path set gives the same repetitions; cleared when large.
    rep_table: path::RepTable,
    /// Move and child vectors reused across expansions.
    pool: search::Pool<P::Move>,
    /// Finite ply budgets only bound the mate length (every legal reply counts, no 無駄合
    /// rule): set while the default line walk re-proves nodes within their proof bounds.
    plain: bool,
    /// Reading off a proven line: not bounded by the clock (a mate proven in time is not
    /// lost to it); a stop request ends it soon ([`Solver::tick`]).
    extracting: bool,
    /// The node count at which a line walk first saw a stop request ([`STOP_WALK_NODES`]).
    walk_stop: Option<u64>,
    /// A new defender reply with one ply left after it is refuted at once when every check
    /// then leaves a reply that is no interposition (`horizon`), instead of expanding the
    /// attacker node it leads to (a mate-in-1 test without the children's keys and table
    /// probes). On by default; off only to compare with `mid` alone (tests).
    refute_near_horizon: bool,
    /// Tests: a stop request that arrives at this node count (deterministic, unlike a
    /// [`super::Control`] stopped from another thread; seen, as a real one, at the next
    /// multiple of 1 024 nodes, or at the next node while a line is read).
    #[cfg(test)]
    stop_at: Option<u64>,
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
    ///
    /// # Panics
    /// If the machine cannot give that memory; use [`Solver::try_new`] for sizes a user chose.
    pub fn new(opts: SolverOptions) -> Self {
        match Self::try_new(opts) {
            Ok(s) => s,
            Err(e) => panic!("{e}"),
        }
    }

    /// A solver with a fresh table of `opts.memory_mib` MiB, or a one-line error if the
    /// machine cannot give that memory.
    ///
    /// # Errors
    /// [`crate::resources::MemoryError`] when the table does not fit.
    pub fn try_new(opts: SolverOptions) -> Result<Self, crate::resources::MemoryError> {
        Ok(Solver {
            table: Table::try_new(opts.memory_mib)?,
            opts,
            attacker: Color::Sente,
            nodes: 0,
            plays: 0,
            node_limit: None,
            deadline: None,
            aborted: false,
            max_depth: 0,
            path: Default::default(),
            path_hash: 0,
            rep_table: Default::default(),
            pool: Default::default(),
            plain: false,
            extracting: false,
            walk_stop: None,
            refute_near_horizon: true,
            #[cfg(test)]
            stop_at: None,
            _pos: std::marker::PhantomData,
        })
    }

    /// Solves `root` (the side to move attacks). The table is cleared first.
    pub fn solve(&mut self, root: &P) -> SolveResult<P::Move> {
        let start = Instant::now();
        self.table.clear();
        self.rep_table.clear();
        self.attacker = root.side_to_move();
        self.nodes = 0;
        self.plays = 0;
        self.max_depth = 0;
        self.node_limit = self.opts.nodes;
        // A time past what `Instant` can hold is no deadline (adding it would panic).
        self.deadline = self.opts.time.and_then(|t| start.checked_add(t));
        self.aborted = false;
        self.walk_stop = None;
        self.plain = self.opts.count_futile;
        if let Some(c) = &self.opts.control {
            c.0.clear_bounds();
        }
        let mut pos = root.clone();
        let mut result = SolveResult {
            outcome: Outcome::Unknown,
            line: Vec::new(),
            shortest: None,
            alternatives: Vec::new(),
            no_mate_within: None,
            mate_within: None,
            stats: Stats::default(),
        };
        let root_budget = self
            .opts
            .max_plies
            .map_or(UNBOUNDED, |p| p.min(UNBOUNDED - 1));
        let out = self.search_root(&mut pos, root_budget);
        if out.pns.is_proven() {
            self.proven(&mut pos, out.bound);
            let mut len = out.bound;
            let mut exact = false;
            let mut low = None;
            if self.opts.shortest {
                self.set_phase(Phase::Shortest);
                let (l, lo, e) = self.shortest_len(&mut pos, len);
                len = l;
                low = lo;
                exact = e;
            }
            // A minimality search cut short (`"shortest": false`) shows first a line within
            // its proven length that hides the 無駄合 the table knows, if it is longer than
            // the proven no-mate bound (inexact budgets can show a poor defence); else, as
            // when an exact walk fails, a line with every reply counted, which can show a
            // 無駄合. Lines within a ply limit and exact lines hide 無駄合.
            // Both tries share one node cap, the first a quarter of it.
            self.set_phase(Phase::Line);
            self.hold_before_line();
            let bounded = self.opts.max_plies.is_some();
            let cap = self.walk_cap();
            let mut line = None;
            if self.opts.shortest && !exact && !bounded {
                let first = self.nodes + (cap - self.nodes) / 4;
                line = self.extract(&mut pos, len, false, true, first).filter(|l| {
                    low.map_or(true, |n| l.len() > usize::from(n))
                        && root.check_mate_line(l).is_ok()
                });
            }
            if line.is_none() {
                line = self.extract(&mut pos, len, exact, exact || bounded, cap);
            }
            if line.is_none() && exact {
                // The exact walk ran out of its nodes: the length stays proven, the line
                // shown is a mate within it that is not shown to be exact.
                exact = false;
                let cap = self.walk_cap();
                line = self.extract(&mut pos, len, false, bounded, cap);
            }
            if let Some(line) = line {
                if root.check_mate_line(&line).is_ok() {
                    result.outcome = Outcome::Mate;
                    result.line = line;
                    if self.opts.shortest {
                        result.shortest = Some(exact);
                        result.mate_within = Some(len);
                        if !exact {
                            result.no_mate_within = low;
                        }
                    }
                }
            }
            if result.outcome == Outcome::Unknown {
                // Proven, but no line could be read (a stop during the walk, or none within
                // a ply limit): the answer stays `unknown`, with the bounds proven so far.
                result.mate_within = Some(len);
                result.no_mate_within = low;
            }
            if result.outcome == Outcome::Mate && self.opts.alt_nodes > 0 {
                self.set_phase(Phase::Yozume);
                let budget = if exact { len - 1 } else { UNBOUNDED };
                result.alternatives = self.alternatives(&mut pos, result.line[0], budget);
            }
        } else if out.pns.is_disproven() && out.dep != 0 && !self.aborted {
            if root_budget == UNBOUNDED {
                result.outcome = Outcome::NoMate;
            } else {
                result.no_mate_within = Some(root_budget);
                self.publish(None, Some(root_budget));
            }
        }
        result.stats = Stats {
            nodes: self.nodes,
            plays: self.plays,
            time: start.elapsed(),
            max_depth: self.max_depth,
            table: self.table.stats,
        };
        result
    }

    /// What the table of the last [`Solver::solve`] knows about `pos` (the attacker is the
    /// side to move at that solve's root): a proof (with its length bound and proof pieces),
    /// a disproof (with its disproof pieces), an unsolved value, or nothing. For
    /// certificate extraction and front ends; the table is bounded, so a node of a proof
    /// may have been replaced.
    pub fn probe(&self, pos: &P) -> Option<super::table::Found> {
        self.table
            .lookup(pos.board_key(), pos.hand_of(self.attacker), UNBOUNDED)
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

    /// Plays `m` on `pos`, counting it ([`Stats::plays`]).
    #[inline]
    fn play(&mut self, pos: &mut P, m: P::Move) {
        self.plays += 1;
        pos.play(m);
    }

    /// Tells the driving thread (the USI engine's `info`, the CLI's status line, Python's
    /// `progress`) the bounds on the shortest mate proven so far: a mate within `mate`
    /// plies, no mate within `no_mate`.
    fn publish(&self, mate: Option<u16>, no_mate: Option<u16>) {
        if let Some(c) = &self.opts.control {
            if let Some(m) = mate {
                c.0.report_mate_within(m);
            }
            if let Some(n) = no_mate {
                c.0.report_no_mate_within(n);
            }
        }
    }

    /// A mate within `len` plies from the root `pos` is proven: hands a line read off the
    /// table to a driving thread that asks for lines ([`Solver::show_line`]), then the
    /// bound to every driving thread ([`Solver::publish`]), so that a driver that sees the
    /// bound already has the line when one could be read.
    fn proven(&mut self, pos: &mut P, len: u16) {
        self.show_line(pos, len);
        self.publish(Some(len), None);
    }

    /// Tells the driving thread what the solve does now ([`super::SearchControl::phase`]).
    fn set_phase(&self, phase: Phase) {
        if let Some(c) = &self.opts.control {
            c.0.set_phase(phase);
        }
    }

    /// The test hook [`super::SearchControl::hold_before_line`]: expansions of nothing,
    /// 1 024 a millisecond, counted and checked as the line walk's are, until the search
    /// is aborted — a stand-in for a walk that needs much search.
    fn hold_before_line(&mut self) {
        let hold = self.opts.control.as_ref();
        if !hold.is_some_and(|c| c.0.holds_before_line()) {
            return;
        }
        self.extracting = true;
        while !self.aborted {
            for _ in 0..1024 {
                self.tick();
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        self.extracting = false;
    }

    /// The node count at which a line walk starting now stops: twice the nodes searched
    /// so far, plus 1 M, from here (the walk ignores the clock, so that a mate proven in
    /// time gets its line; only a stop request cuts it shorter).
    fn walk_cap(&self) -> u64 {
        self.nodes
            .saturating_add(self.nodes.saturating_mul(2))
            .saturating_add(1_000_000)
    }

    /// Whether the driving thread asked the search to stop.
    fn stopped(&self) -> bool {
        #[cfg(test)]
        if self.stop_at.is_some_and(|n| self.nodes >= n) {
            return true;
        }
        self.opts.control.as_ref().is_some_and(|c| c.0.is_stopped())
    }

    /// Counts an expansion and checks the limits: the node limit at every node, the clock
    /// and a stop request every 1 024 nodes; while a line is read, the clock not at all (a
    /// mate proven in time is not lost to it) and a stop request at every node: from the
    /// first the walks see, they may search [`STOP_WALK_NODES`] more in all.
    fn tick(&mut self) {
        self.nodes += 1;
        if self.extracting && self.stopped() {
            let seen = *self.walk_stop.get_or_insert(self.nodes);
            if self.nodes > seen + STOP_WALK_NODES {
                self.aborted = true;
            }
        }
        if self.nodes & 1023 == 0 {
            if !self.extracting {
                if let Some(d) = self.deadline {
                    if Instant::now() >= d {
                        self.aborted = true;
                    }
                }
                if self.stopped() {
                    self.aborted = true;
                }
            }
            if let Some(c) = &self.opts.control {
                let permille =
                    (self.table.used() as u64 * 1000 / self.table.capacity().max(1) as u64) as u32;
                c.0.report(self.nodes, permille);
            }
        }
        if let Some(l) = self.node_limit {
            if self.nodes >= l {
                self.aborted = true;
            }
        }
    }
}

/// Solves one problem with a fresh solver on a thread with a deep stack
/// (ミクロコスモス needs recursion over 1 500 plies).
///
/// # Panics
/// If the machine cannot give the table or the thread's stack; use [`try_solve`] for sizes a user chose.
pub fn solve<P>(root: &P, opts: &SolverOptions) -> SolveResult<P::Move>
where
    P: MatePosition + Send + Sync,
    P::Move: Send,
{
    try_solve(root, opts).unwrap_or_else(|e| panic!("{e}"))
}

/// Stack of the solver thread: ミクロコスモス recurses over 1 500 plies.
pub const SOLVER_STACK: usize = 256 << 20;

/// [`solve`], or a one-line error if the table or the solver thread's stack cannot be allocated.
///
/// # Errors
/// [`crate::resources::MemoryError`] when the memory is not there.
pub fn try_solve<P>(
    root: &P,
    opts: &SolverOptions,
) -> Result<SolveResult<P::Move>, crate::resources::MemoryError>
where
    P: MatePosition + Send + Sync,
    P::Move: Send,
{
    std::thread::scope(|s| {
        let worker = std::thread::Builder::new()
            .stack_size(SOLVER_STACK)
            .spawn_scoped(s, || {
                Solver::<P>::try_new(opts.clone()).map(|mut solver| solver.solve(root))
            })
            .map_err(|_| crate::resources::MemoryError {
                what: "solver thread stack".into(),
                requested: SOLVER_STACK as u64,
                available: None,
            })?;
        match worker.join() {
            Ok(r) => r,
            Err(panic) => std::panic::resume_unwind(panic),
        }
    })
}
