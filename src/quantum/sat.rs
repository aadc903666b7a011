//! The SAT engine: a CNF over variables `x[i][k]` ("piece `i` is kind `k`"),
//! built through [`ExtendFormula`] so the same encoder fills a `varisat`
//! [`Solver`] or a [`CnfFormula`] for a DIMACS dump.
//!
//! - exactly one kind per piece: one at-least-one clause and pairwise at-most-one;
//! - exactly `cap(k)` pieces per kind: Sinz's sequential counter (CP 2005,
//!   "Towards an optimal CNF encoding of Boolean cardinality constraints") for
//!   `≤ cap(k)` over `x[·][k]` and for `≤ 20 − cap(k)` over `¬x[·][k]`;
//! - domains are *assumptions* `¬x[i][k]` for `k ∉ dom(i)`, so one solver
//!   answers every question about one world, and a failed core names pieces.
//!
//! Every model is decoded and re-checked against the original domains and
//! capacities (not the CNF) before it is believed; each model witnesses 20
//! (piece, kind) pairs at once. [`CertifiedSat`] also certifies every
//! *unsatisfiable* call: the same question is asked again of a fresh solver
//! with the assumptions as unit clauses (DRAT has no assumptions), varisat
//! writes a DRAT refutation, and [`super::drat`] checks it against the CNF.

use super::drat::{check_refutation, DratError};
use super::{
    minimize_conflict, Contradiction, Converged, Convergence, Kind, KindSet, World, PIECES,
};
use varisat::{CnfFormula, ExtendFormula, Lit, ProofFormat, Solver};

/// The variables of the encoding.
#[derive(Debug, Clone, Copy)]
pub struct Encoding {
    /// `x[i][k]`: piece `i` is kind `k`.
    pub x: [[Lit; 8]; PIECES],
}

/// Sinz's sequential counter: at most `m` of `lits` are true.
fn at_most<F: ExtendFormula>(f: &mut F, lits: &[Lit], m: usize) {
    let n = lits.len();
    if m >= n {
        return;
    }
    if m == 0 {
        for &l in lits {
            f.add_clause(&[!l]);
        }
        return;
    }
    // s[i][j]: among lits[0..=i], at least j+1 are true (only the implication from the left).
    let s: Vec<Vec<Lit>> = (0..n - 1)
        .map(|_| (0..m).map(|_| f.new_lit()).collect())
        .collect();
    f.add_clause(&[!lits[0], s[0][0]]);
    for &l in &s[0][1..] {
        f.add_clause(&[!l]);
    }
    for i in 1..n - 1 {
        f.add_clause(&[!lits[i], s[i][0]]);
        f.add_clause(&[!s[i - 1][0], s[i][0]]);
        for j in 1..m {
            f.add_clause(&[!lits[i], !s[i - 1][j - 1], s[i][j]]);
            f.add_clause(&[!s[i - 1][j], s[i][j]]);
        }
        f.add_clause(&[!lits[i], !s[i - 1][m - 1]]);
    }
    f.add_clause(&[!lits[n - 1], !s[n - 2][m - 1]]);
}

/// Encodes the world-independent constraints (domains come as assumptions).
pub fn encode<F: ExtendFormula>(f: &mut F) -> Encoding {
    let mut x = [[Lit::from_index(0, true); 8]; PIECES];
    for row in &mut x {
        for l in row.iter_mut() {
            *l = f.new_lit();
        }
    }
    for row in &x {
        f.add_clause(row);
        for a in 0..8 {
            for b in a + 1..8 {
                f.add_clause(&[!row[a], !row[b]]);
            }
        }
    }
    for k in Kind::ALL {
        let col: Vec<Lit> = x.iter().map(|row| row[k.index()]).collect();
        let neg: Vec<Lit> = col.iter().map(|&l| !l).collect();
        at_most(f, &col, k.capacity() as usize);
        at_most(f, &neg, PIECES - k.capacity() as usize);
    }
    Encoding { x }
}

