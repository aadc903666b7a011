//! `shogi-lab gen`: every vector is checked against an independent oracle, and
//! the same seed gives the same bytes.
//! - positions: moves = the naive generator's, perft = perft over the naive
//!   generator, in_check and outcome recomputed;
//! - tsume: the line replayed by the checker, the shortest length confirmed by
//!   the naive minimax twin;
//! - quantum: the history replayed with the SAT engine gives the same world,
//!   the probabilities of each piece sum to 1 and are positive exactly on its domain;
//! - records: every format read back gives the same moves.

use shogi_lab::notation::sfen::{parse_position, resolve_usi_move};
use shogi_lab::quantum::{self, sat::SatEngine, World};
use shogi_lab::rules::{Position, Rules};
use shogi_lab::tsume::{checker, load_problem, naive, DefenderHand};
use std::process::Command;

fn gen(args: &[&str]) -> Vec<serde_json::Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_shogi-lab"))
        .arg("gen")
        .args(args)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn naive_perft(pos: &mut Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves_naive();
    let mut n = 0;
    for m in moves {
        pos.play_unchecked(m);
        n += naive_perft(pos, depth - 1);
        pos.undo();
    }
    n
}

#[test]
fn positions_are_right_and_reproducible() {
    let v = gen(&["positions", "--count", "300", "--seed", "5", "--depth", "2"]);
    assert_eq!(v.len(), 300);
    let again = gen(&["positions", "--count", "300", "--seed", "5", "--depth", "2"]);
    assert_eq!(v, again);
    assert_ne!(
        v,
        gen(&["positions", "--count", "300", "--seed", "6", "--depth", "2"])
    );
    let (mut checks, mut drops, mut promotions) = (0, 0, 0);
    let mut sfens = std::collections::HashSet::new();
    for x in &v {
        let mut pos = parse_position(x["sfen"].as_str().unwrap(), Rules::STANDARD).unwrap();
        assert!(sfens.insert(
            x["sfen"]
                .as_str()
                .unwrap()
                .rsplit_once(' ')
                .unwrap()
                .0
                .to_string()
        ));
        let mut naive: Vec<String> = pos
            .legal_moves_naive()
            .iter()
            .map(|m| m.to_string())
            .collect();
        naive.sort();
        let moves: Vec<String> = x["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m.as_str().unwrap().to_string())
            .collect();
        assert_eq!(moves, naive, "{}", x["sfen"]);
        let perft: Vec<u64> = x["perft"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .collect();
        assert_eq!(
            perft,
            vec![naive_perft(&mut pos, 1), naive_perft(&mut pos, 2)]
        );
        assert_eq!(x["in_check"], pos.in_check());
        checks += pos.in_check() as u32;
        drops += moves.iter().any(|m| m.contains('*')) as u32;
        promotions += moves.iter().any(|m| m.ends_with('+')) as u32;
        let expected = if naive.is_empty() {
            if pos.in_check() {
                "checkmate"
            } else {
                "no_legal_moves"
            }
        } else {
            ""
        };
        assert_eq!(x["outcome"]["reason"].as_str().unwrap_or(""), expected);
    }
    // The mix the walks aim for is there.
    assert!(
        checks >= 10 && drops >= 100 && promotions >= 50,
        "{checks} {drops} {promotions}"
    );
}

#[test]
fn tsume_mates_have_exactly_the_asked_length() {
    for plies in ["1", "3"] {
        let v = gen(&["tsume", "--count", "6", "--plies", plies, "--seed", "2"]);
        assert_eq!(v.len(), 6);
        for x in &v {
            let sfen = x["sfen"].as_str().unwrap();
            let root = load_problem(sfen, DefenderHand::AsGiven).unwrap();
            let line: Vec<_> = {
                let mut p = root.clone();
                x["usi"]
                    .as_str()
                    .unwrap()
                    .split(' ')
                    .map(|u| {
                        let m = resolve_usi_move(&p, u).unwrap();
                        p.play(m).unwrap();
                        m
                    })
                    .collect()
            };
            let n: u32 = plies.parse().unwrap();
            assert_eq!(line.len() as u32, n);
            checker::verify_mate_line(&root, &line).unwrap();
            assert_eq!(naive::mate_length(&root, n), Some(n), "{sfen}");
        }
    }
    // Even lengths are refused.
    let out = Command::new(env!("CARGO_BIN_EXE_shogi-lab"))
        .args(["gen", "tsume", "--plies", "2"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn quantum_worlds_replay_with_another_engine() {
    let v = gen(&["quantum", "--count", "60", "--seed", "3"]);
    assert_eq!(v, gen(&["quantum", "--count", "60", "--seed", "3"]));
    for x in &v {
        let mut w = World::UNOBSERVED;
        for h in x["history"].as_array().unwrap() {
            let (piece, obs) = h.as_str().unwrap().split_once(' ').unwrap();
            let out = quantum::apply(&SatEngine, &w, piece.parse().unwrap(), obs.parse().unwrap())
                .unwrap_or_else(|e| panic!("{h}: {e:?}"));
            w = out.converged().world;
        }
        assert_eq!(w.to_string(), x["world"].as_str().unwrap());
        let probs = x["probabilities"].as_array().unwrap();
        assert_eq!(probs.len(), 20);
        for (i, p) in probs.iter().enumerate() {
            let p = p.as_object().unwrap();
            let kinds: String = p.keys().cloned().collect();
            let domain: std::collections::BTreeSet<char> = w.0[i].to_string().chars().collect();
            assert_eq!(
                kinds.chars().collect::<std::collections::BTreeSet<_>>(),
                domain
            );
            // Exact fractions summing to 1.
            let (mut num, mut den) = (0u128, 1u128);
            for f in p.values() {
                let f = f.as_str().unwrap();
                let (a, b) = f.split_once('/').map_or((f, "1"), |x| x);
                let (a, b): (u128, u128) = (a.parse().unwrap(), b.parse().unwrap());
                num = num * b + a * den;
                den *= b;
                let g = gcd(num, den);
                num /= g;
                den /= g;
            }
            assert_eq!((num, den), (1, 1), "piece {i}: {p:?}");
        }
    }
}

/// A history holds 0–40 observations: every drawn one can be left out (it would make the
/// world contradictory), and then the vector is the unobserved world
/// (specs/schema/gen-quantum.md, the example of `--seed 2`, vector 20).
#[test]
fn a_quantum_history_can_be_empty() {
    let v = gen(&["quantum", "--count", "21", "--seed", "2"]);
    assert!(v
        .iter()
        .all(|x| x["history"].as_array().unwrap().len() <= 40));
    let x = &v[20];
    assert_eq!(x["history"].as_array().unwrap().len(), 0, "{x}");
    assert_eq!(x["world"], vec!["KRBGSNLP"; 20].join(" "));
    assert_eq!(x["used_up"], "-");
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

#[test]
fn records_read_back_in_every_format() {
    use shogi_lab::notation::{csa::read_csa, kif::read_kif, sfen::parse_usi_position};
    for format in ["kif", "ki2", "csa", "usi", "jkf"] {
        let v = gen(&["records", "--count", "25", "--seed", "4", "--to", format]);
        assert_eq!(v.len(), 25);
        for x in &v {
            let text = x["text"].as_str().unwrap();
            let want: Vec<&str> = x["moves"]
                .as_array()
                .unwrap()
                .iter()
                .map(|m| m.as_str().unwrap())
                .collect();
            let got: Vec<String> = match format {
                "kif" | "ki2" => read_kif(text)
                    .unwrap()
                    .main_moves()
                    .iter()
                    .map(|m| m.to_string())
                    .collect(),
                "csa" => read_csa(text).unwrap()[0]
                    .main_moves()
                    .iter()
                    .map(|m| m.to_string())
                    .collect(),
                "usi" => parse_usi_position(text, Rules::STANDARD)
                    .unwrap()
                    .moves
                    .iter()
                    .map(|m| m.to_string())
                    .collect(),
                _ => {
                    // JKF: each move's from/to/piece/promote back to USI (the schema check is
                    // paper/scripts/jkf_check.py).
                    let j: serde_json::Value = serde_json::from_str(text).unwrap();
                    assert_eq!(j["moves"][0], serde_json::json!({}));
                    let sq = |p: &serde_json::Value| {
                        format!(
                            "{}{}",
                            p["x"].as_u64().unwrap(),
                            (b'a' + p["y"].as_u64().unwrap() as u8 - 1) as char
                        )
                    };
                    j["moves"].as_array().unwrap()[1..]
                        .iter()
                        .filter(|m| !m["move"].is_null())
                        .map(|m| {
                            let mv = &m["move"];
                            if mv["from"].is_null() {
                                let letter = match mv["piece"].as_str().unwrap() {
                                    "FU" => "P",
                                    "KY" => "L",
                                    "KE" => "N",
                                    "GI" => "S",
                                    "KI" => "G",
                                    "KA" => "B",
                                    "HI" => "R",
                                    p => panic!("drop of {p}"),
                                };
                                format!("{letter}*{}", sq(&mv["to"]))
                            } else {
                                let plus = if mv["promote"] == true { "+" } else { "" };
                                format!("{}{}{plus}", sq(&mv["from"]), sq(&mv["to"]))
                            }
                        })
                        .collect()
                }
            };
            assert_eq!(got, want, "{format}");
            let start = parse_position(x["start"].as_str().unwrap(), Rules::STANDARD).unwrap();
            let mut g = shogi_lab::rules::Game::new(start);
            for u in &want {
                let m = resolve_usi_move(g.position(), u).unwrap();
                g.play(m).unwrap();
            }
            assert_eq!(
                shogi_lab::notation::sfen::write_sfen(g.position()),
                x["sfen"].as_str().unwrap()
            );
            assert_eq!(
                g.outcome().result(),
                x["outcome"]["result"].as_str().unwrap()
            );
        }
    }
}

/// `gen … --shard I/N` for every N: the parts concatenated in order are the unsharded
/// output, byte for byte (counts that N does not divide, and more parts than vectors).
#[test]
fn shards_concatenate_to_the_single_run() {
    let raw = |args: &[&str]| -> String {
        let out = Command::new(env!("CARGO_BIN_EXE_shogi-lab"))
            .arg("gen")
            .args(args)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).unwrap()
    };
    let runs: [(&[&str], usize); 6] = [
        (
            &["positions", "--count", "23", "--seed", "7", "--depth", "1"],
            23,
        ),
        (&["tsume", "--count", "7", "--plies", "3", "--seed", "7"], 7),
        (&["quantum", "--count", "23", "--seed", "7"], 23),
        (
            &["records", "--count", "11", "--seed", "7", "--to", "usi"],
            11,
        ),
        (
            &["records", "--count", "5", "--seed", "7", "--to", "kif"],
            5,
        ),
        (
            &["positions", "--count", "2", "--seed", "7", "--depth", "1"],
            2,
        ),
    ];
    for (args, count) in runs {
        let whole = raw(args);
        assert_eq!(whole.lines().count(), count, "{args:?}");
        for n in [1usize, 2, 3, 4] {
            let mut joined = String::new();
            for i in 0..n {
                let s = format!("{i}/{n}");
                let mut a = args.to_vec();
                a.extend(["--shard", &s]);
                let part = raw(&a);
                // Contiguous blocks whose sizes differ by at most one.
                let size = part.lines().count();
                assert!(size == count / n || size == count / n + 1, "{a:?}: {size}");
                joined.push_str(&part);
            }
            assert_eq!(joined, whole, "{args:?} in {n} shards");
        }
    }
    // Bad shards are refused with exit 2.
    for bad in ["3/3", "1", "a/2"] {
        let out = Command::new(env!("CARGO_BIN_EXE_shogi-lab"))
            .args(["gen", "quantum", "--count", "3", "--shard", bad])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
    // A vector that finds no mate within its candidates is left out, with exit 1.
    let out = Command::new(env!("CARGO_BIN_EXE_shogi-lab"))
        .args([
            "gen",
            "tsume",
            "--count",
            "2",
            "--plies",
            "41",
            "--max-candidates",
            "3",
            "--nodes",
            "1000",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("2 of 2 vectors"));
}
