//! Length certificates of the default mode (specs/certificate.md, version 4): the
//! proven-shortest length under the 無駄合 convention, with futility witnesses in the mate
//! graph and non-futility witnesses in the bounded no-mate graph. Every hand-made mate
//! and quick classics certified; the naive twin's length agrees and a claim of L − 2 is
//! rejected; every kind of witness tampering rejected naming the node; the CLI.

mod support;
use support::{lines_of, render};

use serde_json::Value;
use shogi_lab::certificate::{check_text, CheckError};
use shogi_lab::rules::{Move, Position};
use shogi_lab::tsume::certificate::{
    extract_length, extract_length_with, length_limits, write_jsonl, ExtractError, ExtractLimits,
    LENGTH_MAX_NODES, MIN_FALLBACK_NODES,
};
use shogi_lab::tsume::problems::read_problems;
use shogi_lab::tsume::{
    load_problem, naive, DefenderHand, Outcome, SolveResult, Solver, SolverOptions,
};
use std::process::Command;

const CASES: &str = include_str!("../specs/tsume/cases.sfen");
const CLASSICS: &str = include_str!("../specs/tsume/classics.sfen");
/// `specs/tsume.md`: ▲３二歩成 is a 1-ply mate only because every interposition on the
/// bishop's diagonal is a 無駄合.
const FUTILE_ONLY: &str = "8k/8p/6P2/9/9/9/9/9/B8 b - 1";

/// Solves `pos` in the default mode, extracts the version-4 certificate of the
/// proven-shortest length and checks it: `(text, L)`.
fn length_certificate(pos: &Position, nodes: u64) -> (String, u32) {
    let mut s = Solver::try_new(SolverOptions {
        nodes: Some(nodes),
        memory_mib: 256,
        ..SolverOptions::default()
    })
    .unwrap();
    let r = s.solve(pos);
    assert_eq!(r.outcome, Outcome::Mate, "{pos:?}");
    assert_eq!(r.shortest, Some(true), "{pos:?}");
    let cert = extract_length(&s, pos, &r).unwrap_or_else(|e| panic!("{pos:?}: {e}"));
    let mut out = Vec::new();
    write_jsonl(&cert, &mut out).unwrap();
    let text = String::from_utf8(out).unwrap();
    let checked = check_text(&text, Some(pos)).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let len = r.line.len() as u32;
    assert_eq!(checked.length, Some(len));
    assert!(checked.futile_uncounted);
    assert!(checked.plies.unwrap() <= len);
    (text, len)
}

fn cases() -> Vec<(String, Position, Option<u32>)> {
    read_problems(CASES)
        .iter()
        .map(|c| {
            let mode = match c.extra[1].as_str() {
                "given" => DefenderHand::AsGiven,
                _ => DefenderHand::Remaining,
            };
            let want = c.extra[0].strip_prefix("mate ").map(|n| n.parse().unwrap());
            (c.id.clone(), load_problem(&c.sfen, mode).unwrap(), want)
        })
        .collect()
}

fn classic(id: &str) -> Position {
    let p = read_problems(CLASSICS)
        .into_iter()
        .find(|p| p.id == id)
        .unwrap_or_else(|| panic!("{id} not in classics.sfen"));
    load_problem(&p.sfen, DefenderHand::Remaining).unwrap()
}

/// The checker rejects the tampered lines with exit 1 naming `node`, its reason
/// containing `why`.
fn assert_rejected_at(ls: &[Value], node: usize, why: &str) {
    match check_text(&render(ls), None) {
        Err(CheckError::Invalid { node: n, why: w }) => {
            assert_eq!(n, node, "{w}");
            assert!(w.contains(why), "{w:?} does not say {why:?}");
        }
        other => panic!("expected node {node} rejected ({why}), got {other:?}"),
    }
}

/// The line of the first node satisfying `f`.
fn line_where(ls: &[Value], f: impl Fn(&Value) -> bool) -> usize {
    ls[1..]
        .iter()
        .position(f)
        .map(|i| i + 1)
        .expect("such a node")
}