/// The domain assumptions `¬x[i][k]` for `k ∉ dom(i)`.
pub fn assumptions(e: &Encoding, w: &World) -> Vec<Lit> {
    let mut a = Vec::new();
    for i in 0..PIECES {
        for k in Kind::ALL {
            if !w.0[i].contains(k) {
                a.push(!e.x[i][k.index()]);
            }
        }
    }
    a
}

/// The whole problem as a formula with the domains as unit clauses, for a DIMACS dump
/// (`varisat::dimacs::write_dimacs`).
pub fn formula(w: &World) -> CnfFormula {
    let mut f = CnfFormula::new();
    let e = encode(&mut f);
    for l in assumptions(&e, w) {
        f.add_clause(&[l]);
    }
    f
}

/// A model that failed the independent re-check (a bug in the encoding or the solver).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("SAT model does not re-check: {0}")]
pub struct BadModel(pub String);

/// Decodes a model into one kind per piece and re-checks it against the
/// original domains and the capacities.
///
/// # Errors
/// [`BadModel`] saying what is wrong.
pub fn decode_and_check(
    e: &Encoding,
    model: &[Lit],
    w: &World,
) -> Result<[Kind; PIECES], BadModel> {
    let truth = |l: Lit| model.get(l.var().index()).is_some_and(|&m| m == l);
    let mut out = [Kind::King; PIECES];
    let mut used = [0u8; 8];
    for i in 0..PIECES {
        let kinds: Vec<Kind> = Kind::ALL
            .into_iter()
            .filter(|k| truth(e.x[i][k.index()]))
            .collect();
        let [k] = kinds.as_slice() else {
            return Err(BadModel(format!("piece {i} has {} kinds", kinds.len())));
        };
        if !w.0[i].contains(*k) {
            return Err(BadModel(format!(
                "piece {i} is {} outside its domain {}",
                k.letter(),
                w.0[i]
            )));
        }
        used[k.index()] += 1;
        out[i] = *k;
    }
    if used != Kind::CAPACITY {
        return Err(BadModel(format!(
            "kind counts {used:?} differ from {:?}",
            Kind::CAPACITY
        )));
    }
    Ok(out)
}

/// Why an unsatisfiability proof was not accepted.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ProofError {
    /// The fresh solver found the question satisfiable.
    #[error("the fresh solver found a model: the first answer was wrong")]
    Satisfiable,
    /// The solver failed while writing the proof.
    #[error("varisat: {0}")]
    Solver(String),
    /// The refutation did not check.
    #[error("DRAT refutation rejected: {0}")]
    Rejected(#[from] DratError),
}

/// Statistics of one certified refutation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refutation {
    /// Clauses of the CNF.
    pub clauses: usize,
    /// Bytes of the textual DRAT proof.
    pub proof_bytes: usize,
}

/// The clauses of `f` as DIMACS literals.
pub fn dimacs_clauses(f: &CnfFormula) -> Vec<Vec<i32>> {
    f.iter()
        .map(|c| c.iter().map(|l| l.to_dimacs() as i32).collect())
        .collect()
}

/// Asks a fresh solver whether the domains of `w` plus the units `extra` are
/// unsatisfiable, with a DRAT proof, and checks the proof independently.
///
/// # Errors
/// [`ProofError`] if the question is satisfiable or the proof does not check.
pub fn refute(w: &World, extra: &[Lit]) -> Result<Refutation, ProofError> {
    let mut f = formula(w);
    for &l in extra {
        f.add_clause(&[l]);
    }
    let proof = drat_proof(&f)?;
    let text = String::from_utf8(proof).map_err(|e| ProofError::Solver(e.to_string()))?;
    check_refutation(&dimacs_clauses(&f), &text)?;
    Ok(Refutation {
        clauses: f.len(),
        proof_bytes: text.len(),
    })
}

