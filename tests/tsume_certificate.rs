//! Tsume certificates: extracted from the solver's table for the hand-made
//! cases, every one accepted by the independent
//! checker; every kind of tampering rejected.

use shogi_lab::certificate::{check_text, extract, write_jsonl};
use shogi_lab::tsume::problems::read_problems;
use shogi_lab::tsume::{load_problem, DefenderHand, Outcome, Solver, SolverOptions};

const CASES: &str = include_str!("../specs/tsume/cases.sfen");

fn opts() -> SolverOptions {
    SolverOptions {
        nodes: Some(3_000_000),
        memory_mib: 64,
        ..SolverOptions::default()
    }
}

/// Solves, extracts and writes the certificate of one problem.
fn certificate_text(sfen: &str, mode: DefenderHand) -> Option<(String, Outcome)> {
    let pos = load_problem(sfen, mode).unwrap();
    let mut s = Solver::try_new(opts()).unwrap();
    let r = s.solve(&pos);
    if r.outcome == Outcome::Unknown {
        return None;
    }
    let cert = extract(&s, &pos, &r).unwrap_or_else(|e| panic!("{sfen}: {e}"));
    let mut out = Vec::new();
    write_jsonl(&cert, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let checked = check_text(&text, Some(&pos)).unwrap_or_else(|e| panic!("{sfen}: {e}\n{text}"));
    assert_eq!(checked.result, r.outcome.as_str());
    if r.outcome == Outcome::Mate {
        assert!(checked.plies.unwrap() as usize >= r.line.len());
    }
    Some((text, r.outcome))
}

#[test]
fn hand_made_cases_are_certified() {
    let cases = read_problems(CASES);
    let mut n = 0;
    for c in &cases {
        let mode = match c.extra[1].as_str() {
            "given" => DefenderHand::AsGiven,
            _ => DefenderHand::Remaining,
        };
        if certificate_text(&c.sfen, mode).is_some() {
            n += 1;
        }
    }
    assert!(n >= 10, "{n} certified");
}

#[test]
fn tampering_is_rejected() {
    // 3-ply mate with interpositions: ▲1三香 style cases come from specs/tsume/cases.sfen.
    let cases = read_problems(CASES);
    let mut tried = 0;
    for c in &cases {
        let mode = match c.extra[1].as_str() {
            "given" => DefenderHand::AsGiven,
            _ => DefenderHand::Remaining,
        };
        let Some((text, outcome)) = certificate_text(&c.sfen, mode) else {
            continue;
        };
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let render =
            |ls: &[serde_json::Value]| ls.iter().map(|v| format!("{v}\n")).collect::<String>();
        // A move removed (every node with moves lists exactly what its rule demands).
        let Some(d) = lines
            .iter()
            .position(|v| v["moves"].as_array().is_some_and(|m| !m.is_empty()))
        else {
            continue;
        };
        let mut t = lines.clone();
        t[d]["moves"].as_array_mut().unwrap().pop();
        let e = check_text(&render(&t), None).unwrap_err();
        assert_eq!(e.exit_code(), 1, "{e}");
        // A child swapped: two replies pointing at each other's child.
        let mut t = lines.clone();
        let m = t[d]["moves"].as_array_mut().unwrap();
        if m.len() >= 2 && m[0][1] != m[1][1] {
            let (a, b) = (m[0][1].clone(), m[1][1].clone());
            m[0][1] = b;
            m[1][1] = a;
            assert_eq!(check_text(&render(&t), None).unwrap_err().exit_code(), 1);
        }
        if outcome != Outcome::Mate {
            tried += 1;
            continue;
        }
        // Wrong depth in the header.
        let mut t = lines.clone();
        t[0]["plies"] = (t[0]["plies"].as_u64().unwrap() + 2).into();
        assert_eq!(check_text(&render(&t), None).unwrap_err().exit_code(), 1);
        // A cycle: the root's only move pointed back at the root.
        let mut t = lines.clone();
        t[1]["moves"][0][1] = 0.into();
        assert_eq!(check_text(&render(&t), None).unwrap_err().exit_code(), 1);
        // Unreadable text.
        assert_eq!(check_text("{", None).unwrap_err().exit_code(), 2);
        tried += 1;
    }
    assert!(tried >= 4, "no case exercised the tampering checks");
}