fn id(v: &Value) -> usize {
    v["id"].as_u64().unwrap() as usize
}

/// The line of the node with this id.
fn line_of(ls: &[Value], n: usize) -> usize {
    line_where(ls, |v| id(v) == n)
}

#[test]
fn hand_made_mates_certify_their_default_length() {
    for (id, pos, want) in cases() {
        let Some(want) = want else { continue };
        let (text, len) = length_certificate(&pos, 1_000_000);
        assert_eq!(len, want, "{id}");
        let header = &lines_of(&text)[0];
        assert_eq!(header["version"], 4, "{id}");
        assert_eq!(header["nomate_root"].is_null(), len < 3, "{id}");
    }
}

#[test]
fn a_mate_only_through_futile_interpositions_carries_their_witnesses() {
    let pos = load_problem(FUTILE_ONLY, DefenderHand::Remaining).unwrap();
    let (text, len) = length_certificate(&pos, 100_000);
    assert_eq!(len, 1);
    let ls = lines_of(&text);
    // The defender node after ▲３二歩成 lists no reply: every one is left out as futile.
    let d = line_where(&ls, |v| v.get("futile").is_some());
    assert_eq!(ls[d]["moves"].as_array().unwrap().len(), 0);
    // Seven kinds on seven squares, less the dead drops.
    assert!(ls[d]["futile"].as_array().unwrap().len() >= 40);
}

/// Small mates (the hand-made cases and generated 1- and 3-ply mates): the naive twin's
/// length under the convention is the certified one, and a claim of L − 2 is rejected.
#[test]
fn the_naive_twin_agrees_and_a_shorter_claim_is_rejected() {
    let mut positions: Vec<Position> = cases()
        .into_iter()
        .filter(|c| c.2.is_some())
        .map(|c| c.1)
        .collect();
    for plies in [1, 3] {
        for sfen in support::gen_tsume_sfens(6, plies, 5) {
            positions.push(load_problem(&sfen, DefenderHand::AsGiven).unwrap());
        }
    }
    assert!(positions.len() >= 16);
    let mut shorter = 0;
    for pos in positions {
        let (text, len) = length_certificate(&pos, 1_000_000);
        assert_eq!(naive::mate_length(&pos, len), Some(len), "{pos:?}");
        if len >= 3 {
            let mut ls = lines_of(&text);
            ls[0]["length"] = (len - 2).into();
            if len - 2 < 3 {
                ls[0]["nomate_root"] = Value::Null;
            }
            let e = check_text(&render(&ls), Some(&pos)).unwrap_err();
            assert_eq!(e.exit_code(), 1, "{e}");
            shorter += 1;
        }
    }
    assert!(shorter >= 6, "{shorter}");
}

#[test]
fn a_quick_classic_with_interpositions_certifies_its_length() {
    // 図巧18: 23 plies, about 17 000 solver nodes.
    let (text, len) = length_certificate(&classic("zukou-018"), 1_000_000);
    assert_eq!(len, 23);
    assert!(text.contains("\"futile\""), "no futility witness");
    assert!(text.contains("\"nonfutile\""), "no non-futility witness");
}

#[test]
fn musou_27_certifies_its_length_with_kept_fallback_tables() {
    // Session 14: refused before ("fallback solves used more than 1000000 nodes"); the
    // budgeted searches now keep their tables across the nodes taken back.
    let (text, len) = length_certificate(&classic("musou-027"), 2_000_000);
    assert_eq!(len, 27);
    assert!(text.contains("\"nonfutile\""));
}