/// Solves `f` with a DRAT proof written to memory; the proof if unsatisfiable.
///
/// # Errors
/// [`ProofError::Satisfiable`] or a solver failure.
pub fn drat_proof(f: &CnfFormula) -> Result<Vec<u8>, ProofError> {
    let mut proof = Vec::new();
    {
        let mut s = Solver::new();
        s.write_proof(&mut proof, ProofFormat::Drat);
        s.add_formula(f);
        let sat = s.solve().map_err(|e| ProofError::Solver(e.to_string()))?;
        if sat {
            return Err(ProofError::Satisfiable);
        }
        s.close_proof()
            .map_err(|e| ProofError::Solver(e.to_string()))?;
    }
    Ok(proof)
}

/// One world loaded into a solver.
pub struct SatWorld<'a> {
    solver: Solver<'a>,
    enc: Encoding,
    world: World,
    /// Solver calls made so far.
    pub calls: u32,
    /// Certify every unsatisfiable call with a checked DRAT refutation.
    pub certify: bool,
    /// Refutations checked so far.
    pub refutations: u32,
}

impl SatWorld<'_> {
    /// Encodes the constraints for `world`.
    pub fn new(world: &World) -> Self {
        let mut solver = Solver::new();
        let enc = encode(&mut solver);
        SatWorld {
            solver,
            enc,
            world: *world,
            calls: 0,
            certify: false,
            refutations: 0,
        }
    }

    /// Solves under the domains of `w` plus `extra`; a re-checked model or `Err(core pieces)`.
    ///
    /// # Panics
    /// If the solver fails, a model does not re-check or (with `certify`) a
    /// refutation does not check: all are bugs, not input errors.
    pub fn solve(&mut self, w: &World, extra: &[Lit]) -> Result<[Kind; PIECES], u32> {
        let mut a = assumptions(&self.enc, w);
        a.extend_from_slice(extra);
        self.solver.assume(&a);
        self.calls += 1;
        let sat = self.solver.solve().expect("varisat failed");
        if sat {
            let model = self.solver.model().expect("model after SAT");
            return Ok(decode_and_check(&self.enc, &model, w).expect("SAT model must re-check"));
        }
        if self.certify {
            if let Err(e) = refute(w, extra) {
                panic!("unsatisfiable call on {w} not certified: {e}");
            }
            self.refutations += 1;
        }
        let core = self.solver.failed_core().unwrap_or(&[]);
        let mut pieces = 0u32;
        for l in core {
            for i in 0..PIECES {
                if self.enc.x[i].iter().any(|x| x.var() == l.var()) {
                    pieces |= 1 << i;
                }
            }
        }
        Err(pieces)
    }

    /// The converged domains, or the failed core (pieces) of the first call.
    pub fn converge(&mut self) -> Result<World, u32> {
        self.converge_until(&|| false).expect("no stop request")
    }

    /// [`SatWorld::converge`] that gives up once `stop()` says so (`None`), asked before
    /// each solver call: varisat 0.2 has no way to interrupt a call (one can take seconds
    /// on a world whose contradiction hides among exactly-counted kinds).
    pub fn converge_until(&mut self, stop: &dyn Fn() -> bool) -> Option<Result<World, u32>> {
        let w = self.world;
        if stop() {
            return None;
        }
        let first = match self.solve(&w, &[]) {
            Ok(m) => m,
            Err(core) => return Some(Err(core)),
        };
        // Pieces with equal domains are interchangeable (swap them in any model),
        // so a witness for one piece counts for every piece with its domain.
        let mut seen = [KindSet::EMPTY; PIECES];
        let mark = |seen: &mut [KindSet; PIECES], m: &[Kind; PIECES]| {
            for (i, k) in m.iter().enumerate() {
                for j in 0..PIECES {
                    if w.0[j] == w.0[i] {
                        seen[j] = seen[j].or(KindSet::single(*k));
                    }
                }
            }
        };
        mark(&mut seen, &first);
        for i in 0..PIECES {
            for k in w.0[i].iter() {
                if seen[i].contains(k) {
                    continue;
                }
                if stop() {
                    return None;
                }
                if let Ok(m) = self.solve(&w, &[self.enc.x[i][k.index()]]) {
                    mark(&mut seen, &m);
                }
            }
        }
        Some(Ok(World(seen)))
    }
}

