//! An independent RUP checker for DRAT refutations (textual DRAT, as written
//! by `varisat` with `ProofFormat::Drat`; Wetzler, Heule & Hunt, "DRAT-trim",
//! SAT 2014, for the format).
//!
//! Each added lemma must be a *reverse unit propagation* consequence of the
//! original clauses plus the lemmas before it: assigning every literal of the
//! lemma false and unit-propagating must reach a conflict. Deletions remove a
//! clause (which can only make later checks harder, so honouring them is
//! sound). The refutation is accepted when the empty clause is derived or the
//! final clause set propagates to a conflict. RAT-only lemmas are rejected:
//! `varisat` does no inprocessing that needs them. Propagation uses two
//! watched literals; nothing is shared with the solver.

use std::collections::HashMap;

/// Why a refutation was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DratError {
    /// A proof line is not a DRAT step.
    #[error("proof line {line}: {why}")]
    Syntax {
        /// 1-based line.
        line: usize,
        /// What is wrong.
        why: String,
    },
    /// A lemma is not a RUP consequence.
    #[error("proof line {line}: lemma {lemma:?} is not implied by unit propagation")]
    NotRup {
        /// 1-based line.
        line: usize,
        /// The lemma (DIMACS literals).
        lemma: Vec<i32>,
    },
    /// The proof never reaches a contradiction.
    #[error("the proof does not derive the empty clause")]
    NoRefutation,
}

/// Clause database with two watched literals. Literals are DIMACS integers;
/// internally `2·(|l|−1) + (l<0)`.
struct Db {
    clauses: Vec<Vec<u32>>,
    alive: Vec<bool>,
    watches: Vec<Vec<usize>>,
    /// Units of the database (one-literal clauses), propagated at every check.
    units: Vec<usize>,
    index: HashMap<Vec<u32>, Vec<usize>>,
    /// A clause is empty: the set is trivially refuted.
    has_empty: bool,
}

fn code(l: i32) -> u32 {
    2 * (l.unsigned_abs() - 1) + u32::from(l < 0)
}

impl Db {
    fn new() -> Db {
        Db {
            clauses: Vec::new(),
            alive: Vec::new(),
            watches: Vec::new(),
            units: Vec::new(),
            index: HashMap::new(),
            has_empty: false,
        }
    }

    fn grow(&mut self, c: &[u32]) {
        let need = c.iter().map(|&l| (l | 1) as usize + 1).max().unwrap_or(0);
        if self.watches.len() < need {
            self.watches.resize(need, Vec::new());
        }
    }

    fn add(&mut self, lits: &[i32]) {
        let mut c: Vec<u32> = lits.iter().map(|&l| code(l)).collect();
        c.sort_unstable();
        c.dedup();
        if c.windows(2).any(|p| p[0] ^ 1 == p[1]) {
            return; // a tautology constrains nothing
        }
        self.grow(&c);
        let id = self.clauses.len();
        match c.len() {
            0 => self.has_empty = true,
            1 => self.units.push(id),
            _ => {
                self.watches[c[0] as usize].push(id);
                self.watches[c[1] as usize].push(id);
            }
        }
        self.index.entry(c.clone()).or_default().push(id);
        self.clauses.push(c);
        self.alive.push(true);
    }

    fn delete(&mut self, lits: &[i32]) {
        let mut c: Vec<u32> = lits.iter().map(|&l| code(l)).collect();
        c.sort_unstable();
        c.dedup();
        if let Some(ids) = self.index.get_mut(&c) {
            if let Some(id) = ids.pop() {
                self.alive[id] = false;
            }
        }
    }