#[test]
fn quick_refutations_keep_the_fallback_searches_small() {
    // Session 29: a reply refuted within 32 nodes is taken before the node's other open
    // replies are searched. 無双26's no-mate half (29 plies at 2 M solver nodes, the
    // refutations taken as found past the first round, so no second try) fits 700 000
    // fallback nodes so; searching every open reply of the first round first, it ran
    // out of 1 000 000 (and fitted 1 350 000).
    let (s, pos, r) = solved("musou-026", 2_000_000);
    assert_eq!((r.line.len(), r.shortest), (29, Some(true)));
    let limits = ExtractLimits {
        fallback_total_nodes: 850_000,
        deep_nodes: 850_000,
        first_found: true,
        ..length_limits(&r)
    };
    let cert = extract_length_with(&s, &pos, &r, limits).unwrap_or_else(|e| panic!("{e}"));
    let mut out = Vec::new();
    write_jsonl(&cert, &mut out).unwrap();
    let checked = check_text(&String::from_utf8(out).unwrap(), Some(&pos)).unwrap();
    assert_eq!((checked.length, checked.futile_uncounted), (Some(29), true));
}

/// The classic `id` solved by default within `nodes` nodes, with the solver whose table
/// the extraction reads.
fn solved(id: &str, nodes: u64) -> (Solver<Position>, Position, SolveResult<Move>) {
    let pos = classic(id);
    let mut s = Solver::try_new(SolverOptions {
        nodes: Some(nodes),
        memory_mib: 256,
        ..SolverOptions::default()
    })
    .unwrap();
    let r = s.solve(&pos);
    (s, pos, r)
}

/// 図巧18 solved by default (23 plies, proven shortest).
fn solved_zukou_18() -> (Solver<Position>, Position, SolveResult<Move>) {
    solved("zukou-018", 1_000_000)
}

#[test]
fn a_failing_half_is_named() {
    let (s, pos, r) = solved_zukou_18();
    assert_eq!((r.line.len(), r.shortest), (23, Some(true)));
    let limits = length_limits(&r);
    assert!(limits.fallback_total_nodes >= MIN_FALLBACK_NODES);
    assert!(limits.max_nodes <= LENGTH_MAX_NODES);
    // Too few graph nodes for the mate half.
    let tiny = ExtractLimits {
        max_nodes: 10,
        ..limits
    };
    let e = extract_length_with(&s, &pos, &r, tiny).unwrap_err();
    assert_eq!(
        e.to_string(),
        "mate graph within 23 plies: certificate larger than 10 nodes"
    );
    // The mate half's size, then one node short of the no-mate half's.
    let cert = extract_length_with(&s, &pos, &r, limits).unwrap();
    let nomate_root = cert.length.and_then(|l| l.nomate_root).unwrap();
    let short = ExtractLimits {
        max_nodes: cert.nodes.len() - nomate_root - 1,
        ..limits
    };
    assert!(
        short.max_nodes >= nomate_root,
        "the mate half is the larger"
    );
    let e = extract_length_with(&s, &pos, &r, short).unwrap_err();
    assert!(
        e.to_string().starts_with("no-mate graph within 21 plies: "),
        "{e}"
    );
    assert!(matches!(e, ExtractError::Part { .. }), "{e:?}");
}

#[test]
fn refutations_taken_as_found_certify_too() {
    // ExtractLimits::first_found (the second try of a no-mate half out of fallback
    // nodes), forced here on 図巧18: another graph, checked as any other.
    let (s, pos, r) = solved_zukou_18();
    let limits = ExtractLimits {
        first_found: true,
        ..length_limits(&r)
    };
    let cert = extract_length_with(&s, &pos, &r, limits).unwrap();
    let mut out = Vec::new();
    write_jsonl(&cert, &mut out).unwrap();
    let checked = check_text(&String::from_utf8(out).unwrap(), Some(&pos)).unwrap();
    assert_eq!((checked.length, checked.futile_uncounted), (Some(23), true));
}

#[test]
#[ignore = "deep tier: 図巧4 needs 7.2 M solver nodes to prove its 39 plies, about 30 s of CPU; run by .ci/run with --ignored"]
fn zukou_4_certifies_its_length() {
    // The futility budget rule matters here (specs/tsume.md: 31 plies without it).
    let (text, len) = length_certificate(&classic("zukou-004"), 10_000_000);
    assert_eq!(len, 39);
    assert!(text.contains("\"futile\""));
}

