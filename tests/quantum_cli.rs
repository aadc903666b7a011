//! `shogi-lab quantum …`: JSON shapes, exit codes, and agreement of `--engine`s.

mod support;

use support::run_shogi_lab as run;

fn world(head: &str) -> String {
    let n = head.split_whitespace().count();
    format!("{head}{}", " *".repeat(20 - n))
}

#[test]
fn converge_json_shape_and_engines_agree() {
    let w = world("RL RL R");
    let mut outs = Vec::new();
    for e in ["counting", "peel", "sat", "enumeration"] {
        let (code, out, _) = run(&["quantum", "converge", "--engine", e, "--json", &w]);
        assert_eq!(code, 0);
        outs.push(out);
    }
    assert!(outs.iter().all(|o| o == &outs[0]));
    let mut expect = vec!["\"L\"", "\"L\"", "\"R\""];
    expect.extend(std::iter::repeat("\"KBGSNP\"").take(17));
    assert_eq!(
        outs[0].trim(),
        format!(
            "{{\"consistent\":true,\"world\":[{}],\"used_up\":\"RL\",\"conflict\":null}}",
            expect.join(",")
        )
    );
}

#[test]
fn converge_contradiction_and_bad_input() {
    let (code, out, _) = run(&["quantum", "converge", "--json", &world("BR BK RK BRK")]);
    assert_eq!(
        (code, out.trim()),
        (
            0,
            "{\"consistent\":false,\"world\":null,\"used_up\":null,\"conflict\":[0,1,2,3]}"
        )
    );
    let (code, out, _) = run(&["quantum", "converge", &world("R R")]);
    assert_eq!((code, out.trim()), (0, "contradiction: pieces 0:R 1:R"));
    let (code, _, err) = run(&["quantum", "converge", "RL RL R"]);
    assert_eq!(code, 2);
    assert_eq!(
        err.trim(),
        "shogi-lab: <argument>:1: expected exactly 20 pieces, found 3"
    );
    let (code, _, err) = run(&["quantum", "converge", &world("RX")]);
    assert_eq!(code, 2);
    assert_eq!(err.lines().count(), 1);
}

#[test]
fn probabilities_json_shape() {
    let (code, out, _) = run(&[
        "quantum",
        "probabilities",
        "--json",
        &world("RL RL RL K B G G S S N N P P P P P P P P P"),
    ]);
    assert_eq!(code, 0);
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    // Kinds labelled by their letters; zero entries left out; exact fractions as strings.
    assert_eq!(v["worlds"], "3");
    assert_eq!(v["counts"][0], serde_json::json!({"R": "1", "L": "2"}));
    assert_eq!(
        v["probabilities"][0],
        serde_json::json!({"R": "1/3", "L": "2/3"})
    );
    assert_eq!(v["probabilities"][3], serde_json::json!({"K": "1"}));
    assert_eq!(v["counts"].as_array().unwrap().len(), 20);
}

#[test]
fn observe_is_seeded_and_consistent() {
    let w = world("RL RL RL");
    let a = run(&["quantum", "observe", "--seed", "5", "--json", &w, "1"]);
    let b = run(&["quantum", "observe", "--seed", "5", "--json", &w, "1"]);
    assert_eq!(a, b);
    assert_eq!(a.0, 0);
    let v: serde_json::Value = serde_json::from_str(&a.1).unwrap();
    let kind = v["kind"].as_str().unwrap();
    match kind {
        "R" => assert_eq!(v["probability"], "1/3"),
        "L" => assert_eq!(v["probability"], "2/3"),
        _ => panic!("observed {kind}"),
    }
    assert_eq!(v["world"][1], kind);
    // A contradictory world is an answer (exit 0), the same as `converge` gives it.
    let contra = run(&["quantum", "observe", "--seed", "5", &world("R R"), "0"]);
    assert_eq!(contra.0, 0);
    assert!(
        contra.1.starts_with("contradiction: pieces"),
        "{}",
        contra.1
    );
    assert_eq!(run(&["quantum", "observe", "--seed", "5", &w, "20"]).0, 2);
}

/// `observe --json` prints the same key set for a consistent and a contradictory world
/// (specs/schema/commands.md), `null` where absent.
#[test]
fn observe_json_has_one_key_set() {
    let keys = |out: &str| -> Vec<String> {
        let v: serde_json::Value = serde_json::from_str(out).unwrap();
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    };
    let ok = run(&[
        "quantum",
        "observe",
        "--seed",
        "1",
        "--json",
        &world("RL RL RL"),
        "0",
    ]);
    let bad = run(&[
        "quantum",
        "observe",
        "--seed",
        "1",
        "--json",
        &world("R R"),
        "0",
    ]);
    assert_eq!((ok.0, bad.0), (0, 0));
    assert_eq!(keys(&ok.1), keys(&bad.1));
    assert_eq!(
        keys(&ok.1),
        [
            "conflict",
            "consistent",
            "kind",
            "piece",
            "probability",
            "used_up",
            "world"
        ]
    );
    let v: serde_json::Value = serde_json::from_str(&bad.1).unwrap();
    assert_eq!(v["consistent"], false);
    assert_eq!(v["conflict"], serde_json::json!([0, 1]));
    assert!(v["kind"].is_null() && v["world"].is_null() && v["used_up"].is_null());
    let v: serde_json::Value = serde_json::from_str(&ok.1).unwrap();
    assert_eq!(v["consistent"], true);
    assert!(v["conflict"].is_null());
}