    /// Whether assigning `falsified` false and propagating reaches a conflict.
    fn rup(&mut self, falsified: &[i32]) -> bool {
        if self.has_empty {
            return true;
        }
        // value[lit] = true when the literal is true.
        let mut value = vec![false; self.watches.len().max(2)];
        let mut trail: Vec<u32> = Vec::new();
        let assign = |l: u32, value: &mut Vec<bool>, trail: &mut Vec<u32>| -> bool {
            if l as usize >= value.len() {
                value.resize(l as usize + 2, false);
            }
            if value[(l ^ 1) as usize] {
                return false;
            }
            if !value[l as usize] {
                value[l as usize] = true;
                trail.push(l);
            }
            true
        };
        for &l in falsified {
            if !assign(code(l) ^ 1, &mut value, &mut trail) {
                return true;
            }
        }
        for &u in &self.units {
            if self.alive[u] && !assign(self.clauses[u][0], &mut value, &mut trail) {
                return true;
            }
        }
        let mut head = 0;
        while head < trail.len() {
            let falsified_lit = trail[head] ^ 1;
            head += 1;
            if falsified_lit as usize >= self.watches.len() {
                continue;
            }
            let mut ws = std::mem::take(&mut self.watches[falsified_lit as usize]);
            let mut i = 0;
            let mut conflict = false;
            while i < ws.len() {
                let id = ws[i];
                if !self.alive[id] {
                    ws.swap_remove(i);
                    continue;
                }
                let c = &mut self.clauses[id];
                if c[0] == falsified_lit {
                    c.swap(0, 1);
                }
                let is_true =
                    |l: u32, value: &Vec<bool>| value.get(l as usize).copied().unwrap_or(false);
                if is_true(c[0], &value) {
                    i += 1;
                    continue;
                }
                // Look for a new literal to watch.
                if let Some(j) = (2..c.len()).find(|&j| !is_true(c[j] ^ 1, &value)) {
                    c.swap(1, j);
                    let nw = c[1] as usize;
                    ws.swap_remove(i);
                    self.watches[nw].push(id);
                    continue;
                }
                // Unit or conflict on c[0].
                let first = c[0];
                if !assign(first, &mut value, &mut trail) {
                    conflict = true;
                    break;
                }
                i += 1;
            }
            self.watches[falsified_lit as usize].extend(ws);
            if conflict {
                return true;
            }
        }
        false
    }
}

fn parse_line(line: &str, n: usize) -> Result<Option<(bool, Vec<i32>)>, DratError> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('c') {
        return Ok(None);
    }
    let (delete, rest) = match line.strip_prefix('d') {
        Some(r) => (true, r),
        None => (false, line),
    };
    let mut lits = Vec::new();
    let mut closed = false;
    for tok in rest.split_whitespace() {
        if closed {
            return Err(DratError::Syntax {
                line: n,
                why: "text after the closing 0".into(),
            });
        }
        let l: i32 = tok.parse().map_err(|_| DratError::Syntax {
            line: n,
            why: format!("{tok:?} is not a literal"),
        })?;
        if l == 0 {
            closed = true;
        } else {
            lits.push(l);
        }
    }
    if !closed {
        return Err(DratError::Syntax {
            line: n,
            why: "missing the closing 0".into(),
        });
    }
    Ok(Some((delete, lits)))
}

/// Checks that `proof` (textual DRAT) refutes the clauses `cnf` (DIMACS literals).
///
/// # Errors
/// [`DratError`] naming the first bad line, or [`DratError::NoRefutation`].
pub fn check_refutation(cnf: &[Vec<i32>], proof: &str) -> Result<(), DratError> {
    let mut db = Db::new();
    for c in cnf {
        db.add(c);
    }
    for (n, line) in proof.lines().enumerate() {
        let Some((delete, lits)) = parse_line(line, n + 1)? else {
            continue;
        };
        if delete {
            db.delete(&lits);
            continue;
        }
        if !db.rup(&lits) {
            return Err(DratError::NotRup {
                line: n + 1,
                lemma: lits,
            });
        }
        if lits.is_empty() {
            return Ok(());
        }
        db.add(&lits);
    }
    if db.rup(&[]) {
        Ok(())
    } else {
        Err(DratError::NoRefutation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// All four clauses over x1, x2: unsatisfiable; x1 is RUP, then the empty clause.
    fn square() -> Vec<Vec<i32>> {
        vec![vec![1, 2], vec![1, -2], vec![-1, 2], vec![-1, -2]]
    }

    #[test]
    fn accepts_a_valid_refutation() {
        assert_eq!(check_refutation(&square(), "1 0\n0\n"), Ok(()));
        assert_eq!(check_refutation(&square(), "1 0\nd 1 2 0\n"), Ok(()));
    }

    #[test]
    fn rejects_bad_lemmas_and_missing_refutations() {
        // Drop a clause: {x1∨x2, x1∨¬x2, ¬x1∨x2} is satisfiable (x1 = x2 = true).
        let sat = &square()[..3];
        assert!(matches!(
            check_refutation(sat, "-1 0\n0\n"),
            Err(DratError::NotRup { line: 1, .. })
        ));
        assert_eq!(check_refutation(sat, "1 0\n"), Err(DratError::NoRefutation));
        assert!(matches!(
            check_refutation(&square(), "1 x 0\n"),
            Err(DratError::Syntax { line: 1, .. })
        ));
    }
}