/// 図巧1 (69 plies, 3.7 M solver nodes): its no-mate half reaches a defender node (ply 12,
/// one reply) whose "no mate within 55" no table holds; a fresh search decides it in
/// about 3.8 M nodes, more than the deep tier's former cap of the solve's own nodes
/// (session 29: the deep tier may use what is left of the fallback total).
#[test]
#[ignore = "deep tier: 図巧1's length certificate, about 30 s of CPU; run by .ci/run with --ignored"]
fn zukou_1_certifies_its_length() {
    let (_, len) = length_certificate(&classic("zukou-001"), 20_000_000);
    assert_eq!(len, 69);
}

#[test]
fn futility_witness_tampering_is_rejected_naming_the_node() {
    let pos = load_problem(FUTILE_ONLY, DefenderHand::Remaining).unwrap();
    let (text, _) = length_certificate(&pos, 100_000);
    let ls = lines_of(&text);
    let d = line_where(&ls, |v| {
        v["futile"]
            .as_array()
            .is_some_and(|f| f.iter().any(|w| w[0] == "P*5e"))
    });
    let n = id(&ls[d]);
    let at = |ls: &[Value], reply: &str| -> usize {
        ls[d]["futile"]
            .as_array()
            .unwrap()
            .iter()
            .position(|w| w[0] == reply)
            .unwrap()
    };
    let set = |reply: &str, k: usize, to: Value| {
        let mut t = ls.clone();
        let i = at(&t, reply);
        t[d]["futile"][i][k] = to;
        t
    };

    // A left-out reply without a witness.
    let mut t = ls.clone();
    let i = at(&t, "P*5e");
    t[d]["futile"].as_array_mut().unwrap().remove(i);
    assert_rejected_at(&t, n, "defender replies missing: P*5e");

    // A recapture not by the checker: the tokin takes on 2b (a legal capture that checks).
    assert_rejected_at(
        &set("P*2b", 1, "3b2b".into()),
        n,
        "no recapture by the checker",
    );
    // A recapture that is not legal: the bishop cannot promote on 5e.
    assert_rejected_at(&set("P*5e", 1, "9i5e+".into()), n, "not legal");
    // A drop off the diagonal: no reply to the check at all.
    let mut t = ls.clone();
    t[d]["futile"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!(["P*5d", "9i5e", 0]));
    assert_rejected_at(&t, n, "not legal");
    // A futile reply that is not legal (no piece on 5e to move).
    let mut t = ls.clone();
    t[d]["futile"]
        .as_array_mut()
        .unwrap()
        .push(serde_json::json!(["5e4d", "9i4d", 0]));
    assert_rejected_at(&t, n, "not legal");
    // A witness at another position: the test of P*4d offered for P*5e.
    let other = ls[d]["futile"][at(&ls, "P*4d")][2].clone();
    assert_rejected_at(
        &set("P*5e", 2, other),
        n,
        "not the futility test's position",
    );
    // A witness that is no node.
    assert_rejected_at(&set("P*5e", 2, 999.into()), n, "no such node");
    // Witnesses in a version-2 file: unreadable.
    let mut t = ls.clone();
    t[0]["version"] = 2.into();
    assert_eq!(check_text(&render(&t), None).unwrap_err().exit_code(), 2);
    // Futility witnesses at a node that is no mate defender node: the root.
    let r = line_of(&ls, 0);
    let mut t = ls.clone();
    t[r]["futile"] = ls[d]["futile"].clone();
    assert_rejected_at(&t, 0, "futility witnesses only at mate defender nodes");
}

