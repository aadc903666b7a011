//! Every engine runs every case of `specs/quantum/*.toml`; conflicts are
//! certified minimal by the brute-force oracle.

use shogi_lab::quantum::brute::{self, Brute};
use shogi_lab::quantum::corpus::{self, CaseResult};
use shogi_lab::quantum::{engines, Convergence, World};

#[test]
fn corpus_is_well_formed_and_nonempty() {
    let cases = corpus::cases();
    assert!(cases.len() >= 30, "only {} cases", cases.len());
    for (file, c) in &cases {
        assert!(
            !c.source.trim().is_empty(),
            "{file}:{} has no source",
            c.name
        );
    }
    let mut names: Vec<_> = cases.iter().map(|(_, c)| c.name.clone()).collect();
    names.sort();
    names.dedup();
    assert_eq!(names.len(), cases.len(), "duplicate case names");
}

#[test]
fn every_engine_passes_the_corpus_and_they_agree() {
    let mut failures = Vec::new();
    for (file, case) in corpus::cases() {
        let mut results = Vec::new();
        for e in engines() {
            match corpus::check(e.as_ref(), &case) {
                Ok(r) => results.push((e.name(), r)),
                Err(m) => failures.push(format!("{file}:{} [{}]: {m}", case.name, e.name())),
            }
        }
        // Worlds agree exactly; conflicts are each certified (minimal conflicts need not be unique).
        for (name, r) in &results {
            match (r, &results[0].1) {
                (CaseResult::World { .. }, CaseResult::World { .. }) => {
                    assert_eq!(
                        r, &results[0].1,
                        "{file}:{} {name} vs {}",
                        case.name, results[0].0
                    )
                }
                (CaseResult::Contradiction(c), CaseResult::Contradiction(_)) => {
                    let w: World = case.world.parse().unwrap();
                    if case.steps.is_empty() {
                        assert_eq!(
                            brute::check_conflict(&w, &c.conflict, 5_000_000),
                            Some(true),
                            "{file}:{} [{name}] conflict {:?} not minimal",
                            case.name,
                            c.conflict
                        );
                    }
                }
                _ => panic!(
                    "{file}:{} {name} and {} disagree on consistency",
                    case.name, results[0].0
                ),
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn brute_force_passes_the_small_corpus_cases() {
    // Only cases whose worlds are small enough to enumerate: at most 3 unobserved pieces.
    let brute = Brute { budget: 5_000_000 };
    let mut ran = 0;
    for (file, case) in corpus::cases() {
        let w: World = case.world.parse().unwrap();
        if !case.steps.is_empty() || w.unobserved().count() > 3 {
            continue;
        }
        if brute::count(&w, brute.budget).is_none() {
            continue;
        }
        corpus::check(&brute, &case)
            .unwrap_or_else(|m| panic!("{file}:{} [brute]: {m}", case.name));
        ran += 1;
    }
    // Most corpus worlds have billions of assignments; the property tests cover brute force broadly.
    assert!(ran >= 1, "brute force ran no corpus case");
    let _ = Brute::default().name();
}
