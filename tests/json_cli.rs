//! `--json` on every subcommand speaks one vocabulary (`specs/schema/README.md`):
//! every line is one JSON object, `time_ms` is an integer, absent values are
//! `null` (never `""`), every `sfen` is a position our SFEN reader accepts, every
//! `usi` a line of moves legal from it or from `start`, and the same concepts keep
//! their names across commands.

use serde_json::Value;
use shogi_lab::notation::sfen::parse_setup;
use std::process::Command;

fn run(args: &[&str]) -> Vec<Value> {
    let out = Command::new(env!("CARGO_BIN_EXE_shogi-lab"))
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{args:?}: {e}: {l}")))
        .collect();
    assert!(!lines.is_empty(), "{args:?}: no output");
    lines
}

/// Walks a value and checks the vocabulary's rules.
fn check(v: &Value, path: &str, args: &[&str]) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                let p = format!("{path}.{k}");
                match k.as_str() {
                    "time_ms" => assert!(x.is_u64(), "{args:?} {p} = {x} is not an integer"),
                    "nodes" | "plies" | "depth" => assert!(
                        x.is_u64() || x.is_null(),
                        "{args:?} {p} = {x} is not an integer or null"
                    ),
                    "sfen" | "start" if x.is_string() => {
                        parse_setup(x.as_str().unwrap())
                            .unwrap_or_else(|e| panic!("{args:?} {p}: {e}"));
                    }
                    "result" if x.is_string() => assert!(
                        x.as_str()
                            .unwrap()
                            .chars()
                            .all(|c| c.is_ascii_lowercase() || c == '_'),
                        "{args:?} {p} = {x}"
                    ),
                    _ => {}
                }
                assert_ne!(x, &Value::String(String::new()), "{args:?} {p} is \"\"");
                check(x, &p, args);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| check(x, path, args)),
        _ => {}
    }
}