/// Version 4's `by_checker` leaves: the checker decides "no mate within 1 ply" itself,
/// and rejects a leaf that is mated within 1, a leaf anywhere else, with moves, or in
/// a version-3 file.
#[test]
fn by_checker_tampering_is_rejected_naming_the_node() {
    let (id_, pos, _) = cases()
        .into_iter()
        .find(|(id, ..)| id == "futile-only-with-budget")
        .unwrap();
    let (text, len) = length_certificate(&pos, 1_000_000);
    assert_eq!(len, 5, "{id_}");
    let ls = lines_of(&text);
    assert_eq!(ls[0]["version"], 4);
    let leaf = line_where(&ls, |v| v["by_checker"] == true);
    let n = id(&ls[leaf]);
    assert!(ls[leaf].get("moves").is_none());
    // A position mated within 1 ply: the mate graph's attacker node whose one check
    // leads to a defender node with no reply.
    let leaf_ids: Vec<usize> = ls[1..]
        .iter()
        .filter(|v| {
            v["moves"].as_array().is_some_and(|m| m.is_empty()) && v.get("budget").is_none()
        })
        .map(id)
        .collect();
    let mate_in_1 = line_where(&ls, |v| {
        v.get("budget").is_none()
            && v["moves"].as_array().is_some_and(|m| {
                m.len() == 1 && leaf_ids.contains(&(m[0][1].as_u64().unwrap() as usize))
            })
    });
    let mut t = ls.clone();
    t[leaf]["sfen"] = ls[mate_in_1]["sfen"].clone();
    assert_rejected_at(&t, n, "mates within 1 ply");
    // With its checks listed as well.
    let mut t = ls.clone();
    t[leaf]["moves"] = serde_json::json!([]);
    assert_rejected_at(&t, n, "lists no moves");
    // A budget of 3: the checker decides only one ply.
    let mut t = ls.clone();
    t[leaf]["budget"] = 3.into();
    assert_rejected_at(&t, n, "budget 1 or 2");
    // At a defender node of the no-mate graph.
    let d = line_where(&ls, |v| {
        v.get("budget").is_some() && v["sfen"].as_str().unwrap().split(' ').nth(1) == Some("w")
    });
    let mut t = ls.clone();
    t[d]["by_checker"] = true.into();
    t[d].as_object_mut().unwrap().remove("moves");
    t[d].as_object_mut().unwrap().remove("nonfutile");
    assert_rejected_at(&t, id(&ls[d]), "only at an attacker node");
    // Without the member: a node with neither moves nor a cover, unreadable.
    let mut t = ls.clone();
    t[leaf].as_object_mut().unwrap().remove("by_checker");
    assert_eq!(check_text(&render(&t), None).unwrap_err().exit_code(), 2);
    // In a version-3 file: unreadable.
    let mut t = ls.clone();
    t[0]["version"] = 3.into();
    assert_eq!(check_text(&render(&t), None).unwrap_err().exit_code(), 2);
}

/// A witness whose recapture gives no check: the lance that promotes on 1c (a gold's
/// moves) no longer attacks the king on 1a. Built from a certificate of
/// `8k/6S2/7G1/9/9/9/8N/9/8L b - 1`: ▲２五桂 discovers the lance's check, a 1-ply mate
/// because every interposition on the file is futile.
#[test]
fn a_recapture_that_gives_no_check_is_rejected() {
    let pos = load_problem("8k/6S2/7G1/9/9/9/8N/9/8L b - 1", DefenderHand::Remaining).unwrap();
    let (text, _) = length_certificate(&pos, 1_000_000);
    let ls = lines_of(&text);
    let d = line_where(&ls, |v| {
        v["futile"]
            .as_array()
            .is_some_and(|f| f.iter().any(|w| w[1] == "1i1c"))
    });
    let i = ls[d]["futile"]
        .as_array()
        .unwrap()
        .iter()
        .position(|w| w[1] == "1i1c")
        .unwrap();
    let mut t = ls.clone();
    t[d]["futile"][i][1] = "1i1c+".into();
    assert_rejected_at(&t, id(&ls[d]), "does not give check");
}