/// Converges `w` with a fresh solver (`certify`: every unsatisfiable call certified),
/// asking `stop` before each solver call, the conflict's minimisation included.
fn converge_with(
    w: &World,
    certify: bool,
    stop: &dyn Fn() -> bool,
) -> Option<Result<Converged, Contradiction>> {
    let mut s = SatWorld::new(w);
    s.certify = certify;
    match s.converge_until(stop)? {
        Ok(out) => Some(Ok(Converged::new(w, out))),
        Err(core) => {
            // Minimise the core with the same solver: pieces outside the set are relaxed.
            let mut stopped = false;
            let conflict = minimize_conflict(w, core, |x| {
                stopped = stopped || stop();
                // Once stopped, any answer will do: the result is dropped.
                stopped || s_feasible(&mut s, x)
            });
            (!stopped).then_some(Err(Contradiction { conflict }))
        }
    }
}

/// The SAT engine (a fresh solver per world).
#[derive(Debug, Clone, Copy, Default)]
pub struct SatEngine;

impl Convergence for SatEngine {
    fn name(&self) -> &'static str {
        "sat"
    }

    fn feasible(&self, w: &World) -> bool {
        SatWorld::new(w).solve(w, &[]).is_ok()
    }

    fn converge(&self, w: &World) -> Result<Converged, Contradiction> {
        converge_with(w, false, &|| false).expect("no stop request")
    }

    fn converge_until(
        &self,
        w: &World,
        stop: &dyn Fn() -> bool,
    ) -> Option<Result<Converged, Contradiction>> {
        converge_with(w, false, stop)
    }
}

/// The SAT engine with every unsatisfiable call certified by a checked DRAT
/// refutation (a fresh solver per refutation; see the module docs).
#[derive(Debug, Clone, Copy, Default)]
pub struct CertifiedSat;

impl Convergence for CertifiedSat {
    fn name(&self) -> &'static str {
        "sat-drat"
    }

    fn feasible(&self, w: &World) -> bool {
        let mut s = SatWorld::new(w);
        s.certify = true;
        s.solve(w, &[]).is_ok()
    }

    fn converge(&self, w: &World) -> Result<Converged, Contradiction> {
        converge_with(w, true, &|| false).expect("no stop request")
    }

    fn converge_until(
        &self,
        w: &World,
        stop: &dyn Fn() -> bool,
    ) -> Option<Result<Converged, Contradiction>> {
        converge_with(w, true, stop)
    }
}