#[test]
fn every_subcommand_speaks_the_vocabulary() {
    let dir = std::env::temp_dir().join(format!("shogi-lab-json-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let svg = dir.join("b.svg");
    let game = dir.join("q.txt");
    std::fs::write(
        &game,
        Command::new(env!("CARGO_BIN_EXE_shogi-lab"))
            .args(["quantum", "play", "--random", "--seed", "2", "--plies", "8"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let w = "RL RL RL K B G G S S N N P P P P P P P P P";
    let cert = dir.join("mate.cert");
    {
        use shogi_lab::tsume::{load_problem, DefenderHand, Solver, SolverOptions};
        let pos = load_problem("8k/9/8P/9/9/9/9/9/9 b G 1", DefenderHand::Remaining).unwrap();
        let mut solver = Solver::try_new(SolverOptions {
            memory_mib: 16,
            ..SolverOptions::default()
        })
        .unwrap();
        let r = solver.solve(&pos);
        let c = shogi_lab::tsume::certificate::extract(&solver, &pos, &r).unwrap();
        let mut text = Vec::new();
        shogi_lab::tsume::certificate::write_jsonl(&c, &mut text).unwrap();
        std::fs::write(&cert, text).unwrap();
    }
    // Our own generator behind the `diff` protocols: `moves -` prints `SFEN<TAB>moves`.
    let bin = env!("CARGO_BIN_EXE_shogi-lab");
    let movegen = format!("'{bin}' moves - | cut -f2");
    let perft_engine = format!(
        "while read d s; do '{bin}' perft \"$s\" $d --json | sed 's/.*\"nodes\":\\([0-9]*\\).*/\\1/'; done"
    );
    let cases: Vec<Vec<&str>> = vec![
        vec!["perft", "startpos", "2", "--json"],
        vec!["perft", "startpos", "2", "--json", "--divide"],
        vec!["moves", "specs/game/positions.sfen", "--json"],
        vec![
            "show",
            "specs/records/sjis_hirate_times.kif",
            "--ply",
            "3",
            "--json",
        ],
        vec!["show", "startpos", "--json", "--svg", svg.to_str().unwrap()],
        vec![
            "convert",
            "--to",
            "kif",
            "--json",
            "specs/records/sjis_hirate_times.kif",
        ],
        vec![
            "convert",
            "--to",
            "jkf",
            "--json",
            "specs/records/floodgate_style.csa",
        ],
        vec!["quantum", "converge", "--json", w],
        vec!["quantum", "probabilities", "--json", w],
        vec!["quantum", "observe", "--seed", "1", "--json", w, "0"],
        vec![
            "quantum",
            "replay",
            game.to_str().unwrap(),
            "--json",
            "--probabilities",
        ],
        vec![
            "quantum", "play", "--random", "--seed", "1", "--plies", "10", "--json",
        ],
        vec!["quantum", "perft", "2", "--json"],
        vec!["place", "--first", "--json", "K1R1"],
        vec!["place", "--count", "--json", "R2B2"],
        vec![
            "place", "--count", "--sweep", "--json", "--shard", "1/3", "R2B2",
        ],
        vec!["place", "--all", "--json", "R2"],
        vec!["quantum", "converge", "--json", "--certify", w],
        vec!["quantum", "perft", "2", "--json", "--shard", "0/2"],
        vec!["show", game.to_str().unwrap(), "--ply", "5", "--json"],
        vec!["tsume", "8k/9/8P/9/9/9/9/9/9 b G 1", "--json"],
        vec!["check-certificate", cert.to_str().unwrap(), "--json"],
        vec!["gen", "tsume", "--count", "2", "--plies", "1"],
        vec!["gen", "quantum", "--count", "5"],
        vec!["gen", "records", "--count", "3", "--to", "csa"],
        vec![
            "diff",
            "moves",
            "--engine",
            &movegen,
            "--positions",
            "30",
            "--json",
        ],
        vec![
            "diff",
            "perft",
            "--engine",
            &perft_engine,
            "--depth",
            "1",
            "--positions",
            "5",
            "--json",
        ],
        vec!["gen", "positions", "--count", "20", "--json-is-the-default"],
    ];
    for args in &cases {
        if args.contains(&"--json-is-the-default") {
            // gen writes JSON lines without a flag.
            let lines = run(&["gen", "positions", "--count", "20"]);
            lines.iter().for_each(|l| check(l, "", args));
            continue;
        }
        for l in run(args) {
            check(&l, "", args);
        }
    }
    // Same names for the same things across commands.
    let perft = &run(&["perft", "startpos", "1", "--json"])[0];
    let shown = &run(&["show", "startpos", "--json"])[0];
    assert_eq!(perft["sfen"], shown["sfen"]);
    assert!(shown["last_move"].is_null() && shown["svg"].is_null());
    // A version-4 length certificate beside a plain one (version 1, `cert` above).
    let plain = dir.join("l.jsonl");
    run(&[
        "tsume",
        "8k/9/8P/9/9/9/9/9/9 b G 1",
        "--json",
        "--certificate",
        plain.to_str().unwrap(),
    ]);
    let length = dir.join("l.length.jsonl");
    let v1 = &run(&["check-certificate", cert.to_str().unwrap(), "--json"])[0];
    assert!(v1["length"].is_null() && v1["futile"].is_null(), "{v1}");
    // One result type, one key set: absent values are null, not missing keys.
    let keys = |v: &Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    let same_keys = [
        (
            vec!["quantum", "converge", "--json", w],
            vec![
                "quantum",
                "converge",
                "--json",
                "R R R * * * * * * * * * * * * * * * * *",
            ],
        ),
        (
            vec!["place", "--count", "--json", "R2B2"],
            vec![
                "place", "--count", "--sweep", "--json", "--shard", "0/2", "R2B2",
            ],
        ),
        (
            vec!["place", "--first", "--json", "R2B2"],
            vec!["place", "--first", "--json", "K1R10"],
        ),
        (
            vec!["show", "startpos", "--json"],
            vec!["show", game.to_str().unwrap(), "--json", "--ply", "8"],
        ),
        (
            vec!["tsume", "8k/9/8P/9/9/9/9/9/9 b G 1", "--json"],
            vec!["tsume", "8k/9/9/9/9/9/9/9/9 b G 1", "--json"],
        ),
        (
            vec!["check-certificate", cert.to_str().unwrap(), "--json"],
            vec!["check-certificate", length.to_str().unwrap(), "--json"],
        ),
    ];
    for (a, b) in &same_keys {
        let (x, y) = (&run(a)[0], &run(b)[0]);
        assert_ne!(x, y, "{a:?} and {b:?} should be different answers");
        assert_eq!(keys(x), keys(y), "{a:?} vs {b:?}");
    }
    let qp = &run(&["quantum", "probabilities", "--json", w])[0];
    assert_eq!(qp["probabilities"][0]["R"], "1/3");
    assert!(std::fs::read_to_string(&svg).unwrap().starts_with("<svg"));
    let out = dir.join("exp");
    for l in run(&[
        "experiments",
        "records",
        "--json",
        "--out",
        out.to_str().unwrap(),
    ]) {
        check(&l, "", &["experiments"]);
        assert_eq!(l["name"], "records");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