/// A listed reply moved to the futile ones with another reply's witness: rejected at
/// its node (for a reply that is no interposition — a king move, a capture of the
/// checker — named so), or, for another drop on the same square, whose test position is
/// the same, accepted there and rejected only because its old subtree is unreachable.
#[test]
fn a_futile_reply_that_is_no_interposition_is_rejected() {
    let (text, _) = length_certificate(&classic("zukou-018"), 1_000_000);
    let ls = lines_of(&text);
    let mut named = 0;
    for d in 1..ls.len() {
        let Some(f) = ls[d]["futile"].as_array() else {
            continue;
        };
        let w = f[0].clone();
        for (i, m) in ls[d]["moves"].as_array().unwrap().iter().enumerate() {
            let mut t = ls.clone();
            t[d]["moves"].as_array_mut().unwrap().remove(i);
            t[d]["futile"]
                .as_array_mut()
                .unwrap()
                .push(serde_json::json!([m[0], w[1], w[2]]));
            match check_text(&render(&t), None) {
                // Another drop on the witnessed square has the same test position:
                // a true futility witness, its former subtree now unreachable.
                Err(CheckError::Invalid { why, .. }) if why.contains("not reachable") => {}
                Err(CheckError::Invalid { node, why }) => {
                    assert_eq!(node, id(&ls[d]), "{why}");
                    named += usize::from(why.contains("no interposition"));
                }
                other => panic!("{m}: {other:?}"),
            }
        }
    }
    assert!(named > 0);
}

#[test]
fn non_futility_witness_tampering_is_rejected_naming_the_node() {
    let (text, _) = length_certificate(&classic("zukou-018"), 1_000_000);
    let ls = lines_of(&text);
    let d = line_where(&ls, |v| {
        v["nonfutile"].as_array().is_some_and(|w| !w.is_empty())
    });
    let n = id(&ls[d]);
    let b = ls[d]["budget"].as_u64().unwrap();
    // A recapture left without its witness.
    let mut t = ls.clone();
    t[d]["nonfutile"].as_array_mut().unwrap().pop();
    assert_rejected_at(&t, n, "no non-futility witness for the recapture");
    // A witness below the node's budget: it would not show the reply non-futile
    // within that budget.
    if b > 0 {
        let w = ls[d]["nonfutile"][0][1].as_u64().unwrap() as usize;
        let mut t = ls.clone();
        t[line_of(&ls, w)]["budget"] = (b - 1).into();
        let e = check_text(&render(&t), None).unwrap_err();
        assert_eq!(e.exit_code(), 1, "{e}");
    }
    // A witness at another position: the node's own reply's child.
    let c = ls[d]["moves"][0][1].clone();
    let mut t = ls.clone();
    t[d]["nonfutile"][0][1] = c;
    assert_rejected_at(&t, n, "not the futility test's position");
    // A non-futility witness for a reply that is no interposition.
    let e = line_where(&ls, |v| {
        v.get("budget").is_some()
            && v.get("nonfutile").is_none()
            && v["sfen"].as_str().unwrap().split(' ').nth(1) == Some("w")
            && v.get("moves").is_some()
    });
    let mut t = ls.clone();
    t[e]["nonfutile"] = ls[d]["nonfutile"].clone();
    let err = check_text(&render(&t), None).unwrap_err();
    assert!(
        matches!(&err, CheckError::Invalid { node, .. } if *node == id(&ls[e])),
        "{err}"
    );
    // A non-futility witness removed altogether.
    let mut t = ls.clone();
    t[d].as_object_mut().unwrap().remove("nonfutile");
    assert_rejected_at(&t, n, "no non-futility witness for the recapture");
}

