//! Convergence certificates and their checker.
//!
//! A converged world is certified pair by pair: for every kind `k` a piece `i`
//! keeps, a *witness* — an assignment of all 20 pieces, each inside its input
//! domain, every kind used exactly its capacity, with piece `i` of kind `k`;
//! for every kind `k` removed from piece `i`, a *Hall violator* — a set of
//! pieces whose domains, once piece `i`'s is narrowed to `{k}`, hold fewer kind
//! copies than pieces (so no assignment gives `i` kind `k`). A contradiction
//! is certified by a violator of the input world itself.
//!
//! Certificates come from the matching engine ([`super::matching`]); the
//! checker [`check`] uses nothing but the domains and capacities.

use super::matching::{find_violator, maximum_matching};
use super::{Kind, KindSet, World, PIECES};
use serde::Serialize;

/// A kept (piece, kind) pair and the index of its witness assignment.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Kept {
    /// The piece.
    pub piece: usize,
    /// The kind it keeps.
    pub kind: Kind,
    /// Index into the `assignments` of [`Certificate::Converged`].
    pub witness: usize,
}

/// A removed (piece, kind) pair and its Hall violator.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Removed {
    /// The piece.
    pub piece: usize,
    /// The kind it loses.
    pub kind: Kind,
    /// Pieces (ascending) whose domains, with `piece` narrowed to `kind`, have fewer copies than pieces.
    pub violator: Vec<usize>,
}

/// The certificate of one converge call.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "result", rename_all = "lowercase")]
pub enum Certificate {
    /// The world is consistent and converges to `output`.
    Converged {
        /// The converged domains.
        output: World,
        /// Witness assignments, shared by the kept pairs.
        assignments: Vec<[Kind; PIECES]>,
        /// Every kept pair.
        kept: Vec<Kept>,
        /// Every removed pair.
        removed: Vec<Removed>,
    },
    /// No assignment exists: `violator` is a Hall violator of the input.
    Contradiction {
        /// Pieces (ascending) whose domains hold fewer copies than pieces.
        violator: Vec<usize>,
    },
}

impl Serialize for World {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(self.0.iter().map(|d| d.to_string()))
    }
}

impl Serialize for Kind {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_char(self.letter())
    }
}

fn pieces_of(mask: u32) -> Vec<usize> {
    (0..PIECES).filter(|&i| mask >> i & 1 != 0).collect()
}

/// Converges `w` with the matching engine and certifies every answer.
pub fn certify(w: &World) -> Certificate {
    if let Some(v) = find_violator(w) {
        return Certificate::Contradiction {
            violator: pieces_of(v),
        };
    }
    let mut assignments: Vec<[Kind; PIECES]> = Vec::new();
    let mut output = World([KindSet::EMPTY; PIECES]);
    let mut kept = Vec::new();
    let mut removed = Vec::new();
    for i in 0..PIECES {
        for k in w.0[i].iter() {
            if let Some(a) = assignments.iter().position(|a| a[i] == k) {
                output.0[i] = output.0[i].or(KindSet::single(k));
                kept.push(Kept {
                    piece: i,
                    kind: k,
                    witness: a,
                });
                continue;
            }
            let mut narrowed = *w;
            narrowed.0[i] = KindSet::single(k);
            let m = maximum_matching(&narrowed);
            if m.is_complete() {
                let a: [Kind; PIECES] = std::array::from_fn(|p| m.kind_of[p].unwrap_or(Kind::King));
                assignments.push(a);
                output.0[i] = output.0[i].or(KindSet::single(k));
                kept.push(Kept {
                    piece: i,
                    kind: k,
                    witness: assignments.len() - 1,
                });
            } else {
                let v = find_violator(&narrowed).unwrap_or(0);
                removed.push(Removed {
                    piece: i,
                    kind: k,
                    violator: pieces_of(v),
                });
            }
        }
    }
    Certificate::Converged {
        output,
        assignments,
        kept,
        removed,
    }
}

/// Why a certificate was rejected.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CertificateError {
    /// A witness assignment breaks a domain or a capacity, or does not give the pair.
    #[error("piece {piece} kind {kind}: bad witness: {why}")]
    BadWitness {
        /// The piece.
        piece: usize,
        /// The kind letter.
        kind: char,
        /// What is wrong.
        why: String,
    },
    /// A violator is not over-full.
    #[error(
        "{what}: pieces {pieces:?} are not a Hall violator ({copies} copies for {count} pieces)"
    )]
    BadViolator {
        /// Which claim.
        what: String,
        /// The claimed pieces.
        pieces: Vec<usize>,
        /// Copies of the union of their domains.
        copies: u32,
        /// Number of distinct valid pieces.
        count: u32,
    },
    /// The certified pairs do not cover the output exactly.
    #[error("piece {piece}: {why}")]
    Incomplete {
        /// The piece.
        piece: usize,
        /// What is missing or extra.
        why: String,
    },
}