fn s_feasible(s: &mut SatWorld<'_>, w: &World) -> bool {
    s.solve(w, &[]).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn at_most_is_exact_on_small_sets() {
        // Every assignment of n ≤ 6 literals: satisfiable with the counter iff weight ≤ m.
        for n in 1..=6usize {
            for m in 0..=n {
                for bits in 0u32..1 << n {
                    let mut s = Solver::new();
                    let lits: Vec<Lit> = (0..n).map(|_| s.new_lit()).collect();
                    at_most(&mut s, &lits, m);
                    let a: Vec<Lit> = (0..n)
                        .map(|i| Lit::from_var(lits[i].var(), bits >> i & 1 != 0))
                        .collect();
                    s.assume(&a);
                    assert_eq!(
                        s.solve().unwrap(),
                        bits.count_ones() as usize <= m,
                        "n={n} m={m} bits={bits:b}"
                    );
                }
            }
        }
    }

    #[test]
    fn refutations_check_and_corrupted_ones_are_rejected() {
        // 飛角・角玉・飛玉・飛角玉: four pieces, three copies.
        let w: World = "BR BK RK BRK".parse().unwrap();
        let r = refute(&w, &[]).unwrap();
        assert!(r.proof_bytes > 0);
        let f = formula(&w);
        let proof = String::from_utf8(drat_proof(&f).unwrap()).unwrap();
        let cnf = dimacs_clauses(&f);
        assert_eq!(check_refutation(&cnf, &proof), Ok(()));
        // Corruptions: the last lemma negated in every literal, a proof cut
        // before its end, and the formula without one of its clauses.
        let lines: Vec<&str> = proof.lines().filter(|l| !l.starts_with('d')).collect();
        assert!(!lines.is_empty());
        let flipped: String = proof
            .lines()
            .map(|l| {
                if l.starts_with('d') || l.trim() == "0" {
                    return format!("{l}\n");
                }
                let lits: Vec<String> = l
                    .split_whitespace()
                    .map(|t| match t.parse::<i32>().unwrap() {
                        0 => "0".to_string(),
                        x => (-x).to_string(),
                    })
                    .collect();
                format!("{}\n", lits.join(" "))
            })
            .collect();
        assert!(check_refutation(&cnf, &flipped).is_err());
        assert!(check_refutation(&cnf, "").is_err());
        // Without the domain units the formula is satisfiable: no proof may refute it.
        let base = dimacs_clauses(&formula(&World::UNOBSERVED));
        assert!(check_refutation(&base, &proof).is_err());
        // A satisfiable question is reported, not certified.
        assert!(matches!(
            refute(&World::UNOBSERVED, &[]),
            Err(ProofError::Satisfiable)
        ));
    }

    #[test]
    fn certified_engine_agrees_and_counts_refutations() {
        let w: World = "RL RL R".parse().unwrap();
        let mut s = SatWorld::new(&w);
        s.certify = true;
        let out = s.converge().unwrap();
        assert_eq!(
            out,
            crate::quantum::counting::SubsetPass
                .converge(&w)
                .unwrap()
                .world
        );
        assert!(s.refutations > 0);
        assert_eq!(CertifiedSat.converge(&w).unwrap().world, out);
    }

    /// A stop request is heard before each solver call, the conflict's minimisation
    /// included: asked for the `n`-th time, it ends the convergence (`None`) whichever
    /// call comes next; never asked to stop, the engine answers as `converge` does.
    #[test]
    fn a_stop_request_ends_the_convergence_between_solver_calls() {
        use std::cell::Cell;
        // A consistent world (several calls) and a contradictory one (飛角・角玉・飛玉・飛角玉).
        for text in ["RL RL R", "BR BK RK BRK"] {
            let w: World = text.parse().unwrap();
            let plain = SatEngine.converge(&w);
            assert_eq!(SatEngine.converge_until(&w, &|| false), Some(plain.clone()));
            let calls = Cell::new(0u32);
            let count = || {
                calls.set(calls.get() + 1);
                false
            };
            assert!(SatEngine.converge_until(&w, &count).is_some());
            let asked = calls.get();
            assert!(asked > 2, "{text}: {asked}");
            for n in 1..=asked {
                let calls = Cell::new(0u32);
                let stop = || {
                    calls.set(calls.get() + 1);
                    calls.get() >= n
                };
                assert_eq!(SatEngine.converge_until(&w, &stop), None, "{text}: {n}");
            }
        }
    }

    #[test]
    fn dimacs_dump_is_readable() {
        let f = formula(&"RL RL R".parse().unwrap());
        let mut out = Vec::new();
        varisat::dimacs::write_dimacs(&mut out, &f).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.starts_with("p cnf "));
        let mut s = Solver::new();
        s.add_dimacs_cnf(text.as_bytes()).unwrap();
        assert!(s.solve().unwrap());
    }
}