#[test]
fn cli_certifies_the_default_length() {
    let bin = env!("CARGO_BIN_EXE_shogi-lab");
    let dir = std::env::temp_dir().join(format!("shogi-lab-lencert-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("p.jsonl");
    let out = Command::new(bin)
        .args(["tsume", FUTILE_ONLY, "--json", "--certificate"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["plies"].as_u64(), v["shortest"].as_bool()),
        (Some(1), Some(true))
    );
    assert_eq!(v["certified"], true);
    assert_eq!(v["shortest_certified"], true);
    // The plain certificate in `p.jsonl`, the length certificate beside it.
    let out = Command::new(bin)
        .args(["check-certificate", "--json"])
        .arg(dir.join("p.length.jsonl"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let c: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (c["length"].as_u64(), c["futile"].as_str()),
        (Some(1), Some("uncounted"))
    );
    let out = Command::new(bin)
        .arg("check-certificate")
        .arg(&path)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A bounded no-mate defender's reply that the rounds of searches cannot decide within
/// `fallback_nodes` gets one more search on the deep tier (up to `deep_nodes` and
/// `deep_reply_nodes`, session 24): with tiny per-search budgets the extraction fails
/// without that tier and succeeds with it, and the certificate checks.
#[test]
fn the_deep_tier_decides_a_reply_the_rounds_cannot() {
    let problems = read_problems(CLASSICS);
    let mut shown = 0;
    for id in ["zukou-002", "zukou-005", "zukou-012"] {
        let p = problems.iter().find(|p| p.id == id).unwrap();
        let pos = load_problem(&p.sfen, DefenderHand::Remaining).unwrap();
        let mut s = Solver::new(SolverOptions {
            memory_mib: 64,
            ..SolverOptions::default()
        });
        let r = s.solve(&pos);
        assert_eq!(r.shortest, Some(true), "{id}");
        let limits = |deep_nodes| ExtractLimits {
            fallback_nodes: 64,
            fallback_total_nodes: 50_000_000,
            fallback_solves: 10_000_000,
            deep_nodes,
            deep_reply_nodes: deep_nodes,
            ..length_limits(&r)
        };
        let without = extract_length_with(&s, &pos, &r, limits(0));
        let with = extract_length_with(&s, &pos, &r, limits(5_000_000));
        let cert = with.unwrap_or_else(|e| panic!("{id}: {e}"));
        let mut out = Vec::new();
        write_jsonl(&cert, &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        let checked = check_text(&text, Some(&pos)).unwrap_or_else(|e| panic!("{id}: {e}"));
        assert_eq!(checked.length, Some(r.line.len() as u32), "{id}");
        if without.is_err() {
            shown += 1;
        }
    }
    assert!(shown > 0, "no problem needed the deep tier");
}

/// `--certificate-nodes` caps each half of a length certificate: 図巧2's length is
/// refused at 10 nodes (the reason names the cap) and certified at the default; 0 and a
/// number the machine's memory cannot hold are one-line input errors (exit 2) before
/// anything is solved.
#[test]
fn cli_certificate_nodes_caps_the_length_certificate() {
    let bin = env!("CARGO_BIN_EXE_shogi-lab");
    let problems = read_problems(CLASSICS);
    let sfen = &problems.iter().find(|p| p.id == "zukou-002").unwrap().sfen;
    let run = |extra: &[&str]| {
        Command::new(bin)
            .args(["tsume", sfen.as_str(), "--json"])
            .args(extra)
            .output()
            .unwrap()
    };
    let out = run(&["--certificate-nodes", "10"]);
    assert!(out.status.success(), "{out:?}");
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        (v["shortest"].as_bool(), v["certified"].as_bool()),
        (Some(true), Some(true))
    );
    assert_eq!(v["shortest_certified"], false);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("certificate larger than 10 nodes (--certificate-nodes raises the cap)"),
        "{err}"
    );
    let out = run(&[]);
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["shortest_certified"], true);
    for bad in ["0", "1000000000"] {
        let out = run(&["--certificate-nodes", bad]);
        assert_eq!(out.status.code(), Some(2), "{bad}: {out:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.trim().lines().count(), 1, "{bad}: {err}");
        assert!(out.stdout.is_empty(), "{bad}");
    }
}