/// Checks that `pieces` (with domains `doms`) hold fewer copies than pieces.
fn check_violator(doms: &World, pieces: &[usize], what: String) -> Result<(), CertificateError> {
    let mut mask = 0u32;
    let mut union = KindSet::EMPTY;
    for &p in pieces {
        if p < PIECES {
            mask |= 1 << p;
            union = union.or(doms.0[p]);
        }
    }
    let count = mask.count_ones();
    if pieces.is_empty() || union.capacity() >= count || count as usize != pieces.len() {
        return Err(CertificateError::BadViolator {
            what,
            pieces: pieces.to_vec(),
            copies: union.capacity(),
            count,
        });
    }
    Ok(())
}

fn check_assignment(w: &World, a: &[Kind; PIECES]) -> Result<(), String> {
    let mut used = [0u8; 8];
    for (p, k) in a.iter().enumerate() {
        if !w.0[p].contains(*k) {
            return Err(format!("piece {p} is {} outside {}", k.letter(), w.0[p]));
        }
        used[k.index()] += 1;
    }
    if used != Kind::CAPACITY {
        return Err(format!("kind counts {used:?}, want {:?}", Kind::CAPACITY));
    }
    Ok(())
}

/// Checks `cert` against the input world `w` alone: every kept pair has a valid
/// witness, every removed pair a valid violator, and together they cover each
/// input domain exactly, split as the output says.
///
/// # Errors
/// The first failing claim.
pub fn check(w: &World, cert: &Certificate) -> Result<(), CertificateError> {
    let (output, assignments, kept, removed) = match cert {
        Certificate::Contradiction { violator } => {
            return check_violator(w, violator, "contradiction".into())
        }
        Certificate::Converged {
            output,
            assignments,
            kept,
            removed,
        } => (output, assignments, kept, removed),
    };
    let mut seen_kept = [KindSet::EMPTY; PIECES];
    let mut seen_removed = [KindSet::EMPTY; PIECES];
    for c in kept {
        let bad = |why: String| CertificateError::BadWitness {
            piece: c.piece,
            kind: c.kind.letter(),
            why,
        };
        let a = assignments
            .get(c.witness)
            .ok_or_else(|| bad(format!("no assignment {}", c.witness)))?;
        if c.piece >= PIECES || a[c.piece] != c.kind {
            return Err(bad("the assignment gives another kind".into()));
        }
        check_assignment(w, a).map_err(bad)?;
        seen_kept[c.piece] = seen_kept[c.piece].or(KindSet::single(c.kind));
    }
    for r in removed {
        if r.piece >= PIECES {
            return Err(CertificateError::Incomplete {
                piece: r.piece,
                why: "no such piece".into(),
            });
        }
        let mut narrowed = *w;
        narrowed.0[r.piece] = KindSet::single(r.kind);
        check_violator(
            &narrowed,
            &r.violator,
            format!("piece {} without {}", r.piece, r.kind.letter()),
        )?;
        seen_removed[r.piece] = seen_removed[r.piece].or(KindSet::single(r.kind));
    }
    for i in 0..PIECES {
        let why = if seen_kept[i] != output.0[i] {
            format!("output {} but witnesses for {}", output.0[i], seen_kept[i])
        } else if seen_removed[i] != w.0[i].minus(output.0[i]) {
            format!(
                "removed {} but violators for {}",
                w.0[i].minus(output.0[i]),
                seen_removed[i]
            )
        } else {
            continue;
        };
        return Err(CertificateError::Incomplete { piece: i, why });
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quantum::counting::SubsetPass;
    use crate::quantum::Convergence;

    #[test]
    fn certificates_check_and_match_counting() {
        for text in ["RL RL R", "BR BK RK BRK", "P P P P P P P P P P", "K K", "*"] {
            let w: World = text.parse().unwrap();
            let c = certify(&w);
            check(&w, &c).unwrap();
            match (&c, SubsetPass.converge(&w)) {
                (Certificate::Converged { output, .. }, Ok(r)) => assert_eq!(*output, r.world),
                (Certificate::Contradiction { .. }, Err(_)) => {}
                _ => panic!("disagree on {text}"),
            }
        }
    }

    #[test]
    fn tampering_is_rejected() {
        let w: World = "RL RL R".parse().unwrap();
        let Certificate::Converged {
            output,
            assignments,
            kept,
            removed,
        } = certify(&w)
        else {
            panic!()
        };
        // Claim piece 0 keeps 飛 too (no witness).
        let mut out2 = output;
        out2.0[0] = out2.0[0].or(KindSet::single(Kind::Rook));
        let c = Certificate::Converged {
            output: out2,
            assignments: assignments.clone(),
            kept: kept.clone(),
            removed: removed.clone(),
        };
        assert!(check(&w, &c).is_err());
        // A violator with one piece dropped.
        let mut r2 = removed.clone();
        r2[0].violator.pop();
        let c = Certificate::Converged {
            output,
            assignments: assignments.clone(),
            kept: kept.clone(),
            removed: r2,
        };
        assert!(matches!(
            check(&w, &c),
            Err(CertificateError::BadViolator { .. })
        ));
        // A witness whose kinds are swapped between two pieces of different domains.
        let mut a2 = assignments.clone();
        a2[0].swap(0, 19);
        let c = Certificate::Converged {
            output,
            assignments: a2,
            kept,
            removed,
        };
        assert!(check(&w, &c).is_err());
        // A contradiction claimed for a consistent world.
        let c = Certificate::Contradiction {
            violator: vec![0, 1, 2],
        };
        assert!(check(&w, &c).is_err());
    }
}
